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
depends on knowing the hidden cards (strategy fusion).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sixtysix.engine import multi_core, solver
from sixtysix.engine.actions import action_name
from sixtysix.table_view import TableView

from .base import Agent
from .policies import draw_below, new_stream


@njit(cache=True)
def pimc_decision(
    workspace,
    rules_array,
    view_array,
    opponent,
    allowed,
    unknown,
    hidden_opponent,
    ordered,
    enumerate_all,
    bound,
    horizon,
    stream,
    actions,
    totals,
    values,
    world,
):
    """Sum into ``totals`` the value (the mover's side) of each of ``actions`` over
    ``len(values)`` worlds (all worlds by rank if ``enumerate_all``, else samples drawn from
    ``stream``; ``values`` holds a row per world) and return the best action, ties broken by
    ``stream``. ``bound`` is the rules' most game points, ``horizon`` the solver's."""
    solver.solve_worlds(
        workspace,
        rules_array,
        view_array,
        opponent,
        allowed,
        unknown,
        hidden_opponent,
        ordered,
        enumerate_all,
        stream,
        bound,
        horizon,
        actions,
        actions[:0],
        values,
        world,
    )
    totals[:] = 0
    for k in range(values.shape[0]):
        for i in range(len(actions)):
            totals[i] += values[k, i]
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

    def __init__(self, seed: int = 0, worlds: int = 64, horizon: int = 2) -> None:
        super().__init__(seed)
        if worlds < 1:
            raise ValueError(f"invalid worlds {worlds!r}: the number of worlds must be at least 1")
        if horizon < 0:
            raise ValueError(
                f"invalid horizon {horizon!r}: a number of tricks, at least 0 (0: no horizon)"
            )
        self.worlds = worlds
        self.horizon = horizon
        self._stream = new_stream(self.seed)
        self._workspace = solver.new_workspace()
        self._world = np.zeros(1, dtype=multi_core.TWO_PLAYER_STATE_DTYPE)
        self._table = None  # the TablePimc that plays table views, made on first use

    def action_values(self, view) -> dict[str, float]:
        """The mean value in game points (the mover's side) of every legal action, over the
        worlds of this decision; advances the agent's stream like ``act``."""
        actions, totals, count, _ = self._search(view)
        return {action_name(int(a)): totals[i] / count for i, a in enumerate(actions)}

    def policy(self, view) -> dict[str, float]:
        """The probability of each legal action, exact where the agent enumerates every
        world (uniform over the actions of the best mean; the seed only breaks ties). Where
        it samples worlds its choice has no closed form: a ValueError says so."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return {legal[0]: 1.0}
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

                self._table = TablePimc(self.seed, self.worlds)
            return self._table.act(view)
        legal = view.legal_action_ids()
        if len(legal) == 1:
            return action_name(legal[0])
        return action_name(self._search(view)[3])

    def _search(self, view) -> tuple[np.ndarray, np.ndarray, int, int]:
        """Search the view's worlds: ``(actions, total values, worlds searched, choice)``."""
        solver.check_rules(view.game)
        spec = view.world_spec()
        worlds = spec.count()
        count = min(worlds, self.worlds)
        horizon = solver.NO_HORIZON
        if self.horizon:
            horizon = int(view.record[0]["tricks_done"]) + self.horizon
        actions = np.array(view.legal_action_ids(), dtype=np.int64)
        totals = np.zeros(len(actions), dtype=np.int64)
        choice = pimc_decision(
            self._workspace,
            view.game.rule_array,
            view.record,
            *spec.record_arguments,
            worlds <= self.worlds,
            view.game.rules.max_game_points,
            horizon,
            self._stream,
            actions,
            totals,
            np.zeros((count, len(actions)), dtype=np.int64),
            self._world,
        )
        return actions, totals, count, int(choice)
