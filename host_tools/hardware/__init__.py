"""The handheld you hold: one set of layout numbers (layout.py) that the printable case, the
perfboard picture and hole list, the schematic and the fit checks are all drawn from."""
