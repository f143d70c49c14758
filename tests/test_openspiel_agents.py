"""OpenSpiel's bots as agents: ``openspiel-ismcts`` (blind to hidden cards) and
``openspiel-mcts`` (cheating: it gets the true state, and tournaments refuse it unless
cheating is allowed)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sixtysix.agents.openspiel_bots import OpenSpielISMCTSAgent, OpenSpielMCTSAgent, spiel_state
from sixtysix.experiments.tournament import TournamentConfig, replay_row, run_tournament
from test_agents import assert_blind_to_hidden_cards
from test_tournament import cli_run

import sixtysix
from sixtysix import agents
from sixtysix.openspiel import DEAL_OPTIONS, TABLE_DEAL_OPTIONS

ISMCTS = "openspiel-ismcts:simulations=12"
MCTS = "openspiel-mcts:simulations=12"
VARIANTS = (
    "openspiel-ismcts:final_policy=visit_distribution,rollouts=2,simulations=8",
    "openspiel-mcts:c=0,rollouts=2,simulations=8,solve=false",
)


def decision_states(game, seed: int, every: int = 4) -> list:
    """Some decision points of a random deal of ``game``."""
    result = agents.play_deal(game, ("random",) * game.num_players, seed=seed)
    actions = [action for _, action in result.history_ids]
    deck = game.new_deal(seed=seed).deck
    return [game.replay(deck, result.dealer, actions[:k]) for k in range(0, len(actions), every)]


# ---- the registry ----------------------------------------------------------------------------


def test_the_bots_are_listed_and_only_openspiel_mcts_cheats():
    listed = {info["name"]: info for info in agents.available()}
    assert listed["openspiel-mcts"]["cheating"] is True
    assert listed["openspiel-ismcts"]["cheating"] is False


def test_sixtysix_agents_marks_the_cheating_bot(capsys):
    _, output, _ = cli_run(capsys, "agents")
    (line,) = [line for line in output.splitlines() if line.startswith("openspiel-mcts ")]
    assert "cheats: sees hidden cards" in line


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("openspiel-ismcts:simulations=0", "invalid simulations 0: simulations must be an int"),
        ("openspiel-mcts:simulations=-5", "invalid simulations -5: simulations must be an int"),
        ("openspiel-ismcts:c=-1", "invalid c -1.0: c, the UCT constant, must be a number >= 0"),
        ("openspiel-mcts:rollouts=0", "invalid rollouts 0: rollouts must be an integer >= 1"),
        (
            "openspiel-ismcts:final_policy=best",
            "invalid final_policy 'best': use one of max_visits, max_value, visit_distribution",
        ),
        ("openspiel-mcts:solve=maybe", "solve='maybe' is not valid; solve must be true or false"),
        ("openspiel-ismcts:simulations=many", "simulations must be a number of type int"),
        (
            "openspiel-ismcts:worlds=3",
            "unknown parameter 'worlds'; valid: simulations, c, rollouts, final_policy",
        ),
        ("openspiel-mcts:final_policy=max_value", "valid: simulations, c, rollouts, solve"),
    ],
)
def test_bad_parameters_are_named_with_what_is_valid(spec, message):
    with pytest.raises(ValueError, match=message):
        agents.make(spec, seed=0)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"simulations": 2.5}, "invalid simulations 2.5: simulations must be an integer"),
        ({"rollouts": True}, "invalid rollouts True: rollouts must be an integer"),
        ({"c": math.inf}, "invalid c inf: c, the UCT constant, must be a number >= 0"),
        ({"c": "2"}, "invalid c '2'"),
    ],
)
def test_the_classes_check_their_parameters_too(params, message):
    for factory in (OpenSpielISMCTSAgent, OpenSpielMCTSAgent):
        with pytest.raises(ValueError, match=message):
            factory(seed=0, **params)


# ---- the adapter's states --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("schnapsen", {}),
        ("sixty_six", {"claim_mode": "manual", "strict_must_head": False}),
        ("mini_2x4", {}),
    ],
)
def test_a_state_becomes_the_same_python_sixty_six_state(preset, overrides):
    game = sixtysix.Game(preset, **overrides, match_target=3)  # a match option: left out
    dealers = set()
    for seed in range(4):  # both dealers deal in these presets
        for state in decision_states(game, seed):
            spiel = spiel_state(state)
            engine = spiel.engine
            for name in DEAL_OPTIONS:
                assert getattr(engine.game.rules, name) == getattr(game.rules, name), name
            assert (engine.hands, engine.talon) == (state.hands, state.talon)
            assert engine.dealer == state.dealer
            assert engine.history_ids == state.history_ids
            assert np.array_equal(engine.array, state.array)
            assert spiel.legal_actions() == state.legal_action_ids()
            dealers.add(state.dealer)
    assert dealers == {0, 1}


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("snapszer4_called", {"call_own_card": False, "announcements": "durchmars_betli"}),
        ("snapszer3", {"announcements": "durchmars", "match_target": 9}),
        ("na66", {}),
    ],
)
def test_a_table_state_becomes_the_same_python_sixty_six_state(preset, overrides):
    game = sixtysix.Game(preset, **overrides)  # a match option is left out
    for seed in range(2):
        for state in decision_states(game, seed):
            engine = spiel_state(state).engine
            for name in TABLE_DEAL_OPTIONS:
                assert getattr(engine.game.rules, name) == getattr(game.rules, name), name
            assert (engine.hands, engine.talon) == (state.hands, state.talon)
            assert (engine.dealer, engine.history_ids) == (state.dealer, state.history_ids)
            assert np.array_equal(engine.array, state.array)


# ---- playing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "claim_mode"),
    [("schnapsen", None), ("sixty_six", "manual"), ("vu_schnapsen", None), ("mini_2x4", None)],
)
def test_both_bots_play_whole_deals_legally(preset, claim_mode):
    """A forfeit (an illegal action or an exception) would show as the deal's error."""
    overrides = {} if claim_mode is None else {"claim_mode": claim_mode}
    game = sixtysix.Game(preset, **overrides)
    for seed in range(2):
        for pair in [(ISMCTS, "random"), ("random", MCTS), (MCTS, ISMCTS), VARIANTS]:
            result = agents.play_deal(game, pair, seed=seed)
            assert result.error is None and result.outcome[2] != agents.FORFEIT
            assert result.outcome[0] in (0, 1, None) and sum(result.decisions) > 0


