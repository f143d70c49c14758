"""The agent protocol: ``Agent``, and deals and matches played between agents, one per
seat (two for the two-player games, three or four for the games of ``TableGame``).

An agent is any object with ``act(view) -> action``: it gets the acting
seat's view (``PlayerView`` or ``TableView``, never the state) and returns one of
``view.legal_actions()`` (an action id is accepted too). Its choice may depend only
on its seed and the views it has been shown, so a deal replays exactly from its seed
and the agent specs.

The one exception, on the Python path only: an agent whose class sets
``cheating = True`` (a reference that looks at hidden cards, such as
``openspiel-mcts``) is called as ``act_on_state(state)`` with a copy of the true
state instead. Tournaments refuse such agents unless cheating is allowed.

``play_deal`` builds agents from spec strings afresh for every deal, seeding
the agent in each seat from the deal seed (``policies.agent_seed``). An agent
that raises, returns an illegal action or takes longer than ``time_limit``
seconds for one decision (measured when it returns: a call is never cut
short) forfeits the deal, reason ``"forfeit"``, and the result names the error:
in a two-player game the opponent wins it with the game's most game points
(``RuleSet.max_game_points``); in a game for more, every seat not on the failing
seat's side scores ``TableRules.max_game_points`` (``match.forfeit_scores``).
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
from sixtysix.match import Match, forfeit_scores
from sixtysix.table_game import TableGame, TableState
from sixtysix.theory import table_solver

from . import policies
from .specs import make, policy_of

FORFEIT = "forfeit"


@dataclass(frozen=True)
class DealResult:
    """One deal played: its seed and dealer, the specs (one per seat, in seat order), what
    happened and what it cost.

    Per seat: ``scores`` (the game points each seat scores in the deal; negative for a set
    ``na66`` contract), ``payoffs`` (the research payoff: signed game points for two
    players, RULES_MULTI 1.13.6 for more), ``card_points``, ``decisions`` and
    ``decision_seconds`` (NaN on the numba path, which is not timed), ``sides`` (the seats
    of each seat's side at the end, as a bit mask: partners share one). ``winners`` are the
    seats of the winning side (empty on a draw), ``reason`` why the deal ended.
    ``outcome`` is the game's own: ``(winner or None, game points, reason)`` for two
    players, ``(winning seats, reason, scores)`` for more. ``history_ids`` are the
    ``(seat, action id)`` pairs played; ``error`` and ``error_seat`` name a forfeit's
    cause (else None).
    """

    seed: int
    dealer: int
    specs: tuple[str, ...]
    outcome: tuple
    scores: tuple[int, ...]
    payoffs: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    sides: tuple[int, ...]
    card_points: tuple[int, ...]
    closed_by: int | None
    close_trick: int
    tricks_played: int
    decisions: tuple[int, ...]
    decision_seconds: tuple[float, ...]
    error: str | None
    error_seat: int | None
    history_ids: tuple[tuple[int, int], ...]
    engine: str

    @property
    def actions(self) -> tuple[tuple[int, str], ...]:
        """``((seat, action string), ...)`` in play order."""
        return tuple((player, action_name(action)) for player, action in self.history_ids)

    @property
    def winner(self) -> int | None:
        """The winning seat of a two-player deal (None on a draw)."""
        return self.winners[0] if len(self.winners) == 1 else None


@dataclass(frozen=True)
class MatchResult:
    """A match to ``match_target``: its deals in order, the final scores (per seat, or per
    team in a team match) and the winner (seat or team)."""

    seed: int
    deals: tuple[DealResult, ...]
    scores: tuple[int, ...]
    winner: int
    match_points: int


def play_deal(game, agents: Sequence, seed: int, *, time_limit: float | None = None):
    """Play the deal ``game.new_deal(seed=seed)``; ``agents`` are specs or agent objects, one
    per seat in seat order."""
    seed = check_seed(seed)
    return _play(game.new_deal(seed=seed), seed, agents, time_limit)


def play_deals(
    game, agents: Sequence, seeds: Sequence[int], *, time_limit: float | None = None
) -> list[DealResult]:
    """``play_deal`` for each seed; wholly in numba when both agents of a two-player game are
    built-in policy specs (the numba path cannot time out, so it ignores ``time_limit``)."""
    seeds = [check_seed(seed) for seed in seeds]
    codes = [
        policy_of(agent) if isinstance(agent, str) else None
        for agent in _one_per_seat(agents, game.num_players)
    ]
    if isinstance(game, TableGame) or None in codes:
        return [_play(game.new_deal(seed=seed), seed, agents, time_limit) for seed in seeds]
    return _play_in_numba(game, tuple(agents), codes, seeds)


def play_match(
    game, agents: Sequence, seed: int, *, time_limit: float | None = None, observer=None
):
    """Play a ``Match(game, seed)`` to its target; a forfeited deal is scored by
    ``Match.forfeit``. Agents given as specs are made afresh for every deal. An
    ``observer`` (such as the ``human`` agent) is told where each deal begins and ends:
    ``observer.begin_deal(match, state)`` and ``observer.end_deal(match, state, result)``,
    the latter once the deal is scored."""
    _one_per_seat(agents, game.num_players)
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
        match.seed, tuple(deals), tuple(match.scores), match.winner, _match_points(match)
    )


def _match_points(match) -> int:
    """What a finished match counts (a table match always counts 1)."""
    return getattr(match, "match_points", 1)


def _one_per_seat(agents: Sequence, seats: int) -> Sequence:
    """``agents``, if there is one per seat."""
    if len(agents) != seats:
        words = {2: "two", 3: "three", 4: "four"}[seats]
        raise ValueError(f"a deal needs {words} agents, one per seat; got {len(agents)}")
    return agents


def _seated(agents: Sequence, seed: int, seats: int) -> tuple[list, tuple[str, ...]]:
    """The agents of a deal (specs made with seeds from the deal seed) and their specs."""
    seated = [
        make(agent, int(policies.agent_seed(np.uint64(seed), seat)))
        if isinstance(agent, str)
        else agent
        for seat, agent in enumerate(_one_per_seat(agents, seats))
    ]
    specs = tuple(getattr(agent, "spec", "") or type(agent).__name__ for agent in seated)
    return seated, specs


def _play(state, seed: int, agents: Sequence, time_limit: float | None) -> DealResult:
    """Play ``state`` (a two-player ``State`` or a ``TableState``) to its end (or to a
    forfeit) on the Python path."""
    seats = state.game.num_players
    seated, specs = _seated(agents, seed, seats)
    decisions = [0] * seats
    seconds = [0.0] * seats
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
    ending = _table_ending if isinstance(state, TableState) else _two_player_ending
    outcome, scores, payoffs, winners, reason = ending(state, error_seat)
    return DealResult(
        seed=seed,
        dealer=state.dealer,
        specs=specs,
        outcome=outcome,
        scores=scores,
        payoffs=payoffs,
        winners=winners,
        reason=reason,
        sides=_side_masks(state),
        card_points=tuple(state.card_points),
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


def _side_masks(state) -> tuple[int, ...]:
    """Each seat's side at the end of a deal as a bit mask of its seats."""
    if not isinstance(state, TableState):
        return (1, 2)
    return tuple(sum(1 << seat for seat in side) for side in state.sides)


def _two_player_ending(state: State, error_seat: int | None):
    """``(outcome, scores, payoffs, winners, reason)`` of a two-player deal."""
    if error_seat is None:
        outcome = state.outcome
    else:
        outcome = (1 - error_seat, state.game.rules.max_game_points, FORFEIT)
    return (outcome, *_two_player_columns(*outcome))


def _two_player_columns(winner: int | None, points: int, reason: str):
    """``(scores, payoffs, winners, reason)`` of a two-player outcome."""
    if winner is None:
        return (0, 0), (0, 0), (), reason
    scores = (points, 0) if winner == 0 else (0, points)
    payoffs = (points, -points) if winner == 0 else (-points, points)
    return scores, payoffs, (winner,), reason


def _table_ending(state: TableState, error_seat: int | None):
    """``(outcome, scores, payoffs, winners, reason)`` of a deal for more seats; a forfeit is
    scored by ``match.forfeit_scores``, its payoff the side value when the deal is
    two-sided, else the scores (RULES_MULTI 1.13.6)."""
    if error_seat is None:
        winners, reason, scores = state.outcome
        return state.outcome, scores, table_solver.research_payoffs(state), winners, reason
    scores = forfeit_scores(state, error_seat)
    points = state.game.rules.max_game_points
    winners = tuple(seat for seat, score in enumerate(scores) if score)
    payoffs = scores
    if table_solver.deal_kind(state) == table_solver.TWO_SIDED:
        payoffs = tuple(points if score else -points for score in scores)
    return (winners, FORFEIT, scores), scores, payoffs, winners, FORFEIT


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
        outcome = (None if winner < 0 else winner, points, mc.TABLE_REASONS[reason])
        scores, payoffs, winners, reason_name = _two_player_columns(*outcome)
        played.append(
            DealResult(
                seed=seed,
                dealer=dealer,
                specs=canonical,
                outcome=outcome,
                scores=scores,
                payoffs=payoffs,
                winners=winners,
                reason=reason_name,
                sides=(1, 2),
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
