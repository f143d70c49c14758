"""Summaries, plots and the notebook of N-seat tournaments, on hand-made rows whose numbers
are computed here by hand and on rows of real tournaments of ``heuristic`` and ``random``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sixtysix.experiments import table_plots, table_summary
from sixtysix.experiments.table_tournament import (
    TableTournamentConfig,
    run_table_tournament,
    table_columns,
)
from test_summary import executed_outputs

from sixtysix import Game
from sixtysix.engine.actions import action_name

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "multiplayer.ipynb"
T = stats.t.ppf(0.975, 2)  # the 95% t quantile for three groups


def hand_rows(seats: int, rows: list[tuple]) -> pd.DataFrame:
    """Rows in the runner's schema from ``(lineup, lineup_name, arrangement, deal_index,
    specs, winners mask, scores, payoffs)``; each seat is its own side unless the lineup
    name says "vs" (partners opposite); other columns hold plain values."""
    records = []
    for lineup, name, arrangement, deal, specs, winners, scores, payoffs in rows:
        record = dict.fromkeys(table_columns(seats))
        record |= {
            "tournament_id": "hand",
            "config_digest": "0" * 16,
            "lineup": lineup,
            "lineup_name": name,
            "arrangement": arrangement,
            "deal_index": deal,
            "deal_seed": np.uint64(deal),
            "dealer": 0,
            "seats": seats,
            "winners": winners,
            "reason": "points",
            "closed_by": -1,
            "tricks_played": 5,
            "error_seat": -1,
            "engine": "python",
            "actors": [],
            "actions": [],
        }
        for seat in range(seats):
            partners = " vs " in name
            record |= {
                f"spec_{seat}": specs[seat],
                f"score_{seat}": scores[seat],
                f"payoff_{seat}": payoffs[seat],
                f"card_points_{seat}": 0,
                f"side_{seat}": (0b0101 << seat % 2) if partners else 1 << seat,
                f"decisions_{seat}": 4,
                f"decision_seconds_{seat}": 0.002,
            }
        records.append(record)
    return pd.DataFrame(records)


# Three seats, agents A and B. Lineup 0 "A, B, B" on deals 0 and 1 in its three rotations
# (agent j of the lineup in seat (j + k) % 3), lineup 1 "A, A, B" on deal 0 in two of its
# three rotations (a partial file). Scores: 2 for each seat in ``winners``; payoffs by hand.
THREE_SEATS = hand_rows(
    3,
    [
        (0, "A, B, B", 0, 0, ("A", "B", "B"), 0b001, (2, 0, 0), (4, -2, -2)),
        (0, "A, B, B", 1, 0, ("B", "A", "B"), 0b001, (2, 0, 0), (4, -2, -2)),
        (0, "A, B, B", 2, 0, ("B", "B", "A"), 0b011, (2, 2, 0), (1, 1, -2)),
        (0, "A, B, B", 0, 1, ("A", "B", "B"), 0b010, (0, 2, 0), (-2, 4, -2)),
        (0, "A, B, B", 1, 1, ("B", "A", "B"), 0b010, (0, 2, 0), (-2, 4, -2)),
        (0, "A, B, B", 2, 1, ("B", "B", "A"), 0b100, (0, 0, 2), (-2, -2, 4)),
        (1, "A, A, B", 0, 0, ("A", "A", "B"), 0b100, (0, 0, 2), (-1, -1, 2)),
        (1, "A, A, B", 1, 0, ("B", "A", "A"), 0b001, (2, 0, 0), (2, -1, -1)),
    ],
)
# Each agent's outcome per row (the mean over its seats), row by row, as read off above.
A_WON = [1, 0, 0, 0, 1, 1, 0, 0]
B_WON = [0, 1 / 2, 1, 1 / 2, 0, 0, 1, 1]
A_POINTS = [2, 0, 0, 0, 2, 2, 0, 0]
A_PAYOFF = [4, -2, -2, -2, 4, 4, -1, -1]
B_PAYOFF = [-2, 1, 1, 1, -2, -2, 2, 2]
GROUPS = [[0, 1, 2], [3, 4, 5], [6, 7]]  # the rows of each duplicate group


def group_means(values: list[float]) -> np.ndarray:
    return np.array([np.mean([values[row] for row in group]) for group in GROUPS])


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% t interval over the duplicate groups, by hand."""
    means = group_means(values)
    half = T * means.std(ddof=1) / np.sqrt(len(means))
    return means.mean(), means.mean() - half, means.mean() + half


