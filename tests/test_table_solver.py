"""The open-hand table solver (sixtysix.theory.table_solver) against plain exhaustive
searches written here: minimax for the two-sided minis, paranoid and max^n for the
three-sided ``mini3_3x3``, over random deals and random mid-deal positions; plus the
consistency of the values, the paranoid guarantee in playouts, and the refusals.

The references below walk the tree through the engine's entry points
(``legal_masks_array``, ``apply_checked`` on record copies), keep every child (no
pruning) and memoise exact values on the record bytes; they read the sides and the
payoff straight from the records (RULES_MULTI 1.13.6), not from the solver.
"""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest

import sixtysix
from sixtysix.engine import multi_core as mc
from sixtysix.engine import table_search
from sixtysix.engine.actions import masks_to_actions
from sixtysix.engine.cards import card_name
from sixtysix.engine.rules import table_rules_of
from sixtysix.theory import table_solver as ts


@functools.cache
def game(preset: str, **overrides) -> sixtysix.Game:
    return sixtysix.Game(preset, **overrides)


# ---- the exhaustive references ------------------------------------------------------------


def children(array, rules):
    low, high = mc.legal_masks_array(array, rules)
    for action in masks_to_actions(int(low), int(high)):
        child = array.copy()
        assert mc.apply_checked(child, rules, action)
        yield action, child


def root_side(state, seat: int) -> frozenset[int]:
    """``seat``'s final side, read from the position: in ``snapszer3`` the closer (or the
    announcer) against the others, elsewhere ``state.sides``."""
    n = state.num_players
    if state.game.rules.sides == "none":
        lone = state.closed_by
        if lone is None:
            lone = int(state.array[0]["announcer"])
        assert lone >= 0, "a snapszer3 position is two-sided only after a close or announcement"
        return frozenset([lone]) if seat == lone else frozenset(range(n)) - {lone}
    return frozenset(state.sides[seat])


def leaf_side(record, game_: sixtysix.Game, seat: int) -> frozenset[int]:
    n = game_.num_players
    if game_.rules.sides == "none":
        closer = int(record["closed_by"])
        lone = closer if closer >= 0 else int(record["announcer"])
        return frozenset([lone]) if seat == lone else frozenset(range(n)) - {lone}
    team = int(record["team"][seat])
    return frozenset(s for s in range(n) if team >> s & 1)


def minimax(state, seat: int) -> int:
    """Plain exhaustive minimax for ``seat``'s side (MAX where the mover is on it); the
    leaf pays ``scores[seat] - scores[y]`` for a seat ``y`` off his final side, and the
    final side must be the side at the root."""
    rules = state.game.rule_array
    side = root_side(state, seat)
    memo: dict[bytes, int] = {}

    def value(array) -> int:
        record = array[0]
        if int(record["phase"]) == mc.OVER:
            final = leaf_side(record, state.game, seat)
            assert final == side, "the sides changed below a two-sided position"
            other = min(set(range(state.num_players)) - final)
            return int(record["scores"][seat]) - int(record["scores"][other])
        key = array.tobytes()
        if key not in memo:
            values = [value(child) for _, child in children(array, rules)]
            mover = int(record["to_move"])
            memo[key] = max(values) if mover in side else min(values)
        return memo[key]

    return value(state.array)


def exhaustive_paranoid(state, seat: int) -> int:
    """``seat`` maximizes ``scores[seat]``, every other seat minimizes it; no pruning."""
    rules = state.game.rule_array
    memo: dict[bytes, int] = {}

    def value(array) -> int:
        record = array[0]
        if int(record["phase"]) == mc.OVER:
            return int(record["scores"][seat])
        key = array.tobytes()
        if key not in memo:
            values = [value(child) for _, child in children(array, rules)]
            memo[key] = max(values) if int(record["to_move"]) == seat else min(values)
        return memo[key]

    return value(state.array)


def exhaustive_maxn(state) -> tuple[int, ...]:
    """Every mover maximizes his own component of ``scores``; a tie keeps the first
    legal action in ascending id order."""
    rules = state.game.rule_array
    n = state.num_players
    memo: dict[bytes, tuple[int, ...]] = {}

    def value(array) -> tuple[int, ...]:
        record = array[0]
        if int(record["phase"]) == mc.OVER:
            return tuple(int(x) for x in record["scores"][:n])
        key = array.tobytes()
        if key not in memo:
            mover = int(record["to_move"])
            best = None
            for _, child in children(array, rules):
                vector = value(child)
                if best is None or vector[mover] > best[mover]:
                    best = vector
            memo[key] = best
        return memo[key]

    return value(state.array)


# ---- positions -------------------------------------------------------------------------------


