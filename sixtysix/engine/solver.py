"""Exact open-hand solver: alpha-beta with a transposition table, in numba.

``solve(state)`` gives the minimax value of a perfect-information state (every
card and the talon order known) in game points of the deal, from player 0's
point of view (+g: player 0 wins g game points, -g: player 1 does, 0: a draw or
no score), under the preset's full scoring, and a best action. States are the
two-player table record (``multi_core.TWO_PLAYER_STATE_DTYPE``), rules the
``TABLE_RULES_DTYPE`` record, actions the ``multi_core`` ids.
``solve_actions(state)`` gives the value of every legal action, and ``solve_worlds``
the value of every action in each world of a player's view (``sixtysix.engine.worlds``):
the world loop of the closing references (the ``pimc`` agent draws its worlds first, to weigh
them, and calls ``solve_children`` per world).

The search is iterative (an explicit stack of state records, no recursion), so
one compiled call solves a whole deal without touching Python. A *horizon*
(a number of tricks played, ``NO_HORIZON`` for none) makes it depth-limited:
a lead position reached with the talon still open and at least ``horizon``
tricks played is not searched but valued by playing it out with the
heuristic policy (``sixtysix.engine.heuristic``) on both sides; as that policy reads
the public knowledge of the hands (``shown``, ``excluded``), a depth-limited search
keeps it up to date while the talon is open and in its playouts
(``multi_core.apply_with_knowledge``). Once the talon is closed or exhausted the
search is always exact. Player 0
maximizes and player 1 minimizes; a player may act several times in a row
(exchange, close, then lead). The transposition table holds positions at the start
of a leader's turn and a trick winner's choice to close before he draws; its keys are
exact (two 64-bit words hold every field that matters there to the rest of the deal:
``_table_key``), and each entry keeps a lower and an upper bound on the value and a
best move, tried first. In the strict phase the scoring and the cards held bound the
value (``value_bounds``): a closer who cannot reach the target loses, a leader who
reaches it by cashing sure winners wins.

Rank equivalence (playing either of two touching cards gives the same value) is not
used: within a suit no two ranks of a two-player pack score the same card points, and
kings and queens marry, so touching cards are not interchangeable.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from . import multi_core as mc
from .actions import action_name, masks_to_actions
from .bits import masked_sum, popcount, trailing_zeros
from .cards import QUEENS, RANKS_PER_SUIT, SUIT_MASK, SUIT_OF, suit_cards
from .heuristic import ABOVE_HIGHEST, heuristic_action
from .multi_rules import CLAIM_AUTOMATIC, TRICK_VALUE_ALWAYS
from .worlds import world_record

MAX_DEPTH = 64  # plies below the root; a deal has at most 24 plays and a few more decisions
MAX_MOVES = 64  # more than a two-player position has legal actions
NO_BOUND = 63  # beyond every game-point value: "no bound"; bounds are packed in 7 bits
UNSEEN = 1 << 40  # beyond every value: the best value of a node before its first child
TT_BITS_DEFAULT = 16  # 2 MB: fits the L2 cache; measured faster than larger tables
NO_HORIZON = 1 << 20  # a horizon no deal reaches: the exact search
KEY_TOTAL_LIMIT = 255  # the table key holds points, marriages and the close snapshot in 8 bits


def _words(field: str) -> tuple[int, int]:
    """The int64 words ``[start, stop)`` that a field of the two-player record spans."""
    dtype, offset = mc.TWO_PLAYER_STATE_DTYPE.fields[field][:2]
    return offset // 8, (offset + dtype.itemsize) // 8


# A child record is its parent's copy, made of the words play can change: not the talon
# once it is closed or exhausted (nothing reads it then: ``_talon_live``) and not the
# fields that the two-player game never changes after the deal, copied once per root
# (``load_root``).
FIXED_FIELDS = (
    "dealer",
    "first_leader",
    "called",
    "caller",
    "holder",
    "revealed",
    "reveal_checked",
    "call_forbidden",
    "announced",
    "announcer",
    "announce_turns",
    "sits_out",
    "playing",
    "high_bid",
    "declarer",
    "passed",
)
TALON_START, TALON_STOP = _words("talon")
FIXED_START, FIXED_STOP = _words(FIXED_FIELDS[0])[0], _words(FIXED_FIELDS[-1])[1]
RECORD_WORDS = mc.TWO_PLAYER_STATE_DTYPE.itemsize // 8
assert (
    tuple(
        name
        for name in mc.TWO_PLAYER_STATE_DTYPE.names
        if FIXED_START <= _words(name)[0] < FIXED_STOP
    )
    == FIXED_FIELDS
), "the fixed fields of the two-player record must be contiguous"


FRAME_DTYPE = np.dtype(
    [
        ("count", np.int64),  # moves at this node
        ("index", np.int64),  # next move to try
        ("alpha", np.int64),  # the window, narrowed as the search goes
        ("beta", np.int64),
        ("alpha0", np.int64),  # the window the node was entered with
        ("beta0", np.int64),
        ("best", np.int64),  # best value so far (player 0's view)
        ("best_move", np.int64),
    ]
)


class Workspace(NamedTuple):
    """Buffers of one solver: the state stack, move lists, search frames, the table."""

    stack: np.ndarray  # TWO_PLAYER_STATE_DTYPE records, one per depth
    words: np.ndarray  # the same memory as int64 rows, for fast copies
    moves: np.ndarray  # ordered moves per depth
    scores: np.ndarray  # move-ordering scores (scratch)
    frames: np.ndarray  # FRAME_DTYPE records, one per depth
    table: np.ndarray  # (size, 4): two key words, packed generation/bounds/move, padding
    counters: np.ndarray  # [generation, nodes]


def _cache_line_aligned(size: int) -> np.ndarray:
    """A zeroed (size, 4) int64 table starting on a 64-byte boundary: a bucket per cache line."""
    memory = np.zeros(size * 4 + 8, dtype=np.int64)
    offset = (-memory.ctypes.data % 64) // 8
    return memory[offset : offset + size * 4].reshape(size, 4)


def new_workspace(table_bits: int = TT_BITS_DEFAULT) -> Workspace:
    """Allocate a solver workspace with a transposition table of ``2**table_bits`` entries."""
    if not 10 <= table_bits <= 28:
        raise ValueError(f"invalid table_bits {table_bits!r}: choose 10 to 28")
    stack = np.zeros(MAX_DEPTH + 1, dtype=mc.TWO_PLAYER_STATE_DTYPE)
    size = 1 << table_bits
    return Workspace(
        stack=stack,
        words=stack.view(np.int64).reshape(MAX_DEPTH + 1, -1),
        moves=np.zeros((MAX_DEPTH + 1, MAX_MOVES), dtype=np.int64),
        scores=np.zeros(MAX_MOVES, dtype=np.int64),
        frames=np.zeros(MAX_DEPTH + 1, dtype=FRAME_DTYPE),
        table=_cache_line_aligned(size),
        counters=np.zeros(2, dtype=np.int64),
    )


@njit(cache=True, inline="always")
def signed_outcome(state):
    """Game points of an ended deal from player 0's point of view (only a winner scores)."""
    return state.scores[0] - state.scores[1]


