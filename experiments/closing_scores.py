"""The close-the-talon study's scores: each decision against the reference values, the
quality of each agent's decisions, the gap between the two references, and their Markdown
report (``closing_evaluation`` computes what they score; ``closing_plots`` draws them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from sixtysix.theory.closing_values import Z95

from .tournament_summary import markdown_table, plus_minus

if TYPE_CHECKING:
    from .closing_evaluation import EvaluationConfig

SITUATIONS = ("behind", "level", "ahead")  # the leader's credited total against the opponent's


def score_situation(leader: int, opponent: int) -> str:
    """``behind``, ``level`` or ``ahead``: the leader's total against the opponent's."""
    return SITUATIONS[(leader > opponent) - (leader < opponent) + 1]


def option_name(action: str, followup: str = "") -> str:
    """The reference's name of an agent's choice: its action, or ``exchange, ACTION``."""
    return f"{action}, {followup}" if followup else action


def score_decisions(
    positions: pd.DataFrame, references: pd.DataFrame, decisions: pd.DataFrame
) -> pd.DataFrame:
    """One row per decision: the decision, its position's facts and reference values, and

    * ``option``, ``chosen_value`` (its reference value), ``best_value`` and ``loss``
      (``best_value - chosen_value``, game points); ``close_loss``, the loss of the
      close-or-not choice alone (the better close against the best alternative);
    * ``reference_closes`` (closing is worth more than the best alternative),
      ``false_close`` (closed where not closing is better), ``missed_close`` (did not close
      where closing is better) and ``agrees`` (neither: where both are worth the same, either
      choice agrees);
    * ``situation`` (``score_situation``), ``reference_gap`` (PIMC minus best-defense
      value of closing on the same worlds) and ``defense_loss`` (the loss against the
      best-defense values; both NaN where best defense was not solved);
    * ``defense_verdict`` (best defense values every option), ``defense_closes``,
      ``defense_false_close`` and ``defense_missed_close``: the same against best defense,
      false where it gives no verdict; where the references hold the CFR equilibrium's
      values, ``equilibrium_closes``, ``equilibrium_false_close`` and
      ``equilibrium_missed_close``, the same against it.
    """
    facts = positions[["talon_size", "points_leader", "points_opponent"]].copy()
    facts["phase"] = positions["phase"] if "phase" in positions else "lead"
    facts["position"] = positions.index
    frame = decisions.merge(facts, on="position", how="left").merge(
        references, on="position", how="left"
    )
    if frame[["talon_size", "close_value"]].isna().any(axis=None):
        raise ValueError("some decisions have no position or no reference values")
    frame["option"] = [
        option_name(action, followup)
        for action, followup in zip(frame["action"], frame["followup"], strict=True)
    ]
    chosen = []
    for option, names, values in zip(
        frame["option"], frame["options"], frame["values"], strict=True
    ):
        names = list(names)
        if option not in names:
            raise ValueError(f"the agent's choice {option!r} is not an option ({names})")
        chosen.append(float(values[names.index(option)]))
    frame["chosen_value"] = chosen
    frame["best_value"] = [float(max(values)) for values in frame["values"]]
    frame["loss"] = frame["best_value"] - frame["chosen_value"]
    close, alternative = frame["close_value"], frame["best_alternative_value"]
    frame["reference_closes"] = close > alternative
    frame["false_close"] = frame["closed"] & (close < alternative)
    frame["missed_close"] = ~frame["closed"] & frame["reference_closes"]
    frame["agrees"] = ~(frame["false_close"] | frame["missed_close"])
    frame["close_loss"] = np.where(
        frame["closed"], (alternative - close).clip(lower=0), (close - alternative).clip(lower=0)
    )
    frame["situation"] = [
        score_situation(a, b)
        for a, b in zip(frame["points_leader"], frame["points_opponent"], strict=True)
    ]
    frame["reference_gap"] = frame["defense_close_gap"]
    frame["defense_loss"] = [
        float(np.max(values)) - values[list(names).index(option)]
        for option, names, values in zip(
            frame["option"], frame["options"], frame["defense_values"], strict=True
        )
    ]
    _judge(frame, "defense", frame["defense_close_value"], frame["defense_alternative_value"])
    if "equilibrium_close_value" in frame:
        close = frame["equilibrium_close_value"]
        _judge(frame, "equilibrium", close, frame["equilibrium_alternative_value"])
    return frame


def _judge(frame: pd.DataFrame, reference: str, close: pd.Series, alternative: pd.Series) -> None:
    """Each decision's close-or-not choice against another reference's values of closing and
    of the best alternative (NaN where it has none): ``REFERENCE_verdict``, ``_closes``,
    ``_false_close`` and ``_missed_close`` columns of ``frame``."""
    verdict = np.isfinite(close) & np.isfinite(alternative)
    frame[f"{reference}_verdict"] = verdict
    frame[f"{reference}_closes"] = verdict & (close > alternative)
    frame[f"{reference}_false_close"] = frame["closed"] & verdict & (close < alternative)
    frame[f"{reference}_missed_close"] = ~frame["closed"] & frame[f"{reference}_closes"]


def decision_quality(scored: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The quality of each agent's decisions: ``all``, ``by_talon`` (talon size) and
    ``by_situation`` tables with ``positions``, ``agreement`` (share), ``loss`` (mean game
    points lost per decision) with its 95% interval ``loss_low`` .. ``loss_high`` (normal,
    over decisions), ``close_loss`` (the same of the close-or-not choice alone) with its
    interval, ``false_closes`` and ``missed_closes`` (counts), ``closes`` (the
    agent's) and ``reference_closes``; against best defense ``defense_verdicts`` (decisions
    where it values every option), ``defense_false_closes``, ``defense_missed_closes`` and
    ``defense_closes`` (with the equilibrium the same of ``equilibrium``); ``references``
    (``reference_gap``); and with the equilibrium ``equilibrium``
    (``equilibrium_agreement``)."""
    order = list(dict.fromkeys(scored["agent"]))
    tables = {}
    for name, keys in [("all", []), ("by_talon", ["talon_size"]), ("by_situation", ["situation"])]:
        groups = scored.groupby(["agent", *keys], sort=False)
        table = pd.DataFrame({"positions": groups.size(), "agreement": groups["agrees"].mean()})
        for column in ("loss", "close_loss"):
            half = Z95 * groups[column].std(ddof=1) / np.sqrt(table["positions"])
            table[column] = groups[column].mean()
            table[f"{column}_low"] = table[column] - half
            table[f"{column}_high"] = table[column] + half
        table["false_closes"] = groups["false_close"].sum()
        table["missed_closes"] = groups["missed_close"].sum()
        table["closes"] = groups["closed"].sum()
        table["reference_closes"] = groups["reference_closes"].sum()
        for reference in ("defense", "equilibrium"):
            if f"{reference}_closes" in scored:
                for column in ("verdict", "false_close", "missed_close"):
                    table[f"{reference}_{column}s"] = groups[f"{reference}_{column}"].sum()
                table[f"{reference}_closes"] = groups[f"{reference}_closes"].sum()
        ranks = {"agent": order.index, "situation": SITUATIONS.index}
        table = table.reset_index().sort_values(
            ["agent", *keys], key=lambda column: column.map(ranks.get(column.name, int))
        )
        tables[name] = table.reset_index(drop=True)
    tables["references"] = reference_gap(scored)
    if "equilibrium_closes" in scored:
        tables["equilibrium"] = equilibrium_agreement(scored)
    return tables


