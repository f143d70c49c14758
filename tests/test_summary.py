"""Tournament summaries on synthetic results tables with known win probabilities."""

from __future__ import annotations

from pathlib import Path

import jupyter_client.kernelspec
import nbclient
import nbformat
import numpy as np
import pandas as pd
import pytest
from sixtysix.experiments import tournament_plots, tournament_summary

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "win_rates.ipynb"


def true_rates(edge: float, luck: float, draws: float) -> tuple[float, float]:
    """Agent_a's expected win rate and signed game points per deal under ``synthetic_results``
    (points are 1-3, mean 2)."""
    win = 1 / (1 + np.exp(-edge))
    decided = draws / 2 + (1 - draws) * win
    return luck / 2 + (1 - luck) * decided, (1 - luck) * (1 - draws) * (2 * win - 1) * 2


def synthetic_results(
    pairings: list[tuple[str, str]],
    strengths: dict[str, float],
    deals: int,
    seed: int,
    *,
    luck: float = 0.4,
    draws: float = 0.1,
    matches: bool = False,
) -> pd.DataFrame:
    """A results table in the tournament runner's schema, ``deals`` deal pairs per pairing.

    With probability ``luck`` a deal is decided by the cards: one seat, the same in both
    swapped deals, wins. Otherwise it is drawn with probability ``draws``, else agent_a wins
    with probability ``logistic(strength_a - strength_b)``. The winner scores 1-3 points.
    With ``matches`` each deal becomes a match of 1-3 deals whose last deal carries that
    outcome (``match_points`` 1-2); agent_b wins every earlier deal.
    """
    rng = np.random.default_rng(seed)
    shape = (len(pairings), deals, 2)
    pairing, deal_index, swap = np.indices(shape)
    agent_a = np.array([a for a, _ in pairings])[pairing]
    agent_b = np.array([b for _, b in pairings])[pairing]
    edge = np.array([strengths[a] - strengths[b] for a, b in pairings])[:, None, None]
    by_cards = np.repeat(rng.random(shape[:2]) < luck, 2).reshape(shape)
    lucky_seat = np.repeat(rng.integers(0, 2, shape[:2]), 2).reshape(shape)
    a_wins = rng.random(shape) < 1 / (1 + np.exp(-edge))
    drawn = rng.random(shape) < draws
    winner = np.where(by_cards, lucky_seat, np.where(drawn, -1, np.where(a_wins, swap, 1 - swap)))
    frame = pd.DataFrame(
        {
            "tournament_id": "synthetic",
            "config_digest": "0" * 16,
            "pairing": pairing.ravel(),
            "agent_a": agent_a.ravel(),
            "agent_b": agent_b.ravel(),
            "deal_index": deal_index.ravel(),
            "swap": swap.ravel(),
            "deal_seed": (deal_index.ravel() * 7919 + seed).astype(np.uint64),
            "spec_0": np.where(swap == 0, agent_a, agent_b).ravel(),
            "spec_1": np.where(swap == 0, agent_b, agent_a).ravel(),
            "dealer": rng.integers(0, 2, winner.size),
            "winner": winner.ravel(),
            "game_points": np.where(winner >= 0, rng.integers(1, 4, shape), 0).ravel(),
            "card_points_0": rng.integers(0, 120, winner.size),
            "card_points_1": rng.integers(0, 120, winner.size),
            "reason": np.where(winner >= 0, "points", "draw").ravel(),
            "closed_by": -1,
            "close_trick": -1,
            "tricks_played": 12,
            "decisions_0": 6,
            "decisions_1": 6,
            "decision_seconds_0": np.nan,
            "decision_seconds_1": np.nan,
            "error": "",
            "error_seat": -1,
            "match_deal": 0,
            "match_winner": -1,
            "match_points": 0,
        }
    )
    if not matches:
        return frame
    last = frame.assign(
        match_winner=frame["winner"],
        match_points=np.where(frame["winner"] >= 0, rng.integers(1, 3, len(frame)), 0),
    )
    earlier = frame.loc[frame.index.repeat(rng.integers(0, 3, len(frame)))]
    earlier = earlier.assign(winner=1 - earlier["swap"], game_points=1)
    earlier["match_deal"] = earlier.groupby(level=0).cumcount()
    last["match_deal"] = earlier.groupby(level=0).size().reindex(last.index, fill_value=0)
    return pd.concat([earlier, last]).sort_index(kind="stable").reset_index(drop=True)


def round_robin(strengths: dict[str, float]) -> list[tuple[str, str]]:
    """Every pair of agents once, in the order given."""
    names = list(strengths)
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


STRENGTHS = {"random": 0.0, "heuristic": 0.8, "search": 1.6}


def kernel_name() -> str:
    """The Jupyter kernel to run the notebook: ``python3`` (ipykernel's) when it exists."""
    specs = jupyter_client.kernelspec.find_kernel_specs()
    assert specs, "no Jupyter kernel found: the dev extra's ipykernel provides python3"
    return "python3" if "python3" in specs else next(iter(specs))


