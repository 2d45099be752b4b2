"""Generators: fonts and card art, meld tables, the wiring SVG and the pin docs, all from their one source."""
