"""The ``heuristic`` policy: deterministic expert rules, in numba (``heuristic:worlds=0`` plays
them alone; the ``heuristic`` agent adds exact counting at closing and in the strict phase,
``agents.policy_agents``; the solver's depth-limited search plays them out from its horizon).

``heuristic_action(view, rules)`` reads only the two-player deal record
(``multi_core.TWO_PLAYER_STATE_DTYPE``; ``rules`` a ``TABLE_RULES_DTYPE`` record) that
``worlds.hide_from`` leaves the player to move: his own hand, the opponent's publicly
shown cards and the cards known not to be in his hand (``shown`` and ``excluded``, which
``multi_core.apply_with_knowledge`` keeps), both players' won cards, points, marriages and
tricks, the talon's size and its last (face-up or turned-down) card, the phase, the led
card and the closer. From these it knows which cards are *unseen* (in the opponent's hand
or the hidden talon) and which the opponent *may hold*: his shown cards plus the unseen
ones he is not known to lack, and while the talon is open the face-up card too, as he may
still draw it.

Terms. A card of mine is a **master** when it beats, in its own suit, every card of that
suit the opponent may hold. The **keep value** of a card is what holding it is worth
beyond its card points: 16 for a trump (22 for the trump ace and ten), 2 for a plain ace
or ten, the marriage's value (20 or 40) for a king or queen whose partner is in hand
while a marriage can still be declared, 3 for one whose partner is unseen while the talon
is open. A card's **cost** is its points plus its keep value.

Its rules, in the order it applies them:

1. **Claims** (manual and optional_verified claims): claim exactly when its total has
   reached the target, never short of it; after the last trick it passes when short.
   A marriage that lifts it to the target at once is declared first: ``marry-claim``,
   or under automatic claims the marriage lead the engine ends the deal on.
2. **Exchanges**: always, at the lead and on the opponent's close (``exchange-on-close``).
3. **Closing** (at the lead, or at the pre-draw point): it counts the points of its *sure
   tricks* in the strict phase that would follow: its trump masters and, when those draw
   every trump the opponent may hold (he must follow suit), all its trumps and its plain
   masters too, each trick credited with its card plus half the average points of the
   cards the opponent may hold. Marriages it could still declare are added: the biggest
   one where it may declare on the lead after the close, all of them where marriages stay
   allowed in the strict phase. It closes when its total (with its declared marriages,
   which its next trick validates) plus these points reaches the target; otherwise it
   draws at a pre-draw point.
4. **Leading, talon open**: declare the biggest marriage (40 before 20), leading the queen
   where the rules allow it; else lead its best trump master if that trick, with the
   cheapest card the opponent may hold, takes it to the target; else lead its card of
   least cost: a low plain card, keeping trumps, tens, aces and marriage partners.
5. **Following** (among the legal cards): a card that wins the trick scores the led card's
   points less its keep value, plus half the value of its biggest marriage in hand if the
   lead it wins lets it declare; a card that loses scores minus the trick's points and
   minus its cost. Winning or losing the deal on this trick outweighs everything. At the
   last draw, where the trick's loser takes the face-up card, winning is worth that much
   less (the face-up card's points and keep value against an average unseen card). So it
   takes a led ten or ace with a higher card of the suit or a low trump, wins with its
   cheapest winner, and otherwise throws its cheapest card.
6. **Leading, strict phase** (talon closed or exhausted): declare the biggest marriage
   when allowed; else lead a sure winner: a trump master while the opponent may hold
   trumps, else a plain master he can neither beat nor ruff (he has no trump, or must
   follow suit and surely holds the suit), the card of most points first; else its card
   of least cost.

Everything is bit masks and loops over the cards in hand: no allocation, no randomness,
the same action for the same view.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import popcount, trailing_zeros
from .cards import (
    ACE,
    NUM_CARDS,
    NUM_SUITS,
    QUEEN,
    QUEENS,
    RANKS_PER_SUIT,
    SUIT_MASK,
    SUIT_OF,
    TEN,
    suit_cards,
)
from .multi_core import (
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
    HIGH,
    PRE_DRAW,
    beats,
    credited,
    legal_masks,
    marriage_value,
    talon_open,
)
from .multi_rules import CLAIM_AUTOMATIC
from .worlds import unknown_cards

#: Bit 0 of every suit: shifted by a rank, the mask of that rank in all suits.
EVERY_SUIT = sum(1 << (suit * RANKS_PER_SUIT) for suit in range(NUM_SUITS))
#: For a one-suit mask: the ranks above its highest card (every rank when empty).
ABOVE_HIGHEST = np.array(
    [SUIT_MASK & ~((1 << m.bit_length()) - 1) for m in range(1 << RANKS_PER_SUIT)],
    dtype=np.int64,
)
CARD_MASK = (1 << NUM_CARDS) - 1
ACES_AND_TENS = (EVERY_SUIT << ACE) | (EVERY_SUIT << TEN)

TRUMP_KEEP = 16  # keep value of any trump
HIGH_TRUMP_KEEP = 6  # more for the trump ace and ten
PLAIN_HIGH_KEEP = 2  # keep value of a plain ace or ten
PARTNER_HOPE_KEEP = 3  # a king or queen whose partner may still be drawn
LEAD_VALUE_SHARE = 0.5  # share of a marriage in hand that winning the lead is worth
OPPONENT_SHARE = 0.5  # share of the opponent's average card credited to each sure trick
WIN_DEAL = 1000  # weight of winning (or losing) the deal on this trick


@njit(cache=True, inline="always")
def _offered(high, action):
    """Whether ``action``, an id of the high word, is in the legal set's high word."""
    return (high >> (action - HIGH)) & 1 == 1


