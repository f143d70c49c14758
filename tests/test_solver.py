"""The open-hand solver (``sixtysix.solve``, ``solve_actions``) against a naive minimax.

``minimax`` below is written for this test only and shares nothing with the
solver but the game core: a plain exhaustive recursion over ``multi_core.legal_masks``
and ``multi_core.apply_action`` on copies of the state record, with no pruning, no
move ordering and no transposition table. Player 0 maximizes, player 1
minimizes, whoever ``state.to_move`` is (a player may act several times in a
row); an ended deal is worth ``+scores[0]`` if player 0 won, ``-scores[1]``
if player 1 did and 0 for a draw or no score. It counts the nodes it visits and
gives up past a node cap, so a test keeps only positions whose full tree is small.

Positions come from seeded random play over all seven presets (plus
``claim_mode="manual"`` for sixty_six, schnapsen and hatvanhat), stopped late enough for
the tree to fit under the cap. Four play policies reach different parts of a
deal: ``uniform``; ``patient`` (never closes, exchanges, marries or claims while
something else is legal, so deals run to the end of the talon and to the final
trick); ``hoard`` (patient, but marries whenever it can: high scores with the
talon still open); ``eager`` (picks close, exchange, marriage or claim half of
the time it can). Decisions that need an open talon in the 24-card presets
(the pre-draw close, the exchange on the opponent's close) are also sampled on
purpose. Every random choice derives from a deal seed, and a failure prints a
``replay`` recipe of the position.
"""

from __future__ import annotations

import collections
import random
from typing import NamedTuple

import numpy as np
import pytest
from conftest import finished_deal, snapshot
from numba import njit

import sixtysix
from sixtysix.engine import multi_core as mc
from sixtysix.engine import solver
from sixtysix.engine.actions import parse_action
from sixtysix.engine.cards import card_name

REF_DEPTH = 96  # plies below the root: more than any deal has
NO_CAP = 1 << 62
CONFIGS = [(preset, {}) for preset in sixtysix.PRESETS] + [
    ("sixty_six", {"claim_mode": "manual"}),
    ("schnapsen", {"claim_mode": "manual"}),
    ("hatvanhat", {"claim_mode": "manual"}),  # no score (value 0) at the end of the cards
]
POLICIES = ("uniform", "patient", "eager", "hoard")
SPECIAL = ("close", "exchange", "exchange-on-close", "claim")
# Decisions that ``sample`` seldom reaches with small trees, sampled on purpose:
# (preset, options, kind, policy, positions wanted, deals tried at most).
TARGETS = (
    ("sixty_six", {}, "pre_draw", "hoard", 5, 40),
    ("czech", {}, "pre_draw", "hoard", 5, 40),
    ("slovak", {}, "pre_draw", "hoard", 5, 40),
    ("sixty_six", {}, "close_exchange", "eager", 8, 40),
    ("hatvanhat", {}, "exchange", "patient", 5, 30),
    ("schnapsen", {"claim_mode": "manual"}, "marry_claim", "patient", 5, 30),
)
# Rarer decisions first: a sampled deal picks among the positions offering one of
# them with probability 1/2 at each step.
RARE_KINDS = (
    {"pre_draw", "close_exchange", "exchange", "marry_claim", "final_claim"},
    {"close", "marriage"},
    {"claim"},
)
# The kinds of position the sample must contain, with the least count of each.
REQUIRED_KINDS = {
    "close": 50,
    "marriage": 30,
    "exchange": 12,
    "pre_draw": 12,
    "close_exchange": 8,
    "claim": 60,
    "marry_claim": 6,
    "final_claim": 25,
    "follow": 150,
    "open_talon": 100,
    "closed_talon": 150,
    "exhausted_talon": 150,
}


# ---- the reference -----------------------------------------------------------------


@njit(cache=True)
def _minimax(stack, depth, rules, nodes, cap):
    """Exact value of ``stack[depth]`` (player 0's view); 0 once ``nodes[0]`` passes ``cap``."""
    state = stack[depth]
    nodes[0] += 1
    if state.phase == mc.OVER:
        if state.winners == 1:
            return state.scores[0]
        if state.winners == 2:
            return -state.scores[1]
        return 0
    if nodes[0] > cap:
        return 0
    low, high = mc.legal_masks(state, rules)
    maximize = state.to_move == 0
    best = -1000 if maximize else 1000
    for action in range(mc.NUM_TABLE_ACTIONS):
        legal = (low >> action) & 1 if action < mc.HIGH else (high >> (action - mc.HIGH)) & 1
        if legal:
            stack[depth + 1] = stack[depth]
            mc.apply_action(stack[depth + 1], rules, action)
            value = _minimax(stack, depth + 1, rules, nodes, cap)
            best = max(best, value) if maximize else min(best, value)
    return best


