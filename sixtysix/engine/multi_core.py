"""The numba game core for two to four seats (docs/rules.md "Three and four players"):
the call, announcements, the auction, legal actions, tricks of N cards, drawing,
sides, claims and scoring.

A deal's state is one numpy record (``TABLE_STATE_DTYPE``, or ``TWO_PLAYER_STATE_DTYPE``
for the two-player game: ``state_dtype`` picks it); the rules are the record of
``multi_rules.compile_table_rules``. Cards are indices over the 32-card pack
(``cards``). Action ids (117, so the legal set is two 64-bit words ``(low, high)``,
bit ``a`` of low for ``a < 64`` and bit ``a - 64`` of high otherwise):

* ``0..31`` play card ``id``; ``32..63`` declare the marriage of the card's suit and lead
  card ``id - 32``; ``64..95`` call card ``id - 64``
* ``96`` exchange, ``97`` close, ``98`` claim, ``99`` exchange-on-close and ``100`` draw
  (the two-player game's exchange on the opponent's close and its close before the draw,
  ``TWO_PLAYER_OPTIONS``), ``101`` pass, ``102`` announce durchmars, ``103`` announce betli,
  ``104..108`` bid 1..5
* ``109..112`` marry-claim suit ``id - 109``; ``113..116`` meld suit ``id - 113`` (the
  leader's partner shows a marriage, RULES_MULTI M12)

The ids of actions that can be legal together keep the order of the two-player game's
first numbering, so a seeded random choice among them picks as it always did.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import nth_set_bit, popcount, trailing_zeros
from .cards import MARRIAGE_PAIR, NUM_CARDS, QUEEN, QUEENS, RANKS_PER_SUIT, suit_cards
from .multi_rules import (
    CLAIM_AUTOMATIC,
    CLAIM_NONE,
    CLAIM_OPTIONAL_VERIFIED,
    DURCHMARS_BETLI,
    EXHAUSTED_HIGHER_TOTAL,
    EXHAUSTED_LAST_TRICK,
    FAILED_ALWAYS_3,
    FAILED_CZECH,
    FAILED_TWO_OR_THREE,
    LEAD_EITHER,
    LEAD_KING,
    NO_ANNOUNCEMENTS,
    SIDES_CALLED,
    SIDES_CONTRACT,
    SIDES_FIXED,
    SIDES_NONE,
    TRICK_STANDARD,
    TRICK_VALUE_ALWAYS,
    TRUMP_FIRST_LEAD,
    TRUMP_TURN_UP,
)
from .rng import random_below, seed_rng, shuffle_and_cut

# ---- action ids -------------------------------------------------------------
A_PLAY = 0
A_MARRY = 32
A_CALL = 64
A_EXCHANGE = 96
A_CLOSE = 97
A_CLAIM = 98
A_EXCHANGE_ON_CLOSE = 99
A_DRAW = 100
A_PASS = 101
A_DURCHMARS = 102
A_BETLI = 103
A_BID = 103  # bid k is A_BID + k, k = 1..5
A_MARRY_CLAIM = 109
A_MELD = 113
NUM_TABLE_ACTIONS = 117
HIGH = 64  # the first action id of the high word

# ---- decision points (state.phase) -------------------------------------------
CALL = 0  # the caller names a card
ANNOUNCE = 1  # a seat may announce durchmars or betli, or pass
BID = 2  # the auction of the contract games
LEAD = 3  # the leader's turn: claim, exchange, close, lead
FOLLOW = 4  # a follower plays to the trick
MELD = 5  # the leader's partner may show a marriage
FINAL_CLAIM = 6  # manual claims: the last trick's winner may claim
OVER = 7
PRE_DRAW = 8  # two players, close_before_draw: the trick's winner may close before drawing
CLOSE_EXCHANGE = 9  # two players, exchange_on_opponent_close: the other seat may exchange
TABLE_PHASE_NAMES = (
    "call",
    "announce",
    "bid",
    "lead",
    "follow",
    "meld",
    "final-claim",
    "over",
    "pre-draw",
    "close-exchange",
)

# ---- announcements (state.announced) ----------------------------------------------
DURCHMARS = 1
BETLI = 2

# ---- outcome reasons (RULES_MULTI 1.13.5, M20) ----------------------------------------
TABLE_REASONS = (
    "claim",
    "closer_claim",
    "opponent_claim_after_close",
    "false_claim",
    "closer_false_claim",
    "failed_close",
    "last_trick",
    "durchmars_made",
    "durchmars_failed",
    "betli_made",
    "betli_failed",
    "contract_made",
    "contract_set",
    "moon_made",
    "moon_failed",
    "redeal",
    "higher_total",
    "draw",
    "no_score",
)
(
    WHY_CLAIM,
    WHY_CLOSER_CLAIM,
    WHY_OPPONENT_CLAIM_AFTER_CLOSE,
    WHY_FALSE_CLAIM,
    WHY_CLOSER_FALSE_CLAIM,
    WHY_FAILED_CLOSE,
    WHY_LAST_TRICK,
    WHY_DURCHMARS_MADE,
    WHY_DURCHMARS_FAILED,
    WHY_BETLI_MADE,
    WHY_BETLI_FAILED,
    WHY_CONTRACT_MADE,
    WHY_CONTRACT_SET,
    WHY_MOON_MADE,
    WHY_MOON_FAILED,
    WHY_REDEAL,
    WHY_HIGHER_TOTAL,
    WHY_DRAW,
    WHY_NO_SCORE,
) = range(len(TABLE_REASONS))

MOON = 5


def _state_dtype(seats: int) -> np.dtype:
    """The deal record with room for ``seats`` seats."""
    return np.dtype(
        [
            ("hand", np.int64, (seats,)),  # hand masks by seat
            ("won", np.int64, (seats,)),  # cards won in tricks
            ("points", np.int64, (seats,)),  # trick points (and a last-trick bonus)
            ("marriage", np.int64, (seats,)),  # declared marriage points
            ("tricks", np.int64, (seats,)),  # tricks won
            ("team", np.int64, (seats,)),  # mask of the seats on each seat's side now
            ("snap_total", np.int64, (seats,)),  # each seat's total at the close
            ("snap_tricks", np.int64, (seats,)),  # each seat's tricks at the close
            ("scores", np.int64, (seats,)),  # game points of the deal, once over
            ("talon", np.int64, (NUM_CARDS,)),  # talon cards from talon_top; a face-up card last
            ("talon_top", np.int64),
            ("talon_end", np.int64),
            ("trump", np.int64),  # trump suit, -1 while unset or in betli
            ("phase", np.int64),
            ("to_move", np.int64),  # seat to decide, -1 when over
            ("leader", np.int64),  # leader of the current trick
            ("led", np.int64),  # card led to the current trick, -1 if none
            ("winning", np.int64),  # the card winning the current trick so far
            ("winning_seat", np.int64),  # who played it
            ("trick_cards", np.int64),  # the cards of the current trick
            ("trick_points", np.int64),  # their points
            ("in_hands", np.int64),  # cards in the hands of the seats that play
            ("trick_size", np.int64),  # cards played to the current trick
            ("married_cards", np.int64),  # the cards of the suits whose marriage was declared (M11)
            ("closed_by", np.int64),  # closer, -1 if not closed
            ("tricks_done", np.int64),
            ("turn_acted", np.int64),  # the leader exchanged or closed this turn
            ("last_winner", np.int64),
            ("reason", np.int64),  # index into TABLE_REASONS, -1 while not over
            ("winners", np.int64),  # mask of the seats that won the deal
            ("dealer", np.int64),
            ("first_leader", np.int64),
            ("called", np.int64),  # the called card, -1 if none
            ("caller", np.int64),
            ("holder", np.int64),  # seat holding the called card, -1 while it is in the talon
            ("revealed", np.int64),  # the partnership is public (RULES_MULTI decision 6, M4)
            ("reveal_checked", np.int64),  # the all-sides check at the reveal was made (MP-A9)
            ("call_forbidden", np.int64),  # cards the caller may not name
            ("announced", np.int64),  # 0, DURCHMARS or BETLI
            ("announcer", np.int64),
            ("announce_turns", np.int64),  # announcement turns taken
            ("sits_out", np.int64),  # seat whose hand lies face down, -1 if none
            ("playing", np.int64),  # mask of the seats that play tricks
            ("high_bid", np.int64),
            ("declarer", np.int64),
            ("passed", np.int64),  # mask of seats that passed in the auction
            # The public knowledge of the hands, kept by ``apply_with_knowledge`` (zero where
            # only ``apply_action`` ran): the cards every seat knows are in each hand (shown
            # by a marriage, an exchange, the face-up card drawn) and those every seat knows
            # are not (a follower's card that the follow rules tell; a hidden draw ends what
            # was known).
            ("shown", np.int64, (seats,)),
            ("excluded", np.int64, (seats,)),
        ],
        align=True,
    )


TABLE_STATE_DTYPE = _state_dtype(4)
#: The record of the two-player game (two seats each for himself, trump turned up, no
#: announcements): the kernels compile for it apart, and what that game never has (a
#: call, an announcement, sides, a third seat) compiles away.
TWO_PLAYER_STATE_DTYPE = _state_dtype(2)


def state_dtype(rules_array: np.ndarray) -> np.dtype:
    """The deal record for compiled rules: the two-player game's, or the table's."""
    rules = rules_array[0]
    plain_two_seats = (
        rules["num_players"] == 2
        and rules["sides"] == SIDES_NONE
        and rules["trump_source"] == TRUMP_TURN_UP
        and rules["announcements"] == NO_ANNOUNCEMENTS
    )
    return TWO_PLAYER_STATE_DTYPE if plain_two_seats else TABLE_STATE_DTYPE


def copy_record(array: np.ndarray) -> np.ndarray:
    """A copy of a record array, made as bytes: numpy's copy of a structured array is ~6x
    slower."""
    return array.view(np.uint8).copy().view(array.dtype)


@njit(cache=True, inline="always")
def suit_of(card):
    """The suit of a card index."""
    return card // RANKS_PER_SUIT


@njit(cache=True, inline="always")
def two_player_game(state):
    """Whether ``state`` is the two-player game's record: a compile-time constant."""
    return state.hand.shape[0] == 2


