"""The command line, the benchmarks and the bit tricks."""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import numpy as np
import pytest

import sixtysix
from sixtysix.commands import benchmarks, cli
from sixtysix.engine import bits
from sixtysix.engine.multi_rules import TABLE_MINI_PRESETS, TABLE_PRESETS

LAST_SEED = str(2**64 - 1)


def run_cli(capsys, *args: str) -> str:
    assert cli.main(list(args)) == 0
    return capsys.readouterr().out


def refused(capsys, *args: str) -> str:
    """The stderr of a command line that argparse refuses with exit code 2."""
    with pytest.raises(SystemExit) as exit_info:
        cli.main(list(args))
    assert exit_info.value.code == 2
    return capsys.readouterr().err


def help_text(capsys, *command: str) -> str:
    """The --help of ``command`` (the top level when empty)."""
    with pytest.raises(SystemExit) as exit_info:
        cli.main([*command, "--help"])
    assert exit_info.value.code == 0
    return capsys.readouterr().out


def options_taking_a_value(text: str) -> dict[str, str]:
    """The options of a --help text that take a value (``--seed SEED``), each with its help."""
    entries = re.split(r"\n(?=  -)", text.split("\noptions:\n", 1)[1])
    options = {}
    for entry in entries:
        words = entry.replace("-h, ", "").split()
        if len(words) > 1 and words[1].isupper():
            options[words[0]] = " ".join(words[2:])
    return options


def test_bench_core_json_reports_the_documented_fields(capsys):
    result = json.loads(run_cli(capsys, "bench", "core", "--deals", "2000", "--json"))
    assert result["preset"] == "sixty_six"
    assert result["deals"] == 2000
    assert result["deals_per_s"] > 0
    # Uniform random play of sixty_six closes often: about 15 plies per deal.
    assert 13 < result["plies_per_deal"] < 17


PYTHON_PATH_FIELDS = (
    "python_deals_per_s_1_worker",
    "python_deals_per_s_2_workers",
    "python_deals_per_s_dask_2_workers",
    "python_us_per_decision",
    "python_random_us_per_decision",
)
NUMBA_PATH_FIELDS = ("numba_deals_per_s", "numba_random_deals_per_s", "random_playout_deals_per_s")


def test_bench_tournament_json_reports_the_documented_fields(capsys):
    args = ("bench", "tournament", "--deals", "300", "--python-deals", "6", "--json")
    result = json.loads(run_cli(capsys, *args))
    for name in NUMBA_PATH_FIELDS + PYTHON_PATH_FIELDS:
        assert result[name] > 0, name
    ratio = result["numba_deals_per_s"] / result["random_playout_deals_per_s"]
    assert result["numba_ratio_to_playouts"] == pytest.approx(ratio, abs=1e-3)


def test_bench_tournament_at_a_table_times_the_python_path_alone(capsys):
    args = ("bench", "tournament", "--preset", "snapszer3", "--python-deals", "3", "--json")
    result = json.loads(run_cli(capsys, *args))
    assert (result["preset"], result["python_deals"]) == ("snapszer3", 3)
    for name in PYTHON_PATH_FIELDS:
        assert result[name] > 0, name
    assert not set(NUMBA_PATH_FIELDS) & set(result), "tables have no numba path"


@pytest.mark.parametrize("spec", ["pimc:horizon=1,worlds=4", "openspiel-mcts:simulations=5"])
def test_bench_agent_json_reports_the_documented_fields(capsys, spec):
    args = ("bench", "agent", spec, "--preset", "mini_2x4", "--deals", "3", "--json")
    result = json.loads(run_cli(capsys, *args))
    assert (result["spec"], result["preset"], result["deals"]) == (spec, "mini_2x4", 3)
    assert result["decisions"] == result["open_decisions"] + result["strict_decisions"] > 0
    for name in ("median_s", "p90_s", "open_median_s", "open_p90_s"):
        assert result[name] >= 0, name
    assert result["median_s"] <= result["p90_s"] <= result["max_s"]


