"""The MCCFR abstraction, in numba: abstract actions and abstract information-set keys.

Both read only the record ``worlds.hide_from`` leaves the player to move (his hand, the
public facts and the talon's last card), so training (on full records) and play (on
``view.record``) see exactly the same: a test checks that the full and the blanked record
give equal results. docs/abstraction.md documents every feature and abstract action.

*Abstract actions* (``ABSTRACT_ACTION_NAMES``): ``abstract_actions`` maps each one legal
at a decision to one concrete legal action id; abstract actions that would repeat a
concrete action already taken by a lower-numbered one are dropped, so the legal abstract
actions of a node are distinct moves. Every decision has at least one.

*Abstract key* (``abstract_key``): an int64 packing the decision kind
(``DECISION_KINDS``), the talon stage, both players' score bands, the legal abstract
actions and a few hand features.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import multi_core
from ..engine.bits import popcount, trailing_zeros
from ..engine.cards import NUM_SUITS, QUEEN, RANKS_PER_SUIT, SUIT_MASK, SUIT_OF, TEN, suit_cards
from ..engine.heuristic import CARD_MASK, EVERY_SUIT, master_cards, most_points_card
from ..engine.multi_core import (
    A_CLAIM,
    A_CLOSE,
    A_DRAW,
    A_EXCHANGE,
    A_EXCHANGE_ON_CLOSE,
    A_MARRY,
    A_MARRY_CLAIM,
    A_PASS,
    HIGH,
    TABLE_PHASE_NAMES,
)
from ..engine.worlds import unknown_cards

#: Bumped whenever a key or an abstract action changes meaning (checkpoints record it).
ABSTRACTION_VERSION = 2

ABSTRACT_ACTION_NAMES = (
    "lead-low-plain",  # the lowest non-trump card
    "lead-high-plain",  # the non-trump card of most points
    "lead-low-trump",
    "lead-high-trump",
    "marry",  # the biggest marriage, leading its queen where allowed
    "close",
    "exchange",  # exchange, or exchange-on-close
    "claim",
    "marry-claim",  # the biggest marriage-claim
    "decline",  # draw at the pre-draw point, pass on a close or at the final claim
    "win-plain",  # follow: the lowest non-trump card that wins the trick
    "win-trump",  # follow: the lowest trump that wins the trick
    "win-high",  # follow: the winning card of most points
    "lose-cheap",  # follow: the lowest losing card, a non-trump if there is one
    "lead-plain-master",  # the non-trump master (see _opponent_possible) of most points
)
(
    LEAD_LOW_PLAIN,
    LEAD_HIGH_PLAIN,
    LEAD_LOW_TRUMP,
    LEAD_HIGH_TRUMP,
    MARRY,
    CLOSE,
    EXCHANGE,
    CLAIM,
    MARRY_CLAIM,
    DECLINE,
    WIN_PLAIN,
    WIN_TRUMP,
    WIN_HIGH,
    LOSE_CHEAP,
    LEAD_PLAIN_MASTER,
) = range(len(ABSTRACT_ACTION_NAMES))
NUM_ABSTRACT_ACTIONS = len(ABSTRACT_ACTION_NAMES)
#: Where the legal abstract actions lie in a key (``key_mask`` reads them back).
MASK_SHIFT = 12
#: The two-player decisions in the order of their kind in a key (3 bits): lead 0, follow 1,
#: pre-draw 2, the answer to a close 3, the final claim 4.
_KIND_PHASES = (
    multi_core.LEAD,
    multi_core.FOLLOW,
    multi_core.PRE_DRAW,
    multi_core.CLOSE_EXCHANGE,
    multi_core.FINAL_CLAIM,
)
#: The decision kind of each ``multi_core`` phase (-1: no two-player decision).
DECISION_KINDS = np.array(
    [_KIND_PHASES.index(p) if p in _KIND_PHASES else -1 for p in range(len(TABLE_PHASE_NAMES))],
    dtype=np.int64,
)

#: Score bands: 0 no trick won yet, then a total below these fractions of the target.
BAND_LIMITS = (1 / 2, 50 / 66, 60 / 66, 1.0)  # bands 1-4; band 5: at or past the target
NUM_BANDS = 2 + len(BAND_LIMITS)
#: Talon stages: open with at least 8 cards, 4-6 cards, 2 cards; closed by the player to
#: move, closed by his opponent; exhausted.
STAGE_EARLY, STAGE_MIDDLE, STAGE_LAST, STAGE_CLOSED_BY_ME, STAGE_CLOSED_BY_OPPONENT = range(5)
STAGE_EXHAUSTED = 5


@njit(cache=True, inline="always")
def _lowest_card(cards):
    """The card of ``cards`` of the lowest rank, the lowest suit among equals; -1 when
    empty. Points rise with rank, so this is the cheapest card (the dearest:
    ``heuristic.most_points_card``)."""
    for rank in range(RANKS_PER_SUIT):
        of_rank = cards & (np.int64(EVERY_SUIT) << rank)
        if of_rank:
            return trailing_zeros(of_rank)
    return -1


@njit(cache=True, inline="always")
def _biggest_marriage_suit(suits, trump):
    """The suit of ``suits`` (a 4-bit mask) with the biggest marriage: trump first, else the
    lowest suit; -1 when empty."""
    if suits >> trump & 1:
        return trump
    return trailing_zeros(suits) if suits else -1


@njit(cache=True, inline="always")
def _put(out, abstract, action, mask):
    """Set abstract action ``abstract`` to concrete ``action`` unless it is -1 or repeats an
    action already set; return the updated abstract mask."""
    if action < 0:
        return mask
    for other in range(abstract):
        if mask >> other & 1 and out[other] == action:
            return mask
    out[abstract] = action
    return mask | (np.int64(1) << abstract)


@njit(cache=True, inline="always")
def _marriage_lead(low, trump):
    """The biggest legal marriage lead (``low``: the legal set's low word), its queen where
    allowed; -1 if none."""
    marry = (low >> A_MARRY) & CARD_MASK
    suits = np.int64(0)
    for suit in range(NUM_SUITS):
        if marry >> (suit * RANKS_PER_SUIT) & SUIT_MASK:
            suits |= np.int64(1) << suit
    suit = _biggest_marriage_suit(suits, trump)
    if suit < 0:
        return -1
    queen = suit * RANKS_PER_SUIT + QUEEN
    card = queen if marry >> queen & 1 else queen + 1
    return A_MARRY + card


@njit(cache=True)
def abstract_actions(state, rules, out):
    """The legal abstract actions of the player to move as a bit mask; ``out[a]`` gets the
    concrete action id of each legal abstract action ``a`` (other entries are left as they
    are). 0 when the deal is over."""
    low, high = multi_core.legal_masks(state, rules)
    if low == 0 and high == 0:
        return np.int64(0)
    mask = np.int64(0)
    trumps = suit_cards(state.trump)
    cards = low & CARD_MASK
    phase = state.phase
    if phase == multi_core.FOLLOW:
        winners = np.int64(0)
        rest = cards
        while rest:
            card = trailing_zeros(rest)
            rest &= rest - 1
            if multi_core.beats(state, rules, card, state.led):  # the led card wins so far
                winners |= np.int64(1) << card
        losers = cards & ~winners
        mask = _put(out, WIN_PLAIN, _lowest_card(winners & ~trumps), mask)
        mask = _put(out, WIN_TRUMP, _lowest_card(winners & trumps), mask)
        mask = _put(out, WIN_HIGH, most_points_card(winners), mask)
        cheap = losers & ~trumps if losers & ~trumps else losers
        mask = _put(out, LOSE_CHEAP, _lowest_card(cheap), mask)
        if high >> (A_EXCHANGE - HIGH) & 1:
            mask = _put(out, EXCHANGE, A_EXCHANGE, mask)
        return mask
    if phase == multi_core.LEAD:
        mask = _put(out, LEAD_LOW_PLAIN, _lowest_card(cards & ~trumps), mask)
        mask = _put(out, LEAD_HIGH_PLAIN, most_points_card(cards & ~trumps), mask)
        mask = _put(out, LEAD_LOW_TRUMP, _lowest_card(cards & trumps), mask)
        mask = _put(out, LEAD_HIGH_TRUMP, most_points_card(cards & trumps), mask)
        plain_masters = master_cards(
            cards & ~trumps, _opponent_possible(state, rules, state.to_move)
        )
        mask = _put(out, LEAD_PLAIN_MASTER, most_points_card(plain_masters), mask)
        mask = _put(out, MARRY, _marriage_lead(low, state.trump), mask)
        claims = (high >> (A_MARRY_CLAIM - HIGH)) & 15
        suit = _biggest_marriage_suit(claims, state.trump)
        if suit >= 0:
            mask = _put(out, MARRY_CLAIM, A_MARRY_CLAIM + suit, mask)
    for abstract, action in (
        (CLOSE, A_CLOSE),
        (EXCHANGE, A_EXCHANGE),
        (EXCHANGE, A_EXCHANGE_ON_CLOSE),
        (CLAIM, A_CLAIM),
        (DECLINE, A_DRAW),
        (DECLINE, A_PASS),
    ):
        if high >> (action - HIGH) & 1:  # all in the high word
            mask = _put(out, abstract, action, mask)
    return mask


@njit(cache=True, inline="always")
def _band(state, rules, player):
    """``player``'s score band: 0 before his first trick, then by his points and declared
    marriages against ``BAND_LIMITS`` of the target."""
    if state.tricks[player] == 0:
        return 0
    score = state.points[player] + state.marriage[player]
    for band in range(len(BAND_LIMITS)):
        if score < BAND_LIMITS[band] * rules.target:
            return band + 1
    return NUM_BANDS - 1


@njit(cache=True, inline="always")
def _stage(state, player):
    """The talon stage (``STAGE_*``)."""
    if state.closed_by >= 0:
        return STAGE_CLOSED_BY_ME if state.closed_by == player else STAGE_CLOSED_BY_OPPONENT
    size = state.talon_end - state.talon_top
    if size == 0:
        return STAGE_EXHAUSTED
    if size >= 8:
        return STAGE_EARLY
    return STAGE_MIDDLE if size >= 4 else STAGE_LAST


@njit(cache=True, inline="always")
def _marriage_class(hand, trump):
    """0: no king-queen pair in hand, 1: plain pairs only, 2: the trump pair."""
    pairs = hand & (hand >> 1) & (np.int64(EVERY_SUIT) << QUEEN)
    if pairs == 0:
        return 0
    return 2 if pairs >> (trump * RANKS_PER_SUIT + QUEEN) & 1 else 1


@njit(cache=True, inline="always")
def _opponent_possible(state, rules, player):
    """The cards the opponent may hold, or may still draw while the talon is open."""
    opponent = 1 - player
    unseen = unknown_cards(state, rules, player)
    possible = state.shown[opponent] | (unseen & ~state.excluded[opponent])
    if multi_core.talon_open(state):
        possible |= np.int64(1) << state.talon[state.talon_end - 1]
    return possible


@njit(cache=True)
def abstract_key(state, rules, player, mask):
    """The abstract information-set key of ``player`` (the player to move) at a decision
    whose legal abstract actions are ``mask`` (from ``abstract_actions``); see
    docs/abstraction.md for the fields."""
    trump = state.trump
    trumps = suit_cards(trump)
    hand = state.hand[player]
    my_trumps = hand & trumps
    phase = state.phase
    stage = _stage(state, player)
    if phase == multi_core.FOLLOW:
        led = state.led
        rank = led % RANKS_PER_SUIT
        led_class = 2 if rank > TEN else (1 if rank == TEN else 0)
        led_class += 3 * (SUIT_OF[led] == trump)
        features = led_class | min(popcount(my_trumps), 2) << 3
        features |= _marriage_class(hand, trump) << 5
    else:
        possible = _opponent_possible(state, rules, player)
        masters = master_cards(hand, possible)
        features = min(popcount(my_trumps), 3) | min(popcount(masters & trumps), 2) << 2
        features |= min(popcount(masters & ~trumps), 2) << 4
        features |= _marriage_class(hand, trump) << 6
        if not multi_core.talon_open(state):
            features |= min(popcount(possible & trumps), 2) << 8
    key = DECISION_KINDS[phase]
    key |= np.int64(stage) << 3
    key |= np.int64(_band(state, rules, player)) << 6
    key |= np.int64(_band(state, rules, 1 - player)) << 9
    key |= mask << MASK_SHIFT
    key |= np.int64(features) << (MASK_SHIFT + NUM_ABSTRACT_ACTIONS)
    return key


def key_mask(keys: np.ndarray) -> np.ndarray:
    """The legal abstract actions (bit masks) packed in abstract keys."""
    return (keys >> MASK_SHIFT) & ((1 << NUM_ABSTRACT_ACTIONS) - 1)


@njit(cache=True)
def abstract_node_array(record_array, rules_array, out):
    """``(mask, key)`` of the player to move in ``record_array[0]`` (a full record or one
    blanked for him): ``abstract_actions`` into ``out`` and ``abstract_key``."""
    state = record_array[0]
    rules = rules_array[0]
    mask = abstract_actions(state, rules, out)
    return mask, abstract_key(state, rules, state.to_move, mask)
