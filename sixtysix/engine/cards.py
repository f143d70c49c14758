"""Cards: encoding, notation and bit masks.

A card is an index ``card_index(suit, rank) = suit * RANKS_PER_SUIT + rank``
over the 32-card pack, with suits ``C D H S`` (0-3) and ranks ``7 8 9 J Q K T A``
(0-7, ascending strength), so within a suit a higher bit is a higher card; a
preset's pack is a subset (the 24-card pack has the ranks ``9 J Q K T A``). A
set of cards is an integer mask with bit ``index`` set (32 bits; the kernels
hold masks in int64). The small helpers below are numba functions, inlined into
the kernels and callable from Python alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SUITS = "CDHS"
RANKS = "789JQKTA"
SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE = range(8)
NUM_SUITS = len(SUITS)
RANKS_PER_SUIT = len(RANKS)
NUM_CARDS = NUM_SUITS * RANKS_PER_SUIT
#: Card points by rank; the low ranks' value is a rule option (``nine_points``,
#: ``low_card_points``).
RANK_POINTS = (0, 0, 0, 2, 3, 4, 10, 11)
#: Every card of one suit, as a mask of suit 0 (shift it with ``suit_cards``).
SUIT_MASK = (1 << RANKS_PER_SUIT) - 1
#: The queen and king of suit 0: a marriage (shift it with ``suit_shift``).
MARRIAGE_PAIR = (1 << QUEEN) | (1 << KING)
#: The queen of every suit.
QUEENS = sum(1 << (suit * RANKS_PER_SUIT + QUEEN) for suit in range(NUM_SUITS))
#: The suit of each card index: a lookup beats a division in the kernels.
SUIT_OF = np.array([card // RANKS_PER_SUIT for card in range(NUM_CARDS)], dtype=np.int64)


@njit(cache=True, inline="always")
def card_index(suit, rank):
    """Index of the card of ``suit`` and ``rank``."""
    return suit * RANKS_PER_SUIT + rank


@njit(cache=True, inline="always")
def suit_shift(suit):
    """How far a suit-0 mask moves to become a mask of ``suit``."""
    return suit * RANKS_PER_SUIT


@njit(cache=True, inline="always")
def suit_cards(suit):
    """Mask of every card of ``suit``."""
    return np.int64(SUIT_MASK) << (suit * RANKS_PER_SUIT)


def suit_of(card: int) -> int:
    """Suit index of a card (Python; kernels index ``SUIT_OF``)."""
    return card // RANKS_PER_SUIT


def rank_of(card: int) -> int:
    """Rank index of a card (Python)."""
    return card % RANKS_PER_SUIT


def card_name(card: int) -> str:
    """Canonical notation of a card index, for example ``"TS"``."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def parse_notation(text: str, ranks: str = RANKS) -> tuple[int, int]:
    """``(suit, rank)`` of card notation such as ``"QH"``, ``"qh"`` or ``"10S"``, the rank
    an index of ``ranks``."""
    if not isinstance(text, str):
        raise ValueError(f"a card must be a string like 'QH', got {text!r}")
    cleaned = text.strip().upper()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    if len(cleaned) != 2 or cleaned[0] not in ranks or cleaned[1] not in SUITS:
        raise ValueError(
            f"unknown card {text!r}: a card is a rank from {' '.join(ranks)} "
            f"(or 10) followed by a suit from {' '.join(SUITS)}, for example 'QH'"
        )
    return SUITS.index(cleaned[1]), ranks.index(cleaned[0])


def parse_card(text: str) -> int:
    """Card index from notation such as ``"QH"``, ``"qh"`` or ``"10S"``."""
    suit, rank = parse_notation(text, RANKS)
    return suit * RANKS_PER_SUIT + rank


def parse_suit(text: str) -> int:
    """Suit index from ``"C"``, ``"D"``, ``"H"`` or ``"S"`` (case-insensitive)."""
    cleaned = text.strip().upper() if isinstance(text, str) else ""
    if len(cleaned) != 1 or cleaned not in SUITS:
        raise ValueError(f"unknown suit {text!r}: valid suits are {', '.join(SUITS)}")
    return SUITS.index(cleaned)


def mask_to_cards(mask: int) -> list[int]:
    """Card indices in a mask, ascending."""
    return [card for card in range(NUM_CARDS) if mask >> card & 1]


def mask_to_names(mask: int) -> list[str]:
    """Sorted card strings of a mask."""
    return sorted(card_name(card) for card in mask_to_cards(mask))


def mask_text(mask: int, empty: str = "") -> str:
    """Card strings of a mask in card order (suit by suit, rank ascending) joined by spaces,
    ``empty`` when there are none."""
    return " ".join(card_name(card) for card in mask_to_cards(mask)) or empty
