"""Summaries of an N-seat tournament results table: win shares, points, ratings, partners,
head to head, calls.

The table has one row per lineup, deal and arrangement (``experiments.table_tournament``'s
schema, docs/multiplayer_tournaments.md). Every arrangement of one lineup on one deal forms
a *duplicate group* ``(lineup, deal_index)``, the unit every interval here is computed over:
a group's mean outcome is one observation, and a group with fewer arrangements (a partial
file) still counts.

In match mode (the ``match_*`` columns) ``summarize_table`` reads each match from its last
row (``match_units``): the match's winners, each seat's match score as its points and its
match margin as its payoff, so that every table but the calls counts matches.

An agent's outcome in a row is the mean over the seats it holds there: its share of deals
won (its seat in the ``winners`` mask: a draw, mask 0, is won by nobody), its game points
(``score_k``) and its research payoff (``payoff_k``, RULES_MULTI 1.13.6). In the
partnership games (lineups named ``"A+B vs C+D"``: the first team in seats {0, 2} in
arrangement 0 and in {1, 3} in arrangement 1) the tables also follow the teams and, when
the run seated mixed teams (``--mixed``), each agent with each partner. In the called-card
games the call (action ids ``A_CALL + card``) is read from ``actors`` and ``actions``.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sixtysix.engine.cards import NUM_CARDS, RANKS, RANKS_PER_SUIT, SUITS, card_name, parse_card
from sixtysix.engine.multi_core import A_CALL
from sixtysix.game import Game

from .store import stored_config
from .table_tournament import read_table_results, table_columns
from .tournament_summary import (
    bracketed_ratings,
    bradley_terry,
    group_intervals,
    plus_minus,
    titled_markdown,
    titled_text,
)

GROUP = ["lineup", "deal_index"]
#: The measures of an agent's (or team's) outcome and their names in the tables.
MEASURES = {"won": "win_rate", "points": "points", "payoff": "payoff"}


def check_results(results: pd.DataFrame) -> int:
    """The number of seats of ``results``; a ``ValueError`` naming the missing columns if it
    lacks any of ``table_tournament.table_columns`` (or has no rows, or mixes seat counts)."""
    counts = sorted(map(int, results["seats"].unique())) if "seats" in results.columns else []
    if len(counts) > 1:
        raise ValueError(f"results mix tables of {counts} seats: summarize one preset at a time")
    seats = counts[0] if counts else 0
    columns = table_columns(seats, is_match_mode(results))
    missing = [name for name in columns if name not in results.columns]
    if missing:
        raise ValueError(
            f"results lack the columns {', '.join(missing)}: a table tournament's rows have "
            f"the columns of experiments.table_tournament.table_columns(seats, matches)"
        )
    if results.empty:
        raise ValueError("results hold no rows: there is nothing to summarize")
    return seats


def is_match_mode(results: pd.DataFrame) -> bool:
    """Whether ``results`` are the rows of a match tournament (they have ``match_seed``)."""
    return "match_seed" in results.columns


def match_units(results: pd.DataFrame) -> pd.DataFrame:
    """One row per match and arrangement of a match tournament's ``results``: the match's
    last deal, with ``winners`` the match's (``match_winners``) and for each seat ``k``
    ``score_k`` its match score, ``side_k`` the seats sharing it (``match_side_k``) and
    ``payoff_k`` its *match margin*: its match score less the mean score of the other teams
    (or seats), so that the margins of a match sum to zero over its teams (or seats)."""
    seats = check_results(results)
    keys = ["lineup", "deal_index", "arrangement"]
    units = results.sort_values([*keys, "match_deal"]).groupby(keys).tail(1).copy()
    scores = units[[f"match_score_{seat}" for seat in range(seats)]].to_numpy()
    sides = units[[f"match_side_{seat}" for seat in range(seats)]].to_numpy()
    team_size = sum(sides >> seat & 1 for seat in range(seats))
    owners = seats / team_size  # the teams (or seats) that keep a score
    total = (scores / team_size).sum(axis=1, keepdims=True)
    margins = scores - (total - scores) / (owners - 1)
    units["winners"] = units["match_winners"]
    for seat in range(seats):
        units[f"score_{seat}"] = scores[:, seat]
        units[f"side_{seat}"] = sides[:, seat]
        units[f"payoff_{seat}"] = margins[:, seat]
    return units.reset_index(drop=True)


def units_of(results: pd.DataFrame) -> pd.DataFrame:
    """What the outcomes are read from: the rows, or a match tournament's ``match_units``."""
    return match_units(results) if is_match_mode(results) else results


