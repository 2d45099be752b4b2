// The Python that host_tools/micropython/fake_board.mjs runs on its board at every boot: the "ROM"
// (the flash, errno numbers and a `machine` module) and, for --version, an older MicroPython's sys.
// A module of its own so that the board's engine reads as the REPL it serves.

// What the "ROM" does at every boot: mount the flash at "/", with errno numbers as
// MicroPython's (mpremote reads ENOENT/EEXIST from tracebacks), and give the board
// a `machine` module whose reset() really resets this board.  Pins and buses are
// inert stand-ins: enough to import the firmware, not to emulate a Pico.
// flash: where the flash lives in the port's file system; fsBlocks: its size in 4 KiB blocks.
export function rom(flash, fsBlocks) {
  return `
def _rom():
    import sys, vfs, os
    import _board
    E = {63: 1, 44: 2, 29: 5, 8: 9, 6: 11, 48: 12, 2: 13, 10: 16, 20: 17, 75: 18,
         43: 19, 54: 20, 31: 21, 28: 22, 22: 27, 51: 28, 69: 30, 37: 36, 55: 39}

    def fix(f, *a):
        try:
            return f(*a)
        except OSError as e:
            n = e.args[0]
            raise OSError(E.get(n, n))

    class Flash:
        def __init__(self):
            self.v = vfs.VfsPosix("${flash}")
        def __repr__(self):
            return "<FakeFlash>"
        def mount(self, readonly, mkfs):
            pass
        def umount(self):
            pass
        def ilistdir(self, path):
            v = self.v
            out = []
            for e in fix(v.ilistdir, path):
                p = path.rstrip("/") + "/" + e[0] if path not in ("", ".") else e[0]
                size = 0 if e[1] == 0x4000 else fix(v.stat, p)[6]
                out.append((e[0], e[1], 0, size))
            return iter(out)
        def chdir(self, path):
            return fix(self.v.chdir, path)
        def getcwd(self):
            return fix(self.v.getcwd)
        def mkdir(self, path):
            return fix(self.v.mkdir, path)
        def remove(self, path):
            return fix(self.v.remove, path)
        def rename(self, a, b):
            return fix(self.v.rename, a, b)
        def rmdir(self, path):
            return fix(self.v.rmdir, path)
        def stat(self, path):
            return fix(self.v.stat, path)
        def open(self, path, mode):
            f = fix(self.v.open, path, mode)
            if "w" in mode or "a" in mode or "+" in mode:
                return Full(f)
            return f
        def statvfs(self, path):
            used = _board.used_blocks()
            free = ${fsBlocks} - used
            return (4096, 4096, ${fsBlocks}, free, free, 0, 0, 0, 0, 255)

    class Full:
        # A file being written: a littlefs that runs out of blocks says ENOSPC (28).
        def __init__(self, f):
            self.f = f
        def write(self, b):
            n = self.f.write(b)
            if _board.used_blocks() > ${fsBlocks}:
                raise OSError(28)
            return n
        def close(self):
            self.f.close()
        def flush(self):
            self.f.flush()
        def read(self, *a):
            return self.f.read(*a)
        def readinto(self, *a):
            return self.f.readinto(*a)
        def seek(self, *a):
            return self.f.seek(*a)
        def __enter__(self):
            return self
        def __exit__(self, *a):
            self.f.close()

    vfs.umount("/")
    vfs.mount(Flash(), "/")
    os.chdir("/")

    class Pin:
        IN = 0
        OUT = 1
        OPEN_DRAIN = 2
        PULL_UP = 1
        PULL_DOWN = 2
        IRQ_FALLING = 4
        IRQ_RISING = 8
        def __init__(self, id, mode=-1, pull=-1, value=None):
            self.id = id
            self._v = 1 if pull == 1 else 0
            if value is not None:
                self._v = 1 if value else 0
        def init(self, *a, **k):
            pass
        def value(self, v=None):
            if v is None:
                return self._v
            self._v = 1 if v else 0
        def __call__(self, v=None):
            return self.value(v)
        def on(self):
            self._v = 1
        def off(self):
            self._v = 0
        def toggle(self):
            self._v ^= 1
        def irq(self, *a, **k):
            return None

    class I2C:
        def __init__(self, id=0, *a, **k):
            self.id = id
        def scan(self):
            return []
        def writeto(self, addr, buf, stop=True):
            raise OSError(19)
        def writevto(self, addr, bufs, stop=True):
            raise OSError(19)
        def readfrom_mem(self, addr, mem, n):
            raise OSError(19)

    class PWM:
        def __init__(self, pin, freq=0, duty_u16=0):
            self._f = freq
            self._d = duty_u16
        def freq(self, f=None):
            if f is None:
                return self._f
            self._f = f
        def duty_u16(self, d=None):
            if d is None:
                return self._d
            self._d = d
        def deinit(self):
            pass

    class ADC:
        def __init__(self, ch):
            self.ch = ch
        def read_u16(self):
            return 0

    class Timer:
        ONE_SHOT = 0
        PERIODIC = 1
        def __init__(self, id=-1, **k):
            pass
        def init(self, **k):
            pass
        def deinit(self):
            pass

    class WDT:
        # Armed is armed: the board notes it, so a test can tell (nothing resets the fake).
        def __init__(self, id=0, timeout=5000):
            _board.event("watchdog armed %d" % timeout)
        def feed(self):
            pass

    class machine:
        pass

    def reset():
        _board.reset()

    def soft_reset():
        _board.soft_reset()

    def unique_id():
        return b"FAKEPICO"

    def freq(f=None):
        return 125000000

    def idle():
        pass

    def lightsleep(ms=0):
        import time
        time.sleep_ms(ms)

    def reset_cause():
        return 1

    for k, v in (("Pin", Pin), ("I2C", I2C), ("SoftI2C", I2C), ("PWM", PWM), ("ADC", ADC),
                 ("Timer", Timer), ("WDT", WDT), ("reset", reset), ("soft_reset", soft_reset),
                 ("unique_id", unique_id), ("freq", freq), ("idle", idle),
                 ("lightsleep", lightsleep), ("deepsleep", lightsleep),
                 ("reset_cause", reset_cause), ("PWRON_RESET", 1), ("WDT_RESET", 3)):
        setattr(machine, k, staticmethod(v) if callable(v) and not isinstance(v, type) else v)
    sys.modules["machine"] = machine

_rom()
del _rom
`;
}

// An older MicroPython: sys.implementation (and sys.version) say so.  Only what tools read.
export function older(v) {
  return `
def _older():
    import sys
    class Impl:
        name = "micropython"
        version = (${v.split(".").map(Number).join(", ")}, "")
        _machine = sys.implementation._machine
        _mpy = ${Number(v.split(".")[1]) >= 19 ? "6" : "5"}
    class Sys:
        implementation = Impl()
        version = "3.4.0; MicroPython v${v}"
        def __getattr__(self, k):
            return getattr(sys, k)
    sys.modules["sys"] = Sys()
_older()
del _older
`;
}