@njit(cache=True, inline="always")
def _talon_size(state):
    """Cards left in the talon, the face-up card included."""
    return state.talon_end - state.talon_top


@njit(cache=True, inline="always")
def master_cards(cards, possible):
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
def most_points_card(mask):
    """The card of ``mask`` with the most points (the lowest suit among equals)."""
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
def _pairs(hand):
    """The queens of ``hand`` whose king is in hand too."""
    return hand & (hand >> 1) & np.int64(QUEENS)


@njit(cache=True, inline="always")
def _marriage_cards(state, rules, hand, unseen):
    """Kings and queens worth keeping as marriage partners: ``(pair cards, hope cards)``,
    the ones whose partner is in hand and the ones whose partner may still be drawn."""
    if not (talon_open(state) or rules.marry_strict):
        return np.int64(0), np.int64(0)
    pairs = _pairs(hand)
    partnered = pairs | (pairs << 1)
    hopes = np.int64(0)
    if talon_open(state):
        queens = hand & np.int64(QUEENS)
        kings = hand & (np.int64(QUEENS) << 1)
        hopes = (queens & (unseen >> 1)) | (kings & (unseen << 1))
    return partnered, hopes & ~partnered


@njit(cache=True, inline="always")
def _marriages_points(state, rules, hand, biggest_only):
    """The value of the marriages in ``hand``: all of them, or only the biggest."""
    pairs = _pairs(hand)
    points = 0
    while pairs:
        queen = trailing_zeros(pairs)
        pairs &= pairs - 1
        value = marriage_value(state, rules, SUIT_OF[queen])
        points = max(points, value) if biggest_only else points + value
    return points


@njit(cache=True, inline="always")
def _keep_value(state, rules, card, partnered, hopes):
    """What holding ``card`` is worth beyond its points (see the module docstring)."""
    bit = np.int64(1) << card
    high = np.int64(ACES_AND_TENS) & bit
    if suit_cards(state.trump) & bit:
        value = TRUMP_KEEP + HIGH_TRUMP_KEEP if high else TRUMP_KEEP
        if partnered & bit:
            value += 2 * rules.marriage_points
    else:
        value = PLAIN_HIGH_KEEP if high else 0
        if partnered & bit:
            value += rules.marriage_points
    if hopes & bit:
        value += PARTNER_HOPE_KEEP
    return value


@njit(cache=True, inline="always")
def _cheapest(state, rules, cards, partnered, hopes):
    """The card of ``cards`` of least cost (points plus keep value)."""
    best = -1
    best_cost = 1 << 30
    rest = cards
    while rest:
        card = trailing_zeros(rest)
        rest &= rest - 1
        cost = rules.card_points[card] + _keep_value(state, rules, card, partnered, hopes)
        if cost < best_cost:
            best, best_cost = card, cost
    return best


