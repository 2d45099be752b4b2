"""The link cable on a PC: a TCP port for two simulators, a line model with faults, two Apps joined by it."""