def random_positions(preset: str, count: int, seed: int, *, skip=("call", "bid"), **overrides):
    """``count`` positions: a fresh deal past the call and the auction (random choices),
    then 0 or more random plies, never a finished deal; each kind of start about
    equally often."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = game(preset, **overrides).new_deal(seed=rng.randrange(1 << 30))
        while not state.is_terminal and state.phase in skip:
            state.apply(rng.choice(state.legal_action_ids()))
        plies = rng.choice([0, 0, 1, 2, 3, 5, 8])
        for _ in range(plies):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_action_ids()))
        if not state.is_terminal:
            positions.append(state)
    return positions


def two_sided_positions(preset: str, count: int, seed: int, **overrides):
    found = []
    for state in random_positions(preset, 4 * count, seed, **overrides):
        if ts.deal_kind(state) == "two-sided":
            found.append(state)
        if len(found) == count:
            break
    assert len(found) == count
    return found


def closed_mini3_positions(count: int, seed: int):
    """``mini3_3x3`` positions right after a close, or later in a closed deal."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game("mini3_3x3").new_deal(seed=rng.randrange(1 << 30))
        while not state.is_terminal and state.closed_by is None:
            legal = state.legal_action_ids()
            if mc.A_CLOSE in legal and rng.random() < 0.7:
                state.apply(mc.A_CLOSE)
            else:
                state.apply(rng.choice(legal))
        for _ in range(rng.choice([0, 0, 1, 2])):
            if not state.is_terminal:
                state.apply(rng.choice(state.legal_action_ids()))
        if not state.is_terminal and state.closed_by is not None:
            found.append(state)
    return found


TWO_SIDED_CASES = [
    ("mini4_4x3", 40),
    ("mini4_called_2x4", 40),
    ("mini3_called_3x3", 40),
    ("mini3_called_3x4", 25),
    ("mini_na66_2", 12),
    ("mini_na66_4x3", 40),
]


# ---- two-sided: solve against minimax ----------------------------------------------------------


@pytest.mark.parametrize(("preset", "count"), TWO_SIDED_CASES)
def test_solve_matches_exhaustive_minimax(preset, count):
    for state in two_sided_positions(preset, count, seed=len(preset) * 7 + count):
        seat = state.current_player
        assert ts.solve(state) == minimax(state, seat), (preset, state.history)


