"""Our game tree, exact CFR / CFR+, best responses and strategy files, against OpenSpiel."""

from __future__ import annotations

import functools
import json
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr as openspiel_cfr
from open_spiel.python.algorithms.exploitability import exploitability as openspiel_exploitability

import sixtysix
import sixtysix.openspiel  # noqa: F401  (registers python_sixty_six)
from sixtysix.commands import cli
from sixtysix.engine import multi_core
from sixtysix.engine.actions import action_name
from sixtysix.theory import cfr, gametree

# Information sets of python_sixty_six per player (docs/mini_presets.md, section 4).
OPENSPIEL_INFOSETS = {"mini_2x3": (3344, 3994), "mini_2x4": (178994, 187586)}
# Exploitabilities on mini_2x3 by pyspiel.exploitability of the uniform policy and of
# OpenSpiel's solvers' average policies (tests/test_openspiel.py).
UNIFORM_EXPLOITABILITY = 0.8758333333333334
CFR_EXPLOITABILITY_10 = 0.10124567118433338
CFR_PLUS_EXPLOITABILITY_10 = 0.021724681458902467
CFR_PLUS_200_BELOW = 2e-4  # measured 1.14e-4


@functools.cache
def tree_of(preset: str = "mini_2x3") -> gametree.GameTree:
    return gametree.build(preset)


@functools.cache
def spiel_game(preset: str = "mini_2x3"):
    return pyspiel.load_game("python_sixty_six", {"preset": preset})


@functools.cache
def solved(iterations: int = 200) -> cfr.Solution:
    return cfr.solve("mini_2x3", iterations, progress=False)


def random_strategy(tree: gametree.GameTree, seed: int) -> np.ndarray:
    """A fixed random strategy: Dirichlet probabilities on each information set's actions."""
    weights = np.random.default_rng(seed).exponential(size=(tree.infosets, tree.max_actions))
    weights[np.arange(tree.max_actions) >= tree.infoset_actions[:, None]] = 0.0
    return weights / weights.sum(axis=1, keepdims=True)


# ---- the tree -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(OPENSPIEL_INFOSETS))
def test_information_sets_are_openspiels(preset):
    sizes = tree_of(preset).sizes
    assert sizes["information_sets"] == OPENSPIEL_INFOSETS[preset]


@pytest.mark.slow
def test_mini_2x4_long_has_the_size_of_the_issue():
    sizes = tree_of("mini_2x4_long").sizes
    assert sizes["roots"] == 28 * 15 * 24
    assert 2.9e6 < sizes["histories"] < 3.1e6
    assert 0.7e6 < sum(sizes["information_sets"]) < 0.8e6


def test_roots_are_openspiels_deals_with_their_probabilities():
    deals = {}
    stack = [(spiel_game().new_initial_state(), 1.0)]
    while stack:
        state, probability = stack.pop()
        if not state.is_chance_node():
            deals[tuple(state.engine.deck)] = probability
            continue
        stack.extend((state.child(card), probability * p) for card, p in state.chance_outcomes())
    tree = tree_of()
    assert sorted(deals) == sorted(map(tuple, tree.decks))
    assert np.allclose(list(deals.values()), 1 / tree.roots)
    assert np.allclose(tree.root_probability, 1 / tree.roots)


def test_the_arrays_describe_a_tree_in_breadth_first_order():
    tree = tree_of()
    nodes = np.arange(tree.nodes)
    inner = tree.player >= 0
    assert np.all(np.diff(tree.depth) >= 0)
    assert np.all(tree.parent[: tree.roots] == -1) and np.all(tree.depth[: tree.roots] == 0)
    assert np.all(tree.parent[tree.roots :] < nodes[tree.roots :])
    children = np.concatenate(
        [tree.first_child[n] + np.arange(tree.children[n]) for n in nodes[inner]]
    )
    assert np.array_equal(np.sort(children), nodes[tree.roots :])
    assert np.all(tree.parent[children] == np.repeat(nodes[inner], tree.children[inner]))
    assert np.all(tree.utility[inner] == 0) and np.all(tree.infoset[~inner] == -1)
    for node in (0, 100, 5000, tree.nodes - 1):  # the utility is the engine's outcome
        root, actions = tree.history(node)
        state = tree.game.replay(tree.decks[root], 1, actions)
        assert state.is_terminal == (tree.player[node] < 0)
        if state.is_terminal:
            winner, points, _ = state.outcome
            assert tree.utility[node] == (0 if winner is None else points * (1 - 2 * winner))
        else:
            assert state.legal_action_ids() == list(
                tree.infoset_legal[tree.infoset[node], : tree.children[node]]
            )


