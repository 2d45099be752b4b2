"""Small files that survive a power cut: write a temporary file, keep the last good one as a backup.

``FileStorage`` is the one storage interface of the app.  On the Pico it sits on
the littlefs flash root, in the simulator on a folder of the PC; both go
through ``OsFS`` (os + open, the same code on MicroPython and CPython).  Tests
hand it any object with the same five methods (``MemFS`` below, or a wrapper
that cuts the power after the Nth byte or operation).

write_atomic(name, data) does, in this order:

1. write ``name.tmp`` in full and close it;
2. rename ``name`` (the last good file) over ``name.bak``;
3. rename ``name.tmp`` to ``name``.

A power cut at any point leaves at least one complete copy: before step 2 the
old ``name``; between 2 and 3 the old ``name.bak`` and the complete new
``name.tmp``; after 3 the new ``name``.  Renames are single metadata commits on
littlefs (and os.replace on CPython), so each happens entirely or not at all.
The reader (savegame) decides which copy verifies, trying name, then .tmp
(complete only when the cut fell between steps 2 and 3: then it is the
newest state), then .bak.

Reads can be bounded: ``read(name, limit)`` returns at most ``limit + 1``
bytes, and a file whose size is known to be above ``limit`` is not opened at
all, so a file larger than the heap costs nothing (the caller refuses a
result longer than ``limit``).
"""

import os

try:
    from errno import EINVAL, ENOENT
except ImportError:  # pragma: no cover - every port we use has errno
    ENOENT = 2
    EINVAL = 22

_S_IFMT = 0o170000
_S_IFREG = 0o100000

TMP = ".tmp"
BAK = ".bak"
LOG_FILE = "crash.log"  # the crash log every hw keeps (make logs reads it from a Pico)
LOG_MAX = 4096  # bytes kept; the older half goes when the log grows past this

# CPython's os.rename refuses to replace a file on Windows; os.replace always
# replaces.  MicroPython has no os.replace, and littlefs's rename replaces.
_replace = getattr(os, "replace", None) or os.rename


class TooLong(ValueError):
    """A bounded read met a file longer than its limit (nothing was read)."""


def _regular(path):
    """OSError unless path is a regular file (following links: stat, not open, never blocks)."""
    if os.stat(path)[0] & _S_IFMT != _S_IFREG:
        raise OSError(EINVAL)


class OsFS:
    """The real file system: littlefs on the Pico, any folder on a PC."""

    def read(self, path, limit=-1):
        """The file's bytes; at most ``limit`` of them when limit >= 0.  Only a regular file
        is opened: a FIFO or a device (a PC's, or a link to one) could block or never end."""
        _regular(path)
        with open(path, "rb") as f:
            return f.read(limit) if limit >= 0 else f.read()

    def size(self, path):
        """The file's length in bytes (OSError when it is missing)."""
        return os.stat(path)[6]

    def write(self, path, data):
        # On littlefs a file's new contents become visible at close(), in one
        # metadata commit; flush() first so a full write is never left buffered.
        try:
            mode = os.stat(path)[0]
        except OSError:
            mode = _S_IFREG  # missing (errno numbers differ between ports): open makes it
        if mode & _S_IFMT != _S_IFREG:
            raise OSError(EINVAL)  # a FIFO or a device in its place: opening it could block
        f = open(path, "wb")
        try:
            f.write(data)
            f.flush()
        finally:
            f.close()

    def rename(self, old, new):
        try:
            _replace(old, new)
        except OSError:
            # FAT (a Pico formatted by hand) refuses to rename over a file.  Make
            # room first: only "file -> .bak" meets an existing name, and a cut
            # between the two steps still leaves the file itself complete.
            if not (self.exists(old) and self.exists(new)):
                raise
            os.remove(new)
            _replace(old, new)

    def remove(self, path):
        os.remove(path)

    def exists(self, path):
        try:
            os.stat(path)
        except OSError:
            return False
        return True

    def mkdir(self, path):
        os.mkdir(path)


class MemFS:
    """Files in RAM, with the same semantics: for tests, and for a device whose flash won't mount."""

    def __init__(self, files=None):
        self.files = {} if files is None else files

    def read(self, path, limit=-1):
        if path not in self.files:
            raise OSError(ENOENT)
        data = self.files[path]
        return bytes(data[:limit] if limit >= 0 else data)

    def size(self, path):
        if path not in self.files:
            raise OSError(ENOENT)
        return len(self.files[path])

    def write(self, path, data):
        self.files[path] = bytes(data)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(ENOENT)
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(ENOENT)
        del self.files[path]

    def exists(self, path):
        return path in self.files

    def mkdir(self, path):
        pass