def minimax(state: sixtysix.State, cap: int = NO_CAP) -> tuple[int | None, int]:
    """``(value, nodes)`` of ``state`` by exhaustive search; value None past ``cap`` nodes."""
    stack = np.zeros(REF_DEPTH + 1, dtype=state.array.dtype)
    stack[0] = state.array[0]
    nodes = np.zeros(1, dtype=np.int64)
    value = _minimax(stack, 0, state.game.rule_array[0], nodes, cap)
    return (None if nodes[0] > cap else int(value)), int(nodes[0])


def child(state: sixtysix.State, action: str) -> sixtysix.State:
    return state.clone().apply(action)


# ---- sanity of the reference on hand-made end positions ----------------------------

# schnapsen, dealer 1: N (player 0) gets deck positions 0-2 and 7-8, D positions 3-5
# and 9-10, position 6 is the trump card (JC: clubs are trumps), the rest the talon.
MARRIAGE_DECK = "AC TC KH KC TH AH JC QH AS TS KS QC QS JS JH AD TD KD QD JD".split()
DISCARD_DECK = "AC TC AS KC AH QS JC AD JS TS KH QC TH QH JH KS JD QD KD TD".split()
# N closes on the first lead (D has no trick: a failed close, or D going out, costs
# N 3; N going out wins 3, schwarz at the close) and takes three tricks:
# AC/KC 15, TC/TS 20, AS/KS 15 -> N 50; N holds KH QH, D holds TH AH.
MARRIAGE_LINE = "close|play AC|play KC|play TC|play TS|play AS|play KS".split("|")
# AC/KC 15, TC/AH 21, AS/QS 14 -> N 50; N holds AD JS, D holds TS KH.
DISCARD_LINE = "close|play AC|play KC|play TC|play AH|play AS|play QS".split("|")


def _end_position(deck, line, **options):
    state = sixtysix.replay(sixtysix.Game("schnapsen", **options), deck, 1, line)
    assert state.card_points == (50, 0) and state.closed_by == 0 and state.current_player == 0
    return state


def test_reference_marriage_goes_out():
    """N at 50 with KH QH against TH AH: marrying (20) goes out for +3; any plain lead
    loses both tricks to D's higher hearts, the close fails: -3."""
    state = _end_position(MARRIAGE_DECK, MARRIAGE_LINE)
    assert state.hands == (["KH", "QH"], ["AH", "TH"])
    # root 1, two marriages ending the deal 2, each plain lead: D heads with TH or AH,
    # leads his last heart, N follows: 1 + 2 * 3 nodes.
    assert minimax(state) == (3, 17)
    children = {action: minimax(child(state, action)) for action in state.legal_actions()}
    assert children == {
        "marry KH": (3, 1),
        "marry QH": (3, 1),
        "play KH": (-3, 7),
        "play QH": (-3, 7),
    }
    assert minimax(state, cap=16) == (None, 17)


def test_reference_minimizer_discards_low():
    """N at 50 leads AD or JS against D's TS KH (no diamonds, no trumps). After AD, D
    discards KH (N 65, then D heads JS with TS) rather than TS (N 71 goes out): -3.
    After JS, D heads with TS and takes AD with KH: -3."""
    state = _end_position(DISCARD_DECK, DISCARD_LINE)
    assert state.hands == (["AD", "JS"], ["KH", "TS"])
    after_ad = child(state, "play AD")
    assert sorted(after_ad.legal_actions()) == ["play KH", "play TS"]
    assert minimax(child(after_ad, "play TS")) == (3, 1)
    assert minimax(child(after_ad, "play KH")) == (-3, 3)
    assert minimax(after_ad) == (-3, 5)
    assert minimax(child(state, "play JS")) == (-3, 4)
    assert minimax(state) == (-3, 10)


