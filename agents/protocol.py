"""The agent protocol: ``Agent``, and deals and matches played between two agents.

An agent is any object with ``act(view) -> action``: it gets the acting
player's ``PlayerView`` (never the ``State``) and returns one of
``view.legal_actions()`` (an id of ``view.legal_action_ids()`` is accepted too).
Its choice may depend only on its seed and the views it has been shown, so a
deal replays exactly from its seed and the two agent specs.

The one exception, on the Python path only: an agent whose class sets
``cheating = True`` (a reference that looks at hidden cards, such as
``openspiel-mcts``) is called as ``act_on_state(state)`` with a copy of the true
``State`` instead. Tournaments refuse such agents unless cheating is allowed.

``play_deal`` builds agents from spec strings afresh for every deal, seeding
the agent in each seat from the deal seed (``policies.agent_seed``). An agent
that raises, returns an illegal action or takes longer than ``time_limit``
seconds for one decision (measured when it returns: a call is never cut
short) forfeits the deal: the opponent wins it with the game's most game
points (``RuleSet.max_game_points``), reason ``"forfeit"``, and the result
names the error.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sixtysix.engine import multi_core as mc
from sixtysix.engine.actions import action_name, parse_action
from sixtysix.engine.checks import check_seed, is_integer
from sixtysix.game import Game, State
from sixtysix.match import Match

from . import policies
from .specs import make, policy_of

FORFEIT = "forfeit"


@dataclass(frozen=True)
class DealResult:
    """One deal played: its seed and dealer, the two specs, what happened and what it cost.

    ``outcome`` is ``(winner or None, game points, reason)``; ``history_ids`` the
    ``(player, action id)`` pairs played; ``decisions`` and ``decision_seconds``
    count per seat (the seconds are NaN on the numba path, which is not timed);
    ``error`` and ``error_seat`` name a forfeit's cause (else None).
    """

    seed: int
    dealer: int
    specs: tuple[str, str]
    outcome: tuple[int | None, int, str]
    card_points: tuple[int, int]
    closed_by: int | None
    close_trick: int
    tricks_played: int
    decisions: tuple[int, int]
    decision_seconds: tuple[float, float]
    error: str | None
    error_seat: int | None
    history_ids: tuple[tuple[int, int], ...]
    engine: str

    @property
    def actions(self) -> tuple[tuple[int, str], ...]:
        """``((player, action string), ...)`` in play order."""
        return tuple((player, action_name(action)) for player, action in self.history_ids)

    @property
    def winner(self) -> int | None:
        return self.outcome[0]


@dataclass(frozen=True)
class MatchResult:
    """A match to ``match_target``: its deals in order, the final scores and the winner."""

    seed: int
    deals: tuple[DealResult, ...]
    scores: tuple[int, int]
    winner: int
    match_points: int


def play_deal(game: Game, agents: Sequence, seed: int, *, time_limit: float | None = None):
    """Play the deal ``game.new_deal(seed=seed)``; ``agents`` are two specs or agent objects."""
    seed = check_seed(seed)
    return _play(game.new_deal(seed=seed), seed, agents, time_limit)


def play_deals(
    game: Game, agents: Sequence, seeds: Sequence[int], *, time_limit: float | None = None
) -> list[DealResult]:
    """``play_deal`` for each seed; wholly in numba when both agents are built-in policy specs
    (the numba path cannot time out, so it ignores ``time_limit``)."""
    seeds = [check_seed(seed) for seed in seeds]
    codes = [policy_of(agent) if isinstance(agent, str) else None for agent in _pair(agents)]
    if None in codes:
        return [_play(game.new_deal(seed=seed), seed, agents, time_limit) for seed in seeds]
    return _play_in_numba(game, tuple(agents), codes, seeds)


def play_match(
    game: Game, agents: Sequence, seed: int, *, time_limit: float | None = None, observer=None
):
    """Play a ``Match(game, seed)`` to its target; a forfeited deal is scored by
    ``Match.forfeit``. Agents given as specs are made afresh for every deal. An
    ``observer`` (such as the ``human`` agent) is told where each deal begins and ends:
    ``observer.begin_deal(match, state)`` and ``observer.end_deal(match, state, result)``,
    the latter once the deal is scored."""
    match = Match(game, seed)
    deals = []
    while not match.is_over:
        deal_seed = match.next_deal_seed
        state = match.new_deal()
        if observer is not None:
            observer.begin_deal(match, state)
        result = _play(state, deal_seed, agents, time_limit)
        deals.append(result)
        if result.error is None:
            match.record(state)
        else:
            match.forfeit(state, result.error_seat)
        if observer is not None:
            observer.end_deal(match, state, result)
    return MatchResult(
        match.seed, tuple(deals), tuple(match.scores), match.winner, match.match_points
    )


def _pair(agents: Sequence) -> Sequence:
    """``agents``, if they are two: one per seat."""
    if len(agents) != 2:
        raise ValueError(f"a deal needs two agents, one per seat; got {len(agents)}")
    return agents


def _seated(agents: Sequence, seed: int) -> tuple[list, tuple[str, str]]:
    """The two agents of a deal (specs made with seeds from the deal seed) and their specs."""
    seated = [
        make(agent, int(policies.agent_seed(np.uint64(seed), seat)))
        if isinstance(agent, str)
        else agent
        for seat, agent in enumerate(_pair(agents))
    ]
    specs = tuple(getattr(agent, "spec", "") or type(agent).__name__ for agent in seated)
    return seated, specs


def _play(state: State, seed: int, agents: Sequence, time_limit: float | None) -> DealResult:
    """Play ``state`` to its end (or to a forfeit) on the Python path."""
    seated, specs = _seated(agents, seed)
    decisions = [0, 0]
    seconds = [0.0, 0.0]
    close_trick = -1
    error = error_seat = None
    while not state.is_terminal:
        player = state.current_player
        view = state.view(player)
        start = time.perf_counter()
        try:
            agent = seated[player]
            if getattr(agent, "cheating", False):  # a user's agent need not subclass Agent
                choice = agent.act_on_state(state.clone())
            else:
                choice = agent.act(view)
        except Exception as failure:  # an agent's bug costs its deal, not the tournament
            choice, error = None, f"raised {type(failure).__name__}: {failure}"
        elapsed = time.perf_counter() - start
        decisions[player] += 1
        seconds[player] += elapsed
        if error is None and time_limit is not None and elapsed > time_limit:
            error = f"took {elapsed:.3f} s to decide, over the time limit of {time_limit} s"
        action = _legal_id(choice, view) if error is None else None
        if error is None and action is None:
            error = (
                f"returned {choice!r}, which is not legal here ({', '.join(view.legal_actions())})"
            )
        if error is not None:
            error_seat = player
            error = f"P{player} ({specs[player]}) {error}"
            break
        if action == mc.A_CLOSE:
            close_trick = state.tricks_played
        state.apply(action)
    if error is None:
        outcome = state.outcome
    else:
        outcome = (1 - error_seat, state.game.rules.max_game_points, FORFEIT)
    return DealResult(
        seed=seed,
        dealer=state.dealer,
        specs=specs,
        outcome=outcome,
        card_points=state.card_points,
        closed_by=state.closed_by,
        close_trick=close_trick,
        tricks_played=state.tricks_played,
        decisions=tuple(decisions),
        decision_seconds=tuple(seconds),
        error=error,
        error_seat=error_seat,
        history_ids=tuple(state.history_ids),
        engine="python",
    )


def _legal_id(choice, view) -> int | None:
    """The action id of an agent's choice (a string or an id), or None if it is not legal."""
    if isinstance(choice, str):
        try:
            choice = parse_action(choice)
        except ValueError:
            return None
    if is_integer(choice) and choice in view.legal_action_ids():
        return int(choice)
    return None


