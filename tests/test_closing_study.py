"""The close-the-talon study: the position harvest, the decision-quality evaluation, the
notebook and the ``closing`` commands."""

from __future__ import annotations

import json
from math import nan
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from sixtysix.experiments import closing_evaluation, closing_harvest, closing_scores
from sixtysix.experiments.batch_backends import TournamentError
from sixtysix.experiments.store import ResultsConflict
from sixtysix.experiments.tournament import unit_seed
from test_closing import EXAMPLE
from test_summary import executed_outputs

import sixtysix
from sixtysix import agents
from sixtysix.commands import cli
from sixtysix.engine.multi_core import A_CLOSE
from sixtysix.theory import closing_values

REPOSITORY = Path(__file__).resolve().parents[1]
NOTEBOOK = REPOSITORY / "notebooks" / "closing_quality.ipynb"
SAMPLE = REPOSITORY / "results" / "samples" / "closing_schnapsen-quality.parquet"
FAST = ("heuristic:worlds=0", "random")


def harvest(path: Path, preset: str = "schnapsen", deals: int = 3, **options) -> pd.DataFrame:
    config = closing_harvest.HarvestConfig(FAST, deals=deals, preset=preset, seed=5, **options)
    return closing_harvest.run_harvest(config, path, workers=1, quiet=True).to_pandas()


@pytest.mark.parametrize("preset", ["schnapsen", "sixty_six"])
def test_the_harvest_records_exactly_the_decisions_where_closing_is_legal(tmp_path, preset):
    rows = harvest(tmp_path / "positions.parquet", preset)
    game = sixtysix.Game(preset)
    pairings = [(a, b) for a in FAST for b in FAST]
    assert sorted(set(rows["pairing"])) == list(range(len(pairings)))
    for pairing, specs in enumerate(pairings):
        for deal in range(3):
            result = agents.play_deal(game, specs, unit_seed(5, deal))
            state = game.new_deal(seed=result.seed)
            expected = []
            for decision, (player, action) in enumerate(result.history_ids):
                if A_CLOSE in state.legal_action_ids():
                    expected.append((decision, player, state.talon_size, state.card_points))
                state.apply(action)
            found = rows[(rows["pairing"] == pairing) & (rows["deal_index"] == deal)]
            assert [
                (r.decision, r.leader, r.talon_size, (r.points_leader, r.points_opponent))
                for r in found.itertuples()
            ] == [(d, p, t, (pts[p], pts[1 - p])) for d, p, t, pts in expected]
            assert list(found["spec_0"]) == [specs[0]] * len(found)
            actions = [action for _, action in result.history_ids]
            for row in found.itertuples():
                assert list(row.history) == actions[: row.decision]
                assert row.action == sixtysix.engine.actions.action_name(actions[row.decision])
                assert row.closed == (row.action == "close")
    for row in rows.head(12).itertuples():  # every row rebuilds its state and its view
        state = closing_harvest.position_state(row)
        view = state.view(row.leader)
        assert view.key() == row.view_key
        assert list(row.legal_actions) == state.legal_actions()
        assert list(row.known_opponent) == sixtysix.engine.cards.mask_to_names(view.known_opponent)
    if preset == "sixty_six":  # close_before_draw: the trick winner's decisions too
        assert set(rows["phase"]) == {"lead", "pre-draw"}


def test_a_resumed_harvest_equals_one_run_and_another_configuration_is_refused(
    tmp_path, monkeypatch
):
    whole = tmp_path / "whole.parquet"
    harvest(whole, deals=6)
    resumed = tmp_path / "resumed.parquet"
    original = closing_harvest.position_rows

    def failing(game, result):
        if result.seed == unit_seed(5, 4):
            raise RuntimeError("stop here")
        return original(game, result)

    monkeypatch.setattr(closing_harvest, "position_rows", failing)
    with pytest.raises(TournamentError, match="rerun the same command"):
        harvest(resumed, deals=6)
    partial = pq.read_table(resumed)
    assert 0 < partial.num_rows < pq.read_table(whole).num_rows
    monkeypatch.undo()
    harvest(resumed, deals=6)
    assert pq.read_table(resumed).equals(pq.read_table(whole))
    assert pq.read_schema(resumed).metadata == pq.read_schema(whole).metadata
    assert not (tmp_path / "resumed.parquet.parts").exists()
    with pytest.raises(ResultsConflict, match="deals: 6 there, 7 here"):
        harvest(resumed, deals=7)


