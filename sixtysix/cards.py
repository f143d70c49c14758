"""Cards: encoding, notation and bit masks.

A card is an index ``suit * 6 + rank`` with suits ``C D H S`` (0-3) and ranks
``9 J Q K T A`` (0-5, ascending strength), so within a suit a higher bit is a
higher card. A set of cards is a 32-bit mask with bit ``index`` set.
"""

from __future__ import annotations

SUITS = "CDHS"
RANKS = "9JQKTA"
NINE, JACK, QUEEN, KING, TEN, ACE = range(6)
#: Card points by rank; the nine's value is a rule option (``nine_points``).
RANK_POINTS = (0, 2, 3, 4, 10, 11)
NUM_CARD_INDICES = 24


def card_index(suit: int, rank: int) -> int:
    """Index of the card of ``suit`` and ``rank``."""
    return suit * 6 + rank


def card_name(card: int) -> str:
    """Canonical notation of a card index, for example ``"TS"``."""
    return RANKS[card % 6] + SUITS[card // 6]


def parse_card(text: str) -> int:
    """Card index from notation such as ``"QH"``, ``"qh"`` or ``"10S"``."""
    if not isinstance(text, str):
        raise ValueError(f"a card must be a string like 'QH', got {text!r}")
    cleaned = text.strip().upper()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    if len(cleaned) != 2 or cleaned[0] not in RANKS or cleaned[1] not in SUITS:
        raise ValueError(
            f"unknown card {text!r}: a card is a rank from {' '.join(RANKS)} "
            f"(or 10) followed by a suit from {' '.join(SUITS)}, for example 'QH'"
        )
    return card_index(SUITS.index(cleaned[1]), RANKS.index(cleaned[0]))


def parse_suit(text: str) -> int:
    """Suit index from ``"C"``, ``"D"``, ``"H"`` or ``"S"`` (case-insensitive)."""
    cleaned = text.strip().upper() if isinstance(text, str) else ""
    if len(cleaned) != 1 or cleaned not in SUITS:
        raise ValueError(f"unknown suit {text!r}: valid suits are {', '.join(SUITS)}")
    return SUITS.index(cleaned)


def mask_to_cards(mask: int) -> list[int]:
    """Card indices in a mask, ascending."""
    return [card for card in range(NUM_CARD_INDICES) if mask >> card & 1]


def mask_to_names(mask: int) -> list[str]:
    """Sorted card strings of a mask."""
    return sorted(card_name(card) for card in mask_to_cards(mask))