def test_agent_means_and_intervals_are_over_duplicate_groups():
    table = table_summary.agent_summary(THREE_SEATS)
    assert list(table.index) == ["A", "B"]
    assert table["deals"].tolist() == [8, 8]
    assert table["groups"].tolist() == [3, 3]
    for agent, name, values in [
        ("A", "win_rate", A_WON),
        ("B", "win_rate", B_WON),
        ("A", "points", A_POINTS),
        ("A", "payoff", A_PAYOFF),
        ("B", "payoff", B_PAYOFF),
    ]:
        found = table.loc[agent, [name, f"{name}_low", f"{name}_high"]].to_numpy(dtype=float)
        np.testing.assert_allclose(found, interval(values), err_msg=f"{agent} {name}")
    assert table.loc["A", "win_rate"] == pytest.approx((1 / 3 + 2 / 3 + 0) / 3)
    assert table.loc["A", "ms_per_decision"] == pytest.approx(0.5)
    assert table["errors"].tolist() == [0, 0]


def test_lineups_give_each_agents_outcome_in_each_lineup():
    table = table_summary.lineup_summary(THREE_SEATS)
    assert list(table.index) == [
        ("A, B, B", "A"),
        ("A, B, B", "B"),
        ("A, A, B", "A"),
        ("A, A, B", "B"),
    ]
    assert table["deals"].tolist() == [6, 6, 2, 2] and table["groups"].tolist() == [2, 2, 1, 1]
    # A alone in "A, B, B" won rows 0, 4 and 5: a third of deal 0's rotations, two of deal 1's
    half = stats.t.ppf(0.975, 1) * np.std([1 / 3, 2 / 3], ddof=1) / np.sqrt(2)
    found = table.loc[("A, B, B", "A"), ["win_rate", "win_rate_low", "win_rate_high"]]
    assert found.tolist() == pytest.approx([0.5, 0.5 - half, 0.5 + half])
    assert table.loc[("A, A, B", "A"), "payoff"] == pytest.approx(-1)
    assert table.loc[("A, A, B", "B"), "win_rate"] == 1  # B won both rotations
    assert "Lineups" in table_summary.summarize_table(THREE_SEATS, resamples=5).to_text()
    assert table_summary.lineup_summary(FOUR_SEATS).empty  # teams: team_summary


def test_errors_are_charged_to_the_failing_seat():
    rows = THREE_SEATS.copy()
    rows.loc[[1, 6], "error"] = "P1 (A) raised ValueError"
    rows.loc[[1, 6], "error_seat"] = [1, 2]  # seat 1 holds A in row 1, seat 2 holds B in row 6
    assert table_summary.agent_summary(rows)["errors"].tolist() == [1, 1]


def test_the_duplicate_variance_is_within_lineups():
    table = table_summary.duplicate_variance(THREE_SEATS)
    rows, lineups = np.array(A_PAYOFF, float), [0, 0, 0, 0, 0, 0, 1, 1]
    deal = sum(
        ((rows[np.equal(lineups, lineup)] - rows[np.equal(lineups, lineup)].mean()) ** 2).sum()
        for lineup in (0, 1)
    ) / (8 - 2)
    groups = group_means(A_PAYOFF)  # lineup 0: groups 0 and 1; lineup 1: group 2 alone
    group = ((groups[:2] - groups[:2].mean()) ** 2).sum() / (3 - 2)
    assert table.loc["A", "payoff_deal_variance"] == pytest.approx(deal)
    assert table.loc["A", "payoff_group_variance"] == pytest.approx(group)
    assert table.loc["A", "payoff_deals_per_group"] == pytest.approx(deal / group)
    assert table.loc["A", "arrangements"] == pytest.approx(8 / 3)
    assert table.loc["A", "payoff_gain"] == pytest.approx(deal / group / (8 / 3))


