"""Canonical action strings and their numeric ids (see ``core`` for the id layout)."""

from __future__ import annotations

from ..engine import core
from .cards import SUITS, card_name, parse_card, parse_suit

_WORD_ACTIONS = {
    "exchange": core.A_EXCHANGE,
    "close": core.A_CLOSE,
    "claim": core.A_CLAIM,
    "exchange-on-close": core.A_EXCHANGE_ON_CLOSE,
    "draw": core.A_DRAW,
    "pass": core.A_PASS,
}
_WORDS_BY_ID = {action: word for word, action in _WORD_ACTIONS.items()}


def _canonical_name(action: int) -> str:
    """Build the canonical string of an action id (tabulated in ``ACTION_NAMES``)."""
    if core.A_PLAY <= action < core.A_MARRY:
        return "play " + card_name(action)
    if core.A_MARRY <= action < core.A_EXCHANGE:
        return "marry " + card_name(action - core.A_MARRY)
    if core.A_MARRY_CLAIM <= action < core.NUM_ACTIONS:
        return "marry-claim " + SUITS[action - core.A_MARRY_CLAIM]
    return _WORDS_BY_ID[action]


ACTION_NAMES = tuple(_canonical_name(action) for action in range(core.NUM_ACTIONS))
_IDS_BY_NAME = {name: action for action, name in enumerate(ACTION_NAMES)}


def action_name(action: int) -> str:
    """Canonical string of an action id, for example ``"play QH"``."""
    return ACTION_NAMES[action]


def parse_action(text: str) -> int:
    """Action id of an action string (case-insensitive, card notation as ``parse_card``)."""
    if not isinstance(text, str):
        raise ValueError(f"an action must be a string like 'play QH', got {text!r}")
    if text in _IDS_BY_NAME:
        return _IDS_BY_NAME[text]
    words = text.split()
    verb = words[0].lower() if words else ""
    if len(words) == 1 and verb in _WORD_ACTIONS:
        return _WORD_ACTIONS[verb]
    try:
        if len(words) == 2 and verb in ("play", "marry"):
            card = parse_card(words[1])
            return card + (core.A_PLAY if verb == "play" else core.A_MARRY)
        if len(words) == 2 and verb == "marry-claim":
            return core.A_MARRY_CLAIM + parse_suit(words[1])
    except ValueError as error:
        raise ValueError(f"unknown action {text!r}: {error}") from None
    raise ValueError(
        f"unknown action {text!r}: actions are 'play <card>', 'marry <K or Q>', "
        f"'marry-claim <suit>', {', '.join(repr(w) for w in _WORD_ACTIONS)}"
    )


def mask_to_actions(mask: int) -> list[int]:
    """Action ids in a legal-action mask, ascending."""
    actions = []
    while mask:
        lowest = mask & -mask
        actions.append(lowest.bit_length() - 1)
        mask ^= lowest
    return actions
