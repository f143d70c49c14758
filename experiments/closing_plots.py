"""The close-the-talon study's plots of the quality tables and the scored decisions
(``closing_scores``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sixtysix.theory.closing_values import Z95


def plot_loss(quality: dict[str, pd.DataFrame]) -> Figure:
    """Game points lost per decision by each agent, with 95% intervals."""
    table = quality["all"]
    figure = Figure(figsize=(6, 1.2 + 0.5 * len(table)), layout="constrained")
    axes = figure.subplots()
    spread = [table["loss"] - table["loss_low"], table["loss_high"] - table["loss"]]
    axes.barh(table["agent"], table["loss"], xerr=np.nan_to_num(spread), capsize=4)
    axes.invert_yaxis()
    axes.set_xlabel("game points lost per decision (95% interval)")
    axes.set_title("Closing decisions: loss against the PIMC reference")
    return figure


def plot_close_errors(quality: dict[str, pd.DataFrame]) -> Figure:
    """The share of positions with a false close and with a missed close, by talon size,
    one bar per agent."""
    table = quality["by_talon"]
    sizes = sorted(table["talon_size"].unique(), reverse=True)
    names = list(dict.fromkeys(table["agent"]))
    width = 0.8 / len(names)
    figure = Figure(figsize=(10, 4), layout="constrained")
    panels = figure.subplots(1, 2, sharey=True)
    titles = {
        "false_closes": "false closes: closed where not closing is better",
        "missed_closes": "missed closes: did not close where closing is better",
    }
    for axes, (column, title) in zip(panels, titles.items(), strict=True):
        for number, agent in enumerate(names):
            rows = table[table["agent"] == agent].set_index("talon_size").reindex(sizes)
            places = np.arange(len(sizes)) + (number - (len(names) - 1) / 2) * width
            axes.bar(places, rows[column] / rows["positions"], width, label=agent)
        axes.set_xticks(range(len(sizes)), sizes)
        axes.set_title(title, fontsize=9)
        axes.set_xlabel("talon size")
    panels[0].set_ylabel("share of the positions")
    panels[1].legend(fontsize=8)
    return figure


def plot_reference_gap(scored: pd.DataFrame) -> Figure:
    """The value of closing by the two references over the positions that have both: PIMC
    against best defense, one point per position, and their mean gap by talon size."""
    positions = scored.drop_duplicates("position")
    both = positions[np.isfinite(positions["defense_close_value"])]
    figure = Figure(figsize=(10, 4), layout="constrained")
    if both.empty:
        axes = figure.subplots()
        axes.text(0.5, 0.5, "no position has a best-defense value", ha="center", va="center")
        axes.set_axis_off()
        return figure
    scatter, gaps = figure.subplots(1, 2)
    scatter.scatter(both["defense_close_value"], both["close_value"], s=12, alpha=0.6)
    low = min(both["defense_close_value"].min(), both["close_value"].min())
    high = max(both["defense_close_value"].max(), both["close_value"].max())
    scatter.plot([low, high], [low, high], color="grey", linewidth=0.8)
    scatter.set_xlabel("best defense: value of closing (game points)")
    scatter.set_ylabel("PIMC: value of closing (game points)")
    scatter.set_title("one point per position", fontsize=9)
    gap = both.groupby("talon_size")["reference_gap"]
    sizes = sorted(gap.groups, reverse=True)
    means = gap.mean().reindex(sizes)
    half = (Z95 * gap.std(ddof=1) / np.sqrt(gap.size())).reindex(sizes)
    gaps.bar([str(size) for size in sizes], means, yerr=np.nan_to_num(half), capsize=4)
    gaps.set_xlabel("talon size")
    gaps.set_ylabel("PIMC minus best defense (mean, 95% interval)")
    gaps.set_title("the gap between the references", fontsize=9)
    return figure