# Four seats with partners opposite and mixed teams: lineup 0 "A+A vs B+B", lineup 1
# "A+B vs B+B"; arrangement 0 seats the first team in seats 0 and 2, arrangement 1 in 1 and 3.
FOUR_SEATS = hand_rows(
    4,
    [
        (0, "A+A vs B+B", 0, 0, ("A", "B", "A", "B"), 0b0101, (2, 0, 2, 0), (2, -2, 2, -2)),
        (0, "A+A vs B+B", 1, 0, ("B", "A", "B", "A"), 0b0101, (1, 0, 1, 0), (1, -1, 1, -1)),
        (0, "A+A vs B+B", 0, 1, ("A", "B", "A", "B"), 0b1010, (0, 3, 0, 3), (-3, 3, -3, 3)),
        (0, "A+A vs B+B", 1, 1, ("B", "A", "B", "A"), 0b0000, (0, 0, 0, 0), (0, 0, 0, 0)),
        (1, "A+B vs B+B", 0, 0, ("A", "B", "B", "B"), 0b0101, (1, 0, 1, 0), (1, -1, 1, -1)),
        (1, "A+B vs B+B", 1, 0, ("B", "A", "B", "B"), 0b1010, (0, 2, 0, 2), (-2, 2, -2, 2)),
    ],
)


def test_team_pairings_follow_the_first_team():
    table = table_summary.team_summary(FOUR_SEATS)
    assert table[["first_team", "second_team"]].to_numpy().tolist() == [
        ["A+A", "B+B"],
        ["A+B", "B+B"],
    ]
    # Lineup 0: the first team (A+A) wins deal 0 in seats {0, 2}, loses it in {1, 3}; loses
    # deal 1 in {0, 2}, draws it in {1, 3}. Groups: 1/2 and 0.
    assert table.loc[0, ["deals", "groups", "draws", "errors"]].tolist() == [4, 2, 1, 0]
    half = stats.t.ppf(0.975, 1) * np.std([0.5, 0], ddof=1) / np.sqrt(2)
    assert table.loc[0, ["win_rate", "win_rate_low", "win_rate_high"]].tolist() == pytest.approx(
        [0.25, 0.25 - half, 0.25 + half]
    )
    assert table.loc[0, "payoff"] == pytest.approx(((2 - 1) / 2 + (-3 + 0) / 2) / 2)
    assert table.loc[1, ["win_rate", "payoff", "groups"]].tolist() == pytest.approx([1, 1.5, 1])
    assert table_summary.team_summary(THREE_SEATS).empty


def test_partners_are_read_off_the_opposite_seat():
    table = table_summary.partner_summary(FOUR_SEATS)
    assert list(table.index) == [("A", "A"), ("A", "B"), ("B", "A"), ("B", "B")]
    # A with A: lineup 0 only (groups 1/2 and 0). A with B: lineup 1, won in both seatings.
    # B with B: lineup 0 (1/2, 1/2: deal 1's draw is no win) and lineup 1 (lost both).
    assert table["win_rate"].tolist() == pytest.approx([0.25, 1, 1, (0.5 + 0.5 + 0) / 3])
    assert table["deals"].tolist() == [4, 2, 2, 6]
    unmixed = FOUR_SEATS[FOUR_SEATS["lineup"] == 0]
    assert table_summary.partner_summary(unmixed).empty