def test_each_information_set_is_one_view_key_and_back():
    tree = tree_of()
    keys = [tree.view_key(infoset) for infoset in range(tree.infosets)]
    assert len(set(keys)) == tree.infosets
    for node in np.flatnonzero(tree.player >= 0):
        root, actions = tree.history(node)
        view = tree.game.replay(tree.decks[root], 1, actions).view(int(tree.player[node]))
        assert view.key() == keys[tree.infoset[node]]
        assert tree.information_set_of(view) == tree.infoset[node]


def test_information_set_of_refuses_views_it_lacks():
    tree = tree_of()
    state = tree.game.replay(tree.decks[0], 1, [])
    with pytest.raises(ValueError, match="player must be to move"):
        tree.information_set_of(state.view(1))
    other = sixtysix.Game("mini_2x3").new_deal(deck=tree.decks[0], dealer=0)
    with pytest.raises(ValueError, match="dealer 0"):
        tree.information_set_of(other.view(1))
    with pytest.raises(ValueError, match="rules"):
        tree.information_set_of(sixtysix.Game("mini_2x4").new_deal(seed=1).view(0))


def test_build_from_shares_an_information_set_between_roots_a_player_cannot_tell_apart():
    tree = tree_of()
    hands = tree.observation[: tree.roots, 0]  # player 0's dealt hand and face-up card
    first, second = np.flatnonzero(hands == hands[0])[:2]
    records = np.zeros(2, dtype=multi_core.TWO_PLAYER_STATE_DTYPE)
    for record, root in zip(records, (first, second), strict=True):
        multi_core.deal(record, tree.game.rule_array[0], tree.decks[root], 1)
    blind = gametree.build_from(tree.game, records, [0.5, 0.5], [[7, 0], [7, 1]])
    assert blind.player[0] == blind.player[1] == 0
    assert blind.infoset[0] == blind.infoset[1]
    seeing = gametree.build_from(tree.game, records, [0.5, 0.5], [[7, 0], [8, 1]])
    assert seeing.infoset[0] != seeing.infoset[1]
    assert blind.infosets < seeing.infosets
    # The blind player cannot do better than against each world apart.
    for built in (blind, seeing):
        solver = cfr.CFRSolver(built)
        solver.iterate(300)
        assert solver.exploitability() < 1e-3
    blind_value = cfr.expected_value(blind, _solved_strategy(blind))
    seeing_value = cfr.expected_value(seeing, _solved_strategy(seeing))
    assert blind_value <= seeing_value + 1e-3


def _solved_strategy(tree):
    solver = cfr.CFRSolver(tree)
    solver.iterate(300)
    return solver.average_strategy()


def test_build_from_checks_its_arguments():
    records = np.zeros(1, dtype=multi_core.TWO_PLAYER_STATE_DTYPE)
    with pytest.raises(ValueError, match="one probability"):
        gametree.build_from("mini_2x3", records, [0.5, 0.5], [[0, 0]])
    with pytest.raises(ValueError, match="shape"):
        gametree.build_from("mini_2x3", records, [1.0], [0, 0])
    with pytest.raises(ValueError, match="2\\*\\*40"):
        gametree.build_from("mini_2x3", records, [1.0], [[-1, 0]])
    with pytest.raises(ValueError, match="STATE_DTYPE"):
        gametree.build_from("mini_2x3", np.zeros(1), [1.0], [[0, 0]])


# ---- exploitability and CFR against OpenSpiel ---------------------------------------------------


def test_exploitability_is_pyspiels():
    tree = tree_of()
    uniform = cfr.uniform_strategy(tree)
    assert cfr.exploitability(tree, uniform) == pytest.approx(UNIFORM_EXPLOITABILITY, abs=1e-9)
    strategy = random_strategy(tree, 5)
    policy = cfr.to_openspiel_policy(tree, strategy, spiel_game())
    assert np.allclose(cfr.from_openspiel_policy(tree, policy), strategy)
    ours = cfr.exploitability(tree, strategy)
    assert ours == pytest.approx(openspiel_exploitability(spiel_game(), policy), abs=1e-6)
    for played in (uniform, strategy):
        v0, v1 = cfr.best_response_values(tree, played)
        assert -v1 <= cfr.expected_value(tree, played) <= v0