@pytest.mark.parametrize(("preset", "count"), TWO_SIDED_CASES)
def test_solve_is_zero_sum_between_sides(preset, count):
    for state in two_sided_positions(preset, count // 2, seed=count):
        solver = ts.TableSolver(state.game)
        (side_a, side_b) = ts.two_sides(state)
        value = solver.solve(state, side_a[0])
        assert all(solver.solve(state, seat) == value for seat in side_a)
        assert all(solver.solve(state, seat) == -value for seat in side_b)
        # In a two-team zero-sum game max^n is the minimax value.
        vector = solver.maxn(state)
        assert all(vector[seat] == value for seat in side_a)
        assert all(vector[seat] == -value for seat in side_b)


@pytest.mark.parametrize(
    ("preset", "deals"),
    [
        ("mini4_4x3", 20),
        ("mini_na66_4x3", 4),
        pytest.param("mini_na66_2", 4, marks=pytest.mark.slow),  # the reference: ~15 s a deal
    ],
)
def test_solve_on_whole_deals_from_the_start(preset, deals):
    """The fixed partnerships and na66 with two or four seats are two-sided from the deal
    (the auction included)."""
    for seed in range(deals):
        state = game(preset).new_deal(seed=seed)
        assert ts.deal_kind(state) == "two-sided"
        assert ts.solve(state) == minimax(state, state.current_player), (preset, seed)


def test_snapszer3_after_a_close_is_two_sided():
    for state in closed_mini3_positions(40, seed=3):
        assert ts.deal_kind(state) == "two-sided"
        closer = state.closed_by
        others = tuple(s for s in range(3) if s != closer)
        assert ts.two_sides(state) in (((closer,), others), (others, (closer,)))
        value = ts.solve(state, closer)
        assert value == minimax(state, closer)
        assert all(ts.solve(state, seat) == -value for seat in others)
        assert ts.solve(state) == minimax(state, state.current_player)


def test_snapszer3_after_a_durchmars_announcement_is_two_sided():
    checked = 0
    for seed in range(60):
        state = game("mini3_3x3", announcements="durchmars").new_deal(seed=seed)
        if state.phase != "announce":
            continue
        state.apply("announce durchmars")
        assert ts.deal_kind(state) == "two-sided"
        announcer = int(state.array[0]["announcer"])
        assert ts.solve(state, announcer) == minimax(state, announcer)
        checked += 1
    assert checked > 20


def test_best_actions_achieve_the_value():
    for preset, count in (("mini4_4x3", 15), ("mini_na66_4x3", 15), ("mini4_called_2x4", 15)):
        for state in two_sided_positions(preset, count, seed=11):
            seat = state.current_player
            value = ts.solve(state)
            best = ts.best_actions(state)
            assert best, state.history
            for action in state.legal_action_ids():
                child_value = minimax(state.clone().apply(action), seat)
                assert (child_value == value) == (action in best), (preset, action)
            assert ts.action_values(state) == {
                action: ts.solve(state.clone().apply(action), seat)
                for action in state.legal_action_ids()
            }


# ---- three-sided: paranoid and max^n --------------------------------------------------------


def test_mini3_paranoid_and_maxn_match_exhaustive():
    for state in random_positions("mini3_3x3", 120, seed=5, skip=()):
        if ts.deal_kind(state) != "three-sided":
            continue
        solver = ts.TableSolver(state.game)
        for seat in range(3):
            assert solver.paranoid(state, seat) == exhaustive_paranoid(state, seat)
        assert solver.maxn(state) == exhaustive_maxn(state), state.history
        assert ts.paranoid(state) == exhaustive_paranoid(state, state.current_player)


def test_mini3_whole_deals():
    for seed in range(60):
        state = game("mini3_3x3").new_deal(seed=seed)
        assert ts.deal_kind(state) == "three-sided"
        assert ts.maxn(state) == exhaustive_maxn(state)
        assert ts.paranoid(state, 1) == exhaustive_paranoid(state, 1)


def test_paranoid_value_is_guaranteed_in_playouts():
    """Following best_actions (paranoid) against random others never ends below the
    paranoid value of the start. (After a close inside a playout best_actions uses the
    two-sided side values; ``scores[seat]`` is a non-decreasing function of that value,
    so the same actions keep the guarantee.)"""
    rng = random.Random(17)
    for state in random_positions("mini3_3x3", 40, seed=8, skip=()):
        if ts.deal_kind(state) != "three-sided":
            continue
        seat = rng.randrange(3)
        bound = ts.paranoid(state, seat)
        for _ in range(4):
            play = state.clone()
            while not play.is_terminal:
                if play.current_player == seat:
                    play.apply(rng.choice(ts.best_actions(play, seat, method="paranoid")))
                else:
                    play.apply(rng.choice(play.legal_action_ids()))
            assert play.scores[seat] >= bound, (state.history, play.history)


def test_unsettled_deals_still_have_paranoid_and_maxn():
    """The called card in the talon: max^n and paranoid pay each leaf by its own sides."""
    states = [
        state
        for state in random_positions("mini3_called_3x4", 30, seed=2)
        if ts.deal_kind(state) == "unsettled"
    ]
    assert states
    for state in states[:8]:
        vector = ts.maxn(state)
        assert len(vector) == 3
        assert ts.best_actions(state)  # paranoid by default here


# ---- refusals and the classification ---------------------------------------------------------


def test_solve_refuses_three_sided_and_unsettled_deals():
    with pytest.raises(ValueError, match="three-sided"):
        ts.solve(game("mini3_3x3").new_deal(seed=1))
    with pytest.raises(ValueError, match="call has not been made"):
        ts.solve(game("mini3_called_3x3").new_deal(seed=1))
    with pytest.raises(ValueError, match="auction"):
        ts.solve(game("na66_3").new_deal(seed=1))
    in_talon = 0
    for seed in range(30):
        state = game("mini3_called_3x4").new_deal(seed=seed)
        card = state.talon[0]
        state.apply(f"call {card}")
        assert ts.deal_kind(state) == "unsettled"
        with pytest.raises(ValueError, match=f"called card {card} is still in the talon"):
            ts.solve(state)
        in_talon += 1
    assert in_talon == 30
    state = game("mini4_called_2x4", announcements="durchmars_betli").new_deal(seed=4)
    state.apply(state.legal_action_ids()[0])
    assert state.phase == "announce"
    with pytest.raises(ValueError, match="betli"):
        ts.solve(state)


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [("mini4_4x3", {"betli_partner": "plays"}), ("mini4_called_2x4", {})],
)
@pytest.mark.parametrize("contract", ["betli", "durchmars"])
def test_solve_matches_minimax_in_an_announced_game(preset, overrides, contract):
    """A betli or a durchmars (whose follows have their own move ordering) announced at
    the first chance, then a few random actions: the exact value is minimax's."""
    rng = random.Random(len(preset) + len(contract))
    checked = 0
    for seed in range(40):
        state = game(preset, announcements="durchmars_betli", **overrides).new_deal(seed=seed)
        while not state.is_terminal and state.phase != "announce":
            state.apply(rng.choice(state.legal_action_ids()))
        if state.is_terminal or f"announce {contract}" not in state.legal_actions():
            continue
        state.apply(f"announce {contract}")
        while state.phase == "announce":
            state.apply("pass")
        for _ in range(rng.randrange(4)):
            if not state.is_terminal:
                state.apply(rng.choice(state.legal_action_ids()))
        if state.is_terminal:
            continue
        assert ts.solve(state) == minimax(state, state.current_player), (preset, seed)
        checked += 1
    assert checked >= 10