@njit(cache=True, inline="always")
def value_bounds(state, rules):
    """``(low, high)``: bounds on the value that the scoring alone proves (player 0's view).

    Under automatic claims in the strict phase the outcomes left are few, and
    each one's game points can only fall as the loser's total and tricks grow:
    the scale on the opponent's current total bounds a win, the failed-close
    points on the closer's current total bound the non-closer's, and a closer
    who cannot reach the target even with every card left but the opponent's master
    trumps (``_sure_losses``) cannot win at all. A leader who reaches the target by
    leading his sure winners (``_cashes_to_target``) claims before the opponent wins a
    trick: the claim's game points, on the figures of now. Elsewhere
    ``(-NO_BOUND, NO_BOUND)``.
    """
    if rules.claim_mode != CLAIM_AUTOMATIC or mc.talon_open(state):
        return -NO_BOUND, NO_BOUND
    closer = state.closed_by
    cashes = _cashes_to_target(state, rules)
    if closer < 0:  # exhausted: a claim or the end of the cards, scored by the scale
        most_for_0 = mc.scale(rules, mc.credited(state, rules, 1), state.tricks[1])
        most_for_1 = mc.scale(rules, mc.credited(state, rules, 0), state.tricks[0])
        if cashes:  # his claim is the most he can get
            return (most_for_0, most_for_0) if state.leader == 0 else (-most_for_1, -most_for_1)
        return -most_for_1, most_for_0
    other = 1 - closer
    failed_close = mc.failed_close_points(state, rules)
    other_claim = 2 if rules.opponent_out_fixed_2 else failed_close
    most_for_other = max(failed_close, other_claim)
    if _most_reachable(state, rules, closer) < rules.target:  # the non-closer wins for sure
        return (1, most_for_other) if other == 0 else (-most_for_other, -1)
    if rules.closer_at_end:
        total = mc.credited(state, rules, other)
        most_for_closer = mc.scale(rules, total, state.tricks[other])
    else:  # scored on the non-closer's figures at the close
        most_for_closer = mc.scale(rules, state.snap_total[other], state.snap_tricks[other])
    if cashes and state.leader == closer:  # his claim is the most he can get
        return (
            (most_for_closer, most_for_closer)
            if closer == 0
            else (-most_for_closer, -most_for_closer)
        )
    if cashes:  # the non-closer leads: his claim is the least he gets
        return (other_claim, most_for_other) if other == 0 else (-most_for_other, -other_claim)
    if closer == 0:
        return -most_for_other, most_for_closer
    return -most_for_closer, most_for_other


