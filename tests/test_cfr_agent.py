"""The ``cfr`` agent (exact and MCCFR strategy files) and the exploitability of agents."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from sixtysix.experiments import exploitability
from test_agents import assert_blind_to_hidden_cards

import sixtysix
from sixtysix import agents
from sixtysix.theory import cfr, gametree, mccfr


@pytest.fixture(scope="module")
def mini_tree():
    return gametree.build("mini_2x3")


@pytest.fixture(scope="module")
def exact_file(tmp_path_factory):
    """A CFR+ strategy of mini_2x3 after 30 iterations."""
    path = tmp_path_factory.mktemp("cfr") / "mini.npz"
    cfr.solve("mini_2x3", iterations=30, progress=False).save(path)
    return path


@pytest.fixture(scope="module")
def abstract_file(tmp_path_factory):
    """An MCCFR strategy of sixty_six after a short training (most keys fall back)."""
    folder = tmp_path_factory.mktemp("mccfr") / "run"
    return mccfr.train("sixty_six", iterations=40, out=folder, checkpoint_every=40, progress=False)


def test_the_exact_agent_plays_the_files_policy(exact_file, mini_tree):
    strategy = cfr.load_strategy(exact_file)
    state = sixtysix.Game("mini_2x3").new_deal(seed=3)
    agent = agents.make(f"cfr:strategy={exact_file}", 1)
    while not state.is_terminal:
        view = state.view(state.current_player)
        assert agent.policy(view) == strategy.policy(view)
        state.apply(agent.act(view))


def test_the_spec_names_the_strategy_file(exact_file):
    agent = agents.make(f" cfr:strategy={exact_file} ", seed=7)
    assert (agent.spec, agent.seed) == (f"cfr:strategy={exact_file}", 7)


def test_act_samples_the_policy_with_the_agents_seed(exact_file):
    state = sixtysix.Game("mini_2x3").new_deal(seed=3)
    view = state.view(state.current_player)
    policy = agents.make(f"cfr:strategy={exact_file}").policy(view)
    draws = [agents.make(f"cfr:strategy={exact_file}", seed).act(view) for seed in range(400)]
    assert draws == [agents.make(f"cfr:strategy={exact_file}", s).act(view) for s in range(400)]
    for action, probability in policy.items():
        assert abs(draws.count(action) / 400 - probability) <= 4 * np.sqrt(0.25 / 400)


@pytest.mark.parametrize("kind", ["exact", "abstract"])
def test_the_cfr_agent_plays_legally_and_does_not_see_hidden_cards(kind, request):
    path = request.getfixturevalue(f"{kind}_file")
    game = sixtysix.Game("mini_2x3" if kind == "exact" else "sixty_six")
    spec = f"cfr:strategy={path}"
    for seed in range(3):
        assert_blind_to_hidden_cards(spec, game, seed, worlds=3)
        for pair in ((spec, "random"), ("heuristic", spec)):
            result = agents.play_deal(game, pair, seed=seed)
            assert result.error is None, result.error


def test_a_strategy_refuses_other_rules(exact_file, abstract_file):
    mini = sixtysix.Game("mini_2x4").new_deal(seed=1)
    with pytest.raises(ValueError, match="rules"):
        agents.make(f"cfr:strategy={exact_file}").act(mini.view(0))
    schnapsen = sixtysix.Game("schnapsen").new_deal(seed=1)
    with pytest.raises(ValueError, match="trained for the rules"):
        agents.make(f"cfr:strategy={abstract_file}").act(schnapsen.view(schnapsen.current_player))


def test_bad_strategy_files_are_named(tmp_path):
    with pytest.raises(ValueError, match="needs strategy=PATH"):
        agents.make("cfr")
    with pytest.raises(ValueError, match="'missing.npz': no such file"):
        agents.make("cfr:strategy=missing.npz")
    other = tmp_path / "other.npz"
    np.savez(other, numbers=np.arange(3))
    with pytest.raises(ValueError, match="is not a strategy file"):
        agents.make(f"cfr:strategy={other}")


# ---- the exploitability of agents -----------------------------------------------------------


def test_randoms_exploitability_is_the_uniform_policys(mini_tree):
    result = exploitability.agent_exploitability(
        "mini_2x3", "random", progress=False, tree=mini_tree
    )
    assert result.exact and result.information_sets == mini_tree.infosets
    uniform = cfr.exploitability(mini_tree, cfr.uniform_strategy(mini_tree))
    assert result.exploitability == pytest.approx(uniform, abs=1e-12)
    assert result.exploitability == pytest.approx(np.mean(result.best_response_values), abs=1e-12)


def test_a_solved_strategy_keeps_its_exploitability_as_an_agent(exact_file, mini_tree):
    spec = f"cfr:strategy={exact_file}"
    result = exploitability.agent_exploitability("mini_2x3", spec, progress=False, tree=mini_tree)
    assert result.exploitability == pytest.approx(cfr.load_strategy(exact_file).exploitability)


@pytest.fixture
def policyless_heuristic(tmp_path, monkeypatch):
    """A user's agent that plays the heuristic but has no policy(view)."""
    (tmp_path / "plain_bots.py").write_text(
        textwrap.dedent(
            """
            from sixtysix import agents

            class PlainHeuristic:
                def __init__(self, seed):
                    self.inner = agents.make("heuristic:worlds=0", seed)

                def act(self, view):
                    return self.inner.act(view)
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "plain_bots:PlainHeuristic"


def test_sampled_and_exact_tables_agree_for_a_deterministic_agent(mini_tree, policyless_heuristic):
    exact, is_exact = exploitability.agent_strategy(mini_tree, "heuristic:worlds=0", progress=False)
    sampled, sampled_exact = exploitability.agent_strategy(
        mini_tree, policyless_heuristic, samples=2, progress=False
    )
    assert is_exact and not sampled_exact
    np.testing.assert_array_equal(exact, sampled)


def test_agents_that_cannot_be_tabulated_are_refused(mini_tree):
    with pytest.raises(ValueError, match="looks at hidden cards"):
        exploitability.agent_strategy(mini_tree, "openspiel-mcts", progress=False)
    with pytest.raises(ValueError, match="invalid samples 0"):
        exploitability.agent_strategy(mini_tree, "ismcts", samples=0, progress=False)
    with pytest.raises(ValueError, match="exact CFR needs a mini preset"):
        exploitability.agent_exploitability("schnapsen", "random", progress=False)


def test_the_exploitability_command_names_what_it_cannot_tabulate(capsys, abstract_file):
    from sixtysix.commands import cli

    assert cli.main(["cfr", "exploitability", "--agent", "human"]) == 2
    assert "asks a person" in capsys.readouterr().err
    assert cli.main(["cfr", "exploitability", "--agent", f"cfr:strategy={abstract_file}"]) == 2
    assert "trained for the rules 'sixty_six', not 'mini_2x3'" in capsys.readouterr().err