@njit(cache=True, inline="always")
def seat_count(state, rules):
    """Seats at the table."""
    return 2 if two_player_game(state) else rules.num_players


@njit(cache=True, inline="always")
def playing_count(state):
    """Seats that play tricks (nobody sits out of the two-player game)."""
    return 2 if two_player_game(state) else popcount(state.playing)


@njit(cache=True, inline="always")
def announced(state):
    """The announced game, 0, DURCHMARS or BETLI (none in the two-player game)."""
    return 0 if two_player_game(state) else state.announced


@njit(cache=True, inline="always")
def called_card(state):
    """The called card, -1 if none (none in the two-player game)."""
    return -1 if two_player_game(state) else state.called


@njit(cache=True, inline="always")
def sides_of(state, rules):
    """The side structure (each for himself in the two-player game)."""
    return SIDES_NONE if two_player_game(state) else rules.sides


@njit(cache=True, inline="always")
def trump_source(state, rules):
    """Where trump comes from (the card turned up in the two-player game)."""
    return TRUMP_TURN_UP if two_player_game(state) else rules.trump_source


@njit(cache=True, inline="always")
def all_seats(state, rules):
    """Mask of every seat."""
    return (np.int64(1) << seat_count(state, rules)) - 1


@njit(cache=True, inline="always")
def next_seat(state, rules, seat):
    """The next seat in play order that plays tricks."""
    if two_player_game(state):
        return 1 - seat
    n = rules.num_players
    seat += 1
    if seat == n:
        seat = 0
    while not (state.playing >> seat) & 1:
        seat += 1
        if seat == n:
            seat = 0
    return seat


@njit(cache=True, inline="always")
def talon_open(state):
    """True while cards can still be drawn: not closed and not exhausted."""
    return state.closed_by < 0 and state.talon_end > state.talon_top


@njit(cache=True, inline="always")
def mask_tricks(state, rules, seats):
    """Tricks won by the seats of a mask."""
    tricks = 0
    while seats:
        tricks += state.tricks[trailing_zeros(seats)]
        seats &= seats - 1
    return tricks


@njit(cache=True, inline="always")
def marriage_counts(state, rules, seat):
    """Whether ``seat``'s declared marriages count now (1.10.3, M3; pending ones, under the
    two-player ``next_trick_after_declaration``, never: a trick won credits them)."""
    if rules.marry_pending:
        return False
    if not rules.marriage_needs_trick:
        return True
    if rules.validate_own:
        return state.tricks[seat] > 0
    return mask_tricks(state, rules, state.team[seat]) > 0


@njit(cache=True, inline="always")
def credited(state, rules, seat):
    """A seat's credited total (M22): trick points and its marriages that count."""
    marriage = state.marriage[seat]
    if marriage and marriage_counts(state, rules, seat):
        return state.points[seat] + marriage
    return state.points[seat]