class FileStorage:
    """Named small files under a root folder ('' or '/' = the flash root)."""

    def __init__(self, root="", fs=None):
        self.fs = OsFS() if fs is None else fs
        if root in ("", "."):
            self.prefix = ""
        elif root.endswith("/"):
            self.prefix = root
        else:
            self.prefix = root + "/"
        self.bytes_written = 0  # everything handed to the file system, for the flash-wear count
        self.writes = 0
        if self.prefix not in ("", "/"):
            self._make_dirs(self.prefix)

    def _make_dirs(self, prefix):
        path = "/" if prefix.startswith("/") else ""
        for part in prefix.split("/"):
            if part:
                path += part
                try:
                    self.fs.mkdir(path)
                except OSError:
                    pass  # exists already (or can't be made: reads give None, writes raise OSError)
                path += "/"

    def path(self, name):
        return self.prefix + name

    def read(self, name, limit=None):
        """The file's bytes, or None when it is missing or unreadable.

        With ``limit``: TooLong when the file's size is above ``limit``,
        without opening it; otherwise at most ``limit + 1`` bytes (a file that
        grows while it is read, or a file system that can't tell sizes), so
        the caller refuses anything longer than ``limit`` having read only
        that far.
        """
        p = self.prefix + name
        fs = self.fs
        try:
            if limit is None:
                return fs.read(p)
            n = self.size(name)
            if n > limit:
                raise TooLong("%d bytes" % n)
            try:
                return fs.read(p, limit + 1)
            except TypeError:  # a file system without bounded reads (a test double)
                return fs.read(p)[: limit + 1]
        except OSError:
            return None

    def size(self, name):
        """The file's length in bytes, or -1 when it is missing or unreadable."""
        p = self.prefix + name
        fs = self.fs
        try:
            try:
                return fs.size(p)
            except AttributeError:  # a file system without size(): read it to know
                return len(fs.read(p))
        except OSError:
            return -1

    def exists(self, name):
        """Is there a file of that name with something in it?  (An empty file counts as none.)"""
        return self.size(name) > 0

    def read_backup(self, name, limit=None):
        return self.read(name + BAK, limit)

    def read_temp(self, name, limit=None):
        """A new copy written in full whose final rename a power cut interrupted (or a torn one)."""
        return self.read(name + TMP, limit)

    def write_atomic(self, name, data, keep=True):
        """Replace ``name`` by data; the replaced file becomes ``name.bak``.

        keep=False discards the current file instead of making it the backup:
        the caller passes it when that file failed to verify, so a damaged file
        never replaces a good backup.  Raises OSError when the flash refuses
        (full, worn out); the old copies are then untouched or still complete.
        """
        p = self.prefix + name
        tmp = p + TMP
        fs = self.fs
        fs.write(tmp, data)
        self.bytes_written += len(data)
        self.writes += 1
        if fs.exists(p):
            if keep:
                fs.rename(p, p + BAK)
            else:
                fs.remove(p)
        fs.rename(tmp, p)
        return len(data)

    def append_line(self, name, text, limit):
        """Append a line to a log file kept below ``limit`` bytes (the older half goes when it
        grows past it); never raises: a full or failing flash must not turn a crash into a
        crash loop.  The crash log of every ``hw`` (device/contract.py) is written this way."""
        try:
            try:
                data = self.read(name, 2 * limit) or b""
            except TooLong:  # longer than this log ever gets (not ours): start a new one
                data = b""
            if len(data) > limit:
                data = data[len(data) - limit // 2 :]
            self.write_atomic(name, data + text.encode() + b"\n", False)
        except Exception:
            pass

    def remove(self, name):
        """Forget ``name`` with its backup and temporary copies (missing ones are fine).

        Returns True when none is left.  A copy the flash refuses to delete
        (littlefs can refuse even a removal when it is full) is emptied
        instead where it can be: an empty file counts as no file.
        """
        # Backup and temporary copy first: if the power fails half-way, what is
        # left is the current file, never an older copy coming back to life.
        p = self.prefix + name
        fs = self.fs
        gone = True
        for path in (p + BAK, p + TMP, p):
            try:
                fs.remove(path)
            except OSError:
                if self.size(path[len(self.prefix) :]) > 0:
                    try:
                        fs.write(path, b"")
                    except OSError:
                        gone = False
        return gone

    def move(self, name, new):
        """Rename ``name`` to ``new`` (replacing it); False when ``name`` is missing or the flash refuses."""
        try:
            self.fs.rename(self.prefix + name, self.prefix + new)
        except OSError:
            return False
        return True
