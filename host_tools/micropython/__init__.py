"""MicroPython on the host: the WebAssembly runner and the tests/mp runner."""
