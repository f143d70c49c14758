"""The ``heuristic`` agent: a deterministic rule-based player in the tradition of expert advice.

``heuristic_action(view, rules)`` reads only the record ``worlds.hide_from`` leaves the
player to move: his own hand, the opponent's publicly shown cards and the cards known not
to be in his hand, both players' won cards, points, marriages and tricks, the talon's size
and its last (face-up or turned-down) card, the phase, the led card and the closer. From
these it knows which cards are *unseen* (in the opponent's hand or the hidden talon) and
which the opponent *may hold* (his shown cards plus the unseen ones he is not known to
lack; while the talon is open the face-up card too, as he may still draw it).

A card of mine is a **master** when it beats, in its own suit, every card of that suit the
opponent may hold. The **keep value** of a card is what holding it is worth beyond its
card points: a trump (more for the trump ace and ten), a king or queen whose partner is in
hand while marriages can still be declared (the marriage's value) or may still be drawn,
a little for a plain ace or ten.

Its rules, in the order it applies them:

1. **Claims** (manual and optional_verified claims): claim exactly when its total has
   reached the target; at a lead, a marriage that lifts it to the target is claimed with
   ``marry-claim``. After the last trick it passes when short of the target.
2. **Exchanges**: always, at the lead and on the opponent's close (``exchange-on-close``).
3. **Closing** (at the lead, or at the pre-draw point): it counts the points of its *sure
   tricks* in the strict phase that would follow: its trump masters and, when those draw
   every trump the opponent may hold, its plain masters too, each trick credited with its
   card plus half the average points of the cards the opponent may hold; marriages it
   could still declare after the close are added. It closes when its total plus these
   points reaches the target.
4. **Leading, talon open**: declare the biggest marriage (40 before 20), leading the queen
   where the rules allow it; else lead a trump master whose trick takes it to the target;
   else lead the card of least points plus keep value (a low plain card: it keeps trumps,
   tens, aces and marriage partners).
5. **Following** (either phase, among the legal cards): every card is scored by the
   trick's points, won or given away, minus its keep value, and winning or losing the deal
   on this trick outweighs everything. So it takes a led ten or ace with a higher card of
   the suit or a low trump, and otherwise throws its cheapest card; in the strict phase it
   wins with the cheapest card that wins.
6. **Leading, strict phase** (talon closed or exhausted): declare a marriage when allowed;
   else lead a sure winner (trump masters first while the opponent may hold trumps, then
   plain masters he can neither beat nor ruff); else its cheapest card.
7. At a pre-draw point where it does not close it draws.

Everything is bit masks and loops over the cards in hand: no allocation, no randomness,
the same action for the same view.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sixtysix import core
from sixtysix.bits import popcount, trailing_zeros
from sixtysix.cards import (
    ACE,
    KING,
    NUM_CARD_INDICES,
    NUM_SUITS,
    QUEEN,
    QUEENS,
    RANKS_PER_SUIT,
    SUIT_MASK,
    SUIT_OF,
    TEN,
    suit_cards,
)
from sixtysix.core import (
    A_CLAIM,
    A_CLOSE,
    A_DRAW,
    A_EXCHANGE,
    A_EXCHANGE_ON_CLOSE,
    A_MARRY,
    A_MARRY_CLAIM,
    A_PASS,
    CLOSE_EXCHANGE,
    FINAL_CLAIM,
    FOLLOW,
    PRE_DRAW,
    follower_wins,
    legal_mask,
    marriage_value,
    talon_open,
    total,
)
from sixtysix.rules import EXHAUSTED_HIGHER_TOTAL, EXHAUSTED_LAST_TRICK

#: Bit 0 of every suit: shifted by a rank, the mask of that rank in all suits.
EVERY_SUIT = sum(1 << (suit * RANKS_PER_SUIT) for suit in range(NUM_SUITS))
#: For a one-suit mask (6 bits): the ranks above its highest card (all six when empty).
ABOVE_HIGHEST = np.array(
    [SUIT_MASK & ~((1 << m.bit_length()) - 1) for m in range(1 << RANKS_PER_SUIT)],
    dtype=np.int64,
)
CARD_MASK = (1 << NUM_CARD_INDICES) - 1

TRUMP_KEEP = 8  # keep value of any trump
HIGH_TRUMP_KEEP = 6  # more for the trump ace and ten
PLAIN_ACE_KEEP = 2
PLAIN_TEN_KEEP = 2
PARTNER_HOPE_KEEP = 3  # a king or queen whose partner may still be drawn
WIN_DEAL = 1000  # weight of ending the deal on this trick
OPPONENT_SHARE = 0.5  # share of the opponent's average card credited to each sure trick


@njit(cache=True, inline="always")
def _masters(cards, possible):
    """The cards of ``cards`` that beat, in their suit, every card of ``possible``."""
    result = np.int64(0)
    for suit in range(NUM_SUITS):
        shift = suit * RANKS_PER_SUIT
        own = (cards >> shift) & SUIT_MASK
        if own:
            result |= (own & ABOVE_HIGHEST[(possible >> shift) & SUIT_MASK]) << shift
    return result


@njit(cache=True, inline="always")
def _mask_points(mask, rules):
    """Card points of every card in ``mask``."""
    points = 0
    for rank in range(RANKS_PER_SUIT):
        points += rules.card_points[rank] * popcount(mask & (np.int64(EVERY_SUIT) << rank))
    return points


@njit(cache=True, inline="always")
def _least_points(mask, rules):
    """Points of the cheapest card in ``mask`` (0 when empty)."""
    for rank in range(RANKS_PER_SUIT):
        if mask & (np.int64(EVERY_SUIT) << rank):
            return rules.card_points[rank]
    return 0


@njit(cache=True, inline="always")
def _most_points(mask, rules):
    """The card of ``mask`` with the most points (the highest suit among equals)."""
    for rank in range(RANKS_PER_SUIT - 1, -1, -1):
        of_rank = mask & (np.int64(EVERY_SUIT) << rank)
        if of_rank:
            return trailing_zeros(of_rank)
    return -1


@njit(cache=True, inline="always")
def _total_after_win(state, player):
    """The player's total once he wins a trick, before that trick's points: his marriages
    then count (``any_trick``) or are credited (``next_trick_after_declaration``)."""
    return state.points[player] + state.marriage[player]


@njit(cache=True, inline="always")
def _keep_value(state, rules, card, hand, unseen, may_marry):
    """What holding ``card`` is worth beyond its points (see the module docstring)."""
    suit = SUIT_OF[card]
    rank = card - suit * RANKS_PER_SUIT
    if suit == state.trump:
        value = TRUMP_KEEP + (HIGH_TRUMP_KEEP if rank >= TEN else 0)
    elif rank == ACE:
        value = PLAIN_ACE_KEEP
    elif rank == TEN:
        value = PLAIN_TEN_KEEP
    else:
        value = 0
    if may_marry and (rank == QUEEN or rank == KING):
        partner = np.int64(1) << (card + 1 if rank == QUEEN else card - 1)
        if hand & partner:
            value += marriage_value(state, rules, suit)
        elif unseen & partner and talon_open(state):
            value += PARTNER_HOPE_KEEP
    return value


@njit(cache=True, inline="always")
def _marriages_later(state, rules):
    """Whether a marriage can still be declared on a later lead."""
    return talon_open(state) or rules.marry_strict


@njit(cache=True, inline="always")
def _cheapest(state, rules, cards, hand, unseen):
    """The card of ``cards`` with the least points plus keep value."""
    may_marry = _marriages_later(state, rules)
    best = -1
    best_cost = 1 << 30
    rest = cards
    while rest:
        card = trailing_zeros(rest)
        rest &= rest - 1
        cost = rules.card_points[card] + _keep_value(state, rules, card, hand, unseen, may_marry)
        if cost < best_cost:
            best, best_cost = card, cost
    return best


@njit(cache=True, inline="always")
def _sure_trick_points(state, rules, hand, possible):
    """Points of the tricks ``hand`` surely takes in the strict phase as leader (rule 3)."""
    trumps = suit_cards(state.trump)
    masters = _masters(hand, possible)
    sure = masters & trumps
    if popcount(sure) >= min(popcount(possible & trumps), popcount(hand)):
        sure = masters
    tricks = popcount(sure)
    if tricks == 0:
        return 0.0
    average = _mask_points(possible, rules) / max(popcount(possible), 1)
    return _mask_points(sure, rules) + OPPONENT_SHARE * average * tricks


@njit(cache=True, inline="always")
def _should_close(state, rules, me, hand, possible):
    """Rule 3: close when the sure tricks after a close reach the target."""
    points = _sure_trick_points(state, rules, hand, possible)
    if points == 0.0:
        return False
    points += _total_after_win(state, me)
    if rules.marry_closing_turn or rules.marry_strict:
        pairs = hand & (hand >> 1) & np.int64(QUEENS)
        while pairs:
            queen = trailing_zeros(pairs)
            pairs &= pairs - 1
            points += marriage_value(state, rules, SUIT_OF[queen])
    return points >= rules.target


@njit(cache=True, inline="always")
def _claim_marriage(state, rules, legal, me):
    """A ``marry-claim`` that reaches the target, or -1 (rule 1)."""
    claims = legal >> A_MARRY_CLAIM
    if claims == 0 or state.tricks[me] == 0 or rules.marry_pending:
        return -1
    for suit in range(NUM_SUITS):
        if claims >> suit & 1:
            if total(state, rules, me) + marriage_value(state, rules, suit) >= rules.target:
                return A_MARRY_CLAIM + suit
    return -1


@njit(cache=True, inline="always")
def _marriage_lead(state, rules, legal):
    """The biggest marriage, leading its queen where allowed (rule 4), or -1."""
    best = -1
    best_value = -1
    marry = (legal >> A_MARRY) & CARD_MASK
    while marry:
        card = trailing_zeros(marry)
        marry &= marry - 1
        value = marriage_value(state, rules, SUIT_OF[card])
        if value > best_value or (value == best_value and card % RANKS_PER_SUIT == QUEEN):
            best, best_value = card, value
    return best if best < 0 else A_MARRY + best


@njit(cache=True, inline="always")
def _lead(state, rules, legal, me, hand, unseen, possible, bottom):
    """Rules 2-4 and 6: the leader's turn."""
    if legal >> A_EXCHANGE & 1:
        return A_EXCHANGE
    if legal >> A_CLOSE & 1 and _should_close(state, rules, me, hand, possible & ~bottom):
        return A_CLOSE
    marriage = _marriage_lead(state, rules, legal)
    if marriage >= 0:
        return marriage
    trumps = suit_cards(state.trump)
    if talon_open(state):
        masters = _masters(hand & trumps, possible)
        if masters:
            card = _most_points(masters, rules)
            gain = rules.card_points[card] + _least_points(possible, rules)
            if _total_after_win(state, me) + gain >= rules.target:
                return card
        return _cheapest(state, rules, hand, hand, unseen)
    masters = _masters(hand, possible)
    trump_masters = masters & trumps
    if trump_masters and possible & trumps:
        return _most_points(trump_masters, rules)
    if masters:
        exhausted = state.closed_by < 0
        holds = possible if exhausted else state.shown[1 - me]
        safe = np.int64(0)
        for suit in range(NUM_SUITS):
            cards = suit_cards(suit)
            if masters & cards and (not possible & trumps or holds & cards):
                safe |= masters & cards
        if safe:
            return _most_points(safe, rules)
    return _cheapest(state, rules, hand, hand, unseen)


