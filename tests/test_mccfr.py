"""MCCFR for the full game (sixtysix/theory/abstraction.py, sixtysix/theory/mccfr.py,
``cfr train``): the
abstraction sees only what the player to move may know and maps every abstract action to a
distinct legal action; training resumes exactly; the strategy plays a distribution over the
legal actions; bad configurations and bad command lines are refused by name."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import game_of
from test_view import hidden_swaps, make_deck, random_states, swapped_replay

from sixtysix.commands import cli
from sixtysix.engine.actions import action_name
from sixtysix.theory import mccfr
from sixtysix.theory.abstraction import (
    ABSTRACT_ACTION_NAMES,
    NUM_ABSTRACT_ACTIONS,
    abstract_node_array,
)
from sixtysix.theory.mccfr import heuristic_array

PRESETS = ("sixty_six", "schnapsen")
CLAIM_MODES = ("automatic", "manual", "optional_verified")
SMALL = dict(preset="schnapsen", checkpoint_every=7, prune_after=10, progress=False)


def node(record_array, game):
    """``(mask, key, concrete actions of the legal abstract actions)`` of the player to move."""
    out = np.full(NUM_ABSTRACT_ACTIONS, -1, dtype=np.int64)
    mask, key = abstract_node_array(record_array, game.rule_array, out)
    mask = int(mask)
    return mask, int(key), [int(out[a]) for a in range(NUM_ABSTRACT_ACTIONS) if mask >> a & 1]


def decisions(game, deals: int):
    """Every decision state of ``deals`` seeded deals played by random legal actions."""
    for seed in range(deals):
        for state in random_states(game, seed):
            if not state.is_terminal:
                yield state


def abstract_moves(state) -> dict[str, str]:
    """``{abstract action: concrete action}`` of the player to move."""
    mask, _, actions = node(state.array, state.game)
    names = [ABSTRACT_ACTION_NAMES[a] for a in range(NUM_ABSTRACT_ACTIONS) if mask >> a & 1]
    return dict(zip(names, map(action_name, actions), strict=True))


def test_abstract_actions_pick_the_cards_their_names_say():
    game = game_of("sixty_six")
    hands = (["TS", "9H", "JH", "AC", "QC", "KH"], ["AS", "9S", "JD", "KD", "QS", "JC"])
    state = game.new_deal(deck=make_deck(game, 1, hands, "9D"), dealer=1)  # diamonds trump
    # Player 0 leads: no trumps, no pair; his only plain master, the club ace, is his
    # highest card too, so lead-plain-master adds nothing.
    assert abstract_moves(state) == {
        "lead-low-plain": "play 9H",
        "lead-high-plain": "play AC",
        "close": "close",
    }
    state.apply("play TS")
    # Player 1 follows a ten: the ace wins in suit (and is the dearest winner), the jack of
    # trumps is the cheapest trump, the nine the cheapest loser.
    assert abstract_moves(state) == {
        "win-plain": "play AS",
        "win-trump": "play JD",
        "lose-cheap": "play 9S",
    }


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("claim_mode", CLAIM_MODES)
def test_every_abstract_action_maps_to_a_distinct_legal_action(preset, claim_mode):
    game = game_of(preset, claim_mode)
    kinds = set()
    for state in decisions(game, 40):
        mask, _, actions = node(state.array, game)
        legal = set(state.legal_action_ids())
        assert mask, f"no abstract action in {state}"
        assert set(actions) <= legal, f"{actions} not all legal in {state}: {sorted(legal)}"
        assert len(set(actions)) == len(actions), f"repeated actions {actions}"
        kinds |= {a for a in range(NUM_ABSTRACT_ACTIONS) if mask >> a & 1}
    assert len(kinds) >= 10, f"only abstract actions {sorted(kinds)} came up"


@pytest.mark.parametrize("preset", PRESETS)
def test_the_abstraction_does_not_see_hidden_cards(preset):
    game = game_of(preset)
    rng = np.random.default_rng(1)
    swaps = 0
    for state in decisions(game, 25):
        player = state.current_player
        view = state.view(player)
        expected = node(state.array, game)  # training reads the full record
        assert node(view.record, game) == expected  # play reads the blanked one
        for _, (a, b) in hidden_swaps(state, view, rng):
            other = swapped_replay(state, a, b)
            assert node(other.array, game) == expected
            assert node(other.view(player).record, game) == expected
            swaps += 1
    assert swaps > 100


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A short uninterrupted run and its strategy file."""
    folder = tmp_path_factory.mktemp("whole")
    return mccfr.train(iterations=30, out=folder, seed=5, **SMALL)


