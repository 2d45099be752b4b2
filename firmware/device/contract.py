"""The hardware contract: everything ``App(hw)`` (firmware/app.py) and main.py need of the hardware.

Three implementations exist: ``device.pico.PicoHw`` (the handheld),
``host_tools/hw/fake_hw.py``'s ``FakeHw`` (the simulator, the tests, the
benchmarks, the link harnesses; it runs under MicroPython too) and
``host_tools/web/static/webhw.py``'s ``WebHw`` (the game on a web page).  Nothing
else may stand in for the hardware: a new need is added here first, then to
all three (tests/test_app.py holds each to ``missing`` and ``extra``).  The App
never imports ``machine``; only device/ does.

``hw.clock``
    ``ticks_ms()`` -> int: milliseconds, wrapping at 2**30 like
    ``time.ticks_ms`` (compare with ``events.ticks_diff``, never ``-``);
    ``sleep_ms(ms)``: main.py's loop sleeps between steps.
``hw.buttons``
    ``events()`` -> list of ints ``button * 4 + kind`` (``events.py``:
    UP DOWN LEFT RIGHT DRAW DISCARD KNOCK MENU, PRESS LONG REPEAT RELEASE),
    debounced, in order, each delivered once; ``held()`` -> bit mask of the
    buttons down now.  Presses made while the App is busy wait in a queue.
``hw.display``
    ``present`` -> bool (False: missing or fallen off; ``show`` keeps trying);
    ``show(buf)`` -> bool: one 1,024-byte MONO_VLSB frame (ui.canvas);
    ``contrast(level)`` 0..255; ``power(on)``.  Never raises.  ``damage``: the App
    sets it before a ``show`` that redrew only part of the frame, to
    ``[(first page, last page, first column, last column)]`` (where the frame may
    differ from the last one shown), or leaves it None; a display may use it to send
    less, or ignore it.
``hw.storage``
    a ``device.storage.FileStorage``: ``read``, ``read_backup``, ``read_temp``
    -> bytes or None; ``write_atomic(name, data, keep=True)`` (raises OSError
    when the flash refuses); ``remove(name)``; ``exists(name)``.
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
    'pico', 'host' or 'web', for logs.
``hw.link``
    None (no link cable here), or the link cable's byte port (docs/LINK.md):
    ``open()``, ``close()``, ``write(bytes)``, ``read()`` -> bytes or None;
    none of them waits.  UART0 on the Pico (``device.linkport``), TCP or a
    line model on a host (host_tools/link/).
``hw.random_bytes(n)``, optional
    -> n bytes for a link match's commitment; without it the App uses
    ``os.urandom`` (the link harnesses give a seeded source, for repeatable runs).
"""

# (attribute, the methods or fields it must have): tests/test_app.py holds every
# implementation to this list.
PARTS = (
    ("clock", ("ticks_ms", "sleep_ms")),
    ("buttons", ("events", "held")),
    ("display", ("present", "show", "contrast", "power", "damage")),
    ("storage", ("read", "read_backup", "read_temp", "write_atomic", "remove", "exists")),
    ("led", ("set",)),
    ("sound", ("tone",)),
)
CALLS = ("battery_mv", "log", "reset")
FIELDS = ("feed", "name", "link")
OPTIONAL = ("random_bytes",)


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


def extra(hw):
    """What ``hw`` offers beyond the contract, as 'part.name' strings (public names only).

    A host's own controls are fine (a virtual clock's ``advance``, the web
    page's ``buttons.change``); tests/test_app.py requires each to be used
    somewhere, so dead code (a ``clock.diff`` nothing calls) can't hide here.
    """
    out = []
    own = [p for p, _n in PARTS]
    own.extend(CALLS)
    own.extend(FIELDS)
    own.extend(OPTIONAL)
    for part, names in PARTS:
        obj = getattr(hw, part, None)
        if obj is not None:
            out.extend(part + "." + n for n in dir(obj) if n[0] != "_" and n not in names)
    out.extend(n for n in dir(hw) if n[0] != "_" and n not in own)
    return out
