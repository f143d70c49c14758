"""Canonical action strings and their numeric ids (the id layout is in ``multi_core``)."""

from __future__ import annotations

from . import multi_core as mc
from .cards import SUITS, card_name, parse_card, parse_suit

_WORDS = {  # in id order
    "exchange": mc.A_EXCHANGE,
    "close": mc.A_CLOSE,
    "claim": mc.A_CLAIM,
    "exchange-on-close": mc.A_EXCHANGE_ON_CLOSE,
    "draw": mc.A_DRAW,
    "pass": mc.A_PASS,
    "announce durchmars": mc.A_DURCHMARS,
    "announce betli": mc.A_BETLI,
    **{f"bid {level}": mc.A_BID + level for level in range(1, mc.MOON + 1)},
}
NUM_ACTIONS = mc.NUM_TABLE_ACTIONS
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


ACTION_NAMES = tuple(_name(action) for action in range(NUM_ACTIONS))
_IDS = {name: action for action, name in enumerate(ACTION_NAMES)}


def action_name(action: int) -> str:
    """Canonical string of an action id, for example ``"call AS"``."""
    return ACTION_NAMES[action]


def parse_action(text: str) -> int:
    """Action id of an action string (case-insensitive, cards as ``parse_card``)."""
    if not isinstance(text, str):
        raise ValueError(f"an action must be a string like 'play QH', got {text!r}")
    if text in _IDS:
        return _IDS[text]
    words = text.split()
    verb = words[0].lower() if words else ""
    joined = " ".join(word.lower() for word in words)
    if joined in _WORDS:
        return _WORDS[joined]
    try:
        if len(words) == 2 and verb in _CARD_VERBS:
            return _CARD_VERBS[verb] + parse_card(words[1])
        if len(words) == 2 and verb in _SUIT_VERBS:
            return _SUIT_VERBS[verb] + parse_suit(words[1])
    except ValueError as error:
        raise ValueError(f"unknown action {text!r}: {error}") from None
    raise ValueError(
        f"unknown action {text!r}: actions are 'play <card>', 'marry <K or Q>', "
        f"'marry-claim <suit>', 'call <card>', 'meld <suit>', "
        f"{', '.join(repr(w) for w in _WORDS)}"
    )


def masks_to_actions(low: int, high: int) -> list[int]:
    """The action ids of a legal set ``(low, high)``, ascending."""
    ids = [a for a in range(mc.HIGH) if low >> a & 1]
    return ids + [mc.HIGH + a for a in range(NUM_ACTIONS - mc.HIGH) if high >> a & 1]
