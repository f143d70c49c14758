"""sixtysix: Sixty-Six and Schnapsen for game-AI research.

The public API: ``Game``, ``State`` (from ``Game.new_deal``), ``replay``,
``IllegalActionError``, ``Match`` and the rule presets in ``PRESETS``.
"""

from .game import Game, IllegalActionError, State, replay
from .match import Match
from .rules import OPTION_NAMES, PRESETS, RuleSet, make_rules

__all__ = [
    "Game",
    "IllegalActionError",
    "Match",
    "OPTION_NAMES",
    "PRESETS",
    "RuleSet",
    "State",
    "make_rules",
    "replay",
]