@njit(cache=True, inline="always")
def _cashes_to_target(state, rules):
    """Whether the leader, at the start of a trick in the strict phase, reaches the target
    by leading his ``_cashable`` cards: each trick adds at least one of the opponent's
    cheapest cards, and his marriages count once he has a trick."""
    if state.phase != mc.LEAD or state.led >= 0:
        return False
    leader = state.leader
    cashable = _cashable(state, rules, leader)
    if cashable == 0:
        return False
    count = popcount(cashable)
    gained = masked_sum(cashable, rules.card_points)
    gained += _cheapest(state.hand[1 - leader], count, rules.card_points)
    return state.points[leader] + state.marriage[leader] + gained >= rules.target


@njit(cache=True, inline="always")
def _most_reachable(state, rules, player):
    """A player's total if he took every card still in play that his opponent cannot be
    denied (``_sure_losses``) and his marriages counted, the ones he may still declare
    (a king and queen in his hand) included."""
    most = state.points[player] + state.marriage[player] - _sure_losses(state, rules, player)
    hand = state.hand[player]
    pairs = hand & (hand >> 1) & QUEENS  # the queen of each pair
    while pairs:
        queen = trailing_zeros(pairs)
        most += mc.marriage_value(state, rules, SUIT_OF[queen])
        pairs &= pairs - 1
    cards = state.hand[0] | state.hand[1]
    if state.led >= 0:
        cards |= np.int64(1) << state.led
    return most + masked_sum(cards, rules.card_points)


@njit(cache=True, inline="always")
def _master_trumps(state, player):
    """``player``'s trumps above all of his opponent's and any on the table: in the strict
    phase each takes the trick it is played to, whoever leads, now and later (the
    opponent's hand only shrinks)."""
    beaten = state.hand[1 - player] | state.trick_cards
    return _above_all(state.hand[player], beaten, state.trump)


@njit(cache=True, inline="always")
def _above_all(hand, opponent, suit):
    """The cards of ``suit`` in ``hand`` above all of that suit in ``opponent``."""
    shift = suit * RANKS_PER_SUIT
    own = (hand >> shift) & SUIT_MASK
    return (own & ABOVE_HIGHEST[(opponent >> shift) & SUIT_MASK]) << shift


