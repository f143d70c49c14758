"""The built-in agents that play a numba policy: ``random`` and ``heuristic``. In the games
for more than two seats (a ``TableView``) they play in Python: ``random`` uniformly,
``heuristic`` by ``table_heuristic.heuristic_action``; both draw from a generator seeded
once by the agent's seed."""

from __future__ import annotations

import math

import numpy as np

from sixtysix.engine.actions import action_name
from sixtysix.table_view import TableView

from . import pimc, policies
from .base import Agent, strict_phase
from .table_heuristic import heuristic_action


class PolicyAgent(Agent):
    """An agent that plays the numba policy ``policy_code`` on the view's blanked record, with
    its own random stream: the very choices ``policies.play_policy_deals`` makes for the same
    seed (``fast_policy``, the tournaments' fast path, is that code). ``noise`` is the
    probability of a uniform legal action instead of the policy's."""

    noise = 0.0

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._stream = policies.new_stream(self.seed)
        self._table_rng = np.random.default_rng(self.seed)

    def act(self, view) -> str:
        if isinstance(view, TableView):
            return self._act_at_table(view)
        action = policies.policy_action_array(
            self.policy_code, self.noise, view.record, view.game.rule_array, self._stream
        )
        return action_name(action)

    def _act_at_table(self, view: TableView) -> str:
        """A uniform legal action with probability ``noise``, else the table policy's."""
        if self.noise and self._table_rng.random() < self.noise:
            return self._uniform(view)
        return self._table_choice(view)

    def _uniform(self, view) -> str:
        legal = view.legal_actions()
        return legal[self._table_rng.integers(len(legal))]

    def _table_choice(self, view: TableView) -> str:
        """The policy's action at a table (a subclass's rule)."""
        raise NotImplementedError

    def policy(self, view) -> dict[str, float]:
        """The probability of each legal action: ``noise`` spread uniformly, the rest on the
        policy's choice (which, for ``heuristic``, does not depend on the stream)."""
        legal = view.legal_actions()
        if isinstance(view, TableView):
            chosen = self._table_choice(view)
        else:
            chosen = self._rule_choice(view)
        share = self.noise / len(legal)
        return {action: share + (1.0 - self.noise) * (action == chosen) for action in legal}

    def _rule_choice(self, view) -> str:
        """The policy's choice on a two-player view without noise (``heuristic``'s does not
        depend on the stream)."""
        return action_name(
            policies.policy_action_array(
                self.policy_code, 0.0, view.record, view.game.rule_array, policies.new_stream(0)
            )
        )


class RandomAgent(PolicyAgent):
    """Uniform over the legal actions."""

    policy_code = fast_policy = policies.RANDOM

    def _table_choice(self, view: TableView) -> str:
        return self._uniform(view)

    def policy(self, view) -> dict[str, float]:
        """Uniform over the legal actions."""
        legal = view.legal_actions()
        return dict.fromkeys(legal, 1.0 / len(legal))


class HeuristicAgent(PolicyAgent):
    """Expert rules of thumb (``sixtysix.engine.heuristic``) while the talon is open, and
    counting where the rest of the deal is small enough to count (two players):

    * **strict phase** (talon closed or exhausted): the move with the best mean exact value
      (the open-hand solver's) over the worlds consistent with the view: all of them when
      there are at most ``worlds`` (once the talon is exhausted there is one: every card is
      known), else ``worlds`` drawn from the agent's seed;
    * **closing**: besides the rules' sure closes, it closes when closing is worth at least
      ``close_at`` game points on average over those worlds (each solved exactly from the
      close on).

    Both are the ``pimc`` agent's values with no horizon, restricted to the strict phase,
    where an exact solve costs microseconds. ``worlds=0`` plays the rules alone (the numba
    fast path of tournaments); ``noise`` is the probability of a uniform legal action
    instead (for a ladder of weaker players). Deterministic unless ``noise`` or sampled
    worlds."""

    policy_code = policies.HEURISTIC

    def __init__(
        self, seed: int = 0, noise: float = 0.0, worlds: int = 32, close_at: float = 1.0
    ) -> None:
        super().__init__(seed)
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"invalid noise {noise!r}: noise must be a probability in [0, 1]")
        if worlds < 0:
            raise ValueError(
                f"invalid worlds {worlds!r}: worlds counted per decision, at least 0 "
                "(0: the rules only)"
            )
        if not math.isfinite(close_at):
            raise ValueError(f"invalid close_at {close_at!r}: a number of game points")
        self.noise = float(noise)
        self.worlds = worlds
        self.close_at = float(close_at)
        self.fast_policy = None if worlds else policies.HEURISTIC
        self._counter = pimc.PimcAgent(self.seed, worlds=worlds, horizon=0) if worlds else None

    def act(self, view) -> str:
        if isinstance(view, TableView) or not self.worlds:
            return super().act(view)
        if self.noise and self._table_rng.random() < self.noise:
            return self._uniform(view)
        return self._counted_choice(view)

    def policy(self, view) -> dict[str, float]:
        """The probability of each legal action: ``noise`` spread uniformly, the rest on the
        choice; where that choice counts sampled worlds it has no closed form (ValueError)."""
        legal = view.legal_actions()
        if isinstance(view, TableView) or not self.worlds or not self._counts(view):
            return super().policy(view)
        if view.count_worlds() > self.worlds:
            raise ValueError(
                f"heuristic with worlds={self.worlds} samples worlds here "
                f"({view.count_worlds()} are consistent with the view), so its policy has no "
                f"closed form: use worlds>={view.count_worlds()} or worlds=0"
            )
        if strict_phase(view):
            counted = self._counter.policy(view)
        else:
            chosen = self._counted_choice(view)
            counted = {action: float(action == chosen) for action in legal}
        share = self.noise / len(legal)
        return {action: share + (1.0 - self.noise) * counted[action] for action in legal}

    def _counts(self, view) -> bool:
        """Whether the decision is counted: in the strict phase, or where closing is legal."""
        return len(view.legal_action_ids()) > 1 and (
            strict_phase(view) or "close" in view.legal_actions()
        )

    def _counted_choice(self, view) -> str:
        """The choice of the class docstring."""
        if not self._counts(view):
            return self._rule_choice(view)
        if strict_phase(view):
            return self._counter.act(view)
        choice = self._rule_choice(view)
        if choice != "close":
            value = self._counter.action_values(view, ["close"])["close"]
            if value >= self.close_at:
                return "close"
        return choice

    def _table_choice(self, view: TableView) -> str:
        return heuristic_action(view)
