"""Tournaments for three and four seats: the seating of every lineup, rows that cover every
deal (or match) of every lineup in every arrangement with the right agent in each seat, the
same rows from one process, a pool and Dask, a killed run that resumes to the rows of a clean
one, a failed batch named by its lineup, another configuration refused, replay with every
hand, and flags refused where they do not apply."""

from __future__ import annotations

import os
import re
import signal
import sys
from itertools import permutations

import pandas as pd
import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sixtysix.experiments.batch_backends import TournamentError
from sixtysix.experiments.store import ResultsConflict, stored_config
from sixtysix.experiments.table_tournament import (
    TABLE_KIND,
    TableTournamentConfig,
    deal_row,
    match_columns,
    read_table_results,
    replay_table_row,
    run_table_tournament,
    table_columns,
)
from sixtysix.experiments.tournament import TournamentConfig, run_tournament, schedule, unit_seed
from test_processes import assert_all_gone, started_run
from test_tournament import USER_AGENTS, cli_process, cli_run, wait_for_parts

import sixtysix
from sixtysix import agents

#: The module of this file's user agents: ``test_tournament``'s and ``First``, under a name of
#: their own (a test session imports a module once).
MODULE = "table_tournament_user_agents"
FIRST = f"{MODULE}:First"  # always the first legal action: an agent unlike random
SLOW = f"{MODULE}:Slow"  # uniformly random from its own generator
UNMADE = f"{MODULE}:Unmade"  # made for the agent list, but for no deal: its batch fails
FIRST_AGENT = """

class First:
    def __init__(self, seed=0):
        pass

    def act(self, view):
        return view.legal_actions()[0]


class Unmade(First):
    def __init__(self, seed=0):
        if seed:
            raise ValueError(f"no deal for seed {seed}")
"""


@pytest.fixture(scope="module")
def agent_folder(tmp_path_factory):
    """A folder holding the user agents (``USER_AGENTS`` and ``First``), on ``sys.path`` for
    this module."""
    folder = tmp_path_factory.mktemp("agents")
    (folder / f"{MODULE}.py").write_text(USER_AGENTS + FIRST_AGENT)
    sys.path.insert(0, str(folder))
    yield folder
    sys.path.remove(str(folder))


def timeless(frame: pd.DataFrame) -> pd.DataFrame:
    """The columns of ``frame`` that do not depend on how long decisions took."""
    return frame[[name for name in frame.columns if not name.startswith("decision_seconds")]]


# ---- seating ---------------------------------------------------------------------------------


def arrangements(config) -> dict[str, list[tuple[str, ...]]]:
    return {lineup.name: list(lineup.arrangements) for lineup in config.lineups}


def test_fixed_partners_pair_every_two_agents_as_teams_and_swap_the_seat_pairs():
    config = TableTournamentConfig(preset="snapszer4", agents=("random", "heuristic", "pimc"))
    assert arrangements(config) == {
        "random+random vs heuristic+heuristic": [
            ("random", "heuristic", "random", "heuristic"),
            ("heuristic", "random", "heuristic", "random"),
        ],
        "random+random vs pimc+pimc": [
            ("random", "pimc", "random", "pimc"),
            ("pimc", "random", "pimc", "random"),
        ],
        "heuristic+heuristic vs pimc+pimc": [
            ("heuristic", "pimc", "heuristic", "pimc"),
            ("pimc", "heuristic", "pimc", "heuristic"),
        ],
    }
    na66 = TableTournamentConfig(preset="na66", agents=("random", "heuristic"))
    assert [lineup.name for lineup in na66.lineups] == ["random+random vs heuristic+heuristic"]


def test_mixed_teams_are_every_pair_of_agents_and_every_two_teams_meet():
    config = TableTournamentConfig(preset="snapszer4", agents=("random", "heuristic"), mixed=True)
    r, h = "random", "heuristic"
    assert arrangements(config) == {
        "random+random vs random+heuristic": [(r, r, r, h), (r, r, h, r)],
        "random+random vs heuristic+heuristic": [(r, h, r, h), (h, r, h, r)],
        "random+heuristic vs heuristic+heuristic": [(r, h, h, h), (h, r, h, h)],
    }
    three = TableTournamentConfig(preset="snapszer4", agents=(r, h, "pimc"), mixed=True)
    assert len(three.lineups) == 15  # 6 teams, every two of them