@njit(cache=True, inline="always")
def _cashable(state, rules, player):
    """The cards that ``player``, leading in the strict phase, takes a trick with each time
    he leads one, in any order: his master trumps and, if his opponent has no trump and
    plain suits are not compared by value, his cards above all of the opponent's of their
    suit."""
    hand = state.hand[player]
    opponent = state.hand[1 - player]
    cashable = _above_all(hand, opponent, state.trump)
    if opponent & suit_cards(state.trump) == 0 and rules.trick_rule != TRICK_VALUE_ALWAYS:
        for suit in range(4):
            if suit != state.trump:
                cashable |= _above_all(hand, opponent, suit)
    return cashable


@njit(cache=True, inline="always")
def _cheapest(hand, count, card_points):
    """The card points of the ``count`` cheapest cards of ``hand``."""
    total = 0
    for _ in range(count):
        cheapest = trailing_zeros(hand)
        rest = hand & (hand - 1)
        while rest:
            card = trailing_zeros(rest)
            rest &= rest - 1
            if card_points[card] < card_points[cheapest]:
                cheapest = card
        total += card_points[cheapest]
        hand &= ~(np.int64(1) << cheapest)
    return total


@njit(cache=True, inline="always")
def _sure_losses(state, rules, player):
    """Card points that ``player`` never wins in the strict phase: his opponent's master
    trumps and, at the start of a trick, for each of them one of his own cards, at least
    his cheapest (played to its trick, or still in his hand at a trick's end while it is
    unplayed: hands are then of equal size)."""
    masters = _master_trumps(state, 1 - player)
    lost = masked_sum(masters, rules.card_points)
    if state.led < 0:
        lost += _cheapest(state.hand[player], popcount(masters), rules.card_points)
    return lost


@njit(cache=True, inline="always")
def _at_horizon(state, horizon):
    """Whether the depth-limited search values ``state`` by a playout instead of searching."""
    return state.tricks_done >= horizon and state.phase == mc.LEAD and mc.talon_open(state)


@njit(cache=True, inline="always")
def _apply(state, rules, action, horizon):
    """Apply ``action``; under a horizon and while the talon is open (where playouts may
    follow) keeping the public knowledge that the playouts' heuristic reads."""
    if horizon < NO_HORIZON and mc.talon_open(state):
        mc.apply_with_knowledge(state, rules, action)
    else:
        mc.apply_action(state, rules, action)


@njit(cache=True)
def playout_value(position, rules):
    """The value (player 0's view) of playing ``position`` out, in place, with the heuristic
    policy on both sides."""
    while position.phase != mc.OVER:
        mc.apply_with_knowledge(position, rules, heuristic_action(position, rules))
    return signed_outcome(position)


@njit(cache=True, inline="always")
def _talon_live(state):
    """Whether play from ``state`` may still read the talon's cards: while it is open, and
    for the exchange on the opponent's close."""
    return mc.talon_open(state) or state.phase == mc.CLOSE_EXCHANGE


@njit(cache=True, inline="always")
def _is_table_node(state):
    """Positions worth a table entry (probing more costs more): the start of a leader's
    turn, and the trick winner's choice to close before he draws."""
    return (state.phase == mc.LEAD and state.turn_acted == 0) or state.phase == mc.PRE_DRAW


