"""``open-hand``, the reference that sees every card: it plays the solver's best action on
the true state, at two seats and at tables, and tournaments refuse it unless cheating is
allowed."""

from __future__ import annotations

import pytest
from sixtysix.agents.table_heuristic import heuristic_action
from sixtysix.agents.table_search_agents import world_values
from sixtysix.experiments.table_tournament import TableTournamentConfig, run_table_tournament

import sixtysix
from sixtysix import agents
from sixtysix.engine.actions import parse_action
from sixtysix.engine.solver import solve_actions
from sixtysix.theory.table_solver import TableSolver


def test_it_is_listed_as_cheating_and_refuses_a_view():
    listed = {info["name"]: info for info in agents.available()}
    assert listed["open-hand"]["cheating"] is True
    state = sixtysix.Game("schnapsen").new_deal(seed=0)
    with pytest.raises(TypeError, match="act_on_state"):
        agents.make("open-hand").act(state.view(0))


@pytest.mark.parametrize("preset", ["schnapsen", "mini_2x4_long"])
def test_two_players_it_plays_a_best_action_of_the_solver(preset):
    game = sixtysix.Game(preset)
    agent = agents.make("open-hand", seed=1)
    for seed in range(4):
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            choice = agent.act_on_state(state.clone())
            values = solve_actions(state)
            sign = 1 if state.current_player == 0 else -1
            best = max(sign * value for value in values.values())
            assert sign * values[choice] == best
            state.apply(choice)


@pytest.mark.parametrize("preset", ["mini4_4x3", "mini3_3x3", "mini4_called_2x4"])
def test_at_a_table_it_plays_a_best_action_in_the_true_world(preset):
    """Its choice has the best of ``pimc``'s values of the true state (the side's exact
    value or the paranoid one), and is the table heuristic's where that one ties."""
    game = sixtysix.Game(preset)
    solver = TableSolver(game)
    agent = agents.make("open-hand", seed=2)
    for seed in range(4):
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            choice = agent.act_on_state(state.clone())
            if len(state.legal_actions()) > 1:
                values = world_values(solver, state)
                best = [action for action, value in values.items() if value == max(values.values())]
                assert parse_action(choice) in best
                preferred = parse_action(heuristic_action(state.view(state.current_player)))
                if preferred in best:
                    assert parse_action(choice) == preferred
            state.apply(choice)


def test_a_table_tournament_plays_it_only_when_cheating_is_allowed(tmp_path):
    with pytest.raises(ValueError, match=r"agent 'open-hand' cheats"):
        TableTournamentConfig(preset="mini4_4x3", agents=("open-hand", "random"), deals=1)
    config = TableTournamentConfig(
        preset="mini4_4x3", agents=("open-hand", "random"), deals=2, allow_cheating=True
    )
    frame = run_table_tournament(config, tmp_path / "t.parquet", workers=1, quiet=True)
    assert len(frame) == 4 and frame.error.isna().all()