def test_other_games_seat_every_mixed_group_of_agents_in_every_rotation():
    r, h = "random", "heuristic"
    config = TableTournamentConfig(preset="snapszer3", agents=(r, h))
    assert arrangements(config) == {
        "random, random, heuristic": [(r, r, h), (h, r, r), (r, h, r)],
        "random, heuristic, heuristic": [(r, h, h), (h, r, h), (h, h, r)],
    }
    called = TableTournamentConfig(preset="snapszer4_called", agents=(r, h))
    assert len(called.lineups) == 3  # rhhh, rrhh, rrrh; each in its 4 rotations
    assert arrangements(called)["random, random, heuristic, heuristic"] == [
        (r, r, h, h),
        (h, r, r, h),
        (h, h, r, r),
        (r, h, h, r),
    ]
    two = TableTournamentConfig(preset="na66_2", agents=(r, h, "pimc"))
    assert arrangements(two) == {
        "random, heuristic": [(r, h), (h, r)],
        "random, pimc": [(r, "pimc"), ("pimc", r)],
        "heuristic, pimc": [(h, "pimc"), ("pimc", h)],
    }


def test_permutations_seat_a_group_in_every_distinct_order_sorted_by_the_agent_list():
    r, h, p = "random", "heuristic", "pimc"
    config = TableTournamentConfig(preset="snapszer3", agents=(r, h, p), permutations=True)
    seated = arrangements(config)
    assert len(seated) == 7  # the 10 groups of three agents but the 3 uniform ones
    assert seated["random, heuristic, pimc"] == [
        (r, h, p),
        (r, p, h),
        (h, r, p),
        (h, p, r),
        (p, r, h),
        (p, h, r),
    ]
    assert seated["random, random, pimc"] == [(r, r, p), (r, p, r), (p, r, r)]
    for lineup in config.lineups:  # every distinct order once, the group's own first
        assert sorted(lineup.arrangements) == sorted(set(permutations(lineup.arrangements[0])))


def test_the_schedule_covers_every_deal_of_every_lineup_once():
    config = TableTournamentConfig(preset="snapszer3", agents=("random", "heuristic"), deals=50)
    batches = schedule(config, set(), slots=2)
    units = [(b.pairing, u) for b in batches for u in range(b.start, b.stop)]
    assert sorted(units) == [(lineup, u) for lineup in range(2) for u in range(50)]
    done = {(1, u) for u in range(20)}
    rest = schedule(config, done, slots=2)
    assert {(b.pairing, u) for b in rest for u in range(b.start, b.stop)} == set(units) - done


def test_the_progress_bar_counts_deals_or_matches_played_else_duplicate_groups():
    """``tournament.run_schedule``'s bar counts ``seatings`` of each unit, named ``unit_name``."""
    r, h, p = "random", "heuristic", "pimc"
    rotations = TableTournamentConfig(preset="snapszer3", agents=(r, h))
    assert (rotations.seatings, rotations.unit_name, rotations.mode) == (3, "deal", "deals")
    teams = TableTournamentConfig(preset="snapszer4", agents=(r, h), matches=2)
    assert (teams.seatings, teams.unit_name, teams.mode) == (2, "match", "matches")
    pairs = TableTournamentConfig(preset="snapszer3", agents=(r, h), permutations=True)
    assert (pairs.seatings, pairs.unit_name) == (3, "deal")  # both lineups: 3 orders
    # lineups of 3 and of 6 orders: no one number of rows a unit, so the bar counts groups
    every_order = TableTournamentConfig(preset="snapszer3", agents=(r, h, p), permutations=True)
    assert {len(lineup.arrangements) for lineup in every_order.lineups} == {3, 6}
    assert (every_order.seatings, every_order.unit_name) == (1, "deal group")


# ---- rows ------------------------------------------------------------------------------------

#: (preset, options): a game of each seating, on small packs.
SEATINGS = {
    "partners": ("mini4_4x3", {}),
    "partners-mixed": ("mini4_4x3", {"mixed": True}),
    "contract-partners": ("mini_na66_4x3", {}),
    "rotations": ("mini3_3x3", {}),
    "permutations": ("mini3_called_3x3", {"permutations": True}),
    "two-seats": ("mini_na66_2", {}),
}