@njit(cache=True, inline="always")
def mask_total(state, rules, seats):
    """Credited total of the seats of a mask (a side's total, 1.11.1)."""
    total = 0
    while seats:
        total += credited(state, rules, trailing_zeros(seats))
        seats &= seats - 1
    return total


# ---- the deal ------------------------------------------------------------------


@njit(cache=True)
def deal(state, rules, deck, dealer):
    """Set up a fresh deal from a deck permutation (first dealt first)."""
    n = seat_count(state, rules)
    for seat in range(state.hand.shape[0]):
        state.hand[seat] = 0
        state.won[seat] = 0
        state.points[seat] = 0
        state.marriage[seat] = 0
        state.tricks[seat] = 0
        state.team[seat] = np.int64(1) << seat
        state.snap_total[seat] = 0
        state.snap_tricks[seat] = 0
        state.shown[seat] = 0
        state.excluded[seat] = 0
        state.scores[seat] = 0
    first = (dealer + 1) % n
    position = 0
    for offset in range(n):
        cards = np.int64(0)
        for _ in range(rules.hand_size):
            cards |= np.int64(1) << deck[rules.deal_order[position]]
            position += 1
        seat = first + offset
        state.hand[seat - n if seat >= n else seat] = cards
    talon_cards = rules.deck_size - position
    for k in range(talon_cards):
        state.talon[k] = deck[rules.deal_order[position + k]]
    state.call_forbidden = 0 if rules.call_own_card else _first_batch_cards(rules, deck)
    state.trump = -1
    if rules.face_up_position >= 0:
        state.trump = suit_of(deck[rules.face_up_position])
    state.talon_top = 0
    state.talon_end = talon_cards
    state.dealer = dealer
    state.first_leader = first
    state.leader = first
    state.to_move = first
    state.led = -1
    state.winning = -1
    state.winning_seat = -1
    state.trick_cards = 0
    state.trick_points = 0
    state.in_hands = n * rules.hand_size
    state.trick_size = 0
    state.married_cards = 0
    state.closed_by = -1
    state.tricks_done = 0
    state.turn_acted = 0
    state.last_winner = -1
    state.reason = -1
    state.winners = 0
    state.called = -1
    state.caller = -1
    state.holder = -1
    state.revealed = 0
    state.reveal_checked = 0
    state.announced = 0
    state.announcer = -1
    state.announce_turns = 0
    state.sits_out = -1
    state.playing = all_seats(state, rules)
    state.high_bid = 0
    state.declarer = -1
    state.passed = 0
    if sides_of(state, rules) == SIDES_FIXED or (
        sides_of(state, rules) == SIDES_CONTRACT and n == 4
    ):
        for seat in range(n):
            state.team[seat] = np.int64(0b0101 if seat % 2 == 0 else 0b1010)
    if sides_of(state, rules) == SIDES_CALLED:
        state.phase = CALL
        state.caller = first
    elif sides_of(state, rules) == SIDES_CONTRACT:
        state.phase = BID
    else:
        _begin_announcements(state, rules)


@njit(cache=True)
def _first_batch_cards(rules, deck):
    """The cards of the first seat's first batch (the caller's, 3C.2): the first
    ``call_batch`` of ``deal_order``, which lists the first seat's positions first, in
    deal order."""
    cards = np.int64(0)
    for k in range(rules.call_batch):
        cards |= np.int64(1) << deck[rules.deal_order[k]]
    return cards


@njit(cache=True)
def _begin_announcements(state, rules):
    """The announcement round if any seat has a turn, else the first lead."""
    if rules.announcements == NO_ANNOUNCEMENTS:
        _start_lead(state, state.first_leader)
        return
    state.phase = ANNOUNCE
    state.announce_turns = 0
    state.to_move = state.first_leader


@njit(cache=True, inline="always")
def _start_lead(state, seat):
    state.phase = LEAD
    state.leader = seat
    state.to_move = seat
    state.turn_acted = 0


@njit(cache=True)
def _announcement_turns(rules):
    """How many seats take an announcement turn (M7): only the caller in the
    three-player called game, every seat elsewhere."""
    if rules.sides == SIDES_CALLED and rules.num_players == 3:
        return 1
    return rules.num_players


# ---- legal actions ----------------------------------------------------------------


@njit(cache=True, inline="always")
def _high(action):
    return np.int64(1) << (action - HIGH)


@njit(cache=True, inline="always")
def claims_now(state, rules):
    """Whether claim points exist now: claims at all, not an announced deal (M6), and in
    the called-card games only once the partnership is public (decision 6, M26)."""
    if rules.claim_mode == CLAIM_NONE or announced(state):
        return False
    return sides_of(state, rules) != SIDES_CALLED or state.revealed or rules.claims_before_reveal


@njit(cache=True, inline="always")
def _claim_offered(state, rules, seat, extra):
    """Whether a manual claim is offered to ``seat`` (``extra``: points a marriage would add)."""
    mode = rules.claim_mode
    if mode == CLAIM_AUTOMATIC or not claims_now(state, rules):
        return False
    if mode == CLAIM_OPTIONAL_VERIFIED:
        return mask_total(state, rules, state.team[seat]) + extra >= rules.target
    return True


@njit(cache=True, inline="always")
def marriage_value(state, rules, suit):
    """A marriage's points: twice ``marriage_points`` in trumps (40 and 20)."""
    return 2 * rules.marriage_points if suit == state.trump else rules.marriage_points


@njit(cache=True, inline="always")
def _marriages_open(state, rules):
    """Whether marriages may be declared in this phase: the talon open, or
    ``marriage_in_strict_phase`` (a leader's, and his partner's meld, M12)."""
    return talon_open(state) or rules.marry_strict


@njit(cache=True, inline="always")
def _pairs(state, hand):
    """Queens of ``hand`` whose king is in hand too, in suits not yet declared (M11)."""
    return hand & (hand >> 1) & np.int64(QUEENS) & ~state.married_cards


@njit(cache=True, inline="always")
def exchange_card(state, rules):
    """The trump that may be exchanged for the face-up card (1.8)."""
    return state.trump * RANKS_PER_SUIT + rules.exchange_rank


@njit(cache=True, inline="always")
def _may_exchange(state, rules, seat):
    if trump_source(state, rules) != TRUMP_TURN_UP or state.trump < 0 or not talon_open(state):
        return False
    if state.talon_end - state.talon_top < rules.exchange_min_talon:
        return False
    if (rules.exchange_needs_trick or rules.exchange_any_time) and state.tricks[seat] == 0:
        return False
    card = exchange_card(state, rules)
    return state.talon[state.talon_end - 1] != card and (state.hand[seat] >> card) & 1 == 1


