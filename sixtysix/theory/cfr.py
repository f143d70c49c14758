"""Exact CFR and CFR+ over a ``GameTree`` (numba), exact best responses and exploitability.

The variants are OpenSpiel's Python solvers (``open_spiel.python.algorithms.cfr``) to
the letter: both update the players alternately (player 0's pass, then player 1's, each
valued with the current strategies and followed by a new current strategy from the
regrets), ``"cfr"`` (``CFRSolver``) with plain regret matching and uniform averaging,
``"cfr+"`` (``CFRPlusSolver``) with regret matching+ (negative cumulative regrets reset
to 0 after each pass) and linear averaging (iteration ``t`` weighs ``t``). An
information set without positive regret plays uniformly, and one never reached keeps a
uniform average.

A *strategy* is an array ``(information sets, tree.max_actions)``: the probabilities of
each information set's legal actions (``tree.infoset_legal``), zero beyond them.
``exploitability`` is ``(BR0 + BR1) / 2``, the best-response values of both players
against it, which is what ``pyspiel.exploitability`` returns for this zero-sum game.

``solve(preset, iterations)`` runs a solver with an exploitability curve;
``Solution.save`` writes it as an ``.npz`` that ``ExactStrategy.load`` reads back and
plays from a ``PlayerView`` without building the tree again.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from ..engine.actions import action_name
from ..engine.checks import check_integer
from ..engine.rules import MINI_PRESETS, rules_text
from ..game import Game
from ..view import PlayerView
from .gametree import STEP_SHIFT, GameTree, ObservationTrie, build, observations_of

VARIANTS = ("cfr+", "cfr")
FILE_FORMAT = 2  # the .npz layout of Solution.save (2: 32-card hands and 117 action ids)


def _check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise ValueError(f"invalid CFR variant {variant!r}: choose from {', '.join(VARIANTS)}")
    return variant


def uniform_strategy(tree: GameTree) -> np.ndarray:
    """Every legal action of every information set equally likely."""
    counts = tree.infoset_actions.astype(np.float64)[:, None]
    return (np.arange(tree.max_actions) < counts) / counts


def check_strategy(tree: GameTree, strategy) -> np.ndarray:
    """``strategy`` as a float64 array of the tree's shape, rows summing to 1 on the legal
    actions and 0 beyond them."""
    strategy = np.ascontiguousarray(strategy, dtype=np.float64)
    shape = (tree.infosets, tree.max_actions)
    if strategy.shape != shape:
        raise ValueError(f"a strategy of this tree has shape {shape}, not {strategy.shape}")
    legal = np.arange(tree.max_actions) < tree.infoset_actions[:, None]
    bad = np.any(strategy < 0, axis=1) | np.any(np.where(legal, 0.0, strategy) != 0, axis=1)
    bad |= np.abs(strategy.sum(axis=1) - 1) > 1e-9
    if np.any(bad):
        raise ValueError(
            f"invalid strategy at information set {int(np.argmax(bad))}: probabilities must be "
            ">= 0, sum to 1 and be 0 beyond the legal actions"
        )
    return strategy


# ---- kernels ---------------------------------------------------------------------------------


@njit(cache=True)
def _cfr_iterations(
    iterations,
    start,
    plus,
    player,
    slot,
    first_child,
    children,
    utility,
    root_probability,
    infoset_player,
    offset,
    strategy,
    regrets,
    cumulative,
    mine,
    other,
    values,
):
    """``iterations`` CFR iterations numbered from ``start + 1`` (alternating updates).

    The strategy, regrets and cumulative strategy are flat: information set ``i``'s
    actions at ``offset[i] .. offset[i + 1]``, node ``n``'s at ``slot[n]``. A node with one
    action needs no update: its regret stays 0 and its strategy 1. A node that neither
    player's strategy reaches is skipped, as OpenSpiel does: nothing below it updates, and
    its value weighs 0 in its parent's.
    """
    nodes = len(player)
    for iteration in range(start + 1, start + iterations + 1):
        weight = float(iteration) if plus else 1.0
        for own in range(2):
            # Forward: own's reach, and the opponent's times chance.
            for root in range(len(root_probability)):
                mine[root] = 1.0
                other[root] = root_probability[root]
            for node in range(nodes):
                mover = player[node]
                if mover < 0:
                    continue
                first = first_child[node]
                count = children[node]
                reach_mine, reach_other = mine[node], other[node]
                if count == 1:
                    mine[first], other[first] = reach_mine, reach_other
                    continue
                at = slot[node]
                for k in range(count):
                    if mover == own:
                        mine[first + k] = reach_mine * strategy[at + k]
                        other[first + k] = reach_other
                    else:
                        mine[first + k] = reach_mine
                        other[first + k] = reach_other * strategy[at + k]
            # Backward: values to own, regrets and the cumulative strategy of own's nodes.
            sign = 1.0 if own == 0 else -1.0
            for node in range(nodes - 1, -1, -1):
                mover = player[node]
                if mover < 0:
                    values[node] = sign * utility[node]
                    continue
                first = first_child[node]
                count = children[node]
                if count == 1:
                    values[node] = values[first]
                    continue
                if mine[node] == 0.0 and other[node] == 0.0:
                    values[node] = 0.0  # unreachable: no update below, weighs 0 above
                    continue
                at = slot[node]
                value = 0.0
                for k in range(count):
                    value += strategy[at + k] * values[first + k]
                values[node] = value
                if mover == own:
                    counterfactual = other[node]
                    if counterfactual != 0.0:
                        for k in range(count):
                            regrets[at + k] += counterfactual * (values[first + k] - value)
                    reach = weight * mine[node]
                    if reach != 0.0:
                        for k in range(count):
                            cumulative[at + k] += reach * strategy[at + k]
            _regret_matching(regrets, offset, infoset_player, own, plus, strategy)


@njit(cache=True)
def _regret_matching(regrets, offset, infoset_player, own, plus, strategy):
    """The current strategy of ``own``'s information sets from their cumulative regrets
    (regret matching+ first resets the negative ones to 0)."""
    for row in range(len(infoset_player)):
        begin, end = offset[row], offset[row + 1]
        if infoset_player[row] != own or end - begin == 1:
            continue
        positive = 0.0
        for k in range(begin, end):
            if plus and regrets[k] < 0:
                regrets[k] = 0.0
            if regrets[k] > 0:
                positive += regrets[k]
        for k in range(begin, end):
            if positive > 0:
                strategy[k] = max(regrets[k], 0.0) / positive
            else:
                strategy[k] = 1.0 / (end - begin)


@njit(cache=True)
def _best_response_value(
    responder,
    player,
    infoset,
    first_child,
    children,
    utility,
    root_probability,
    level_start,
    strategy,
    reach,
    values,
    action_values,
):
    """The value to ``responder`` of his best response to ``strategy``: one action per
    information set, the best against the opponent's and chance's reach (depth by depth)."""
    for root in range(len(root_probability)):
        reach[root] = root_probability[root]
    for node in range(len(player)):
        mover = player[node]
        if mover < 0:
            continue
        first = first_child[node]
        for k in range(children[node]):
            scale = 1.0 if mover == responder else strategy[infoset[node], k]
            reach[first + k] = reach[node] * scale
    action_values[:] = 0.0
    sign = 1.0 if responder == 0 else -1.0
    for depth in range(len(level_start) - 2, -1, -1):
        start, end = level_start[depth], level_start[depth + 1]
        for node in range(start, end):
            if player[node] == responder:
                row = infoset[node]
                first = first_child[node]
                for k in range(children[node]):
                    action_values[row, k] += reach[node] * values[first + k]
        for node in range(start, end):
            mover = player[node]
            if mover < 0:
                values[node] = sign * utility[node]
                continue
            row = infoset[node]
            first = first_child[node]
            if mover == responder:
                best = 0
                for k in range(1, children[node]):
                    if action_values[row, k] > action_values[row, best]:
                        best = k
                values[node] = values[first + best]
            else:
                value = 0.0
                for k in range(children[node]):
                    value += strategy[row, k] * values[first + k]
                values[node] = value
    return _root_mean(root_probability, values)


@njit(cache=True, inline="always")
def _root_mean(root_probability, values):
    """The roots' values weighed by their probabilities."""
    total = 0.0
    for root in range(len(root_probability)):
        total += root_probability[root] * values[root]
    return total