def test_a_harvest_config_is_checked():
    with pytest.raises(ValueError, match="at least 1 agent"):
        closing_harvest.HarvestConfig(())
    with pytest.raises(ValueError, match="cheats"):
        closing_harvest.HarvestConfig(("openspiel-mcts",))
    with pytest.raises(ValueError, match="deals"):
        closing_harvest.HarvestConfig(("random",), deals=0)
    config = closing_harvest.HarvestConfig(("random",), preset="schnapsen", overrides={"deck": 20})
    assert config.overrides == {}  # the preset's own value is dropped
    assert config.pairings == [("random", "random")]


# ---- scoring on hand-made positions ----------------------------------------------------------


def hand_made() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Three positions with known reference values, two agents' decisions."""
    positions = pd.DataFrame(
        {
            "talon_size": [4, 4, 6],
            "points_leader": [50, 30, 20],
            "points_opponent": [40, 30, 45],
            "phase": ["lead"] * 3,
        }
    )
    options = [["close", "play AS", "play 9H"], ["close", "exchange, close", "play TD"]]
    references = pd.DataFrame(
        {
            "position": [0, 1, 2],
            "options": [options[0], options[1], options[0]],
            "values": [[2.0, 0.5, -1.0], [-1.0, -0.5, 1.0], [-2.0, 1.0, 0.25]],
            "close_value": [2.0, -0.5, -2.0],
            "best_alternative_value": [0.5, 1.0, 1.0],
            "defense_values": [[1.5, 0.0, -1.5], [-1.0, nan, 0.0], [nan] * 3],
            "defense_close_value": [1.5, nan, nan],
            "defense_close_gap": [0.5, nan, nan],
            "defense_groups": [0, 0, 0],
            "defense_alternative_value": [0.0, nan, nan],
        }
    )
    decisions = pd.DataFrame(
        {
            "agent": ["a"] * 3 + ["b"] * 3,
            "position": [0, 1, 2] * 2,
            "action": ["close", "exchange", "play 9H", "play AS", "play TD", "close"],
            "followup": ["", "close", "", "", "", ""],
            "closed": [True, True, False, False, False, True],
        }
    )
    return positions, references, decisions


def test_losses_false_and_missed_closes_are_exact_on_hand_made_positions():
    scored = closing_scores.score_decisions(*hand_made())
    assert list(scored["option"]) == [
        "close",
        "exchange, close",
        "play 9H",
        "play AS",
        "play TD",
        "close",
    ]
    assert list(scored["loss"]) == [0.0, 1.5, 0.75, 1.5, 0.0, 3.0]
    assert list(scored["close_loss"]) == [0.0, 1.5, 0.0, 1.5, 0.0, 3.0]
    assert list(scored["false_close"]) == [False, True, False, False, False, True]
    assert list(scored["missed_close"]) == [False, False, False, True, False, False]
    assert list(scored["situation"]) == ["ahead", "level", "behind"] * 2
    assert scored["reference_gap"].iloc[0] == 0.5
    assert list(scored["defense_loss"].iloc[[0, 3]]) == [0.0, 1.5]
    assert scored["defense_loss"].iloc[[1, 2, 4, 5]].isna().all()
    quality = closing_scores.decision_quality(scored)
    overall = quality["all"].set_index("agent")
    assert overall.loc["a", "loss"] == pytest.approx(0.75)
    assert overall.loc["b", "loss"] == pytest.approx(1.5)
    assert overall.loc["a", "agreement"] == pytest.approx(2 / 3)
    assert overall.loc["b", "agreement"] == pytest.approx(1 / 3)
    assert overall.loc["a", "loss_high"] - overall.loc["a", "loss"] == pytest.approx(
        1.959963984540054 * 0.75 / 3**0.5
    )
    assert list(overall["false_closes"]) == [1, 1]
    assert list(overall["missed_closes"]) == [0, 1]
    assert list(overall["reference_closes"]) == [1, 1]
    assert list(scored["defense_verdict"]) == [True, False, False] * 2  # every option valued
    assert list(overall["defense_verdicts"]) == [1, 1]
    assert list(overall["defense_closes"]) == [1, 1]
    assert list(overall["defense_false_closes"]) == [0, 0]
    assert list(overall["defense_missed_closes"]) == [0, 1]  # b plays AS where it closes
    talon = quality["by_talon"]
    assert list(zip(talon["agent"], talon["talon_size"], talon["positions"], strict=True)) == [
        ("a", 4, 2),
        ("a", 6, 1),
        ("b", 4, 2),
        ("b", 6, 1),
    ]
    assert list(quality["by_situation"]["situation"]) == ["behind", "level", "ahead"] * 2
    references = quality["references"].set_index("talon_size")
    assert list(references["positions"]) == [1, 2] and list(references["defended"]) == [0, 1]
    assert references.loc[4, "gap"] == 0.5 and references.loc[4, "verdicts_differ"] == 0


