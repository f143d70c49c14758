"""Tournament runs as real processes: SIGTERM, Ctrl-C and kill -9 leave no process of the run
behind and say what is saved; a rerun completes; two runs at once from different folders
both finish."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pandas as pd
import psutil
import pytest
from test_tournament import MODULE, USER_AGENTS, cli_process

WAIT = 60  # seconds: generous, the machine is shared
SAVED = "deals (in both seatings) are saved in {out}; rerun the same command to play the rest"


@pytest.fixture
def agent_folder(tmp_path):
    """A folder holding the module of ``USER_AGENTS``."""
    folder = tmp_path / "agents"
    folder.mkdir()
    (folder / f"{MODULE}.py").write_text(USER_AGENTS)
    return folder


def tournament_args(deals: int = 200) -> list:
    """A tournament of slow agents on two workers, without its ``--out``."""
    slow = f"{MODULE}:Slow:delay=0.004"
    return ["tournament", "--agents", slow, "random", "--deals", deals, "--workers", 2]


def started_run(args, folder, out):
    """The run ``args`` into ``out`` and its processes (server, resource tracker, both
    workers), once it has saved a batch."""
    process = cli_process([*args, "--out", out], folder)
    parts = out.with_name(out.name + ".parts")
    deadline = time.monotonic() + WAIT
    while not list(parts.glob("*.parquet")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no batch was saved"
        time.sleep(0.1)
    tree = psutil.Process(process.pid).children(recursive=True)
    assert len(tree) >= 4, tree  # the fork server, the resource tracker and two workers
    return process, tree


def assert_all_gone(tree) -> None:
    """Every process of ``tree`` ends (a worker whose run is gone ends itself)."""
    _, alive = psutil.wait_procs(tree, timeout=WAIT)
    assert alive == []


def assert_each_deal_once(out, deals: int) -> None:
    frame = pd.read_parquet(out)
    keys = list(zip(frame.pairing, frame.deal_index, frame.swap, strict=True))
    assert keys == [(0, i, s) for i in range(deals) for s in (0, 1)]


@pytest.mark.parametrize(
    ("stop", "first_line", "code"),
    [(signal.SIGTERM, "stopped by SIGTERM", 143), (signal.SIGINT, "interrupted", 130)],
    ids=["sigterm", "ctrl-c"],
)
def test_a_stopped_run_ends_all_its_processes_says_what_is_saved_and_resumes(
    tmp_path, agent_folder, stop, first_line, code
):
    out = tmp_path / "t.parquet"
    args = tournament_args()
    process, tree = started_run(args, agent_folder, out)
    if stop == signal.SIGINT:
        os.killpg(process.pid, stop)  # Ctrl-C reaches the terminal's whole process group
    else:
        process.send_signal(stop)  # kill PID
    _, err = process.communicate(timeout=WAIT)
    assert_all_gone(tree)
    assert process.returncode == code
    lines = err.splitlines()
    assert lines[0] == f"sixtysix tournament: error: {first_line}", err
    assert lines[1].endswith(SAVED.format(out=out)) and len(lines) == 2, err

    rerun = cli_process([*args, "--out", out, "--quiet"], agent_folder)
    _, err = rerun.communicate(timeout=10 * WAIT)
    assert rerun.returncode == 0, err
    assert_each_deal_once(out, 200)


def test_the_workers_end_themselves_when_their_run_is_killed(tmp_path, agent_folder):
    out = tmp_path / "t.parquet"
    process, tree = started_run(tournament_args(), agent_folder, out)
    process.kill()  # kill -9 of the run alone: it cannot end its workers
    process.communicate(timeout=WAIT)
    assert_all_gone(tree)


def test_two_runs_at_once_from_different_folders_both_finish(tmp_path, agent_folder):
    """One run is the installed ``sixtysix`` command started in a folder holding another
    ``sixtysix`` package (a checkout of another version, say): its workers must still run
    the command's own package."""
    command = shutil.which("sixtysix", path=os.path.dirname(sys.executable))
    if command is None:
        pytest.skip("no sixtysix command beside this Python")
    elsewhere, decoy = tmp_path / "elsewhere", tmp_path / "decoy"
    (decoy / "sixtysix").mkdir(parents=True)
    (decoy / "sixtysix" / "__init__.py").write_text("raise ImportError('the wrong sixtysix')\n")
    elsewhere.mkdir()
    args = [*tournament_args(deals=40), "--quiet", "--out", "t.parquet"]
    args = [str(arg) for arg in args]
    env = {**os.environ, "PYTHONPATH": str(agent_folder)}
    quiet = {"env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "text": True}
    runs = [
        subprocess.Popen([command, *args], cwd=decoy, **quiet),
        subprocess.Popen(
            [sys.executable, "-m", "sixtysix.commands.cli", *args], cwd=elsewhere, **quiet
        ),
    ]
    for run in runs:
        _, err = run.communicate(timeout=10 * WAIT)
        assert run.returncode == 0, err
    for folder in (decoy, elsewhere):
        assert_each_deal_once(folder / "t.parquet", 40)
