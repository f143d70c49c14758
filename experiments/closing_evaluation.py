"""The close-the-talon study's evaluation: value the positions, ask the agents, score them.

``EvaluationConfig``, ``run_evaluation``: the reference values of each position (of a
positions file, ``closing_harvest``) are computed once (``sixtysix.theory.closing_values``)
and cached beside the positions file (``NAME.reference.parquet``); then every agent is asked
at every position (a fresh agent, seeded by ``unit_seed(seed, position)``; cached in
``NAME.decisions.parquet``), and ``closing_scores`` scores its answers. Both are resumable,
atomic and parallel like tournaments (``tournament.run_schedule``). On a mini preset solved by
``sixtysix cfr solve`` the CFR equilibrium's values are a third reference (table look-ups,
not cached).
"""

from __future__ import annotations

import functools
import json
import math
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import ClassVar

import pandas as pd
import pyarrow as pa

from sixtysix import agents
from sixtysix.engine.actions import action_name, parse_action
from sixtysix.engine.checks import check_integer, check_seed
from sixtysix.game import State
from sixtysix.theory import cfr
from sixtysix.theory.closing_values import (
    BEST_DEFENSE_GROUPS,
    BEST_DEFENSE_NODES,
    BEST_DEFENSE_WORLDS,
    PIMC_LIMIT,
    PIMC_SAMPLES,
    ClosingPosition,
    analyze,
    check_groups,
    check_max_nodes,
    equilibrium_reference,
)

from .closing_harvest import position_state, positions_digest, read_positions
from .closing_plots import plot_close_errors, plot_loss, plot_reference_gap
from .closing_scores import decision_quality, quality_markdown, score_decisions
from .store import (
    COMPLETE_KEY,
    CONFIG_KEY,
    DECISIONS_KIND,
    EVALUATION_KIND,
    REFERENCE_KIND,
    canonical_json,
    write_atomically,
)
from .tournament import Batch, canonical_specs, refuse_cheating, run_schedule, unit_seed
from .tournament_plots import save_png

# ---- the evaluation's work: reference values and agent decisions ------------------------------


@dataclass(frozen=True)
class _Job:
    """Work on the positions ``selected`` (row numbers, ascending) of the positions file
    ``positions`` (whose rows hash to ``digest``), one schedule 'pairing' per agent; unit
    ``u`` is the position ``selected[u]``."""

    kind: ClassVar[str]
    keys: ClassVar[list[str]]
    seatings: ClassVar[int] = 1
    mode: ClassVar[str] = "positions"
    unit_name: ClassVar[str] = "position"

    positions: str
    digest: str
    selected: tuple[int, ...]
    seed: int
    agents: tuple[str, ...] = ()
    samples: int = 0
    worlds_limit: int = 0
    defense_worlds: int = 0
    defense_nodes: int = 0
    defense_groups: int = 0

    def to_json(self) -> str:
        """Everything a worker needs."""
        return canonical_json({"kind": self.kind, **asdict(self)})

    @staticmethod
    def from_json(text: str) -> _Job:
        fields = json.loads(text)
        job = {job.kind: job for job in (_ReferenceJob, _DecisionJob)}[fields.pop("kind")]
        return job(
            **{**fields, "agents": tuple(fields["agents"]), "selected": tuple(fields["selected"])}
        )

    @property
    def units(self) -> int:
        return len(self.selected)

    def batch_name(self, batch: Batch) -> str:
        """How an error names ``batch``: its agent's 'pairing' and positions."""
        return str(batch)

    def positions_of(self, batch: Batch) -> list[int]:
        """The positions of ``batch``."""
        return list(self.selected[batch.start : batch.stop])

    @functools.cached_property
    def unit_of(self) -> dict[int, int]:
        """The unit of each selected position."""
        return {position: unit for unit, position in enumerate(self.selected)}


