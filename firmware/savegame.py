"""Autosave: the game, the settings and the stats as small checked files.

Every file is a record::

    magic (4)  version (1)  payload length (2, big-endian)  payload  CRC32 (4, of all before it)

The magic says what the record holds (b"GINg" game, b"GINs" settings,
b"GINt" stats), so a file of another kind or from another program is refused,
not misread.  A game payload (version 1)::

    flags   1   mode (bits 0-1), level (2-3), sort (4), over (5)
    0       1 reserved byte (a screen id in early drafts; nothing read it): written 0, skipped
    cursor  zigzag varint
    seed    4   aiseed  4        (big-endian)
    rules   1 + n varints         count n, then each RuleSet field (FIELDS order); any n
            reads: missing fields take their defaults (RuleSet.from_bytes)
    hands   varint count, then per finished hand:
            1 byte  kind (bits 0-2), winner+1 (3-4), knocker+1 (5-6), wide points (7)
            1 byte points, or 2 when the wide bit is set
    link    only in a link match (mode 3, version 2 on): seat (1 byte, this
            device's player), then varint n and n turn tokens: the hand
            before the live one, which the other handheld may need to catch up
    actions every remaining byte: one action of the live hand, or one whole
            turn "draw + discard c" (124 + c) / "take + discard c" (176 + c)

``over`` set means the live actions are those of the last finished hand
(the hand-result screen): the match is rebuilt by replaying them on top of
the other summaries, so the result screen comes back with its melds.

Loading tries the file, then a fully written temporary copy, then the backup,
each verified down to a legal replay of the match; a record that fails any
check is damaged, and the next copy is tried.  Nothing here raises to the app.

Every field is checked for meaning, not only for shape: ranges (the cursor
is a card or none), the rules (a RuleSet that validates), each finished
hand's summary against what those rules can score, the live hand replayed
move by move through the engine, the match state against the "over" flag.
Reads are bounded: a file longer than the largest record this firmware can
write (``MAX_GAME``, 4 KB) is refused without being read, and the app never
writes a record it could not read back.

A game record is read by saveread.py (its names are reachable here too), loaded for the read and let
go after it on the Pico: a module costs about twice its .mpy in RAM there (issue 21).
"""

import struct
import sys

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - binascii is in the stock rp2 firmware and CPython
    crc32 = None

# gin.match and gin.round are imported where used: the title screen needs saves
# (settings, stats, "is there a game?") but not the engine, and RAM is scarce.
from device.storage import TooLong
from gin.levels import LEVELS
from prefs import LinkStats, Stats, default_settings, settings_from_bytes, settings_to_bytes

VERSION = 2  # of the game record. 2: mode 3 (a link match) and its link fields; 1 still loads
# Settings and stats records: 3 counts their fields (prefs.py); 1 and 2 load through migrate.py.
PROFILE_VERSION = 3
MODE_LINK = 3
MODE_WATCH = 2  # ui.screens.WATCH: a watched match is never saved over the player's
MAGIC_GAME = b"GINg"
MAGIC_SETTINGS = b"GINs"
MAGIC_STATS = b"GINt"
MAGIC_LINK_STATS = b"GINk"
HEAD = 7  # magic, version, length
OVERHEAD = HEAD + 4

GAME_FILE = "game.sav"
SETTINGS_FILE = "settings.sav"
STATS_FILE = "stats.sav"
LINK_STATS_FILE = "linkstats.sav"  # link matches: kept apart from the stats against the computer
# The player's match that the last new one replaced: Previous match on the title brings it back.
KEPT_FILE = "kept.sav"

# Turn tokens: a draw followed by a discard is one byte.
TOKEN_DRAW_DISCARD = 124
TOKEN_TAKE_DISCARD = 176
TOKEN_END = 228  # and up: no token (saveread refuses them)

_VARINT_MAX = 1 << 28  # 4 varint bytes: keeps every int small on the RP2040

# The largest records this firmware writes and reads.  A game record grows by
# 2-3 bytes per finished hand (real matches: 21 hands at most in the 1,000-match
# soak, 159 bytes); 4 KB holds over 1,200 hands, and the app says "Can't save:
# too long" rather than write more.  Settings and stats have fixed sizes.
MAX_GAME = 4096
CURSOR_NONE = -1  # the cursor is a card id (0-51) or none

