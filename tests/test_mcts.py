"""``dmcts`` and ``ismcts`` (``sixtysix.agents.mcts``): only legal actions on every kind of
rules, the same choice for the same seed and view, blindness to hidden cards, agreement with
a plain Python reference of both algorithms (root statistics, choice and random stream),
an obvious best move found, and spec parsing with its errors."""

from __future__ import annotations

import inspect
import math
import re

import numpy as np
import pytest
from conftest import game_of
from numba import njit
from sixtysix.agents import mcts, policies
from sixtysix.agents.base import strict_phase
from test_agents import assert_blind_to_hidden_cards

from sixtysix import agents
from sixtysix.engine import multi_core as mc
from sixtysix.engine import solver
from sixtysix.engine.actions import action_name, masks_to_actions, parse_action
from sixtysix.engine.worlds import sample_world_record

SMALL = {"dmcts": "dmcts:iterations=300,worlds=3", "ismcts": "ismcts:iterations=300"}
VARIANTS = [
    *SMALL.values(),
    "dmcts:iterations=200,worlds=2,rollout=random,solver=false",
    "ismcts:iterations=200,rollout=random,solver=false,c=2",
]


# ---- playing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "claim_mode"),
    [
        ("mini_2x3", None),
        ("mini_2x4", "manual"),
        ("schnapsen", "manual"),
        ("sixty_six", None),
        ("vu_schnapsen", None),
        ("czech", "optional_verified"),
    ],
)
@pytest.mark.parametrize("spec", VARIANTS)
def test_only_legal_actions_are_played(preset, claim_mode, spec):
    game = game_of(preset, claim_mode)
    decisions = 0
    for seed in range(4):
        opponent = ("heuristic:worlds=0", "random")[seed // 2]
        pair = (spec, opponent) if seed % 2 == 0 else (opponent, spec)
        result = agents.play_deal(game, pair, seed)
        assert result.error is None
        decisions += result.decisions[seed % 2]
    assert decisions >= 8


def position(preset: str, seed: int, plies: int, strict: bool = False):
    """The state after ``plies`` heuristic actions of deal ``seed`` (with ``strict``, then on
    to the first decision with the talon closed or exhausted and a choice of actions)."""
    game = game_of(preset)
    state = game.new_deal(seed=seed)
    player = agents.make("heuristic:worlds=0")
    for ply in range(plies + 100):
        if state.is_terminal:
            break
        view = state.view(state.current_player)
        strict_choice = not talon_open(state.array) and len(view.legal_action_ids()) > 1
        if ply >= plies and (strict_choice or not strict):
            return state
        state.apply(player.act(view))
    raise AssertionError(f"deal {seed} of {preset} ended before its position")


@pytest.mark.parametrize("name", SMALL)
def test_the_same_seed_and_view_give_the_same_choice(name):
    state = position("schnapsen", 5, 3)
    view = state.view(state.current_player)
    first, second, other = (agents.make(SMALL[name], seed) for seed in (9, 9, 10))
    assert first.act(view) == second.act(view)
    assert first.root_statistics() == second.root_statistics()
    other.act(view)
    assert other.root_statistics() != first.root_statistics()
    visits = sum(visits for visits, _ in first.root_statistics().values())
    assert visits == 300


@pytest.mark.parametrize("spec", SMALL.values())
@pytest.mark.parametrize("preset", ["schnapsen", "sixty_six", "mini_2x4"])
def test_the_choice_does_not_see_hidden_cards(spec, preset):
    for seed in range(3):
        assert_blind_to_hidden_cards(spec, game_of(preset), seed, worlds=4)


def test_a_single_legal_action_is_played_without_search():
    state = position("schnapsen", 2, 0)
    while len(state.legal_action_ids()) != 1:
        state.apply(agents.make("heuristic:worlds=0").act(state.view(state.current_player)))
    view = state.view(state.current_player)
    for spec in SMALL.values():
        agent = agents.make(spec, 3)
        stream = agent._stream.copy()
        assert agent.act(view) == view.legal_actions()[0]
        assert agent.root_statistics() == {} and (agent._stream == stream).all()


# ---- a plain Python reference ------------------------------------------------------------------


@njit(cache=True)
def draw_below(stream, n):
    """``policies.draw_below`` for Python."""
    return policies.draw_below(stream, n)


@njit(cache=True)
def draw_world(stream, into, view_array, opponent, allowed, unknown, hidden_opponent, ordered):
    """A uniform world of the view into ``into[0]``, from ``stream`` (as the agents draw)."""
    rng = (stream[0], stream[1], stream[2], stream[3])
    rng = sample_world_record(
        rng, into, 0, view_array[0], opponent, allowed, unknown, hidden_opponent, ordered
    )
    stream[0], stream[1], stream[2], stream[3] = rng


def talon_open(record) -> bool:
    state = record[0]
    return state["closed_by"] < 0 and state["talon_end"] > state["talon_top"]


def is_over(record) -> bool:
    return record[0]["phase"] == mc.OVER


def outcome(record) -> int:
    """Signed game points of an ended deal, player 0's view."""
    winners, scores = int(record[0]["winners"]), record[0]["scores"]
    return int(scores[0]) if winners == 1 else -int(scores[1]) if winners == 2 else 0


class Node:
    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.points = 0  # game points from the view of the player who moved here
        self.available = 0
        self.exact: int | None = None


class Reference:
    """dmcts and ismcts written out plainly, on the engine's record functions, with the same
    random draws from the same stream as the agents."""

    def __init__(self, kind, view, seed, c, rollout, use_solver):
        self.kind, self.view, self.c, self.use_solver = kind, view, c, use_solver
        self.rules = view.game.rule_array
        self.bound = view.game.rules.max_game_points
        self.policy = {"random": policies.RANDOM, "heuristic": policies.HEURISTIC}[rollout]
        self.stream = policies.new_stream(seed)
        self.workspace = solver.new_workspace()

    def world(self):
        spec = self.view.world_spec()
        record = np.zeros(1, dtype=mc.state_dtype(self.rules))
        draw_world(
            self.stream,
            record,
            self.view.record,
            *spec.record_arguments,
        )
        return record

    def is_leaf(self, record) -> bool:
        return is_over(record) or (self.use_solver and not talon_open(record))

    def value(self, record) -> int:
        if not is_over(record) and self.use_solver and not talon_open(record):
            args = (self.workspace, self.rules, record, self.bound, solver.NO_HORIZON)
            return int(solver.solve_record(*args)[0])
        while not is_over(record):
            action = policies.policy_action_array(self.policy, 0.0, record, self.rules, self.stream)
            assert mc.apply_checked(record, self.rules, action)
        return outcome(record)

    def score(self, parent: Node, child: Node) -> float:
        parent_count = child.available if self.kind == "ismcts" else parent.visits
        mean = child.points / (self.bound * child.visits)
        return mean + self.c * math.sqrt(math.log(parent_count) / child.visits)

    def iterate(self, root: Node, record) -> None:
        node, path = root, []
        while True:
            if path and self.is_leaf(record):
                if node.exact is None:
                    value = self.value(record)
                    if self.kind == "dmcts":
                        node.exact = value
                else:
                    value = node.exact
                break
            legal = masks_to_actions(*map(int, mc.legal_masks_array(record, self.rules)))
            untried = [action for action in legal if action not in node.children]
            if untried:
                action = untried[draw_below(self.stream, len(untried))]
                node.children[action] = Node()
            else:
                action = max(legal, key=lambda a: self.score(node, node.children[a]))
            if self.kind == "ismcts":
                for a in legal:
                    if a in node.children:
                        node.children[a].available += 1
            path.append((node.children[action], int(record[0]["to_move"])))
            node = node.children[action]
            assert mc.apply_checked(record, self.rules, action)
            if untried:
                leaf = self.is_leaf(record)
                value = self.value(record)
                if self.kind == "dmcts" and leaf:
                    node.exact = value
                break
        root.visits += 1
        for visited, mover in path:
            visited.visits += 1
            visited.points += value if mover == 0 else -value

    def search(self, worlds: int, iterations: int):
        """The action and the root statistics {action: (visits, game points)}."""
        legal = self.view.legal_action_ids()
        statistics = {action: [0, 0] for action in legal}
        if self.kind == "dmcts":
            trees = []
            for w in range(worlds):
                world, root = self.world(), Node()
                for _ in range(iterations // worlds + (w < iterations % worlds)):
                    self.iterate(root, world.copy())
                trees.append(root)
        else:
            root = Node()
            for _ in range(iterations):
                self.iterate(root, self.world())
            trees = [root]
        for root in trees:
            for action, child in root.children.items():
                statistics[action][0] += child.visits
                statistics[action][1] += child.points
        most = max(visits for visits, _ in statistics.values())
        tied = [action for action in legal if statistics[action][0] == most]
        choice = tied[draw_below(self.stream, len(tied))] if len(tied) > 1 else tied[0]
        return choice, {action: tuple(s) for action, s in statistics.items() if s[0]}


REFERENCE_POSITIONS = [
    ("mini_2x4", 0, 0, False),
    ("mini_2x3", 3, 1, False),
    ("schnapsen", 4, 4, False),
    ("schnapsen", 2, 0, True),
]


@pytest.mark.parametrize(("preset", "seed", "plies", "strict"), REFERENCE_POSITIONS)
@pytest.mark.parametrize(
    ("name", "rollout", "use_solver"),
    [
        ("dmcts", "heuristic", True),
        ("dmcts", "random", False),
        ("ismcts", "heuristic", True),
        ("ismcts", "random", False),
    ],
)
def test_the_kernels_agree_with_the_python_reference(
    preset, seed, plies, strict, name, rollout, use_solver
):
    state = position(preset, seed, plies, strict)
    view = state.view(state.current_player)
    assert len(view.legal_action_ids()) > 1
    worlds, iterations, c = 3, 240, 0.9
    spec = f"{name}:iterations={iterations},c={c},rollout={rollout},solver={use_solver}"
    agent = agents.make(spec + (f",worlds={worlds}" if name == "dmcts" else ""), seed=21)
    action = agent.act(view)
    reference = Reference(name, view, 21, c, rollout, use_solver)
    expected_action, expected_statistics = reference.search(worlds, iterations)
    assert agent.root_statistics() == expected_statistics
    assert sum(visits for visits, _ in expected_statistics.values()) == iterations
    assert action == action_name(expected_action)
    assert (agent._stream == reference.stream).all()


# ---- an obvious best move -------------------------------------------------------------------


def signed_for(player: int, value: int) -> int:
    return value if player == 0 else -value


def decisive_action(view) -> int | None:
    """The action that wins the deal in every world of ``view`` while every other action loses
    it in every world (exact values by the open-hand solver), if there is one."""
    winners = set(view.legal_action_ids())
    for world in view.enumerate_worlds():
        values = {parse_action(a): v for a, v in solver.solve_actions(world).items()}
        mover = world.current_player
        won = {a for a, v in values.items() if signed_for(mover, v) > 0}
        if len(won) != 1 or any(
            signed_for(mover, v) >= 0 for a, v in values.items() if a not in won
        ):
            return None
        winners &= won
    return winners.pop() if winners else None


@pytest.mark.parametrize("name", SMALL)
def test_a_decisive_strict_phase_lead_is_found_with_the_solver(name):
    state = position("schnapsen", 155, 10)  # after player 0 closed: 7 actions, 5 worlds
    view = state.view(state.current_player)
    assert not talon_open(state.array) and view.count_worlds() == 5
    winner = decisive_action(view)
    assert winner is not None and len(view.legal_action_ids()) == 7
    for seed in range(3):
        agent = agents.make(f"{SMALL[name]},solver=true", seed)
        assert agent.act(view) == action_name(winner)
        statistics = agent.root_statistics()
        assert max(statistics, key=lambda action: statistics[action][0]) == winner


# ---- the PIMC judge (pimc_worlds) -------------------------------------------------------------


def judged_deal_choices(preset: str, seed: int) -> dict[str, int]:
    """Along deal ``seed`` (driven by the heuristic), at every decision with a choice:
    ``ismcts`` with a PIMC judge of 8 worlds takes the judge's action in the strict phase,
    closes where the judge values closing above every other action, and elsewhere takes the
    choice of the same tree without a judge; the counts of each kind of decision."""
    game = game_of(preset)
    state = game.new_deal(seed=seed)
    driver = agents.make("heuristic:worlds=0")
    judge_seed = int(policies.agent_seed(np.uint64(seed), 1))
    counts = {"strict": 0, "closable": 0, "closes": 0, "tree": 0}
    while not state.is_terminal:
        view = state.view(state.current_player)
        legal = view.legal_actions()
        if len(legal) > 1:
            choice = agents.make("ismcts:iterations=100,pimc_worlds=8", seed).act(view)
            judge = agents.make("pimc:worlds=8", judge_seed)
            tree = agents.make("ismcts:iterations=100", seed)
            if strict_phase(view):
                expected, kind = judge.act(view), "strict"
            elif "close" in legal:
                values = judge.action_values(view)
                close = values.pop("close") > max(values.values())
                expected, kind = ("close" if close else tree.act(view)), "closable"
                counts["closes"] += int(close)
            else:
                expected, kind = tree.act(view), "tree"
            assert choice == expected, (preset, seed, view.history)
            counts[kind] += 1
        state.apply(driver.act(view))
    return counts


def test_the_pimc_judge_closes_and_plays_the_strict_phase():
    """(Its blindness and legality are checked with every search agent's: test_search_agents.)"""
    counts = {"strict": 0, "closable": 0, "closes": 0, "tree": 0}
    for seed in range(6):
        for kind, count in judged_deal_choices("schnapsen", seed).items():
            counts[kind] += count
    assert all(counts.values()), counts  # every kind of decision was checked


def test_at_a_table_the_tree_takes_every_decision():
    game = game_of("snapszer3")
    for seed in range(2):
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            judged = agents.make("ismcts:iterations=50,pimc_worlds=4", seed).act(view)
            assert judged == agents.make("ismcts:iterations=50", seed).act(view)
            state.apply(judged)


# ---- parameters -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", SMALL)
def test_the_registered_defaults_are_the_constructors(name):
    info = agents.BUILTIN[name]
    signature = inspect.signature(info.factory).parameters
    assert {p.name: p.default for p in info.parameters} == {
        key: signature[key].default for key in signature if key != "seed"
    }
    assert all(p.help for p in info.parameters)


def test_specs_are_parsed_to_typed_parameters():
    agent = agents.make("dmcts:worlds=4,iterations=100,c=0.5,rollout=random,solver=no", 1)
    assert agent.spec == "dmcts:c=0.5,iterations=100,rollout=random,solver=false,worlds=4"
    assert (agent.worlds, agent.iterations, agent.c, agent.rollout, agent.solver) == (
        4,
        100,
        0.5,
        "random",
        False,
    )
    agent = agents.make("ismcts:iterations=50,c=0,solver=yes", 1)
    assert (agent.iterations, agent.c, agent.rollout, agent.solver) == (50, 0.0, "heuristic", True)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "dmcts:worlds=2,iterations=1",
            "invalid iterations 1: iterations must be an integer in [2, 4000001)",
        ),
        ("dmcts:worlds=8,iterations=4", "iterations must be an integer in [8, 4000001)"),
        ("dmcts:worlds=0", "invalid worlds 0: worlds must be an integer in [1, "),
        ("ismcts:iterations=-3", "invalid iterations -3: iterations must be an integer in [1, "),
        ("ismcts:iterations=99999999", "invalid iterations 99999999"),
        ("ismcts:iterations=many", "iterations='many' is not valid"),
        ("dmcts:c=-1", "invalid c -1.0: c must be a finite number >= 0"),
        ("ismcts:c=inf", "invalid c inf: c must be a finite number >= 0"),
        ("dmcts:rollout=smart", "invalid rollout 'smart': rollout must be random or heuristic"),
        ("ismcts:solver=maybe", "solver='maybe' is not valid; solver must be true or false"),
        ("ismcts:worlds=3", "unknown parameter 'worlds'; valid: iterations, c, rollout, solver"),
        (
            "ismcts:pimc_worlds=-1",
            "invalid pimc_worlds -1: pimc_worlds must be an integer in [0, 4000001)",
        ),
    ],
)
def test_bad_parameters_are_named_with_what_is_valid(spec, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        agents.make(spec, 0)


def test_bad_constructor_arguments_are_refused():
    with pytest.raises(ValueError, match="invalid solver 1: solver must be true or false"):
        mcts.InformationSetMCTSAgent(solver=1)
    with pytest.raises(ValueError, match="invalid c 'x': c must be a finite number >= 0"):
        mcts.DeterminizedMCTSAgent(c="x")
