"""The title's frame kept on the flash, so the next boot shows the real title menu at once.

The title the app draws first is a function of the settings file and of whether a replaced
match is kept (a boot with a match in progress goes to the table instead).  The app keeps that
frame here, with those inputs as its key; the next boot (launch.py) reads the key's inputs and
the card before anything else is loaded and, when they match, puts the card on the glass:
about 0.3 s after power-on instead of 0.8 s (emulated Pico), and the app's own first frame is
then the same picture.  Presses in between wait in the buttons' queue, so the menu seen is the
menu they act on.  Anything else (no card, another key, a damaged file) shows nothing here, and
the boot goes on as without it.

The card: MAGIC, the key's length, the key, the 1024-byte frame, and a CRC-32 of all of it.
"""

try:
    from binascii import crc32
except ImportError:  # a port without it: no card, never a wrong one
    crc32 = None

CARD_FILE = "title.card"
SETTINGS_FILE = "settings.sav"  # savegame.py's names (tests/test_saves.py holds them equal)
KEPT_FILE = "kept.sav"
MAGIC = b"GTC1"
FRAME_BYTES = 1024  # 128 x 64, one bit a pixel
MAX_KEY = 200  # far above a settings record: anything longer is not a card of ours
MAX_CARD = len(MAGIC) + 1 + MAX_KEY + FRAME_BYTES + 4


def key_of(storage):
    """What the title depends on, as the flash holds it now (None: nothing a card can match)."""
    try:
        settings = storage.read(SETTINGS_FILE, MAX_KEY - 2) or b""
    except ValueError:  # TooLong: not a settings record of ours
        return None
    return (b"k" if storage.exists(KEPT_FILE) else b"-") + bytes(settings[: MAX_KEY - 2])


def card_of(key, frame):
    body = MAGIC + bytes((len(key),)) + key + bytes(frame)
    return body + (crc32(body) & 0xFFFFFFFF).to_bytes(4, "little")


def frame_of(card, key):
    """The frame a card holds for this key, or None (another key, or not a card)."""
    if crc32 is None or key is None or card is None:
        return None
    n = len(key)
    head = len(MAGIC) + 1
    if len(card) != head + n + FRAME_BYTES + 4 or card[: len(MAGIC)] != MAGIC or card[head - 1] != n:
        return None
    if card[head : head + n] != key or int.from_bytes(card[-4:], "little") != crc32(card[:-4]) & 0xFFFFFFFF:
        return None
    return card[head + n : -4]


def show(storage, display):
    """Put the kept title on the glass if it is the one the app will draw; True if it did."""
    try:
        card = _read(storage)  # first: on a flash without one, the only look-up
        frame = None if card is None else frame_of(card, key_of(storage))
        return frame is not None and bool(display.show(frame))
    except Exception:  # noqa: BLE001 - a card is a shortcut: the boot goes on without it
        return False


def keep(storage, frame):
    """Keep this title frame for the next boot, unless the card already holds it; True if written.

    Raises OSError when the flash refuses, as a save does."""
    if crc32 is None:
        return False
    key = key_of(storage)
    if key is None or frame_of(_read(storage), key) == bytes(frame):
        return False
    storage.write_atomic(CARD_FILE, card_of(key, frame), False)
    return True


def _read(storage):
    try:
        return storage.read(CARD_FILE, MAX_CARD)
    except ValueError:  # TooLong: not a card of ours
        return None