@njit(cache=True)
def _marry_claims(state, rules, seat, pairs):
    """The marry-claim actions offered for the marriages ``pairs`` (high word)."""
    high = np.int64(0)
    for suit in range(4):
        if (pairs >> (suit * RANKS_PER_SUIT + QUEEN)) & 1:
            counts = marriage_counts(state, rules, seat)
            extra = marriage_value(state, rules, suit) if counts else 0
            if _claim_offered(state, rules, seat, extra):
                high |= _high(A_MARRY_CLAIM + suit)
    return high


@njit(cache=True, inline="always")
def _lead_actions(state, rules):
    seat = state.leader
    hand = state.hand[seat]
    low = np.int64(hand)
    high = np.int64(0)
    pairs = _pairs(state, hand)
    closing_turn = rules.marry_closing_turn and state.turn_acted and state.closed_by == seat
    first_lead = state.tricks_done == 0
    if (
        pairs
        and announced(state) != BETLI
        and (_marriages_open(state, rules) or closing_turn)
        and (rules.marry_first_lead or not first_lead)
    ):
        if rules.marry_lead_card == LEAD_EITHER:
            low |= np.int64(pairs | pairs << 1) << A_MARRY
        elif rules.marry_lead_card == LEAD_KING:
            low |= np.int64(pairs << 1) << A_MARRY
        else:
            low |= np.int64(pairs) << A_MARRY
        if rules.claim_mode != CLAIM_AUTOMATIC and rules.claim_after_marriage:
            high |= _marry_claims(state, rules, seat, pairs)
    if _may_exchange(state, rules, seat):
        high |= _high(A_EXCHANGE)
    if (
        rules.closing
        and talon_open(state)
        and announced(state) == 0
        and state.talon_end - state.talon_top >= rules.close_min_talon
        and (rules.close_first_lead or not first_lead)
    ):
        high |= _high(A_CLOSE)
    if state.tricks_done > 0 and state.turn_acted == 0 and _claim_offered(state, rules, seat, 0):
        high |= _high(A_CLAIM)
    return low, high


@njit(cache=True, inline="always")
def beats(state, rules, card, best):
    """Whether ``card`` beats ``best``, the card winning the trick so far (1.5; by card
    points across plain suits under the two-player ``trick_winner_rule`` value modes)."""
    if suit_of(card) == suit_of(best):
        if announced(state) == BETLI:
            return rules.betli_strength[card] > rules.betli_strength[best]
        return card > best  # a suit's cards are indexed in rank order
    if suit_of(card) == state.trump or suit_of(best) == state.trump:
        return suit_of(card) == state.trump
    rule = rules.trick_rule
    if rule == TRICK_STANDARD or (rule != TRICK_VALUE_ALWAYS and not talon_open(state)):
        return False
    return rules.card_points[card] > rules.card_points[best]


@njit(cache=True, inline="always")
def _beating(state, rules, cards):
    """The cards of ``cards`` that beat the trick's winning card (as ``beats``, by masks)."""
    best = state.winning
    if announced(state) == BETLI:
        return cards & rules.betli_beaten_by[best]
    out = cards & rules.beaten_by[best]
    if state.trump >= 0 and suit_of(best) != state.trump:
        out |= cards & suit_cards(state.trump)
    return out


@njit(cache=True, inline="always")
def follow_options(state, rules, hand):
    """The cards of ``hand`` a follower may play to the current trick (1.7, M8e, M13, M14).
    The trump duty binds a void follower (1.7); in the two-player game, where following
    suit may be off, every follower of a plain lead (RULES 6.2)."""
    led_suit = suit_of(state.led)
    same = hand & suit_cards(led_suit)
    if announced(state) == BETLI:
        if same and rules.betli_must_head:
            higher = _beating(state, rules, same)
            if higher:
                return higher
        return same if same else hand
    if talon_open(state) and not rules.open_strict:
        return hand
    if rules.must_head and same and suit_of(state.winning) == led_suit:
        higher = _beating(state, rules, same)
        if higher:
            return higher
    if rules.must_follow and same:
        return same
    duty = not same or (two_player_game(state) and led_suit != state.trump)
    if rules.must_trump and state.trump >= 0 and duty:
        trumps = hand & suit_cards(state.trump)
        if trumps:
            winning_trump = suit_of(state.winning) == state.trump
            if rules.trump_if_winning:
                over = _beating(state, rules, trumps) if winning_trump else trumps
                if over:
                    return over
            else:
                if rules.must_overtrump and winning_trump:
                    over = _beating(state, rules, trumps)
                    if over:
                        return over
                return trumps
    return hand


@njit(cache=True)
def follow_exclusions(state, rules, played):
    """Cards the follower to move cannot hold now, since playing ``played`` is legal: the
    cards of every step of ``follow_options`` before the one ``played`` belongs to."""
    led_suit = suit_of(state.led)
    led_cards = suit_cards(led_suit)
    card = np.int64(1) << played
    if announced(state) == BETLI:
        excluded = np.int64(0)
        if rules.betli_must_head:
            higher = _beating(state, rules, led_cards)
            if card & higher:
                return excluded
            excluded |= higher
        return excluded if card & led_cards else excluded | led_cards
    if talon_open(state) and not rules.open_strict:
        return np.int64(0)
    excluded = np.int64(0)
    if rules.must_head and suit_of(state.winning) == led_suit:
        higher = _beating(state, rules, led_cards)
        if card & higher:
            return excluded
        excluded |= higher
    if rules.must_follow:
        if card & led_cards:
            return excluded
        excluded |= led_cards
    elif not two_player_game(state):
        return excluded  # a card off both suits: void of the led suit, or holding it
    if not rules.must_trump or state.trump < 0 or led_suit == state.trump:
        return excluded
    trumps = suit_cards(state.trump)
    over = _beating(state, rules, trumps)
    if rules.trump_if_winning:
        return excluded if card & over else excluded | over
    if rules.must_overtrump and suit_of(state.winning) == state.trump:
        if card & over:
            return excluded
        excluded |= over
    return excluded if card & trumps else excluded | trumps


@njit(cache=True)
def follow_exclusions_array(state_array, rules_array, played):
    """``follow_exclusions`` on one-element state and rule arrays (0 unless a follower
    is to move)."""
    state = state_array[0]
    if state.phase != FOLLOW:
        return np.int64(0)
    return follow_exclusions(state, rules_array[0], played)