@dataclass(frozen=True)
class _ReferenceJob(_Job):
    """The reference values of every position: one row per position."""

    kind: ClassVar[str] = REFERENCE_KIND
    keys: ClassVar[list[str]] = ["position"]

    @property
    def pairings(self) -> list[tuple[str, ...]]:
        return [("reference",)]

    def as_dict(self) -> dict:
        """The stored configuration: what the values depend on."""
        return {
            "kind": self.kind,
            "positions_digest": self.digest,
            "samples": self.samples,
            "worlds_limit": self.worlds_limit,
            "seed": self.seed,
            "defense_worlds": self.defense_worlds,
            "defense_nodes": self.defense_nodes,
            "defense_groups": self.defense_groups,
        }

    def done(self, table: pa.Table | None) -> set[tuple[int, int]]:
        positions = [] if table is None else table["position"].to_pylist()
        return {(0, self.unit_of[p]) for p in positions if p in self.unit_of}


@dataclass(frozen=True)
class _DecisionJob(_Job):
    """Every agent's decision at every position: one row per agent and position. The rows
    of agents asked before are kept: the store's configuration does not list the agents."""

    kind: ClassVar[str] = DECISIONS_KIND
    keys: ClassVar[list[str]] = ["agent", "position"]

    @property
    def pairings(self) -> list[tuple[str, ...]]:
        return [(spec,) for spec in self.agents]

    def as_dict(self) -> dict:
        return {"kind": self.kind, "positions_digest": self.digest, "seed": self.seed}

    def done(self, table: pa.Table | None) -> set[tuple[int, int]]:
        if table is None:
            return set()
        rows = zip(table["agent"].to_pylist(), table["position"].to_pylist(), strict=True)
        number = {spec: index for index, spec in enumerate(self.agents)}
        return {(number[a], self.unit_of[p]) for a, p in rows if a in number and p in self.unit_of}


@functools.lru_cache(maxsize=4)
def _job_setup(config_json: str) -> tuple[_Job, pd.DataFrame]:
    """The job and its positions, read once per process."""
    job = _Job.from_json(config_json)
    return job, read_positions(job.positions)


DECISION_COLUMNS = {
    "agent": pa.string(),
    "position": pa.int64(),
    "action": pa.string(),
    "followup": pa.string(),  # after an ``exchange``: the agent's next action, else ""
    "closed": pa.bool_(),
    "decision_seconds": pa.float64(),
}


def decide(spec: str, seed: int, state: State) -> tuple[str, str]:
    """``(action, followup)`` of a fresh agent ``spec`` seeded ``seed`` at ``state`` (its
    leader to move): after an ``exchange`` the same agent is asked again, for the action
    that follows it in the same turn."""
    agent = agents.make(spec, seed)
    leader = state.current_player
    action = _legal_choice(agent, state)
    if action != "exchange":
        return action, ""
    after = state.clone().apply(action)
    return action, _legal_choice(agent, after) if after.current_player == leader else ""


def _legal_choice(agent, state: State) -> str:
    """The agent's action at ``state``, as a canonical string; an illegal one is an error."""
    legal = state.legal_action_ids()
    chosen = agent.act(state.view(state.current_player))
    action = parse_action(chosen) if isinstance(chosen, str) else chosen
    if action not in legal:
        raise RuntimeError(
            f"agent {agent.spec!r} chose the illegal action {chosen!r}; legal: "
            f"{', '.join(state.legal_actions())}"
        )
    return action_name(action)


def decision_batch(config_json: str, batch: Batch) -> pa.Table:
    """The decisions of one agent (``batch.pairing``) at the positions of ``batch``."""
    job, positions = _job_setup(config_json)
    spec = job.agents[batch.pairing]
    rows = []
    for position in job.positions_of(batch):
        state = position_state(positions.iloc[position])
        started = time.perf_counter()
        action, followup = decide(spec, unit_seed(job.seed, position), state)
        rows.append(
            {
                "agent": spec,
                "position": position,
                "action": action,
                "followup": followup,
                "closed": "close" in (action, followup),
                "decision_seconds": time.perf_counter() - started,
            }
        )
    return pa.Table.from_pylist(rows, schema=pa.schema(DECISION_COLUMNS))


