"""The hardware contract: everything ``App(hw)`` (firmware/app.py) and main.py need of the hardware.

Two implementations exist: ``device.pico.PicoHw`` (the handheld) and
``host_tools/hw/fake_hw.py``'s ``FakeHw`` (the simulator, the tests, the
benchmarks; it runs under MicroPython too).  Nothing else may stand in for the
hardware: a new need is added here first, then to both.  The App never
imports ``machine``; only device/ does.

``hw.clock``
    ``ticks_ms()`` -> int: milliseconds, wrapping at 2**30 like
    ``time.ticks_ms`` (compare with ``device.buttons.ticks_diff``, never ``-``);
    ``sleep_ms(ms)``: main.py's loop sleeps between steps.
``hw.buttons``
    ``events()`` -> list of ints ``button * 4 + kind`` (``device.buttons``:
    UP DOWN LEFT RIGHT DRAW DISCARD KNOCK MENU, PRESS LONG REPEAT RELEASE),
    debounced, in order, each delivered once; ``held()`` -> bit mask of the
    buttons down now.  Presses made while the App is busy wait in a queue.
``hw.display``
    ``present`` -> bool (False: missing or fallen off; ``show`` keeps trying);
    ``show(buf)`` -> bool: one 1,024-byte MONO_VLSB frame (ui.canvas);
    ``contrast(level)`` 0..255; ``power(on)``.  Never raises.
``hw.storage``
    a ``device.storage.FileStorage``: ``read``, ``read_backup``, ``read_temp``
    -> bytes or None; ``write_atomic(name, data, keep=True)`` (raises OSError
    when the flash refuses); ``remove(name)``.
``hw.led``
    ``set(on)``: the board's LED (blinks a code when the display is missing).
``hw.sound``
    ``tone(freq_hz, ms)``: the piezo; returns at once, the tone stops itself.
``hw.battery_mv()``
    -> int mV, or None without a battery gauge.
``hw.log(text)``
    appends a line to the crash log (crash.log in flash); never raises.
``hw.feed``
    None, or the watchdog's feed function (main.py sets it once the loop
    runs; the App calls it before a slow computer move).
``hw.reset()``
    restarts the board (the host raises its FakeReset instead).
``hw.name``
    'pico' or 'host', for logs.
``hw.link``
    None (no link cable here), or the link cable's byte port (docs/LINK.md):
    ``open()``, ``close()``, ``write(bytes)``, ``read()`` -> bytes or None;
    none of them waits.  UART0 on the Pico (``device.linkport``), TCP or a
    line model on a host (host_tools/link/).
"""

# (attribute, the methods or fields it must have): tests/test_seams.py holds both
# implementations to this list.
PARTS = (
    ("clock", ("ticks_ms", "sleep_ms")),
    ("buttons", ("events", "held")),
    ("display", ("present", "show", "contrast", "power")),
    ("storage", ("read", "read_backup", "read_temp", "write_atomic", "remove")),
    ("led", ("set",)),
    ("sound", ("tone",)),
)
CALLS = ("battery_mv", "log", "reset")
FIELDS = ("feed", "name", "link")


def missing(hw):
    """What ``hw`` lacks of the contract, as 'part.name' strings (empty: it fulfils it)."""
    out = []
    for part, names in PARTS:
        obj = getattr(hw, part, None)
        if obj is None:
            out.append(part)
            continue
        for n in names:
            if not hasattr(obj, n):
                out.append(part + "." + n)
    for n in CALLS:
        if not callable(getattr(hw, n, None)):
            out.append(n + "()")
    for n in FIELDS:
        if not hasattr(hw, n):
            out.append(n)
    return out