@pytest.mark.parametrize("seating", SEATINGS)
def test_rows_cover_every_deal_of_every_lineup_in_every_arrangement(
    tmp_path, agent_folder, seating
):
    preset, options = SEATINGS[seating]
    specs = ("random", FIRST, SLOW)
    config = TableTournamentConfig(preset=preset, agents=specs, deals=3, seed=7, **options)
    frame = run_table_tournament(config, tmp_path / "t.parquet", workers=1, quiet=True)
    game = sixtysix.Game(preset)
    seats = game.num_players
    assert list(frame.columns) == list(table_columns(seats))
    stored = pq.read_table(tmp_path / "t.parquet")
    assert stored.schema.remove_metadata() == pa.schema(table_columns(seats))
    assert stored_config(tmp_path / "t.parquet") == {**config.as_dict(), "kind": TABLE_KIND}
    keys = list(zip(frame.lineup, frame.deal_index, frame.arrangement, strict=True))
    assert keys == [
        (number, deal, arrangement)
        for number, lineup in enumerate(config.lineups)
        for deal in range(3)
        for arrangement in range(len(lineup.arrangements))
    ]
    assert set(frame.tournament_id) == {config.tournament_id} and set(frame.seats) == {seats}
    for row in stored.to_pylist():
        lineup = config.lineups[row["lineup"]]
        seated = lineup.arrangements[row["arrangement"]]
        assert row["lineup_name"] == lineup.name
        assert tuple(row[f"spec_{seat}"] for seat in range(seats)) == seated
        assert row["deal_seed"] == unit_seed(7, row["deal_index"])
        # the row is the deal that these agents play in these seats
        played = deal_row(agents.play_deal(game, seated, row["deal_seed"]))
        assert {name: row[name] for name in played if not name.startswith("decision")} == {
            name: value for name, value in played.items() if not name.startswith("decision")
        }
        assert row["decisions_0"] == played["decisions_0"]
    assert frame.engine.eq("python").all() and frame.error.isna().all()


@pytest.mark.parametrize("preset", ["mini4_4x3", "mini3_called_3x3"])
def test_match_rows_are_every_deal_of_each_match_in_every_arrangement(
    tmp_path, agent_folder, preset
):
    config = TableTournamentConfig(preset=preset, agents=("random", FIRST), matches=2, seed=7)
    frame = run_table_tournament(config, tmp_path / "m.parquet", workers=1, quiet=True)
    game = sixtysix.Game(preset)
    seats, teams = game.num_players, game.rules.match_scoring == "team"
    assert list(frame.columns) == list(table_columns(seats, matches=True))
    expected = []  # each match played afresh under the documented seatings
    for number, lineup in enumerate(config.lineups):
        for match in range(2):
            for arrangement, seated in enumerate(lineup.arrangements):
                played = agents.play_match(game, seated, unit_seed(7, match))
                assert played.seed == unit_seed(7, match)
                expected += [
                    {
                        "lineup": number,
                        "deal_index": match,
                        "arrangement": arrangement,
                        **{f"spec_{seat}": spec for seat, spec in enumerate(seated)},
                        **deal_row(result),
                        **match_columns(played, deal),
                    }
                    for deal, result in enumerate(played.deals, 1)
                ]
    rows = pq.read_table(tmp_path / "m.parquet").to_pylist()
    assert len(rows) == len(expected)
    for row, wanted in zip(rows, expected, strict=True):
        assert {name: row[name] for name in wanted if not name.startswith("decision")} == {
            name: value for name, value in wanted.items() if not name.startswith("decision")
        }
    # on a match's last deal only: the winners, and the score each seat's points went to
    last = frame.groupby(["lineup", "deal_index", "arrangement"]).match_deal.transform("max")
    ends = frame[frame.match_deal == last]
    assert (ends.match_winners > 0).all() and (
        frame[frame.match_deal < last].match_winners == 0
    ).all()
    scores = ends[[f"match_score_{seat}" for seat in range(seats)]].to_numpy()
    assert (scores.max(axis=1) >= game.rules.match_target).all()
    sides = [0b0101 << seat % 2 if teams else 1 << seat for seat in range(seats)]
    assert (frame[[f"match_side_{seat}" for seat in range(seats)]] == sides).all().all()