# One-line messages for the screen (at most 21 characters).
MSG_BACKUP = "Backup save loaded"
MSG_LOST = "Save lost: new game"
MSG_SETTINGS = "Settings reset"
MSG_STATS = "Stats were lost"
MSG_SETTINGS_BACKUP = "Settings from backup"  # not MSG_BACKUP: that one speaks of the game
MSG_STATS_BACKUP = "Stats from backup"
MSG_NO_FLASH = "Can't save: flash"
MSG_TOO_LONG = "Can't save: too long"


class SaveError(ValueError):
    """A record that can't be used: missing, foreign, damaged, truncated or from another version."""


# --- the record container -------------------------------------------------------


def pack_record(magic, payload, limit=0xFFFF + OVERHEAD, version=VERSION):
    n = len(payload)
    if n > 0xFFFF or n + OVERHEAD > limit:
        raise ValueError("record too large")
    body = bytearray(magic)
    body.append(version)
    body.append(n >> 8)
    body.append(n & 0xFF)
    body.extend(payload)
    body.extend(struct.pack(">I", crc32(body) & 0xFFFFFFFF))
    return bytes(body)


def unpack_record(data, magic, limit=0xFFFF + OVERHEAD, newest=VERSION):
    """The payload of a record of at most ``limit`` bytes and of a version from 1 to ``newest``;
    SaveError with the reason otherwise (a newer firmware's record falls back like a damaged one)."""
    if data is None:
        raise SaveError("missing")
    if len(data) > limit:
        raise SaveError("too long")
    if len(data) < OVERHEAD:
        raise SaveError("truncated")
    if data[:4] != magic:
        raise SaveError("not a save")
    n = (data[5] << 8) | data[6]
    if len(data) != OVERHEAD + n:
        raise SaveError("truncated" if len(data) < OVERHEAD + n else "wrong length")
    if struct.unpack(">I", data[HEAD + n :])[0] != crc32(data[: HEAD + n]) & 0xFFFFFFFF:
        raise SaveError("checksum")
    if not 1 <= data[4] <= newest:
        raise SaveError("version %d" % data[4])
    return data[HEAD : HEAD + n]


# --- varints -------------------------------------------------------------------


def _put_uint(out, v):
    if v < 0 or v >= _VARINT_MAX:
        raise ValueError("value out of range for a save")
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


def _put_sint(out, v):
    _put_uint(out, (v << 1) if v >= 0 else ((-v) << 1) - 1)


# --- actions and rules ---------------------------------------------------------


def pack_actions(actions):
    """Round.actions as turn tokens: a draw (or take) and the discard that follows share a byte."""
    from gin.round import ACTION_LIMIT, DRAW_STOCK, TAKE_DISCARD

    out = bytearray()
    n = len(actions)
    i = 0
    while i < n:
        a = actions[i]
        if a >= ACTION_LIMIT:
            raise ValueError("not an action: %d" % a)
        if i + 1 < n and actions[i + 1] < 52 and (a == DRAW_STOCK or a == TAKE_DISCARD):
            out.append((TOKEN_DRAW_DISCARD if a == DRAW_STOCK else TOKEN_TAKE_DISCARD) + actions[i + 1])
            i += 2
        else:
            out.append(a)
            i += 1
    return bytes(out)


def _put_rules(out, rule_bytes):
    n = len(rule_bytes) // 2
    if len(rule_bytes) != 2 * n or n > 255:
        raise ValueError("rules must be RuleSet.to_bytes()")
    out.append(n)
    for i in range(n):
        _put_uint(out, (rule_bytes[2 * i] << 8) | rule_bytes[2 * i + 1])


# --- the game record ------------------------------------------------------------------