@njit(cache=True, inline="always")
def _table_key(state):
    """Two words that identify everything about ``state``, a table node (``_is_table_node``),
    that matters to the rest of the deal: the hands (32-bit masks) in the
    first, the figures and the turn in the second.

    Fixed within one solve, or a function of what is in: the trump suit, the talon
    order but its last card (an exchange swaps it; once the talon is closed nothing
    reads it), the cards won (in no hand, not in
    the talon), trick counts beyond "one or more", the declared suits (their pairs are
    broken for good), the closer's own snapshot (only the non-closer's is scored), and
    what a table node always has (no card led, no act this turn or a choice before the
    draw, which one bit tells apart, the leader having won the last trick).
    """
    bottom = state.talon[state.talon_end - 1] if mc.talon_open(state) else -1
    other = 1 - state.closed_by if state.closed_by >= 0 else 0  # both snapshots 0 if open
    first = state.hand[0] | state.hand[1] << 32
    second = (
        state.points[0]
        | state.points[1] << 8
        | state.marriage[0] << 16
        | state.marriage[1] << 24
        | np.int64(state.tricks[0] > 0) << 32
        | np.int64(state.tricks[1] > 0) << 33
        | np.int64(state.snap_tricks[other] > 0) << 34
        | state.snap_total[other] << 35
        | state.talon_top << 43
        | (bottom + 1) << 49
        | (state.closed_by + 1) << 55
        | state.leader << 57
        | state.to_move << 58
        | np.int64(state.phase == mc.PRE_DRAW) << 59
    )
    return first, second


@njit(cache=True, inline="always")
def _slot(first, second, mask):
    mixed = first ^ (second * np.int64(0x9E3779B97F4A7C15))
    mixed = (mixed ^ (mixed >> 32)) * np.int64(0xBF58476D1CE4E5B9)  # the high hand in too
    return (mixed >> 29) & mask


@njit(cache=True, inline="always")
def _find(first, second, table, mask, generation):
    """The slot of the entry with this key from this generation, or -1.

    Entries live in buckets of two slots (a key may sit in either).
    """
    bucket = _slot(first, second, mask) & ~np.int64(1)
    for slot in range(bucket, bucket + 2):
        same_key = table[slot, 0] == first and table[slot, 1] == second
        if same_key and table[slot, 2] >> 24 == generation:
            return slot
    return -1


@njit(cache=True, inline="always")
def _probe(state, table, mask, generation):
    """The packed table entry of ``state`` from this generation, or -1."""
    first, second = _table_key(state)
    slot = _find(first, second, table, mask, generation)
    return table[slot, 2] if slot >= 0 else -1


@njit(cache=True, inline="always")
def _victim(first, second, table, mask, generation):
    """Where a new entry goes: a stale slot of its bucket, else the one with fewer cards left
    (the first key word is the hands)."""
    bucket = _slot(first, second, mask) & ~np.int64(1)
    if table[bucket, 2] >> 24 != generation:
        return bucket
    if table[bucket + 1, 2] >> 24 != generation:
        return bucket + 1
    if popcount(table[bucket, 0]) <= popcount(table[bucket + 1, 0]):
        return bucket
    return bucket + 1


@njit(cache=True, inline="always")
def _pack(generation, low, high, move):
    """A table entry's generation, bounds (offset to be non-negative) and move (+1: -1 is 0)."""
    offset = NO_BOUND + 1
    return generation << 24 | (low + offset) << 16 | (high + offset) << 8 | (move + 1)


@njit(cache=True, inline="always")
def _unpack_bounds(packed):
    """The ``(low, high)`` bounds of a packed table entry."""
    offset = NO_BOUND + 1
    return ((packed >> 16) & 0xFF) - offset, ((packed >> 8) & 0xFF) - offset


@njit(cache=True, inline="always")
def _sure_winner(state, card):
    """Whether the follower cannot take ``card`` led in the strict phase (follow-suit rules)."""
    opponent = state.hand[1 - state.leader]
    suit = SUIT_OF[card]
    same_suit = opponent & suit_cards(suit)
    if same_suit:
        return same_suit >> card == 0
    return suit == state.trump or opponent & suit_cards(state.trump) == 0