def test_the_reference_solves_best_defense_on_sampled_worlds_where_there_are_more():
    state = closing_values.ClosingPosition.from_json(EXAMPLE).state()  # 6 worlds
    every = closing_evaluation.reference_values(state, 1000, 48, 5)
    assert every["enumerated"] and every["defense_groups"] == 0
    assert every["defense_close_half_width"] == every["defense_close_gap_half_width"] == 0
    gap = every["close_value"] - every["defense_close_value"]
    assert every["defense_close_gap"] == pytest.approx(gap)
    sampled = closing_evaluation.reference_values(
        state, 1000, 48, 5, defense_worlds=3, defense_groups=2
    )
    assert sampled["defense_groups"] == 2 and sampled["defense_close_half_width"] >= 0
    assert sampled["defense_close_gap"] >= -closing_values.BEST_DEFENSE_TOLERANCE
    skipped = closing_evaluation.reference_values(state, 1000, 48, 5, defense_worlds=3)
    assert skipped["defense_groups"] == 0 and pd.isna(skipped["defense_close_value"])


def test_closing_where_it_is_worth_the_same_as_not_closing_is_no_false_close():
    positions, references, decisions = hand_made()
    references.at[2, "values"] = [1.0, 1.0, 0.25]
    references.loc[2, ["close_value", "best_alternative_value"]] = 1.0
    scored = closing_scores.score_decisions(positions, references, decisions)
    tie = scored[scored["position"] == 2]
    assert list(tie["closed"]) == [False, True]
    assert not tie["false_close"].any() and not tie["missed_close"].any()
    assert tie["agrees"].all() and not tie["reference_closes"].any()


def test_a_choice_that_is_no_option_is_refused():
    positions, references, decisions = hand_made()
    decisions.loc[0, "action"] = "play KC"
    with pytest.raises(ValueError, match="'play KC' is not an option"):
        closing_scores.score_decisions(positions, references, decisions)


# ---- a small evaluation end to end -----------------------------------------------------------


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory):
    folder = tmp_path_factory.mktemp("evaluation")
    harvest(folder / "positions.parquet", deals=1)
    config = closing_evaluation.EvaluationConfig(
        str(folder / "positions.parquet"), FAST, limit=6, samples=8, seed=2
    )
    return closing_evaluation.run_evaluation(config, folder / "quality", workers=1, quiet=True)


