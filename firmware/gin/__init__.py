"""The rules core of the handheld gin game: pure Python, no I/O, the same on CPython and MicroPython."""
