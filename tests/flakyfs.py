"""A file system that loses power: the test double behind the power-cut sweeps.

FlakyFS wraps any file system with the FileStorage interface (MemFS or OsFS)
and dies during its Nth operation or while writing its Nth byte.  What a real
power cut leaves behind, it leaves too:

- a file being written keeps only the bytes that made it (``torn="truncate"``)
  or those followed by junk up to the full length (``torn="garble"``, a page
  half programmed);
- a rename or a remove happens entirely or not at all (littlefs commits
  metadata atomically; the sweep cuts before the operation);
- after the cut every call raises PowerCut: the "device" is off.

"Rebooting" is building a new FileStorage over the wrapped file system.
"""

import random


class PowerCut(Exception):
    """Not an OSError on purpose: the code under test must not be able to swallow it as a flash error."""


class FlakyFS:
    def __init__(self, base, fail_op=None, fail_byte=None, torn="truncate", seed=0):
        self.base = base
        self.fail_op = fail_op  # 1-based number of the operation during which the power fails
        self.fail_byte = fail_byte  # 1-based number of the written byte that never makes it
        self.torn = torn
        self.rng = random.Random(seed)
        self.ops = 0
        self.bytes = 0
        self.dead = False

    def _op(self):
        if self.dead:
            raise PowerCut("the power is off")
        self.ops += 1
        return self.fail_op is not None and self.ops >= self.fail_op

    def _cut(self):
        self.dead = True
        raise PowerCut("power cut at op %d, byte %d" % (self.ops, self.bytes))

    def read(self, path):
        if self.dead:
            raise PowerCut("the power is off")
        return self.base.read(path)

    def exists(self, path):
        if self.dead:
            raise PowerCut("the power is off")
        return self.base.exists(path)

    def write(self, path, data):
        data = bytes(data)
        cut_now = self._op()
        keep = len(data)
        if cut_now:
            keep = self.rng.randrange(len(data) + 1)
        if self.fail_byte is not None and self.bytes + keep >= self.fail_byte:
            keep = min(keep, self.fail_byte - 1 - self.bytes)
            cut_now = True
        self.bytes += keep
        if not cut_now:
            self.base.write(path, data)
            return
        part = data[:keep]
        if self.torn == "garble":
            part += bytes(self.rng.randrange(256) for _ in range(len(data) - keep))
        self.base.write(path, part)
        self._cut()

    def rename(self, old, new):
        if self._op():
            self._cut()
        self.base.rename(old, new)

    def remove(self, path):
        if self._op():
            self._cut()
        self.base.remove(path)

    def mkdir(self, path):
        # Folders are made once at start-up, not during a save: not counted.
        if self.dead:
            raise PowerCut("the power is off")
        self.base.mkdir(path)


def count_ops(base_factory, action):
    """(operations, bytes) that ``action(fs)`` performs on a fresh file system from base_factory."""
    fs = FlakyFS(base_factory())
    action(fs)
    return fs.ops, fs.bytes