def test_an_agent_that_raises_forfeits_for_its_side(tmp_path, agent_folder):
    specs = ("random", f"{MODULE}:Raiser")
    config = TableTournamentConfig(preset="mini4_4x3", agents=specs, deals=3)
    frame = run_table_tournament(config, tmp_path / "t.parquet", workers=1, quiet=True)
    swapped = frame.arrangement  # 0: the raisers in seats 1 and 3; 1: in seats 0 and 2
    assert frame.reason.eq("forfeit").all() and frame.error.str.contains("boom").all()
    assert (frame.error_seat % 2 == 1 - swapped).all()
    assert (frame.winners == swapped.map({0: 0b0101, 1: 0b1010})).all()
    max_points = sixtysix.Game("mini4_4x3").rules.max_game_points
    for seat in range(4):
        on_winning_side = frame.winners // (1 << seat) % 2 == 1
        assert (frame[f"score_{seat}"] == on_winning_side * max_points).all()


# ---- backends, resuming, another configuration -----------------------------------------------


@pytest.mark.parametrize("units", [{"deals": 40}, {"matches": 6}], ids=["deals", "matches"])
def test_one_worker_two_workers_and_dask_give_the_same_rows(tmp_path, agent_folder, units):
    distributed = pytest.importorskip("distributed")
    config = TableTournamentConfig(
        preset="mini3_3x3", agents=("random", FIRST, SLOW), seed=3, **units
    )
    one = run_table_tournament(config, tmp_path / "one.parquet", workers=1, quiet=True)
    two = run_table_tournament(config, tmp_path / "two.parquet", workers=2, quiet=True)
    with distributed.LocalCluster(
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        n_workers=2,
        threads_per_worker=1,
        processes=True,
    ) as cluster:
        on_dask = run_table_tournament(
            config, tmp_path / "dask.parquet", scheduler=cluster.scheduler_address, quiet=True
        )
    assert len(one.groupby(["lineup", "deal_index", "arrangement"])) == 7 * config.units * 3
    pd.testing.assert_frame_equal(timeless(one), timeless(two))
    pd.testing.assert_frame_equal(timeless(one), timeless(on_dask))


@pytest.mark.parametrize("mode, units", [("deals", 60), ("matches", 15)])
def test_a_killed_run_resumes_to_the_rows_of_a_clean_one(tmp_path, agent_folder, mode, units):
    out = tmp_path / "t.parquet"
    args = ["tournament", "--preset", "snapszer3", "--agents", f"{SLOW}:delay=0.002", "random"]
    args += [f"--{mode}", units, "--workers", 2, "--seed", 5]
    interrupted, tree = started_run(args, agent_folder, out)
    os.killpg(interrupted.pid, signal.SIGINT)  # Ctrl-C
    _, err = interrupted.communicate(timeout=60)
    assert_all_gone(tree)
    assert interrupted.returncode == 130
    total = 2 * units  # 2 lineups, each in its 3 rotations
    saved = re.search(rf"(\d+) of {total} {mode} are saved in {out}; rerun the same command", err)
    assert saved and 0 < int(saved[1]) < total, err

    parts = out.with_name(out.name + ".parts")
    killed = cli_process([*args, "--out", out], agent_folder)
    wait_for_parts(killed, parts, len(list(parts.glob("*.parquet"))) + 2, out)
    tree = psutil.Process(killed.pid).children(recursive=True)
    os.killpg(killed.pid, signal.SIGKILL)  # kill -9 of the whole process group
    killed.communicate(timeout=60)
    assert_all_gone(tree)

    finished = cli_process([*args, "--out", out], agent_folder)
    output, err = finished.communicate(timeout=600)
    assert finished.returncode == 0, err
    assert "resuming" in err and str(out) in output
    # the rows of one clean run (a delay of 0 plays the same choices)
    clean = TableTournamentConfig(
        preset="snapszer3", agents=(SLOW, "random"), seed=5, **{mode: units}
    )
    reference = run_table_tournament(clean, tmp_path / "clean.parquet", workers=1, quiet=True)
    frame = read_table_results(out)
    different = ("tournament_id", "config_digest", "lineup_name", "spec_")
    same = [name for name in timeless(frame).columns if not name.startswith(different)]
    pd.testing.assert_frame_equal(frame[same], reference[same])


