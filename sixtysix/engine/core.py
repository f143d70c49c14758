"""The numba game core: deal, legal actions, apply, trick resolution, scoring.

A deal's whole state is one numpy record (``STATE_DTYPE``); the rules are the
record made by ``rules.compile_rules``. Records are passed by pointer, with no
reference counting, and kernels never allocate per move. Action ids:

* ``0..23``   play card ``id``
* ``24..47``  declare the marriage of the card's suit and lead card ``id - 24``
* ``48`` exchange, ``49`` close, ``50`` claim, ``51`` exchange-on-close,
  ``52`` draw, ``53`` pass
* ``54..57``  marry-claim suit ``id - 54``
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import nth_set_bit, popcount
from .cards import (
    MARRIAGE_PAIR,
    NUM_CARD_INDICES,
    NUM_SUITS,
    QUEEN,
    QUEENS,
    SUIT_OF,
    card_index,
    suit_cards,
    suit_shift,
)
from .rules import (
    CLAIM_AUTOMATIC,
    CLAIM_OPTIONAL_VERIFIED,
    CLOSER_AT_CLOSE,
    EXHAUSTED_HIGHER_TOTAL,
    EXHAUSTED_LAST_TRICK,
    FAILED_ALWAYS_3,
    FAILED_BY_CLOSER_POINTS,
    FAILED_TWO_OR_THREE,
    FALSE_CLAIM_FIXED_2,
    LEAD_EITHER,
    LEAD_KING,
    OPPONENT_OUT_AS_FAILED_CLOSE,
    SCALE_STANDARD,
    SCHWARZ_NO_TRICKS,
    TRICK_STANDARD,
    TRICK_VALUE_ALWAYS,
)

# ---- action ids -------------------------------------------------------------
A_PLAY = 0
A_MARRY = A_PLAY + NUM_CARD_INDICES
A_EXCHANGE = 48
A_CLOSE = 49
A_CLAIM = 50
A_EXCHANGE_ON_CLOSE = 51
A_DRAW = 52
A_PASS = 53
A_MARRY_CLAIM = 54
NUM_ACTIONS = 58

# ---- decision points (state.phase) -------------------------------------------
LEAD = 0  # the leader's turn: claim, exchange, close, lead
FOLLOW = 1  # the follower plays to the led card
PRE_DRAW = 2  # trick winner may close before drawing (close_before_draw)
CLOSE_EXCHANGE = 3  # the non-closer may exchange on the close (exchange_on_opponent_close)
FINAL_CLAIM = 4  # manual claims: the last trick's winner may claim
OVER = 5  # the deal has ended

# ---- outcome reasons (state.reason), docs/rules.md R-A12 -------------------------------
REASONS = (
    "claim",
    "closer_claim",
    "opponent_claim_after_close",
    "false_claim",
    "closer_false_claim",
    "failed_close",
    "higher_total",
    "draw",
    "last_trick",
    "no_score",
)
(
    WHY_CLAIM,
    WHY_CLOSER_CLAIM,
    WHY_OPPONENT_CLAIM_AFTER_CLOSE,
    WHY_FALSE_CLAIM,
    WHY_CLOSER_FALSE_CLAIM,
    WHY_FAILED_CLOSE,
    WHY_HIGHER_TOTAL,
    WHY_DRAW,
    WHY_LAST_TRICK,
    WHY_NO_SCORE,
) = range(len(REASONS))

# ---- state layout: one record per deal (all int64) ---------------------------------
STATE_DTYPE = np.dtype(
    [
        ("hand", np.int64, (2,)),  # hand masks of players 0 and 1
        ("won", np.int64, (2,)),  # masks of cards won in tricks
        ("points", np.int64, (2,)),  # credited card points (tricks, last-trick bonus, VU marriages)
        ("marriage", np.int64, (2,)),  # declared marriage points (pending ones under VU rules)
        ("tricks", np.int64, (2,)),  # tricks won
        ("married_suits", np.int64, (2,)),  # bit mask of the suits each player declared
        ("shown", np.int64, (2,)),  # cards in each hand that both players know are there
        ("excluded", np.int64, (2,)),  # cards publicly known not to be in each hand
        ("talon", np.int64, (16,)),  # talon cards from talon_top; the face-up trump card last
        ("talon_top", np.int64),  # index of the top card
        ("talon_end", np.int64),  # one past the last card; size = end - top
        ("trump", np.int64),  # trump suit
        ("phase", np.int64),  # decision point, see above
        ("to_move", np.int64),  # player to decide, -1 when over
        ("leader", np.int64),  # leader of the current trick
        ("led", np.int64),  # card led to the current trick, -1 if none
        ("closed_by", np.int64),  # closer, -1 if the talon was not closed
        ("snap_tricks", np.int64),  # the non-closer's tricks at the close
        ("snap_total", np.int64),  # the non-closer's total at the close
        ("tricks_done", np.int64),  # completed tricks
        ("turn_acted", np.int64),  # bits: the leader exchanged (1) or closed (2) this turn
        ("last_winner", np.int64),  # winner of the latest trick, -1 before the first
        ("winner", np.int64),  # deal winner, -1 if none (draw, no score, not over)
        ("game_points", np.int64),
        ("reason", np.int64),  # index into REASONS, -1 while not over
        ("dealer", np.int64),
    ],
    align=True,
)

ACTED_EXCHANGE = 1
ACTED_CLOSE = 2


@njit(cache=True, inline="always")
def card_points(card, rules):
    """Points of one card (the nine's value is a rule)."""
    return rules.card_points[card]


@njit(cache=True, inline="always")
def talon_size(state):
    """Cards left in the talon, face-up trump included (dead cards of a closed talon too)."""
    return state.talon_end - state.talon_top


def copy_record(array: np.ndarray) -> np.ndarray:
    """A copy of a record array, made as bytes: numpy's copy of a structured array is ~6x
    slower."""
    return array.view(np.uint8).copy().view(array.dtype)


@njit(cache=True, inline="always")
def talon_open(state):
    """True while cards can still be drawn: not closed and not exhausted."""
    return state.closed_by < 0 and state.talon_end > state.talon_top


@njit(cache=True, inline="always")
def total(state, rules, player):
    """A player's total: credited card points plus marriages validated by a trick."""
    points = state.points[player]
    if rules.marry_pending == 0 and state.tricks[player] > 0:
        points += state.marriage[player]
    return points


@njit(cache=True, inline="always")
def marriage_value(state, rules, suit):
    """A marriage's points: twice ``marriage_points`` in trumps (40 and 20 by docs/rules.md 7.2)."""
    return 2 * rules.marriage_points if suit == state.trump else rules.marriage_points


@njit(cache=True, inline="always")
def exchange_card(state, rules):
    """The trump card that may be exchanged for the face-up one."""
    return card_index(state.trump, rules.exchange_rank)


@njit(cache=True, inline="always")
def exchange_card_in_play(state, rules):
    """Whether the exchange card is not publicly placed: neither under the talon nor won."""
    card = exchange_card(state, rules)
    under_talon = talon_size(state) > 0 and state.talon[state.talon_end - 1] == card
    return not under_talon and ((state.won[0] | state.won[1]) >> card) & 1 == 0


@njit(cache=True, inline="always")
def deal(state, rules, deck, dealer):
    """Set up a fresh deal from a deck permutation (first dealt first)."""
    state.hand[:] = 0
    state.won[:] = 0
    state.points[:] = 0
    state.marriage[:] = 0
    state.tricks[:] = 0
    state.married_suits[:] = 0
    state.shown[:] = 0
    state.excluded[:] = 0
    state.talon_top = 0
    state.snap_tricks = 0
    state.snap_total = 0
    state.tricks_done = 0
    state.turn_acted = 0
    state.game_points = 0
    non_dealer = 1 - dealer
    for k in range(2 * rules.hand_size):
        card = deck[rules.hand_positions[k]]
        state.hand[rules.hand_owner[k] ^ non_dealer] |= 1 << card  # owner 0: the non-dealer
    talon_cards = rules.deck_size - 2 * rules.hand_size
    for k in range(talon_cards - 1):
        state.talon[k] = deck[rules.talon_positions[k]]
    trump_card = deck[rules.trump_position]
    state.talon[talon_cards - 1] = trump_card
    state.talon_end = talon_cards
    state.trump = SUIT_OF[trump_card]
    state.phase = LEAD
    state.to_move = non_dealer
    state.leader = non_dealer
    state.led = -1
    state.closed_by = -1
    state.last_winner = -1
    state.winner = -1
    state.reason = -1
    state.dealer = dealer


# ---- legal actions ----------------------------------------------------------------


@njit(cache=True, inline="always")
def _may_exchange(state, rules, player):
    """Whether ``player`` may exchange the trump card now (timing checked by the caller)."""
    if not talon_open(state) or talon_size(state) < rules.exchange_min_talon:
        return False
    needs_trick = rules.exchange_needs_trick or rules.exchange_any_time
    if needs_trick and state.tricks[player] == 0:
        return False
    return (state.hand[player] >> exchange_card(state, rules)) & 1 == 1


@njit(cache=True, inline="always")
def _claim_offered(state, rules, player):
    """Whether a claim action is offered to ``player`` at a claim point."""
    mode = rules.claim_mode
    if mode == CLAIM_AUTOMATIC:
        return False
    return mode != CLAIM_OPTIONAL_VERIFIED or total(state, rules, player) >= rules.target


@njit(cache=True, inline="always")
def _lead_actions(state, rules):
    player = state.leader
    hand = state.hand[player]
    legal = np.int64(hand)
    first_lead = state.tricks_done == 0
    acted = state.turn_acted
    is_open = talon_open(state)
    pairs = hand & (hand >> 1) & QUEENS  # queens whose king is in hand
    if pairs and (rules.marry_first_lead or not first_lead):
        if is_open or rules.marry_strict or (rules.marry_closing_turn and acted & ACTED_CLOSE):
            lead_card = rules.marry_lead_card
            if lead_card == LEAD_EITHER:
                legal |= np.int64(pairs | pairs << 1) << A_MARRY
            elif lead_card == LEAD_KING:
                legal |= np.int64(pairs << 1) << A_MARRY
            else:
                legal |= np.int64(pairs) << A_MARRY
            if rules.claim_after_marriage and rules.claim_mode != CLAIM_AUTOMATIC:
                legal |= _marry_claims(state, rules, player, pairs)
    if is_open:
        if _may_exchange(state, rules, player):
            legal |= np.int64(1) << A_EXCHANGE
        if (
            rules.closing
            and talon_size(state) >= rules.close_min_talon
            and (rules.close_first_lead or not first_lead)
        ):
            legal |= np.int64(1) << A_CLOSE
    if not first_lead and acted == 0 and _claim_offered(state, rules, player):
        legal |= np.int64(1) << A_CLAIM
    return legal


@njit(cache=True)
def _marry_claims(state, rules, player, pairs):
    """Marry-claim actions (verified ones only under ``optional_verified``)."""
    legal = np.int64(0)
    for suit in range(NUM_SUITS):
        if pairs >> card_index(suit, QUEEN) & 1:
            if rules.claim_mode == CLAIM_OPTIONAL_VERIFIED:
                value = marriage_value(state, rules, suit)
                counts = rules.marry_pending == 0 and state.tricks[player] > 0
                if total(state, rules, player) + (value if counts else 0) < rules.target:
                    continue
            legal |= np.int64(1) << (A_MARRY_CLAIM + suit)
    return legal


@njit(cache=True, inline="always")
def _follow_actions(state, rules):
    player = 1 - state.leader
    hand = state.hand[player]
    legal = np.int64(hand)
    if talon_open(state):
        if rules.exchange_any_time and _may_exchange(state, rules, player):
            legal |= np.int64(1) << A_EXCHANGE
        return legal
    led = state.led
    led_suit = SUIT_OF[led]
    same_suit = hand & suit_cards(led_suit)
    if rules.must_head:
        higher = same_suit & ~((2 << led) - 1)
        if higher:
            return np.int64(higher)
    if rules.must_follow and same_suit:
        return np.int64(same_suit)
    if rules.must_trump and led_suit != state.trump:
        trumps = hand & suit_cards(state.trump)
        if trumps:
            return np.int64(trumps)
    return legal


@njit(cache=True)
def _strict_follow_inference(state, rules, played):
    """Cards the follower cannot hold, since playing ``played`` was legal in the strict phase.

    The legal set is the first non-empty step of docs/rules.md 6.2; ``played`` lies in
    one step, so every earlier enabled step was empty in his hand.
    """
    led = state.led
    led_suit = SUIT_OF[led]
    played_suit = SUIT_OF[played]
    led_suit_cards = suit_cards(led_suit)
    higher = led_suit_cards & ~((np.int64(2) << led) - 1)
    if rules.must_head and (np.int64(1) << played) & higher:
        return np.int64(0)
    excluded = higher if rules.must_head else np.int64(0)
    if rules.must_follow:
        if played_suit == led_suit:
            return excluded
        excluded |= led_suit_cards
    if rules.must_trump and led_suit != state.trump:
        if played_suit == state.trump:
            return excluded
        excluded |= suit_cards(state.trump)
    return excluded


@njit(cache=True, inline="always")
def legal_mask(state, rules):
    """Bit mask over action ids of the legal actions (0 when the deal is over)."""
    phase = state.phase
    if phase == FOLLOW:
        return _follow_actions(state, rules)
    if phase == LEAD:
        return _lead_actions(state, rules)
    player = state.to_move
    if phase == PRE_DRAW:
        legal = (np.int64(1) << A_CLOSE) | (np.int64(1) << A_DRAW)
        if _claim_offered(state, rules, player):
            legal |= np.int64(1) << A_CLAIM
        return legal
    if phase == CLOSE_EXCHANGE:
        legal = np.int64(1) << A_PASS
        if (state.hand[player] >> exchange_card(state, rules)) & 1:
            legal |= np.int64(1) << A_EXCHANGE_ON_CLOSE
        return legal
    if phase == FINAL_CLAIM:
        return (np.int64(1) << A_CLAIM) | (np.int64(1) << A_PASS)
    return np.int64(0)


# ---- scoring ------------------------------------------------------------------------


@njit(cache=True)
def scale_points(rules, loser_total, loser_tricks):
    """Game points to the winner by the loser's total and tricks (docs/rules.md 10.1).

    The thresholds scale with ``target``: schneider below ``target // 2`` (33),
    the czech steps at ``target // 3`` and ``2 * target // 3`` (22, 44).
    """
    if rules.scale == SCALE_STANDARD:
        if rules.schwarz == SCHWARZ_NO_TRICKS:
            schwarz = loser_tricks == 0
        else:
            schwarz = loser_total == 0
        if schwarz:
            return 3
        return 2 if loser_total < rules.target // 2 else 1
    if loser_total <= rules.target // 3:
        return 3
    return 2 if loser_total <= 2 * rules.target // 3 else 1


@njit(cache=True)
def failed_close_points(state, rules):
    """Game points to the non-closer when a close fails (R6); 33 is ``target // 2``."""
    penalty = rules.failed_close
    no_trick_at_close = state.snap_tricks == 0
    if penalty == FAILED_TWO_OR_THREE:
        return 3 if no_trick_at_close else 2
    if penalty == FAILED_ALWAYS_3:
        return 3
    closer_total = total(state, rules, state.closed_by)
    if penalty == FAILED_BY_CLOSER_POINTS:
        if no_trick_at_close:
            return 3
        return 1 if closer_total >= rules.target // 2 else 2
    return 6 if closer_total < rules.target // 2 else 3


@njit(cache=True)
def _finish(state, winner, game_points, reason):
    state.winner = winner
    state.game_points = game_points
    state.reason = reason
    state.phase = OVER
    state.to_move = -1


@njit(cache=True)
def _claim(state, rules, player):
    """End the deal on a claim by ``player``, correct or false (R1-R5)."""
    opponent = 1 - player
    closer = state.closed_by
    if total(state, rules, player) >= rules.target:
        if closer < 0:
            points = scale_points(rules, total(state, rules, opponent), state.tricks[opponent])
            _finish(state, player, points, WHY_CLAIM)
        elif closer == player:
            if rules.closer_basis == CLOSER_AT_CLOSE:
                points = scale_points(rules, state.snap_total, state.snap_tricks)
            else:
                points = scale_points(rules, total(state, rules, opponent), state.tricks[opponent])
            _finish(state, player, points, WHY_CLOSER_CLAIM)
        else:
            if rules.opponent_out == OPPONENT_OUT_AS_FAILED_CLOSE:
                points = failed_close_points(state, rules)
            else:
                points = 2
            _finish(state, player, points, WHY_OPPONENT_CLAIM_AFTER_CLOSE)
    elif closer == player:
        _finish(state, opponent, failed_close_points(state, rules), WHY_CLOSER_FALSE_CLAIM)
    else:
        if rules.false_claim == FALSE_CLAIM_FIXED_2 or state.tricks[opponent] > 0:
            points = 2
        else:
            points = 3
        _finish(state, opponent, points, WHY_FALSE_CLAIM)


@njit(cache=True)
def _end_of_cards(state, rules):
    """Both hands are empty and nobody went out: E3 or E4."""
    if state.closed_by >= 0:
        _finish(state, 1 - state.closed_by, failed_close_points(state, rules), WHY_FAILED_CLOSE)
        return
    rule = rules.exhausted_rule
    if rule == EXHAUSTED_HIGHER_TOTAL:
        total0 = total(state, rules, 0)
        total1 = total(state, rules, 1)
        if total0 == total1:
            _finish(state, -1, 0, WHY_DRAW)
        else:
            winner = 0 if total0 > total1 else 1
            loser = 1 - winner
            points = scale_points(rules, total(state, rules, loser), state.tricks[loser])
            _finish(state, winner, points, WHY_HIGHER_TOTAL)
    elif rule == EXHAUSTED_LAST_TRICK:
        _finish(state, state.last_winner, 1, WHY_LAST_TRICK)
    else:
        _finish(state, -1, 0, WHY_NO_SCORE)


# ---- applying actions ---------------------------------------------------------------


@njit(cache=True, inline="always")
def follower_wins(state, rules, led, played):
    """Trick resolution (docs/rules.md section 4): does the follower's card win?"""
    led_suit = SUIT_OF[led]
    played_suit = SUIT_OF[played]
    if led_suit == played_suit:
        return played > led
    trump = state.trump
    if played_suit == trump:
        return True
    if led_suit == trump:
        return False
    rule = rules.trick_rule
    if rule == TRICK_STANDARD or (rule != TRICK_VALUE_ALWAYS and not talon_open(state)):
        return False
    return card_points(played, rules) > card_points(led, rules)


@njit(cache=True, inline="always")
def _start_turn(state):
    """The trick winner, already ``state.leader``, begins his leader's turn."""
    state.phase = LEAD
    state.to_move = state.leader
    state.turn_acted = 0


@njit(cache=True, inline="always")
def _draw(state):
    """Winner takes the top card, loser the next (the face-up trump at the last draw)."""
    winner = state.leader
    top = state.talon_top
    state.hand[winner] |= 1 << state.talon[top]
    state.hand[1 - winner] |= 1 << state.talon[top + 1]
    state.talon_top = top + 2
    if top + 2 == state.talon_end:  # the last draw: the loser took the face-up trump card
        state.shown[1 - winner] |= 1 << state.talon[top + 1]


@njit(cache=True, inline="always")
def _close(state, rules, closer):
    """Close the talon: snapshot the opponent, then L3 or the closer's lead."""
    opponent = 1 - closer
    state.closed_by = closer
    state.snap_tricks = state.tricks[opponent]
    state.snap_total = total(state, rules, opponent)
    state.turn_acted |= ACTED_CLOSE
    state.phase = LEAD
    state.to_move = closer
    if rules.exchange_on_close and exchange_card_in_play(state, rules):
        # L3 (R-A7) is offered whether or not he holds the card: only an exchange tells.
        state.phase = CLOSE_EXCHANGE
        state.to_move = opponent


@njit(cache=True, inline="always")
def _swap_with_talon_bottom(state, rules, player):
    """Exchange: the player's exchange card replaces the talon's last card, which he takes."""
    last = state.talon_end - 1
    card = exchange_card(state, rules)
    state.hand[player] ^= (1 << card) | (1 << state.talon[last])
    state.shown[player] = (state.shown[player] | 1 << state.talon[last]) & state.hand[player]
    state.talon[last] = card


@njit(cache=True, inline="always")
def _resolve_trick(state, rules, played):
    """The follower played: score the trick, then claim check, pre-draw point or draw."""
    leader = state.leader
    led = state.led
    winner = 1 - leader if follower_wins(state, rules, led, played) else leader
    state.points[winner] += card_points(led, rules) + card_points(played, rules)
    state.tricks[winner] += 1
    state.won[winner] |= (1 << led) | (1 << played)
    state.tricks_done += 1
    state.last_winner = winner
    state.leader = winner
    state.led = -1
    if rules.marry_pending:
        state.points[winner] += state.marriage[winner]
        state.marriage[winner] = 0
    hands_empty = state.hand[0] == 0 and state.hand[1] == 0
    is_open = talon_open(state)
    if hands_empty and state.closed_by < 0:
        state.points[winner] += rules.last_trick_bonus
    if rules.claim_mode == CLAIM_AUTOMATIC and total(state, rules, winner) >= rules.target:
        _claim(state, rules, winner)
    elif hands_empty:
        if _claim_offered(state, rules, winner):
            state.phase = FINAL_CLAIM
            state.to_move = winner
        else:
            _end_of_cards(state, rules)
    elif (
        is_open
        and rules.close_before_draw
        and rules.closing
        and talon_size(state) >= rules.close_min_talon + 2
    ):
        state.phase = PRE_DRAW
        state.to_move = winner
    else:
        if is_open:
            _draw(state)
        _start_turn(state)


@njit(cache=True, inline="always")
def _declare_marriage(state, rules, player, suit):
    """Record a declared marriage; both its cards become known."""
    state.marriage[player] += marriage_value(state, rules, suit)
    state.married_suits[player] |= 1 << suit
    state.shown[player] |= MARRIAGE_PAIR << suit_shift(suit)


@njit(cache=True, inline="always")
def apply_action(state, rules, action):
    """Apply a legal action id (legality is the caller's duty: see ``legal_mask``)."""
    player = state.to_move
    if action < A_MARRY:
        state.hand[player] &= ~(1 << action)
        state.shown[player] &= ~(1 << action)
        if state.phase == LEAD:
            state.led = action
            state.phase = FOLLOW
            state.to_move = 1 - player
        else:
            if not talon_open(state):
                state.excluded[player] |= _strict_follow_inference(state, rules, action)
            _resolve_trick(state, rules, action)
    elif action < A_EXCHANGE:
        card = action - A_MARRY
        _declare_marriage(state, rules, player, SUIT_OF[card])
        if (
            rules.claim_mode == CLAIM_AUTOMATIC
            and rules.claim_after_marriage
            and total(state, rules, player) >= rules.target
        ):
            _claim(state, rules, player)
        else:
            state.hand[player] &= ~(1 << card)
            state.shown[player] &= ~(1 << card)
            state.led = card
            state.phase = FOLLOW
            state.to_move = 1 - player
    elif action == A_EXCHANGE:
        _swap_with_talon_bottom(state, rules, player)
        if state.phase == LEAD:
            state.turn_acted |= ACTED_EXCHANGE
    elif action == A_CLOSE:
        _close(state, rules, player)
    elif action == A_CLAIM:
        _claim(state, rules, player)
    elif action == A_EXCHANGE_ON_CLOSE:
        _swap_with_talon_bottom(state, rules, player)
        state.phase = LEAD
        state.to_move = 1 - player
    elif action == A_DRAW:
        _draw(state)
        _start_turn(state)
    elif action == A_PASS:
        if state.phase == CLOSE_EXCHANGE:
            state.phase = LEAD
            state.to_move = 1 - player
        else:
            _end_of_cards(state, rules)
    else:
        _declare_marriage(state, rules, player, action - A_MARRY_CLAIM)
        _claim(state, rules, player)


# ---- entry points taking one-element record arrays (for Python callers) ------------------


@njit(cache=True)
def deal_array(state_array, rules_array, deck, dealer):
    """``deal`` on one-element state and rule arrays."""
    deal(state_array[0], rules_array[0], deck, dealer)


@njit(cache=True)
def legal_mask_array(state_array, rules_array):
    """``legal_mask`` on one-element state and rule arrays."""
    return legal_mask(state_array[0], rules_array[0])


@njit(cache=True)
def apply_checked(state_array, rules_array, action):
    """Apply ``action`` if it is legal; return whether it was."""
    state = state_array[0]
    rules = rules_array[0]
    if action < 0 or action >= NUM_ACTIONS or not (legal_mask(state, rules) >> action) & 1:
        return False
    apply_action(state, rules, action)
    return True


@njit(cache=True)
def totals_array(state_array, rules_array):
    """Both players' totals."""
    state = state_array[0]
    rules = rules_array[0]
    return total(state, rules, 0), total(state, rules, 1)


# ---- random playouts ----------------------------------------------------------------


@njit(cache=True, inline="always")
def _rotate_left(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def splitmix(x):
    """One SplitMix64 step: ``(next x, output)``."""
    x += np.uint64(0x9E3779B97F4A7C15)
    z = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def seed_rng(seed):
    """A xoshiro256** state (four uint64) from an integer seed, by SplitMix64."""
    x = np.uint64(seed)
    x, s0 = splitmix(x)
    x, s1 = splitmix(x)
    x, s2 = splitmix(x)
    x, s3 = splitmix(x)
    return (s0, s1, s2, s3)


@njit(cache=True, inline="always")
def random_below(rng, n):
    """One xoshiro256** step: ``(next state, uniform integer in [0, n))`` for n < 2**32.

    The state is a tuple of locals, so it stays in registers. Bounded draws use
    the top 32 bits (bias below n / 2**32), exactly as the C reference does, so
    with equal seeds both play the very same random deals.
    """
    s0, s1, s2, s3 = rng
    result = _rotate_left(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotate_left(s3, 45)
    return (s0, s1, s2, s3), np.int64(((result >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def shuffle(deck, rng):
    """Fisher-Yates shuffle of ``deck`` in place; returns the next rng state."""
    for i in range(len(deck) - 1, 0, -1):
        rng, j = random_below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return rng


@njit(cache=True, inline="always")
def shuffle_and_cut(deck, rng, players=2):
    """``shuffle``, then a random dealer among ``players``: ``(rng, dealer)``."""
    return random_below(shuffle(deck, rng), players)


@njit(cache=True)
def seeded_deal(deck, seed):
    """Shuffle ``deck`` (sorted cards) in place from ``seed``; return the dealer.

    This is the first deal that ``random_playouts`` plays with the same seed.
    """
    rng, dealer = shuffle_and_cut(deck, seed_rng(seed))
    return dealer


@njit(cache=True)
def sorted_deck(rules):
    """The cards of the rules' deck in ascending order (the deck ``seeded_deal`` shuffles)."""
    deck = np.empty(rules.deck_size, dtype=np.int64)
    n = 0
    for card in range(NUM_CARD_INDICES):
        if (rules.deck_mask >> card) & 1:
            deck[n] = card
            n += 1
    return deck


@njit(cache=True)
def random_playouts(rules_array, deals, seed):
    """Play ``deals`` deals with uniformly random actions; returns (plies, game points)."""
    rules = rules_array[0]
    state_array = np.zeros(1, dtype=STATE_DTYPE)
    state = state_array[0]
    deck = sorted_deck(rules)
    rng = seed_rng(seed)
    plies = 0
    game_points = 0
    for _ in range(deals):
        rng, dealer = shuffle_and_cut(deck, rng)
        deal(state, rules, deck, dealer)
        while state.phase != OVER:
            legal = legal_mask(state, rules)
            rng, choice = random_below(rng, popcount(legal))
            apply_action(state, rules, nth_set_bit(legal, choice))
            plies += 1
        game_points += state.game_points
    return plies, game_points