@njit(cache=True)
def _expected_value(player, infoset, first_child, children, utility, root_probability, strategy):
    values = np.empty(len(player))
    for node in range(len(player) - 1, -1, -1):
        if player[node] < 0:
            values[node] = utility[node]
            continue
        value = 0.0
        for k in range(children[node]):
            value += strategy[infoset[node], k] * values[first_child[node] + k]
        values[node] = value
    return _root_mean(root_probability, values)


@njit(cache=True)
def _information_set_values(
    player, infoset, first_child, children, utility, root_probability, strategy, q, weight
):
    """Sum into ``q`` (information sets x actions) each action's value to the mover, weighted
    by the others' reach (chance and the opponent), and that reach into ``weight``."""
    nodes = len(player)
    reach = np.empty((nodes, 2))  # reach[n, p]: chance times the strategy of all but p
    for root in range(len(root_probability)):
        reach[root, 0] = reach[root, 1] = root_probability[root]
    values = np.empty(nodes)
    for node in range(nodes):
        mover = player[node]
        for k in range(children[node] if mover >= 0 else 0):
            child = first_child[node] + k
            p = strategy[infoset[node], k]
            reach[child, mover] = reach[node, mover]
            reach[child, 1 - mover] = reach[node, 1 - mover] * p
    for node in range(nodes - 1, -1, -1):
        mover = player[node]
        if mover < 0:
            values[node] = utility[node]
            continue
        row = infoset[node]
        sign = 1.0 if mover == 0 else -1.0
        value = 0.0
        for k in range(children[node]):
            child_value = values[first_child[node] + k]
            value += strategy[row, k] * child_value
            q[row, k] += reach[node, mover] * sign * child_value
        weight[row] += reach[node, mover]
        values[node] = value