REFERENCE_COLUMNS = {
    "position": pa.int64(),
    "worlds": pa.int64(),  # the position's consistent worlds
    "enumerated": pa.bool_(),  # every world valued (else ``samples`` of them)
    "options": pa.list_(pa.string()),  # option names: "close", "exchange, play QH", ...
    "values": pa.list_(pa.float64()),  # the PIMC value of each option
    "half_widths": pa.list_(pa.float64()),  # their 95% intervals' half-widths (0: exact)
    "close_option": pa.string(),  # the better close (close, or exchange then close)
    "close_value": pa.float64(),
    "best_alternative": pa.string(),  # the best option that does not close
    "best_alternative_value": pa.float64(),
    "difference_half_width": pa.float64(),  # of close minus best alternative, paired
    "defense_values": pa.list_(pa.float64()),  # best-defense reference, NaN where not solved
    "defense_close_value": pa.float64(),
    "defense_close_half_width": pa.float64(),  # 0 where every world was solved
    "defense_close_gap": pa.float64(),  # PIMC minus best defense of closing, the same worlds
    "defense_close_gap_half_width": pa.float64(),
    "defense_groups": pa.int64(),  # samples of worlds solved (0: every world, or none)
    "defense_alternative_value": pa.float64(),
    "reference_seconds": pa.float64(),
}


def reference_values(
    state: State,
    limit: int,
    samples: int,
    seed: int,
    defense_worlds: int = BEST_DEFENSE_WORLDS,
    defense_nodes: int = BEST_DEFENSE_NODES,
    defense_groups: int = BEST_DEFENSE_GROUPS,
) -> dict:
    """The reference columns (``REFERENCE_COLUMNS`` but ``position``) of the leader's
    decision at ``state``: ``closing.analyze`` (the PIMC reference with ``limit``,
    ``samples`` and ``seed``; best defense up to ``defense_worlds`` worlds (0: none), or
    on ``defense_groups`` samples of as many, and ``defense_nodes`` nodes per option)."""
    started = time.perf_counter()
    analysis = analyze(
        ClosingPosition.from_view(state.view(state.current_player)),
        limit=limit,
        samples=samples,
        seed=seed,
        best_defense=defense_worlds > 0,
        max_worlds=max(defense_worlds, 1),
        max_nodes=defense_nodes,
        groups=defense_groups,
    )
    options = analysis["options"]
    defense = analysis["best_defense"] or {}
    low, high = analysis["difference_interval"]
    return {
        "worlds": analysis["worlds"],
        "enumerated": analysis["enumerated"],
        "options": [row["option"] for row in options],
        "values": [row["pimc"] for row in options],
        "half_widths": [(row["pimc_interval"][1] - row["pimc_interval"][0]) / 2 for row in options],
        "close_option": analysis["close_option"],
        "close_value": analysis["close_value"],
        "best_alternative": analysis["best_alternative"],
        "best_alternative_value": analysis["best_alternative_value"],
        "difference_half_width": (high - low) / 2,
        "defense_values": [_number(row["best_defense"]) for row in options],
        "defense_close_value": _number(defense.get("close_value")),
        "defense_close_half_width": _number(defense.get("close_half_width")),
        "defense_close_gap": _number(defense.get("close_gap")),
        "defense_close_gap_half_width": _number(defense.get("close_gap_half_width")),
        "defense_groups": defense.get("groups", 0),
        "defense_alternative_value": _number(defense.get("best_alternative_value")),
        "reference_seconds": time.perf_counter() - started,
    }


def _number(value: float | None) -> float:
    return math.nan if value is None else float(value)


def reference_batch(config_json: str, batch: Batch) -> pa.Table:
    """The reference rows of the positions of ``batch``."""
    job, positions = _job_setup(config_json)
    rows = [
        {
            "position": position,
            **reference_values(
                position_state(positions.iloc[position]),
                job.worlds_limit,
                job.samples,
                unit_seed(job.seed, position),
                job.defense_worlds,
                job.defense_nodes,
                job.defense_groups,
            ),
        }
        for position in job.positions_of(batch)
    ]
    return pa.Table.from_pylist(rows, schema=pa.schema(REFERENCE_COLUMNS))


# ---- the evaluation -------------------------------------------------------------------------