@pytest.mark.parametrize("preset", ["snapszer3_called", "snapszer4", "na66"])
def test_both_bots_play_whole_table_deals_legally(preset):
    """At a table too; the cheating bot, handed a copy of the state, repeats its choice."""
    game = sixtysix.Game(preset)
    result = agents.play_deal(game, [ISMCTS, MCTS, "random", ISMCTS][: game.num_players], seed=3)
    assert result.error is None and result.reason != agents.FORFEIT
    assert result.decisions[0] > 0 and result.decisions[1] > 0
    state = decision_states(game, 3)[1]
    choices = [agents.make(MCTS, seed=9).act_on_state(state.clone()) for _ in range(2)]
    assert choices[0] == choices[1] and choices[0] in state.legal_action_ids()


def test_equal_seeds_and_views_give_equal_actions():
    game = sixtysix.Game("schnapsen")
    choices = set()
    for state in decision_states(game, 5, every=5):
        view = state.view(state.current_player)
        ismcts = [agents.make(ISMCTS, seed=9).act(view) for _ in range(2)]
        mcts = [agents.make(MCTS, seed=9).act_on_state(state.clone()) for _ in range(2)]
        assert ismcts[0] == ismcts[1] and mcts[0] == mcts[1]
        assert ismcts[0] in view.legal_action_ids() and mcts[0] in view.legal_action_ids()
        choices.add(ismcts[0])
    assert len(choices) > 1


@pytest.mark.parametrize("preset", ["schnapsen", "sixty_six"])
def test_openspiel_ismcts_does_not_see_hidden_cards(preset):
    for seed in range(2):
        assert_blind_to_hidden_cards(ISMCTS, sixtysix.Game(preset), seed, worlds=3)


class _Recorder(OpenSpielMCTSAgent):
    """``openspiel-mcts`` keeping every state the protocol hands it."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, simulations=5)
        self.states = []

    def act_on_state(self, state):
        self.states.append(state)
        return super().act_on_state(state)


def test_the_cheating_bot_gets_a_copy_of_the_true_state():
    game = sixtysix.Game("schnapsen")
    recorder = _Recorder()
    result = agents.play_deal(game, (recorder, "random"), seed=4)
    assert result.error is None
    deck = game.new_deal(seed=4).deck
    actions = [action for _, action in result.history_ids]
    mine = [k for k, (player, _) in enumerate(result.history_ids) if player == 0]
    assert len(recorder.states) == len(mine) > 3
    for k, state in zip(mine, recorder.states, strict=True):  # each one kept as it was then
        true = game.replay(deck, result.dealer, actions[:k])
        assert np.array_equal(state.deck, true.deck) and state.history_ids == true.history_ids
        assert np.array_equal(state.array, true.array)
    with pytest.raises(TypeError, match="act_on_state"):
        recorder.act(true.view(0))


# ---- tournaments refuse cheating unless it is allowed ------------------------------------------


def test_a_tournament_refuses_the_cheating_bot_naming_it_and_the_flag(capsys, tmp_path):
    with pytest.raises(ValueError, match=r"agent 'openspiel-mcts:simulations=12' cheats .*"):
        TournamentConfig((MCTS, "random"), deals=1)
    with pytest.raises(ValueError, match=r"agents 'openspiel-mcts', '.*' cheat .*allow_cheat"):
        TournamentConfig(("openspiel-mcts", f"{__name__}:_Recorder", "random"), deals=1)
    code, output, err = cli_run(
        capsys, "tournament", "--agents", MCTS, "random", "--out", tmp_path / "t.parquet"
    )
    assert code == 2 and output == "" and list(tmp_path.iterdir()) == []
    assert (
        "sixtysix tournament: error: agent 'openspiel-mcts:simulations=12' cheats (it sees "
        "hidden cards: a reference only); give --allow-cheating (allow_cheating=True) to let "
        "it play"
    ) in err


def test_a_tournament_plays_the_cheating_bot_when_allowed(capsys, tmp_path):
    out = tmp_path / "t.parquet"
    line = ["--agents", MCTS, "random", "--deals", "2", "--preset", "schnapsen"]
    code, output, _ = cli_run(
        capsys, "tournament", *line, "--allow-cheating", "--workers", "1", "--out", out
    )
    assert code == 0 and "openspiel-mcts:simulations=12" in output
    config = TournamentConfig((MCTS, "random"), deals=2, preset="schnapsen", allow_cheating=True)
    frame = run_tournament(config, out, workers=1, quiet=True)  # the same configuration
    assert len(frame) == 4 and frame.error.eq("").all()
    assert replay_row(out, 1).differences == []  # read back, it needs no permission