def encode_game(snap):
    """The record bytes of a game snapshot dict (see the module doc); ValueError on bad fields."""
    mode = snap["mode"]
    level = snap["level"]
    sort = snap.get("sort", 0)
    for v, hi in ((mode, MODE_LINK), (level, len(LEVELS) - 1), (sort, 1)):
        if not isinstance(v, int) or v < 0 or v > hi:
            raise ValueError("mode, level or sort out of range")
    cursor = snap.get("cursor", 0)
    if not CURSOR_NONE <= cursor < 52:
        raise ValueError("cursor out of range")
    out = bytearray()
    out.append(mode | (level << 2) | (sort << 4) | (0x20 if snap.get("over") else 0))
    out.append(0)  # reserved (see the module doc)
    _put_sint(out, cursor)
    out.extend(struct.pack(">II", snap["seed"], snap.get("aiseed", 0)))
    _put_rules(out, snap["rules"])
    summaries = snap["summaries"]
    _put_uint(out, len(summaries))
    for kind, winner, points, knocker in summaries:
        if not (0 <= kind <= 7 and -1 <= winner <= 1 and -1 <= knocker <= 1 and 0 <= points <= 0xFFFF):
            raise ValueError("bad hand summary")
        check_summary(kind, winner, points, knocker)
        wide = points > 0xFF
        out.append(kind | ((winner + 1) << 3) | ((knocker + 1) << 5) | (0x80 if wide else 0))
        if wide:
            out.append(points >> 8)
        out.append(points & 0xFF)
    if mode == MODE_LINK:
        seat = snap.get("seat", 0)
        if seat not in (0, 1):
            raise ValueError("seat out of range")
        out.append(seat)
        prev = pack_actions(snap.get("prev", b""))
        _put_uint(out, len(prev))
        out.extend(prev)
    out.extend(pack_actions(snap["actions"]))
    return pack_record(MAGIC_GAME, out, MAX_GAME)


def check_summary(kind, winner, points, knocker):
    # Match.restore trusts summaries; a winner of -1 on a won hand would index
    # the wrong player, so the shape of each result is checked here.
    from gin.round import CANCELLED, UNDERCUT

    if kind == CANCELLED:
        ok = winner == -1 and knocker == -1 and points == 0
    elif kind == UNDERCUT:
        ok = knocker >= 0 and winner == 1 - knocker
    else:
        ok = kind < CANCELLED and knocker >= 0 and winner == knocker
    if not ok or winner > 1 or knocker > 1:
        raise SaveError("bad hand summary")


def snapshot_of(match, mode=0, level=1, sort=0, cursor=0, aiseed=0):
    """A snapshot dict of a live Match and the app's play state, ready for save_game."""
    from gin.match import PLAYING
    from gin.round import OVER

    rnd = match.round
    return {
        "mode": mode,
        "level": level,
        "rules": match.rules.to_bytes(),
        "seed": match.seed,
        "summaries": list(match.summaries),
        "actions": bytes(rnd.actions),
        "sort": sort,
        "cursor": cursor,
        "aiseed": aiseed,
        # The hand-result screen: the live round is the finished last hand.
        "over": match.state != PLAYING and rnd.phase == OVER and len(rnd.actions) > 0,
    }


# --- the manager --------------------------------------------------------------------