def reference_gap(scored: pd.DataFrame) -> pd.DataFrame:
    """The two references by talon size: ``positions``, ``defended`` (those with a
    best-defense value of closing; ``sampled``: of them, those solved on sampled worlds),
    and over those the mean PIMC and best-defense values of closing, their mean ``gap`` on
    the same worlds with its 95% interval over the positions (``gap_low``, ``gap_high``),
    ``verdicts`` (positions where best defense values every option) and
    ``verdicts_differ`` (of those, where the two disagree on closing)."""
    positions = scored.drop_duplicates("position")
    defended = positions[np.isfinite(positions["defense_close_value"])]
    pimc_closes = defended["close_value"] > defended["best_alternative_value"]
    defense_closes = defended["defense_close_value"] > defended["defense_alternative_value"]
    verdicts = np.isfinite(defended["defense_alternative_value"])
    by_talon = defended.assign(
        sampled=defended["defense_groups"] > 0,
        verdicts=verdicts,
        verdicts_differ=verdicts & (pimc_closes != defense_closes),
    ).groupby("talon_size")
    gap = by_talon["reference_gap"].mean()
    half = Z95 * by_talon["reference_gap"].std(ddof=1) / np.sqrt(by_talon.size())
    table = pd.DataFrame(
        {
            "positions": positions.groupby("talon_size").size(),
            "defended": by_talon.size(),
            "sampled": by_talon["sampled"].sum(),
            "pimc_close": by_talon["close_value"].mean(),
            "defense_close": by_talon["defense_close_value"].mean(),
            "gap": gap,
            "gap_low": gap - half,
            "gap_high": gap + half,
            "verdicts": by_talon["verdicts"].sum(),
            "verdicts_differ": by_talon["verdicts_differ"].sum(),
        }
    )
    counts = ["defended", "sampled", "verdicts", "verdicts_differ"]
    table[counts] = table[counts].fillna(0).astype(int)
    return table.sort_index(ascending=False).reset_index()


