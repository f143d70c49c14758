"""Players for sixtysix, imported as ``sixtysix.agents``: the agent protocol and built-ins.

::

    from sixtysix import agents
    agent = agents.make("heuristic", seed=7)      # a spec string and a seed
    action = agent.act(state.view(player))        # one of view.legal_actions()
    agents.available()                            # the built-in agents and their parameters
    result = agents.play_deal(game, ("heuristic", "random"), seed=11)
    match = agents.play_match(game, ("heuristic", "random"), seed=11)

Specs are described in ``sixtysix.agents.specs``, the protocol and forfeits in
``sixtysix.agents.protocol``, the numba fast path in ``sixtysix.agents.policies``.
"""

from .base import Agent
from .protocol import FORFEIT, DealResult, MatchResult, play_deal, play_deals, play_match
from .specs import BUILTIN, AgentInfo, Parameter, available, make, parse_spec

__all__ = [
    "BUILTIN",
    "FORFEIT",
    "Agent",
    "AgentInfo",
    "DealResult",
    "MatchResult",
    "Parameter",
    "available",
    "make",
    "parse_spec",
    "play_deal",
    "play_deals",
    "play_match",
]