@njit(cache=True)
def _announce_actions(state, rules):
    seat = state.to_move
    high = _high(A_PASS)
    durchmars = True
    if sides_of(state, rules) == SIDES_CALLED and rules.num_players == 4:
        durchmars = seat == state.caller or seat == state.holder
    if durchmars:
        high |= _high(A_DURCHMARS)
    if rules.announcements == DURCHMARS_BETLI:
        high |= _high(A_BETLI)
    return high


@njit(cache=True)
def _bid_actions(state, rules):
    high = np.int64(0)
    for level in range(state.high_bid + 1, MOON + 1):
        high |= _high(A_BID + level)
    n = rules.num_players
    forced = (
        not rules.redeal_on_all_pass and state.high_bid == 0 and popcount(state.passed) == n - 1
    )
    if not forced:
        high |= _high(A_PASS)
    return high


@njit(cache=True, inline="always")
def legal_masks(state, rules):
    """The legal action ids as two masks ``(low, high)`` (both 0 when the deal is over)."""
    phase = state.phase
    zero = np.int64(0)
    if phase == FOLLOW:
        seat = state.to_move
        options = follow_options(state, rules, state.hand[seat])
        if rules.exchange_any_time and _may_exchange(state, rules, seat):
            return options, _high(A_EXCHANGE)  # the two-player exchange at any time
        return options, zero
    if phase == LEAD:
        return _lead_actions(state, rules)
    if phase == CALL:
        return zero, rules.deck_mask & ~state.call_forbidden
    if phase == ANNOUNCE:
        return zero, _announce_actions(state, rules)
    if phase == BID:
        return zero, _bid_actions(state, rules)
    if phase == MELD:
        high = _high(A_PASS)
        pairs = _pairs(state, state.hand[state.to_move])
        for suit in range(4):
            if (pairs >> (suit * RANKS_PER_SUIT + QUEEN)) & 1:
                high |= _high(A_MELD + suit)
        return zero, high
    if phase == FINAL_CLAIM:
        return zero, _high(A_CLAIM) | _high(A_PASS)
    if phase == PRE_DRAW:
        high = _high(A_CLOSE) | _high(A_DRAW)
        if _claim_offered(state, rules, state.to_move, 0):
            high |= _high(A_CLAIM)
        return zero, high
    if phase == CLOSE_EXCHANGE:
        holds = (state.hand[state.to_move] >> exchange_card(state, rules)) & 1
        return zero, _high(A_PASS) | (_high(A_EXCHANGE_ON_CLOSE) if holds else zero)
    return zero, zero


# ---- scoring ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def scale(rules, loser_total, loser_tricks):
    """Game points by the losers' combined figures (1.13.1; schwarz by points and the czech
    scale are two-player options)."""
    if rules.czech_scale:
        if loser_total <= rules.target // 3:
            return 3
        return 2 if loser_total <= 2 * rules.target // 3 else 1
    if (loser_total if rules.schwarz_zero_points else loser_tricks) == 0:
        return 3
    return 2 if loser_total < rules.target // 2 else 1


@njit(cache=True)
def win_scale(state, rules, side, at_close):
    """The scale for ``side``'s win, on the other seats' figures now or at the close,
    combined or per opponent (1.13.3, M16)."""
    losers = all_seats(state, rules) & ~side
    total = 0
    tricks = 0
    points = 0
    for seat in range(seat_count(state, rules)):
        if (losers >> seat) & 1:
            seat_total = state.snap_total[seat] if at_close else credited(state, rules, seat)
            seat_tricks = state.snap_tricks[seat] if at_close else state.tricks[seat]
            total += seat_total
            tricks += seat_tricks
            points += scale(rules, seat_total, seat_tricks)
    return points if rules.per_opponent else scale(rules, total, tricks)


@njit(cache=True)
def _finish(state, winners, points, reason):
    for seat in range(state.hand.shape[0]):
        state.scores[seat] = points if (winners >> seat) & 1 else 0
    state.winners = winners
    state.reason = reason
    state.phase = OVER
    state.to_move = -1


@njit(cache=True, inline="always")
def closing_side(state):
    return state.team[state.closed_by]


@njit(cache=True)
def failed_close_points(state, rules):
    """Game points to each seat outside the closing side: 3, or 2 if they had a trick at the
    close (M25); the two-player values by the closer's points and the czech 6 or 3 too."""
    penalty = rules.failed_close
    if penalty == FAILED_ALWAYS_3:
        return 3
    others = ~closing_side(state)
    tricks = 0
    for seat in range(seat_count(state, rules)):
        if (others >> seat) & 1:
            tricks += state.snap_tricks[seat]
    if penalty == FAILED_TWO_OR_THREE:
        return 3 if tricks == 0 else 2
    closer_total = credited(state, rules, state.closed_by)  # the two-player values
    if penalty == FAILED_CZECH:
        return 6 if closer_total < rules.target // 2 else 3
    if tricks == 0:
        return 3
    return 1 if closer_total >= rules.target // 2 else 2


@njit(cache=True)
def _claim(state, rules, seat):
    """End the deal on a claim for ``seat``'s side, correct or false (1.11, 1.13.4, M15)."""
    side = state.team[seat]
    everyone = all_seats(state, rules)
    closed = state.closed_by >= 0
    closing = closed and (closing_side(state) >> seat) & 1 == 1
    if mask_total(state, rules, side) >= rules.target:
        if not closed:
            _finish(state, side, win_scale(state, rules, side, False), WHY_CLAIM)
        elif closing:
            points = win_scale(state, rules, side, not rules.closer_at_end)
            _finish(state, side, points, WHY_CLOSER_CLAIM)
        else:
            others = everyone & ~closing_side(state)
            points = 2 if rules.opponent_out_fixed_2 else failed_close_points(state, rules)
            _finish(state, others, points, WHY_OPPONENT_CLAIM_AFTER_CLOSE)
    elif closing:
        others = everyone & ~closing_side(state)
        _finish(state, others, failed_close_points(state, rules), WHY_CLOSER_FALSE_CLAIM)
    else:
        others = everyone & ~side
        no_trick = mask_tricks(state, rules, others) == 0
        points = 3 if no_trick and not rules.false_claim_fixed_2 else 2
        _finish(state, others, points, WHY_FALSE_CLAIM)


@njit(cache=True)
def _announcement_check(state, rules):
    """Settle an announced durchmars at a claim point (6.3, M6); True if it ended."""
    if sides_of(state, rules) == SIDES_CALLED and not (
        state.revealed or rules.claims_before_reveal
    ):
        return False
    side = state.team[state.announcer]
    others = all_seats(state, rules) & ~side
    if mask_tricks(state, rules, others) > 0:
        _finish(state, others, rules.durchmars_points, WHY_DURCHMARS_FAILED)
        return True
    if mask_total(state, rules, side) >= rules.target:
        _finish(state, side, rules.durchmars_points, WHY_DURCHMARS_MADE)
        return True
    return False


