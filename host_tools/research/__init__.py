"""Research: tools that measured where a stronger computer level could come from. Not product benchmarks.

They cheat on purpose (oracle) or ran an experiment whose result was negative (posterior); nothing
in the firmware, ``make bench`` or the arena seats their players. README.md says what each found.
"""