def equilibrium_agreement(scored: pd.DataFrame) -> pd.DataFrame:
    """The CFR equilibrium against the two references by talon size: ``positions``, the
    positions where the equilibrium, PIMC and best defense (where it values every option)
    close, and the share of positions where PIMC and where best defense take the equilibrium's
    close-or-not decision (``pimc_agrees``, ``defense_agrees``)."""
    positions = scored.drop_duplicates("position")
    defended = np.isfinite(positions["defense_close_value"]) & np.isfinite(
        positions["defense_alternative_value"]
    )  # a best-defense verdict: every option valued
    pimc_closes = positions["close_value"] > positions["best_alternative_value"]
    defense_closes = positions["defense_close_value"] > positions["defense_alternative_value"]
    equilibrium_closes = positions["equilibrium_closes"]
    frame = positions.assign(
        pimc_closes=pimc_closes,
        defense_closes=defense_closes & defended,
        defended=defended,
        pimc_agrees=pimc_closes == equilibrium_closes,
        defense_agrees=(defense_closes == equilibrium_closes).where(defended),
    )
    groups = frame.groupby("talon_size")
    table = pd.DataFrame(
        {
            "positions": groups.size(),
            "equilibrium_closes": groups["equilibrium_closes"].sum(),
            "pimc_closes": groups["pimc_closes"].sum(),
            "defended": groups["defended"].sum(),
            "defense_closes": groups["defense_closes"].sum(),
            "pimc_agrees": groups["pimc_agrees"].mean(),
            "defense_agrees": groups["defense_agrees"].mean(),
        }
    )
    return table.sort_index(ascending=False).reset_index()


# ---- the report -------------------------------------------------------------------------------


def quality_markdown(quality: dict[str, pd.DataFrame], config: EvaluationConfig, rows: int) -> str:
    """The quality tables as Markdown, with a heading that says what was measured."""
    positions = int(quality["all"]["positions"].max())
    lines = [
        "# Closing decisions",
        "",
        f"{positions} positions of `{config.positions}`, {rows} decisions of "
        f"{len(config.agents)} agent(s), seed {config.seed}. Reference: PIMC (open-hand "
        f"values) over every world up to {config.worlds_limit} worlds, else "
        f"{config.samples} sampled ones; best defense up to {config.defense_worlds} worlds"
        + (
            f" (elsewhere on {config.defense_groups} samples of as many)"
            if config.defense_groups
            else ""
        )
        + f" and {config.defense_nodes} tree nodes per option. Loss: game points lost per "
        "decision against the reference's best option, with 95% intervals; false close: "
        "closed where not closing is better; missed close: did not close where closing is "
        "better; the loss of the close-or-not choice counts only the better close against "
        "the best alternative. The same false and missed closes against best defense are "
        "counted where it values every option (its verdicts)"
        + (" and against the CFR equilibrium." if config.equilibrium else "."),
    ]
    for name, title, key in [
        ("all", "All positions", None),
        ("by_talon", "By talon size", "talon_size"),
        (
            "by_situation",
            "By score situation (the leader's total against the opponent's)",
            "situation",
        ),
    ]:
        lines += ["", f"## {title}", "", markdown_table(_display(quality[name], key))]
    lines += [
        "",
        "## The two references",
        "",
        "PIMC (optimistic for the closer) against best defense (a lower bound where every "
        "world is solved; on sampled worlds, in expectation between that bound and PIMC), "
        "over the positions that have both: mean values of closing, their gap on the same "
        "worlds with its 95% interval over the positions, the positions solved on sampled "
        "worlds, and where best defense values every option (`verdicts`), those where the two "
        "disagree on closing.",
        "",
        markdown_table(quality["references"].set_index("talon_size").round(3)),
    ]
    if "equilibrium" in quality:
        lines += [
            "",
            "## The CFR equilibrium",
            "",
            f"The equilibrium of `{config.equilibrium}` (both players play the solved strategy "
            "from the position on) as a third reference: where it, PIMC and best defense "
            "close, and the share of positions where PIMC and best defense (where solved) "
            "take its close-or-not decision.",
            "",
            markdown_table(quality["equilibrium"].set_index("talon_size").round(3)),
        ]
    return "\n".join(lines)


def _display(table: pd.DataFrame, key: str | None) -> pd.DataFrame:
    """A quality table for people: the loss as ``mean ± half-width``, closes as counts."""
    shown = {
        "agent": table["agent"],
        **({{"talon_size": "talon", "situation": "score"}[key]: table[key]} if key else {}),
        "positions": table["positions"],
        "agreement": table["agreement"].map("{:.3f}".format),
        "loss per decision": plus_minus(table, "loss", 3),
        "loss of the close-or-not choice": plus_minus(table, "close_loss", 3),
        "false closes": table["false_closes"],
        "missed closes": table["missed_closes"],
        "closes (agent / reference)": [
            f"{a} / {r}" for a, r in zip(table["closes"], table["reference_closes"], strict=True)
        ],
    }
    for reference, name in (("defense", "best defense"), ("equilibrium", "equilibrium")):
        if f"{reference}_verdicts" not in table or not table[f"{reference}_verdicts"].any():
            continue
        if reference == "defense":
            shown["best-defense verdicts"] = table["defense_verdicts"]
        shown[f"false / missed closes ({name})"] = [
            f"{f} / {m}"
            for f, m in zip(
                table[f"{reference}_false_closes"], table[f"{reference}_missed_closes"], strict=True
            )
        ]
        shown[f"closes ({name})"] = table[f"{reference}_closes"]
    return pd.DataFrame(shown).set_index("agent")