def executed_outputs(path: Path, folder: Path | None = None) -> list:
    """Execute the notebook at ``path`` from ``folder`` (by default its own) and return its
    code cells' outputs."""
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=120,
        kernel_name=kernel_name(),
        resources={"metadata": {"path": str(folder or path.parent)}},
    )
    client.execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    return [output for cell in code for output in cell.outputs]


def test_intervals_cover_the_true_rates_at_the_nominal_level():
    # 400 tournaments of three agents in one table, each tournament naming its own agents.
    pairings = [(f"{a}{t}", f"{b}{t}") for t in range(400) for a, b in round_robin(STRENGTHS)]
    strengths = {f"{name}{t}": value for t in range(400) for name, value in STRENGTHS.items()}
    results = synthetic_results(pairings, strengths, deals=40, seed=1)
    edges = np.array([strengths[a] - strengths[b] for a, b in pairings])
    win, points = true_rates(edges, luck=0.4, draws=0.1)
    pairing_truth = pd.DataFrame({"win_rate": win, "points": points})  # indexed by pairing
    agent_truth = (
        pd.concat(
            [
                pairing_truth.assign(agent=[a for a, _ in pairings]),
                pairing_truth.assign(
                    win_rate=1 - win, points=-points, agent=[b for _, b in pairings]
                ),
            ]
        )
        .groupby("agent")
        .mean()
    )
    checks = [
        (tournament_summary.pairing_summary(results), pairing_truth),
        (tournament_summary.agent_summary(results), agent_truth),
    ]
    for table, truth in checks:
        truth = truth.loc[table.index]
        for name in ("win_rate", "points"):
            covered = table[f"{name}_low"].le(truth[name]) & table[f"{name}_high"].ge(truth[name])
            assert 0.92 <= covered.mean() <= 0.98, (table.index.name, name, covered.mean())


def test_duplicate_pairs_cut_the_variance_when_the_cards_decide():
    pairings = [("random", "heuristic")] * 50
    lucky = synthetic_results(pairings, STRENGTHS, deals=100, seed=2, luck=0.6)
    fair = synthetic_results(pairings, STRENGTHS, deals=100, seed=2, luck=0.0)
    assert tournament_summary.duplicate_variance(lucky).loc["all", "win_variance_ratio"] < 0.8
    assert (
        0.85 < tournament_summary.duplicate_variance(fair).loc["all", "win_variance_ratio"] < 1.15
    )
    table = tournament_summary.duplicate_variance(lucky)
    assert list(table.index) == [*range(50), "all"]
    assert table.loc["all", "played"] == 50 * 200


def test_a_lone_deal_of_a_partial_file_is_one_pair():
    results = synthetic_results([("random", "heuristic")], STRENGTHS, deals=2, seed=3)
    results["winner"] = [0, 0, 0, 1]  # pair 0: agent_a wins then loses; pair 1: wins
    partial = results.iloc[:3]
    table = tournament_summary.pairing_summary(partial)
    assert table.loc[0, ["played", "pairs"]].tolist() == [3, 2]
    assert table.loc[0, "win_rate"] == pytest.approx(0.75)  # the mean of pair means 0.5 and 1


def test_a_partial_file_summarizes():
    results = synthetic_results(round_robin(STRENGTHS), STRENGTHS, deals=30, seed=4)
    tournament = tournament_summary.summarize(results.iloc[:-1], resamples=20)
    assert tournament.pairings["played"].tolist() == [60, 60, 59]
    assert tournament.pairings["pairs"].tolist() == [30, 30, 30]
    assert tournament.pairings[["win_rate_low", "win_rate_high"]].notna().all(axis=None)
    assert tournament.duplicate.loc["all", "played"] == 179


def test_ratings_order_the_agents_and_the_bootstrap_repeats_with_its_seed():
    results = synthetic_results(round_robin(STRENGTHS), STRENGTHS, deals=300, seed=5)
    rated = tournament_summary.ratings(results, resamples=100, seed=7)
    assert list(rated.index) == ["search", "heuristic", "random"]
    assert rated["rating"].mean() == pytest.approx(0, abs=1e-6)
    assert (rated["rating_low"] < rated["rating"]).all()
    assert (rated["rating"] < rated["rating_high"]).all()
    assert rated["played"].tolist() == [1200, 1200, 1200]
    pd.testing.assert_frame_equal(rated, tournament_summary.ratings(results, resamples=100, seed=7))
    other = tournament_summary.ratings(results, resamples=100, seed=8)
    assert not np.allclose(other["rating_low"], rated["rating_low"])
    anchored = tournament_summary.ratings(results, resamples=10, anchor="random")
    assert anchored.loc["random", "rating"] == pytest.approx(0, abs=1e-9)
    assert anchored.loc["random", ["rating_low", "rating_high"]].tolist() == [0, 0]
    with pytest.raises(ValueError, match="anchor"):
        tournament_summary.ratings(results, anchor="nobody")


def test_a_perfect_record_gets_a_finite_rating():
    strengths = {"strong": 50.0, "weak": 0.0}
    results = synthetic_results([("strong", "weak")], strengths, deals=50, seed=6, luck=0, draws=0)
    rated = tournament_summary.ratings(results, resamples=20)
    assert np.isfinite(rated.to_numpy(dtype=float)).all()
    assert rated.loc["strong", "rating"] > 400