class SaveManager:
    """The app's one door to its saved game, settings and stats."""

    def __init__(self, storage):
        self.storage = storage
        self.error = None  # the last save failure, as a screen line (None after a success)
        self.log = []  # why copies were refused, for the crash log
        self.last_size = 0
        self._told = False  # the current failure was handed to the app (take_error)
        self._cleared = False  # clear_game() ran: no game, whatever the flash kept
        self._written = {}  # name -> the bytes its current file holds, when known
        self._trusted = {}  # name -> the current file verified (may become the backup)
        self._held = None  # the game file's match: (record, mode, seed), () for none, None unknown

    # --- loading (the decoders are saveread's: in RAM only while a file is read) ----

    def _load(self, name):
        try:
            return self._first_copy(name)
        finally:
            _let_go()  # after a game file: its reader's code is RAM the game needs

    def _first_copy(self, name):
        """(value, message): the first copy that decodes, of the file, its temporary copy, its backup.

        A temporary copy that verifies is never older than the backup: it
        survives only when the power failed after it was written in full and
        before the final rename, so it is tried before the backup.  Each copy
        is read only up to the largest record of its kind; an empty file is
        no file (what clear_game leaves where the flash refused a removal).
        """
        st = self.storage
        limit = _LIMITS[name]
        damaged = False
        decode = None
        for suffix, read in (("", st.read), (".tmp", st.read_temp), (".bak", st.read_backup)):
            try:
                data = read(name, limit)
            except TooLong as e:
                self.log.append("%s%s: too long (%s)" % (name, suffix, _reason(e)))
                damaged = True
                continue
            except Exception:  # a storage that misbehaves counts as a missing copy
                data = None
            if not data:
                continue
            if decode is None:  # outside the try: no memory for the reader is no damaged copy
                decode = _decoder(name)
            try:
                value = decode(data)
            except Exception as e:  # anything a bad copy provokes means damaged: try the next
                self.log.append("%s%s: %s" % (name, suffix, _reason(e)))
                damaged = True
                continue
            self._trusted[name] = not suffix
            if name == GAME_FILE:
                self._held = (data, value["mode"], value["seed"])
            if suffix:
                return value, (MSG_BACKUP if damaged or suffix == ".bak" else None)
            self._written[name] = data
            return value, None
        self._trusted[name] = False
        if name == GAME_FILE:
            self._held = ()
        return None, (MSG_LOST if damaged else None)

    def has_game(self):
        """Is there a saved game to offer?  Only looks at the files' sizes: nothing is read."""
        if self._cleared:
            return False
        st = self.storage
        for n in (GAME_FILE, GAME_FILE + ".tmp", GAME_FILE + ".bak"):
            try:
                if st.exists(n):
                    return True
            except Exception:
                pass
        return False

    def load_game(self):
        """(snapshot dict or None, one-line message or None); never raises.

        The snapshot carries the contract's keys plus 'over' and 'match' (the
        rebuilt gin.match.Match, so the app need not replay it again).
        """
        if self._cleared:
            return None, None
        return self._load(GAME_FILE)

    def load_profile(self):
        """(settings dict, Stats, one-line message or None); defaults where nothing verifies."""
        settings, m1 = self._load(SETTINGS_FILE)
        stats, m2 = self._load(STATS_FILE)
        msg = None
        if settings is None:
            settings = default_settings()
            if m1 is not None:
                msg = MSG_SETTINGS
        elif m1 is not None:
            msg = MSG_SETTINGS_BACKUP
        if stats is None:
            stats = Stats()
            if m2 is not None:
                msg = MSG_STATS
        elif m2 is not None and msg is None:
            msg = MSG_STATS_BACKUP
        return settings, stats, msg

    # --- saving -----------------------------------------------------------------

    def take_error(self):
        """The save failure to show, once: None until a save succeeds and another fails."""
        if self.error is None or self._told:
            return None
        self._told = True
        return self.error

    def _fail(self, msg):
        self.error = msg

    def _verify(self, name):
        """Does the current file verify?  Asked before its first replacement, so a
        damaged file (never loaded this session) is not promoted to the backup."""
        try:
            data = self.storage.read(name, _LIMITS[name])
            if not data:
                return True  # nothing to keep (the reader isn't loaded): any backup stays as it is
            _decoder(name)(data)
        except Exception:
            return False
        finally:
            _let_go()
        return True

    def _save(self, name, data):
        if self._written.get(name) == data:
            return 0  # nothing changed: spare the flash
        if name not in self._trusted:
            self._trusted[name] = self._verify(name)
        try:
            n = self.storage.write_atomic(name, data, self._trusted[name])
        except OSError:
            self._fail(MSG_NO_FLASH)
            self._written.pop(name, None)
            return 0
        self.error = None
        self._told = False
        self._written[name] = data
        self._trusted[name] = True
        return n

    def _held_game(self):
        """(record, mode, seed) of the match the game file holds, or () for none.

        Read once a session, decoded without a replay (a few hundred bytes of RAM):
        a file that doesn't decode is no match to keep.
        """
        if self._held is None:
            self._held = ()
            try:
                data = None if self._cleared else self.storage.read(GAME_FILE, MAX_GAME)
                if data:
                    snap = _reader().decode_game(data)
                    self._held = (data, snap["mode"], snap["seed"])
            except Exception:
                pass
            _let_go()
        return self._held

    def save_game(self, snapshot):
        """Write the game; returns the bytes written (0 when unchanged or when it can't be saved).

        One match in progress is the player's: a watched match is not saved over
        it, and a new match of the player's moves it to KEPT_FILE first (it is
        not replaced when that fails).  Never raises: a flash that refuses sets
        ``error`` to MSG_NO_FLASH, a match too long for a record MSG_TOO_LONG,
        and play goes on.
        """
        try:
            data = encode_game(snapshot)
        except ValueError:
            self._fail(MSG_TOO_LONG)
            return 0
        held = self._held_game()
        if held and held[1] != MODE_WATCH:
            if snapshot["mode"] == MODE_WATCH:
                return 0  # watching: the player's match stays on the flash
            if held[2] != snapshot["seed"]:
                try:
                    self.storage.write_atomic(KEPT_FILE, held[0])
                except OSError:
                    self._fail(MSG_NO_FLASH)
                    return 0
        n = self._save(GAME_FILE, data)
        if n:
            self._cleared = False
            self.last_size = n
            self._held = (data, snapshot["mode"], snapshot["seed"])
        elif self._written.get(GAME_FILE) != data:
            self._held = None  # a failed write: read the file again before deciding
        return n

    def clear_game(self, seed=None):
        """Forget the game (a finished or abandoned match).  Whatever the flash does, it doesn't
        come back this session; False (and ``error``) when a copy could not be deleted or emptied.
        With ``seed``: only when the file holds that match (a watched match that ends leaves the
        player's alone)."""
        if seed is not None:
            held = self._held_game()
            if held and held[2] != seed:
                return True
        self._cleared = True
        self._held = ()
        self._written.pop(GAME_FILE, None)
        self._trusted[GAME_FILE] = True
        try:
            gone = self.storage.remove(GAME_FILE)
        except Exception:
            gone = False
        if gone is False:
            self._fail(MSG_NO_FLASH)
            return False
        return True

    def has_kept(self):
        """Is there a replaced match to bring back?  Looks at the file's size only."""
        try:
            return bool(self.storage.exists(KEPT_FILE))
        except Exception:
            return False

    def load_kept(self):
        """(snapshot or None, message or None) of the match the last new one replaced."""
        return self._load(KEPT_FILE)

    def _save_record(self, name, magic, to_bytes):
        """Save ``to_bytes()`` as a record; like save_game, 0 and MSG_NO_FLASH when it can't."""
        try:
            data = pack_record(magic, to_bytes(), version=PROFILE_VERSION)
        except Exception:
            self._fail(MSG_NO_FLASH)
            return 0
        return self._save(name, data)

    def save_settings(self, settings):
        return self._save_record(SETTINGS_FILE, MAGIC_SETTINGS, lambda: settings_to_bytes(settings))

    def save_stats(self, stats):
        return self._save_record(STATS_FILE, MAGIC_STATS, stats.to_bytes)

    def load_link_stats(self):
        """The link matches' LinkStats, or None when there are none (or none that verify)."""
        return self._load(LINK_STATS_FILE)[0]

    def save_link_stats(self, stats):
        return self._save_record(LINK_STATS_FILE, MAGIC_LINK_STATS, stats.to_bytes)