# ---- values of a strategy ------------------------------------------------------------------


def information_set_values(tree: GameTree, strategy) -> np.ndarray:
    """Each action's value (game points to the information set's player) when both play
    ``strategy`` from there on, the histories of the information set weighed by how likely
    chance and the opponent's strategy make them: rows in ``tree.infoset_legal`` order, NaN
    where the opponent's strategy never reaches the information set."""
    strategy = check_strategy(tree, strategy)
    q = np.zeros((tree.infosets, tree.max_actions))
    weight = np.zeros(tree.infosets)
    _information_set_values(*_node_arrays(tree), tree.root_probability, strategy, q, weight)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = q / weight[:, None]
    q[tree.infoset_legal < 0] = np.nan
    return q


def _node_arrays(tree: GameTree) -> tuple:
    return tree.player, tree.infoset, tree.first_child, tree.children, tree.utility


def best_response_values(tree: GameTree, strategy, *, checked: bool = True) -> tuple[float, float]:
    """``(v0, v1)``: each player's value (his own game points) when he best-responds to the
    other's part of ``strategy``."""
    strategy = check_strategy(tree, strategy) if checked else strategy
    reach, values = np.empty(tree.nodes), np.empty(tree.nodes)
    action_values = np.zeros((tree.infosets, tree.max_actions))
    return tuple(
        _best_response_value(
            responder,
            *_node_arrays(tree),
            tree.root_probability,
            tree.level_start,
            strategy,
            reach,
            values,
            action_values,
        )
        for responder in (0, 1)
    )


def exploitability(tree: GameTree, strategy) -> float:
    """``(BR0 + BR1) / 2``: as ``pyspiel.exploitability`` of the same policy."""
    return sum(best_response_values(tree, strategy)) / 2


def expected_value(tree: GameTree, strategy) -> float:
    """Player 0's expected game points when both play ``strategy``."""
    strategy = check_strategy(tree, strategy)
    return _expected_value(*_node_arrays(tree), tree.root_probability, strategy)


# ---- the solver -------------------------------------------------------------------------------


@njit(cache=True)
def _padded(flat, offset, width, normalize):
    """A flat per-action array as a strategy-shaped one; ``normalize``: each information
    set's share of its total (uniform for a total of 0)."""
    padded = np.zeros((len(offset) - 1, width))
    for row in range(len(offset) - 1):
        begin, end = offset[row], offset[row + 1]
        total = 0.0
        for k in range(begin, end):
            total += flat[k]
        for k in range(begin, end):
            if not normalize:
                padded[row, k - begin] = flat[k]
            elif total > 0:
                padded[row, k - begin] = flat[k] / total
            else:
                padded[row, k - begin] = 1.0 / (end - begin)
    return padded