def test_an_evaluation_asks_every_agent_at_every_position_against_the_reference(evaluation):
    config, decisions = evaluation.config, evaluation.decisions
    assert [path.name for path in evaluation.files] == [
        "quality.parquet",
        "quality.md",
        "quality-loss.png",
        "quality-close-errors.png",
        "quality-references.png",
    ]
    assert list(decisions["agent"]) == [FAST[0]] * 6 + ["random"] * 6
    positions = closing_harvest.read_positions(config.positions)
    for row in decisions.itertuples():
        state = closing_harvest.position_state(positions.iloc[row.position])
        seed = unit_seed(config.seed, row.position)
        assert (row.action, row.followup) == closing_evaluation.decide(row.agent, seed, state)
        reference = closing_evaluation.reference_values(
            state, config.worlds_limit, config.samples, seed
        )
        assert list(row.values) == reference["values"]
        assert row.loss == pytest.approx(max(row.values) - row.chosen_value)
    stored = pd.read_parquet(evaluation.files[0])
    pd.testing.assert_frame_equal(stored, decisions.reset_index(drop=True), check_dtype=False)
    text = evaluation.files[1].read_text()
    assert "## By talon size" in text and f"| {FAST[0]} | 6 |" in text
    assert all(path.read_bytes().startswith(b"\x89PNG") for path in evaluation.files[2:])


def test_a_rerun_reuses_the_cached_references_and_decisions(evaluation, monkeypatch):
    def refuse(*args):
        raise AssertionError("recomputed")

    monkeypatch.setattr(closing_evaluation, "reference_values", refuse)
    monkeypatch.setattr(closing_evaluation, "decide", refuse)
    config, decisions = evaluation.config, evaluation.decisions
    talon = int(decisions["talon_size"].iloc[2])
    fewer = closing_evaluation.EvaluationConfig(
        config.positions, ("random",), 2, talon, config.samples, seed=2
    )
    again = closing_evaluation.run_evaluation(
        fewer, evaluation.files[0].with_name("fewer"), workers=1
    )
    chosen = (decisions["agent"] == "random") & (decisions["talon_size"] <= talon)
    expected = decisions[chosen].head(2).reset_index(drop=True)
    assert expected["position"].iloc[-1] > 1  # a selection, not the first positions
    pd.testing.assert_frame_equal(again.decisions, expected)
    other = closing_evaluation.EvaluationConfig(config.positions, ("random",), 4, samples=9, seed=2)
    with pytest.raises(ValueError, match="no position of .* has at most 2 talon cards"):
        closing_evaluation.EvaluationConfig(config.positions, ("random",), max_talon=2).select(
            closing_harvest.read_positions(config.positions).head(1)
        )
    with pytest.raises(ResultsConflict, match="samples: 8 there, 9 here"):
        closing_evaluation.run_evaluation(other, evaluation.files[0].with_name("other"), workers=1)


def test_the_talon_bounds_select_the_positions_between_them(evaluation):
    """``min_talon`` and ``max_talon`` keep the positions of talon sizes between them (in
    file order), and bounds with nothing between are refused, naming both."""
    path = evaluation.config.positions
    positions = closing_harvest.read_positions(path)
    talon = positions["talon_size"]
    middle = int(talon.median())
    for low, high in [(middle, None), (None, middle), (middle, middle)]:
        config = closing_evaluation.EvaluationConfig(
            path, ("random",), max_talon=high, min_talon=low
        )
        kept = (talon >= (low or 0)) & (talon <= (high or 99))
        assert 0 < kept.sum() < len(positions)  # each bound leaves some positions out
        assert config.select(positions) == tuple(positions.index[kept])
    with pytest.raises(ValueError, match="min_talon=6 is above max_talon=4"):
        closing_evaluation.EvaluationConfig(path, ("random",), max_talon=4, min_talon=6)
    with pytest.raises(ValueError, match="has at least 99 talon cards"):
        closing_evaluation.EvaluationConfig(path, ("random",), min_talon=99).select(positions)