def agents(results: pd.DataFrame) -> list[str]:
    """The agent specs in order of first appearance (by lineup, then seat)."""
    seats = check_results(results)
    ordered = results.sort_values("lineup", kind="stable")[[f"spec_{k}" for k in range(seats)]]
    return list(pd.unique(ordered.to_numpy().ravel()))


def seat_outcomes(results: pd.DataFrame) -> pd.DataFrame:
    """One row per row of ``results`` (``row``: its position) and seat: ``lineup``,
    ``deal_index``, ``arrangement``, ``seat``, ``agent``, ``won`` (1 if the seat is in
    ``winners``), ``points``, ``payoff``, ``decisions`` and ``decision_seconds``."""
    seats = check_results(results)
    frames = [
        pd.DataFrame(
            {
                "row": np.arange(len(results)),
                "lineup": results["lineup"].to_numpy(),
                "deal_index": results["deal_index"].to_numpy(),
                "arrangement": results["arrangement"].to_numpy(),
                "seat": seat,
                "agent": results[f"spec_{seat}"].to_numpy(),
                "won": (results["winners"].to_numpy() >> seat) & 1,
                "points": results[f"score_{seat}"].to_numpy(),
                "payoff": results[f"payoff_{seat}"].to_numpy(),
                "decisions": results[f"decisions_{seat}"].to_numpy(),
                "decision_seconds": results[f"decision_seconds_{seat}"].to_numpy(),
            }
        )
        for seat in range(seats)
    ]
    return pd.concat(frames, ignore_index=True)


