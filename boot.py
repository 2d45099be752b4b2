"""Device boot: hold the safe-mode button at power-on to skip the app.

rp2 MicroPython has no safe mode of its own, and a main.py that loops (with a
watchdog) keeps the REPL busy; holding the button named in device/pins.py
(SAFE_BUTTON, MENU) while plugging in leaves the REPL free for mpremote.
boot.py and main.py share one global namespace, so the decision is handed
over in GIN_SAFE; main.py reads the button itself if it is missing.
"""

GIN_SAFE = False
try:
    from device.pico import safe_held

    GIN_SAFE = safe_held()
except Exception as e:  # a broken pin map must not brick the board: run the app, which logs it
    print("boot.py:", e)
if GIN_SAFE:
    print("Safe mode: the app is skipped, the REPL is free.")