@njit(cache=True, inline="always")
def _move_score(state, rules, action):
    """Move ordering: higher first. Cheap winners when following; forcing moves when leading."""
    if action < mc.A_MARRY and state.phase == mc.FOLLOW:
        points = rules.card_points[action]
        if mc.beats(state, rules, action, state.led):
            trump_cost = 20 if SUIT_OF[action] == state.trump else 0
            return 100 - points - trump_cost
        return 50 - points
    if action < mc.A_MARRY:
        points = rules.card_points[action]
        if not mc.talon_open(state):
            return 60 + points if _sure_winner(state, action) else 30 + points
        return 30 + points if SUIT_OF[action] != state.trump else 20 - points
    if action < mc.A_CALL:
        return 150 if SUIT_OF[action - mc.A_MARRY] == state.trump else 140
    if action == mc.A_CLOSE:
        return 110
    if action == mc.A_PASS or action == mc.A_DRAW:
        return 70
    return 200  # claims, exchanges


@njit(cache=True)
def search(workspace, rules, alpha, beta, horizon):
    """Alpha-beta from ``workspace.stack[0]`` within (alpha, beta) up to ``horizon`` (see the
    module docstring): ``(value, best action)``.

    The value is exact when it lies strictly inside the window, otherwise a bound
    (fail-soft). The best action is -1 at a terminal root.
    """
    stack, words, moves = workspace.stack, workspace.words, workspace.moves
    frames, scores = workspace.frames, workspace.scores
    table = workspace.table
    generation = workspace.counters[0]
    mask = np.int64(len(table) - 1)
    width = words.shape[1]
    nodes = 0
    depth = 0
    frames[0].alpha = alpha
    frames[0].beta = beta
    entering = True
    value = 0
    while True:
        state = stack[depth]
        frame = frames[depth]
        if entering:
            if state.phase == mc.OVER or _at_horizon(state, horizon):
                if state.phase == mc.OVER:
                    value = signed_outcome(state)
                else:
                    for k in range(width):
                        words[depth + 1, k] = words[depth, k]
                    value = playout_value(stack[depth + 1], rules)
                frame.best_move = -1
                if depth == 0:
                    break
                depth -= 1
                entering = False
                continue
            first_move = -1
            frame.alpha0 = frame.alpha
            frame.beta0 = frame.beta
            low, high = -NO_BOUND, NO_BOUND
            if _is_table_node(state):
                packed = _probe(state, table, mask, generation)
                if packed >= 0:
                    low, high = _unpack_bounds(packed)
                    first_move = (packed & 0xFF) - 1
            # The scoring's bounds where they may cut and the table's do not: in the strict
            # phase but for a follower (the closer's lead too, though it is no table node),
            # and not at the root (a cut there needs the table's best move).
            if (
                depth > 0
                and state.phase != mc.FOLLOW
                and not mc.talon_open(state)
                and frame.alpha < high
                and low < min(high, frame.beta)
            ):
                proven_low, proven_high = value_bounds(state, rules)
                low = max(low, proven_low)
                high = min(high, proven_high)
            if low >= frame.beta or low == high or high <= frame.alpha:
                value = high if high <= frame.alpha else low
                frame.best_move = first_move
                if depth == 0:
                    break
                depth -= 1
                entering = False
                continue
            frame.alpha = max(frame.alpha, low)
            frame.beta = min(frame.beta, high)
            # The legal moves, best guess first, ties in ascending id (written here: a helper
            # taking the arrays would count references to them at every node).
            count = 0
            legal_low, legal_high = mc.legal_masks(state, rules)
            for word in range(2):
                legal = legal_low if word == 0 else legal_high
                while legal:
                    action = trailing_zeros(legal) + word * mc.HIGH
                    legal &= legal - 1
                    score = 1000 if action == first_move else _move_score(state, rules, action)
                    k = count
                    while k > 0 and scores[k - 1] < score:
                        scores[k] = scores[k - 1]
                        moves[depth, k] = moves[depth, k - 1]
                        k -= 1
                    scores[k] = score
                    moves[depth, k] = action
                    count += 1
            frame.count = count
            frame.index = 0
            frame.best = -UNSEEN if state.to_move == 0 else UNSEEN
            frame.best_move = -1
        else:  # a child's value arrives
            if state.to_move == 0:
                if value > frame.best:
                    frame.best = value
                    frame.best_move = moves[depth, frame.index - 1]
                    frame.alpha = max(frame.alpha, value)
            elif value < frame.best:
                frame.best = value
                frame.best_move = moves[depth, frame.index - 1]
                frame.beta = min(frame.beta, value)
        if frame.alpha < frame.beta and frame.index < frame.count:
            move = moves[depth, frame.index]
            frame.index += 1
            # The child's record (see FIXED_FIELDS; written here for the reason above).
            for k in range(TALON_START):
                words[depth + 1, k] = words[depth, k]
            if _talon_live(state):
                for k in range(TALON_START, TALON_STOP):
                    words[depth + 1, k] = words[depth, k]
            for k in range(TALON_STOP, FIXED_START):
                words[depth + 1, k] = words[depth, k]
            for k in range(FIXED_STOP, RECORD_WORDS):
                words[depth + 1, k] = words[depth, k]
            _apply(stack[depth + 1], rules, move, horizon)
            nodes += 1
            child = frames[depth + 1]
            child.alpha = frame.alpha
            child.beta = frame.beta
            depth += 1
            entering = True
            continue
        value = frame.best
        if _is_table_node(state):
            _store(state, table, mask, generation, value, frame)
        if depth == 0:
            break
        depth -= 1
        entering = False
    workspace.counters[1] += nodes
    return value, frames[0].best_move


