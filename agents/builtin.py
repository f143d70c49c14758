"""The built-in agents with a numba fast path: ``random`` and ``heuristic``."""

from __future__ import annotations

from sixtysix.actions import action_name

from . import fast
from .base import Agent


class PolicyAgent(Agent):
    """An agent that plays a numba policy of ``fast`` on the view's blanked record, with its
    own random stream: the very choices ``fast.play_policy_deals`` makes for the same seed."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._stream = fast.new_stream(self.seed)

    def act(self, view) -> str:
        action = fast.policy_action_array(
            self.policy, view.record, view.game.rule_array, self._stream
        )
        return action_name(action)


class RandomAgent(PolicyAgent):
    """Uniform over the legal actions."""

    policy = fast.RANDOM


class HeuristicAgent(PolicyAgent):
    """Expert rules of thumb, deterministic; its rules are in ``sixtysix.agents.heuristic``."""

    policy = fast.HEURISTIC
