"""``open-hand``: the open-hand solver on the true state, a reference that sees every card
(``cheating``: tournaments refuse it unless cheating is allowed).

It answers "what is seeing the other hands and the talon worth?": a fair agent's share
against an opponent, set beside ``open-hand``'s against the same opponent, says how much
of the cost of hidden cards the fair agent recovers.

* Two players: the exact solver's best action (``engine.solver.solve``, to the end of the
  deal, the talon's order included); among equally good actions the solver's move order
  picks.
* Three and four seats: ``pimc`` with the true state as its one world
  (``table_search_agents.TablePimc.act_on_world``): the side's exact value on a
  two-sided deal, the paranoid value on a three-sided one, within ``pimc``'s node budget;
  among tied actions the table heuristic's choice if it is one of them. Where the budget
  runs out (at the call and the first lead of ``snapszer4_called``), the table heuristic's
  choice.

It plays minimax values, not a best reply to its opponents, so what it wins is no upper
bound on what a fair agent can win against them.
"""

from __future__ import annotations

from sixtysix.engine import solver
from sixtysix.game import State
from sixtysix.table_game import TableState

from .base import Agent


class OpenHandAgent(Agent):
    """``open-hand`` (module docstring): the open-hand solver on the true state."""

    cheating = True

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._table = None  # the TablePimc that plays tables, made on first use

    def act(self, view):
        raise TypeError(
            "open-hand cheats: it solves the true state, so it is called as "
            "act_on_state(state), not act(view)"
        )

    def act_on_state(self, state: State | TableState) -> str:
        """The solver's best action in the true ``state`` (every card known)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if not isinstance(state, TableState):
            return solver.solve(state).action
        if self._table is None:
            from .table_search_agents import TablePimc

            self._table = TablePimc(self.seed, worlds=1)
        return self._table.act_on_world(state)
