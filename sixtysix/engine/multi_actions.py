"""Action strings of the multi-player engine and their ids (the id layout is in
``multi_core``)."""

from __future__ import annotations

from . import multi_core as mc
from .multi_rules import SUITS, card_name, parse_card

_WORDS = {
    "exchange": mc.A_EXCHANGE,
    "close": mc.A_CLOSE,
    "claim": mc.A_CLAIM,
    "pass": mc.A_PASS,
    "exchange-on-close": mc.A_EXCHANGE_ON_CLOSE,
    "draw": mc.A_DRAW,
    "announce durchmars": mc.A_DURCHMARS,
    "announce betli": mc.A_BETLI,
    **{f"bid {level}": mc.A_BID + level for level in range(1, mc.MOON + 1)},
}
_CARD_VERBS = {"play": mc.A_PLAY, "marry": mc.A_MARRY, "call": mc.A_CALL}
_SUIT_VERBS = {"marry-claim": mc.A_MARRY_CLAIM, "meld": mc.A_MELD}


def _name(action: int) -> str:
    for verb, first in _CARD_VERBS.items():
        if first <= action < first + 32:
            return f"{verb} {card_name(action - first)}"
    for verb, first in _SUIT_VERBS.items():
        if first <= action < first + 4:
            return f"{verb} {SUITS[action - first]}"
    return next(word for word, value in _WORDS.items() if value == action)


TABLE_ACTION_NAMES = tuple(_name(action) for action in range(mc.NUM_TABLE_ACTIONS))
_IDS = {name: action for action, name in enumerate(TABLE_ACTION_NAMES)}


def table_action_name(action: int) -> str:
    """Canonical string of an action id, for example ``"call AS"``."""
    return TABLE_ACTION_NAMES[action]


def parse_table_action(text: str) -> int:
    """Action id of an action string (case-insensitive, cards as ``parse_card``)."""
    if not isinstance(text, str):
        raise ValueError(f"an action must be a string like 'play QH', got {text!r}")
    if text in _IDS:
        return _IDS[text]
    words = text.lower().split()
    joined = " ".join(words)
    if joined in _WORDS:
        return _WORDS[joined]
    if len(words) == 2 and words[0] in _CARD_VERBS:
        try:
            return _CARD_VERBS[words[0]] + parse_card(words[1])
        except ValueError as error:
            raise ValueError(f"unknown action {text!r}: {error}") from None
    if len(words) == 2 and words[0] in _SUIT_VERBS and words[1].upper() in SUITS:
        return _SUIT_VERBS[words[0]] + SUITS.index(words[1].upper())
    raise ValueError(
        f"unknown action {text!r}: actions are 'play <card>', 'marry <K or Q>', 'call <card>', "
        f"'marry-claim <suit>', 'meld <suit>', {', '.join(repr(w) for w in _WORDS)}"
    )


def masks_to_actions(low: int, high: int) -> list[int]:
    """The action ids of a legal set ``(low, high)``, ascending."""
    ids = [a for a in range(mc.HIGH) if low >> a & 1]
    return ids + [mc.HIGH + a for a in range(mc.NUM_TABLE_ACTIONS - mc.HIGH) if high >> a & 1]