class CFRSolver:
    """Exact CFR (``variant="cfr"``) or CFR+ (``"cfr+"``) over a tree, as OpenSpiel's
    ``CFRSolver`` and ``CFRPlusSolver``."""

    def __init__(self, tree: GameTree, variant: str = "cfr+") -> None:
        self.tree = tree
        self.variant = _check_variant(variant)
        self.iteration = 0
        self._offset = np.zeros(tree.infosets + 1, dtype=np.int64)
        np.cumsum(tree.infoset_actions, out=self._offset[1:])
        slot = np.where(tree.infoset >= 0, self._offset[np.maximum(tree.infoset, 0)], -1)
        self._slot = slot.astype(np.int32)
        self._strategy = uniform_strategy(tree)[
            np.arange(tree.max_actions) < tree.infoset_actions[:, None]
        ]
        self._regrets = np.zeros(len(self._strategy))
        self._cumulative = np.zeros(len(self._strategy))
        self._buffers = tuple(np.empty(tree.nodes) for _ in range(3))

    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` more iterations."""
        iterations = check_integer(iterations, "iterations", 0)
        tree = self.tree
        _cfr_iterations(
            iterations,
            self.iteration,
            self.variant == "cfr+",
            tree.player,
            self._slot,
            tree.first_child,
            tree.children,
            tree.utility,
            tree.root_probability,
            tree.infoset_player,
            self._offset,
            self._strategy,
            self._regrets,
            self._cumulative,
            *self._buffers,
        )
        self.iteration += iterations

    def current_strategy(self) -> np.ndarray:
        """The strategy of the next iteration (from the regrets)."""
        return _padded(self._strategy, self._offset, self.tree.max_actions, False)

    def cumulative_regrets(self) -> np.ndarray:
        """The cumulative regrets (after the reset of regret matching+)."""
        return _padded(self._regrets, self._offset, self.tree.max_actions, False)

    def average_strategy(self) -> np.ndarray:
        """The (linearly, for CFR+) averaged strategy: the one that converges. Information
        sets never reached average to uniform."""
        return _padded(self._cumulative, self._offset, self.tree.max_actions, True)

    def exploitability(self) -> float:
        """The average strategy's exploitability."""
        return sum(best_response_values(self.tree, self.average_strategy(), checked=False)) / 2


# ---- OpenSpiel policies ---------------------------------------------------------------------


def _policy_rows(tree: GameTree, policy) -> np.ndarray:
    """The row of each information set in a ``TabularPolicy`` (by view key)."""
    lookup = getattr(policy, "state_lookup", None)
    if lookup is None:
        raise ValueError(f"expected an OpenSpiel TabularPolicy, got {type(policy).__name__}")
    if len(lookup) != tree.infosets:
        raise ValueError(
            f"the policy has {len(lookup)} information states, the tree {tree.infosets}: "
            "not the same game"
        )
    try:
        return np.array([lookup[tree.view_key(row)] for row in range(tree.infosets)])
    except KeyError as error:
        raise ValueError(f"the policy lacks the information state {error}: another game") from None


def to_openspiel_policy(tree: GameTree, strategy, spiel_game):
    """``strategy`` as an OpenSpiel ``TabularPolicy`` of ``spiel_game`` (its
    ``python_sixty_six``), keyed by information-state strings (view keys)."""
    from open_spiel.python.policy import TabularPolicy

    strategy = check_strategy(tree, strategy)
    policy = TabularPolicy(spiel_game)
    rows = _policy_rows(tree, policy)
    table = policy.action_probability_array
    table[rows] = 0.0
    for k in range(tree.max_actions):
        has = tree.infoset_actions > k
        table[rows[has], tree.infoset_legal[has, k]] = strategy[has, k]
    return policy


def from_openspiel_policy(tree: GameTree, policy) -> np.ndarray:
    """A ``TabularPolicy`` of the tree's game as a strategy of the tree."""
    rows = _policy_rows(tree, policy)
    legal = np.maximum(tree.infoset_legal, 0)
    strategy = np.take_along_axis(policy.action_probability_array[rows], legal, axis=1)
    strategy[tree.infoset_legal < 0] = 0.0
    return check_strategy(tree, strategy)


# ---- solving and saving -----------------------------------------------------------------------


@dataclass
class Solution:
    """A solved mini preset: the average strategy over ``tree`` after ``iterations`` and
    the exploitability curve, rows ``(iteration, exploitability, seconds of CFR)``."""

    preset: str
    variant: str
    iterations: int
    tree: GameTree
    strategy: np.ndarray
    curve: np.ndarray
    build_seconds: float

    @property
    def exploitability(self) -> float:
        return float(self.curve[-1, 1])

    @property
    def seconds(self) -> float:
        return float(self.curve[-1, 2])

    def save(self, path: str | os.PathLike) -> Path:
        """Write the solution as an ``.npz`` (atomically: a temporary file, then a rename)."""
        path = Path(path)
        if path.suffix != ".npz":
            raise ValueError(f"invalid strategy file {str(path)!r}: the name must end in .npz")
        tree = self.tree
        keep = _observations_to_keep(tree.trie.parent, tree.observation_infoset >= 0)
        renumber = np.cumsum(keep) - 1
        parent = tree.trie.parent[keep]
        arrays = {
            "format": np.int64(FILE_FORMAT),
            "preset": np.str_(self.preset),
            "rules_text": np.str_(rules_text(tree.game.rules)),
            "variant": np.str_(self.variant),
            "iterations": np.int64(self.iterations),
            "dealer": np.int64(tree.dealer),
            "curve": self.curve,
            "observation_parent": np.where(parent >= 0, renumber[parent], -1).astype(np.int32),
            "observation_step": tree.trie.step[keep],
            "observation_infoset": tree.observation_infoset[keep],
            "infoset_player": tree.infoset_player,
            "infoset_legal": tree.infoset_legal,
            "strategy": self.strategy,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.stem}.{os.getpid()}.partial.npz")
        try:
            with open(temporary, "wb") as file:
                np.savez_compressed(file, **arrays)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise
        return path

    def plot(self, path: str | os.PathLike) -> Path:
        """Save the exploitability curve, log-log, as an image (``.png``)."""
        from matplotlib.figure import Figure

        figure = Figure(figsize=(6, 4), layout="constrained")
        axes = figure.subplots()
        axes.loglog(self.curve[:, 0], self.curve[:, 1], marker=".")
        axes.set_xlabel("iterations")
        axes.set_ylabel("exploitability (game points)")
        axes.set_title(f"{self.variant.upper()} on {self.preset}")
        axes.grid(True, which="both", alpha=0.3)
        figure.savefig(path, dpi=120)
        return Path(path)


@njit(cache=True)
def _observations_to_keep(parent, needed):
    """The observation ids on the way to a needed one (parents precede their children)."""
    keep = needed.copy()
    for observation in range(len(parent) - 1, -1, -1):
        if keep[observation] and parent[observation] >= 0:
            keep[parent[observation]] = True
    return keep


def check_mini_preset(preset: str) -> str:
    """``preset`` if it is a mini preset (the others are far too large for exact CFR)."""
    if preset not in MINI_PRESETS:
        raise ValueError(
            f"exact CFR needs a mini preset ({', '.join(MINI_PRESETS)}); the game tree of "
            f"{preset!r} is far too large to build: train an abstraction with "
            "'sixtysix cfr train' (MCCFR) instead"
        )
    return preset


def evaluation_points(iterations: int, eval_every: int) -> list[int]:
    """The iterations after which ``solve`` measures exploitability: every ``eval_every``-th
    and the last."""
    points = list(range(eval_every, iterations + 1, eval_every))
    return points if points and points[-1] == iterations else [*points, iterations]


def solve(
    preset: str,
    iterations: int,
    variant: str = "cfr+",
    eval_every: int | None = None,
    progress: bool = True,
) -> Solution:
    """Solve a mini preset with ``iterations`` of CFR or CFR+, measuring the average
    strategy's exploitability every ``eval_every`` iterations (default: 20 times) and at
    the end."""
    check_mini_preset(preset)
    iterations = check_integer(iterations, "iterations", 1)
    variant = _check_variant(variant)
    if eval_every is None:
        eval_every = max(1, iterations // 20)
    eval_every = check_integer(eval_every, "eval_every", 1)
    from tqdm import tqdm

    start = time.perf_counter()
    tree = build(Game(preset))
    build_seconds = time.perf_counter() - start
    solver = CFRSolver(tree, variant)
    curve = []
    seconds = 0.0
    with tqdm(total=iterations, desc=f"{variant} {preset}", unit="it", disable=not progress) as bar:
        for point in evaluation_points(iterations, eval_every):
            start = time.perf_counter()
            steps = point - solver.iteration
            solver.iterate(steps)
            seconds += time.perf_counter() - start
            curve.append((point, solver.exploitability(), seconds))
            bar.update(steps)
            bar.set_postfix(exploitability=f"{curve[-1][1]:.3g}")
    return Solution(
        preset=preset,
        variant=variant,
        iterations=iterations,
        tree=tree,
        strategy=solver.average_strategy(),
        curve=np.array(curve, dtype=np.float64),
        build_seconds=build_seconds,
    )


class ExactStrategy:
    """A strategy saved by ``Solution.save``, played from a ``PlayerView``.

    Solved for one dealer, it plays either seat: the seats' roles (dealer, non-dealer)
    are what matter, and the rules treat both alike.
    """

    def __init__(self, arrays: dict, path: str) -> None:
        self.path = path
        self.preset = str(arrays["preset"])
        self.rules_text = str(arrays["rules_text"])
        self.variant = str(arrays["variant"])
        self.iterations = int(arrays["iterations"])
        self.dealer = int(arrays["dealer"])
        self.curve = arrays["curve"]
        self.trie = ObservationTrie(arrays["observation_parent"], arrays["observation_step"])
        self.observation_infoset = arrays["observation_infoset"]
        self.infoset_player = arrays["infoset_player"]
        self.infoset_legal = arrays["infoset_legal"]
        self.strategy = arrays["strategy"]

    @classmethod
    def load(cls, path: str | os.PathLike) -> ExactStrategy:
        """Read a strategy file; a missing or foreign file is a ValueError naming it."""
        path = str(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError) as error:
            raise ValueError(f"cannot read the CFR strategy file {path!r}: {error}") from None
        if int(arrays.get("format", -1)) != FILE_FORMAT:
            raise ValueError(
                f"{path!r} is not a CFR strategy file of format {FILE_FORMAT} "
                "(written by 'sixtysix cfr solve')"
            )
        return cls(arrays, path)

    @property
    def exploitability(self) -> float:
        """The exploitability measured when it was saved."""
        return float(self.curve[-1, 1])

    def information_set(self, view: PlayerView) -> int:
        """The row of ``view`` (its player to move) in ``strategy``."""
        if rules_text(view.game.rules) != self.rules_text:
            raise ValueError(
                f"the view's rules ({rules_text(view.game.rules)}) are not the rules of the "
                f"strategy {self.path!r} ({self.rules_text})"
            )
        player = view.player if view.dealer == self.dealer else 1 - view.player
        observation = self.trie.find(*observations_of(view, player))
        infoset = int(self.observation_infoset[observation]) if observation >= 0 else -1
        if infoset < 0 or not view.is_my_turn:
            raise ValueError(f"the strategy {self.path!r} has no decision at the view {view!r}")
        return infoset

    def policy(self, view: PlayerView) -> dict[str, float]:
        """``{action string: probability}`` over the view's legal actions."""
        row = self.information_set(view)
        count = int(np.count_nonzero(self.infoset_legal[row] >= 0))
        legal = [int(action) for action in self.infoset_legal[row, :count]]
        assert legal == view.legal_action_ids(), "a strategy file out of step with the engine"
        return {action_name(a): float(p) for a, p in zip(legal, self.strategy[row], strict=False)}

    def on_tree(self, tree: GameTree) -> np.ndarray:
        """The strategy as a strategy of ``tree`` (built with the same rules and dealer)."""
        if rules_text(tree.game.rules) != self.rules_text or tree.dealer != self.dealer:
            raise ValueError(
                f"the tree ({rules_text(tree.game.rules)}, dealer {tree.dealer}) is not the game "
                f"of {self.path!r} ({self.rules_text}, dealer {self.dealer})"
            )
        mine = _map_observations(
            tree.trie.parent, tree.trie.step, self.trie._keys, self.trie._order
        )
        rows = np.take(mine, tree.observation[tree.infoset_node, tree.infoset_player])
        if np.any(rows < 0):
            raise ValueError(f"{self.path!r} lacks information sets of the tree")
        strategy = np.zeros((tree.infosets, tree.max_actions))
        width = min(tree.max_actions, self.strategy.shape[1])
        strategy[:, :width] = self.strategy[self.observation_infoset[rows], :width]
        return check_strategy(tree, strategy)


@njit(cache=True)
def _map_observations(parent, step, keys, order):
    """The id in another trie (sorted ``keys`` with ``order``) of each observation id, -1
    where it has none."""
    mapped = np.full(len(parent), -1, dtype=np.int64)
    for observation in range(len(parent)):
        if parent[observation] < 0:
            key = -1 - step[observation]
        elif mapped[parent[observation]] < 0:
            continue
        else:
            key = mapped[parent[observation]] << STEP_SHIFT | step[observation]
        at = np.searchsorted(keys, key)
        if at < len(keys) and keys[at] == key:
            mapped[observation] = order[at]
    return mapped


def load_strategy(path: str | os.PathLike) -> ExactStrategy:
    """``ExactStrategy.load(path)``."""
    return ExactStrategy.load(path)
