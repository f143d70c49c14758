"""Summaries of a tournament results table: win rates, game points, ratings, duplicate gain.

The table has one row per deal played (the tournament runner's schema). Each pairing plays
the same seeded deals twice with seats swapped; the two deals of a ``(pairing, deal_index)``
form a *duplicate pair*, the unit every interval here is computed over: a pair's mean
outcome is one observation, and a pair with one deal only (a partial file) still counts.

In match mode (a ``match_deal`` column and some ``match_winner >= 0``) the unit is a match,
read from its last row (highest ``match_deal``): ``match_winner`` and ``match_points``
replace ``winner`` and ``game_points``, and ``deal_index`` numbers the matches.

Outcomes are read as the runner recorded them: a deal with no winner (a draw, or an
error without a winner) counts as half a win and zero points.
"""

from __future__ import annotations

from dataclasses import dataclass

import choix
import numpy as np
import pandas as pd
from scipy import stats

CONFIDENCE = 0.95
#: Bradley–Terry log-strength to Elo points: 400 Elo is 10:1 odds.
ELO_PER_LOG_STRENGTH = 400 / np.log(10)

_MEASURES = ("win", "points")
_PLURAL = {"deal": "deals", "match": "matches"}


def is_match_mode(results: pd.DataFrame) -> bool:
    """Whether ``results`` holds matches (some ``match_winner >= 0``) rather than deals."""
    return "match_deal" in results and bool(results["match_winner"].ge(0).any())


def outcomes(results: pd.DataFrame) -> pd.DataFrame:
    """One row per deal (or match) from agent_a's side.

    Columns ``pairing``, ``agent_a``, ``agent_b``, ``deal_index``, ``swap``, ``win``
    (1, 0.5 for no winner, 0) and ``points`` (signed game points, or match points).
    """
    if is_match_mode(results):
        units = results.sort_values("match_deal").groupby(["pairing", "deal_index", "swap"]).tail(1)
        winner, points = units["match_winner"], units["match_points"]
    else:
        units, winner, points = results, results["winner"], results["game_points"]
    won = winner == units["swap"]
    lost = winner.ge(0) & ~won
    frame = units[["pairing", "agent_a", "agent_b", "deal_index", "swap"]].copy()
    frame["win"] = won + 0.5 * winner.lt(0)
    frame["points"] = points * (won.astype(float) - lost)
    return frame.sort_values(["pairing", "deal_index", "swap"]).reset_index(drop=True)


def agents(results: pd.DataFrame) -> list[str]:
    """The agent specs in order of first appearance (by pairing, agent_a before agent_b)."""
    ordered = results.sort_values("pairing", kind="stable")[["agent_a", "agent_b"]]
    return list(pd.unique(ordered.to_numpy().ravel()))


def _sides(units: pd.DataFrame) -> pd.DataFrame:
    """Each unit twice, once from each agent's side (``side`` "a" or "b")."""
    side_a = units.assign(agent=units["agent_a"], opponent=units["agent_b"], side="a")
    side_b = units.assign(
        agent=units["agent_b"],
        opponent=units["agent_a"],
        side="b",
        win=1 - units["win"],
        points=-units["points"],
    )
    columns = ["pairing", "side", "deal_index", "agent", "opponent", "win", "points"]
    return pd.concat([side_a, side_b], ignore_index=True)[columns]


