"""Monte Carlo tree search agents in numba: determinized MCTS (``dmcts``) and single-observer
information-set MCTS (``ismcts``, Cowling, Powley and Whitehouse 2012).

Both search from the two-player table record ``worlds.hide_from`` leaves the searcher
(``view.record``) and draw uniform consistent worlds straight into such records
(``worlds.sample_world_record``).

* ``dmcts`` samples ``worlds`` worlds and grows one UCT tree per world (nodes are states of
  that world); the budget of ``iterations`` is split evenly across the worlds (the first
  ``iterations % worlds`` worlds get one more). The root statistics are summed per root
  action over the worlds.
* ``ismcts`` grows one tree over the searcher's information sets: a node is the sequence of
  actions (the searcher's and the opponent's alike) from the root. Each iteration draws a
  fresh world; selection and expansion see only the actions legal in it, and UCB uses
  each child's availability count (how often it was legal when its parent was passed)
  in place of the parent's visits.

One iteration: from the root, while every action legal here has a child, move to the child
of highest ``mean + c * sqrt(ln(parent) / visits)`` (the first action id on ties); then add
a child for one untried legal action, drawn uniformly (an index into the untried action
ids, ascending), and value its position: the outcome if the deal is over, else, with
``solver``, the exact open-hand value (``solver.solve_record``) once the talon is closed or
exhausted, else a ``random`` or ``heuristic`` rollout to the end of the deal. A position the
solver valued (or an ended one) is a leaf: later iterations stop there (``dmcts`` keeps its
exact value; ``ismcts`` solves it again in each new world). Play in the tree and in
rollouts goes through ``multi_core.apply_with_knowledge``, which keeps the public knowledge
of the hands (``shown``, ``excluded``) that the heuristic rollout reads.

Rewards: the deal's signed game points from the searcher's point of view divided by
``rules.max_game_points``, so in [-1, 1]. A node keeps its visits and the sum of game points
(integers, so sums are exact) from the point of view of the player who moved into it; its
mean reward is that sum over ``visits * max_game_points``. The agent plays the root action
with the most visits (ties drawn from its stream); with a single legal action it plays it
without searching.

With ``infer=true`` the worlds are not uniform: ``candidates`` uniform worlds are drawn and
weighed by the likelihood of the opponent's actions so far, and resampled in proportion
(``agents.world_weights``); each world the search draws is one of these, uniformly.

A whole decision is one compiled call (``search``) on buffers allocated once per agent:
the node pool (``Pool``, sized from the budget: each iteration adds at most one node; a
node's children are indexed by action id, ``NUM_ACTIONS`` of them, and its expanded actions
are a two-word set like the legal one) and a solver workspace. Every random draw comes from
the agent's stream (``policies.new_stream(seed)``), which each decision advances.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sixtysix.engine import multi_core as mc
from sixtysix.engine.actions import action_name
from sixtysix.engine.bits import popcount
from sixtysix.engine.checks import check_bool, check_integer
from sixtysix.engine.solver import (
    NO_HORIZON,
    check_rules,
    new_workspace,
    signed_outcome,
    solve_record,
)
from sixtysix.engine.worlds import sample_world_record
from sixtysix.table_view import TableView

from . import policies
from .base import Agent, strict_phase
from .pimc import PimcAgent
from .search_tree import (
    DMCTS,
    ISMCTS,
    UNSOLVED,
    expand_or_select,
    merge_root,
    most_visited,
    new_pool,
    reset_tree,
)
from .world_weights import check_inference, inferred_worlds

ROLLOUTS = {"random": policies.RANDOM, "heuristic": policies.HEURISTIC}
MAX_ITERATIONS = 4_000_000  # about 2.1 GB of nodes


# ---- the tree --------------------------------------------------------------------------------


@njit(cache=True)
def _legal(state, rules):
    """``multi_core.legal_masks``, compiled once for the callers here."""
    return mc.legal_masks(state, rules)


@njit(cache=True, inline="always")
def _is_leaf(state, use_solver):
    """Whether search stops at ``state``: the deal is over, or the solver values it."""
    return state.phase == mc.OVER or (use_solver and not mc.talon_open(state))


@njit(cache=True)
def _value(pool, workspace, rules_array, bound, rollout, use_solver, stream):
    """The value (game points, player 0's view) of ``pool.scratch[0]``: its outcome, its
    exact value under ``use_solver`` in the strict phase, else a rollout's outcome."""
    state = pool.scratch[0]
    if state.phase != mc.OVER and use_solver and not mc.talon_open(state):
        return solve_record(workspace, rules_array, pool.scratch, bound, NO_HORIZON)[0]
    rules = rules_array[0]
    while state.phase != mc.OVER:
        action = policies.policy_action(rollout, 0.0, state, rules, stream)
        mc.apply_with_knowledge(state, rules, action)
    return signed_outcome(state)


@njit(cache=True)
def _iterate(kind, pool, workspace, rules_array, c, rollout, use_solver, bound, stream):
    """One iteration from the world in ``pool.scratch[0]``: select, expand, value, back up."""
    rules = rules_array[0]
    state = pool.scratch[0]
    node = 0
    depth = 0
    while True:
        if depth > 0 and _is_leaf(state, use_solver):
            value = pool.exact[node]
            if value == UNSOLVED:
                value = _value(pool, workspace, rules_array, bound, rollout, use_solver, stream)
                if kind == DMCTS:
                    pool.exact[node] = value
            break
        low, high = _legal(state, rules)
        action, untried = expand_or_select(kind, pool, node, low, high, c, bound, stream)
        depth += 1
        node = pool.children[node, action]
        pool.path[depth] = node
        pool.movers[depth] = state.to_move
        mc.apply_with_knowledge(state, rules, action)
        if untried:
            leaf = _is_leaf(state, use_solver)
            value = _value(pool, workspace, rules_array, bound, rollout, use_solver, stream)
            if kind == DMCTS and leaf:
                pool.exact[node] = value
            break
    pool.visits[0] += 1
    for k in range(1, depth + 1):
        node = pool.path[k]
        pool.visits[node] += 1
        pool.points[node] += value if pool.movers[k] == 0 else -value


@njit(cache=True, inline="always")
def _draw_world(stream, into, view, opponent, allowed, unknown, hidden_opponent, ordered, inferred):
    """A world of the view into ``into[0]``, drawn from ``stream``: one of the ``inferred``
    worlds if there are any, else a uniform one."""
    if len(inferred):
        into[0] = inferred[policies.draw_below(stream, len(inferred))]
        return
    rng = (stream[0], stream[1], stream[2], stream[3])
    rng = sample_world_record(
        rng, into, 0, view, opponent, allowed, unknown, hidden_opponent, ordered
    )
    stream[0], stream[1], stream[2], stream[3] = rng


@njit(cache=True)
def search(
    kind,
    pool,
    workspace,
    view_array,
    rules_array,
    opponent,
    allowed,
    unknown,
    hidden_opponent,
    ordered,
    stream,
    worlds,
    iterations,
    c,
    rollout,
    use_solver,
    bound,
    inferred,
):
    """One decision of ``kind`` (``DMCTS`` or ``ISMCTS``) for the blanked record
    ``view_array[0]``, whose worlds are given by the ``WorldSpec`` numbers (or drawn from
    the ``inferred`` world records, if any): the action id.

    ``pool.root_visits`` and ``pool.root_points`` get the root statistics per action id
    (zero with a single legal action, which is played without search). ``worlds`` counts
    only for ``DMCTS``.
    """
    view = view_array[0]
    rules = rules_array[0]
    low, high = _legal(view, rules)
    pool.root_visits[:] = 0
    pool.root_points[:] = 0
    if popcount(low) + popcount(high) == 1:
        return policies.nth_action(low, high, 0)
    if kind == DMCTS:
        for w in range(worlds):
            _draw_world(
                stream,
                pool.world,
                view,
                opponent,
                allowed,
                unknown,
                hidden_opponent,
                ordered,
                inferred,
            )
            reset_tree(pool)
            for _ in range(iterations // worlds + (1 if w < iterations % worlds else 0)):
                pool.scratch[0] = pool.world[0]
                _iterate(kind, pool, workspace, rules_array, c, rollout, use_solver, bound, stream)
            merge_root(pool, low, high)
    else:
        reset_tree(pool)
        for _ in range(iterations):
            _draw_world(
                stream,
                pool.scratch,
                view,
                opponent,
                allowed,
                unknown,
                hidden_opponent,
                ordered,
                inferred,
            )
            _iterate(kind, pool, workspace, rules_array, c, rollout, use_solver, bound, stream)
        merge_root(pool, low, high)
    return most_visited(pool.root_visits, low, high, stream)


# ---- the agents ------------------------------------------------------------------------------


def _check_c(c) -> float:
    if isinstance(c, bool) or not isinstance(c, int | float) or not 0.0 <= c < math.inf:
        raise ValueError(f"invalid c {c!r}: c must be a finite number >= 0")
    return float(c)


def _check_rollout(rollout) -> int:
    if rollout not in ROLLOUTS:
        valid = " or ".join(ROLLOUTS)
        raise ValueError(f"invalid rollout {rollout!r}: rollout must be {valid}")
    return ROLLOUTS[rollout]


class _TreeSearchAgent(Agent):
    """The shared agent: checked parameters, the pool, the solver workspace and the stream."""

    kind = DMCTS

    def __init__(
        self, seed, iterations, c, rollout, solver, worlds, capacity, infer, model_noise, candidates
    ) -> None:
        super().__init__(seed)
        self.infer = check_bool(infer, "infer")
        self.model_noise, self.candidates = check_inference(model_noise, candidates)
        self.worlds = worlds
        self.iterations = iterations
        self.c = _check_c(c)
        self.rollout = rollout
        self._rollout = _check_rollout(rollout)
        self.solver = check_bool(solver, "solver")
        self._pool = new_pool(capacity)
        self._workspace = new_workspace()
        self._stream = policies.new_stream(self.seed)
        self._table = None  # the TableTreeSearch that plays table views, made on first use

    def act(self, view) -> str:
        if isinstance(view, TableView):
            if self._table is None:
                from .table_search_agents import TableTreeSearch

                self._table = TableTreeSearch(
                    self.kind,
                    self.seed,
                    self._pool,
                    self.worlds,
                    self.iterations,
                    self.c,
                    self._rollout,
                    self.solver,
                    (self.model_noise, self.candidates) if self.infer else None,
                )
            return self._table.act(view)
        game = view.game
        if self.solver:
            check_rules(game)
        spec = view.world_spec()
        inferred = (
            inferred_worlds(view, self._stream, self.candidates, self.candidates, self.model_noise)
            if self.infer
            else np.zeros(0, dtype=view.record.dtype)
        )
        action = search(
            self.kind,
            self._pool,
            self._workspace,
            view.record,
            game.rule_array,
            *spec.record_arguments,
            self._stream,
            self.worlds,
            self.iterations,
            self.c,
            self._rollout,
            self.solver,
            game.rules.max_game_points,
            inferred,
        )
        return action_name(action)

    def root_statistics(self) -> dict[int, tuple[int, int]]:
        """The last decision's root statistics: action id -> (visits, game points summed
        from the searcher's view); empty after a decision with a single legal action."""
        pool = self._pool
        return {
            int(action): (int(pool.root_visits[action]), int(pool.root_points[action]))
            for action in np.flatnonzero(pool.root_visits)
        }


class DeterminizedMCTSAgent(_TreeSearchAgent):
    """``dmcts``: one UCT tree per sampled world, root statistics summed over the worlds.

    Defaults as measured against ``heuristic`` on ``schnapsen`` and ``sixty_six``: many
    small trees beat a few big ones, more iterations gained nothing, and ``solver`` lost
    strength (perfect play after a close, in each world, overrates closing); 32 worlds
    keep a decision near ``pimc``'s time."""

    kind = DMCTS

    def __init__(
        self,
        seed: int = 0,
        worlds: int = 32,
        iterations: int = 30000,
        c: float = 0.7,
        rollout: str = "heuristic",
        solver: bool = False,
        infer: bool = False,
        model_noise: float = 0.3,
        candidates: int = 512,
    ) -> None:
        worlds = check_integer(worlds, "worlds", 1, MAX_ITERATIONS + 1)
        iterations = check_integer(iterations, "iterations", worlds, MAX_ITERATIONS + 1)
        per_world = -(-iterations // worlds)
        super().__init__(
            seed,
            iterations,
            c,
            rollout,
            solver,
            worlds,
            per_world + 1,
            infer,
            model_noise,
            candidates,
        )


class InformationSetMCTSAgent(_TreeSearchAgent):
    """``ismcts``: one tree over the searcher's information sets, a fresh world each
    iteration, availability counts in UCB.

    Defaults as measured: 10,000 iterations keep a decision near ``pimc``'s time and
    played as well against ``heuristic`` as 30,000; 40,000 beat 10,000 head to head
    (docs/agents.md); ``solver`` was no stronger against ``heuristic`` and slower.

    ``pimc_worlds`` (0, the default, for none) hands two kinds of two-player decision to a
    PIMC judge over that many worlds (the ``pimc`` agent at its horizon, on a stream of
    its own): where closing is legal the agent closes if PIMC values closing above every
    other action, and otherwise searches; once the talon is closed or exhausted PIMC plays
    (exact there). At a table the tree takes every decision, as ``heuristic`` counts only
    in two-player games. Measured on ``schnapsen`` it won as many deals as the tree alone,
    closing more often, at about four fifths of its time per decision (docs/agents.md)."""

    kind = ISMCTS

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 10000,
        c: float = 0.7,
        rollout: str = "heuristic",
        solver: bool = False,
        infer: bool = False,
        model_noise: float = 0.3,
        candidates: int = 512,
        pimc_worlds: int = 0,
    ) -> None:
        iterations = check_integer(iterations, "iterations", 1, MAX_ITERATIONS + 1)
        super().__init__(
            seed,
            iterations,
            c,
            rollout,
            solver,
            1,
            iterations + 1,
            infer,
            model_noise,
            candidates,
        )
        self.pimc_worlds = check_integer(pimc_worlds, "pimc_worlds", 0, MAX_ITERATIONS + 1)
        judge_seed = int(policies.agent_seed(np.uint64(self.seed), 1))  # apart from the tree's
        self._judge = PimcAgent(judge_seed, worlds=pimc_worlds) if pimc_worlds else None

    def act(self, view) -> str:
        if self._judge is not None and not isinstance(view, TableView):
            return self._judged_choice(view)
        return super().act(view)

    def _judged_choice(self, view) -> str:
        """The choice of ``pimc_worlds`` (class docstring) on a two-player view."""
        if len(view.legal_action_ids()) > 1:
            if strict_phase(view):
                return self._judge.act(view)
            if "close" in view.legal_actions():
                values = self._judge.action_values(view)
                if values.pop("close") > max(values.values()):
                    return "close"
        return super().act(view)
