"""sixtysix: Sixty-Six and Schnapsen for game-AI research.

The public API: ``Game``, ``State`` (from ``Game.new_deal``), ``replay``,
``IllegalActionError``, ``Match``, the rule presets in ``PRESETS`` and ``MINI_PRESETS``,
``PlayerView`` (from ``State.view``) and the open-hand solver ``solve`` /
``solve_actions``.
"""

# ruff: noqa: E402
# (imports below the call: the numba cache folder must be set before any kernel loads)
from .engine.numba_cache import use_source_keyed_cache

use_source_keyed_cache()

from .engine.rules import MINI_PRESETS, OPTION_NAMES, PRESETS, RuleSet, make_rules
from .engine.solver import Solution, solve, solve_actions
from .game import Game, IllegalActionError, State, replay
from .match import Match
from .view import PlayerView

__all__ = [
    "Game",
    "IllegalActionError",
    "MINI_PRESETS",
    "Match",
    "OPTION_NAMES",
    "PRESETS",
    "PlayerView",
    "RuleSet",
    "Solution",
    "State",
    "make_rules",
    "replay",
    "solve",
    "solve_actions",
]