@njit(cache=True, inline="always")
def _store(state, table, mask, generation, value, frame):
    """Record what the search proved about ``state``: bounds from the window it was given."""
    low = value if value > frame.alpha0 else -NO_BOUND
    high = value if value < frame.beta0 else NO_BOUND
    first, second = _table_key(state)
    slot = _find(first, second, table, mask, generation)
    if slot >= 0:
        known_low, known_high = _unpack_bounds(table[slot, 2])
        low = max(low, known_low)
        high = min(high, known_high)
    else:
        slot = _victim(first, second, table, mask, generation)
    table[slot, 0] = first
    table[slot, 1] = second
    table[slot, 2] = _pack(generation, low, high, frame.best_move)


# ---- Python API ------------------------------------------------------------------


class Solution(NamedTuple):
    """The exact value (game points, player 0's view) and a best action of a state."""

    value: int
    action: str | None
    action_id: int | None


@njit(cache=True)
def solve_record(workspace, rules_array, state_array, bound, horizon):
    """Value and best action of ``state_array[0]`` (a fresh table generation); exact when
    ``horizon`` is ``NO_HORIZON``."""
    workspace.counters[0] += 1
    load_root(workspace, state_array)
    return _zero_window_search(workspace, rules_array[0], bound, horizon, 0)


@njit(cache=True, inline="always")
def load_root(workspace, state_array):
    """Copy ``state_array[0]`` to the bottom of the search stack, and its fields that play
    never changes to every record above (children copy the rest: ``FIXED_FIELDS``)."""
    words = workspace.words
    source = state_array.view(np.int64)
    for k in range(words.shape[1]):
        words[0, k] = source[k]
    for depth in range(1, words.shape[0]):
        for k in range(FIXED_START, FIXED_STOP):
            words[depth, k] = source[k]


@njit(cache=True)
def _zero_window_search(workspace, rules, bound, horizon, guess):
    """The value by zero-window tests (MTD(f)) from a first ``guess``: values are a handful
    of integers."""
    low = -bound
    high = bound
    best_move = -1
    maximizer = workspace.stack[0].to_move == 0
    while low < high:
        gamma = guess + 1 if guess == low else guess
        value, move = search(workspace, rules, gamma - 1, gamma, horizon)
        if value >= gamma:
            low = value
            if maximizer or best_move < 0:
                best_move = move
        else:
            high = value
            if not maximizer or best_move < 0:
                best_move = move
        guess = value
        if move < 0:
            break
    return guess, best_move


