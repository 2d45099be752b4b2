# The Pico check's probe (host_tools/pico), compiled to gin_probe.mpy and started by a two-line
# main.py: the deployed main.py runs unchanged (as gin_main), with a probe in the watchdog's feed,
# which the loop calls once a step.  Every PERIOD_MS it collects and prints the heap (free bytes
# and micropython.mem_info's largest free block); it times every computer decision; PROBE_FILL (a
# file on the flash) makes it fill the heap and raise, to show the crash path working with no
# memory left.  Its own cost: about 1 KB.
import gc
import sys
import time

import micropython

PERIOD_MS = 1000
_PLAYERS = (
    ("gin.ai", ("BaselinePlayer", "EasyPlayer", "NormalPlayer")),
    ("gin.ai_hard", ("HardPlayer",)),
    ("gin.ai_expert", ("ExpertPlayer",)),
)


def _sample(tag):
    gc.collect()
    print("PROBE", tag, time.ticks_ms(), gc.mem_free())
    micropython.mem_info()


def _timer(choose):
    def timed(self, obs):
        t0 = time.ticks_us()
        a = choose(self, obs)
        print("PROBE decide", time.ticks_ms(), time.ticks_diff(time.ticks_us(), t0) // 1000)
        return a

    return timed


def time_players():
    # The mark is on the class itself: a list of the classes timed would keep every match's
    # computer players alive after the game dropped them (19 KB of the heap from the second
    # match on, charged to the game).
    for mod, names in _PLAYERS:
        m = sys.modules.get(mod)
        if m is None:
            continue
        for name in names:
            cls = getattr(m, name, None)
            if cls is not None and "choose" in cls.__dict__ and "_probe_timed" not in cls.__dict__:
                cls._probe_timed = True
                cls.choose = _timer(cls.choose)


def _fill_and_raise():
    import os

    os.remove("PROBE_FILL")  # once: the restart that follows boots normally
    keep = []
    size = 4096
    while size >= 16:
        try:
            keep.append(bytearray(size))
        except MemoryError:
            size //= 2
    print("PROBE filled", time.ticks_ms(), gc.mem_free())
    _held.append(keep)  # held for good: the crash path gets only what it frees itself
    raise MemoryError("probe: the heap is full")


_held = []


def _wrap():
    from device import pico

    start = pico.start_watchdog
    try:
        import os

        os.stat("PROBE_FILL")
        fill = True
    except OSError:
        fill = False

    def start_watchdog(ms):
        feed = start(ms)
        last = [time.ticks_ms(), time.ticks_ms()]
        _sample("loop")

        def probe_feed():
            feed()
            time_players()
            now = time.ticks_ms()
            if time.ticks_diff(now, last[0]) >= PERIOD_MS:
                last[0] = now
                _sample("heap")
            if fill and not _held and time.ticks_diff(now, last[1]) >= 3000:
                _fill_and_raise()

        return probe_feed

    pico.start_watchdog = start_watchdog


def run():
    """The board's main.py calls this (gin_probe.mpy); a host test imports the probe's parts."""
    _wrap()
    import gin_main

    gin_main.main()
