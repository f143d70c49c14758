"""Figures of a tournament summary: head-to-head heatmaps and ratings with intervals.

The figures are ``matplotlib.figure.Figure`` objects outside pyplot, so they render with
the Agg canvas, never open a window and are freed with their last reference; a notebook with
``%matplotlib inline`` shows a returned figure as an image.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.figure import Figure

from .tournament_summary import Summary, summarize


def plot_head_to_head(summary: Summary, measure: str = "win") -> Figure:
    """Heatmap of the row agent's win rate (``measure="win"``) or signed points per unit
    (``"points"``) against the column agent, each cell with its 95% interval's half-width."""
    names = list(summary.agents.index)
    table = summary.head_to_head
    if measure == "win":
        column, label, digits = "win_rate", "win rate", 3
    elif measure == "points":
        column, label, digits = "points", f"{summary.points_name} per {summary.unit}", 2
    else:
        raise ValueError(f"measure must be 'win' or 'points', not {measure!r}")

    def square(values: pd.Series) -> np.ndarray:
        return values.unstack().reindex(index=names, columns=names).to_numpy(dtype=float)

    value = square(table[column])
    half = square((table[f"{column}_high"] - table[f"{column}_low"]) / 2)
    # Win rates on [0, 1]; points on a scale symmetric about 0.
    high = 1.0 if measure == "win" else float(np.nanmax(np.abs(value), initial=0.0)) or 1.0
    low = 0.0 if measure == "win" else -high
    size = 1.6 + 1.1 * len(names)
    figure = Figure(figsize=(size + 1.5, size), layout="constrained")
    axes = figure.subplots()
    colors = colormaps["RdBu"].with_extremes(bad="lightgrey")
    image = axes.imshow(value, cmap=colors, vmin=low, vmax=high)
    for row, col in zip(*np.nonzero(np.isfinite(value)), strict=True):
        shade = abs((value[row, col] - low) / (high - low) - 0.5)
        axes.text(
            col,
            row,
            f"{value[row, col]:.{digits}f}\n± {half[row, col]:.{digits}f}",
            ha="center",
            va="center",
            fontsize=8,
            color="white" if shade > 0.35 else "black",
        )
    axes.set_xticks(range(len(names)), names, rotation=30, ha="right")
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel("opponent")
    axes.set_ylabel("agent")
    axes.set_title(f"{label.capitalize()} of the row agent\nagainst the column agent (± 95%)")
    figure.colorbar(image, ax=axes, label=label)
    return figure


def plot_ratings(summary: Summary) -> Figure:
    """Bradley–Terry ratings (Elo scale) with their bootstrap 95% intervals, best on top."""
    table = summary.ratings.iloc[::-1]
    rating = table["rating"].to_numpy()
    errors = [rating - table["rating_low"].to_numpy(), table["rating_high"].to_numpy() - rating]
    figure = Figure(figsize=(6.5, 1.6 + 0.5 * len(table)), layout="constrained")
    axes = figure.subplots()
    axes.errorbar(rating, range(len(table)), xerr=errors, fmt="o", capsize=4)
    axes.axvline(0, color="grey", linewidth=0.8)
    axes.set_yticks(range(len(table)), table.index)
    zero = "mean 0" if summary.anchor is None else f"{summary.anchor} at 0"
    axes.set_xlabel(f"Bradley–Terry rating, Elo scale ({zero})")
    axes.set_title(
        f"Ratings, bootstrap 95% intervals\n({summary.resamples} resamples, seed {summary.seed})"
    )
    return figure


def save_plots(results_path: str | Path, summary: Summary | None = None) -> tuple[Path, Path]:
    """Save the win-rate heatmap and the ratings next to ``results/NAME.parquet`` as
    ``NAME-win-rates.png`` and ``NAME-ratings.png``; return the two paths.

    ``summary`` defaults to ``summarize`` of the file with its default arguments.
    """
    path = Path(results_path)
    if summary is None:
        summary = summarize(pd.read_parquet(path))
    win_rates = path.with_name(f"{path.stem}-win-rates.png")
    ratings = path.with_name(f"{path.stem}-ratings.png")
    save_png(plot_head_to_head(summary, "win"), win_rates)
    save_png(plot_ratings(summary), ratings)
    return win_rates, ratings


def save_png(figure: Figure, path: Path) -> None:
    """Save ``figure`` as a PNG through a temporary file beside ``path`` (never half-written)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    figure.savefig(temporary, dpi=150, format="png", bbox_inches="tight")
    os.replace(temporary, path)
