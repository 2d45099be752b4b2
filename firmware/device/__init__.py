"""The only code that touches ``machine``: pins, buttons, display, storage, sleep (contract.py: what the App needs)."""