# A called-card game for four seats, agents A and B: the sides are made by the call, so each
# row gives its side masks (``CALLED_SIDES``: seat k's side, as a bit mask). Lineup 0 "A, A,
# B, B" on deals 0 and 1 in two of its rotations, lineup 1 "A, B, B, B" on deal 0 in two;
# payoffs RULES_MULTI 1.13.6 (+g for each member of the winning side, -g for each other).
TWO_V_TWO, PAIRS_02, PAIRS_12 = (0b0011, 0b0011, 0b1100, 0b1100), (5, 10, 5, 10), (9, 6, 6, 9)
CALLED_SIDES = [TWO_V_TWO, TWO_V_TWO, PAIRS_02, PAIRS_12, (1, 14, 14, 14), PAIRS_12]
CALLED = hand_rows(
    4,
    [
        (0, "A, A, B, B", 0, 0, ("A", "A", "B", "B"), 0b0011, (2, 2, 0, 0), (2, 2, -2, -2)),
        (0, "A, A, B, B", 1, 0, ("B", "A", "A", "B"), 0b1100, (0, 0, 1, 1), (-1, -1, 1, 1)),
        (0, "A, A, B, B", 0, 1, ("A", "A", "B", "B"), 0b0101, (1, 0, 1, 0), (1, -1, 1, -1)),
        (0, "A, A, B, B", 1, 1, ("B", "A", "A", "B"), 0b0000, (0, 0, 0, 0), (0, 0, 0, 0)),
        (1, "A, B, B, B", 0, 0, ("A", "B", "B", "B"), 0b0001, (3, 0, 0, 0), (3, -3, -3, -3)),
        (1, "A, B, B, B", 1, 0, ("B", "A", "B", "B"), 0b0110, (0, 1, 1, 0), (-1, 1, 1, -1)),
    ],
).assign(**{f"side_{seat}": [sides[seat] for sides in CALLED_SIDES] for seat in range(4)})


def test_head_to_head_counts_only_the_deals_where_the_agents_ended_apart():
    table = table_summary.head_to_head(CALLED)
    assert list(table.index) == [("A", "B"), ("B", "A")]
    # Apart: row 0 (A's seats {0, 1} against B's {2, 3}: A won), row 3 (A's {1, 2} against
    # B's {0, 3}: a draw, a half) and row 4 (A alone against three B: A won). Rows 1, 2 and 5
    # put an A and a B on one side. Groups: (lineup 0, deal 0) 1, (0, 1) 1/2, (1, 0) 1.
    assert table["deals"].tolist() == [3, 3] and table["groups"].tolist() == [3, 3]
    means = np.array([1, 0.5, 1])
    half = T * means.std(ddof=1) / np.sqrt(3)
    assert table.loc[("A", "B"), ["win_rate", "win_rate_low", "win_rate_high"]].tolist() == (
        pytest.approx([2.5 / 3, 2.5 / 3 - half, 2.5 / 3 + half])
    )
    assert table.loc[("B", "A"), "win_rate"] == pytest.approx(0.5 / 3)
    # the mean payoff per seat: A's per row 2, 0, 0, 0, 3, 1; per group 1, 0, 2
    agents = table_summary.agent_summary(CALLED)
    assert agents.loc["A", "payoff"] == pytest.approx(1)
    summary = table_summary.summarize_table(CALLED, resamples=5)
    pd.testing.assert_frame_equal(summary.head_to_head, table)
    assert "Head to head (only the deals where the two agents ended on opposite" in (
        summary.to_text()
    )
    assert table_summary.summarize_table(FOUR_SEATS, resamples=5).head_to_head.empty  # teams
    always_together = CALLED.iloc[[1, 2, 5]]
    assert table_summary.head_to_head(always_together).empty


def match_rows(deals: pd.DataFrame, matches: list[tuple]) -> pd.DataFrame:
    """``deals`` (three seats, each its own side) with the match columns: per row
    ``(match_deal, match_winners, match scores)``."""
    frame = deals.assign(
        match_seed=np.uint64(9),
        match_deal=[deal for deal, _, _ in matches],
        match_winners=[winners for _, winners, _ in matches],
    )
    for seat in range(3):
        frame[f"match_score_{seat}"] = [scores[seat] for _, _, scores in matches]
        frame[f"match_side_{seat}"] = 1 << seat
    return frame


# Three seats, one match of lineup 0 "A, B, B" in two rotations: in arrangement 0 seat 0 (A)
# wins the match on its second deal, 7-3-1; in arrangement 1 seat 2 (B) wins it on the
# first, 2-4-8. The deals' own outcomes (THREE_SEATS' rows) do not count.
MATCHES = match_rows(
    THREE_SEATS.iloc[[0, 0, 1]].assign(arrangement=[0, 0, 1]).reset_index(drop=True),
    [(1, 0, (0, 0, 0)), (2, 0b001, (7, 3, 1)), (1, 0b100, (2, 4, 8))],
).assign(decision_seconds_0=[0.010, 0.002, 0.002])