@pytest.mark.parametrize(
    "variant, openspiel_solver, after_10",
    [
        ("cfr", openspiel_cfr.CFRSolver, CFR_EXPLOITABILITY_10),
        ("cfr+", openspiel_cfr.CFRPlusSolver, CFR_PLUS_EXPLOITABILITY_10),
    ],
)
def test_cfr_is_openspiels_solver(variant, openspiel_solver, after_10):
    tree = tree_of()
    ours, theirs = cfr.CFRSolver(tree, variant), openspiel_solver(spiel_game())
    for _ in range(2):
        ours.iterate(1)
        theirs.evaluate_and_update_policy()
        for mine, policy in (
            (ours.average_strategy(), theirs.average_policy()),
            (ours.current_strategy(), theirs.current_policy()),
        ):
            assert np.allclose(mine, cfr.from_openspiel_policy(tree, policy), atol=1e-12)
    ours.iterate(8)
    assert ours.exploitability() == pytest.approx(after_10, abs=1e-6)


def test_cfr_plus_converges():
    assert solved().exploitability < CFR_PLUS_200_BELOW
    curve = solved().curve
    assert list(curve[:, 0]) == list(range(10, 201, 10))
    assert curve[-1, 1] < curve[0, 1] < UNIFORM_EXPLOITABILITY
    assert np.all(np.diff(curve[:, 2]) >= 0)


@pytest.mark.slow
def test_cfr_plus_solves_mini_2x4_below_a_hundredth():
    solver = cfr.CFRSolver(tree_of("mini_2x4"))
    solver.iterate(100)
    assert solver.exploitability() < 0.01


def test_solver_and_strategy_checks():
    tree = tree_of()
    with pytest.raises(ValueError, match="invalid CFR variant 'dcfr'"):
        cfr.CFRSolver(tree, "dcfr")
    with pytest.raises(ValueError, match="shape"):
        cfr.exploitability(tree, np.ones((2, 2)))
    bad = cfr.uniform_strategy(tree)
    bad[3, 0] += 0.5
    with pytest.raises(ValueError, match="information set 3"):
        cfr.exploitability(tree, bad)
    with pytest.raises(ValueError, match="mini preset"):
        cfr.solve("sixty_six", 1)
    with pytest.raises(ValueError, match="iterations"):
        cfr.solve("mini_2x3", 0)


# ---- strategy files ---------------------------------------------------------------------------


def test_a_saved_strategy_plays_the_solvers_strategy_at_views_reached_by_play(tmp_path):
    solution = solved()
    path = solution.save(tmp_path / "mini.npz")
    loaded = cfr.ExactStrategy.load(path)
    assert (loaded.preset, loaded.variant, loaded.iterations) == ("mini_2x3", "cfr+", 200)
    assert loaded.exploitability == solution.exploitability
    tree = solution.tree
    assert np.array_equal(loaded.on_tree(tree), solution.strategy)
    rng = random.Random(3)
    mirror = sixtysix.Game("mini_2x3")
    for deal in range(30):
        dealer = deal % 2
        state = tree.game.new_deal(deck=tree.decks[rng.randrange(tree.roots)], dealer=dealer)
        while not state.is_terminal:
            view = state.view(state.current_player)
            policy = loaded.policy(view)
            assert sorted(policy) == view.legal_actions()
            assert sum(policy.values()) == pytest.approx(1.0)
            # Seen from dealer 1's game: the same cards, the seats' roles swapped if need be.
            same = mirror.replay(state.deck, 1, [action for _, action in state.history_ids])
            row = tree.information_set_of(same.view(state.current_player ^ dealer ^ 1))
            expected = solution.strategy[row, : len(policy)]
            legal = tree.infoset_legal[row, : len(policy)]
            assert [policy[action_name(a)] for a in legal] == list(expected)
            state.apply(rng.choice(state.legal_actions()))


def test_a_strategy_depends_only_on_the_view(tmp_path):
    solution = solved()
    loaded = cfr.ExactStrategy.load(solution.save(tmp_path / "mini.npz"))
    tree = solution.tree
    shared = np.bincount(tree.infoset[tree.player >= 0]) > 1
    infoset = int(np.flatnonzero(shared)[-1])
    nodes = np.flatnonzero(tree.infoset == infoset)[:2]
    views = []
    for node in nodes:
        root, actions = tree.history(node)
        state = tree.game.replay(tree.decks[root], 1, actions)
        views.append(state.view(int(tree.player[node])))
    assert not np.array_equal(*(tree.decks[tree.history(node)[0]] for node in nodes))
    assert loaded.policy(views[0]) == loaded.policy(views[1])