@njit(cache=True, inline="always")
def _follow(state, rules, legal, me, hand, unseen):
    """Rule 5: score every legal card by the trick won or given away, less its keep value."""
    opponent = 1 - me
    led = state.led
    led_points = rules.card_points[led]
    last_trick = popcount(hand) == 1 and not talon_open(state)
    bonus = rules.last_trick_bonus if last_trick and state.closed_by < 0 else 0
    mine = _total_after_win(state, me)
    theirs = _total_after_win(state, opponent)
    may_marry = _marriages_later(state, rules)
    best = -1
    best_score = -(1 << 30)
    cards = legal & CARD_MASK
    while cards:
        card = trailing_zeros(cards)
        cards &= cards - 1
        trick = led_points + rules.card_points[card]
        keep = _keep_value(state, rules, card, hand, unseen, may_marry)
        if follower_wins(state, rules, led, card):
            score = led_points - keep
            if mine + trick + bonus >= rules.target:
                score += WIN_DEAL
            elif last_trick:
                score += _last_trick_value(state, rules, me, trick + bonus)
        else:
            score = -trick - rules.card_points[card] - keep
            if theirs + trick + bonus >= rules.target:
                score -= WIN_DEAL
            elif last_trick:
                score -= _last_trick_value(state, rules, opponent, trick + bonus)
        if score > best_score:
            best, best_score = card, score
    return best


