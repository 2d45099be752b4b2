"""A tiny test runner that works on MicroPython as well as CPython (no pytest, no unittest).

    mp_runner.py MODULE [MODULE...]

imports each test module by name, calls every ``test_*`` function in sorted order, prints
``FAIL module.test: Error: message`` per failure (traceback on stderr) and ends with the plain
line ``N passed, M failed``. Exit status 1 when anything failed or nothing ran.
Drive it from the host with ``python -m host_tools.micropython.mptest``.

As a script it runs under asyncio and pauses after every test: the wasm port collects garbage
only at such pauses, so with a fixed heap each test gets the whole heap, as on a device.
"""

import sys

# Made up front: raising them needs no memory, so the exit status survives a test that filled the heap.
_EXIT = (SystemExit(0), SystemExit(1))


def _print_traceback(e):
    if hasattr(sys, "print_exception"):
        sys.print_exception(e, sys.stderr)
    else:
        import traceback

        traceback.print_exception(type(e), e, e.__traceback__, file=sys.stderr)


def _report(name, dot, attr, e):
    try:
        print("FAIL %s%s%s: %s: %s" % (name, dot, attr, type(e).__name__, e))
        _print_traceback(e)
    except MemoryError:
        # The heap is full of the failed test's garbage (the wasm port collects none before the
        # next pause): this print allocates nothing.
        print("FAIL ", name, dot, attr, ": ", type(e).__name__, sep="")


def _steps(names, counts):
    """Run the tests, counting into counts = [passed, failed]; yield after each one."""
    for name in names:
        try:
            mod = __import__(name)
        except Exception as e:
            counts[1] += 1
            _report(name, " (import)", "", e)
            yield
            continue
        for attr in sorted(dir(mod)):
            fn = getattr(mod, attr)
            if not attr.startswith("test_") or not callable(fn):
                continue
            try:
                fn()
                counts[0] += 1
            except Exception as e:
                counts[1] += 1
                _report(name, ".", attr, e)
            fn = None
            yield


def _summary(counts):
    print(counts[0], "passed,", counts[1], "failed")  # allocates nothing, even on a full heap
    return 1 if counts[1] or not counts[0] else 0


def main(names):
    """Run the modules' tests; return the exit status."""
    counts = [0, 0]
    for _ in _steps(names, counts):
        pass
    return _summary(counts)


async def amain(names):
    """main() pausing between tests so the event loop (and the GC) can run; exits with the status."""
    import asyncio

    # MicroPython's sleep_ms(0) allocates nothing; sleep(0) would allocate a float there.
    sleep_ms = getattr(asyncio, "sleep_ms", None)
    counts = [0, 0]
    pausing = True
    for _ in _steps(names, counts):
        if not pausing:
            continue
        try:
            if sleep_ms is None:
                await asyncio.sleep(0)
            else:
                await sleep_ms(0)
        except MemoryError:
            pausing = False  # no room left even to reach the event loop: carry on without pauses
    raise _EXIT[_summary(counts)]


if __name__ == "__main__":
    import asyncio

    asyncio.run(amain(sys.argv[1:]))