def test_reference_manual_claims():
    """The marriage position under manual claims: only ``marry-claim H`` goes out (+3).
    A plain claim at 50 is the closer's false claim (-3); after ``marry KH`` N has 70
    but never leads again, and D passes at the final claim point rather than make a
    false claim (+2 for N): the close fails, -3."""
    state = _end_position(MARRIAGE_DECK, MARRIAGE_LINE, claim_mode="manual")
    children = {action: minimax(child(state, action))[0] for action in state.legal_actions()}
    assert children == {
        "claim": -3,
        "marry-claim H": 3,
        "marry KH": -3,
        "marry QH": -3,
        "play KH": -3,
        "play QH": -3,
    }
    final = child(state, "marry KH").apply("play AH").apply("play TH").apply("play QH")
    assert final.legal_actions() == ["claim", "pass"] and final.current_player == 1
    assert minimax(child(final, "claim"))[0] == 2
    assert minimax(child(final, "pass"))[0] == -3
    assert minimax(final)[0] == -3
    assert minimax(state)[0] == 3


def test_reference_last_trick():
    """The last trick is forced: the value is the outcome of playing it out."""
    game = sixtysix.Game("sixty_six")
    for seed in range(20):
        state = game.new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal and sum(len(hand) for hand in state.hands) > 2:
            legal = [a for a in state.legal_actions() if a != "close"]
            state.apply(rng.choice(legal or state.legal_actions()))
        if state.is_terminal:
            continue
        end = state.clone()
        while not end.is_terminal:
            (action,) = end.legal_actions()
            end.apply(action)
        winner, points, _ = end.outcome
        expected = 0 if winner is None else (points if winner == 0 else -points)
        assert minimax(state)[0] == expected


# ---- sampling positions --------------------------------------------------------------


def choose(rng: random.Random, state: sixtysix.State, policy: str) -> str:
    """One action of a play policy (see the module docstring)."""
    legal = state.legal_actions()
    if policy == "hoard":
        marriages = [a for a in legal if a.startswith("marry ")]
        if marriages:
            return rng.choice(marriages)
    if policy in ("patient", "hoard"):
        calm = [a for a in legal if a not in SPECIAL and not a.startswith("marry")]
        return rng.choice(calm or legal)
    if policy == "eager":
        special = [a for a in legal if a in SPECIAL or a.startswith("marry")]
        if special and rng.random() < 0.5:
            return rng.choice(special)
    return rng.choice(legal)


def play(game: sixtysix.Game, seed: int, policy: str) -> tuple[random.Random, list]:
    """The seeded deal played out by ``policy``: the RNG and every non-terminal position."""
    rng = random.Random(seed)
    state = game.new_deal(seed=seed)
    positions = []
    while not state.is_terminal:
        positions.append(state.clone())
        state.apply(choose(rng, state, policy))
    return rng, positions


def kinds(state: sixtysix.State) -> set[str]:
    """The kinds of decision a position offers (coverage counters)."""
    legal = state.legal_actions()
    phase = int(state.array[0]["phase"])
    found = {
        "close": "close" in legal,
        "marriage": any(a.startswith("marry ") for a in legal),
        "marry_claim": any(a.startswith("marry-claim") for a in legal),
        "exchange": "exchange" in legal,
        "claim": "claim" in legal,
        "pre_draw": phase == mc.PRE_DRAW,
        "close_exchange": phase == mc.CLOSE_EXCHANGE,
        "final_claim": phase == mc.FINAL_CLAIM,
        "follow": phase == mc.FOLLOW,
        "open_talon": state.closed_by is None and bool(state.talon),
        "closed_talon": state.closed_by is not None,
        "exhausted_talon": state.closed_by is None and not state.talon,
    }
    return {kind for kind, present in found.items() if present}


def recipe(state: sixtysix.State) -> str:
    """Python that rebuilds ``state``."""
    game = state.game
    deck = [card_name(int(card)) for card in state.deck]
    actions = [action for _, action in state.history]
    return (
        f"sixtysix.replay(sixtysix.Game({game.preset!r}, **{game.overrides!r}), "
        f"{deck!r}, {state.dealer}, {actions!r})"
    )


class Position(NamedTuple):
    """A sampled position, its reference value and tree size, and where it came from."""

    state: sixtysix.State
    value: int
    nodes: int
    policy: str
    seed: int