def test_resuming_gives_the_same_strategy_as_an_uninterrupted_run(trained, tmp_path):
    mccfr.train(iterations=12, out=tmp_path, seed=5, **SMALL)
    with np.load(tmp_path / mccfr.CHECKPOINT_NAME) as saved:
        assert int(saved["iterations"]) == 12
    resumed = mccfr.train(iterations=30, out=tmp_path, seed=5, **SMALL)
    with np.load(trained) as whole, np.load(resumed) as parts:
        assert len(whole["keys"]) > 100
        for name in ("keys", "probabilities", "iterations", "config"):
            assert np.array_equal(whole[name], parts[name]), name
    with np.load(trained.parent / mccfr.CHECKPOINT_NAME) as a:
        with np.load(tmp_path / mccfr.CHECKPOINT_NAME) as b:
            for name in ("slots", "regrets", "sums", "stream"):
                assert np.array_equal(a[name], b[name]), name


def test_a_changed_configuration_is_refused(trained):
    folder = trained.parent
    with pytest.raises(ValueError, match=r"seed 5 \(asked: 6\)"):
        mccfr.train(iterations=30, out=folder, seed=6, **SMALL)
    with pytest.raises(ValueError, match="preset 'schnapsen'.*asked: 'sixty_six'"):
        mccfr.train(**{**SMALL, "preset": "sixty_six"}, iterations=30, out=folder, seed=5)
    with pytest.raises(ValueError, match="has 30 iterations, more than the 20"):
        mccfr.train(iterations=20, out=folder, seed=5, **SMALL)


def test_the_policy_is_a_distribution_over_legal_actions(trained):
    strategy = mccfr.AbstractStrategy.load(trained)
    game = game_of("schnapsen")
    for state in decisions(game, 30):
        view = state.view(state.current_player)
        policy = strategy.policy(view)
        assert set(policy) <= set(view.legal_actions())
        assert min(policy.values()) >= 0
        assert sum(policy.values()) == pytest.approx(1.0, abs=1e-9)
    assert 0 < strategy.fallbacks < strategy.lookups  # short training leaves gaps


def test_unvisited_states_play_the_heuristic(trained):
    strategy = mccfr.AbstractStrategy.load(trained)
    empty = mccfr.AbstractStrategy(
        strategy.keys[:0], strategy.probabilities[:0], strategy.config, 0
    )
    game = game_of("schnapsen")
    for state in decisions(game, 5):
        view = state.view(state.current_player)
        _, _, actions = node(view.record, game)
        if len(actions) > 1:
            actions = [heuristic_array(view.record, game.rule_array)]
        assert empty.policy(view) == {action_name(int(actions[0])): 1.0}
    assert empty.fallbacks == empty.lookups > 0


def test_other_rules_are_refused(trained):
    strategy = mccfr.AbstractStrategy.load(trained)
    view = game_of("sixty_six").new_deal(seed=1).view(1)
    with pytest.raises(ValueError, match="trained for the rules 'schnapsen', not 'sixty_six'"):
        strategy.policy(view)


def test_a_full_table_is_a_clear_error(tmp_path):
    with pytest.raises(mccfr.TableFullError, match="capacity 1024 filled up"):
        mccfr.train(**{**SMALL, "capacity": 1024}, iterations=50, out=tmp_path)
    assert not (tmp_path / mccfr.STRATEGY_NAME).exists()


def test_corrupt_files_are_refused_by_name(tmp_path):
    bad = tmp_path / "bad.npz"
    np.savez(bad, keys=np.zeros(3))
    with pytest.raises(ValueError, match="not an MCCFR strategy file"):
        mccfr.AbstractStrategy.load(bad)
    (tmp_path / mccfr.CHECKPOINT_NAME).write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="unreadable checkpoint .*delete it"):
        mccfr.train(iterations=5, out=tmp_path, **SMALL)


def test_train_command_trains_and_resumes(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["cfr", "train", "--preset", "schnapsen", "--out", str(out), "--json"]
    assert cli.main([*argv, "--iterations", "8", "--prune-after", "3"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["iterations"] == 8 and first["keys"] > 0
    assert cli.main([*argv, "--iterations", "10", "--prune-after", "3"]) == 0
    assert json.loads(capsys.readouterr().out)["iterations"] == 10
    with pytest.raises(SystemExit, match="2"):
        cli.main([*argv, "--iterations", "12", "--seed", "3"])
    assert "seed 0 (asked: 3)" in capsys.readouterr().err


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--iterations", "0"], "invalid iterations 0"),
        (["--iterations", "ten"], "invalid iterations 'ten'"),
        (["--iterations", "5", "--capacity", "3000"], "capacity must be a power of two"),
        (["--iterations", "5", "--capacity", "many"], "invalid capacity 'many'"),
        (["--iterations", "5", "--preset", "bridge"], "invalid choice: 'bridge'"),
        (["--iterations", "5", "--seed", "-1"], "invalid seed -1"),
        (["--iterations", "5", "--checkpoint-every", "0"], "invalid checkpoint-every 0"),
        (["--iterations", "5", "--out", "results/x.npz"], "invalid run folder"),
        ([], "the following arguments are required: --iterations"),
    ],
)
def test_train_command_refuses_bad_input(arguments, message, capsys, tmp_path):
    argv = ["cfr", "train", *arguments]
    if "--out" not in arguments:
        argv += ["--out", str(tmp_path / "run")]
    with pytest.raises(SystemExit) as exit_code:
        cli.main(argv)
    assert exit_code.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
