"""The ``pimc`` agent and what it stands on: ranked worlds, the solver's horizon, and PIMC's
mean values against plain Python references."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import game_of

from sixtysix import agents
from sixtysix.engine import multi_core as mc
from sixtysix.engine import solver, worlds
from sixtysix.world_states import DeckPlan

PRESETS = ("schnapsen", "sixty_six", "mini_2x4", "vu_schnapsen")


def views_along_a_deal(game, seed: int, opponent: str = "heuristic:worlds=0"):
    """The mover's view at every decision of a heuristic-vs-``opponent`` deal."""
    state = game.new_deal(seed=seed)
    players = [agents.make("heuristic:worlds=0", seed), agents.make(opponent, seed + 1)]
    views = []
    while not state.is_terminal:
        view = state.view(state.current_player)
        views.append(view)
        state.apply(players[state.current_player].act(view))
    return views


def world_of_record(view, record) -> tuple[int, list[int]]:
    """A world record's opponent hidden cards and hidden talon cards (top first)."""
    world = record[0]
    hidden = int(world["hand"][view.opponent]) & ~view.known_opponent
    top = int(world["talon_top"])
    return hidden, [int(card) for card in world["talon"][top : top + view.hidden_talon]]


def ranked_records(view) -> np.ndarray:
    """Every world of ``view`` by rank, as records."""
    spec = view.world_spec()
    records = np.zeros(spec.count(), dtype=mc.TWO_PLAYER_STATE_DTYPE)
    for rank in range(len(records)):
        worlds.ranked_world_record(
            rank,
            records,
            rank,
            view.record[0],
            *spec.record_arguments,
        )
    return records


def small_views(preset: str, seeds=range(3), limit: int = 200):
    """Views along a few deals with at most ``limit`` worlds and more than one legal action."""
    game = game_of(preset)
    return [
        view
        for seed in seeds
        for view in views_along_a_deal(game, seed, "random")
        if view.count_worlds() <= limit and len(view.legal_actions()) > 1
    ]


@pytest.mark.parametrize("preset", PRESETS)
def test_ranks_enumerate_every_world_once(preset):
    for view in small_views(preset)[::3]:
        records = ranked_records(view)
        ranked = {
            (hidden, tuple(talon))
            for hidden, talon in (
                world_of_record(view, records[k : k + 1]) for k in range(len(records))
            )
        }
        expected = {
            (hidden, tuple(talon))
            for hidden, talon in (
                world_of_record(view, world.array) for world in view.enumerate_worlds()
            )
        }
        assert len(ranked) == len(records) == view.count_worlds()
        assert ranked == expected


def mean_values(view, states) -> dict[str, float]:
    """The mean over ``states`` of ``solver.solve_actions``, from the mover's side."""
    sign = 1 if view.to_move == 0 else -1
    totals: dict[str, float] = {}
    for state in states:
        for action, value in solver.solve_actions(state).items():
            totals[action] = totals.get(action, 0) + sign * value
    return {action: total / len(states) for action, total in totals.items()}


@pytest.mark.parametrize("preset", PRESETS)
def test_enumerated_mean_values_equal_solve_actions_over_enumerated_worlds(preset):
    for view in small_views(preset)[::2]:
        values = agents.make("pimc:horizon=0,worlds=200", 1).action_values(view)
        assert values == pytest.approx(mean_values(view, view.enumerate_worlds()), abs=1e-12)