def test_a_failed_batch_is_named_by_its_lineup(tmp_path, agent_folder):
    config = TableTournamentConfig(preset="mini3_3x3", agents=("random", UNMADE), deals=3)
    lineup = re.escape(f"batch lineup 0 (random, random, {UNMADE}), deals 0..0 failed")
    with pytest.raises(
        TournamentError,
        match=rf"^{lineup}: ValueError: .*no deal for seed \d+\n0 of 6 deals are saved",
    ):
        run_table_tournament(config, tmp_path / "t.parquet", workers=1, quiet=True)


def test_another_configuration_on_the_same_file_is_refused(capsys, tmp_path):
    out = tmp_path / "t.parquet"
    config = TableTournamentConfig(preset="mini3_3x3", agents=("random", "heuristic"), deals=2)
    run_table_tournament(config, out, workers=1, quiet=True)
    other = TableTournamentConfig(preset="mini3_3x3", agents=("random", "heuristic"), seed=1)
    with pytest.raises(ResultsConflict, match=r"deals: 2 there, 100 here; seed: 0 there, 1 here"):
        run_table_tournament(other, out, workers=1, quiet=True)
    with pytest.raises(ResultsConflict, match=r"kind: 'table-tournament' there, None here"):
        run_tournament(TournamentConfig(deals=2), out, workers=1, quiet=True)
    args = ["--agents", "random", "heuristic", "--deals", 2, "--out", out]
    code, _, err = cli_run(capsys, "tournament", "--preset", "mini3_called_3x3", *args)
    assert code == 2 and "preset: 'mini3_3x3' there, 'mini3_called_3x3' here" in err


# ---- replay and report -----------------------------------------------------------------------


def test_replay_shows_every_hand_and_each_seats_play_and_checks_the_row(
    capsys, tmp_path, agent_folder
):
    out = tmp_path / "t.parquet"
    config = TableTournamentConfig(preset="snapszer4", agents=("random", FIRST), deals=2)
    frame = run_table_tournament(config, out, workers=1, quiet=True)
    code, output, _ = cli_run(capsys, "replay", out, "--row", 3)
    assert code == 0
    row = frame.iloc[3]
    specs = [row[f"spec_{seat}"] for seat in range(4)]
    seated = ", ".join(f"P{seat} {spec}" for seat, spec in enumerate(specs))
    assert f"deal 1, arrangement 1: {seated}" in output
    state = sixtysix.Game("snapszer4").new_deal(seed=int(row.deal_seed))
    lines = output.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("  trick 1:")))
    assert f"talon {' '.join(state.talon)}" in lines[first]
    assert lines[first + 1 : first + 5] == [
        f"      P{seat} hand {' '.join(hand)}" for seat, hand in enumerate(state.hands)
    ]
    hands = {}
    for line in lines[first:]:
        words = line.split()
        if line.startswith("      P"):
            hands[words[0]] = words[2:]
        elif line.startswith("    P") and words[2] == "play":
            assert words[1] == specs[int(words[0][1])]  # the seat's own spec
            assert words[3] in hands[words[0]], line  # played from the hand shown
    assert output.rstrip().endswith("the replay ends exactly as row 3 says")

    table = pq.read_table(out)  # a row that says something else
    scores = table["score_0"].to_pylist()
    scores[3] += 1
    index = table.schema.get_field_index("score_0")
    pq.write_table(table.set_column(index, "score_0", [scores]), out)
    assert replay_table_row(out, 3).differences == [
        f"score_0: {scores[3]} in the file, {scores[3] - 1} replayed"
    ]
    assert cli_run(capsys, "replay", out, "--row", 3)[0] == 1
    code, _, err = cli_run(capsys, "replay", out, "--row", 4)
    assert code == 2 and f"invalid row 4: {out} has 4 rows, so row must be 0 to 3" in err