def test_a_match_tournament_is_summarized_by_its_matches():
    units = table_summary.match_units(MATCHES)
    assert units["match_deal"].tolist() == [2, 1]  # each match's last deal
    assert units["winners"].tolist() == [0b001, 0b100]
    # margins: the match score less the mean of the two others'
    assert units[["payoff_0", "payoff_1", "payoff_2"]].to_numpy().tolist() == [
        [7 - 2, 3 - 4, 1 - 5],
        [2 - 6, 4 - 5, 8 - 3],
    ]
    table = table_summary.agent_summary(MATCHES)
    assert table["deals"].tolist() == [2, 2]  # matches (rows) each agent played
    assert table.loc["A", ["win_rate", "points", "payoff"]].tolist() == pytest.approx(
        [1 / 2, (7 + 4) / 2, (5 - 1) / 2]
    )
    assert table.loc["B", "win_rate"] == pytest.approx((0 + 1 / 2) / 2)
    # decisions over every deal: A's seat took 10 + 2 + 2 ms for 12 decisions
    assert table.loc["A", "ms_per_decision"] == pytest.approx(14 / 12)
    versus = table_summary.head_to_head(MATCHES)  # every seat its own side: always apart
    assert versus.loc[("A", "B"), ["deals", "win_rate"]].tolist() == pytest.approx([2, 1 / 2])
    summary = table_summary.summarize_table(MATCHES, resamples=5)
    assert summary.unit == "match" and summary.seat_win_share == pytest.approx(1 / 3)
    assert "| agent | matches | win share | match score/match | margin/match |" in (
        summary.to_markdown()
    )


def test_bad_input_names_what_is_wrong():
    with pytest.raises(ValueError, match=r"lack the columns payoff_2, winners\b"):
        table_summary.summarize_table(THREE_SEATS.drop(columns=["winners", "payoff_2"]))
    with pytest.raises(ValueError, match=r"lack the columns seats\b"):
        table_summary.agent_summary(THREE_SEATS.drop(columns="seats"))
    with pytest.raises(ValueError, match=r"lack the columns spec_3\b"):
        table_summary.agent_summary(FOUR_SEATS.drop(columns="spec_3"))
    with pytest.raises(ValueError, match="no rows"):
        table_summary.summarize_table(THREE_SEATS.iloc[:0])
    mixed = pd.concat([THREE_SEATS, FOUR_SEATS])
    with pytest.raises(ValueError, match=r"mix tables of \[3, 4\] seats"):
        table_summary.summarize_table(mixed)
    with pytest.raises(ValueError, match="different sides"):
        table_summary.ratings(THREE_SEATS.assign(spec_0="A", spec_1="A", spec_2="A"))


@pytest.fixture(scope="module")
def tournaments(tmp_path_factory) -> dict[str, Path]:
    """Small real tournaments of heuristic against random, one file per preset."""
    folder = tmp_path_factory.mktemp("tables")
    runs = {
        "snapszer3": dict(deals=12),
        "snapszer4": dict(deals=6, mixed=True),
        "snapszer4_called": dict(deals=4),
    }
    paths = {}
    for preset, options in runs.items():
        config = TableTournamentConfig(
            preset=preset, agents=("heuristic", "random"), seed=3, **options
        )
        paths[preset] = folder / f"{preset}.parquet"
        run_table_tournament(config, paths[preset], workers=1, quiet=True)
    return paths


def test_ratings_put_the_stronger_agent_first(tournaments):
    results = pd.read_parquet(tournaments["snapszer3"])
    rated = table_summary.ratings(results, resamples=50, seed=4)
    assert list(rated.index) == ["heuristic", "random"]
    assert rated.loc["heuristic", "rating_low"] > rated.loc["random", "rating_high"]
    assert rated["played"].tolist() == [len(results), len(results)]  # both in every lineup
    pd.testing.assert_frame_equal(rated, table_summary.ratings(results, resamples=50, seed=4))
    other = table_summary.ratings(results, resamples=50, seed=5)
    assert not np.allclose(other["rating_low"], rated["rating_low"])
    anchored = table_summary.ratings(results, resamples=10, anchor="random")
    assert anchored.loc["random", ["rating", "rating_low", "rating_high"]].tolist() == [0, 0, 0]