def test_bench_agent_times_an_agent_at_a_table(capsys):
    args = ("bench", "agent", "heuristic", "--preset", "mini3_3x3", "--opponent", "random")
    result = json.loads(run_cli(capsys, *args, "--deals", "3", "--json"))
    assert (result["preset"], result["opponent"], result["deals"]) == ("mini3_3x3", "random", 3)
    assert result["decisions"] == result["open_decisions"] + result["strict_decisions"] > 0
    assert result["median_s"] <= result["p90_s"] <= result["max_s"]


def test_bench_agent_refuses_a_bad_spec(capsys):
    assert "unknown agent 'nobody'" in refused(capsys, "bench", "agent", "nobody")


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C")
def test_reference_c_plays_the_very_same_deals(capsys):
    # The C program and the engine draw from the same random stream, so equal rules
    # give deal-for-deal identical play: an exact differential test of sixty_six.
    out = run_cli(capsys, "bench", "core", "--deals", "200000", "--reference-c", "--json")
    result = json.loads(out)
    assert result["ratio_to_c"] > 0
    assert result["identical_play"] is True
    assert result["plies_per_deal"] == result["c_plies_per_deal"]


BAD_INPUTS = [  # (command line, part of the error message)
    ("bench tournament --python-deals 0", "argument --python-deals: invalid python-deals 0"),
    ("demo --seed -1", "argument --seed: invalid seed -1: seed must be an integer in [0, 2**64)"),
    (
        f"demo --seed {LAST_SEED} --deals 2",
        f"argument --seed: invalid seed {LAST_SEED} for --deals 2: "
        "the deal seeds seed .. seed + deals - 1 must all be below 2**64",
    ),
    ("demo --deals -3", "argument --deals: invalid deals -3: deals must be an integer >= 1"),
    ("demo --deals 0", "argument --deals: invalid deals 0: deals must be an integer >= 1"),
    ("demo --deals two", "argument --deals: invalid deals 'two': deals must be an integer >= 1"),
    ("demo --preset bridge", "argument --preset: invalid choice: 'bridge'"),
    (
        "bench core --deals 0",
        "argument --deals: invalid deals 0: deals must be an integer in [1, 2**63)",
    ),
    (
        f"bench core --deals {2**63}",
        f"argument --deals: invalid deals {2**63}: deals must be an integer in",
    ),
    (
        "bench core --seed -3",
        "argument --seed: invalid seed -3: seed must be an integer in [0, 2**64)",
    ),
    (
        f"bench core --seed {2**64}",
        f"argument --seed: invalid seed {2**64}: seed must be an integer in",
    ),
    ("bench core --seed 1.5", "argument --seed: invalid seed '1.5': seed must be an integer in"),
    ("bench core --preset bridge", "argument --preset: invalid choice: 'bridge'"),
    (
        "bench core --preset schnapsen --reference-c",
        "argument --reference-c: not allowed with --preset schnapsen",
    ),
    ("bench solver --deals 0", "argument --deals: invalid deals 0: deals must be an integer >= 1"),
    (
        "bench solver --seed -1",
        "argument --seed: invalid seed -1: seed must be an integer in [0, 2**64)",
    ),
    (
        f"bench solver --seed {LAST_SEED} --deals 2",
        f"argument --seed: invalid seed {LAST_SEED} for --deals 2",
    ),
    (
        "bench openspiel --games 0",
        "argument --games: invalid games 0: games must be an integer >= 1",
    ),
    (
        "bench openspiel --seed -1",
        "argument --seed: invalid seed -1: seed must be an integer in [0, 2**64)",
    ),
    ("bench tree --preset sixty_six", "argument --preset: invalid choice: 'sixty_six'"),
]


@pytest.mark.parametrize(("line", "message"), BAD_INPUTS, ids=[line for line, _ in BAD_INPUTS])
def test_bad_arguments_are_refused_by_argparse(capsys, line, message):
    err = refused(capsys, *line.split())
    command = line.split(" --")[0]
    assert f"sixtysix {command}: error: {message}" in err