def _row_means(seats: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The measures averaged over the seats of each row and ``keys`` (an agent's seats)."""
    return seats.groupby(list(dict.fromkeys(["row", *GROUP, *keys])))[list(MEASURES)].mean()


def _interval_summary(seats: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per ``keys``: deals (rows), duplicate groups, and every measure's mean with 95% t
    intervals over the groups."""
    rows = _row_means(seats, keys)
    groups = rows.groupby(level=list(dict.fromkeys([*GROUP, *keys]))).mean()
    table = pd.DataFrame({"deals": rows.groupby(level=keys).size()})
    return table.join(group_intervals(groups, keys, MEASURES, count="groups"))


def _errors(results: pd.DataFrame) -> pd.Series:
    """Boolean per row: the deal recorded an error."""
    return results["error"].notna() & results["error"].ne("")


def agent_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per agent: deals (matches) played, duplicate groups, win share, game points (match
    score) and payoff (match margin) per deal (match) with 95% intervals over groups,
    milliseconds per decision, and the errors its seat raised, over every deal."""
    names = agents(results)
    table = _interval_summary(seat_outcomes(units_of(results)), ["agent"]).reindex(names)
    seats = seat_outcomes(results)
    timed = seats.groupby("agent")[["decision_seconds", "decisions"]].sum()
    table["ms_per_decision"] = 1000 * timed["decision_seconds"] / timed["decisions"]
    culprit = _errors(results).to_numpy()[seats["row"]] & seats["seat"].eq(
        results["error_seat"].to_numpy()[seats["row"]]
    )
    table["errors"] = seats.loc[culprit, "agent"].value_counts().reindex(names, fill_value=0)
    return table


def is_partnership(results: pd.DataFrame) -> bool:
    """Whether the lineups are pairs of teams (``"A+B vs C+D"``, four seats)."""
    return check_results(results) == 4 and bool(results["lineup_name"].str.contains(" vs ").all())


def team_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per lineup of a partnership game, from the first team's side (its seats {0, 2} in
    arrangement 0, {1, 3} in arrangement 1): its agents and the second team's, deals,
    groups, win share and payoff per deal with 95% intervals over groups, draws and errors.
    Empty for the other games."""
    if not is_partnership(results):
        return pd.DataFrame()
    units = units_of(results)
    seats = seat_outcomes(units)
    table = _interval_summary(seats[seats["seat"] % 2 == seats["arrangement"]], ["lineup"])
    opening = results.drop_duplicates("lineup").set_index("lineup").sort_index()
    flip = opening["arrangement"].to_numpy()  # the first team's seats: flip and flip + 2
    specs = opening[[f"spec_{k}" for k in range(4)]].to_numpy()
    lineups = np.arange(len(opening))
    names = pd.DataFrame(
        {
            "lineup_name": opening["lineup_name"],
            "first_team": specs[lineups, flip] + "+" + specs[lineups, flip + 2],
            "second_team": specs[lineups, 1 - flip] + "+" + specs[lineups, 3 - flip],
        },
        index=opening.index,
    )
    table = names.join(table.drop(columns="points"))
    table["draws"] = units["winners"].eq(0).groupby(units["lineup"]).sum()
    table["errors"] = _errors(results).groupby(results["lineup"]).sum()
    return table


def lineup_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per lineup and agent of a game without fixed partners, indexed by the lineup's name
    and the agent: deals, groups, win share, game points and payoff per deal with 95%
    intervals over groups. It tells one field from another, e.g. ``heuristic`` against
    two ``random`` seats (lineup ``"heuristic, random, random"``) from ``heuristic`` with
    one. Empty for the partnership games (their lineups: ``team_summary``)."""
    if is_partnership(results):
        return pd.DataFrame()
    table = _interval_summary(seat_outcomes(units_of(results)), ["lineup", "agent"])
    names = results.drop_duplicates("lineup").set_index("lineup")["lineup_name"]
    order = {name: i for i, name in enumerate(agents(results))}
    table = table.sort_index(key=lambda level: level.map(order) if level.name == "agent" else level)
    return table.rename(index=names.to_dict(), level="lineup")


def partner_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per (agent, partner) in a partnership game with mixed teams (``--mixed``): deals,
    groups, win share and payoff per deal with 95% intervals over groups. Empty when no team
    is mixed (every agent partners itself) or in the other games."""
    if not is_partnership(results):
        return pd.DataFrame()
    units = units_of(results)
    seats = seat_outcomes(units)
    specs = units[[f"spec_{seat}" for seat in range(4)]].to_numpy()
    seats["partner"] = specs[seats["row"], (seats["seat"] + 2) % 4]
    if (seats["agent"] == seats["partner"]).all():
        return pd.DataFrame()
    order = {name: i for i, name in enumerate(agents(results))}
    table = _interval_summary(seats, ["agent", "partner"]).drop(columns="points")
    return table.sort_index(key=lambda level: level.map(order))


def head_to_head(results: pd.DataFrame) -> pd.DataFrame:
    """Per agent and opponent, over the deals (rows) where the two ended on opposite sides
    (both seated, and no side holding a seat of each): ``deals``, duplicate ``groups`` and
    ``win_rate``, the share of those deals won by the agent's side (1 if one of its seats is
    in ``winners``, 0 if one of the opponent's is, 1/2 for a draw or another side's win),
    with its 95% t interval over the groups (a group's mean over its deals apart is one
    observation). Empty if no two agents ever ended apart."""
    seats = check_results(results)
    results = units_of(results)
    specs = results[[f"spec_{seat}" for seat in range(seats)]].to_numpy()
    sides = results[[f"side_{seat}" for seat in range(seats)]].to_numpy()
    winners = results["winners"].to_numpy()
    bits = 1 << np.arange(seats)
    contests = []
    for agent, opponent in itertools.permutations(agents(results), 2):
        held = np.where(specs == agent, bits, 0).sum(axis=1)  # the agent's seats, a mask
        faced = np.where(specs == opponent, bits, 0).sum(axis=1)
        allied = np.bitwise_or.reduce(np.where(specs == agent, sides, 0), axis=1)
        apart = (held > 0) & (faced > 0) & ((allied & faced) == 0)
        won = ((winners & held) > 0).astype(float) - ((winners & faced) > 0)
        contests.append(
            pd.DataFrame(
                {
                    "agent": agent,
                    "opponent": opponent,
                    "lineup": results["lineup"].to_numpy(),
                    "deal_index": results["deal_index"].to_numpy(),
                    "won": 0.5 + won / 2,
                }
            )[apart]
        )
    contests = pd.concat(contests, ignore_index=True)
    if contests.empty:
        return pd.DataFrame()
    keys = ["agent", "opponent"]
    groups = contests.groupby([*keys, *GROUP])[["won"]].mean()
    table = pd.DataFrame({"deals": contests.groupby(keys).size()})
    table = table.join(group_intervals(groups, keys, {"won": "win_rate"}, count="groups"))
    order = pd.MultiIndex.from_frame(contests[keys].drop_duplicates())
    return table.reindex(order)


def ratings(
    results: pd.DataFrame,
    *,
    resamples: int = 200,
    seed: int = 0,
    alpha: float = 0.01,
    anchor: str | None = None,
) -> pd.DataFrame:
    """Bradley–Terry ratings on the Elo scale with bootstrap 95% intervals, best first.

    Every two seats of a row on different sides (``side_k``) held by different agents are a
    contest: the higher payoff wins, an equal one is half a win each way. The contests of
    one row between the same two agents count as one, their mean. Fitted and bootstrapped
    as ``tournament_summary.ratings`` (``choix.ilsr_pairwise_dense``, regularization
    ``alpha``; ``resamples`` refits, each resampling the duplicate groups of every lineup
    with replacement, drawn from ``numpy.random.default_rng(seed)``); ``played`` counts the
    agent's deals (matches).
    """
    seats = check_results(results)
    results = units_of(results)
    names = agents(results)
    index = {name: i for i, name in enumerate(names)}
    contests = []
    for i, j in itertools.combinations(range(seats), 2):
        agent_i = results[f"spec_{i}"].map(index).to_numpy()
        agent_j = results[f"spec_{j}"].map(index).to_numpy()
        payoff_i = results[f"payoff_{i}"].to_numpy()
        payoff_j = results[f"payoff_{j}"].to_numpy()
        score_i = np.sign(payoff_i - payoff_j) / 2 + 0.5
        apart = (results[f"side_{i}"].to_numpy() >> j) & 1 == 0
        contests.append(
            pd.DataFrame(
                {
                    "row": np.arange(len(results)),
                    "lineup": results["lineup"].to_numpy(),
                    "deal_index": results["deal_index"].to_numpy(),
                    "low": np.minimum(agent_i, agent_j),
                    "high": np.maximum(agent_i, agent_j),
                    "won": np.where(agent_i < agent_j, score_i, 1 - score_i),
                }
            )[apart & (agent_i != agent_j)]
        )
    contests = pd.concat(contests)
    if contests.empty:
        raise ValueError(
            "no two agents ever sat on different sides: ratings need a contest between agents"
        )
    per_row = contests.groupby(["row", *GROUP, "low", "high"])["won"].mean()
    per_group = per_row.groupby(level=[*GROUP, "low", "high"]).agg(["sum", "size"])
    blocks = []
    for _, lineup in per_group.groupby(level="lineup"):
        won = lineup["sum"].unstack(["low", "high"], fill_value=0)
        lost = lineup["size"].unstack(["low", "high"], fill_value=0) - won
        pairs = list(won.columns)
        blocks.append(
            (
                pairs + [(high, low) for low, high in pairs],
                np.column_stack([won.to_numpy(), lost.to_numpy()]),
            )
        )
    played = seat_outcomes(results).groupby("agent")["row"].nunique()
    return bradley_terry(
        names,
        blocks,
        played.reindex(names).to_numpy(),
        resamples=resamples,
        seed=seed,
        alpha=alpha,
        anchor=anchor,
    )


def duplicate_variance(results: pd.DataFrame) -> pd.DataFrame:
    """The measured gain of the duplicate format, per agent.

    For payoff and win share: ``deal_variance``, the variance of the agent's outcome in one
    deal (row), and ``group_variance``, that of its duplicate-group means, both within
    lineups (pooled about each lineup's mean); ``deals_per_group``, their ratio, is how many
    independent deals one group is worth, and ``gain`` that over the deals a group holds
    (``arrangements``, on average): above 1 the rotated or swapped seats cancel the luck of
    the cards and a group is worth more than as many independent deals.
    """
    measures = ["payoff", "won"]
    rows = _row_means(seat_outcomes(units_of(results)), ["agent"])[measures].reset_index()
    groups = rows.groupby([*GROUP, "agent"])[measures].mean().reset_index()

    def pooled(frame: pd.DataFrame) -> pd.DataFrame:
        """Per agent: the variance about each lineup's mean, one degree of freedom a lineup."""
        means = frame.groupby(["agent", "lineup"])[measures].transform("mean")
        deviation = frame[measures] - means
        squares = deviation.pow(2).groupby(frame["agent"]).sum()
        freedom = frame.groupby("agent").size() - frame.groupby("agent")["lineup"].nunique()
        return squares.div(freedom, axis=0)

    deal, group = pooled(rows), pooled(groups)
    table = pd.DataFrame(
        {
            "deals": rows.groupby("agent").size(),
            "groups": groups.groupby("agent").size(),
        }
    )
    table["arrangements"] = table["deals"] / table["groups"]
    for measure in measures:
        name = "win" if measure == "won" else measure
        table[f"{name}_deal_variance"] = deal[measure]
        table[f"{name}_group_variance"] = group[measure]
        table[f"{name}_deals_per_group"] = deal[measure] / group[measure]
        table[f"{name}_gain"] = table[f"{name}_deals_per_group"] / table["arrangements"]
    return table.reindex(agents(results))


def call_decisions(results: pd.DataFrame, game=None) -> pd.DataFrame:
    """One row per call in ``results`` (the called-card games; empty for the others).

    Columns: ``row`` (position in ``results``), ``lineup``, ``deal_index``, ``deal_seed``,
    ``caller`` (seat),
    ``agent``, ``card`` ("AS"), ``rank``, ``suit``, ``alone`` (the caller's side is the caller
    alone at the end: he called his own card, drew it from the talon, or announced alone),
    ``won`` (the caller's side won), ``payoff`` (the caller's) and ``reason``. With the
    tournament's ``game`` (a ``TableGame``), each deal is replayed to the call, adding what
    the caller's view held then: ``own`` (the called card), ``suit_held`` (his other cards of
    the called suit) and ``highest_missing`` (no card of the pack in that suit above the
    called card is missing from his hand).
    """
    seats = check_results(results)
    found = [
        (row, positions[0])
        for row, actions in enumerate(map(np.asarray, results["actions"]))
        if len(positions := np.flatnonzero((actions >= A_CALL) & (actions < A_CALL + NUM_CARDS)))
    ]
    rows = np.array([row for row, _ in found], dtype=np.int64)
    histories = results["actions"].to_numpy()[rows]
    caller = np.array([results["actors"].iloc[row][at] for row, at in found], dtype=np.int64)
    cards = [int(histories[index][at]) - A_CALL for index, (_, at) in enumerate(found)]

    def callers(name: str) -> np.ndarray:
        return results[[f"{name}_{seat}" for seat in range(seats)]].to_numpy()[rows, caller]

    calls = pd.DataFrame(
        {
            "row": rows,
            "lineup": results["lineup"].to_numpy()[rows],
            "deal_index": results["deal_index"].to_numpy()[rows],
            "deal_seed": results["deal_seed"].to_numpy()[rows],
            "caller": caller,
            "agent": callers("spec"),
            "card": [card_name(card) for card in cards],
            "rank": [RANKS[card % RANKS_PER_SUIT] for card in cards],
            "suit": [SUITS[card // RANKS_PER_SUIT] for card in cards],
            "alone": callers("side") == 1 << caller,
            "won": (results["winners"].to_numpy()[rows] >> caller) & 1 == 1,
            "payoff": callers("payoff"),
            "reason": results["reason"].to_numpy()[rows],
        }
    )
    if game is None:
        return calls
    if game.num_players != seats:
        raise ValueError(
            f"{game!r} has {game.num_players} seats, the results {seats}: give the game the "
            "tournament played"
        )
    if len(rows) and game.rules.sides != "called_card":
        raise ValueError(
            f"the results hold calls, and {game!r} (sides {game.rules.sides!r}) has none: give "
            "the game the tournament played"
        )
    seeds, dealers = results["deal_seed"].to_numpy()[rows], results["dealer"].to_numpy()[rows]
    hands = {}  # the replays, by deal seed and actions up to the call
    for index, (_, at) in enumerate(found):
        key = (int(seeds[index]), tuple(histories[index][: at + 1]))
        if key not in hands:
            hands[key] = _hand_at_call(game, key[0], int(dealers[index]), key[1], caller[index])
    held = pd.DataFrame(
        [
            hands[int(seeds[index]), tuple(histories[index][: at + 1])]
            for index, (_, at) in enumerate(found)
        ],
        columns=["own", "suit_held", "highest_missing"],
    )
    return pd.concat([calls, held], axis=1)


def _hand_at_call(game, seed: int, dealer: int, actions: tuple, caller: int) -> dict:
    """What the caller's view held when he made the call that ends ``actions``, replayed in
    ``game`` from the deal of ``seed`` by ``dealer``."""
    state = game.new_deal(seed=seed, dealer=dealer)
    try:
        for action in actions[:-1]:
            state.apply(int(action))
    except ValueError as error:
        raise ValueError(
            f"the deal of seed {seed} does not replay in {game!r} ({error}): give the game the "
            "tournament played"
        ) from None
    hand = {parse_card(name) for name in state.view(caller).hand}
    card = int(actions[-1]) - A_CALL
    suit = card // RANKS_PER_SUIT
    missing = [c for c in game.deck_cards if c // RANKS_PER_SUIT == suit and c not in hand]
    return {
        "own": card in hand,
        "suit_held": sum(c // RANKS_PER_SUIT == suit and c != card for c in hand),
        "highest_missing": card not in hand and card == max(missing),
    }


def call_summary(calls: pd.DataFrame) -> pd.DataFrame:
    """Per calling agent: calls, the deals they were made in (a deal's caller sits in the same
    seat with the same view in every lineup and arrangement, so an agent makes the same call
    there each time: ``deals`` counts its distinct decisions, by deal seed), the share of each
    rank called, the share alone, won by the caller's side and the caller's payoff per call,
    and with the replayed columns of ``call_decisions`` the shares of own cards and highest
    missing cards and the mean number of other cards of the called suit held."""
    if calls.empty:
        return pd.DataFrame()
    by_agent = calls.groupby("agent")
    ranks = pd.crosstab(calls["agent"], calls["rank"], normalize="index")
    ranks = ranks[[rank for rank in RANKS if rank in ranks.columns]].add_prefix("rank_")
    table = pd.DataFrame({"calls": by_agent.size(), "deals": by_agent["deal_seed"].nunique()})
    table = table.join(ranks)
    replayed = [name for name in ("own", "highest_missing", "suit_held") if name in calls]
    for name in ("alone", "won", "payoff", *replayed):
        table[name] = by_agent[name].mean()
    return table


def call_endings(calls: pd.DataFrame) -> pd.DataFrame:
    """Per calling agent and ``alone``: the calls and the share of each ``reason`` the deal
    ended with."""
    if calls.empty:
        return pd.DataFrame()
    shares = pd.crosstab([calls["agent"], calls["alone"]], calls["reason"], normalize="index")
    return pd.DataFrame({"calls": calls.groupby(["agent", "alone"]).size()}).join(shares)


#: The readable headings of ``call_summary``'s columns.
CALL_HEADINGS = {
    "alone": "alone",
    "won": "won",
    "payoff": "payoff/call",
    "own": "own card",
    "highest_missing": "highest missing",
    "suit_held": "others of suit held",
}


@dataclass(frozen=True)
class TableSummary:
    """The tables of one N-seat results table (see ``summarize_table``); empty tables for
    what the game does not have (teams and partners, or head to head, calls). ``unit`` is "deal"
    or "match": what the tables count."""

    unit: str
    agents: pd.DataFrame
    teams: pd.DataFrame
    lineups: pd.DataFrame
    partners: pd.DataFrame
    head_to_head: pd.DataFrame
    ratings: pd.DataFrame
    duplicate: pd.DataFrame
    calls: pd.DataFrame
    call_endings: pd.DataFrame
    #: The mean win share of one seat (draws lower it): what an agent equal to the field wins.
    seat_win_share: float
    resamples: int
    seed: int
    alpha: float
    anchor: str | None

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """The numeric tables that apply to this game, by name."""
        names = (
            "agents",
            "teams",
            "lineups",
            "partners",
            "head_to_head",
            "ratings",
            "duplicate",
            "calls",
            "call_endings",
        )
        tables = {name: getattr(self, name) for name in names}
        return {name: table for name, table in tables.items() if not table.empty}

    def readable(self) -> dict[str, pd.DataFrame]:
        """The tables for reading, intervals written out, by title."""
        unit = self.unit
        played = {"deal": "deals", "match": "matches"}[unit]
        points, payoff = ("game points", "payoff") if unit == "deal" else ("match score", "margin")

        def rates(table: pd.DataFrame, points_too: bool) -> dict[str, object]:
            columns = {played: table["deals"], "win share": plus_minus(table, "win_rate", 3)}
            if points_too:
                columns[f"{points}/{unit}"] = plus_minus(table, "points", 2)
            columns[f"{payoff}/{unit}"] = plus_minus(table, "payoff", 2)
            return columns

        agents = pd.DataFrame(rates(self.agents, True), index=self.agents.index)
        agents["ms/decision"] = self.agents["ms_per_decision"].map("{:.2f}".format)
        agents["errors"] = self.agents["errors"]
        zero = "mean 0" if self.anchor is None else f"{self.anchor} at 0"
        readable = {
            f"Agents (95% intervals over duplicate groups; a seat wins "
            f"{self.seat_win_share:.3f} of its {played} on average)": agents,
        }
        if not self.teams.empty:
            teams = self.teams[["first_team", "second_team"]].assign(**rates(self.teams, False))
            teams = teams.rename(columns={"first_team": "first team", "second_team": "second team"})
            readable["Team pairings (the first team's side)"] = teams.assign(
                draws=self.teams["draws"], errors=self.teams["errors"]
            )
        if not self.lineups.empty:
            readable["Lineups (each agent's seats in each lineup)"] = pd.DataFrame(
                rates(self.lineups, True), index=self.lineups.index
            )
        if not self.partners.empty:
            partners = pd.DataFrame(rates(self.partners, False), index=self.partners.index)
            readable["Partners (each agent with each partner, mixed teams)"] = partners
        if not self.head_to_head.empty:
            versus = self.head_to_head
            readable[
                f"Head to head (only the {played} where the two agents ended on opposite "
                "sides; a draw or a third side's win is half; 95% intervals over groups)"
            ] = pd.DataFrame(
                {
                    played: versus["deals"],
                    "groups": versus["groups"],
                    "win share": plus_minus(versus, "win_rate", 3),
                },
                index=versus.index,
            )
        readable[
            f"Bradley–Terry ratings (Elo scale, {zero}; seats of different sides, the higher "
            f"{payoff} wins; 95% bootstrap, {self.resamples} resamples, seed {self.seed})"
        ] = pd.DataFrame(
            {"rating": bracketed_ratings(self.ratings), played: self.ratings["played"]},
            index=self.ratings.index,
        )
        duplicate = self.duplicate[["deals", "groups", "arrangements"]].rename(
            columns={"deals": played}
        )
        for name in ("payoff", "win"):
            heading = payoff if name == "payoff" else name
            duplicate[f"{heading} {played}/group"] = self.duplicate[f"{name}_deals_per_group"]
            duplicate[f"{heading} gain"] = self.duplicate[f"{name}_gain"]
        readable[
            f"Duplicate format (independent {played} one group is worth; gain: per {unit} it holds)"
        ] = duplicate.round(2)
        if not self.calls.empty:
            calls = self.calls.rename(columns=CALL_HEADINGS).round(3)
            readable["Calls (share of the calls of each rank; the rest per call)"] = calls
            endings = self.call_endings.round(3)
            readable["How the callers' deals end (share of each reason)"] = endings
        return readable

    def to_text(self) -> str:
        """The tables as plain text."""
        return titled_text(self.readable())

    def to_markdown(self) -> str:
        """The tables as Markdown (a heading and a pipe table each)."""
        return titled_markdown(self.readable())


def summarize_table(
    results: pd.DataFrame,
    *,
    game=None,
    resamples: int = 200,
    seed: int = 0,
    alpha: float = 0.01,
    anchor: str | None = None,
) -> TableSummary:
    """All tables of ``results`` (of a match tournament: of its matches, but the decision
    times, errors and calls, read from every deal); ``game`` (the tournament's ``TableGame``)
    adds the caller's hand to the calls (``call_decisions``); the rating arguments are those
    of ``ratings``."""
    seats = check_results(results)
    calls = call_decisions(results, game)
    winners = units_of(results)["winners"].to_numpy()
    return TableSummary(
        unit="match" if is_match_mode(results) else "deal",
        agents=agent_summary(results),
        teams=team_summary(results),
        lineups=lineup_summary(results),
        partners=partner_summary(results),
        head_to_head=pd.DataFrame() if is_partnership(results) else head_to_head(results),
        ratings=ratings(results, resamples=resamples, seed=seed, alpha=alpha, anchor=anchor),
        duplicate=duplicate_variance(results),
        calls=call_summary(calls),
        call_endings=call_endings(calls),
        seat_win_share=float(np.mean([winners >> seat & 1 for seat in range(seats)])),
        resamples=resamples,
        seed=seed,
        alpha=alpha,
        anchor=anchor,
    )


def summarize_table_file(path: str | os.PathLike, **options) -> TableSummary:
    """``summarize_table`` of a table tournament's results file, the calls replayed in the
    game stored with it; ``options`` are those of ``summarize_table`` but ``game``."""
    results = read_table_results(path)
    config = stored_config(path)
    return summarize_table(results, game=Game(config["preset"], **config["overrides"]), **options)