@dataclass(frozen=True)
class EvaluationConfig:
    """An evaluation: ``agents`` (spec strings) asked at the first ``limit`` positions
    (None: all) with at most ``max_talon`` and at least ``min_talon`` talon cards (None:
    any) of the positions file
    ``positions``, against the PIMC reference over every world up to ``worlds_limit``
    worlds, else ``samples`` sampled ones, and best defense where there are at most
    ``defense_worlds`` worlds (elsewhere on ``defense_groups`` samples of as many, if at
    least 2) and an option's tree at most ``defense_nodes`` nodes, and,
    given the strategy file ``equilibrium`` of ``sixtysix cfr solve`` on the positions'
    mini preset, its CFR equilibrium; ``seed`` seeds the agents and the sampling
    (``unit_seed(seed, position)``)."""

    positions: str
    agents: tuple[str, ...]
    limit: int | None = None
    max_talon: int | None = None
    samples: int = PIMC_SAMPLES
    worlds_limit: int = PIMC_LIMIT
    defense_worlds: int = BEST_DEFENSE_WORLDS
    defense_nodes: int = BEST_DEFENSE_NODES
    seed: int = 0
    equilibrium: str | None = None
    min_talon: int | None = None
    defense_groups: int = BEST_DEFENSE_GROUPS

    def __post_init__(self) -> None:
        specs = canonical_specs(self.agents, 1, "an evaluation")
        refuse_cheating(specs)
        limit = None if self.limit is None else check_integer(self.limit, "limit", 1)
        talon = None if self.max_talon is None else check_integer(self.max_talon, "max_talon", 2)
        fewest = None if self.min_talon is None else check_integer(self.min_talon, "min_talon", 2)
        if talon is not None and fewest is not None and fewest > talon:
            raise ValueError(
                f"min_talon={fewest} is above max_talon={talon}: no talon size lies between; "
                "valid is min_talon <= max_talon"
            )
        for name, value in [
            ("positions", str(self.positions)),
            ("agents", specs),
            ("limit", limit),
            ("max_talon", talon),
            ("samples", check_integer(self.samples, "samples", 1)),
            ("worlds_limit", check_integer(self.worlds_limit, "worlds_limit", 0)),
            ("defense_worlds", check_integer(self.defense_worlds, "defense_worlds", 0)),
            ("defense_nodes", check_max_nodes(self.defense_nodes, "defense_nodes")),
            ("seed", check_seed(self.seed)),
            ("equilibrium", None if self.equilibrium is None else str(self.equilibrium)),
            ("min_talon", fewest),
            ("defense_groups", check_groups(self.defense_groups, "defense_groups")),
        ]:
            object.__setattr__(self, name, value)

    def as_dict(self) -> dict:
        return {"kind": EVALUATION_KIND, **asdict(self), "agents": list(self.agents)}

    def select(self, positions: pd.DataFrame) -> tuple[int, ...]:
        """The row numbers of the positions evaluated: those with at most ``max_talon``
        and at least ``min_talon`` talon cards, the first ``limit`` of them; ``ValueError``
        if none."""
        talon = positions["talon_size"]
        chosen = pd.Series(True, index=positions.index)
        bounds = []
        if self.max_talon is not None:
            chosen &= talon <= self.max_talon
            bounds.append(f"at most {self.max_talon}")
        if self.min_talon is not None:
            chosen &= talon >= self.min_talon
            bounds.append(f"at least {self.min_talon}")
        selected = tuple(int(row) for row in positions.index[chosen][: self.limit])
        if not selected:
            raise ValueError(
                f"no position of {self.positions} has {' and '.join(bounds)} talon cards"
            )
        return selected


def check_equilibrium(path: str | None, positions: pd.DataFrame) -> None:
    """Refuse a strategy file that cannot be read or was solved for another preset than the
    positions' (a ValueError naming both)."""
    if path is None:
        return
    try:
        preset = cfr.load_strategy(path).preset
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(
            f"the equilibrium {path!r} is not a strategy file of 'sixtysix cfr solve': {error}"
        ) from error
    played = set(positions["preset"]) | {preset}
    if len(played) > 1 or set(map(str, positions["overrides"])) != {"{}"}:
        raise ValueError(
            f"the equilibrium {path!r} solves {preset}, but the positions are of "
            f"{', '.join(sorted(set(positions['preset'])))} (with their rule options): "
            "solve their preset with 'sixtysix cfr solve'"
        )


def equilibrium_values(positions: pd.DataFrame, selected, path: str) -> pd.DataFrame:
    """The equilibrium's values of closing and of the best alternative at each of the
    ``selected`` positions (``closing_values.equilibrium_reference``)."""
    rows = []
    for position in selected:
        values = equilibrium_reference(position_state(positions.iloc[position]), path)
        rows.append(
            {
                "position": position,
                "equilibrium_close_value": values["close_value"],
                "equilibrium_alternative_value": values["best_alternative_value"],
            }
        )
    return pd.DataFrame(rows)