def test_the_equilibrium_is_a_third_reference_on_a_solved_mini(tmp_path, capsys):
    """``--equilibrium`` on ``mini_2x3``: each position's equilibrium values are the
    analyzer's, each decision is scored against them, and a strategy of another preset is
    refused with both presets named."""
    positions = tmp_path / "positions.parquet"
    harvest(positions, "mini_2x3", deals=4)
    strategy = str(REPOSITORY / "results" / "cfr_mini_2x3.npz")
    config = closing_evaluation.EvaluationConfig(
        str(positions), FAST, samples=8, seed=2, equilibrium=strategy
    )
    evaluation = closing_evaluation.run_evaluation(config, tmp_path / "q", workers=1, quiet=True)
    scored = evaluation.decisions
    table = closing_harvest.read_positions(str(positions))
    for row in scored.drop_duplicates("position").itertuples():
        state = closing_harvest.position_state(table.iloc[row.position])
        expected = closing_values.equilibrium_reference(state, strategy)
        assert row.equilibrium_close_value == expected["close_value"]
        assert row.equilibrium_alternative_value == expected["best_alternative_value"]
    closes = scored["equilibrium_close_value"] > scored["equilibrium_alternative_value"]
    assert list(scored["equilibrium_missed_close"]) == list(~scored["closed"] & closes)
    overall = evaluation.quality["all"].set_index("agent")
    assert (
        overall["equilibrium_false_closes"].sum()
        == (
            scored["closed"]
            & (scored["equilibrium_close_value"] < scored["equilibrium_alternative_value"])
        ).sum()
    )
    agreement = evaluation.quality["equilibrium"]
    assert agreement["positions"].sum() == scored["position"].nunique()
    assert "## The CFR equilibrium" in evaluation.to_markdown()
    other = str(REPOSITORY / "results" / "cfr_mini_2x4.npz")
    with pytest.raises(ValueError, match="solves mini_2x4, but the positions are of mini_2x3"):
        closing_evaluation.run_evaluation(
            closing_evaluation.EvaluationConfig(str(positions), FAST, equilibrium=other),
            tmp_path / "r",
            workers=1,
            quiet=True,
        )
    with pytest.raises(SystemExit) as done:
        cli.main(["closing", "evaluate", "--positions", str(positions), "--equilibrium", "x.npz"])
    assert done.value.code == 2
    assert "the equilibrium 'x.npz' is not a strategy file" in capsys.readouterr().err


def test_the_notebook_runs_on_a_small_evaluation(evaluation, monkeypatch):
    monkeypatch.setenv("SIXTYSIX_CLOSING", str(evaluation.files[0]))
    outputs = executed_outputs(NOTEBOOK)
    assert sum("image/png" in output.get("data", {}) for output in outputs) == 3


@pytest.mark.parametrize("folder", ["notebooks", "."], ids=["from notebooks", "from the root"])
def test_the_notebook_runs_on_its_default_input_in_a_fresh_clone(folder, monkeypatch):
    monkeypatch.delenv("SIXTYSIX_CLOSING", raising=False)
    outputs = executed_outputs(NOTEBOOK, REPOSITORY / folder)
    read = outputs[0]["text"].removeprefix("reading ").strip()
    assert (REPOSITORY / folder / read).is_file()
    assert sum("image/png" in output.get("data", {}) for output in outputs) == 3


def test_the_committed_sample_is_a_small_evaluation_of_every_agent():
    assert SAMPLE.stat().st_size < 300_000
    quality = closing_scores.decision_quality(pd.read_parquet(SAMPLE))
    assert list(quality["all"]["agent"]) == ["heuristic", "pimc", "dmcts", "ismcts"]
    assert quality["all"]["positions"].nunique() == 1


def test_a_file_that_holds_no_positions_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no such positions file"):
        closing_harvest.read_positions(tmp_path / "missing.parquet")
    (tmp_path / "text.parquet").write_text("no parquet")
    with pytest.raises(ValueError, match="is not a Parquet file"):
        closing_harvest.read_positions(tmp_path / "text.parquet")
    pd.DataFrame({"deal_seed": [1]}).to_parquet(tmp_path / "other.parquet")
    with pytest.raises(ValueError, match="lacks the columns preset, overrides, deck"):
        closing_harvest.read_positions(tmp_path / "other.parquet")


