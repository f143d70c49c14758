"""Tournaments: the duplicate schedule, the rows, resuming after kill -9, backends that agree,
agents that fail, foreign results, atomic files, replay and bad arguments."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sixtysix.experiments import store as store_module
from sixtysix.experiments.batch_backends import user_module_files
from sixtysix.experiments.store import ResultsConflict, ResultStore, stored_config
from sixtysix.experiments.tournament import (
    DEAL_COLUMNS,
    MATCH_COLUMNS,
    TIMING_COLUMNS,
    Batch,
    TournamentConfig,
    TournamentError,
    done_units,
    replay_row,
    run_tournament,
    schedule,
    unit_seed,
)

import sixtysix
from sixtysix.commands import cli

#: User agents, written to a module that the tests put on the import path.
USER_AGENTS = '''
import os
import random
import time


class Slow:
    """Uniformly random, after sleeping ``delay`` seconds a decision."""

    def __init__(self, seed=0, delay: float = 0.0):
        self.rng = random.Random(seed)
        self.delay = delay

    def act(self, view):
        time.sleep(self.delay)
        return self.rng.choice(view.legal_actions())


class Raiser:
    def __init__(self, seed=0):
        pass

    def act(self, view):
        raise RuntimeError("boom")


class Illegal:
    def __init__(self, seed=0):
        pass

    def act(self, view):
        return "fold"


class Crasher(Slow):
    """Ends its whole process after 100 decisions in it, while the file ``flag`` exists."""

    decisions = 0  # in this process

    def __init__(self, seed=0, flag: str = ""):
        super().__init__(seed)
        self.flag = flag

    def act(self, view):
        Crasher.decisions += 1
        if Crasher.decisions > 100 and os.path.exists(self.flag):
            os._exit(3)
        return super().act(view)
'''
MODULE = "tournament_user_agents"
NO_TIMINGS = [name for name in DEAL_COLUMNS if name not in TIMING_COLUMNS]


@pytest.fixture(scope="module")
def agent_folder(tmp_path_factory):
    """A folder holding the module of ``USER_AGENTS``, put on ``sys.path`` for this module."""
    folder = tmp_path_factory.mktemp("agents")
    (folder / f"{MODULE}.py").write_text(USER_AGENTS)
    sys.path.insert(0, str(folder))
    yield folder
    sys.path.remove(str(folder))


def cli_run(capsys, *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``sixtysix ARGS`` run in this process."""
    try:
        code = cli.main([str(arg) for arg in args])
    except SystemExit as exit_info:
        code = exit_info.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def cli_process(args, folder, **popen):
    """``sixtysix ARGS`` as a child process in a session of its own, user agents importable."""
    path = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    return subprocess.Popen(
        [sys.executable, "-m", "sixtysix.commands.cli", *map(str, args)],
        env={**os.environ, "PYTHONPATH": path},
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


# ---- the schedule ----------------------------------------------------------------------------


def test_every_pair_of_agents_is_a_pairing_in_list_order(agent_folder):
    config = TournamentConfig(("random", "heuristic", f"{MODULE}:Slow"), deals=5)
    assert config.pairings == [
        ("random", "heuristic"),
        ("random", f"{MODULE}:Slow"),
        ("heuristic", f"{MODULE}:Slow"),
    ]


def test_the_schedule_covers_each_unit_once_and_skips_what_is_done():
    config = TournamentConfig(("random", "heuristic"), deals=100)
    batches = schedule(config, set(), slots=2)
    units = [(b.pairing, u) for b in batches for u in range(b.start, b.stop)]
    assert sorted(units) == [(0, u) for u in range(100)]
    assert max(b.size for b in batches) == 4  # 100 units / (2 slots * 16 batches each)
    done = {(0, u) for u in range(10, 60)}
    rest = schedule(config, done, slots=2)
    assert {(0, u) for b in rest for u in range(b.start, b.stop)} == {
        (0, u) for u in range(100)
    } - done
    assert Batch(0, 8, 10) in rest  # a run of units stops where the done ones begin


def test_deal_seeds_are_the_documented_seed_sequence_words():
    assert unit_seed(0, 3) == int(np.random.SeedSequence([0, 3]).generate_state(1, np.uint64)[0])
    assert len({unit_seed(0, i) for i in range(1000)}) == 1000
    assert unit_seed(2**64 - 1, 5) != unit_seed(0, 5)


def test_the_configuration_is_canonical_and_its_digest_ignores_how_it_was_written():
    written = TournamentConfig(
        ("random", "heuristic"), deals=10, overrides={"claim_mode": "automatic"}, time_limit=2
    )
    plain = TournamentConfig(("random", "heuristic"), deals=10, time_limit=2.0)
    assert written.as_dict() == plain.as_dict()
    assert written.overrides == {}  # the preset's own value is no override
    assert written.tournament_id == "t-" + written.digest[:12]
    assert TournamentConfig.from_dict(json.loads(written.to_json())) == plain
    assert TournamentConfig(("random", "heuristic"), deals=11).digest != plain.digest


# ---- rows ------------------------------------------------------------------------------------


def test_rows_pair_every_deal_with_its_seats_swapped(tmp_path, agent_folder):
    config = TournamentConfig(("random", "heuristic:worlds=0", f"{MODULE}:Slow"), deals=6, seed=5)
    frame = run_tournament(config, tmp_path / "t.parquet", workers=1, quiet=True)
    assert list(frame.columns) == list(DEAL_COLUMNS)
    stored = pq.read_table(tmp_path / "t.parquet")
    assert stored.schema.remove_metadata() == pa.schema(DEAL_COLUMNS)
    assert stored_config(tmp_path / "t.parquet") == config.as_dict()
    assert len(frame) == 3 * 6 * 2
    keys = list(zip(frame.pairing, frame.deal_index, frame.swap, strict=True))
    assert keys == sorted(keys) == [(p, i, s) for p in range(3) for i in range(6) for s in (0, 1)]
    assert set(frame.tournament_id) == {config.tournament_id}
    assert set(frame.config_digest) == {config.digest}
    for pairing, (a, b) in enumerate(config.pairings):
        rows = frame[frame.pairing == pairing]
        assert set(rows.agent_a) == {a} and set(rows.agent_b) == {b}
        assert list(rows.spec_0) == [a, b] * 6 and list(rows.spec_1) == [b, a] * 6
        assert list(rows.deal_seed) == [unit_seed(5, i) for i in range(6) for _ in (0, 1)]
    # the same deals in both seatings: each deal's dealer is the seed's
    game = sixtysix.Game()
    assert list(frame.dealer) == [game.new_deal(seed=int(s)).dealer for s in frame.deal_seed]
    engines = frame.groupby("pairing").engine.unique().map(list).to_dict()
    assert engines == {0: ["numba"], 1: ["python"], 2: ["python"]}
    assert frame.error.eq("").all() and frame.error_seat.eq(-1).all()
    assert frame[frame.engine == "python"].decision_seconds_0.gt(0).all()
    assert frame[frame.engine == "numba"].decision_seconds_0.isna().all()


def test_agents_that_raise_or_play_illegally_forfeit_their_deals(tmp_path, agent_folder):
    specs = (f"{MODULE}:Raiser", f"{MODULE}:Illegal", "random")
    config = TournamentConfig(specs, deals=3)
    frame = run_tournament(config, tmp_path / "t.parquet", workers=1, quiet=True)
    assert len(frame) == 3 * 3 * 2
    against_random = frame[frame.pairing > 0]  # Raiser and Illegal each against random
    assert against_random.reason.eq("forfeit").all()
    # the failing agent sits in seat 0 when swap is 0 and in seat 1 when swap is 1
    assert (against_random.error_seat == against_random.swap).all()
    assert (against_random.winner == 1 - against_random.swap).all()
    assert against_random.game_points.eq(3).all()
    raised = frame[frame.pairing == 1].error
    assert raised.str.contains("raised RuntimeError: boom").all()
    illegal = frame[frame.pairing == 2].error
    assert illegal.str.contains("returned 'fold', which is not legal").all()
    assert frame[frame.pairing == 0].reason.eq("forfeit").all()  # whoever acts first fails


def test_matches_give_one_row_per_deal_with_the_match_on_its_last(tmp_path):
    config = TournamentConfig(("random", "heuristic"), matches=3, preset="schnapsen", seed=2)
    frame = run_tournament(config, tmp_path / "m.parquet", workers=1, quiet=True)
    assert list(frame.columns) == [*DEAL_COLUMNS, *MATCH_COLUMNS]
    game = sixtysix.Game("schnapsen")
    for (index, _), match in frame.groupby(["deal_index", "swap"]):
        assert set(match.match_seed) == {unit_seed(2, index)}
        assert list(match.match_deal) == list(range(1, len(match) + 1))
        seeds = [sixtysix.Match(game, unit_seed(2, index)).deal_seed(n) for n in match.match_deal]
        assert list(match.deal_seed) == seeds
        assert (match.match_winner.iloc[:-1] == -1).all() and match.match_points.iloc[-1] >= 1
        winner = match.match_winner.iloc[-1]
        points = match[match.winner == winner].game_points.sum()
        assert points >= game.rules.match_target


# ---- backends --------------------------------------------------------------------------------


def test_one_worker_two_workers_and_dask_give_the_same_rows(tmp_path, agent_folder):
    distributed = pytest.importorskip("distributed")
    config = TournamentConfig(("random", "heuristic", f"{MODULE}:Slow"), deals=40, seed=9)
    one = run_tournament(config, tmp_path / "one.parquet", workers=1, quiet=True)
    two = run_tournament(config, tmp_path / "two.parquet", workers=2, quiet=True)
    with distributed.LocalCluster(
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        n_workers=2,
        threads_per_worker=1,
        processes=True,
    ) as cluster:
        on_dask = run_tournament(
            config, tmp_path / "dask.parquet", scheduler=cluster.scheduler_address, quiet=True
        )
    pd.testing.assert_frame_equal(one[NO_TIMINGS], two[NO_TIMINGS])
    pd.testing.assert_frame_equal(one[NO_TIMINGS], on_dask[NO_TIMINGS])


def test_a_worker_that_dies_loses_no_finished_batch_and_a_rerun_completes(tmp_path, agent_folder):
    flag = tmp_path / "crash"
    config = TournamentConfig(("random", f"{MODULE}:Crasher:flag={flag}"), deals=64)
    out = tmp_path / "t.parquet"
    run_tournament(config, out, workers=1, quiet=True)  # the reference: no crash
    reference = pd.read_parquet(out)
    out.unlink()
    flag.touch()
    with pytest.raises(TournamentError, match="BrokenProcessPool") as failure:
        run_tournament(config, out, workers=2, quiet=True)
    saved = done_units(pq.read_table(out))
    assert 0 < len(saved) < 64
    assert f"{len(saved)} of 64 deals (in both seatings) are saved in {out}; rerun the same " in (
        str(failure.value)
    )
    flag.unlink()
    frame = run_tournament(config, out, workers=2, quiet=True)
    pd.testing.assert_frame_equal(frame[NO_TIMINGS], reference[NO_TIMINGS])


# ---- interrupted runs ------------------------------------------------------------------------


def wait_for_parts(process, parts, count: int, out) -> None:
    """Wait until ``count`` part files exist; meanwhile every file a reader can open must be
    a whole Parquet file."""
    deadline = time.monotonic() + 60
    while len(list(parts.glob("*.parquet"))) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no part files appeared"
        for path in [out, *parts.glob("*.parquet")]:
            try:
                pq.read_table(path)
            except FileNotFoundError:
                pass
        time.sleep(0.05)


def test_ctrl_c_then_kill_9_of_the_process_group_then_a_rerun_plays_each_deal_once(
    tmp_path, agent_folder
):
    out = tmp_path / "t.parquet"
    parts = tmp_path / "t.parquet.parts"
    slow = f"{MODULE}:Slow:delay=0.002"
    args = ["tournament", "--agents", slow, "random", "--deals", 120, "--workers", 2]
    args += ["--out", out, "--seed", 4]

    interrupted = cli_process(args, agent_folder)
    wait_for_parts(interrupted, parts, 3, out)
    os.killpg(interrupted.pid, signal.SIGINT)
    _, err = interrupted.communicate(timeout=60)
    assert interrupted.returncode == 130
    assert "interrupted" in err and "rerun the same command to play the rest" in err
    saved = len(done_units(pq.read_table(out)))
    assert saved >= 3

    killed = cli_process(args, agent_folder)
    wait_for_parts(killed, parts, len(list(parts.glob("*.parquet"))) + 3, out)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.communicate(timeout=60)

    finished = cli_process(args, agent_folder)
    output, err = finished.communicate(timeout=120)
    assert finished.returncode == 0, err
    assert f"{out}" in output and "resuming" in err
    assert not parts.exists() and list(tmp_path.glob(".*")) == []
    frame = pd.read_parquet(out)
    keys = list(zip(frame.pairing, frame.deal_index, frame.swap, strict=True))
    assert keys == [(0, i, s) for i in range(120) for s in (0, 1)]  # each deal once, in order
    # the same rows as one uninterrupted run (a delay of 0 plays the same choices)
    config = TournamentConfig((f"{MODULE}:Slow", "random"), deals=120, seed=4)
    reference = run_tournament(config, tmp_path / "reference.parquet", workers=1, quiet=True)
    same = [name for name in NO_TIMINGS if name not in DIFFERENT_NAMES]
    pd.testing.assert_frame_equal(frame[same], reference[same])


DIFFERENT_NAMES = ("tournament_id", "config_digest", "agent_a", "spec_0", "spec_1")


# ---- the store -------------------------------------------------------------------------------


def test_results_of_another_configuration_are_refused_naming_the_difference(capsys, tmp_path):
    out = tmp_path / "t.parquet"
    run_tournament(TournamentConfig(deals=4), out, workers=1, quiet=True)
    with pytest.raises(ResultsConflict, match=r"deals: 4 there, 5 here; seed: 0 there, 1 here"):
        run_tournament(TournamentConfig(deals=5, seed=1), out, workers=1, quiet=True)
    code, _, err = cli_run(capsys, "tournament", "--deals", 4, "--seed", 3, "--out", out)
    assert code == 2
    assert "holds results of another configuration (seed: 0 there, 3 here)" in err
    assert "--force" in err
    code, output, _ = cli_run(
        capsys, "tournament", "--deals", 4, "--seed", 3, "--out", out, "--force", "--workers", 1
    )
    assert code == 0 and str(out) in output
    assert stored_config(out)["seed"] == 3


def test_a_parts_folder_of_another_configuration_is_refused_and_force_clears_it(tmp_path):
    out = tmp_path / "t.parquet"
    first = TournamentConfig(deals=4)
    rows = pa.table({"pairing": [0], "deal_index": [0], "swap": [0]})
    with ResultStore(out, first.as_dict(), first.keys) as interrupted:
        interrupted.add("part.parquet", rows)  # left without finish(): an interrupted run
    assert (tmp_path / "t.parquet.parts" / "part.parquet").exists()
    other = TournamentConfig(("random", "heuristic"), deals=4)
    with pytest.raises(ResultsConflict, match="random'\\] there, \\['random', 'heuristic'\\] here"):
        run_tournament(other, out, workers=1, quiet=True)
    frame = run_tournament(other, out, workers=1, quiet=True, force=True)
    assert len(frame) == 8 and not (tmp_path / "t.parquet.parts").exists()


def test_a_file_that_is_no_results_file_is_refused(tmp_path):
    out = tmp_path / "t.parquet"
    pq.write_table(pa.table({"x": [1]}), out)
    with pytest.raises(ResultsConflict, match="is not a sixtysix results file"):
        run_tournament(TournamentConfig(deals=2), out, workers=1, quiet=True)


def test_a_write_that_fails_midway_leaves_the_old_file_whole(tmp_path, monkeypatch):
    out = tmp_path / "t.parquet"
    config = {"seed": 1}
    with ResultStore(out, config, ["k"]) as store:
        store.add("a.parquet", pa.table({"k": [1, 2]}))
        store.finish()

    def broken_write(table, path):
        with open(path, "wb") as half:
            half.write(b"PAR1 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(store_module.pq, "write_table", broken_write)
    with pytest.raises(OSError, match="disk full"), ResultStore(out, config, ["k"]) as store:
        store.add("b.parquet", pa.table({"k": [3]}))
    monkeypatch.undo()
    assert pq.read_table(out)["k"].to_pylist() == [1, 2]
    assert not (tmp_path / "t.parquet.parts" / "b.parquet").exists()
    with ResultStore(out, config, ["k"]) as store:  # the half-written temporary is cleared
        assert store.table()["k"].to_pylist() == [1, 2]
    assert [path.name for path in tmp_path.iterdir()] == ["t.parquet"]


def test_two_runs_cannot_write_the_same_results(tmp_path):
    out = tmp_path / "t.parquet"
    with ResultStore(out, {}, ["k"]), pytest.raises(ResultsConflict, match="another run"):
        with ResultStore(out, {}, ["k"]):
            pass


def test_rows_held_twice_after_a_kill_are_kept_once(tmp_path):
    out = tmp_path / "t.parquet"
    with ResultStore(out, {}, ["k"]) as store:
        store.add("a.parquet", pa.table({"k": [2, 1]}))
        store.save()  # the main file now holds the part's rows too
    with ResultStore(out, {}, ["k"]) as store:
        store.add("b.parquet", pa.table({"k": [3]}))
        assert store.finish()["k"].to_pylist() == [1, 2, 3]


# ---- replay ----------------------------------------------------------------------------------


def test_replay_prints_a_row_move_by_move_and_checks_its_outcome(capsys, tmp_path):
    out = tmp_path / "t.parquet"
    config = TournamentConfig(("random", "heuristic"), deals=3)
    frame = run_tournament(config, out, workers=1, quiet=True)
    code, output, _ = cli_run(capsys, "replay", out, "--row", 5)
    assert code == 0
    row = frame.iloc[5]
    state = sixtysix.Game().new_deal(seed=int(row.deal_seed))
    assert f"P0 {' '.join(state.hands[0])} | P1 {' '.join(state.hands[1])}" in output
    assert f"P1 {row.spec_1}" in output and f"face-up {state.trump_card}" in output
    assert output.rstrip().endswith("the replay ends exactly as row 5 says")

    table = pq.read_table(out)  # a row that says something else
    winner = table["winner"].to_pylist()
    winner[5] = 1 - winner[5]
    forged = table.set_column(table.schema.get_field_index("winner"), "winner", [winner])
    pq.write_table(forged, out)
    assert not replay_row(out, 4).differences
    forged_replay = replay_row(out, 5)
    assert forged_replay.differences == [
        f"winner: {winner[5]!r} in the file, {1 - winner[5]} replayed"
    ]
    assert cli_run(capsys, "replay", out, "--row", 5)[0] == 1

    code, _, err = cli_run(capsys, "replay", out, "--row", 6)
    assert code == 2 and f"invalid row 6: {out} has 6 rows, so row must be 0 to 5" in err


def test_replay_of_a_match_deal(tmp_path):
    out = tmp_path / "m.parquet"
    frame = run_tournament(TournamentConfig(matches=1), out, workers=1, quiet=True)
    last = len(frame) - 1
    replayed = replay_row(out, last)
    assert not replayed.differences
    assert f"deal {frame.match_deal.iloc[last]} of the match" in replayed.text


def test_replay_shows_each_card_in_a_hand_before_its_play_in_aligned_columns(capsys, tmp_path):
    out = tmp_path / "t.parquet"
    specs = ("pimc:worlds=4,horizon=2", "random")
    run_tournament(TournamentConfig(specs, deals=2, seed=5), out, workers=1, quiet=True)
    code, output, _ = cli_run(capsys, "replay", out, "--row", 1)
    assert code == 0
    hands, moves = "", []
    for line in output.splitlines():
        if line.startswith("  trick "):
            hands = line
        elif line.startswith("    P"):
            moves.append(line)
            card = line.split()[-3]  # the card of "play CARD" and "marry CARD"
            if line.split()[-4] in ("play", "marry"):
                assert card in hands.split(";")[0], (card, hands)
    assert any(" draw " in move for move in moves)  # sixty_six draws by an action
    assert len({move.index(" points ") for move in moves}) == 1  # one column of points


def make_harvest(path) -> None:
    """A small complete closing harvest file at ``path``."""
    from sixtysix.experiments import closing_harvest

    config = closing_harvest.HarvestConfig(("random", "heuristic"), 2, "sixty_six", {}, 0)
    closing_harvest.run_harvest(config, path, workers=1, quiet=True)


def test_report_and_replay_of_a_harvest_file_say_what_it_is_and_what_reads_it(capsys, tmp_path):
    harvest = tmp_path / "closing.parquet"
    make_harvest(harvest)
    told = (
        f"{harvest} is a closing harvest file (positions), not a tournament's results; read it "
        f"with 'sixtysix closing evaluate --positions {harvest}'"
    )
    for args in (["report", harvest], ["replay", harvest, "--row", 0]):
        code, _, err = cli_run(capsys, *args)
        assert code == 2 and err.strip().endswith(told) and "Traceback" not in err


# ---- the command line ------------------------------------------------------------------------

BAD_ARGUMENTS = [
    ("--agents random", "a tournament needs at least 2 agents; got 1 ('random')"),
    ("--agents random random", "agent 'random' is listed twice; list each agent once"),
    ("--agents random bogus", "argument --agents: unknown agent 'bogus' in spec 'bogus'"),
    ("--agents random heuristic:depth=2", "argument --agents: agent spec 'heuristic:depth=2'"),
    ("--agents random nowhere.module:Agent", "argument --agents: agent spec 'nowhere.module"),
    ("--deals 0", "argument --deals: invalid deals 0: deals must be an integer >= 1"),
    ("--deals 3 --matches 3", "argument --matches: not allowed with argument --deals"),
    (
        "--matches 2 --preset vu_schnapsen",
        "matches need rules that play matches: Game('vu_schnapsen') plays single deals",
    ),
    ("--seed -1", "argument --seed: invalid seed -1: seed must be an integer in [0, 2**64)"),
    ("--workers 0", "argument --workers: invalid workers 0: workers must be an integer >= 1"),
    ("--time-limit 0", "argument --time-limit: invalid time limit 0.0: the time limit must be"),
    ("--time-limit soon", "argument --time-limit: invalid time limit 'soon'"),
    ("--agents random heuristic:noise=1.5", "agent spec 'heuristic:noise=1.5': invalid noise"),
    ("--rule nope=1", "argument --rule: invalid rule option 'nope=1': write OPTION=VALUE"),
    (
        "--rule strict_must_head=maybe",
        "argument --rule: invalid value 'maybe' for strict_must_head",
    ),
    ("--rule target=x", "argument --rule: invalid value 'x' for target: an integer"),
    ("--rule claim_mode=sometimes", "invalid value 'sometimes' for rule option 'claim_mode'"),
    ("--scheduler localhost", "argument --scheduler: invalid scheduler address 'localhost'"),
    ("--scheduler tcp://127.0.0.1:8786 --workers 2", "argument --workers: not allowed with"),
    ("--out results.csv", "argument --out: invalid results file 'results.csv'"),
    ("--preset bridge", "argument --preset: invalid choice: 'bridge'"),
]


@pytest.mark.parametrize(
    ("line", "message"), BAD_ARGUMENTS, ids=[line for line, _ in BAD_ARGUMENTS]
)
def test_bad_tournament_arguments_are_refused(capsys, tmp_path, line, message):
    code, output, err = cli_run(
        capsys, "tournament", *line.split(), "--out", tmp_path / "t.parquet"
    )
    assert code == 2 and output == ""
    assert f"sixtysix tournament: error: {message}" in err
    assert list(tmp_path.iterdir()) == []  # refused before anything ran


def test_bad_replay_arguments_are_refused(capsys, tmp_path):
    code, _, err = cli_run(capsys, "replay", tmp_path / "none.parquet")
    assert code == 2 and "no such file" in err
    code, _, err = cli_run(capsys, "replay", tmp_path / "none.parquet", "--row", -1)
    assert code == 2 and "argument --row: invalid row -1: row must be an integer >= 0" in err


def test_agents_lists_the_built_ins_as_a_table_and_as_json(capsys):
    code, output, _ = cli_run(capsys, "agents")
    lines = output.splitlines()
    assert code == 0 and lines[0].split() == ["name", "parameters", "description"]
    assert any(line.startswith("random ") for line in lines)
    code, output, _ = cli_run(capsys, "agents", "--json")
    assert code == 0 and json.loads(output) == sixtysix.agents.available()


def test_a_dask_run_sends_single_file_user_modules_to_the_workers(tmp_path, monkeypatch):
    (tmp_path / "upload_bots.py").write_text(
        "class First:\n    def __init__(self, seed):\n        pass\n"
        "    def act(self, view):\n        return view.legal_actions()[0]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    specs = ["upload_bots:First", "random", "heuristic:noise=0.5"]
    TournamentConfig(specs, deals=1)  # checking the specs imports the module
    assert user_module_files(specs) == [tmp_path / "upload_bots.py"]
    assert user_module_files(["sixtysix.agents.policy_agents:RandomAgent", "random"]) == []


def test_the_command_imports_agent_modules_from_the_folder_it_runs_in(
    tmp_path, monkeypatch, capsys
):
    (tmp_path / "beside_bots.py").write_text(
        "class First:\n    def __init__(self, seed):\n        pass\n"
        "    def act(self, view):\n        return view.legal_actions()[0]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    code, out, _ = cli_run(
        capsys,
        "tournament",
        "--agents",
        "beside_bots:First",
        "random",
        "--deals",
        "3",
        "--workers",
        "1",
        "--quiet",
        "--out",
        "r.parquet",
    )
    assert code == 0 and "beside_bots:First" in out


def test_rule_options_reach_the_games_played(capsys, tmp_path):
    out = tmp_path / "t.parquet"
    code, _, _ = cli_run(
        capsys,
        "tournament",
        "--agents",
        "heuristic",
        "random",
        "--deals",
        "4",
        "--workers",
        "1",
        "--preset",
        "schnapsen",
        "--rule",
        "claim_mode=manual",
        "--rule",
        "strict_must_head=false",
        "--rule",
        "match_target=none",
        "--out",
        out,
    )
    assert code == 0
    overrides = stored_config(out)["overrides"]
    assert overrides == {"claim_mode": "manual", "match_target": None, "strict_must_head": False}
    assert cli_run(capsys, "replay", out, "--row", 3)[0] == 0
