"""``sixtysix vu-match``: agents against VU's RdeepBot inside VU's own engine
(``experiments.vu_match``)."""

from __future__ import annotations

import pandas as pd
import pytest

pytest.importorskip("schnapsen")

from sixtysix.experiments import vu_match  # noqa: E402
from sixtysix.experiments.batch_backends import TournamentError  # noqa: E402
from sixtysix.experiments.store import ResultsConflict  # noqa: E402
from sixtysix.experiments.tournament import unit_seed  # noqa: E402

from sixtysix.commands import cli  # noqa: E402

CHEAP = {"samples": 2, "depth": 2}  # a cheap RdeepBot


@pytest.fixture(scope="module")
def match(tmp_path_factory) -> tuple[vu_match.VUMatchConfig, pd.DataFrame, object]:
    config = vu_match.VUMatchConfig(("random", "heuristic:worlds=0"), 2, 5, **CHEAP)
    out = tmp_path_factory.mktemp("vu") / "match.parquet"
    return config, vu_match.run_vu_match(config, out, 1, quiet=True), out


def test_each_agent_plays_every_deal_in_both_seats_on_the_same_decks(match) -> None:
    config, results, _ = match
    assert len(results) == 2 * 2 * 2
    for (_agent, index), rows in results.groupby(["agent", "index"]):
        assert sorted(rows["agent_player"]) == [0, 1]
        assert set(rows["deal_seed"]) == {unit_seed(config.seed, index)}
    assert (results["won"] == (results["game_points"] > 0)).all()
    assert results["game_points"].abs().between(1, 3).all()
    assert (results["agent_seconds"].map(len) > 0).all()
    assert (results["rival_seconds"].map(len) > 0).all()


def test_the_summary_counts_duplicate_pairs(match) -> None:
    _, results, _ = match
    table = vu_match.summary(results)
    assert list(table["pairs"]) == [2, 2]
    wins = results.groupby("agent")["won"].mean()
    assert table["win_share"].to_dict() == pytest.approx(wins.to_dict())
    assert (table["time_ratio"] > 0).all()


def test_a_finished_match_is_read_back_without_playing(match, monkeypatch) -> None:
    config, results, out = match

    def refuse(*arguments):
        raise AssertionError("a finished deal was played again")

    monkeypatch.setattr(vu_match, "play_deal", refuse)
    again = vu_match.run_vu_match(config, out, 1, quiet=True)
    pd.testing.assert_frame_equal(again, results)


def test_a_failed_match_keeps_its_deals_and_resumes_to_the_clean_rows(match, tmp_path) -> None:
    config, results, _ = match
    out = tmp_path / "resumed.parquet"
    play_deal = vu_match.play_deal

    def fail_for_the_heuristic(config, spec, index, player):
        if spec.startswith("heuristic"):
            raise RuntimeError("stopped")
        return play_deal(config, spec, index, player)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vu_match, "play_deal", fail_for_the_heuristic)
        with pytest.raises(TournamentError, match="rerun the same command"):
            vu_match.run_vu_match(config, out, 1, quiet=True)
    assert set(pd.read_parquet(out)["agent"]) == {"random"}
    resumed = vu_match.run_vu_match(config, out, 1, quiet=True)
    outcomes = ["agent", "index", "deal_seed", "agent_player", "won", "game_points"]
    pd.testing.assert_frame_equal(resumed[outcomes], results[outcomes])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"deals": 0}, "invalid deals 0"),
        ({"depth": 0}, "invalid depth 0"),
        ({"agents": ("nobody",)}, "nobody"),
        ({"agents": ("random", "random")}, "listed twice"),
        ({"agents": ("open-hand",)}, "cheats"),
        ({"rival": "alphago"}, "rival 'alphago': valid are rdeep, rdeep-alphabeta, bully, rand"),
    ],
)
def test_bad_settings_are_refused_by_name(changes, message) -> None:
    settings = {"agents": ("random",), "deals": 1, "seed": 0, **CHEAP, **changes}
    with pytest.raises(ValueError, match=message):
        vu_match.VUMatchConfig(**settings)


def test_the_command_prints_the_table_and_writes_the_plot(tmp_path, capsys) -> None:
    out = tmp_path / "vu.parquet"
    arguments = ["--agents", "random", "--deals", "1", "--samples", "2", "--depth", "2"]
    assert cli.main(["vu-match", *arguments, "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "win share" in printed and "RdeepBot(2, 2)" in printed
    assert out.is_file() and (tmp_path / "vu-win-shares.png").is_file()
    bully = ["--agents", "random", "--deals", "1", "--rival", "bully", "--quiet"]
    assert cli.main(["vu-match", *bully, "--out", str(tmp_path / "bully.parquet")]) == 0
    assert "against BullyBot" in capsys.readouterr().out


@pytest.mark.parametrize("rival", vu_match.RIVALS)
def test_every_rival_plays_whole_deals_in_vus_engine(rival) -> None:
    config = vu_match.VUMatchConfig(("heuristic:worlds=0",), 1, 3, rival=rival, **CHEAP)
    for player in (0, 1):
        row = vu_match.play_deal(config, "heuristic:worlds=0", 0, player)  # checks VU's outcome
        assert row["rival_seconds"] and row["game_points"] in (-3, -2, -1, 1, 2, 3)


def test_rdeep_alphabeta_asks_the_exact_bot_only_once_the_talon_is_gone() -> None:
    from schnapsen.game import GamePhase

    class Perspective:
        def __init__(self, phase):
            self.phase = phase

        def get_phase(self):
            return self.phase

    class Named:
        def __init__(self, name):
            self.name = name

        def get_move(self, perspective, leader_move):
            return self.name

    bot = vu_match.ExactAfterTalon(Named("first"), Named("exact"))
    assert bot.get_move(Perspective(GamePhase.ONE), None) == "first"
    assert bot.get_move(Perspective(GamePhase.TWO), None) == "exact"


def test_a_file_of_one_rival_is_refused_for_another(tmp_path) -> None:
    out = tmp_path / "match.parquet"
    bully = vu_match.VUMatchConfig(("random",), 1, 0, rival="bully")
    vu_match.run_vu_match(bully, out, 1, quiet=True)
    rand = vu_match.VUMatchConfig(("random",), 1, 0, rival="rand")
    with pytest.raises(ResultsConflict, match="rival: 'bully' there, 'rand' here"):
        vu_match.run_vu_match(rand, out, 1, quiet=True)


def test_the_rival_is_named_in_the_table() -> None:
    names = {
        rival: vu_match.VUMatchConfig(("random",), 1, 0, rival=rival, **CHEAP).rival_name
        for rival in vu_match.RIVALS
    }
    assert names == {
        "rdeep": "RdeepBot(2, 2)",
        "rdeep-alphabeta": "RdeepBot(2, 2) + AlphaBetaBot",
        "bully": "BullyBot",
        "rand": "RandBot",
    }