@pytest.mark.parametrize("preset", ("schnapsen", "sixty_six"))
def test_sampled_mean_values_are_over_the_views_sampled_worlds(preset):
    """A fresh agent with seed s samples the worlds ``view.sample_world_records(n, s)``;
    its means are ``solve_actions``'s over those worlds rebuilt as replayed states."""
    game = game_of(preset)
    views = [
        view
        for view in views_along_a_deal(game, 5, "random")
        if view.count_worlds() > 8 and len(view.legal_actions()) > 1
    ]
    for view in views[len(views) // 3 :: 4]:
        plan = DeckPlan(view)
        records = view.sample_world_records(8, 42)
        states = [plan.world(*world_of_record(view, records[k : k + 1])) for k in range(8)]
        values = agents.make("pimc:horizon=0,worlds=8", 42).action_values(view)
        assert values == pytest.approx(mean_values(view, states), abs=1e-12)


def minimax(state, horizon: int, known: dict | None = None) -> int:
    """Depth-limited minimax on ``State`` objects (player 0's view): a lead position with the
    talon open and ``horizon`` tricks played is valued by playing the heuristic agent out.
    ``known`` keeps the value of each record already valued: the rules and the heuristic
    (``heuristic:worlds=0``) read nothing else of a state."""
    known = {} if known is None else known
    key = state.array.tobytes()
    if key not in known:
        known[key] = _minimax(state, horizon, known)
    return known[key]


def _minimax(state, horizon: int, known: dict) -> int:
    record = state.array[0]
    if state.is_terminal:
        winner, points, _ = state.outcome
        return 0 if winner is None else points if winner == 0 else -points
    talon_open = record["closed_by"] < 0 and record["talon_end"] > record["talon_top"]
    if record["tricks_done"] >= horizon and record["phase"] == mc.LEAD and talon_open:
        heuristic = agents.make("heuristic:worlds=0")
        playout = state.clone()
        while not playout.is_terminal:
            playout.apply(heuristic.act(playout.view(playout.current_player)))
        return minimax(playout, horizon, known)
    values = [
        minimax(state.clone().apply(action), horizon, known) for action in state.legal_actions()
    ]
    return max(values) if state.current_player == 0 else min(values)


@pytest.mark.parametrize("preset", ("mini_2x4", "schnapsen"))
def test_horizon_search_equals_depth_limited_minimax(preset):
    game = game_of(preset)
    state = game.new_deal(seed=3)
    heuristic = agents.make("heuristic:worlds=0")
    checked = 0
    while not state.is_terminal:
        record = state.array
        talon = int(record[0]["talon_end"] - record[0]["talon_top"])
        if preset == "mini_2x4" or talon <= 4:  # small enough for Python minimax
            actions = np.array(state.legal_action_ids(), dtype=np.int64)
            values = np.zeros(len(actions), dtype=np.int64)
            for ahead in (1, 2):
                horizon = int(record[0]["tricks_done"]) + ahead
                bound = game.rules.max_game_points
                workspace = solver.new_workspace()
                solver.solve_children(
                    workspace, game.rule_array, record, bound, horizon, actions, values
                )
                known = {}
                expected = [minimax(state.clone().apply(int(a)), horizon, known) for a in actions]
                assert values.tolist() == expected
                checked += 1
        state.apply(heuristic.act(state.view(state.current_player)))
    assert checked >= 4


def test_pimc_parameters_are_checked():
    with pytest.raises(ValueError, match="invalid worlds 0"):
        agents.make("pimc:worlds=0")
    with pytest.raises(ValueError, match="invalid horizon -1"):
        agents.make("pimc:horizon=-1")
    assert agents.make("pimc:horizon=2,worlds=64").spec == "pimc:horizon=2,worlds=64"
    for name in ("infer", "postpone"):
        with pytest.raises(ValueError, match=f"invalid {name} 1: {name} must be true or false"):
            agents.pimc.PimcAgent(**{name: 1})


def test_pimc_plays_the_best_mean_action_with_ties_by_its_seed():
    for view in small_views("schnapsen", range(2)):
        values = agents.make("pimc:worlds=200", 7).action_values(view)
        best = max(values.values())
        choice = agents.make("pimc:worlds=200", 7).act(view)
        assert values[choice] == best
        ties = [action for action, value in values.items() if value == best]
        if len(ties) > 1:
            choices = {agents.make("pimc:worlds=200", seed).act(view) for seed in range(40)}
            assert choices == set(ties)


def test_pimc_policy_is_uniform_over_the_best_mean_actions():
    for view in small_views("mini_2x4_long", range(3)):
        policy = agents.make("pimc", 7).policy(view)
        assert set(policy) == set(view.legal_actions())
        assert sum(policy.values()) == pytest.approx(1.0)
        values = agents.make("pimc", 7).action_values(view)
        best = max(values.values())
        assert {a for a, p in policy.items() if p > 0} == {
            a for a, value in values.items() if value == best
        }
        choices = {agents.make("pimc", seed).act(view) for seed in range(8)}
        assert {a for a, p in policy.items() if p > 0} >= choices


def test_pimc_policy_refuses_sampled_worlds():
    view = views_along_a_deal(game_of("schnapsen"), 1)[0]
    with pytest.raises(ValueError, match="samples worlds here .* use worlds>="):
        agents.make("pimc:worlds=4").policy(view)


@pytest.mark.parametrize("preset", ("schnapsen", "vu_schnapsen"))
def test_postponing_only_takes_away_knowledge_of_the_hidden_cards(preset):
    """With one world, postponing changes nothing (the other player's solver answer, then
    the solver's best next action, is the solver's value); over many worlds each action is
    worth at most PIMC's value, as one next choice for alike worlds can only lose."""
    game = game_of(preset)
    views = [view for seed in range(2) for view in views_along_a_deal(game, seed, "random")]
    lower = 0
    for k, view in enumerate(views):
        if len(view.legal_actions()) < 2:
            continue
        for worlds_ in (1, 16):
            spec = f"pimc:worlds={worlds_}"
            plain = agents.make(spec, k).action_values(view)
            postponed = agents.make(f"{spec},postpone=true", k).action_values(view)
            if worlds_ == 1:
                assert postponed == plain
            else:
                assert all(postponed[a] <= plain[a] for a in plain)
                lower += postponed != plain
    assert lower > 0  # the remedy does bite somewhere
