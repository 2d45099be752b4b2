"""MicroPython on the host: the WebAssembly runner, the tests/mp runner and the fake board."""
