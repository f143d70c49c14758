"""Worlds weighed by the opponent's play, for the search agents (``pimc``, ``ismcts``,
``dmcts`` with ``infer=true``) in two-player games (tables: ``WorldChain.weighted`` in
``agents.table_search_agents``).

The agent draws ``candidates`` uniform worlds of its view (all of them when there are no
more), weighs each by the likelihood of the opponent's actions so far under the heuristic
with ``model_noise`` (``sixtysix.engine.inference``), and resamples the worlds it searches
in proportion to those weights: a world in which the opponent's plays make sense counts
more than one in which he would have played otherwise.
"""

from __future__ import annotations

import numpy as np

from sixtysix.engine import inference
from sixtysix.world_states import DeckPlan


def check_inference(model_noise: float, candidates: int) -> tuple[float, int]:
    """The inference settings, checked: ``model_noise`` in (0, 1], ``candidates`` >= 1."""
    if not 0.0 < model_noise <= 1.0:
        raise ValueError(
            f"invalid model_noise {model_noise!r}: a probability in (0, 1] (1: no inference)"
        )
    if candidates < 1:
        raise ValueError(f"invalid candidates {candidates!r}: at least 1 world to weigh")
    return float(model_noise), int(candidates)


def inferred_worlds(view, stream, count: int, candidates: int, model_noise: float) -> np.ndarray:
    """``count`` world records of a two-player ``view`` resampled from ``candidates`` by the
    likelihood of the opponent's actions; ``stream`` advances in place."""
    spec = view.world_spec()
    worlds = spec.count()
    drawn = np.zeros(min(worlds, candidates), dtype=view.record.dtype)
    chosen = np.zeros(count, dtype=view.record.dtype)
    history = np.array(view.history_ids, dtype=np.int64).reshape(-1, 2)
    inference.weighted_worlds(
        stream,
        view.game.rule_array,
        view.record,
        *spec.record_arguments,
        worlds <= candidates,
        *DeckPlan(view).history_arrays(),
        view.dealer,
        history[:, 0].copy(),
        history[:, 1].copy(),
        model_noise,
        drawn,
        np.zeros(len(drawn)),
        chosen,
    )
    return chosen