def test_match_mode_reads_each_match_from_its_last_deal():
    strengths = {"strong": 50.0, "weak": 0.0}
    results = synthetic_results(
        [("strong", "weak")], strengths, deals=20, seed=7, luck=0, draws=0, matches=True
    )
    assert tournament_summary.is_match_mode(results) and len(results) > 40
    tournament = tournament_summary.summarize(results, resamples=20)
    assert tournament.unit == "match"
    assert tournament.pairings.loc[0, ["played", "pairs", "win_rate"]].tolist() == [40, 20, 1.0]
    last = results[results["match_winner"] >= 0]
    assert tournament.pairings.loc[0, "points"] == pytest.approx(last["match_points"].mean())
    assert "| pairing | agent_a | agent_b | matches | win rate | match points/match |" in (
        tournament.to_markdown()
    )


def test_match_mode_summarizes_a_round_robin():
    results = synthetic_results(round_robin(STRENGTHS), STRENGTHS, deals=40, seed=8, matches=True)
    tournament = tournament_summary.summarize(results, resamples=20)
    assert tournament.pairings["played"].tolist() == [80, 80, 80]
    assert tournament.agents["played"].tolist() == [160, 160, 160]


def test_deal_mode_with_or_without_the_match_columns():
    results = synthetic_results(round_robin(STRENGTHS), STRENGTHS, deals=30, seed=9)
    bare = results.drop(columns=["match_deal", "match_winner", "match_points"])
    assert not tournament_summary.is_match_mode(results) and not tournament_summary.is_match_mode(
        bare
    )
    pd.testing.assert_frame_equal(
        tournament_summary.pairing_summary(results), tournament_summary.pairing_summary(bare)
    )


def test_errors_are_counted_per_pairing_and_per_agent():
    results = synthetic_results([("random", "heuristic")], STRENGTHS, deals=10, seed=10)
    # rows 0 (swap 0) and 3 (swap 1): seat 0 is random, then heuristic; row 4: no seat.
    results.loc[[0, 3, 4], "error"] = "boom"
    results.loc[[0, 3], "error_seat"] = 0
    assert tournament_summary.pairing_summary(results).loc[0, "errors"] == 3
    assert tournament_summary.agent_summary(results)["errors"].to_dict() == {
        "random": 1,
        "heuristic": 1,
    }


def test_text_and_markdown_show_the_intervals():
    results = synthetic_results(round_robin(STRENGTHS), STRENGTHS, deals=30, seed=11)
    tournament = tournament_summary.summarize(results, resamples=20, seed=3)
    text, markdown = tournament.to_text(), tournament.to_markdown()
    assert "±" in text and "seed 3" in text and "game points/deal" in text
    ratio = tournament.duplicate.loc["all", "win_variance_ratio"]
    assert f"pooled win-rate variance {ratio:.2f}" in text
    assert markdown.count("### ") == 4
    assert "| agent | deals | win rate | game points/deal | errors |" in markdown


def test_save_plots_writes_png_files_next_to_the_results(tmp_path):
    path = tmp_path / "round.parquet"
    synthetic_results(round_robin(STRENGTHS), STRENGTHS, deals=20, seed=12).to_parquet(path)
    written = tournament_plots.save_plots(path)
    assert written == (tmp_path / "round-win-rates.png", tmp_path / "round-ratings.png")
    assert all(png.read_bytes().startswith(b"\x89PNG") for png in written)
    tournament = tournament_summary.summarize(pd.read_parquet(path), resamples=10)
    assert tournament_plots.plot_head_to_head(tournament, "points").axes
    with pytest.raises(ValueError, match="measure"):
        tournament_plots.plot_head_to_head(tournament, "elo")


def test_the_notebook_runs_on_a_small_results_file(tmp_path, monkeypatch):
    path = tmp_path / "small.parquet"
    synthetic_results(round_robin(STRENGTHS), STRENGTHS, deals=10, seed=13).to_parquet(path)
    monkeypatch.setenv("SIXTYSIX_RESULTS", str(path))
    outputs = executed_outputs(NOTEBOOK)
    assert sum("image/png" in output.get("data", {}) for output in outputs) == 3


@pytest.mark.parametrize("folder", ["notebooks", "."], ids=["from notebooks", "from the root"])
def test_the_notebook_runs_on_its_default_input_in_a_fresh_clone(folder, monkeypatch):
    monkeypatch.delenv("SIXTYSIX_RESULTS", raising=False)
    outputs = executed_outputs(NOTEBOOK, NOTEBOOK.parents[1] / folder)
    read = Path(outputs[0]["text"].removeprefix("reading ").strip())
    assert read.is_file()
    assert sum("image/png" in output.get("data", {}) for output in outputs) == 3


def test_the_committed_sample_is_a_small_tournament():
    sample = NOTEBOOK.parents[1] / "results" / "samples" / "tournament.parquet"
    assert sample.stat().st_size < 100_000
    assert set(pd.read_parquet(sample)["agent_a"]) == {"heuristic", "random"}
