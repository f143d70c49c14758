"""OpenSpiel's search bots as agents, searching the ``python_sixty_six`` game
(``sixtysix.openspiel``) built with the deal's rules (preset, rule overrides, dealer).

* ``openspiel-ismcts`` (:class:`OpenSpielISMCTSAgent`): OpenSpiel's information-set
  MCTS bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, Cowling, Powley and
  Whitehouse). Every simulation starts from a fresh world drawn uniformly from the
  searcher's view (``SixtySixState.resample``), descends one tree whose nodes are
  keyed by the mover's information state string (the searcher's nodes are his
  information sets; the opponent's nodes are keyed by the opponent's information
  state in that world), expands one node, values it by random rollouts to the end of
  the deal and backs up the game points. The move is the most visited root action
  (``final_policy``). The OpenSpiel state the bot is given is itself a world sampled
  from the view, so nothing the player cannot know reaches the search.
* ``openspiel-mcts`` (:class:`OpenSpielMCTSAgent`): OpenSpiel's plain UCT bot
  (``open_spiel.python.algorithms.mcts.MCTSBot``) with random rollouts, searching the
  TRUE state: it sees every hidden card, so it cheats (``cheating = True``) and serves
  only as a reference. The protocol hands it the state (``act_on_state``); tournaments
  refuse it unless cheating is allowed.

Both play every preset, the multi-player ones too (``python_sixty_six`` runs them:
``sixtysix.openspiel``). At a table the worlds come from
``sixtysix.table_worlds.sample_worlds`` of the seat's ``TableView`` (each world's hidden
partnership included), every tree node backs up its mover's own return, the research
payoff of RULES_MULTI 1.13.6 (``openspiel.table_returns``: partners share their side's
payoff; a three-sided ``snapszer3`` deal pays each seat its game points).

Both are seeded: every random draw of a decision (the sampled world, the bot's and the
rollouts' random states) comes from the agent's seed, so a deal replays exactly.
Action ids are shared: the adapter's player actions are the engine's action ids.

Both run in Python, about a millisecond per simulation (half of it the adapter's world
resampling); docs/agents.md gives their measured times and strength.
"""

from __future__ import annotations

import math

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from sixtysix import openspiel
from sixtysix.engine.checks import check_integer
from sixtysix.game import State
from sixtysix.table_game import TableGame, TableState
from sixtysix.table_view import TableView
from sixtysix.table_worlds import sample_worlds

from .base import Agent

FINAL_POLICIES = {
    "max_visits": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    "max_value": ismcts.ISMCTSFinalPolicyType.MAX_VALUE,
    "visit_distribution": ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
}
_SEED_WORDS = 4  # per decision: the world, the bot, the rollouts, the resampler


def spiel_state(state: State | TableState) -> openspiel.SixtySixState:
    """The ``python_sixty_six`` state of an engine ``state`` (two players or a table): its
    deal as chance actions, then its actions, in a new game of its rules and dealer (new,
    because the adapter's observers remember every string they make: a game kept for a
    tournament would grow by about 1 MB a deal; one costs half a millisecond)."""
    deal_options = (
        openspiel.TABLE_DEAL_OPTIONS
        if isinstance(state.game, TableGame)
        else openspiel.DEAL_OPTIONS
    )
    options = {
        name: int(value) if isinstance(value, bool) else value
        for name, value in state.game.overrides.items()
        if name in deal_options
    }
    params = {"preset": state.game.preset, "dealer": int(state.dealer), **options}
    spiel_game = openspiel.SixtySixGame(params)
    spiel = spiel_game.new_initial_state()
    for card in spiel_game.deal.chance_order(state):
        spiel.apply_action(card)
    for _, action in state.history_ids:
        spiel.apply_action(action)
    return spiel


class _OpenSpielAgent(Agent):
    """The parameters and the seeded random draws the two bots share."""

    def __init__(self, seed: int, simulations: int, c: float, rollouts: int) -> None:
        super().__init__(seed)
        if isinstance(c, bool) or not isinstance(c, int | float) or not 0 <= c < math.inf:
            raise ValueError(f"invalid c {c!r}: c, the UCT constant, must be a number >= 0")
        self.simulations = check_integer(simulations, "simulations", 1)
        self.c = float(c)
        self.rollouts = check_integer(rollouts, "rollouts", 1)
        self._rng = np.random.default_rng(self.seed)

    def _decision_seeds(self) -> list[int]:
        """Fresh seeds for one decision's random draws."""
        return [int(word) for word in self._rng.integers(0, 2**32, size=_SEED_WORDS)]

    def _evaluator(self, seed: int) -> mcts.RandomRolloutEvaluator:
        return mcts.RandomRolloutEvaluator(self.rollouts, np.random.RandomState(seed))


class OpenSpielISMCTSAgent(_OpenSpielAgent):
    """OpenSpiel's ISMCTS bot over worlds drawn from the view: ``simulations`` per
    decision, UCT constant ``c`` (in game points), ``rollouts`` random rollouts per new
    node, the move by ``final_policy`` (one of ``FINAL_POLICIES``)."""

    def __init__(
        self,
        seed: int = 0,
        simulations: int = 200,
        c: float = 2.0,
        rollouts: int = 1,
        final_policy: str = "max_visits",
    ) -> None:
        super().__init__(seed, simulations, c, rollouts)
        if final_policy not in FINAL_POLICIES:
            raise ValueError(
                f"invalid final_policy {final_policy!r}: use one of {', '.join(FINAL_POLICIES)}"
            )
        self.final_policy = final_policy

    def act(self, view) -> int:
        world_seed, bot_seed, rollout_seed, resample_seed = self._decision_seeds()
        # The bot searches from a world drawn from the view: its facts, no hidden truth.
        if isinstance(view, TableView):
            world = sample_worlds(view, 1, world_seed)[0]
        else:
            world = view.sample_worlds(1, world_seed)[0]
        root = spiel_state(world)
        bot = ismcts.ISMCTSBot(
            root.get_game(),
            self._evaluator(rollout_seed),
            uct_c=self.c,
            max_simulations=self.simulations,
            random_state=np.random.RandomState(bot_seed),
            final_policy_type=FINAL_POLICIES[self.final_policy],
        )
        bot.set_resampler(openspiel.make_resampler(resample_seed))
        return int(bot.step(root))


class OpenSpielMCTSAgent(_OpenSpielAgent):
    """OpenSpiel's UCT bot on the true state (cheating): ``simulations`` per decision, UCT
    constant ``c``, ``rollouts`` random rollouts per leaf, ``solve`` backs up proven
    values (MCTS-Solver)."""

    cheating = True

    def __init__(
        self,
        seed: int = 0,
        simulations: int = 1000,
        c: float = 2.0,
        rollouts: int = 1,
        solve: bool = True,
    ) -> None:
        super().__init__(seed, simulations, c, rollouts)
        self.solve = bool(solve)

    def act(self, view):
        raise TypeError(
            "openspiel-mcts cheats: it searches the true state, so it is called as "
            "act_on_state(state), not act(view)"
        )

    def act_on_state(self, state: State | TableState) -> int:
        """The bot's action in the true ``state`` (every card known)."""
        _, bot_seed, rollout_seed, _ = self._decision_seeds()
        spiel = spiel_state(state)
        bot = mcts.MCTSBot(
            spiel.get_game(),
            self.c,
            self.simulations,
            self._evaluator(rollout_seed),
            solve=self.solve,
            random_state=np.random.RandomState(bot_seed),
        )
        return int(bot.step(spiel))
