"""The built-in agents with a numba fast path: ``random`` and ``heuristic``. In the games
for more than two seats (a ``TableView``) they play in Python: ``random`` uniformly,
``heuristic`` by ``table_heuristic.heuristic_action``; both draw from a generator seeded
once by the agent's seed."""

from __future__ import annotations

import numpy as np

from sixtysix.engine.actions import action_name
from sixtysix.table_view import TableView

from . import policies
from .base import Agent
from .table_heuristic import heuristic_action


class PolicyAgent(Agent):
    """An agent that plays a numba policy of ``fast`` on the view's blanked record, with its
    own random stream: the very choices ``policies.play_policy_deals`` makes for the same seed.
    ``noise`` is the probability of a uniform legal action instead of the policy's."""

    noise = 0.0

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._stream = policies.new_stream(self.seed)
        self._table_rng = np.random.default_rng(self.seed)

    def act(self, view) -> str:
        if isinstance(view, TableView):
            return self._act_at_table(view)
        action = policies.policy_action_array(
            self.fast_policy, self.noise, view.record, view.game.rule_array, self._stream
        )
        return action_name(action)

    def _act_at_table(self, view: TableView) -> str:
        """A uniform legal action with probability ``noise``, else the table policy's."""
        if self.noise and self._table_rng.random() < self.noise:
            return self._uniform(view)
        return self._table_choice(view)

    def _uniform(self, view: TableView) -> str:
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
            chosen = action_name(
                policies.policy_action_array(
                    self.fast_policy, 0.0, view.record, view.game.rule_array, policies.new_stream(0)
                )
            )
        share = self.noise / len(legal)
        return {action: share + (1.0 - self.noise) * (action == chosen) for action in legal}


class RandomAgent(PolicyAgent):
    """Uniform over the legal actions."""

    fast_policy = policies.RANDOM

    def _table_choice(self, view: TableView) -> str:
        return self._uniform(view)

    def policy(self, view) -> dict[str, float]:
        """Uniform over the legal actions."""
        legal = view.legal_actions()
        return dict.fromkeys(legal, 1.0 / len(legal))


class HeuristicAgent(PolicyAgent):
    """Expert rules of thumb (``sixtysix.engine.heuristic``), deterministic unless ``noise``
    (the probability of a uniform legal action instead, for a ladder of weaker players)."""

    fast_policy = policies.HEURISTIC

    def __init__(self, seed: int = 0, noise: float = 0.0) -> None:
        super().__init__(seed)
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"invalid noise {noise!r}: noise must be a probability in [0, 1]")
        self.noise = float(noise)

    def _table_choice(self, view: TableView) -> str:
        return heuristic_action(view)