def match_line(snap):
    """'37–12, hand 4': a loaded match in a few words (asked before replacing it)."""
    m = snap["match"]
    return "%d–%d, hand %d" % (m.score_of(0), m.score_of(1), len(m.summaries) + (0 if snap["over"] else 1))


# Read limits: room for a newer firmware's longer settings and stats (more rules, settings,
# levels or counters), which this one reads as far as it knows them.
MAX_SETTINGS = 512
MAX_STATS = 1024
# Link stats hold one block of the same counters: the stats' limit bounds them too.
_LIMITS = {
    GAME_FILE: MAX_GAME,
    KEPT_FILE: MAX_GAME,
    SETTINGS_FILE: MAX_SETTINGS,
    STATS_FILE: MAX_STATS,
    LINK_STATS_FILE: MAX_STATS,
}


def _decode_settings(data):
    payload = unpack_record(data, MAGIC_SETTINGS, MAX_SETTINGS, PROFILE_VERSION)
    if data[4] < PROFILE_VERSION:
        from migrate import settings_v3  # only when an old file is read: RAM

        payload = settings_v3(payload)
    return settings_from_bytes(payload)


def _decode_stats(data):
    return Stats.from_bytes(unpack_record(data, MAGIC_STATS, MAX_STATS, PROFILE_VERSION))


def _decode_link_stats(data):
    return LinkStats.from_bytes(unpack_record(data, MAGIC_LINK_STATS, MAX_STATS, PROFILE_VERSION))


# The small records' decoders: the title reads them at every boot (a game record's: saveread).
_DECODERS = {SETTINGS_FILE: _decode_settings, STATS_FILE: _decode_stats, LINK_STATS_FILE: _decode_link_stats}


def _decoder(name):
    d = _DECODERS.get(name)
    return _reader().decode_game_checked if d is None else d


def _reader():
    import saveread  # the decoders: imported when a file holds something to decode

    return saveread


def _let_go():
    # Only on MicroPython: a host's tests hold and compare the reader's objects.
    if sys.implementation.name == "micropython":
        sys.modules.pop("saveread", None)


def __getattr__(name):  # saveread's names as savegame's, for tools and tests (PEP 562; MicroPython too)
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_reader(), name)


def _reason(e):
    if e.args:
        return str(e.args[0])
    return type(e).__name__