@njit(cache=True, inline="always")
def _should_close(state, rules, me, hand, possible):
    """Rule 3: close when the sure tricks after a close reach the target."""
    trumps = suit_cards(state.trump)
    masters = master_cards(hand, possible)
    sure = masters & trumps
    if rules.must_follow and popcount(sure) >= min(popcount(possible & trumps), popcount(hand)):
        sure = masters | (hand & trumps)
    if sure == 0:
        return False
    average = _mask_points(possible, rules) / max(popcount(possible), 1)
    points = _total_after_win(state, me) + _mask_points(sure, rules)
    points += OPPONENT_SHARE * average * popcount(sure)
    if rules.marry_first_lead or state.tricks_done > 0:
        if rules.marry_strict:
            points += _marriages_points(state, rules, hand, False)
        elif rules.marry_closing_turn:  # one declaration, on the lead after the close
            points += _marriages_points(state, rules, hand, True)
    return points >= rules.target


@njit(cache=True, inline="always")
def _winning_marriage(state, rules, low, high, me):
    """A declaration that takes the player to the target at once (rule 1), or -1: a
    ``marry-claim``, or under automatic claims the marriage lead the engine ends on."""
    if not (low >> A_MARRY) & CARD_MASK or state.tricks[me] == 0 or rules.marry_pending:
        return -1
    if not rules.claim_after_marriage:
        return -1
    need = rules.target - credited(state, rules, me)
    for suit in range(NUM_SUITS):
        if marriage_value(state, rules, suit) < need:
            continue
        if _offered(high, A_MARRY_CLAIM + suit):
            return A_MARRY_CLAIM + suit
        if rules.claim_mode == CLAIM_AUTOMATIC:
            marry = (low >> (A_MARRY + suit * RANKS_PER_SUIT)) & SUIT_MASK
            if marry:
                return A_MARRY + suit * RANKS_PER_SUIT + trailing_zeros(marry)
    return -1


@njit(cache=True, inline="always")
def _marriage_lead(state, rules, low):
    """The biggest marriage, leading its queen where allowed (rules 4 and 6), or -1."""
    best = -1
    best_value = -1
    marry = (low >> A_MARRY) & CARD_MASK
    while marry:
        card = trailing_zeros(marry)
        marry &= marry - 1
        value = marriage_value(state, rules, SUIT_OF[card])
        if value > best_value or (value == best_value and card % RANKS_PER_SUIT == QUEEN):
            best, best_value = card, value
    return best if best < 0 else A_MARRY + best


@njit(cache=True, inline="always")
def _strict_lead(state, rules, me, hand, possible):
    """Rule 6 after the marriage: a sure winner, or -1."""
    trumps = suit_cards(state.trump)
    masters = master_cards(hand, possible)
    trump_masters = masters & trumps
    if trump_masters and possible & trumps:
        return most_points_card(trump_masters)
    if masters and possible & trumps:
        # A plain master is safe from a ruff only if he must follow suit and surely holds
        # its suit: once the talon is exhausted he holds every card he may hold, after a
        # close only his shown ones.
        holds = possible if state.closed_by < 0 else state.shown[1 - me]
        safe = np.int64(0)
        for suit in range(NUM_SUITS):
            if rules.must_follow and holds & suit_cards(suit):
                safe |= masters & suit_cards(suit)
        masters = safe
    return most_points_card(masters) if masters else -1


@njit(cache=True, inline="always")
def _lead(state, rules, low, high, me, hand):
    """Rules 2-4 and 6: the leader's turn."""
    if _offered(high, A_EXCHANGE):
        return A_EXCHANGE
    unseen, possible, bottom = _unknowns(state, rules, me)
    if _offered(high, A_CLOSE) and _should_close(state, rules, me, hand, possible & ~bottom):
        return A_CLOSE
    marriage = _marriage_lead(state, rules, low)
    if marriage >= 0:
        return marriage
    if talon_open(state):
        masters = master_cards(hand & suit_cards(state.trump), possible)
        if masters:
            card = most_points_card(masters)
            gain = rules.card_points[card] + _least_points(possible, rules)
            if _total_after_win(state, me) + gain >= rules.target:
                return card
    else:
        card = _strict_lead(state, rules, me, hand, possible)
        if card >= 0:
            return card
    partnered, hopes = _marriage_cards(state, rules, hand, unseen)
    return _cheapest(state, rules, hand, partnered, hopes)