@njit(cache=True, inline="always")
def _last_trick_value(state, rules, winner, trick):
    """What taking the deal's last trick is worth to ``winner`` when it ends the deal
    without a claim (rule 5): the deal itself if the rules give it to him."""
    if state.closed_by >= 0:
        return 0
    if rules.exhausted_rule == EXHAUSTED_LAST_TRICK:
        return WIN_DEAL
    if rules.exhausted_rule == EXHAUSTED_HIGHER_TOTAL:
        if total(state, rules, winner) + trick > total(state, rules, 1 - winner):
            return WIN_DEAL
    return 0


@njit(cache=True)
def heuristic_action(state, rules):
    """The heuristic's action id in ``state``, a record blanked by ``worlds.hide_from`` for
    the player to move (rules 1-7 of the module docstring)."""
    legal = legal_mask(state, rules)
    me = state.to_move
    phase = state.phase
    reached = total(state, rules, me) >= rules.target
    if legal >> A_CLAIM & 1 and reached:
        return A_CLAIM
    if phase == FINAL_CLAIM:
        return A_PASS
    if phase == CLOSE_EXCHANGE:
        return A_EXCHANGE_ON_CLOSE if legal >> A_EXCHANGE_ON_CLOSE & 1 else A_PASS
    opponent = 1 - me
    hand = state.hand[me]
    seen = hand | state.won[0] | state.won[1] | state.shown[opponent]
    if state.led >= 0:
        seen |= np.int64(1) << state.led
    bottom = np.int64(0)
    if state.talon_end > state.talon_top:
        bottom = np.int64(1) << state.talon[state.talon_end - 1]
    unseen = rules.deck_mask & ~seen & ~bottom
    possible = state.shown[opponent] | (unseen & ~state.excluded[opponent])
    if talon_open(state):
        possible |= bottom
    if phase == PRE_DRAW:
        if _should_close(state, rules, me, hand, possible & ~bottom):
            return A_CLOSE
        return A_DRAW
    if phase == FOLLOW:
        if legal >> A_EXCHANGE & 1:
            return A_EXCHANGE
        return _follow(state, rules, legal, me, hand, unseen)
    claim = _claim_marriage(state, rules, legal, me)
    if claim >= 0:
        return claim
    return _lead(state, rules, legal, me, hand, unseen, possible, bottom)
