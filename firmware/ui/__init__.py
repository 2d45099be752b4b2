"""Screens for the 128x64 OLED: a Canvas to draw on, fonts and card art.

Submodules are imported on demand (``from ui.canvas import Canvas``) so that
importing the package costs no RAM.
"""