@njit(cache=True, inline="always")
def _lead_value(state, rules, hand):
    """Rule 5: what winning the lead is worth to a follower who could then declare."""
    if not (_talon_size(state) > 2 and talon_open(state)) and not rules.marry_strict:
        return 0.0
    return LEAD_VALUE_SHARE * _marriages_points(state, rules, hand, True)


@njit(cache=True, inline="always")
def _face_up_value(state, rules, unseen):
    """Rule 5 at the last draw, where the trick's loser takes the face-up card and the
    winner an unseen one: how much more the face-up card is worth (points and keep value)
    than the average unseen card."""
    if not (talon_open(state) and _talon_size(state) == 2):
        return 0.0
    face_up = state.talon[state.talon_end - 1]
    value = rules.card_points[face_up] + _keep_value(state, rules, face_up, 0, 0)
    trumps = popcount(unseen & suit_cards(state.trump))
    average = (_mask_points(unseen, rules) + TRUMP_KEEP * trumps) / max(popcount(unseen), 1)
    return value - average


@njit(cache=True, inline="always")
def _follow(state, rules, cards, me, hand):
    """Rule 5: the follower's card."""
    unseen, _, _ = _unknowns(state, rules, me)
    partnered, hopes = _marriage_cards(state, rules, hand, unseen)
    led = state.led
    led_points = rules.card_points[led]
    need_mine = rules.target - _total_after_win(state, me) - led_points
    need_theirs = rules.target - _total_after_win(state, 1 - me) - led_points
    lead_value = _lead_value(state, rules, hand) - _face_up_value(state, rules, unseen)
    best = -1
    best_score = -1e9
    rest = cards
    while rest:
        card = trailing_zeros(rest)
        rest &= rest - 1
        points = rules.card_points[card]
        keep = _keep_value(state, rules, card, partnered, hopes)
        if beats(state, rules, card, led):
            score = led_points - keep + lead_value
            if points >= need_mine:
                score += WIN_DEAL
        else:
            score = -led_points - 2 * points - keep
            if points >= need_theirs:
                score -= WIN_DEAL
        if score > best_score:
            best, best_score = card, score
    return best


@njit(cache=True, inline="always")
def _unknowns(state, rules, me):
    """``(unseen, possible, bottom)``: the cards I have not seen, those the opponent may
    hold (or still draw), and the talon's last card as a mask (0 if the talon is empty)."""
    opponent = 1 - me
    bottom = np.int64(0)
    if state.talon_end > state.talon_top:
        bottom = np.int64(1) << state.talon[state.talon_end - 1]
    unseen = unknown_cards(state, rules, me)
    possible = state.shown[opponent] | (unseen & ~state.excluded[opponent])
    if talon_open(state):
        possible |= bottom
    return unseen, possible, bottom


@njit(cache=True)
def heuristic_action(state, rules):
    """The heuristic's action id in ``state``, a record blanked by ``worlds.hide_from`` for
    the player to move (rules 1-6 of the module docstring)."""
    low, high = legal_masks(state, rules)
    me = state.to_move
    phase = state.phase
    if phase == FOLLOW:
        if _offered(high, A_EXCHANGE):
            return A_EXCHANGE
        if low & (low - 1) == 0:
            return trailing_zeros(low)
        return _follow(state, rules, low, me, state.hand[me])
    if _offered(high, A_CLAIM) and credited(state, rules, me) >= rules.target:
        return A_CLAIM
    if phase == FINAL_CLAIM:
        return A_PASS
    if phase == CLOSE_EXCHANGE:
        return A_EXCHANGE_ON_CLOSE if _offered(high, A_EXCHANGE_ON_CLOSE) else A_PASS
    hand = state.hand[me]
    if phase == PRE_DRAW:
        _, possible, bottom = _unknowns(state, rules, me)
        return A_CLOSE if _should_close(state, rules, me, hand, possible & ~bottom) else A_DRAW
    marriage = _winning_marriage(state, rules, low, high, me)
    if marriage >= 0:
        return marriage
    return _lead(state, rules, low, high, me, hand)
