"""The ``cfr`` agent: plays a strategy computed by counterfactual regret minimization.

``cfr:strategy=PATH`` reads either kind of strategy file:

* an exact one (``sixtysix cfr solve``, a mini preset): the average CFR / CFR+ strategy of
  every information set of the whole game (``sixtysix.theory.cfr.ExactStrategy``);
* an abstract one (``sixtysix cfr train``, any preset): the average MCCFR strategy over the
  information abstraction of ``docs/abstraction.md``, with the heuristic's action where
  training never reached a state (``sixtysix.theory.mccfr.AbstractStrategy``).

``policy(view)`` is the strategy's mixed action; ``act`` samples it with the agent's seed.
A file is read once per process (tournaments build an agent for every deal). Strategies
are of the two-player games only: a three- or four-player view is refused.
"""

from __future__ import annotations

import functools
import os

import numpy as np

from sixtysix.table_view import TableView
from sixtysix.theory.cfr import ExactStrategy
from sixtysix.theory.mccfr import AbstractStrategy

from .base import Agent


@functools.lru_cache(maxsize=8)
def _load(path: str, modified: int) -> ExactStrategy | AbstractStrategy:
    """The strategy in ``path`` (``modified``: its mtime, so that a rewritten file is read
    again)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            names = set(data.files)
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read the strategy file {path!r}: {error}") from None
    if "abstract_actions" in names:
        return AbstractStrategy.load(path)
    if "observation_parent" in names:
        return ExactStrategy.load(path)
    raise ValueError(
        f"{path!r} is not a strategy file: write one with 'sixtysix cfr solve' (mini presets) "
        "or 'sixtysix cfr train'"
    )


def load_strategy(path: str) -> ExactStrategy | AbstractStrategy:
    """The exact or abstract strategy a file holds (a ValueError names a bad file)."""
    if not path:
        raise ValueError("the cfr agent needs strategy=PATH, a file of 'sixtysix cfr solve/train'")
    if not os.path.isfile(path):
        raise ValueError(f"invalid strategy {path!r}: no such file")
    return _load(os.path.abspath(path), os.stat(path).st_mtime_ns)


class CfrAgent(Agent):
    """Plays the mixed strategy of a CFR strategy file, sampled with its seed."""

    def __init__(self, seed: int = 0, strategy: str = "") -> None:
        super().__init__(seed)
        self.strategy = load_strategy(strategy)
        self._rng = np.random.default_rng(self.seed)

    def policy(self, view) -> dict[str, float]:
        """``{action: probability}`` of the strategy at the view."""
        if isinstance(view, TableView):
            raise ValueError(
                f"the cfr agent cannot play {view.game!r}, a {view.num_players}-player game: "
                "its strategies are of the two-player games (exact ones of the two-player "
                "mini presets, 'sixtysix cfr solve'; abstract ones of a two-player preset, "
                "'sixtysix cfr train')"
            )
        return self.strategy.policy(view)

    def act(self, view) -> str:
        policy = self.policy(view)
        actions = list(policy)
        weights = np.fromiter(policy.values(), dtype=np.float64, count=len(actions))
        return actions[int(self._rng.choice(len(actions), p=weights / weights.sum()))]
