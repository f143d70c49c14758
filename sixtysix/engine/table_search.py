"""Open-hand alpha-beta on the table record, in numba: the searches behind
``sixtysix.theory.table_solver`` (``solve``, ``paranoid``, ``action_values``) for
every preset of two to four seats.

A search is given the seats that maximize (``max_mask``: a node is a MAX node iff its
mover is among them), the seat whose payoff is the value (``seat``) and the payoff rule
of a finished deal (``pay``, RULES_MULTI 1.13.6):

* ``PAY_SCORES``: ``scores[seat]`` (a three-sided deal);
* ``PAY_ROOT_SIDES``: the side value ``scores[x] - scores[y]`` of the root's two sides,
  ``own_side`` being the mask of ``seat``'s side (a two-sided deal);
* ``PAY_LEAF_SIDES``: the side value with the sides as they are at the leaf, or
  ``scores[seat]`` where the leaf is not two-sided (a deal whose sides are unsettled).

The search is iterative (an explicit stack of records, no recursion), fail-soft, and
driven by zero-window tests (MTD(f)), since the values are a handful of integers.
Moves are ordered by the transposition table's best move, then by a cheap guess
(``move_score``, with its own guess for following in a durchmars). In a two-sided
deal's strict phase the scoring bounds the value (``value_bounds``).

A workspace may carry a node limit (``limit_nodes``): a search stops where one more node
would take the workspace's node count past it, and its values are then meaningless
(``stopped`` says so). The limit is counted in nodes, not seconds, so a stopped search
stops at the same node on every run.

The transposition table holds positions at the start of a leader's turn. Its key is two
independent 64-bit hashes of the fields that matter to the rest of the deal (``_hashes``),
so two positions share an entry only if both hashes collide: about 2^-128 a probe. Each
entry keeps a lower and an upper bound, a best move and the cards left (a full bucket
keeps the larger subtree). One table generation serves one problem: a solve, or the
children of one root.

The node loop passes no array to a helper and takes no row view of the table: numba
counts references to those at every node, which cost a third of the time.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from . import multi_core as mc
from .bits import masked_sum, trailing_zeros
from .cards import RANKS_PER_SUIT
from .multi_rules import CLAIM_AUTOMATIC, SIDES_CONTRACT
from .solver import FRAME_DTYPE as SOLVER_FRAME_DTYPE
from .solver import load_root

PAY_SCORES, PAY_ROOT_SIDES, PAY_LEAF_SIDES = range(3)
MAX_DEPTH = 160  # plies below the root: 32 cards and every call, bid, announcement and close
MAX_MOVES = mc.NUM_TABLE_ACTIONS
INFINITE = 1 << 40  # beyond every payoff
NO_LIMIT = 1 << 62  # a node limit no search reaches
TT_BITS_DEFAULT = 16
# Table columns: the two hash words, the generation, the bounds, the best move, the cards
# left in hand (the size of the subtree, to choose what to replace).
KEY_A, KEY_B, GENERATION, LOW, HIGH, MOVE, CARDS = range(7)
TABLE_COLUMNS = 8  # a 64-byte cache line per entry
KEY_FIGURE_LIMIT = 1 << 16  # the key packs a seat's points, marriages and snapshot in 16 bits

#: The two-player solver's search frame, and the table key of a table node.
FRAME_DTYPE = np.dtype(SOLVER_FRAME_DTYPE.descr + [("key_a", np.int64), ("key_b", np.int64)])


class Workspace(NamedTuple):
    """Buffers of one search: the record stack, move lists, frames, the table."""

    stack: np.ndarray  # state records, one per depth
    words: np.ndarray  # the same memory as int64 rows, for fast copies and hashing
    moves: np.ndarray  # ordered moves per depth
    scores: np.ndarray  # move-ordering scores (scratch)
    frames: np.ndarray  # FRAME_DTYPE records, one per depth
    table: np.ndarray  # (size, TABLE_COLUMNS)
    counters: np.ndarray  # [generation, nodes, node limit, 1 if the limit stopped a search]


def check_rules(rules_array: np.ndarray) -> None:
    """Refuse rules whose totals can outgrow the 16 bits the key gives each figure."""
    rules = rules_array[0]
    cards = [card for card in range(mc.NUM_CARDS) if (int(rules["deck_mask"]) >> card) & 1]
    card_points = sum(int(rules["card_points"][card]) for card in cards)
    most = card_points + int(rules["last_trick_bonus"]) + 5 * int(rules["marriage_points"])
    if most >= KEY_FIGURE_LIMIT:
        largest = (KEY_FIGURE_LIMIT - 1 - card_points - int(rules["last_trick_bonus"])) // 5
        raise ValueError(
            f"the open-hand search cannot solve rules whose totals reach {most} (every card, "
            f"the last-trick bonus and marriage_points={int(rules['marriage_points'])} for "
            f"every marriage, the trump one double): valid are marriage_points up to {largest}"
        )


def new_workspace(dtype: np.dtype, table_bits: int = TT_BITS_DEFAULT) -> Workspace:
    """A workspace for records of ``dtype`` with a table of ``2**table_bits`` entries."""
    if not 10 <= table_bits <= 26:
        raise ValueError(f"invalid table_bits {table_bits!r}: choose 10 to 26")
    stack = np.zeros(MAX_DEPTH + 1, dtype=dtype)
    return Workspace(
        stack=stack,
        words=stack.view(np.int64).reshape(MAX_DEPTH + 1, -1),
        moves=np.zeros((MAX_DEPTH + 1, MAX_MOVES), dtype=np.int64),
        scores=np.zeros(MAX_MOVES, dtype=np.int64),
        frames=np.zeros(MAX_DEPTH + 1, dtype=FRAME_DTYPE),
        table=np.zeros((1 << table_bits, TABLE_COLUMNS), dtype=np.int64),
        counters=np.array([0, 0, NO_LIMIT, 0], dtype=np.int64),
    )


def limit_nodes(workspace: Workspace, nodes: int) -> None:
    """Stop the workspace's searches where one would take its node count past ``nodes``
    (``NO_LIMIT``: never)."""
    if nodes < 0:
        raise ValueError(f"invalid node limit {nodes!r}: a node count, at least 0")
    workspace.counters[2] = nodes
    workspace.counters[3] = 0


@njit(cache=True, inline="always")
def stopped(workspace):
    """Whether the node limit stopped a search of the workspace since it was set (the
    values of that search and of those after it are meaningless)."""
    return workspace.counters[3] != 0


# ---- payoffs ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _side_value(state, own, other):
    """``scores[x] - scores[y]`` for the lowest seats ``x`` of ``own`` and ``y`` of ``other``."""
    return state.scores[trailing_zeros(own)] - state.scores[trailing_zeros(other)]


@njit(cache=True)
def leaf_value(state, rules, seat, pay, own_side):
    """The payoff of a finished deal to ``seat`` under the payoff rule ``pay``."""
    everyone = (np.int64(1) << rules.num_players) - 1
    if pay == PAY_ROOT_SIDES:
        return _side_value(state, own_side, everyone & ~own_side)
    if pay == PAY_LEAF_SIDES:
        own = state.team[seat] & everyone
        other = everyone & ~own
        two_sides = other != 0
        other_seen = False
        for s in range(rules.num_players):
            team = state.team[s] & everyone
            other_seen = other_seen or team == other
            two_sides = two_sides and (team == own or team == other)
        if two_sides and other_seen:
            return _side_value(state, own, other)
    return state.scores[seat]


@njit(cache=True)
def value_bounds(state, rules, own_side):
    """``(low, high)``: bounds on a two-sided deal's value for ``own_side`` that the
    scoring alone proves, once the talon is closed or exhausted under automatic claims
    (no announcement, no contract): a side's win can only shrink as the losers' totals
    and tricks grow, so its scale now bounds it; a failed close pays at most what it
    pays now (the closer's total only grows); a closing side that cannot reach the
    target even with every card left loses. Elsewhere no bound."""
    if (
        rules.claim_mode != CLAIM_AUTOMATIC
        or mc.talon_open(state)
        or mc.announced(state)
        or rules.sides == SIDES_CONTRACT
    ):
        return -INFINITE, INFINITE
    other_side = ((np.int64(1) << rules.num_players) - 1) & ~own_side
    if state.closed_by < 0:
        return (
            -mc.win_scale(state, rules, other_side, False),
            mc.win_scale(state, rules, own_side, False),
        )
    closing = mc.closing_side(state)
    most_for_others = mc.failed_close_points(state, rules)
    if rules.opponent_out_fixed_2:
        most_for_others = max(most_for_others, 2)
    if _most_reachable(state, rules, closing) < rules.target:  # the closers lose for sure
        return (-most_for_others, -1) if closing & own_side else (1, most_for_others)
    most_for_closers = mc.win_scale(state, rules, closing, not rules.closer_at_end)
    if closing & own_side:
        return -most_for_others, most_for_closers
    return -most_for_closers, most_for_others


@njit(cache=True, inline="always")
def _most_reachable(state, rules, side):
    """A side's total if it took every card still in hand and every marriage counted, the
    ones it could still declare (a king and queen in one member's hand) included: at the
    start of a turn, with no trick on the table."""
    most = rules.last_trick_bonus
    cards = np.int64(0)
    for seat in range(state.hand.shape[0]):
        hand = state.hand[seat]
        cards |= hand
        if (side >> seat) & 1:
            most += state.points[seat] + state.marriage[seat]
            pairs = hand & (hand >> 1) & np.int64(mc.QUEENS) & ~state.married_cards
            while pairs:
                most += mc.marriage_value(state, rules, mc.suit_of(trailing_zeros(pairs)))
                pairs &= pairs - 1
    return most + masked_sum(cards, rules.card_points)


# ---- move ordering --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _sure_winner(state, card):
    """Whether no opponent of the leader can take ``card`` led in the strict phase (where
    a player must follow suit and head the trick)."""
    suit = mc.suit_of(card)
    opponents = ~state.team[state.leader]
    for seat in range(state.hand.shape[0]):
        if (opponents >> seat) & 1:
            hand = state.hand[seat]
            same_suit = hand & mc.suit_cards(suit)
            if same_suit:
                if same_suit >> card:
                    return False
            elif suit != state.trump and hand & mc.suit_cards(state.trump):
                return False
    return True


@njit(cache=True, inline="always")
def move_score(state, rules, action):
    """Higher first: cheap winners when following, marriages and safe leads when leading;
    when following in a durchmars, where only the tricks count, the highest card that
    takes the trick from the other side, else the lowest. A betli keeps this ordering:
    betli-specific guesses (the announcer ducking under the trick with his highest card,
    leading his lowest; his opponents letting his tricks stand) searched 1.4 to 2.4 times
    as many nodes on betli positions of ``snapszer4``."""
    if action < mc.A_CALL:
        card = action % mc.A_MARRY
        points = rules.card_points[card]
        trump = mc.suit_of(card) == state.trump
        if action >= mc.A_MARRY:
            return 150 if trump else 140
        if state.phase == mc.FOLLOW and mc.announced(state) == mc.DURCHMARS:
            partner_wins = (state.team[state.to_move] >> state.winning_seat) & 1
            if mc.beats(state, rules, card, state.winning) and not partner_wins:
                return 100 + card % RANKS_PER_SUIT
            return 50 - points
        if state.phase == mc.FOLLOW:
            partner_wins = (state.team[state.to_move] >> state.winning_seat) & 1
            if mc.beats(state, rules, card, state.winning) and not partner_wins:
                return 100 - points - (20 if trump else 0)
            return 50 + points if partner_wins else 50 - points
        if not mc.talon_open(state):
            return 60 + points if _sure_winner(state, card) else 30 + points
        return 20 - points if trump else 30 + points
    if action == mc.A_CLOSE:
        return 110
    if action == mc.A_CLAIM or action == mc.A_EXCHANGE or action == mc.A_EXCHANGE_ON_CLOSE:
        return 200
    if action == mc.A_DRAW or action >= mc.A_MARRY_CLAIM:  # a marry-claim or a meld
        return 200
    return 60


# ---- the transposition table ------------------------------------------------------------


@njit(cache=True, inline="always")
def _is_table_node(state):
    """Positions worth an entry: the start of a leader's turn."""
    return state.phase == mc.LEAD and state.turn_acted == 0


@njit(cache=True, inline="always")
def _mix(a, b, word):
    """Feed one word to both hashes."""
    w = np.uint64(word)
    a = (a ^ w) * np.uint64(0x9E3779B97F4A7C15)
    a ^= a >> np.uint64(29)
    b = (b + w) * np.uint64(0xBF58476D1CE4E5B9)
    b ^= b >> np.uint64(31)
    return a, b


@njit(cache=True, inline="always")
def _hashes(state):
    """Two independent 64-bit hashes of what matters to the rest of the deal at the start
    of a leader's turn. Left out, as fixed within one search or a function of what is
    in: the talon but its last card (an exchange swaps it), the cards won (the cards in
    no hand and not in the talon), trick counts beyond "one or more", the finished
    trick's fields, the deal's bookkeeping (dealer, first leader, forbidden calls)."""
    bottom = state.talon[state.talon_end - 1] if state.talon_end > 0 else -1
    a = np.uint64(0x243F6A8885A308D3)
    b = np.uint64(0x13198A2E03707344)
    hand, points, marriage, team = state.hand, state.points, state.marriage, state.team
    tricks, snap_total, snap_tricks = state.tricks, state.snap_total, state.snap_tricks
    closers = team[state.closed_by] if state.closed_by >= 0 else 0
    for seat in range(len(hand)):
        a, b = _mix(a, b, hand[seat])
        figures = points[seat] | marriage[seat] << 16 | team[seat] << 48
        figures |= np.int64(tricks[seat] > 0) << 56
        if not (closers >> seat) & 1:  # only the closers' opponents' snapshot counts
            figures |= snap_total[seat] << 32 | np.int64(snap_tricks[seat] > 0) << 57
        a, b = _mix(a, b, figures)
    turn = (
        state.talon_top
        | (bottom + 1) << 6
        | (state.trump + 1) << 12
        | state.phase << 16
        | (state.to_move + 1) << 22
        | state.leader << 26
        | (state.closed_by + 1) << 30
        | (state.called + 1) << 34
        | (state.caller + 1) << 40
        | (state.holder + 1) << 44
        | state.revealed << 48
        | state.reveal_checked << 49
        | state.announced << 50
        | (state.announcer + 1) << 53
        | state.announce_turns << 57
    )
    a, b = _mix(a, b, turn)
    contract = (
        (state.sits_out + 1)
        | state.playing << 4
        | (state.high_bid + 1) << 8
        | (state.declarer + 1) << 16
        | state.passed << 20
        | state.married_cards << 32
    )
    a, b = _mix(a, b, contract)
    return np.int64(a), np.int64(b)


@njit(cache=True, inline="always")
def _find(key_a, key_b, table, generation):
    """The slot of this key's entry from this generation, or -1 (a bucket of two slots)."""
    bucket = key_a & (len(table) - 1) & ~np.int64(1)
    for slot in range(bucket, bucket + 2):
        same_key = table[slot, KEY_A] == key_a and table[slot, KEY_B] == key_b
        if same_key and table[slot, GENERATION] == generation:
            return slot
    return -1


@njit(cache=True, inline="always")
def _store(table, key_a, key_b, generation, value, frame, cards):
    """Record what the search proved: bounds from the window the node was given."""
    low = value if value > frame.alpha0 else -INFINITE
    high = value if value < frame.beta0 else INFINITE
    slot = _find(key_a, key_b, table, generation)
    if slot >= 0:
        low = max(low, table[slot, LOW])
        high = min(high, table[slot, HIGH])
    else:
        bucket = key_a & (len(table) - 1) & ~np.int64(1)
        slot = bucket
        if table[bucket, GENERATION] == generation:
            stale = table[bucket + 1, GENERATION] != generation
            if stale or table[bucket + 1, CARDS] <= table[bucket, CARDS]:
                slot = bucket + 1
    table[slot, KEY_A] = key_a
    table[slot, KEY_B] = key_b
    table[slot, GENERATION] = generation
    table[slot, LOW] = low
    table[slot, HIGH] = high
    table[slot, MOVE] = frame.best_move
    table[slot, CARDS] = cards


# ---- the search -------------------------------------------------------------------------


@njit(cache=True)
def search(workspace, rules, max_mask, seat, pay, own_side, alpha, beta):
    """Fail-soft alpha-beta from ``workspace.stack[0]`` within (alpha, beta):
    ``(value, best action)``; the value is exact strictly inside the window, else a
    bound. The best action is -1 at a finished root. Meaningless if the node limit
    stopped it (``stopped``)."""
    stack, words, moves = workspace.stack, workspace.words, workspace.moves
    frames, scores, table = workspace.frames, workspace.scores, workspace.table
    generation = workspace.counters[0]
    room = workspace.counters[2] - workspace.counters[1]  # nodes before the limit
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
            if state.phase == mc.OVER:
                value = leaf_value(state, rules, seat, pay, own_side)
                frame.best_move = -1
                if depth == 0:
                    break
                depth -= 1
                entering = False
                continue
            first_move = -1
            frame.alpha0 = frame.alpha
            frame.beta0 = frame.beta
            if _is_table_node(state):
                key_a, key_b = _hashes(state)
                frame.key_a = key_a
                frame.key_b = key_b
                low, high = -INFINITE, INFINITE
                if pay == PAY_ROOT_SIDES and depth > 0:
                    low, high = value_bounds(state, rules, own_side)
                slot = _find(key_a, key_b, table, generation)
                if slot >= 0:
                    low = max(low, table[slot, LOW])
                    high = min(high, table[slot, HIGH])
                    first_move = table[slot, MOVE]
                # At the root only the table may cut: it also knows a best move.
                cut = low >= frame.beta or low == high or high <= frame.alpha
                if cut and (depth > 0 or first_move >= 0):
                    value = high if high <= frame.alpha else low
                    frame.best_move = first_move
                    if depth == 0:
                        break
                    depth -= 1
                    entering = False
                    continue
                frame.alpha = max(frame.alpha, low)
                frame.beta = min(frame.beta, high)
            # The legal moves, best guess first (written here: a helper taking the arrays
            # would count references to them at every node).
            count = 0
            legal_low, legal_high = mc.legal_masks(state, rules)
            for word in range(2):
                legal = legal_low if word == 0 else legal_high
                while legal:
                    action = trailing_zeros(legal) + word * mc.HIGH
                    legal &= legal - 1
                    score = 1000 if action == first_move else move_score(state, rules, action)
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
            frame.best = -INFINITE if (max_mask >> state.to_move) & 1 else INFINITE
            frame.best_move = -1
        else:  # a child's value arrives
            if (max_mask >> state.to_move) & 1:
                if value > frame.best:
                    frame.best = value
                    frame.best_move = moves[depth, frame.index - 1]
                    frame.alpha = max(frame.alpha, value)
            elif value < frame.best:
                frame.best = value
                frame.best_move = moves[depth, frame.index - 1]
                frame.beta = min(frame.beta, value)
        if frame.alpha < frame.beta and frame.index < frame.count:
            if nodes >= room:
                workspace.counters[3] = 1
                break
            move = moves[depth, frame.index]
            frame.index += 1
            for k in range(width):
                words[depth + 1, k] = words[depth, k]
            mc.apply_action(stack[depth + 1], rules, move)
            nodes += 1
            child = frames[depth + 1]
            child.alpha = frame.alpha
            child.beta = frame.beta
            depth += 1
            entering = True
            continue
        value = frame.best
        if _is_table_node(state):
            _store(table, frame.key_a, frame.key_b, generation, value, frame, state.in_hands)
        if depth == 0:
            break
        depth -= 1
        entering = False
    workspace.counters[1] += nodes
    return value, frames[0].best_move


@njit(cache=True)
def _zero_window_value(workspace, rules, max_mask, seat, pay, own_side, guess):
    """The exact value of ``workspace.stack[0]`` by zero-window tests (MTD(f)) from a first
    ``guess``, and a best action (-1 at a finished root); meaningless if stopped."""
    low = -INFINITE
    high = INFINITE
    best_move = -1
    maximizer = (max_mask >> workspace.stack[0].to_move) & 1
    while low < high:
        gamma = guess + 1 if guess == low else guess
        value, move = search(workspace, rules, max_mask, seat, pay, own_side, gamma - 1, gamma)
        if value >= gamma:
            low = value
            if maximizer or best_move < 0:
                best_move = move
        else:
            high = value
            if not maximizer or best_move < 0:
                best_move = move
        guess = value
        if move < 0 or stopped(workspace):
            break
    return guess, best_move


@njit(cache=True)
def solve_record(workspace, rules_array, state_array, max_mask, seat, pay, own_side):
    """``(value, best action)`` of ``state_array[0]`` in a fresh table generation;
    meaningless if stopped."""
    workspace.counters[0] += 1
    load_root(workspace, state_array)
    return _zero_window_value(workspace, rules_array[0], max_mask, seat, pay, own_side, 0)


@njit(cache=True)
def solve_children(workspace, rules_array, state_array, max_mask, seat, pay, own_side, actions):
    """The value of each of ``actions`` applied to ``state_array[0]`` (one generation);
    meaningless if stopped."""
    workspace.counters[0] += 1
    rules = rules_array[0]
    values = np.zeros(len(actions), dtype=np.int64)
    for i in range(len(actions)):
        if stopped(workspace):
            break
        load_root(workspace, state_array)
        mc.apply_action(workspace.stack[0], rules, actions[i])
        guess = values[i - 1] if i > 0 else 0  # siblings' values are often equal
        values[i] = _zero_window_value(workspace, rules, max_mask, seat, pay, own_side, guess)[0]
    return values
