"""The only code that touches ``machine``: pins, buttons, display, storage, sleep."""