def _play_in_numba(game: Game, specs: tuple[str, str], codes, seeds) -> list[DealResult]:
    """Deals between two numba policies (``(code, noise)`` pairs), played by
    ``policies.play_policy_deals``."""
    deal_seeds = np.array(seeds, dtype=np.uint64)
    results, plies, actors, actions = policies.play_policies(game.rule_array, codes, deal_seeds)
    canonical = tuple(make(spec, 0).spec for spec in specs)
    played = []
    for i, (seed, row, n) in enumerate(zip(seeds, results.tolist(), plies, strict=True)):
        dealer, winner, points, reason, total_0, total_1, closer, close_trick, tricks, *made = row
        played.append(
            DealResult(
                seed=seed,
                dealer=dealer,
                specs=canonical,
                outcome=(None if winner < 0 else winner, points, mc.TABLE_REASONS[reason]),
                card_points=(total_0, total_1),
                closed_by=None if closer < 0 else closer,
                close_trick=close_trick,
                tricks_played=tricks,
                decisions=tuple(made),
                decision_seconds=(math.nan, math.nan),
                error=None,
                error_seat=None,
                history_ids=tuple(
                    zip(actors[i, :n].tolist(), actions[i, :n].tolist(), strict=True)
                ),
                engine="numba",
            )
        )
    return played