def sample_deal(game: sixtysix.Game, seed: int, cap: int) -> Position | None:
    """A position of one seeded deal whose tree has at most ``cap`` nodes, or None.

    Walks back from the end of the deal while the trees fit (stopping once one
    has more than ``cap / 8`` nodes: the next one back would seldom fit), then
    picks one of those positions, preferring ones that offer rarer decisions, and
    half of the time the earliest of them (the biggest tree).
    """
    policy = POLICIES[seed % len(POLICIES)]
    rng, positions = play(game, seed, policy)
    fitting = []
    for state in reversed(positions):
        value, nodes = minimax(state, cap)
        if value is None:
            break
        fitting.append(Position(state, value, nodes, policy, seed))
        if nodes * 8 > cap:
            break
    if not fitting:
        return None
    pool = fitting
    for rare in RARE_KINDS:
        offering = [position for position in fitting if rare & kinds(position.state)]
        if offering and rng.random() < 0.5:
            pool = offering
            break
    if rng.random() < 0.5:
        return pool[-1]  # the earliest: the biggest tree
    return pool[rng.randrange(len(pool))]


def sample(deals_per_config: int, cap: int, base_seed: int) -> list[Position]:
    """Positions from ``deals_per_config`` seeded deals of every configuration."""
    sampled = []
    for index, (preset, options) in enumerate(CONFIGS):
        game = sixtysix.Game(preset, **options)
        for i in range(deals_per_config):
            position = sample_deal(game, base_seed + index * 1_000_000 + i, cap)
            if position is not None:
                sampled.append(position)
    return sampled


def sample_targets(cap: int, base_seed: int, scale: int = 1) -> list[Position]:
    """Positions offering the decisions that ``sample`` seldom reaches (``TARGETS``).

    For each target, seeded deals are played by its policy and the last position
    offering the decision is kept if its tree fits ``cap``, until ``scale * want``
    are found or ``scale * tries`` deals were played.
    """
    sampled = []
    for index, (preset, options, kind, policy, want, tries) in enumerate(TARGETS):
        game = sixtysix.Game(preset, **options)
        found = 0
        for i in range(scale * tries):
            seed = base_seed + index * 1_000_000 + i
            _, positions = play(game, seed, policy)
            offering = [state for state in positions if kind in kinds(state)]
            if not offering:
                continue
            value, nodes = minimax(offering[-1], cap)
            if value is not None:
                sampled.append(Position(offering[-1], value, nodes, policy, seed))
                found += 1
                if found == scale * want:
                    break
    return sampled


def check_position(position: Position) -> None:
    """solve and solve_actions against the reference on one position."""
    state = position.state
    where = f"seed {position.seed}, policy {position.policy}: {recipe(state)}"
    before = snapshot(state)
    solution = sixtysix.solve(state)
    values = sixtysix.solve_actions(state)
    assert snapshot(state) == before, f"solve mutated the state; {where}"
    assert solution.value == position.value, (
        f"solve value {solution.value}, reference {position.value}; {where}"
    )
    legal = state.legal_actions()
    assert solution.action in legal, f"best action {solution.action!r} not legal; {where}"
    assert solution.action_id == parse_action(solution.action), where
    expected = {action: minimax(child(state, action))[0] for action in legal}
    assert values == expected, f"solve_actions {values}, reference {expected}; {where}"
    assert expected[solution.action] == position.value, (
        f"best action {solution.action!r} is worth {expected[solution.action]}, "
        f"not the value {position.value}; {where}"
    )


# ---- the comparisons -------------------------------------------------------------------

CAP = 150_000
DEALS_PER_CONFIG = 64
TARGET_CAP = 300_000
BASE_SEED = 66_000_000


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return sample(DEALS_PER_CONFIG, CAP, BASE_SEED) + sample_targets(TARGET_CAP, BASE_SEED)


def test_sample_coverage(positions):
    """The sample is large, spans every configuration and offers every kind of decision."""
    assert len(positions) >= 500
    per_config = collections.Counter(
        (p.state.game.preset, p.state.game.rules.claim_mode) for p in positions
    )
    assert len(per_config) == len(CONFIGS) and min(per_config.values()) >= 50, per_config
    counts = collections.Counter(kind for p in positions for kind in kinds(p.state))
    missing = {k: counts[k] for k, least in REQUIRED_KINDS.items() if counts[k] < least}
    assert not missing, f"too few positions of these kinds: {missing}; all counts {counts}"
    values = collections.Counter(p.value for p in positions)
    assert all(values[v] for v in (-6, -3, -2, -1, 0, 1, 2, 3, 6)), values


def test_solver_matches_reference(positions):
    """Value, every action's value and the best action agree with the reference."""
    for position in positions:
        check_position(position)