def test_console_script_refuses_a_bad_seed_without_a_traceback():
    command = [sys.executable, "-m", "sixtysix.commands.cli", "demo", "--seed", "-1"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == (
        "sixtysix demo: error: argument --seed: invalid seed -1: "
        "seed must be an integer in [0, 2**64)"
    )


def test_the_last_seed_is_accepted_for_one_deal(capsys):
    out = run_cli(capsys, "demo", "--deals", "1", "--seed", LAST_SEED)
    assert f"seed {LAST_SEED}" in out and "-> " in out


def test_benchmarks_check_their_arguments_with_the_shared_messages():
    with pytest.raises(ValueError, match=re.escape("invalid deals 0: deals must be an integer in")):
        benchmarks.bench_core(deals=0)
    with pytest.raises(ValueError, match="invalid seed True: seed must be an integer"):
        benchmarks.bench_core(deals=1, seed=True)
    with pytest.raises(ValueError, match=f"invalid seed {2**64 - 1}: seed must be"):
        benchmarks.bench_solver(deals=2, seed=2**64 - 1)
    with pytest.raises(ValueError, match="invalid games 0: games must be an integer >= 1"):
        benchmarks.bench_openspiel(games=0)
    with pytest.raises(ValueError, match="invalid seed -1: seed must be"):
        benchmarks.bench_openspiel(games=1, seed=-1)
    with pytest.raises(ValueError, match="invalid rounds 0: rounds must be an integer >= 1"):
        benchmarks.compare_with_c(10, rounds=0)


OPTIONS_OF_COMMANDS = {  # the options that take a value
    "": [],
    "demo": ["--preset", "--deals", "--seed"],
    "presets": [],
    "bench": [],
    "bench core": ["--preset", "--deals", "--seed"],
    "bench solver": ["--preset", "--deals", "--seed"],
    "bench api": ["--preset", "--deals", "--seed"],
    "bench openspiel": ["--preset", "--games", "--seed"],
    "bench tree": ["--preset"],
}


@pytest.mark.parametrize("command", OPTIONS_OF_COMMANDS)
def test_help_describes_the_command_and_shows_every_default(capsys, command):
    text = help_text(capsys, *command.split())
    assert "``" not in text
    description = text.split("\n\n")[1]
    assert not description.startswith(("positional arguments", "options"))
    options = options_taking_a_value(text)
    assert list(options) == OPTIONS_OF_COMMANDS[command]
    for option, option_help in options.items():
        assert "(default: " in option_help, option


def test_help_of_every_subcommand_summarises_it(capsys):
    assert re.search(r"demo +play random deals", help_text(capsys))
    assert re.search(r"presets +list the rule presets", help_text(capsys))
    bench_help = " ".join(help_text(capsys, "bench").split())
    for kind in ("core", "solver", "api", "openspiel", "tree"):
        assert re.search(rf"{kind} [a-z]", bench_help), kind


def test_help_shows_the_defaults_of_demo(capsys):
    options = options_taking_a_value(help_text(capsys, "demo"))
    assert list(options) == ["--preset", "--deals", "--seed"]
    assert options["--preset"].endswith("(default: sixty_six)")
    assert options["--deals"].endswith("(default: 2)")
    assert options["--seed"].endswith("(default: 1)")


def test_bench_solver_json_reports_the_documented_fields(capsys):
    out = run_cli(capsys, "bench", "solver", "--deals", "3", "--seed", "5", "--json")
    result = json.loads(out)
    assert result["preset"] == "schnapsen" and result["deals"] == 3
    assert 0 < result["median_ms"] <= result["max_ms"]
    assert result["mean_ms"] > 0 and result["nodes_per_s"] > 0
    game = sixtysix.Game("schnapsen")
    values = [sixtysix.solve(game.new_deal(seed=5 + i)).value for i in range(3)]
    assert result["mean_value"] == round(sum(values) / 3, 4)


def test_bench_api_json_reports_the_documented_fields(capsys):
    out = run_cli(capsys, "bench", "api", "--preset", "schnapsen", "--deals", "20", "--json")
    result = json.loads(out)
    assert (result["preset"], result["deals"], result["seed"]) == ("schnapsen", 20, 1)
    assert result["actions_per_s_ids"] > 0 and result["actions_per_s_strings"] > 0
    assert result["views"] >= 5  # the states of one more deal
    assert min(result["view_us"], result["key_us"], result["tensor_us"]) > 0
    assert result["mid_game_views"] > 0
    assert result["world_records_per_s"] > 0 and result["world_states_per_s"] > 0


def test_bench_openspiel_and_tree_report_the_documented_fields(capsys):
    from sixtysix import openspiel

    result = json.loads(run_cli(capsys, "bench", "openspiel", "--games", "20", "--json"))
    assert result["preset"] == "sixty_six" and result["games"] == 20
    assert result["steps_per_s"] > result["decisions_per_s"] > 0
    assert result["steps_per_game"] > 24  # the 24 chance steps of the deal, then play
    tree = json.loads(run_cli(capsys, "bench", "tree", "--preset", "mini_2x3", "--json"))
    size = openspiel.tree_size(openspiel.SixtySixGame({"preset": "mini_2x3"}))
    assert (tree["histories"], tree["terminal_histories"], tree["deals"]) == (
        size.histories,
        size.terminals,
        size.deals,
    )
    assert (tree["information_sets_p0"], tree["information_sets_p1"]) == size.information_sets
    assert tree["deals"] == 15 * 6 * 2  # C(6,2) hands, C(4,2) hands, the talon's 2 orders


def test_demo_prints_a_complete_deal(capsys):
    out = run_cli(capsys, "demo", "--preset", "schnapsen", "--deals", "1", "--seed", "3")
    assert "deal 1: dealer" in out
    assert "-> " in out


def test_presets_json_lists_every_preset(capsys):
    table = json.loads(run_cli(capsys, "presets", "--json"))
    multi = [*TABLE_PRESETS, *TABLE_MINI_PRESETS]
    assert list(table) == [*sixtysix.PRESETS, *sixtysix.MINI_PRESETS, *multi]
    assert table["vu_schnapsen"]["closing_allowed"] is False
    assert table["snapszer4"]["num_players"] == 4 and table["na66"]["sides"] == "contract"


def test_presets_json_of_named_presets_lists_only_those(capsys):
    table = json.loads(run_cli(capsys, "presets", "schnapsen", "mini_2x3", "--json"))
    assert list(table) == ["schnapsen", "mini_2x3"]
    assert list(table["schnapsen"]) == list(sixtysix.OPTION_NAMES)
    assert table["mini_2x3"]["deck"] == 6


def test_presets_lists_the_differences_then_how_to_see_every_value(capsys):
    lines = run_cli(capsys, "presets").splitlines()
    names = [*sixtysix.PRESETS, *sixtysix.MINI_PRESETS]
    multi = [*TABLE_PRESETS, *TABLE_MINI_PRESETS]
    heading = len(names)
    assert [line.split(":")[0] for line in lines[:heading]] == names
    assert lines[heading].startswith("For two to four seats")
    assert [line.split(":")[0] for line in lines[heading + 1 : -1]] == multi
    assert lines[0] == "sixty_six: (defaults)"
    assert lines[heading + 1].startswith("snapszer3: num_players=3, sides='none', deck=24")
    assert "sixtysix presets NAME" in lines[-1] and "--json" in lines[-1]


def test_presets_of_names_prints_every_option_in_aligned_columns(capsys):
    lines = run_cli(capsys, "presets", "sixty_six", "mini_2x3").splitlines()
    rows = [line.split() for line in lines]
    assert rows[0] == ["option", "sixty_six", "mini_2x3"]
    assert [row[0] for row in rows[1:]] == list(sixtysix.OPTION_NAMES)
    assert rows[1] == ["deck", "24", "6"] and rows[2] == ["ranks", "''", "'JQK'"]
    column = lines[0].index("mini_2x3")
    assert all(line[column - 1] == " " and line[column] != " " for line in lines)


def test_an_unknown_preset_is_refused_with_the_valid_ones(capsys):
    err = refused(capsys, "presets", "sixty_six", "bridge")
    assert "sixtysix presets: error: argument NAME: invalid choice: 'bridge'" in err
    assert all(repr(name) in err for name in [*sixtysix.PRESETS, *sixtysix.MINI_PRESETS])


@pytest.mark.parametrize("method", ["loop", "pdep"])
def test_nth_set_bit_methods_agree_with_python(method):
    if method == "pdep" and not bits.HAS_PDEP:
        pytest.skip("this CPU has no fast pdep")
    choose = bits.nth_set_bit_pdep if method == "pdep" else bits.nth_set_bit_loop
    masks = [0b1, 0b101101000, (1 << 57) | (1 << 3) | 1, (1 << 58) - 1]
    for mask in masks:
        set_bits = [i for i in range(64) if mask >> i & 1]
        for n, expected in enumerate(set_bits):
            assert choose(np.int64(mask), n) == expected


def test_a_closed_pipe_ends_the_output_quietly():
    """``sixtysix demo ... | head -1``: no traceback when the reader stops early (the log is
    far longer than a pipe's buffer, so the writer meets the closed pipe)."""
    command = [sys.executable, "-m", "sixtysix.commands.cli", "demo", "--deals", "400"]
    run = subprocess.run(
        f"{shlex.join(command)} | head -1", shell=True, capture_output=True, text=True
    )
    assert run.stdout == "400 random deal(s) of sixty_six, seed 1\n"
    assert run.stderr == ""


# ---- what a command writes, and the agents it builds, are checked before it runs -------------

WRITING_COMMANDS = {  # command line with OUT for the output: the output's name in the message
    "tournament --agents random heuristic --deals 2 --out OUT/g.parquet": "results file",
    "closing harvest --agents random --deals 1 --out OUT/p.parquet": "positions file",
    "closing evaluate --positions p.parquet --out OUT/q": "output stem",
    "cfr solve --iterations 1 --out OUT/s.npz": "strategy file",
    "cfr train --iterations 1 --out OUT/run": "run folder",
}


def command_of(line: str) -> str:
    """``sixtysix COMMAND`` of a command line, as argparse names it in its errors."""
    words = line.split(" --")[0].split()
    return "sixtysix " + " ".join(
        words[:2] if words[0] in ("bench", "cfr", "closing") else words[:1]
    )


@pytest.mark.parametrize("line", WRITING_COMMANDS)
def test_an_output_under_a_file_is_refused_before_anything_runs(capsys, tmp_path, line):
    blocker = tmp_path / "plain"
    blocker.write_text("")
    args = line.replace("OUT", str(blocker)).split()
    out = args[args.index("--out") + 1]
    err = refused(capsys, *args)
    assert err.splitlines()[-1] == (
        f"{command_of(line)}: error: argument --out: invalid {WRITING_COMMANDS[line]} "
        f"{out!r}: {str(blocker)!r} is a file, not a folder: "
        "give a path in a folder you can write to"
    )
    assert sorted(tmp_path.iterdir()) == [blocker]


@pytest.fixture
def locked(tmp_path, monkeypatch):
    """A folder in which no file can be written (as if its permissions said so, even for
    root), the current folder."""
    from sixtysix.commands import arguments

    folder = tmp_path / "locked"
    folder.mkdir()
    probe = arguments.tempfile.TemporaryFile

    def refuse(*args, dir=None, **kwargs):
        if dir is not None and os.path.samefile(dir, folder):
            raise PermissionError(errno.EACCES, "Permission denied")
        return probe(*args, dir=dir, **kwargs)

    monkeypatch.setattr(arguments.tempfile, "TemporaryFile", refuse)
    monkeypatch.chdir(folder)
    return folder


DEFAULT_OUTPUTS = {  # command line: the error of its default output in a locked folder
    "tournament --agents random heuristic --deals 2": (
        "argument --out: invalid results file 'results/tournament.parquet': cannot write in "
        "'.' (Permission denied)"
    ),
    "closing harvest --agents random --deals 1": (
        "argument --out: invalid positions file 'results/closing_sixty_six.parquet': cannot "
        "write in '.' (Permission denied)"
    ),
    "cfr solve --iterations 1": (
        "argument --out: invalid strategy file 'results/cfr_mini_2x3.npz': cannot write in "
        "'.' (Permission denied)"
    ),
    "cfr train --iterations 1 --out run": (
        "argument --out: invalid run folder 'run': cannot write in '.' (Permission denied)"
    ),
}


@pytest.mark.parametrize("line", DEFAULT_OUTPUTS)
def test_an_output_in_a_folder_that_refuses_writes_is_refused(capsys, locked, line):
    err = refused(capsys, *line.split())
    assert err.splitlines()[-1] == (
        f"{command_of(line)}: error: {DEFAULT_OUTPUTS[line]}: "
        "give a path in a folder you can write to"
    )
    assert list(locked.iterdir()) == []


def test_report_refuses_plots_it_cannot_save(capsys, locked):
    (locked / "r.parquet").write_text("")
    err = refused(capsys, "report", "r.parquet", "--plots")
    assert err.splitlines()[-1] == (
        "sixtysix report: error: argument --plots: cannot save the plots beside 'r.parquet': "
        "cannot write in '.' (Permission denied): leave out --plots, or copy the results "
        "into a folder you can write to"
    )


def test_a_missing_output_folder_is_made_when_its_parent_can_be_written(capsys, tmp_path):
    out = tmp_path / "new" / "deeper" / "s.npz"
    assert cli.main(["cfr", "solve", "--iterations", "2", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["out"] == str(out) and out.is_file()


def test_a_bad_output_is_refused_without_a_traceback(tmp_path):
    (tmp_path / "plain").write_text("")
    out = tmp_path / "plain" / "g.parquet"
    command = [sys.executable, "-m", "sixtysix.commands.cli", "tournament", "--out", str(out)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert (result.returncode, result.stdout) == (2, "")
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1].startswith(
        f"sixtysix tournament: error: argument --out: invalid results file {str(out)!r}"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "agent", "pimc:worlds=0"],
        ["bench", "agent", "random", "--opponent", "pimc:worlds=0"],
        ["play", "--opponent", "pimc:worlds=0"],
        ["cfr", "exploitability", "--agent", "pimc:worlds=0"],
    ],
    ids=["bench-agent", "bench-opponent", "play", "exploitability"],
)
def test_an_agent_that_cannot_be_built_is_refused_by_its_argument(capsys, args):
    argument = "spec" if args[-2] == "agent" else args[-2]
    err = refused(capsys, *args)
    assert err.splitlines()[-1] == (
        f"{command_of(' '.join(args))}: error: argument {argument}: agent spec "
        "'pimc:worlds=0': invalid worlds 0: the number of worlds must be at least 1"
    )


def test_a_harvest_under_rules_without_closing_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    allowing = [
        name
        for name in [*sixtysix.PRESETS, *sixtysix.MINI_PRESETS]
        if sixtysix.make_rules(name).closing_allowed
    ]
    assert "vu_schnapsen" not in allowing and "schnapsen" in allowing
    harvest = ["closing", "harvest", "--agents", "random", "--deals", "1"]
    err = refused(capsys, *harvest, "--preset", "vu_schnapsen")
    assert err.splitlines()[-1] == (
        "sixtysix closing harvest: error: invalid preset 'vu_schnapsen': closing is never "
        "legal in it (closing_allowed=False), so there is nothing to harvest; presets that "
        f"allow closing: {', '.join(allowing)}"
    )
    err = refused(capsys, *harvest, "--rule", "closing_allowed=false")
    assert err.splitlines()[-1] == (
        "sixtysix closing harvest: error: invalid rule closing_allowed=false: closing is never "
        "legal, so there is nothing to harvest"
    )
    assert list(tmp_path.iterdir()) == []


def test_bench_solver_takes_a_table_preset(capsys):
    from sixtysix.theory import table_solver

    out = run_cli(capsys, "bench", "solver", "--preset", "mini4_4x3", "--deals", "3", "--json")
    result = json.loads(out)
    assert result["preset"] == "mini4_4x3" and result["median_nodes"] > 0
    game = sixtysix.Game("mini4_4x3")
    values = [table_solver.solve(game.new_deal(seed=1 + i), 0) for i in range(3)]
    assert result["mean_value"] == round(sum(values) / 3, 4)


def test_bench_solver_on_the_multi_core_gives_the_two_player_values(capsys):
    def mean_value(*extra):
        out = run_cli(capsys, "bench", "solver", "--deals", "3", "--seed", "5", "--json", *extra)
        return json.loads(out)["mean_value"]

    assert mean_value("--multi-core") == mean_value()
    error = refused(capsys, "bench", "solver", "--preset", "snapszer4", "--multi-core")
    assert "--multi-core: not allowed with --preset snapszer4" in error
