"""The command line, the benchmarks and the bit tricks."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

import sixtysix
from sixtysix import bits, cli


def run_cli(capsys, *args: str) -> str:
    assert cli.main(list(args)) == 0
    return capsys.readouterr().out


def test_bench_core_json_reports_the_documented_fields(capsys):
    result = json.loads(run_cli(capsys, "bench", "core", "--deals", "2000", "--json"))
    assert result["preset"] == "sixty_six"
    assert result["deals"] == 2000
    assert result["deals_per_s"] > 0
    # Uniform random play of sixty_six closes often: about 15 plies per deal.
    assert 13 < result["plies_per_deal"] < 17


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C")
def test_reference_c_plays_the_very_same_deals(capsys):
    # The C program and the engine draw from the same random stream, so equal rules
    # give deal-for-deal identical play: an exact differential test of sixty_six.
    out = run_cli(capsys, "bench", "core", "--deals", "200000", "--reference-c", "--json")
    result = json.loads(out)
    assert result["ratio_to_c"] > 0
    assert result["identical_play"] is True
    assert result["plies_per_deal"] == result["c_plies_per_deal"]


def test_bad_bench_arguments_are_rejected(capsys):
    assert cli.main(["bench", "core", "--deals", "0"]) == 2
    assert "invalid deals 0" in capsys.readouterr().err
    assert cli.main(["bench", "core", "--seed", "-3"]) == 2
    assert "invalid seed -3" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["bench", "core", "--preset", "bridge"])
    assert "invalid choice: 'bridge'" in capsys.readouterr().err


def test_bench_solver_json_reports_the_documented_fields(capsys):
    out = run_cli(capsys, "bench", "solver", "--deals", "3", "--seed", "5", "--json")
    result = json.loads(out)
    assert result["preset"] == "schnapsen" and result["deals"] == 3
    assert 0 < result["median_ms"] <= result["max_ms"]
    assert result["mean_ms"] > 0 and result["nodes_per_s"] > 0
    game = sixtysix.Game("schnapsen")
    values = [sixtysix.solve(game.new_deal(seed=5 + i)).value for i in range(3)]
    assert result["mean_value"] == round(sum(values) / 3, 4)


def test_bad_solver_bench_arguments_are_rejected(capsys):
    assert cli.main(["bench", "solver", "--deals", "0"]) == 2
    assert "invalid deals 0" in capsys.readouterr().err
    assert cli.main(["bench", "solver", "--seed", "-1"]) == 2
    assert "invalid seed -1" in capsys.readouterr().err


def test_bench_openspiel_and_tree_report_the_documented_fields(capsys):
    pytest.importorskip("pyspiel")
    from sixtysix import openspiel

    result = json.loads(run_cli(capsys, "bench", "openspiel", "--games", "20", "--json"))
    assert result["preset"] == "sixty_six" and result["games"] == 20
    assert result["steps_per_s"] > result["decisions_per_s"] > 0
    assert result["steps_per_game"] > 24  # the 24 chance steps of the deal, then play
    assert cli.main(["bench", "openspiel", "--games", "0"]) == 2
    assert "invalid games 0" in capsys.readouterr().err
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
    assert list(table) == list(sixtysix.PRESETS) + list(sixtysix.MINI_PRESETS)
    assert table["vu_schnapsen"]["closing_allowed"] is False


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