def test_the_calls_are_read_from_the_history_and_replayed(tournaments):
    path = tournaments["snapszer4_called"]
    results = pd.read_parquet(path)
    calls = table_summary.call_decisions(results, Game("snapszer4_called"))
    assert len(calls) == len(results)  # one call a deal
    for call in calls.itertuples():
        row = results.iloc[call.row]
        assert (row["actors"][0], action_name(row["actions"][0])) == (
            call.caller,
            f"call {call.card}",
        )
        assert call.agent == row[f"spec_{call.caller}"]
        assert call.rank + call.suit == call.card
    # No talon and no announcements: a caller plays alone exactly when he called his own card.
    assert (calls["own"] == calls["alone"]).all()
    assert not (calls["own"] & calls["highest_missing"]).any()
    summary = table_summary.summarize_table_file(path, resamples=10)
    rank_shares = summary.calls.filter(like="rank_").sum(axis=1)
    assert rank_shares.to_numpy() == pytest.approx(1)
    assert summary.calls["calls"].sum() == len(results)
    assert summary.calls["deals"].tolist() == [4, 4]
    assert summary.call_endings["calls"].sum() == len(results)
    assert (
        summary.calls.loc["heuristic", "own"] == calls[calls["agent"] == "heuristic"]["own"].mean()
    )
    with pytest.raises(ValueError, match="3 seats"):
        table_summary.call_decisions(results, Game("snapszer3_called"))
    assert table_summary.call_decisions(pd.read_parquet(tournaments["snapszer3"])).empty


def test_text_and_markdown_show_what_the_game_has(tournaments):
    four = table_summary.summarize_table_file(tournaments["snapszer4"], resamples=20, seed=6)
    text = four.to_text()
    assert "Team pairings" in text and "Partners" in text and "Calls" not in text
    assert "seed 6" in text and "±" in text and "heuristic+random" in text
    assert set(four.tables) == {"agents", "teams", "partners", "ratings", "duplicate"}
    called = table_summary.summarize_table_file(tournaments["snapszer4_called"], resamples=20)
    markdown = called.to_markdown()
    assert markdown.count("### ") == 7 and "Team pairings" not in markdown
    assert "| agent | opponent | deals | groups | win share |" in markdown
    assert "| agent | alone | calls |" in markdown
    assert "| agent | deals | win share | game points/deal | payoff/deal |" in markdown


def test_save_table_plots_writes_png_files_next_to_the_results(tournaments):
    path = tournaments["snapszer4"]
    written = table_plots.save_table_plots(path)
    assert written == (
        path.with_name("snapszer4-win-shares.png"),
        path.with_name("snapszer4-ratings.png"),
    )
    assert all(png.read_bytes().startswith(b"\x89PNG") for png in written)
    summary = table_summary.summarize_table_file(path, resamples=10)
    assert table_plots.plot_win_shares(summary, "partners").axes
    with pytest.raises(ValueError, match="table must be one of"):
        table_plots.plot_win_shares(summary, "calls")
    three = table_summary.summarize_table_file(tournaments["snapszer3"], resamples=10)
    with pytest.raises(ValueError, match="no teams"):
        table_plots.plot_win_shares(three, "teams")
    axes = table_plots.plot_win_shares(three, "lineups").axes[0]
    lineup, agent = three.lineups.index[0]
    assert axes.get_yticklabels()[0].get_text() == f"{agent} in {lineup}"


def test_the_notebook_plays_and_summarizes_its_own_tournaments(tmp_path, monkeypatch):
    monkeypatch.setenv("SIXTYSIX_TABLE_RESULTS", str(tmp_path))
    monkeypatch.setenv("SIXTYSIX_TABLE_DEALS", "4")
    outputs = executed_outputs(NOTEBOOK)
    assert sum("image/png" in output.get("data", {}) for output in outputs) == 5
    presets = ("snapszer4", "snapszer3", "snapszer4_called")
    assert sorted(path.name for path in tmp_path.glob("*.parquet")) == sorted(
        f"{preset}.parquet" for preset in presets
    )
    text = "".join(output.get("text", "") for output in outputs)
    assert "Calls (share of the calls of each rank" in text