# ---- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [[], ["harvest"], ["evaluate"], ["analyze"]], ids=["closing", "h", "e", "a"]
)
def test_every_closing_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["closing", *command, "--help"])
    assert done.value.code == 0
    assert "usage: sixtysix closing" in capsys.readouterr().out


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["harvest", "--agents", "nobody"], "unknown agent 'nobody'"),
        (["harvest", "--agents", "random", "--deals", "0"], "deals must be"),
        (["harvest", "--agents", "random", "--out", "x.csv"], "ending in .parquet"),
        (["harvest", "--agents", "random", "--preset", "bridge"], "invalid choice: 'bridge'"),
        (["evaluate", "--positions", "missing.parquet"], "no such positions file"),
        (["evaluate", "--positions", "p.parquet", "--samples", "0"], "samples must be"),
        (["evaluate", "--positions", "p.parquet", "--max-talon", "1"], "max-talon must be"),
        (
            ["evaluate", "--positions", "p.parquet", "--defense-groups", "1"],
            "defense-groups=1 gives no interval; valid: 0 (no sampling) or at least 2",
        ),
        (["analyze", "p.json", "--defense-groups", "-1"], "defense-groups must be"),
        (["analyze", "p.json", "--defense-nodes", "8388609"], "defense-nodes must be"),
        (["evaluate", "--positions", "p.parquet", "--agents", "human"], "interactive"),
    ],
)
def test_bad_closing_arguments_get_clear_errors(arguments, message, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        cli.main(["closing", *arguments])
    assert done.value.code == 2
    assert message in capsys.readouterr().err


def test_harvest_and_evaluate_from_the_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    common = ["--workers", "1", "--quiet"]
    assert cli.main(["closing", "harvest", "--agents", "heuristic", "--deals", "1"] + common) == 0
    out = capsys.readouterr().out
    assert "positions" in out and "results/closing_sixty_six.parquet" in out
    arguments = ["--positions", "results/closing_sixty_six.parquet", "--agents", "random"]
    arguments += ["--limit", "3", "--samples", "4", "--out", "results/q"]
    assert cli.main(["closing", "evaluate", *arguments, *common]) == 0
    assert "| random | 3 |" in capsys.readouterr().out
    assert (tmp_path / "results" / "q.md").is_file()
    code = cli.main(["closing", "harvest", "--agents", "heuristic", "--deals", "2"] + common)
    assert code == 2 and "another configuration" in capsys.readouterr().err


def test_analyze_prints_the_analyzer_text_or_json(tmp_path, capsys):
    position = tmp_path / "position.json"
    position.write_text(json.dumps({"preset": "schnapsen"}))
    with pytest.raises(SystemExit) as done:
        cli.main(["closing", "analyze", str(position)])
    assert done.value.code == 2 and "missing" in capsys.readouterr().err


@pytest.mark.parametrize("as_json", [False, True])
def test_analyze_prints_the_analysis_as_text_or_one_json_object(
    tmp_path, capsys, monkeypatch, as_json
):
    position = tmp_path / "position.json"
    position.write_text(json.dumps(EXAMPLE))
    calls = []

    def analysis(position, **options):
        calls.append((position, options))
        return {"verdict": "do not close", "worlds": 6}

    monkeypatch.setattr(closing_values, "analyze", analysis)
    monkeypatch.setattr(closing_values, "render", lambda result: f"rendered {result}")
    flags = ["--json"] if as_json else []
    assert cli.main(["closing", "analyze", str(position), "--samples", "7", *flags]) == 0
    out = capsys.readouterr().out
    expected = {"verdict": "do not close", "worlds": 6}
    assert json.loads(out) == expected if as_json else out == f"rendered {expected}\n"
    [(given, options)] = calls
    assert given.to_json() == EXAMPLE
    assert options == {
        "limit": closing_values.PIMC_LIMIT,
        "samples": 7,
        "seed": 0,
        "best_defense": True,
        "max_worlds": closing_values.BEST_DEFENSE_WORLDS,
        "max_nodes": closing_values.BEST_DEFENSE_NODES,
        "groups": closing_values.BEST_DEFENSE_GROUPS,
    }


def test_the_python_api_refuses_a_harvest_where_closing_is_never_legal():
    with pytest.raises(ValueError, match="invalid preset 'vu_schnapsen': closing is never legal"):
        closing_harvest.HarvestConfig(("random",), preset="vu_schnapsen")
    with pytest.raises(ValueError, match="invalid rule closing_allowed=false"):
        closing_harvest.HarvestConfig(("random",), overrides={"closing_allowed": False})
