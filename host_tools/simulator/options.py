"""The simulator's command-line vocabulary: modes, levels and the ``--rules`` spec."""

from __future__ import annotations

from pathlib import Path

from gin.cards import GinError
from gin.levels import LEVELS as LEVEL_TITLES
from gin.rules import (
    DEALER_NAMES,
    FIELDS,
    FIRST_DEALER_NAMES,
    GAME_WINNER_NAMES,
    OFFER_NAMES,
    PRESET_NAMES,
    RuleSet,
)
from modes import LINK, TWO_PEOPLE, VS_CPU, WATCH

DEFAULT_SAVE_DIR = Path.home() / ".gin-handheld"  # the player's own saves

MODES = {"vs": VS_CPU, "pass": TWO_PEOPLE, "watch": WATCH, "link": LINK}
MODE_TITLES = ("vs computer", "two people", "watch", "link cable")  # by mode number
LEVELS = {name: i for i, name in enumerate(LEVEL_TITLES)}  # the one list: gin/levels.py

_ENUM_VALUES = {
    "next_dealer": DEALER_NAMES,
    "upcard_offer": OFFER_NAMES,
    "first_dealer": FIRST_DEALER_NAMES,
    "game_winner": GAME_WINNER_NAMES,
}
_ON = ("on", "yes", "true", "1")
_OFF = ("off", "no", "false", "0")


class OptionError(ValueError):
    pass


def parse_rules(spec: str) -> RuleSet:
    """``"modern,oklahoma,target=150"``: an optional preset first, then variants and fields.

    A bare name turns a variant on (``straight``, ``oklahoma``, ``hollywood``,
    ``big_gin``, ``gin_forced``, ``oklahoma_spade_double``); ``name=value``
    sets any field of gin.rules.FIELDS (numbers, on/off, or a value's name
    such as ``next_dealer=loser``).
    """
    fields: dict[str, object] = {}
    for i, raw in enumerate(p.strip() for p in spec.split(",")):
        if not raw:
            continue
        key, eq, value = raw.partition("=")
        key = key.strip().lower().replace("-", "_")
        value = value.strip().lower()
        if i == 0 and not eq and key in PRESET_NAMES:
            fields["preset"] = key
            continue
        if key == "preset":
            fields["preset"] = value
            continue
        if key not in FIELDS:
            raise OptionError(
                f"unknown rule {key!r}; presets: {', '.join(PRESET_NAMES)}; fields: {', '.join(FIELDS[1:])}"
            )
        if not eq:
            fields[key] = True
        elif value in _ON and key not in _ENUM_VALUES:
            fields[key] = True if key in _bool_fields() else int(value in _ON)
        elif value in _OFF and key not in _ENUM_VALUES:
            fields[key] = False if key in _bool_fields() else 0
        elif key in _ENUM_VALUES and value in _ENUM_VALUES[key]:
            fields[key] = _ENUM_VALUES[key].index(value)
        else:
            try:
                fields[key] = int(value)
            except ValueError:
                raise OptionError(f"rule {key}: {value!r} is not a value it takes") from None
    try:
        return RuleSet(**fields)
    except GinError as e:
        raise OptionError(str(e)) from None


def _bool_fields() -> set[str]:
    default = RuleSet()
    return {f for f in FIELDS if isinstance(getattr(default, f), bool)}
