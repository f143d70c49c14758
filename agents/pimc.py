"""The ``pimc`` agent: perfect-information Monte Carlo.

At a decision with more than one legal action it takes the worlds consistent
with its view (``sixtysix.engine.worlds``): every one of them when there are at most
``worlds``, otherwise ``worlds`` uniform samples drawn from its seed. In each
world it values every legal action with the open-hand solver and plays the
action with the best mean game points from its own side (ties broken by its
seed). The whole decision is one compiled call: the worlds are written
straight into two-player table records and solved there.

The solver is exact once the talon is closed or exhausted. While the talon is
open, ``horizon=H`` stops the search ``H`` tricks ahead and plays the rest of
the deal out with the heuristic policy on both sides (``solver`` module
docstring); ``horizon=0`` solves every world to the end. Exact solves of the
first tricks of ``sixty_six`` cost up to seconds per world, so there the
horizon is what keeps a decision within a fraction of a second.

PIMC assumes every consistent world equally likely and that in each world the
players could see each other's cards: its values are optimistic where a plan
depends on knowing the hidden cards (strategy fusion). Two options address these:

* ``infer=true`` weighs the worlds by the likelihood of the opponent's actions so far
  (``agents.world_weights``): ``candidates`` uniform worlds are drawn and ``worlds`` of them
  resampled in proportion to their weights.
* ``postpone=true`` postpones the open-hand evaluation to the agent's own next decision,
  in the spirit of Extended PIMC (Arjonilla, Saffidine and Cazenave): after each action, in
  each world, the other player answers as the solver would (his moves until the agent's
  turn, one by one), the worlds are grouped by what the agent would then see (his hand and
  the moves made), and in each group the agent takes the one next action with the best sum
  over the group, each valued by the solver. An action's value is the sum over the groups.
  With one world this is PIMC's value; otherwise it is at most PIMC's, where PIMC counted
  on knowing the hidden cards at the next decision. The other player's answers stay
  per world (he is still assumed to see every card).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sixtysix.engine import multi_core, solver
from sixtysix.engine.actions import action_name, parse_action
from sixtysix.engine.bits import trailing_zeros
from sixtysix.engine.checks import check_bool
from sixtysix.engine.worlds import world_record
from sixtysix.table_view import TableView

from .base import Agent
from .policies import draw_below, new_stream
from .world_weights import check_inference, inferred_worlds


@njit(cache=True)
def uniform_worlds(
    stream, view_array, opponent, allowed, unknown, hidden_opponent, ordered, enumerate_all, worlds
):
    """Fill ``worlds`` with worlds of the view: all of them by rank if ``enumerate_all``,
    else uniform samples drawn from ``stream``, which advances in place."""
    rng = (stream[0], stream[1], stream[2], stream[3])
    for k in range(len(worlds)):
        rng = world_record(
            k,
            enumerate_all,
            rng,
            worlds,
            k,
            view_array[0],
            opponent,
            allowed,
            unknown,
            hidden_opponent,
            ordered,
        )
    stream[0], stream[1], stream[2], stream[3] = rng


@njit(cache=True)
def pimc_decision(workspace, rules_array, worlds, me, bound, horizon, stream, actions, totals):
    """Sum into ``totals`` the value (``me``'s side) of each of ``actions`` over ``worlds``
    and return the action of the best sum, ties broken by ``stream``. ``bound`` is the
    rules' most game points, ``horizon`` the solver's."""
    sign = 1 if me == 0 else -1
    values = np.zeros(len(actions), dtype=np.int64)
    totals[:] = 0
    for k in range(len(worlds)):
        solver.solve_children(
            workspace, rules_array, worlds[k : k + 1], bound, horizon, actions, values
        )
        for i in range(len(actions)):
            totals[i] += sign * values[i]
    return best_action(stream, actions, totals)


@njit(cache=True, inline="always")
def _mix(key, value):
    """``key`` with ``value`` hashed in."""
    return (key ^ value) * np.int64(-7046029254386353131) + np.int64(0x632BE59BD9B4E019)


@njit(cache=True)
def _legal_ids(state, rules, into):
    """Write the legal action ids of ``state`` into ``into``, ascending; return how many."""
    low, high = multi_core.legal_masks(state, rules)
    count = 0
    for word in range(2):
        mask = low if word == 0 else high
        while mask:
            into[count] = trailing_zeros(mask) + word * multi_core.HIGH
            mask &= mask - 1
            count += 1
    return count


@njit(cache=True)
def postponed_decision(workspace, rules_array, worlds, me, bound, horizon, stream, actions, totals):
    """``pimc_decision`` with the open-hand evaluation postponed to ``me``'s next decision
    (the module docstring): in each world the other player answers each action as the
    solver would, then ``me`` must take one action for all worlds that look alike to him."""
    rules = rules_array[0]
    sign = 1 if me == 0 else -1
    count = len(worlds)
    keys = np.zeros(count, dtype=np.int64)
    options = np.zeros(count, dtype=np.int64)
    values = np.zeros((count, solver.MAX_MOVES), dtype=np.int64)
    moves = np.zeros(solver.MAX_MOVES, dtype=np.int64)
    grouped = np.zeros(count, dtype=np.bool_)
    sums = np.zeros(solver.MAX_MOVES, dtype=np.int64)
    state = worlds[:1].copy()
    for i in range(len(actions)):
        for k in range(count):
            state[0] = worlds[k]
            multi_core.apply_with_knowledge(state[0], rules, actions[i])
            key = np.int64(0)
            while state[0].phase != multi_core.OVER and state[0].to_move != me:
                n = _legal_ids(state[0], rules, moves)
                reply = moves[0]
                if n > 1:  # the other player's answer in this world: the solver's
                    solver.solve_children(
                        workspace, rules_array, state, bound, horizon, moves[:n], values[k]
                    )
                    best = 0
                    for j in range(1, n):
                        if sign * values[k, j] < sign * values[k, best]:
                            best = j
                    reply = moves[best]
                key = _mix(key, reply)
                multi_core.apply_with_knowledge(state[0], rules, reply)
            if state[0].phase == multi_core.OVER:
                options[k] = 1
                values[k, 0] = sign * solver.signed_outcome(state[0])
                keys[k] = _mix(key, -1)
            else:
                n = _legal_ids(state[0], rules, moves)
                solver.solve_children(
                    workspace, rules_array, state, bound, horizon, moves[:n], values[k]
                )
                for j in range(n):
                    values[k, j] *= sign
                options[k] = n
                keys[k] = _mix(key, state[0].hand[me])
        # One choice per group of worlds that look alike at the next decision.
        grouped[:] = False
        totals[i] = 0
        for k in range(count):
            if grouped[k]:
                continue
            sums[: options[k]] = 0
            for other in range(k, count):
                if not grouped[other] and keys[other] == keys[k]:
                    grouped[other] = True
                    sums[: options[k]] += values[other, : options[k]]
            totals[i] += sums[: options[k]].max()
    return best_action(stream, actions, totals)


@njit(cache=True)
def best_action(stream, actions, totals):
    """The action of the best total, ties broken by ``stream``."""
    best = totals.max()
    ties = 0
    for i in range(len(actions)):
        ties += totals[i] == best
    pick = draw_below(stream, ties) if ties > 1 else 0
    for i in range(len(actions)):
        if totals[i] == best:
            if pick == 0:
                return actions[i]
            pick -= 1
    return -1  # unreachable: some total is the best


class PimcAgent(Agent):
    """Perfect-information Monte Carlo over ``worlds`` worlds per decision (all of them when
    there are no more), searched exactly or up to ``horizon`` tricks while the talon is open."""

    def __init__(
        self,
        seed: int = 0,
        worlds: int = 64,
        horizon: int = 2,
        infer: bool = False,
        model_noise: float = 0.3,
        candidates: int = 512,
        postpone: bool = False,
    ) -> None:
        super().__init__(seed)
        if worlds < 1:
            raise ValueError(f"invalid worlds {worlds!r}: the number of worlds must be at least 1")
        if horizon < 0:
            raise ValueError(
                f"invalid horizon {horizon!r}: a number of tricks, at least 0 (0: no horizon)"
            )
        self.worlds = worlds
        self.horizon = horizon
        self.infer = check_bool(infer, "infer")
        self.model_noise, self.candidates = check_inference(model_noise, candidates)
        self.postpone = check_bool(postpone, "postpone")
        self._stream = new_stream(self.seed)
        self._workspace = solver.new_workspace()
        self._table = None  # the TablePimc that plays table views, made on first use

    def action_values(self, view, actions: list[str] | None = None) -> dict[str, float]:
        """The mean value in game points (the mover's side) of every legal action (or only of
        ``actions``, legal ones), over the worlds of this decision; advances the agent's
        stream like ``act``."""
        actions, totals, count, _ = self._search(view, actions)
        return {action_name(int(a)): totals[i] / count for i, a in enumerate(actions)}

    def policy(self, view) -> dict[str, float]:
        """The probability of each legal action, exact where the agent enumerates every
        world (uniform over the actions of the best mean; the seed only breaks ties). Where
        it samples worlds its choice has no closed form: a ValueError says so."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return {legal[0]: 1.0}
        if self.infer:
            raise ValueError(
                "pimc with infer=true resamples its worlds at random, so its policy has no "
                "closed form: use infer=false"
            )
        worlds = view.count_worlds()
        if worlds > self.worlds:
            raise ValueError(
                f"pimc with worlds={self.worlds} samples worlds here ({worlds} are consistent "
                f"with the view), so its policy has no closed form: use worlds>={worlds}"
            )
        values = self.action_values(view)
        best = max(values.values())
        ties = [action for action, value in values.items() if value == best]
        return {action: (action in ties) / len(ties) for action in legal}

    def act(self, view) -> str:
        if isinstance(view, TableView):
            if self._table is None:
                from .table_search_agents import TablePimc

                self._table = TablePimc(
                    self.seed,
                    self.worlds,
                    (self.model_noise, self.candidates) if self.infer else None,
                )
            return self._table.act(view)
        legal = view.legal_action_ids()
        if len(legal) == 1:
            return action_name(legal[0])
        return action_name(self._search(view)[3])

    def _search(self, view, only=None) -> tuple[np.ndarray, np.ndarray, int, int]:
        """Search the view's worlds: ``(actions, total values, worlds searched, choice)``,
        over every legal action or only the action names ``only``."""
        solver.check_rules(view.game)
        spec = view.world_spec()
        count = spec.count()
        horizon = solver.NO_HORIZON
        if self.horizon:
            horizon = int(view.record[0]["tricks_done"]) + self.horizon
        legal = view.legal_action_ids()
        if only is not None:
            legal = [parse_action(name) for name in only]
        actions = np.array(legal, dtype=np.int64)
        totals = np.zeros(len(actions), dtype=np.int64)
        if self.infer:
            worlds = inferred_worlds(
                view, self._stream, self.worlds, self.candidates, self.model_noise
            )
        else:
            worlds = np.zeros(min(count, self.worlds), dtype=view.record.dtype)
            uniform_worlds(
                self._stream, view.record, *spec.record_arguments, count <= self.worlds, worlds
            )
        decide = postponed_decision if self.postpone else pimc_decision
        choice = decide(
            self._workspace,
            view.game.rule_array,
            worlds,
            view.to_move,
            view.game.rules.max_game_points,
            horizon,
            self._stream,
            actions,
            totals,
        )
        return actions, totals, len(worlds), int(choice)