def test_terminal_state():
    """An ended deal: the outcome's value, no action, no action values."""
    for preset, options in CONFIGS:
        game = sixtysix.Game(preset, **options)
        for seed in range(5):
            state = finished_deal(game, seed)
            winner, points, _ = state.outcome
            expected = 0 if winner is None else (points if winner == 0 else -points)
            solution = sixtysix.solve(state)
            assert (solution.value, solution.action, solution.action_id) == (expected, None, None)
            assert sixtysix.solve_actions(state) == {}
            assert minimax(state) == (expected, 1)


@pytest.mark.slow
def test_solver_matches_reference_sweep():
    """A bigger, deeper sweep: 5,000 deals with trees up to 400,000 nodes, plus four
    times the targeted positions with trees up to 2,000,000 nodes."""
    seed = BASE_SEED + 500_000
    positions = sample(500, 400_000, seed) + sample_targets(2_000_000, seed, scale=4)
    assert len(positions) >= 4500
    for position in positions:
        check_position(position)


# Scoring options that no preset uses, but that the solver's value bounds read.
RARE_SCORING = (
    (
        "sixty_six",
        dict(
            failed_close_penalty="by_closer_points",
            opponent_out_after_close="fixed_2",
            closer_win_basis="at_close",
        ),
    ),
    ("schnapsen", dict(failed_close_penalty="by_closer_points", closer_win_basis="at_close")),
    ("czech", dict(opponent_out_after_close="fixed_2", schwarz_basis="zero_points")),
)


@pytest.mark.parametrize(("preset", "options"), RARE_SCORING)
def test_solver_matches_reference_under_rare_scoring_options(preset, options):
    game = sixtysix.Game(preset, **options)
    positions = [sample_deal(game, BASE_SEED + 7_000_000 + i, CAP) for i in range(40)]
    positions = [p for p in positions if p is not None]
    closed = [p for p in positions if "closed_talon" in kinds(p.state)]
    assert len(positions) >= 30 and len(closed) >= 8, (len(positions), len(closed))
    for position in positions:
        check_position(position)


@njit(cache=True)
def record_value_bounds(state_array, rules_array):
    return solver.value_bounds(state_array[0], rules_array[0])


def test_value_bounds_contain_the_value(positions):
    """The bounds the solver takes from the scoring never exclude the exact value."""
    informative = 0
    for position in positions:
        state = position.state
        low, high = record_value_bounds(state.array, state.game.rule_array)
        assert low <= position.value <= high, (low, high, position.value, recipe(state))
        informative += (low, high) != (-solver.NO_BOUND, solver.NO_BOUND)
    assert informative >= 200


def test_a_closer_saved_by_a_marriage_still_counts_as_able_to_win():
    """Schnapsen allows marriages after a close: 62 card points plus a 40 marriage reach 66."""
    game = sixtysix.Game("schnapsen")
    state = game.new_deal(seed=7).apply("close")  # player 1 closes holding KD QD (trumps)
    assert state.hands[1] == ["AS", "KD", "QD", "QH", "TC"] and state.trump_suit == "D"
    assert minimax(state)[0] == -3
    low, high = record_value_bounds(state.array, game.rule_array)
    assert low <= -3 <= high


def test_value_bounds_hold_in_every_strict_position():
    """Along seeded random deals of the automatic-claim presets, at every position of the
    strict phase whose tree fits the cap (a follower's turn included: a card on the table
    beats a trump in hand that is otherwise a master), the bounds contain the reference
    value; leaders who cash their sure winners to the target get both bounds equal."""
    exact = 0
    checked = 0
    for preset in ("sixty_six", "schnapsen", "snapszer", "czech", "vu_schnapsen"):
        game = sixtysix.Game(preset)
        for seed in range(BASE_SEED + 9_000_000, BASE_SEED + 9_000_025):
            rng = random.Random(seed)
            state = game.new_deal(seed=seed)
            while not state.is_terminal:
                if state.closed_by is not None or not state.talon:
                    value, _ = minimax(state, CAP)
                    if value is not None:
                        low, high = record_value_bounds(state.array, game.rule_array)
                        assert low <= value <= high, (low, high, value, recipe(state))
                        checked += 1
                        exact += low == high
                state.apply(rng.choice(state.legal_actions()))
    assert checked >= 600 and exact >= 30, (checked, exact)
