"""The built-in agents with a numba fast path: ``random`` and ``heuristic``."""

from __future__ import annotations

from sixtysix.engine.actions import action_name

from . import policies
from .base import Agent


class PolicyAgent(Agent):
    """An agent that plays a numba policy of ``fast`` on the view's blanked record, with its
    own random stream: the very choices ``policies.play_policy_deals`` makes for the same seed.
    ``noise`` is the probability of a uniform legal action instead of the policy's."""

    noise = 0.0

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._stream = policies.new_stream(self.seed)

    def act(self, view) -> str:
        action = policies.policy_action_array(
            self.fast_policy, self.noise, view.record, view.game.rule_array, self._stream
        )
        return action_name(action)

    def policy(self, view) -> dict[str, float]:
        """The probability of each legal action: ``noise`` spread uniformly, the rest on the
        numba policy's choice (which, for ``heuristic``, does not depend on the stream)."""
        legal = view.legal_actions()
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