def test_replay_of_a_match_row_plays_its_match_to_that_deal(capsys, tmp_path, agent_folder):
    out = tmp_path / "m.parquet"
    config = TableTournamentConfig(preset="mini4_4x3", agents=("random", FIRST), matches=1, seed=2)
    frame = run_table_tournament(config, out, workers=1, quiet=True)
    last = int(frame.index[frame.match_winners > 0][0])  # the first match's last deal
    code, output, _ = cli_run(capsys, "replay", out, "--row", last)
    assert code == 0, output
    assert f"match 0, arrangement 0: P0 random, P1 {FIRST}" in output
    assert f"match seed {unit_seed(2, 0)}, deal {frame.match_deal[last]} of the match" in output
    assert output.rstrip().endswith(f"the replay ends exactly as row {last} says")

    table = pq.read_table(out)  # a row whose match ended otherwise
    winners = table["match_winners"].to_pylist()
    winners[last] ^= 0b1111
    index = table.schema.get_field_index("match_winners")
    pq.write_table(table.set_column(index, "match_winners", [winners]), out)
    assert replay_table_row(out, last).differences == [
        f"match_winners: {winners[last]} in the file, {winners[last] ^ 0b1111} replayed"
    ]


def test_the_command_plays_a_table_tournament_and_reports_it(capsys, tmp_path, agent_folder):
    out = tmp_path / "t.parquet"
    args = ["--preset", "mini3_3x3", "--agents", "random", FIRST, "--deals", 3]
    code, output, err = cli_run(capsys, "tournament", *args, "--workers", 1, "--out", out)
    assert code == 0, err
    assert len(read_table_results(out)) == 2 * 3 * 3
    code, report, _ = cli_run(capsys, "report", out)
    assert code == 0 and f"18 deals in {out}" in report
    assert any(line.startswith("random ") for line in report.splitlines())
    assert report.strip() in output  # the command printed the same summary


def test_the_command_plays_table_matches_and_reports_them(capsys, tmp_path, agent_folder):
    out = tmp_path / "m.parquet"
    args = ["--preset", "mini3_3x3", "--agents", "random", FIRST, "--matches", 2]
    code, output, err = cli_run(capsys, "tournament", *args, "--workers", 1, "--out", out)
    assert code == 0, err
    frame = read_table_results(out)
    assert len(frame.groupby(["lineup", "deal_index", "arrangement"])) == 2 * 2 * 3
    # one winner a match, so a seat wins a third of them
    assert "a seat wins 0.333 of its matches on average" in output
    assert "match score/match" in output and "Head to head" in output


BAD_ARGUMENTS = [
    (
        "--preset snapszer3 --mixed",
        "mixed teams (--mixed) need fixed partners, and snapszer3 (3 seats, sides 'none') has none",
    ),
    (
        "--preset snapszer4 --permutations",
        "--permutations does not apply to snapszer4 (4 seats, sides 'fixed_opposite')",
    ),
    (
        "--preset na66_2 --permutations",
        "--permutations does not apply to na66_2 (2 seats, sides 'contract'): with two seats",
    ),
    ("--mixed", "argument --mixed: not allowed with --preset sixty_six: a two-player"),
    ("--preset schnapsen --permutations", "argument --permutations: not allowed with --preset"),
    ("--preset snapszer4 --matches 0", "argument --matches: invalid matches 0: matches must be"),
    (
        "--preset snapszer4 --deals 2 --matches 2",
        "argument --matches: not allowed with argument --deals",
    ),
    ("--preset snapszer4 --agents random", "a tournament needs at least 2 agents; got 1"),
    ("--preset snapszer3 --rule announcements=often", "invalid announcements 'often'"),
    (
        "--preset snapszer3 --rule call_own_card=maybe",
        "argument --rule: invalid value 'maybe' for call_own_card",
    ),
    ("--preset snapszer3 --rule match_shutout_double=true", "unknown rule option"),
]


@pytest.mark.parametrize(
    ("line", "message"), BAD_ARGUMENTS, ids=[line for line, _ in BAD_ARGUMENTS]
)
def test_bad_table_tournament_arguments_are_refused(capsys, tmp_path, line, message):
    code, output, err = cli_run(
        capsys, "tournament", *line.split(), "--out", tmp_path / "t.parquet"
    )
    assert code == 2 and output == ""
    assert f"sixtysix tournament: error: {message}" in err
    assert list(tmp_path.iterdir()) == []  # refused before anything ran


def test_the_help_explains_the_seating_flags(capsys):
    code, output, _ = cli_run(capsys, "tournament", "--help")
    assert code == 0
    assert "--mixed" in output and "--permutations" in output
    assert "snapszer4" in output and "every rotation" in " ".join(output.split())