@njit(cache=True)
def solve_children(workspace, rules_array, state_array, bound, horizon, actions, values):
    """The value of every action in ``actions`` (one table generation for all); exact when
    ``horizon`` is ``NO_HORIZON``."""
    workspace.counters[0] += 1
    rules = rules_array[0]
    for i in range(len(actions)):
        load_root(workspace, state_array)
        _apply(workspace.stack[0], rules, actions[i], horizon)
        guess = values[i - 1] if i > 0 else 0  # siblings' values are often equal
        values[i] = _zero_window_search(workspace, rules, bound, horizon, guess)[0]


@njit(cache=True)
def solve_worlds(
    workspace,
    rules_array,
    view_array,
    opponent,
    allowed,
    unknown,
    hidden_opponent,
    ordered,
    enumerate_all,
    stream,
    bound,
    horizon,
    direct,
    followups,
    values,
    world,
):
    """Fill ``values[k, i]``: the value, from the mover's side, of option ``i`` in world ``k``
    of the view (by rank if ``enumerate_all``, else uniform samples drawn from ``stream``,
    four ``uint64`` words that advance in place). Options are the ``direct`` actions, then
    the exchange followed by each of ``followups``; ``world`` is a one-record scratch."""
    rules = rules_array[0]
    view = view_array[0]
    sign = 1 if view.to_move == 0 else -1
    first = len(direct)
    exchanged = world.copy()
    rng = (stream[0], stream[1], stream[2], stream[3])
    for k in range(values.shape[0]):
        rng = world_record(
            k,
            enumerate_all,
            rng,
            world,
            0,
            view,
            opponent,
            allowed,
            unknown,
            hidden_opponent,
            ordered,
        )
        row = values[k]
        solve_children(workspace, rules_array, world, bound, horizon, direct, row[:first])
        if len(followups) > 0:
            exchanged[0] = world[0]
            _apply(exchanged[0], rules, mc.A_EXCHANGE, horizon)
            solve_children(
                workspace, rules_array, exchanged, bound, horizon, followups, row[first:]
            )
        for i in range(len(row)):
            row[i] *= sign
    stream[0], stream[1], stream[2], stream[3] = rng


_WORKSPACE: list[Workspace] = []


def shared_workspace() -> Workspace:
    """This process's solver workspace (allocated on first use)."""
    if not _WORKSPACE:
        _WORKSPACE.append(new_workspace())
    return _WORKSPACE[0]


def check_rules(game) -> None:
    """Refuse a game whose totals can outgrow the table key (a large ``marriage_points``)."""
    rules = game.rules
    if rules.max_total > KEY_TOTAL_LIMIT:
        raise ValueError(
            f"the solver cannot solve rules whose totals reach {rules.max_total} (card points, "
            f"last-trick bonus and marriage_points={rules.marriage_points} for every marriage): "
            f"valid are totals up to {KEY_TOTAL_LIMIT}; lower marriage_points"
        )


def solve(state) -> Solution:
    """Exact minimax value of a perfect-information ``State`` and a best action.

    Reads only the state's record (``state.array``) and rules (``state.game``).
    """
    check_rules(state.game)
    bound = state.game.rules.max_game_points
    value, action = solve_record(
        shared_workspace(), state.game.rule_array, state.array, bound, NO_HORIZON
    )
    if action < 0:
        return Solution(int(value), None, None)
    return Solution(int(value), action_name(int(action)), int(action))


def solve_actions(state) -> dict[str, int]:
    """Exact value (player 0's view) of every legal action of a perfect-information ``State``."""
    check_rules(state.game)
    rules_array = state.game.rule_array
    low, high = mc.legal_masks_array(state.array, rules_array)
    actions = np.array(masks_to_actions(int(low), int(high)), dtype=np.int64)
    values = np.zeros(len(actions), dtype=np.int64)
    bound = state.game.rules.max_game_points
    solve_children(shared_workspace(), rules_array, state.array, bound, NO_HORIZON, actions, values)
    return {action_name(int(a)): int(v) for a, v in zip(actions, values, strict=True)}