def _interval_table(sides: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Units played, duplicate pairs, and win rate and points with t intervals over pairs."""
    pair_keys = list(dict.fromkeys([*keys, "pairing", "side", "deal_index"]))
    pairs = sides.groupby(pair_keys)[list(_MEASURES)].mean()
    table = pd.DataFrame({"played": sides.groupby(keys).size()})
    names = dict(zip(_MEASURES, ("win_rate", "points"), strict=True))
    return table.join(group_intervals(pairs, keys, names, count="pairs"))


def group_intervals(
    groups: pd.DataFrame, keys: list[str], names: dict[str, str], *, count: str
) -> pd.DataFrame:
    """Per value of the index levels ``keys`` of ``groups`` (one row per independent group):
    the number of groups as column ``count`` and, for each column ``c`` of ``names``, its mean
    over the groups as ``names[c]`` with the bounds of its 95% t interval, ``names[c]_low``
    and ``names[c]_high`` (NaN for a single group)."""
    grouped = groups.groupby(level=keys)[list(names)]
    size = grouped.size()
    mean, sem = grouped.mean(), grouped.sem()
    half = sem.mul(stats.t.ppf((1 + CONFIDENCE) / 2, size - 1), axis=0)
    table = pd.DataFrame({count: size})
    for column, name in names.items():
        table[name] = mean[column]
        table[f"{name}_low"] = mean[column] - half[column]
        table[f"{name}_high"] = mean[column] + half[column]
    return table


def _errors(results: pd.DataFrame) -> pd.Series:
    """Boolean per row: the deal recorded an error."""
    return results["error"].ne("")


def pairing_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per pairing, from agent_a's side: units played, pairs, win rate and signed points per
    unit with 95% intervals over duplicate pairs, and the rows with an error."""
    sides = _sides(outcomes(results))
    table = _interval_table(sides[sides["side"] == "a"], ["pairing"])
    names = results.groupby("pairing")[["agent_a", "agent_b"]].first()
    table = names.join(table)
    table["errors"] = _errors(results).groupby(results["pairing"]).sum()
    return table


def _versus(results: pd.DataFrame) -> pd.DataFrame:
    """Both sides of every unit, self-play pairings (agent_a == agent_b) left out."""
    sides = _sides(outcomes(results))
    return sides[sides["agent"] != sides["opponent"]]


def agent_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per agent over all its pairings but self-play, from its side: as ``pairing_summary``;
    ``errors`` counts the rows whose error its seat raised (``error_seat``)."""
    table = _interval_table(_versus(results), ["agent"])
    names = [name for name in agents(results) if name in table.index]
    table = table.reindex(names)
    failed = results[_errors(results) & results["error_seat"].ge(0)]
    culprit = np.where(failed["error_seat"] == 0, failed["spec_0"], failed["spec_1"])
    table["errors"] = pd.Series(culprit, dtype=object).value_counts().reindex(names, fill_value=0)
    return table


def head_to_head(results: pd.DataFrame) -> pd.DataFrame:
    """Per (agent, opponent), self-play left out: as ``pairing_summary`` from agent's side."""
    return _interval_table(_versus(results), ["agent", "opponent"])


def duplicate_variance(results: pd.DataFrame) -> pd.DataFrame:
    """The measured gain of the duplicate format, per pairing and pooled (row ``"all"``).

    ``win_se`` is the standard error of the win rate over duplicate pairs,
    ``win_se_independent`` the naive one treating the deals as independent (what as many
    independent deals would give), and ``win_variance_ratio`` their squared ratio: below 1 the
    duplicate format needs that fraction of the deals for the same precision. Likewise for
    points. The ``"all"`` row is for the average over pairings: ``sqrt(sum se**2) / K``.
    """
    units = outcomes(results)
    pair_means = units.groupby(["pairing", "deal_index"])[list(_MEASURES)].mean()
    paired = pair_means.groupby(level="pairing").sem()
    independent = units.groupby("pairing")[list(_MEASURES)].sem()
    for se in (paired, independent):
        se.loc["all"] = se.pow(2).sum() ** 0.5 / len(se)
    table = results.groupby("pairing")[["agent_a", "agent_b"]].first()
    table["pairs"] = pair_means.groupby(level="pairing").size()
    table["played"] = units.groupby("pairing").size()
    table.loc["all"] = ["", "", table["pairs"].sum(), table["played"].sum()]
    for measure in _MEASURES:
        table[f"{measure}_se"] = paired[measure]
        table[f"{measure}_se_independent"] = independent[measure]
        table[f"{measure}_variance_ratio"] = (paired[measure] / independent[measure]) ** 2
    return table


def ratings(
    results: pd.DataFrame,
    *,
    resamples: int = 200,
    seed: int = 0,
    alpha: float = 0.01,
    anchor: str | None = None,
) -> pd.DataFrame:
    """Bradley–Terry ratings on the Elo scale with bootstrap 95% intervals, best first.

    Fitted by ``choix.ilsr_pairwise_dense`` on the matrix of units won, a unit without a
    winner being half a win each way; self-play is left out. ``alpha`` is choix's
    regularization (it seeds every transition rate of the spectral fit): small enough to
    leave real records alone, it keeps a perfect record finite. A rating is ``400 / ln 10``
    times the log-strength (400 points: 10:1 odds), shifted to mean 0, or with ``anchor`` so
    that agent is 0. The interval is the percentile interval of ``resamples`` refits, each
    resampling the duplicate pairs of every pairing with replacement, drawn from
    ``numpy.random.default_rng(seed)``.
    """
    units = outcomes(results)
    units = units[units["agent_a"] != units["agent_b"]]
    names = agents(units)
    index = {name: i for i, name in enumerate(names)}
    pairs = units.groupby(["pairing", "deal_index"]).agg(
        agent_a=("agent_a", "first"),
        agent_b=("agent_b", "first"),
        won=("win", "sum"),
        played=("win", "size"),
    )
    blocks = []
    for _, pairing in pairs.groupby(level="pairing"):
        i, j = index[pairing["agent_a"].iloc[0]], index[pairing["agent_b"].iloc[0]]
        won = pairing["won"].to_numpy()
        blocks.append(([(i, j), (j, i)], np.column_stack([won, pairing["played"] - won])))
    played = pd.concat([units["agent_a"], units["agent_b"]]).value_counts()
    return bradley_terry(
        names,
        blocks,
        played.reindex(names).to_numpy(),
        resamples=resamples,
        seed=seed,
        alpha=alpha,
        anchor=anchor,
    )


def bradley_terry(
    names: list[str],
    blocks: list[tuple[list[tuple[int, int]], np.ndarray]],
    played: np.ndarray,
    *,
    resamples: int,
    seed: int,
    alpha: float,
    anchor: str | None,
) -> pd.DataFrame:
    """Bradley–Terry ratings of ``names`` as ``ratings`` describes, from ``blocks``, one per
    stratum of the bootstrap: ``(contests, won)`` with ``contests`` the ``(winner, loser)``
    index pairs and ``won[g, c]`` what independent group ``g`` (a duplicate pair or group)
    counts for contest ``c``. Each resample draws every block's groups with replacement;
    ``played`` is the ``played`` column."""
    if anchor is not None and anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the rated agents {names}")

    def fit(weights: list[np.ndarray]) -> np.ndarray:
        wins = np.zeros((len(names), len(names)))
        for (contests, won), weight in zip(blocks, weights, strict=True):
            np.add.at(wins, tuple(np.transpose(contests)), weight @ won)
        rating = choix.ilsr_pairwise_dense(wins, alpha=alpha) * ELO_PER_LOG_STRENGTH
        return rating - (rating.mean() if anchor is None else rating[names.index(anchor)])

    rng = np.random.default_rng(seed)
    sizes = [len(won) for _, won in blocks]
    boot = [
        fit([rng.multinomial(size, np.full(size, 1 / size)) for size in sizes])
        for _ in range(resamples)
    ]
    tail = 100 * (1 - CONFIDENCE) / 2
    low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
    table = pd.DataFrame(
        {
            "rating": fit([np.ones(size) for size in sizes]),
            "rating_low": low,
            "rating_high": high,
            "played": played,
        },
        index=pd.Index(names, name="agent"),
    )
    return table.sort_values("rating", ascending=False)


@dataclass(frozen=True)
class Summary:
    """The tables of one results table (see ``summarize``); ``unit`` is "deal" or "match"."""

    unit: str
    pairings: pd.DataFrame
    agents: pd.DataFrame
    head_to_head: pd.DataFrame
    ratings: pd.DataFrame
    duplicate: pd.DataFrame
    resamples: int
    seed: int
    alpha: float
    anchor: str | None

    @property
    def points_name(self) -> str:
        """What ``points`` counts: "game points" per deal or "match points" per match."""
        return "match points" if self.unit == "match" else "game points"

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables for reading, intervals written out, by title."""
        played = _PLURAL[self.unit]
        points = f"{self.points_name}/{self.unit}"

        def rates(table: pd.DataFrame) -> dict[str, object]:
            return {
                played: table["played"],
                "win rate": plus_minus(table, "win_rate", 3),
                points: plus_minus(table, "points", 2),
                "errors": table["errors"],
            }

        pairings = self.pairings[["agent_a", "agent_b"]].assign(**rates(self.pairings))
        agents = pd.DataFrame(rates(self.agents), index=self.agents.index)
        ratings = pd.DataFrame(
            {"rating": bracketed_ratings(self.ratings), played: self.ratings["played"]},
            index=self.ratings.index,
        )
        duplicate = self.duplicate[["agent_a", "agent_b", "pairs", "played"]]
        duplicate = duplicate.rename(columns={"played": played})
        for measure in _MEASURES:
            se, ratio = self.duplicate[f"{measure}_se"], self.duplicate[f"{measure}_variance_ratio"]
            duplicate[f"{measure} SE"] = se.map("{:.4f}".format)
            duplicate[f"{measure} variance ratio"] = ratio.map("{:.2f}".format)
        zero = "mean 0" if self.anchor is None else f"{self.anchor} at 0"
        pooled = self.duplicate.loc["all", "win_variance_ratio"]
        return {
            "Pairings (agent_a's side, 95% intervals over duplicate pairs)": pairings,
            "Agents (all pairings but self-play)": agents,
            f"Bradley–Terry ratings (Elo scale, {zero}; 95% bootstrap, "
            f"{self.resamples} resamples, seed {self.seed})": ratings,
            f"Duplicate format (pooled win-rate variance {pooled:.2f} times that of "
            f"independent {played})": duplicate,
        }

    def to_text(self) -> str:
        """The tables as plain text."""
        return titled_text(self.tables())

    def to_markdown(self) -> str:
        """The tables as Markdown (a heading and a pipe table each)."""
        return titled_markdown(self.tables())


def summarize(
    results: pd.DataFrame,
    *,
    resamples: int = 200,
    seed: int = 0,
    alpha: float = 0.01,
    anchor: str | None = None,
) -> Summary:
    """All tables of ``results``; the rating arguments are those of ``ratings``."""
    return Summary(
        unit="match" if is_match_mode(results) else "deal",
        pairings=pairing_summary(results),
        agents=agent_summary(results),
        head_to_head=head_to_head(results),
        ratings=ratings(results, resamples=resamples, seed=seed, alpha=alpha, anchor=anchor),
        duplicate=duplicate_variance(results),
        resamples=resamples,
        seed=seed,
        alpha=alpha,
        anchor=anchor,
    )


# ---- table formatting, shared with the table summary and the closing study's report --------


def titled_text(tables: dict[str, pd.DataFrame]) -> str:
    """Each table as plain text under its title (the dict's key), blank lines between."""
    return "\n\n".join(f"{title}\n{table.to_string()}" for title, table in tables.items())


def titled_markdown(tables: dict[str, pd.DataFrame]) -> str:
    """Each table as a Markdown pipe table under a ``###`` heading of its title."""
    return "\n\n".join(f"### {title}\n\n{markdown_table(table)}" for title, table in tables.items())


def plus_minus(table: pd.DataFrame, name: str, digits: int) -> list[str]:
    """``mean ± half-width`` for column ``name`` and its ``_low`` / ``_high`` bounds."""
    half = (table[f"{name}_high"] - table[f"{name}_low"]) / 2
    return [
        f"{mean:.{digits}f} ± {width:.{digits}f}"
        for mean, width in zip(table[name], half, strict=True)
    ]


def bracketed_ratings(table: pd.DataFrame) -> list[str]:
    """``rating [low, high]`` for each row of a ratings table, in whole Elo points."""
    return [
        f"{rating:.0f} [{low:.0f}, {high:.0f}]"
        for rating, low, high in table[["rating", "rating_low", "rating_high"]].itertuples(
            index=False, name=None
        )
    ]


def markdown_table(table: pd.DataFrame) -> str:
    """A minimal Markdown pipe table of ``table``, its index as the first column."""
    frame = table.reset_index()
    lines = [list(map(str, frame.columns)), ["---"] * frame.shape[1]]
    lines += [list(map(str, row)) for row in frame.itertuples(index=False, name=None)]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)
