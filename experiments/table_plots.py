"""Figures of an N-seat tournament summary: win shares and ratings with their intervals.

As in ``tournament_plots`` (whose ``plot_ratings`` draws a ``TableSummary``'s ratings too),
the figures are ``matplotlib.figure.Figure`` objects outside pyplot.
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from .table_summary import TableSummary, summarize_table_file
from .tournament_plots import plot_ratings, save_png

#: What ``plot_win_shares`` can draw: the table's rows, and how a row is labelled.
WIN_SHARE_TABLES = {
    "agents": "agent",
    "teams": "first team against second team",
    "partners": "agent with partner",
    "lineups": "agent in each lineup",
}


def plot_win_shares(summary: TableSummary, table: str = "agents") -> Figure:
    """The win share of each agent (``table="agents"``), of each lineup's first team
    (``"teams"``), of each agent with each partner (``"partners"``) or in each lineup
    (``"lineups"``), with its 95% interval over duplicate groups; a dashed line marks a
    seat's mean win share."""
    if table not in WIN_SHARE_TABLES:
        raise ValueError(f"table must be one of {', '.join(WIN_SHARE_TABLES)}, not {table!r}")
    rows = getattr(summary, table)
    if rows.empty:
        raise ValueError(f"the summary has no {table} table: the game has no {table}")
    if table == "teams":
        labels = rows["first_team"] + " vs " + rows["second_team"]
    elif table == "partners":
        labels = [f"{agent} with {partner}" for agent, partner in rows.index]
    elif table == "lineups":
        labels = [f"{agent} in {lineup}" for lineup, agent in rows.index]
    else:
        labels = rows.index
    share = rows["win_rate"].to_numpy()
    errors = [share - rows["win_rate_low"].to_numpy(), rows["win_rate_high"].to_numpy() - share]
    figure = Figure(figsize=(6.5, 1.6 + 0.5 * len(rows)), layout="constrained")
    axes = figure.subplots()
    axes.errorbar(share, range(len(rows)), xerr=errors, fmt="o", capsize=4)
    axes.axvline(
        summary.seat_win_share,
        color="grey",
        linestyle="--",
        linewidth=0.8,
        label=f"a seat's mean ({summary.seat_win_share:.3f})",
    )
    axes.set_xlim(0, 1)
    axes.set_ylim(len(rows) - 0.5, -0.5)  # the first row on top
    axes.set_yticks(range(len(rows)), labels)
    axes.set_xlabel(f"share of {'deals' if summary.unit == 'deal' else 'matches'} won")
    axes.set_title(
        f"Win share of each {WIN_SHARE_TABLES[table]}\n95% intervals over duplicate groups"
    )
    axes.legend(loc="lower right", fontsize=8)
    return figure


def save_table_plots(
    results_path: str | Path, summary: TableSummary | None = None
) -> tuple[Path, Path]:
    """Save the agents' win shares and the ratings next to ``results/NAME.parquet`` as
    ``NAME-win-shares.png`` and ``NAME-ratings.png``; return the two paths.

    ``summary`` defaults to ``summarize_table_file`` of the file with its default arguments.
    """
    path = Path(results_path)
    if summary is None:
        summary = summarize_table_file(path)
    win_shares = path.with_name(f"{path.stem}-win-shares.png")
    ratings = path.with_name(f"{path.stem}-ratings.png")
    save_png(plot_win_shares(summary), win_shares)
    save_png(plot_ratings(summary), ratings)
    return win_shares, ratings
