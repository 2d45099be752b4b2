"""Host-side (CPython only) tools: simulator, SSD1306 model, arena, bench, MicroPython runner, deploy."""