def test_a_node_limit_stops_a_search_and_says_so():
    """``table_search``'s node limit: a search that needs more nodes stops at the limit
    and reports it; one that fits completes with the exact value."""
    state = game("mini4_4x3").new_deal(seed=3)
    rules = state.game.rule_array
    problem = (0b0101, 0, table_search.PAY_ROOT_SIDES, 0b0101)  # seats 0 and 2 maximize

    def search(limit: int):
        workspace = table_search.new_workspace(mc.state_dtype(rules))
        table_search.limit_nodes(workspace, limit)
        value, _ = table_search.solve_record(workspace, rules, state.array, *problem)
        return int(value), int(workspace.counters[1]), bool(table_search.stopped(workspace))

    value, nodes, stopped = search(table_search.NO_LIMIT)
    assert value == ts.solve(state, 0) and not stopped
    assert search(nodes) == (value, nodes, False)
    assert search(nodes // 2)[1:] == (nodes // 2, True)
    with pytest.raises(ValueError, match="invalid node limit -1"):
        table_search.limit_nodes(table_search.new_workspace(mc.state_dtype(rules)), -1)


def test_called_card_in_a_hand_is_settled():
    for seed in range(20):
        state = game("mini3_called_3x4").new_deal(seed=seed)
        caller = state.current_player
        holder = (caller + 1 + seed % 2) % 3 if seed % 3 else caller
        state.apply(f"call {state.hands[holder][0]}")
        assert ts.deal_kind(state) == "two-sided"
        partners = {caller, holder}
        assert set(ts.two_sides(state)) == {
            tuple(sorted(partners)),
            tuple(s for s in range(3) if s not in partners),
        }
        assert ts.solve(state) == minimax(state, state.current_player)


def test_finished_deals_and_bad_arguments():
    state = game("mini4_4x3").new_deal(seed=2)
    while not state.is_terminal:
        state.apply(state.legal_action_ids()[0])
    payoffs = ts.research_payoffs(state)
    assert payoffs[0] == payoffs[2] == -payoffs[1] == -payoffs[3] != 0
    assert ts.solve(state, 1) == payoffs[1]
    assert ts.best_actions(state, 0) == []
    with pytest.raises(ValueError, match="give the seat"):
        ts.solve(state)
    with pytest.raises(ValueError, match="seat must be"):
        ts.solve(game("mini4_4x3").new_deal(seed=2), 4)
    with pytest.raises(ValueError, match="method"):
        ts.best_actions(game("mini4_4x3").new_deal(seed=2), method="maxn")
    with pytest.raises(ValueError, match="another game"):
        ts.TableSolver(game("mini4_4x3")).solve(game("mini_na66_4x3").new_deal(seed=1))


def test_rules_whose_totals_outgrow_the_table_key_are_refused_naming_the_option():
    ts.TableSolver(sixtysix.Game("snapszer4", marriage_points=13_000))
    with pytest.raises(ValueError, match="marriage_points up to 13083"):
        ts.TableSolver(sixtysix.Game("snapszer4", marriage_points=100_000))


@pytest.mark.parametrize("preset", ["schnapsen", "snapszer", "vu_schnapsen", "mini_2x4_long"])
def test_the_table_search_agrees_with_the_two_player_solver(preset):
    """Two searches on two engines (``engine.solver`` on the two-player core, the table
    search on the table core) give the same values on the same deals and positions."""
    two = sixtysix.Game(preset)
    table = sixtysix.Game("snapszer3", **dataclasses.asdict(table_rules_of(two.rules)))
    rng = random.Random(11)
    compared = 0
    for _ in range(30):
        first = two.new_deal(seed=rng.getrandbits(32))
        deck = [card_name(int(card)) for card in first.deck]
        second = table.new_deal(deck=deck, dealer=first.dealer)
        for _ in range(rng.randrange(10)):
            if first.is_terminal:
                break
            action = rng.choice(first.legal_actions())
            first.apply(action)
            second.apply(action)
        if not first.is_terminal:
            assert ts.solve(second, 0) == sixtysix.solve(first).value, (preset, deck)
            compared += 1
    assert compared >= 15