@njit(cache=True)
def _first_claim_point_after_reveal(state, rules, seat):
    """The first claim point once the partnership is public checks every side, from
    ``seat`` on (MP-A9, M5); True if the deal ended."""
    state.reveal_checked = 1
    for k in range(rules.num_players):
        other = (seat + k) % rules.num_players
        if mask_total(state, rules, state.team[other]) >= rules.target:
            _claim(state, rules, other)
            return True
    return False


@njit(cache=True, inline="always")
def _claim_point(state, rules, seat):
    """A claim point for ``seat``'s side (after its trick, marriage or meld); True if the
    deal ended. At the first one after the reveal every side is checked (MP-A9, M5)."""
    if announced(state) == DURCHMARS:
        return _announcement_check(state, rules)
    if rules.claim_mode != CLAIM_AUTOMATIC or not claims_now(state, rules):
        return False
    all_sides = sides_of(state, rules) == SIDES_CALLED and not rules.claims_before_reveal
    if all_sides and not state.reveal_checked:
        return _first_claim_point_after_reveal(state, rules, seat)
    if mask_total(state, rules, state.team[seat]) >= rules.target:
        _claim(state, rules, seat)
        return True
    return False


@njit(cache=True)
def _settle_contract(state, rules, made):
    """The end of a contract deal (N10, M18): the declarer's team gains or loses its level."""
    side = state.team[state.declarer]
    level = state.high_bid
    if level == MOON:
        reason = WHY_MOON_MADE if made else WHY_MOON_FAILED
    else:
        reason = WHY_CONTRACT_MADE if made else WHY_CONTRACT_SET
    defenders = all_seats(state, rules) & ~side
    units = mask_total(state, rules, defenders) // rules.bid_unit if rules.defender_units else 0
    _finish(state, side if made else defenders, 0, reason)
    for seat in range(seat_count(state, rules)):
        state.scores[seat] = (level if made else -level) if (side >> seat) & 1 else units


@njit(cache=True)
def _end_of_cards(state, rules):
    """Every playing hand is empty and nothing ended the deal (1.12, 6.3, 6.4, N9)."""
    if announced(state) == DURCHMARS:
        others = all_seats(state, rules) & ~state.team[state.announcer]
        _finish(state, others, rules.durchmars_points, WHY_DURCHMARS_FAILED)
    elif announced(state) == BETLI:
        _finish(state, state.team[state.announcer], rules.betli_points, WHY_BETLI_MADE)
    elif sides_of(state, rules) == SIDES_CONTRACT:
        side = state.team[state.declarer]
        made = mask_total(state, rules, side) >= rules.bid_unit * state.high_bid
        _settle_contract(state, rules, made or state.high_bid == MOON)
    elif state.closed_by >= 0:
        others = all_seats(state, rules) & ~closing_side(state)
        _finish(state, others, failed_close_points(state, rules), WHY_FAILED_CLOSE)
    elif rules.exhausted_rule == EXHAUSTED_LAST_TRICK:
        _finish(state, state.team[state.last_winner], 1, WHY_LAST_TRICK)
    elif rules.exhausted_rule == EXHAUSTED_HIGHER_TOTAL:  # two seats (TWO_PLAYER_OPTIONS)
        first, second = credited(state, rules, 0), credited(state, rules, 1)
        if first == second:
            _finish(state, 0, 0, WHY_DRAW)
        else:
            loser = 1 if first > second else 0
            points = scale(rules, credited(state, rules, loser), state.tricks[loser])
            _finish(state, np.int64(1) << (1 - loser), points, WHY_HIGHER_TOTAL)
    else:
        _finish(state, 0, 0, WHY_NO_SCORE)


# ---- applying actions ---------------------------------------------------------------


@njit(cache=True)
def _set_called_sides(state, rules):
    """Sides once the called card is in a hand (3C.3, M3): caller and holder against the
    rest, or the caller alone."""
    partners = (np.int64(1) << state.caller) | (np.int64(1) << state.holder)
    rest = all_seats(state, rules) & ~partners
    for seat in range(seat_count(state, rules)):
        state.team[seat] = partners if (partners >> seat) & 1 else rest


@njit(cache=True, inline="always")
def _draw(state, rules):
    """Each playing seat draws one card, the trick winner first (1.6, MP-A4)."""
    seat = state.leader
    for _ in range(playing_count(state)):
        card = state.talon[state.talon_top]
        state.talon_top += 1
        state.hand[seat] |= np.int64(1) << card
        if card == called_card(state):
            state.holder = seat
            _set_called_sides(state, rules)
        seat = next_seat(state, rules, seat)
    state.in_hands += playing_count(state)


@njit(cache=True, inline="always")
def _resolve_trick(state, rules):
    """The trick is complete: credit it, then the checks, the draw, the next lead."""
    winner = state.winning_seat
    state.points[winner] += state.trick_points
    if rules.marry_pending:
        state.points[winner] += state.marriage[winner]
        state.marriage[winner] = 0
    state.tricks[winner] += 1
    state.won[winner] |= state.trick_cards
    state.tricks_done += 1
    state.last_winner = winner
    state.leader = winner
    state.led = -1
    state.winning = -1
    state.trick_cards = 0
    state.trick_points = 0
    state.trick_size = 0
    hands_empty = state.in_hands == 0
    if hands_empty and state.closed_by < 0 and not talon_open(state):
        state.points[winner] += rules.last_trick_bonus
    if _trick_ends_deal(state, rules, winner):
        return
    if hands_empty and not talon_open(state):
        if _claim_offered(state, rules, winner, 0):
            state.phase = FINAL_CLAIM
            state.to_move = winner
        else:
            _end_of_cards(state, rules)
        return
    if talon_open(state):
        if (
            rules.close_before_draw
            and rules.closing
            and state.talon_end - state.talon_top >= rules.close_min_talon + 2
        ):
            state.phase = PRE_DRAW
            state.to_move = winner
            return
        _draw(state, rules)
    _start_lead(state, winner)


