"""The agent protocol for three and four seats: ``play_deal`` and ``play_match`` with one
agent per seat, per-seat results, forfeits scored against the failing seat's side."""

from __future__ import annotations

import textwrap

import pytest

import sixtysix
from sixtysix import agents
from sixtysix.table_game import TABLE_PRESET_NAMES
from sixtysix.theory import table_solver

PRESETS = [name for name in TABLE_PRESET_NAMES if not name.startswith("mini")]


@pytest.fixture
def failing_module(tmp_path, monkeypatch):
    """A module with an agent that raises on its third decision."""
    (tmp_path / "failing_table_agents.py").write_text(
        textwrap.dedent(
            """
            class Late:
                def __init__(self, seed=0):
                    self.calls = 0

                def act(self, view):
                    self.calls += 1
                    if self.calls == 3:
                        raise RuntimeError("boom")
                    return view.legal_actions()[0]
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "failing_table_agents"


@pytest.mark.parametrize("preset", PRESETS)
def test_play_deal_gives_every_seat_its_scores_and_decisions(preset):
    game = sixtysix.Game(preset)
    for seed in range(3):
        result = agents.play_deal(game, ["random"] * game.num_players, seed=seed)
        actions = [action for _, action in result.history_ids]
        state = game.replay(game.new_deal(seed=seed).deck, result.dealer, actions)
        winners, reason, scores = state.outcome
        assert (result.winners, result.reason, result.scores) == (winners, reason, scores)
        assert result.outcome == state.outcome
        assert result.payoffs == table_solver.research_payoffs(state)
        assert result.card_points == state.card_points
        assert result.sides == tuple(sum(1 << s for s in side) for side in state.sides)
        assert result.tricks_played == state.tricks_played
        assert len(result.specs) == len(result.decisions) == game.num_players
        assert sum(result.decisions) == len(result.history_ids)
        for seat in range(game.num_players):
            moved = sum(1 for player, _ in result.history_ids if player == seat)
            assert result.decisions[seat] == moved
        assert result.error is None


def test_a_forfeit_scores_every_seat_off_the_failing_side(failing_module):
    game = sixtysix.Game("snapszer4")
    specs = ["random", f"{failing_module}:Late", "random", "random"]
    result = agents.play_deal(game, specs, seed=5)
    points = game.rules.max_game_points
    assert result.error_seat == 1 and "raised RuntimeError: boom" in result.error
    assert result.reason == agents.FORFEIT
    assert result.scores == (points, 0, points, 0) and result.winners == (0, 2)
    assert result.payoffs == (points, -points, points, -points)
    three = agents.play_deal(sixtysix.Game("snapszer3"), specs[1:], seed=5)
    assert three.error_seat == 0 and three.scores == (0, points, points)


def test_a_table_match_plays_to_its_target_and_scores_forfeits(failing_module):
    game = sixtysix.Game("snapszer4")
    match = agents.play_match(game, ["random"] * 4, seed=2)
    assert max(match.scores) >= game.rules.match_target and match.winner in (0, 1)
    assert sum(deal.scores[match.winner] for deal in match.deals) == match.scores[match.winner]
    specs = ["random", "random", "random", f"{failing_module}:Late"]
    forfeited = agents.play_match(game, specs, seed=2)
    assert forfeited.winner == 0 and all(deal.error_seat == 3 for deal in forfeited.deals)
    points = game.rules.max_game_points
    assert forfeited.scores == (points * len(forfeited.deals), 0)


def test_the_most_game_points_grow_with_announcements_and_contracts():
    assert sixtysix.Game("snapszer4").rules.max_game_points == 3
    assert sixtysix.Game("snapszer4", announcements="durchmars_betli").rules.max_game_points == 6
    assert sixtysix.Game("na66").rules.max_game_points == 5


@pytest.mark.parametrize(("preset", "words"), [("snapszer3", "three"), ("snapszer4", "four")])
def test_a_table_deal_wants_one_agent_per_seat(preset, words):
    for play in (agents.play_deal, agents.play_match):
        with pytest.raises(ValueError, match=f"needs {words} agents, one per seat; got 2"):
            play(sixtysix.Game(preset), ("random", "random"), seed=0)
