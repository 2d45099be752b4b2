"""Hardware models for the host: the SSD1306 controller, the I2C bus, the host display, the simulated device."""