@njit(cache=True, inline="always")
def _trick_ends_deal(state, rules, winner):
    """The checks after a trick: betli and the moon fail, claims and durchmars."""
    if announced(state) == BETLI:
        if winner == state.announcer:
            others = all_seats(state, rules) & ~state.team[state.announcer]
            _finish(state, others, rules.betli_points, WHY_BETLI_FAILED)
            return True
        return False
    if sides_of(state, rules) == SIDES_CONTRACT:
        if state.high_bid == MOON and winner != state.declarer:
            _settle_contract(state, rules, False)
            return True
        return False
    return _claim_point(state, rules, winner)


@njit(cache=True, inline="always")
def _place_card(state, rules, seat, card):
    """``seat`` puts ``card`` on the trick (lead or follow)."""
    bit = np.int64(1) << card
    state.hand[seat] &= ~bit
    state.in_hands -= 1
    state.trick_cards |= bit
    state.trick_points += rules.card_points[card]
    if card == called_card(state):
        state.revealed = 1
    if state.trick_size == 0:
        state.led = card
        state.winning = card
        state.winning_seat = seat
        if state.trump < 0 and trump_source(state, rules) == TRUMP_FIRST_LEAD:
            state.trump = suit_of(card)
    elif beats(state, rules, card, state.winning):
        state.winning = card
        state.winning_seat = seat
    state.trick_size += 1


@njit(cache=True, inline="always")
def _after_card(state, rules, seat):
    """Whose turn comes after ``seat`` played: the partner's meld point, the next follower,
    or the end of the trick."""
    if state.trick_size == playing_count(state):
        _resolve_trick(state, rules)
        return
    if (
        state.trick_size == 1
        and not two_player_game(state)
        and rules.partner_melds
        and announced(state) != BETLI
        and _marriages_open(state, rules)
    ):
        partner = (seat + 2) % 4
        if (state.playing >> partner) & 1 and _pairs(state, state.hand[partner]):
            state.phase = MELD
            state.to_move = partner
            return
    state.phase = FOLLOW
    state.to_move = next_seat(state, rules, seat)


@njit(cache=True)
def _declare(state, rules, seat, suit):
    """``seat`` declares the marriage of ``suit`` (its claim point comes after)."""
    if state.trump < 0 and trump_source(state, rules) == TRUMP_FIRST_LEAD:
        state.trump = suit  # na66: the marriage's card is led and sets trump (M18)
    state.marriage[seat] += marriage_value(state, rules, suit)
    state.married_cards |= suit_cards(suit)


@njit(cache=True)
def _close(state, rules, seat):
    """``seat`` closes on his lead (or before his draw); in the two-player game the other
    seat may then exchange (L3) while the exchange card is not placed in public."""
    _start_lead(state, seat)
    state.closed_by = seat
    for other in range(seat_count(state, rules)):
        state.snap_total[other] = credited(state, rules, other)
        state.snap_tricks[other] = state.tricks[other]
    state.turn_acted = 1
    if rules.exchange_on_close and _exchange_card_in_play(state, rules):
        state.phase = CLOSE_EXCHANGE
        state.to_move = 1 - seat


@njit(cache=True)
def _exchange_card_in_play(state, rules):
    """Whether the exchange card is neither under the talon nor won in a trick (two seats)."""
    card = exchange_card(state, rules)
    under_talon = state.talon[state.talon_end - 1] == card
    return not under_talon and ((state.won[0] | state.won[1]) >> card) & 1 == 0


@njit(cache=True)
def _swap_with_talon_bottom(state, rules, seat):
    """The exchange: ``seat``'s exchange card replaces the talon's last card, which he takes."""
    last = state.talon_end - 1
    card = exchange_card(state, rules)
    state.hand[seat] ^= (np.int64(1) << card) | (np.int64(1) << state.talon[last])
    state.talon[last] = card


@njit(cache=True)
def _sit_out(state, seat):
    """``seat`` lays his hand face down: he plays no trick and draws no card."""
    state.sits_out = seat
    state.playing &= ~(np.int64(1) << seat)
    state.in_hands -= popcount(state.hand[seat])


@njit(cache=True)
def _end_auction(state, rules):
    """The contract is set (N4, N5, M18): sides, the moon's sitting-out partner, the lead."""
    declarer = state.declarer
    n = rules.num_players
    if n < 4:
        rest = all_seats(state, rules) & ~(np.int64(1) << declarer)
        for seat in range(n):
            state.team[seat] = np.int64(1) << seat if seat == declarer else rest
    elif state.high_bid == MOON:
        _sit_out(state, (declarer + 2) % 4)
    _start_lead(state, declarer)


@njit(cache=True)
def _apply_bid(state, rules, seat, action):
    n = rules.num_players
    if action == A_PASS:
        state.passed |= np.int64(1) << seat
        if popcount(state.passed) == n:
            _finish(state, 0, 0, WHY_REDEAL)
            return
    else:
        state.high_bid = action - A_BID
        state.declarer = seat
    if state.high_bid == MOON or (state.high_bid > 0 and popcount(state.passed) == n - 1):
        _end_auction(state, rules)
        return
    nxt = (seat + 1) % n
    while (state.passed >> nxt) & 1:
        nxt = (nxt + 1) % n
    state.to_move = nxt


@njit(cache=True)
def _apply_announcement(state, rules, seat, action):
    if action == A_PASS:
        state.announce_turns += 1
        if state.announce_turns == _announcement_turns(rules):
            _start_lead(state, state.first_leader)
        else:
            state.to_move = (seat + 1) % rules.num_players
        return
    state.announcer = seat
    if action == A_DURCHMARS:
        state.announced = DURCHMARS
        if seat == state.holder:
            state.revealed = 1
    else:
        state.announced = BETLI
        state.trump = -1
        state.revealed = 1
        if sides_of(state, rules) == SIDES_CALLED:
            rest = all_seats(state, rules) & ~(np.int64(1) << seat)
            for other in range(seat_count(state, rules)):
                state.team[other] = np.int64(1) << seat if other == seat else rest
        elif rules.betli_sits_out:
            _sit_out(state, (seat + 2) % 4)
    _start_lead(state, seat)


@njit(cache=True)
def _apply_call(state, rules, card):
    state.called = card
    state.trump = suit_of(card)
    for seat in range(seat_count(state, rules)):
        if (state.hand[seat] >> card) & 1:
            state.holder = seat
            _set_called_sides(state, rules)
    _begin_announcements(state, rules)