def test_strategy_files_refuse_what_they_do_not_hold(tmp_path):
    loaded = cfr.ExactStrategy.load(solved().save(tmp_path / "mini.npz"))
    state = sixtysix.Game("mini_2x4").new_deal(seed=1)
    with pytest.raises(ValueError, match="mini_2x4.*mini_2x3"):
        loaded.policy(state.view(0))
    state = sixtysix.Game("mini_2x3").new_deal(seed=1)
    with pytest.raises(ValueError, match="no decision"):
        loaded.policy(state.view(1 - state.current_player))
    with pytest.raises(ValueError, match="must end in .npz"):
        solved().save(tmp_path / "mini.parquet")
    (tmp_path / "junk.npz").write_text("junk")
    with pytest.raises(ValueError, match="junk.npz"):
        cfr.load_strategy(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", x=np.zeros(1))
    with pytest.raises(ValueError, match="not a CFR strategy file"):
        cfr.load_strategy(tmp_path / "other.npz")
    with pytest.raises(ValueError, match="missing.npz"):
        cfr.load_strategy(tmp_path / "missing.npz")


# ---- the command line ---------------------------------------------------------------------------


def test_cfr_solve_writes_the_strategy_and_the_plot(capsys, tmp_path):
    out = tmp_path / "solved.npz"
    argv = ["cfr", "solve", "--iterations", "30", "--eval-every", "10", "--out", str(out)]
    assert cli.main([*argv, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["exploitability"] == pytest.approx(solved().curve[2, 1], abs=1e-12)
    assert [row[0] for row in result["curve"]] == [10, 20, 30]
    assert out.is_file() and (tmp_path / "solved.png").is_file()
    assert cfr.load_strategy(out).iterations == 30
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    assert "exploitability" in text and str(out) in text


@pytest.mark.parametrize(
    "line, message",
    [
        ("--preset sixty_six", "cfr train"),
        ("--iterations 0", "invalid iterations 0"),
        ("--eval-every 0", "invalid eval-every 0"),
        ("--variant dcfr", "invalid choice: 'dcfr'"),
        ("--out results/x.parquet", "ending in .npz"),
    ],
)
def test_cfr_solve_refuses_bad_arguments(capsys, line, message):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["cfr", "solve", *line.split()])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_bench_cfr_measures_both_side_by_side(capsys):
    argv = ["bench", "cfr", "--iterations", "20", "--openspiel-iterations", "1", "--json"]
    assert cli.main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    for name in ("cfr", "cfr_plus"):
        for field in ("", "openspiel_binding_", "openspiel_python_"):
            assert result[f"{field}{name}_s_per_iteration"] > 0
        for kind in ("binding", "python"):
            assert result[f"{name}_speedup_over_{kind}"] > 0
    assert (result["information_sets_p0"], result["information_sets_p1"]) == (3344, 3994)


def test_information_set_values_weigh_histories_by_the_others_reach():
    """A plain-Python reference on mini_2x3 under a random strategy, and the root identity:
    the first movers' values, averaged by their strategy and chance, are the game's value."""
    tree = gametree.build("mini_2x3")
    rng = np.random.default_rng(5)
    strategy = rng.random((tree.infosets, tree.max_actions)) * (tree.infoset_legal >= 0)
    strategy /= strategy.sum(axis=1, keepdims=True)
    q = cfr.information_set_values(tree, strategy)
    values = tree.utility.astype(float).copy()
    for node in range(tree.nodes - 1, -1, -1):
        if tree.player[node] >= 0:
            kids = range(tree.first_child[node], tree.first_child[node] + tree.children[node])
            values[node] = sum(
                strategy[tree.infoset[node], k] * values[c] for k, c in enumerate(kids)
            )
    reach = np.ones((tree.nodes, 2))
    reach[: tree.roots] *= tree.root_probability[:, None]
    sums, weights = np.zeros_like(q), np.zeros(tree.infosets)
    for node in range(tree.nodes):
        mover = int(tree.player[node])
        if mover < 0:
            continue
        row, sign = tree.infoset[node], 1 - 2 * mover
        weights[row] += reach[node, mover]
        for k in range(tree.children[node]):
            child = tree.first_child[node] + k
            reach[child] = reach[node]
            reach[child, 1 - mover] *= strategy[row, k]
            sums[row, k] += reach[node, mover] * sign * values[child]
    legal = tree.infoset_legal >= 0
    np.testing.assert_allclose(q[legal], (sums / weights[:, None])[legal], rtol=1e-12)
    first = tree.infoset[: tree.roots]
    mean = sum(
        tree.root_probability[root]
        * (q[first[root]] * strategy[first[root]])[legal[first[root]]].sum()
        for root in range(tree.roots)
    )
    assert int(tree.infoset_player[first[0]]) == 0
    assert mean == pytest.approx(cfr.expected_value(tree, strategy), abs=1e-12)