def cache_path(positions: str | os.PathLike, what: str) -> Path:
    """The cache file ``what`` (``reference`` or ``decisions``) beside a positions file:
    ``NAME.reference.parquet`` for ``NAME.parquet``."""
    path = Path(positions)
    return path.with_name(f"{path.name.removesuffix('.parquet')}.{what}.parquet")


def output_stem(out: str | os.PathLike | None, positions: str | os.PathLike) -> Path:
    """Where an evaluation's files go, without their endings: ``out`` (a trailing
    ``.parquet`` dropped), by default ``NAME-quality`` beside the positions ``NAME.parquet``."""
    if out is None:
        path = Path(positions)
        return path.with_name(path.name.removesuffix(".parquet") + "-quality")
    return Path(str(out).removesuffix(".parquet"))


@dataclass
class Evaluation:
    """An evaluation's per-decision rows (``score_decisions``), its quality tables
    (``decision_quality``) and the files written."""

    config: EvaluationConfig
    decisions: pd.DataFrame
    quality: dict[str, pd.DataFrame]
    files: list[Path]

    def to_markdown(self) -> str:
        return quality_markdown(self.quality, self.config, len(self.decisions))


def run_evaluation(
    config: EvaluationConfig,
    out: str | os.PathLike | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    force: bool = False,
    quiet: bool = False,
) -> Evaluation:
    """Value the positions (cached in ``NAME.reference.parquet``), ask the agents (cached in
    ``NAME.decisions.parquet``, per agent), score them, and write ``STEM.parquet`` (the
    scored decisions), ``STEM.md`` and the plots ``STEM-loss.png``, ``STEM-close-errors.png``
    and ``STEM-references.png`` (``STEM``: ``output_stem``).
    ``force`` starts both caches afresh; the rest as ``tournament.run_tournament``."""
    positions = read_positions(config.positions)
    check_equilibrium(config.equilibrium, positions)
    selected = config.select(positions)
    common = {"positions": config.positions, "digest": positions_digest(positions)}
    common |= {"selected": selected, "seed": config.seed}
    runs = [
        (
            _ReferenceJob(
                **common,
                samples=config.samples,
                worlds_limit=config.worlds_limit,
                defense_worlds=config.defense_worlds,
                defense_nodes=config.defense_nodes,
                defense_groups=config.defense_groups,
            ),
            reference_batch,
        ),
        (_DecisionJob(**common, agents=config.agents), decision_batch),
    ]
    tables = []
    for job, work in runs:
        path = cache_path(config.positions, "reference" if work is reference_batch else "decisions")
        table = run_schedule(job, path, work, workers, scheduler, force, quiet, job.done)
        tables.append(table.to_pandas())
    references, decisions = tables
    if config.equilibrium is not None:
        equilibrium = equilibrium_values(positions, selected, config.equilibrium)
        references = references.merge(equilibrium, on="position", how="left")
    decisions = decisions[decisions["agent"].isin(config.agents)]
    decisions = decisions[decisions["position"].isin(selected)]
    decisions = decisions.sort_values(
        ["agent", "position"], key=lambda c: c.map(config.agents.index) if c.name == "agent" else c
    )
    scored = score_decisions(positions.loc[list(selected)], references, decisions)
    stem = output_stem(out, config.positions)
    stem.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(scored, preserve_index=False)
    metadata = {CONFIG_KEY: canonical_json(config.as_dict()).encode(), COMPLETE_KEY: b"true"}
    files = [stem.with_name(stem.name + ".parquet"), stem.with_name(stem.name + ".md")]
    write_atomically(table.replace_schema_metadata(metadata), files[0])
    evaluation = Evaluation(config, scored, decision_quality(scored), files)
    _write_text(files[1], evaluation.to_markdown() + "\n")
    for name, figure in [
        ("loss", plot_loss(evaluation.quality)),
        ("close-errors", plot_close_errors(evaluation.quality)),
        ("references", plot_reference_gap(scored)),
    ]:
        files.append(stem.with_name(f"{stem.name}-{name}.png"))
        save_png(figure, files[-1])
    return evaluation


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)