@njit(cache=True, inline="always")
def apply_action(state, rules, action):
    """Apply a legal action id (legality is the caller's duty: see ``legal_masks``)."""
    seat = state.to_move
    phase = state.phase
    if action < A_CALL:
        card = action
        if action >= A_MARRY:
            card = action - A_MARRY
            _declare(state, rules, seat, suit_of(card))
            if rules.claim_after_marriage and _claim_point(state, rules, seat):
                return
        _place_card(state, rules, seat, card)
        _after_card(state, rules, seat)
    elif action < A_EXCHANGE:
        _apply_call(state, rules, action - A_CALL)
    elif action == A_EXCHANGE:
        _swap_with_talon_bottom(state, rules, seat)
        if phase == LEAD:  # a follower's exchange (exchange_timing any_time) is no lead act
            state.turn_acted = 1
    elif action == A_CLOSE:
        _close(state, rules, seat)
    elif action == A_CLAIM:
        _claim(state, rules, seat)
    elif phase == ANNOUNCE:
        _apply_announcement(state, rules, seat, action)
    elif phase == BID:
        _apply_bid(state, rules, seat, action)
    elif (action == A_PASS and phase == CLOSE_EXCHANGE) or action == A_EXCHANGE_ON_CLOSE:
        if action == A_EXCHANGE_ON_CLOSE:
            _swap_with_talon_bottom(state, rules, seat)
        state.phase = LEAD
        state.to_move = state.closed_by
    elif action == A_DRAW:
        _draw(state, rules)
        _start_lead(state, seat)
    elif action == A_PASS and phase == MELD:
        state.phase = FOLLOW
        state.to_move = next_seat(state, rules, state.leader)
    elif action == A_PASS:
        _end_of_cards(state, rules)
    elif action < A_MELD:
        _declare(state, rules, seat, action - A_MARRY_CLAIM)
        _claim(state, rules, seat)
    else:
        _declare(state, rules, seat, action - A_MELD)
        if not _claim_point(state, rules, seat):
            state.phase = FOLLOW
            state.to_move = next_seat(state, rules, state.leader)


@njit(cache=True)
def apply_with_knowledge(state, rules, action):
    """``apply_action``, keeping the record's public knowledge of the hands (``shown``,
    ``excluded``) up to date."""
    seat = state.to_move
    excluded = np.int64(0)
    shown = np.int64(0)
    if action < A_CALL:  # a card played, perhaps with its marriage
        card = action % A_MARRY
        if action >= A_MARRY:
            shown = np.int64(MARRIAGE_PAIR) << (suit_of(card) * RANKS_PER_SUIT)
        elif state.phase == FOLLOW:
            excluded = follow_exclusions(state, rules, card)
    elif action == A_EXCHANGE or action == A_EXCHANGE_ON_CLOSE:
        shown = np.int64(1) << state.talon[state.talon_end - 1]  # the card he takes
    elif action >= A_MARRY_CLAIM:  # a marry-claim or a meld
        suit = action - (A_MELD if action >= A_MELD else A_MARRY_CLAIM)
        shown = np.int64(MARRIAGE_PAIR) << (suit * RANKS_PER_SUIT)
    top = state.talon_top
    apply_action(state, rules, action)
    state.shown[seat] = (state.shown[seat] | shown) & state.hand[seat]  # played cards go
    state.excluded[seat] = (state.excluded[seat] | excluded) & ~shown
    for k in range(top, state.talon_top):  # the cards drawn, and who holds each now
        drawn = np.int64(1) << state.talon[k]
        for drawer in range(state.hand.shape[0]):
            if state.hand[drawer] & drawn:
                if k == state.talon_end - 1 and rules.face_up_position >= 0:
                    state.shown[drawer] |= drawn  # the face-up card, taken in public
                    state.excluded[drawer] &= ~drawn
                else:
                    state.excluded[drawer] = 0


# ---- entry points taking one-element record arrays (for Python callers) ------------------


@njit(cache=True)
def deal_array(state_array, rules_array, deck, dealer):
    """``deal`` on one-element state and rule arrays."""
    deal(state_array[0], rules_array[0], deck, dealer)


@njit(cache=True)
def legal_masks_array(state_array, rules_array):
    """``legal_masks`` on one-element state and rule arrays."""
    return legal_masks(state_array[0], rules_array[0])


@njit(cache=True)
def apply_checked(state_array, rules_array, action):
    """Apply ``action`` if it is legal; return whether it was."""
    state = state_array[0]
    rules = rules_array[0]
    if action < 0 or action >= NUM_TABLE_ACTIONS:
        return False
    low, high = legal_masks(state, rules)
    legal = (low >> action) & 1 if action < HIGH else (high >> (action - HIGH)) & 1
    if not legal:
        return False
    apply_with_knowledge(state, rules, action)
    return True


@njit(cache=True)
def credited_array(state_array, rules_array):
    """Every seat's credited total."""
    state = state_array[0]
    rules = rules_array[0]
    out = np.zeros(rules.num_players, dtype=np.int64)
    for seat in range(seat_count(state, rules)):
        out[seat] = credited(state, rules, seat)
    return out


# ---- random playouts ----------------------------------------------------------------


@njit(cache=True)
def sorted_deck(rules):
    """The rules' pack in ascending card order (the deck ``seeded_deal`` shuffles)."""
    deck = np.empty(rules.deck_size, dtype=np.int64)
    n = 0
    for card in range(NUM_CARDS):
        if (rules.deck_mask >> card) & 1:
            deck[n] = card
            n += 1
    return deck


@njit(cache=True)
def seeded_deal(deck, seed, num_players):
    """Shuffle ``deck`` (sorted cards) in place from ``seed``; return the dealer."""
    rng, dealer = shuffle_and_cut(deck, seed_rng(seed), num_players)
    return dealer


def random_playouts(rules_array, deals, seed):
    """Play ``deals`` deals with uniformly random actions; returns (plies, game points)."""
    state_array = np.zeros(1, dtype=state_dtype(rules_array))
    return _random_playouts(state_array, rules_array, deals, np.uint64(seed))


@njit(cache=True)
def _random_playouts(state_array, rules_array, deals, seed):
    rules = rules_array[0]
    state = state_array[0]
    deck = sorted_deck(rules)
    rng = seed_rng(seed)
    plies = 0
    game_points = 0
    for _ in range(deals):
        rng, dealer = shuffle_and_cut(deck, rng, rules.num_players)
        deal(state, rules, deck, dealer)
        while state.phase != OVER:
            low, high = legal_masks(state, rules)
            count_low = popcount(low)
            rng, choice = random_below(rng, count_low + popcount(high))
            if choice < count_low:
                action = nth_set_bit(low, choice)
            else:
                action = HIGH + nth_set_bit(high, choice - count_low)
            apply_action(state, rules, action)
            plies += 1
        for seat in range(seat_count(state, rules)):
            game_points += state.scores[seat]
    return plies, game_points
