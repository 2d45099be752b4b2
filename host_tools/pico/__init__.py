"""The Pico check (make pico): the deployed files on an emulated Pico running the official firmware.

emulator.py sets up and drives ../shared/pico's emulator (skipped with one line where it is
absent: a user's clone has no ../shared/pico); check.py holds the scenarios, reads what the chips did
and judges it against the memory budget; probe_main.py is the probe the runs
boot (compiled to gin_probe.mpy, started by a two-line main.py).
"""
