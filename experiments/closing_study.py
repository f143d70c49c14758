"""The close-the-talon study: harvest closing positions from play, value them, score agents.

**Harvest** (``HarvestConfig``, ``run_harvest``). Every ordered seating of two of the agents,
each agent against itself included (a *pairing*: ``(spec_0, spec_1)``, numbered in
``itertools.product`` order), plays the same seeded deals: deal ``i`` has the seed
``unit_seed(seed, i)`` of the tournament, so the pairings ``(a, b)`` and ``(b, a)`` are a
duplicate pair and a self pairing is played once. After each deal its history is replayed,
and every decision at which ``close`` is legal becomes one row: the leader's at the start of
a trick, or, where ``close_before_draw`` is on, the trick winner's before drawing (the
non-closer's ``exchange-on-close`` answers a close and is no closing decision). A row has
what rebuilds the state (the deck, the dealer and the action ids before the decision:
``Game(preset, **overrides).replay(deck, dealer, history)``), what the leader knows
(``view_key``, hand, known opponent cards), the score, the legal actions and what the
agent did. Rows are unique by ``(pairing, deal_index, decision)``; the complete file is
sorted by them, and a position's number is its row number there.

**Evaluation** (``EvaluationConfig``, ``run_evaluation``): the reference values of each
position are computed once (``sixtysix.theory.closing_values``) and cached beside the positions file
(``NAME.reference.parquet``); then every agent is asked at every position (a fresh agent,
seeded by ``unit_seed(seed, position)``), and ``decision_quality`` scores its answers.

Both runs are resumable, atomic and parallel like tournaments
(``tournament.run_schedule``).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from matplotlib.figure import Figure

from sixtysix import agents
from sixtysix.engine import core
from sixtysix.engine.actions import action_name, parse_action
from sixtysix.engine.cards import mask_to_names
from sixtysix.engine.checks import check_integer, check_seed
from sixtysix.facts import PHASE_NAMES
from sixtysix.game import Game, State
from sixtysix.theory.closing_values import (
    BEST_DEFENSE_NODES,
    BEST_DEFENSE_WORLDS,
    PIMC_LIMIT,
    PIMC_SAMPLES,
    Z95,
    ClosingPosition,
    analyze,
)

from .store import (
    COMPLETE_KEY,
    CONFIG_KEY,
    Configuration,
    canonical_json,
    is_complete,
    stored_config,
    write_atomically,
)
from .tournament import (
    Batch,
    canonical_overrides,
    canonical_specs,
    done_units,
    refuse_cheating,
    run_schedule,
    unit_seed,
)
from .tournament_summary import _markdown, _plus_minus

DEFAULT_HARVEST_DEALS = 10
HARVEST_KIND = "closing-harvest"  # the ``kind`` of a harvest file's configuration

#: The columns of a position row, with their Parquet types.
POSITION_COLUMNS = {
    "harvest_id": pa.string(),
    "config_digest": pa.string(),
    "pairing": pa.int64(),
    "spec_0": pa.string(),
    "spec_1": pa.string(),
    "deal_index": pa.int64(),
    "deal_seed": pa.uint64(),
    "dealer": pa.int64(),
    "deck": pa.list_(pa.int64()),
    "decision": pa.int64(),  # actions played before it: the length of ``history``
    "history": pa.list_(pa.int64()),  # action ids
    "preset": pa.string(),
    "overrides": pa.string(),  # canonical JSON
    "leader": pa.int64(),
    "leader_spec": pa.string(),
    "opponent_spec": pa.string(),
    "phase": pa.string(),  # "lead" or "pre-draw"
    "view_key": pa.string(),
    "trump": pa.string(),
    "face_up": pa.string(),  # "" once the trump card is taken
    "talon_size": pa.int64(),
    "hand": pa.list_(pa.string()),
    "known_opponent": pa.list_(pa.string()),
    "points_leader": pa.int64(),
    "points_opponent": pa.int64(),
    "tricks_leader": pa.int64(),
    "tricks_opponent": pa.int64(),
    "tricks_played": pa.int64(),
    "legal_actions": pa.list_(pa.string()),
    "action": pa.string(),
    "closed": pa.bool_(),  # action is close (an exchange before a close is a row of its own)
    "deal_points_leader": pa.int64(),  # the deal's game points, signed from the leader's side
}


@dataclass(frozen=True)
class HarvestConfig(Configuration):
    """Everything that defines a harvest's rows; checked and made canonical when built.

    ``agents`` are one or more spec strings (canonical form; no cheating or interactive
    agent); ``deals`` per pairing; ``overrides`` are rule options over ``preset``.
    """

    ID_PREFIX: ClassVar[str] = "h"

    agents: tuple[str, ...]
    deals: int = DEFAULT_HARVEST_DEALS
    preset: str = "sixty_six"
    overrides: dict = field(default_factory=dict)
    seed: int = 0

    seatings: ClassVar[int] = 1  # a pairing is one seating; (b, a) is (a, b) swapped
    mode: ClassVar[str] = "deals"
    unit_name: ClassVar[str] = "deal"
    keys: ClassVar[list[str]] = ["pairing", "deal_index", "decision"]

    def __post_init__(self) -> None:
        specs = canonical_specs(self.agents, 1, "a harvest")
        refuse_cheating(specs)
        for name, value in [
            ("agents", specs),
            ("deals", check_integer(self.deals, "deals", 1)),
            ("overrides", canonical_overrides(self.preset, self.overrides)),
            ("seed", check_seed(self.seed)),
        ]:
            object.__setattr__(self, name, value)

    @classmethod
    def from_dict(cls, config: dict) -> HarvestConfig:
        """The configuration ``as_dict`` gave."""
        fields = {name: value for name, value in config.items() if name != "kind"}
        return cls(**{**fields, "agents": tuple(config["agents"])})

    def as_dict(self) -> dict:
        """The configuration as plain JSON values (``kind`` tells a harvest file apart)."""
        return {
            "kind": HARVEST_KIND,
            "agents": list(self.agents),
            "deals": self.deals,
            "preset": self.preset,
            "overrides": self.overrides,
            "seed": self.seed,
        }

    @property
    def harvest_id(self) -> str:
        return self.run_id

    @property
    def pairings(self) -> list[tuple[str, str]]:
        """``(spec_0, spec_1)`` of each pairing, by pairing number."""
        return list(itertools.product(self.agents, repeat=2))

    @property
    def units(self) -> int:
        return self.deals

    def game(self) -> Game:
        return Game(self.preset, **self.overrides)


def closing_decisions(state: State, actions) -> list[tuple[int, State]]:
    """``(decision, state before it)`` for each of ``actions`` (ids, played from ``state``,
    which is left at the end) taken where ``close`` was legal."""
    found = []
    for decision, action in enumerate(actions, len(state.history_ids)):
        if core.A_CLOSE in state.legal_action_ids():
            found.append((decision, state.clone()))
        state.apply(action)
    return found


def position_rows(game: Game, result: agents.DealResult) -> list[dict]:
    """The position rows (without the harvest's columns) of the deal ``result``."""
    state = game.new_deal(seed=result.seed, dealer=result.dealer)
    winner, game_points, _ = result.outcome
    rows = []
    for decision, before in closing_decisions(state, [a for _, a in result.history_ids]):
        leader = before.current_player
        view = before.view(leader)
        points, tricks = before.card_points, before.tricks_won
        action = result.history_ids[decision][1]
        rows.append(
            {
                "deal_seed": result.seed,
                "dealer": result.dealer,
                "deck": [int(card) for card in before.deck],
                "decision": decision,
                "history": [a for _, a in before.history_ids],
                "leader": leader,
                "leader_spec": result.specs[leader],
                "opponent_spec": result.specs[1 - leader],
                "phase": PHASE_NAMES[before.phase],
                "view_key": view.key(),
                "trump": before.trump_suit,
                "face_up": before.trump_card or "",
                "talon_size": before.talon_size,
                "hand": view.hand_cards,
                "known_opponent": mask_to_names(view.known_opponent),
                "points_leader": points[leader],
                "points_opponent": points[1 - leader],
                "tricks_leader": tricks[leader],
                "tricks_opponent": tricks[1 - leader],
                "tricks_played": before.tricks_played,
                "legal_actions": before.legal_actions(),
                "action": action_name(action),
                "closed": action == core.A_CLOSE,
                "deal_points_leader": 0
                if winner is None
                else (game_points if winner == leader else -game_points),
            }
        )
    return rows


@functools.lru_cache(maxsize=4)
def _harvest_setup(config_json: str) -> tuple[HarvestConfig, Game]:
    config = HarvestConfig.from_dict(json.loads(config_json))
    return config, config.game()


def harvest_batch(config_json: str, batch: Batch) -> pa.Table:
    """The position rows of ``batch`` of the harvest ``config_json``."""
    config, game = _harvest_setup(config_json)
    specs = config.pairings[batch.pairing]
    place = {
        "harvest_id": config.harvest_id,
        "config_digest": config.digest,
        "pairing": batch.pairing,
        "spec_0": specs[0],
        "spec_1": specs[1],
        "preset": config.preset,
        "overrides": canonical_json(config.overrides),
    }
    seeds = [unit_seed(config.seed, deal_index) for deal_index in range(batch.start, batch.stop)]
    rows = []
    for deal_index, result in enumerate(agents.play_deals(game, specs, seeds), batch.start):
        if result.error is not None:
            raise RuntimeError(f"deal {deal_index} of {specs}: {result.error}")
        rows += [{**place, "deal_index": deal_index, **row} for row in position_rows(game, result)]
    return pa.Table.from_pylist(rows, schema=pa.schema(POSITION_COLUMNS))


def run_harvest(
    config: HarvestConfig,
    out: str | os.PathLike,
    workers: int | None = None,
    scheduler: str | None = None,
    force: bool = False,
    quiet: bool = False,
) -> pa.Table:
    """Play the harvest ``config`` into the Parquet file ``out``; every position row.
    Parameters as ``tournament.run_tournament``. A resumed run replays the deals that left
    no row (a deal without a closing decision), which adds nothing; a complete file is
    done."""
    return run_schedule(
        config, out, harvest_batch, workers, scheduler, force, quiet, done_units, True
    )


# ---- reading positions -----------------------------------------------------------------------

#: The columns that an evaluation reads from a positions file (a harvest, or one made by hand).
REQUIRED_COLUMNS = (
    "preset",
    "overrides",
    "deck",
    "dealer",
    "history",
    "leader",
    "talon_size",
    "points_leader",
    "points_opponent",
)


def read_positions(path: str | os.PathLike) -> pd.DataFrame:
    """The rows of a positions file, checked: a Parquet file with ``REQUIRED_COLUMNS``, and
    if a harvest wrote it, a complete one."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no such positions file: {str(path)!r}")
    try:
        config = stored_config(path)
        frame = pq.read_table(path).to_pandas()
    except (pa.ArrowException, OSError) as error:
        raise ValueError(f"{path} is not a Parquet file: {error}") from None
    missing = [name for name in REQUIRED_COLUMNS if name not in frame.columns]
    if missing:
        raise ValueError(
            f"{path} is not a positions file: it lacks the columns {', '.join(missing)} "
            "(write one with 'sixtysix closing harvest')"
        )
    if config is not None and config.get("kind") == HARVEST_KIND and not is_complete(path):
        raise ValueError(
            f"{path} is an unfinished harvest: rerun its 'sixtysix closing harvest' command "
            "to complete it first"
        )
    if frame.empty:
        raise ValueError(f"{path} holds no positions")
    return frame.reset_index(drop=True)


def positions_digest(positions: pd.DataFrame) -> str:
    """SHA-256 of what defines the positions (rules, deck, dealer, history), in hex."""
    digest = hashlib.sha256()
    for row in positions[["preset", "overrides", "deck", "dealer", "history"]].itertuples(
        index=False
    ):
        preset, overrides, deck, dealer, history = row
        text = [preset, overrides, [int(c) for c in deck], int(dealer), [int(a) for a in history]]
        digest.update(canonical_json(text).encode() + b"\n")
    return digest.hexdigest()


@functools.lru_cache(maxsize=16)
def _game(preset: str, overrides: str) -> Game:
    return Game(preset, **json.loads(overrides))


def position_state(position) -> State:
    """The state of a position row (a mapping or a named tuple with ``REQUIRED_COLUMNS``),
    rebuilt by replay; the leader must be to move."""
    get = position.get if hasattr(position, "get") else lambda name: getattr(position, name)
    game = _game(get("preset"), get("overrides"))
    deck = [int(card) for card in get("deck")]
    state = game.replay(deck, int(get("dealer")), [int(a) for a in get("history")])
    if state.current_player != int(get("leader")):
        raise ValueError(
            f"the position's leader is P{get('leader')}, but P{state.current_player} is to move"
        )
    if core.A_CLOSE not in state.legal_action_ids():
        raise ValueError(f"closing is not legal in the position: {state!r}")
    return state


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

    kind: ClassVar[str] = "closing-reference"
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
        }

    def done(self, table: pa.Table | None) -> set[tuple[int, int]]:
        positions = [] if table is None else table["position"].to_pylist()
        return {(0, self.unit_of[p]) for p in positions if p in self.unit_of}


@dataclass(frozen=True)
class _DecisionJob(_Job):
    """Every agent's decision at every position: one row per agent and position. The rows
    of agents asked before are kept: the store's configuration does not list the agents."""

    kind: ClassVar[str] = "closing-decisions"
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
) -> dict:
    """The reference columns (``REFERENCE_COLUMNS`` but ``position``) of the leader's
    decision at ``state``: ``closing.analyze`` (the PIMC reference with ``limit``,
    ``samples`` and ``seed``; best defense up to ``defense_worlds`` worlds (0: none) and
    ``defense_nodes`` nodes per option)."""
    started = time.perf_counter()
    analysis = analyze(
        ClosingPosition.from_view(state.view(state.current_player)),
        limit=limit,
        samples=samples,
        seed=seed,
        best_defense=defense_worlds > 0,
        max_worlds=max(defense_worlds, 1),
        max_nodes=defense_nodes,
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
            ),
        }
        for position in job.positions_of(batch)
    ]
    return pa.Table.from_pylist(rows, schema=pa.schema(REFERENCE_COLUMNS))


# ---- the evaluation -------------------------------------------------------------------------


@dataclass(frozen=True)
class EvaluationConfig:
    """An evaluation: ``agents`` (spec strings) asked at the first ``limit`` positions
    (None: all) with at most ``max_talon`` talon cards (None: any) of the positions file
    ``positions``, against the PIMC reference over every world up to ``worlds_limit``
    worlds, else ``samples`` sampled ones, and best defense where there are at most
    ``defense_worlds`` worlds and an option's tree at most ``defense_nodes`` nodes;
    ``seed`` seeds the agents and the sampling (``unit_seed(seed, position)``)."""

    positions: str
    agents: tuple[str, ...]
    limit: int | None = None
    max_talon: int | None = None
    samples: int = PIMC_SAMPLES
    worlds_limit: int = PIMC_LIMIT
    defense_worlds: int = BEST_DEFENSE_WORLDS
    defense_nodes: int = BEST_DEFENSE_NODES
    seed: int = 0

    def __post_init__(self) -> None:
        specs = canonical_specs(self.agents, 1, "an evaluation")
        refuse_cheating(specs)
        limit = None if self.limit is None else check_integer(self.limit, "limit", 1)
        talon = None if self.max_talon is None else check_integer(self.max_talon, "max_talon", 2)
        for name, value in [
            ("positions", str(self.positions)),
            ("agents", specs),
            ("limit", limit),
            ("max_talon", talon),
            ("samples", check_integer(self.samples, "samples", 1)),
            ("worlds_limit", check_integer(self.worlds_limit, "worlds_limit", 0)),
            ("defense_worlds", check_integer(self.defense_worlds, "defense_worlds", 0)),
            ("defense_nodes", check_integer(self.defense_nodes, "defense_nodes", 1)),
            ("seed", check_seed(self.seed)),
        ]:
            object.__setattr__(self, name, value)

    def as_dict(self) -> dict:
        return {"kind": "closing-evaluation", **asdict(self), "agents": list(self.agents)}

    def select(self, positions: pd.DataFrame) -> tuple[int, ...]:
        """The row numbers of the positions evaluated: those with at most ``max_talon``
        talon cards, the first ``limit`` of them; ``ValueError`` if none."""
        rows = positions.index
        if self.max_talon is not None:
            rows = rows[positions["talon_size"] <= self.max_talon]
        selected = tuple(int(row) for row in rows[: self.limit])
        if not selected:
            raise ValueError(
                f"no position of {self.positions} has at most {self.max_talon} talon cards"
            )
        return selected


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
        figure.savefig(files[-1], dpi=120)
    return evaluation


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


# ---- scoring --------------------------------------------------------------------------------

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
      value of closing) and ``defense_loss`` (the loss against the best-defense values;
      both NaN where best defense was not solved).
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
    frame["reference_gap"] = frame["close_value"] - frame["defense_close_value"]
    frame["defense_loss"] = [
        float(np.max(values)) - values[list(names).index(option)]
        for option, names, values in zip(
            frame["option"], frame["options"], frame["defense_values"], strict=True
        )
    ]
    return frame


def decision_quality(scored: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The quality of each agent's decisions: ``all``, ``by_talon`` (talon size) and
    ``by_situation`` tables with ``positions``, ``agreement`` (share), ``loss`` (mean game
    points lost per decision) with its 95% interval ``loss_low`` .. ``loss_high`` (normal,
    over decisions), ``close_loss`` (the same of the close-or-not choice alone) with its
    interval, ``false_closes`` and ``missed_closes`` (counts), ``closes`` (the
    agent's) and ``reference_closes``; and ``references`` (``reference_gap``)."""
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
        ranks = {"agent": order.index, "situation": SITUATIONS.index}
        table = table.reset_index().sort_values(
            ["agent", *keys], key=lambda column: column.map(ranks.get(column.name, int))
        )
        tables[name] = table.reset_index(drop=True)
    tables["references"] = reference_gap(scored)
    return tables


def reference_gap(scored: pd.DataFrame) -> pd.DataFrame:
    """The two references by talon size: ``positions``, ``defended`` (those with a
    best-defense value), and over those the mean PIMC and best-defense values of closing,
    their mean ``gap`` and ``verdicts_differ`` (positions where they disagree on closing)."""
    positions = scored.drop_duplicates("position")
    defended = positions[np.isfinite(positions["defense_close_value"])]
    pimc_closes = defended["close_value"] > defended["best_alternative_value"]
    defense_closes = defended["defense_close_value"] > defended["defense_alternative_value"]
    by_talon = defended.assign(verdicts_differ=pimc_closes != defense_closes).groupby("talon_size")
    table = pd.DataFrame(
        {
            "positions": positions.groupby("talon_size").size(),
            "defended": by_talon.size(),
            "pimc_close": by_talon["close_value"].mean(),
            "defense_close": by_talon["defense_close_value"].mean(),
            "gap": by_talon["reference_gap"].mean(),
            "verdicts_differ": by_talon["verdicts_differ"].sum(),
        }
    )
    table[["defended", "verdicts_differ"]] = table[["defended", "verdicts_differ"]].fillna(0)
    table = table.astype({"defended": int, "verdicts_differ": int})
    return table.sort_index(ascending=False).reset_index()


# ---- tables and plots -------------------------------------------------------------------------


def quality_markdown(quality: dict[str, pd.DataFrame], config: EvaluationConfig, rows: int) -> str:
    """The quality tables as Markdown, with a heading that says what was measured."""
    positions = int(quality["all"]["positions"].max())
    lines = [
        "# Closing decisions",
        "",
        f"{positions} positions of `{config.positions}`, {rows} decisions of "
        f"{len(config.agents)} agent(s), seed {config.seed}. Reference: PIMC (open-hand "
        f"values) over every world up to {config.worlds_limit} worlds, else "
        f"{config.samples} sampled ones; best defense up to {config.defense_worlds} worlds "
        f"and {config.defense_nodes} tree nodes per option. Loss: game points lost per "
        "decision against the reference's best option, with 95% intervals; false close: "
        "closed where not closing is better; missed close: did not close where closing is "
        "better; the loss of the close-or-not choice counts only the better close against "
        "the best alternative.",
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
        lines += ["", f"## {title}", "", _markdown(_display(quality[name], key))]
    lines += [
        "",
        "## The two references",
        "",
        "PIMC (optimistic for the closer) against best defense (a lower bound, solved where "
        "the worlds are few), over the positions that have both: mean values of closing, "
        "their gap, and the positions where they disagree on closing.",
        "",
        _markdown(quality["references"].set_index("talon_size").round(3)),
    ]
    return "\n".join(lines)


def _display(table: pd.DataFrame, key: str | None) -> pd.DataFrame:
    """A quality table for people: the loss as ``mean ± half-width``, closes as counts."""
    shown = {
        "agent": table["agent"],
        **({{"talon_size": "talon", "situation": "score"}[key]: table[key]} if key else {}),
        "positions": table["positions"],
        "agreement": table["agreement"].map("{:.3f}".format),
        "loss per decision": _plus_minus(table, "loss", 3),
        "loss of the close-or-not choice": _plus_minus(table, "close_loss", 3),
        "false closes": table["false_closes"],
        "missed closes": table["missed_closes"],
        "closes (agent / reference)": [
            f"{a} / {r}" for a, r in zip(table["closes"], table["reference_closes"], strict=True)
        ],
    }
    return pd.DataFrame(shown).set_index("agent")


def plot_loss(quality: dict[str, pd.DataFrame]) -> Figure:
    """Game points lost per decision by each agent, with 95% intervals."""
    table = quality["all"]
    figure = Figure(figsize=(6, 1.2 + 0.5 * len(table)), layout="constrained")
    axes = figure.subplots()
    spread = [table["loss"] - table["loss_low"], table["loss_high"] - table["loss"]]
    axes.barh(table["agent"], table["loss"], xerr=np.nan_to_num(spread), capsize=4)
    axes.invert_yaxis()
    axes.set_xlabel("game points lost per decision (95% interval)")
    axes.set_title("Closing decisions: loss against the PIMC reference")
    return figure


def plot_close_errors(quality: dict[str, pd.DataFrame]) -> Figure:
    """The share of positions with a false close and with a missed close, by talon size,
    one bar per agent."""
    table = quality["by_talon"]
    sizes = sorted(table["talon_size"].unique(), reverse=True)
    names = list(dict.fromkeys(table["agent"]))
    width = 0.8 / len(names)
    figure = Figure(figsize=(10, 4), layout="constrained")
    panels = figure.subplots(1, 2, sharey=True)
    titles = {
        "false_closes": "false closes: closed where not closing is better",
        "missed_closes": "missed closes: did not close where closing is better",
    }
    for axes, (column, title) in zip(panels, titles.items(), strict=True):
        for number, agent in enumerate(names):
            rows = table[table["agent"] == agent].set_index("talon_size").reindex(sizes)
            places = np.arange(len(sizes)) + (number - (len(names) - 1) / 2) * width
            axes.bar(places, rows[column] / rows["positions"], width, label=agent)
        axes.set_xticks(range(len(sizes)), sizes)
        axes.set_title(title, fontsize=9)
        axes.set_xlabel("talon size")
    panels[0].set_ylabel("share of the positions")
    panels[1].legend(fontsize=8)
    return figure


def plot_reference_gap(scored: pd.DataFrame) -> Figure:
    """The value of closing by the two references over the positions that have both: PIMC
    against best defense, one point per position, and their mean gap by talon size."""
    positions = scored.drop_duplicates("position")
    both = positions[np.isfinite(positions["defense_close_value"])]
    figure = Figure(figsize=(10, 4), layout="constrained")
    if both.empty:
        axes = figure.subplots()
        axes.text(0.5, 0.5, "no position has a best-defense value", ha="center", va="center")
        axes.set_axis_off()
        return figure
    scatter, gaps = figure.subplots(1, 2)
    scatter.scatter(both["defense_close_value"], both["close_value"], s=12, alpha=0.6)
    low = min(both["defense_close_value"].min(), both["close_value"].min())
    high = max(both["defense_close_value"].max(), both["close_value"].max())
    scatter.plot([low, high], [low, high], color="grey", linewidth=0.8)
    scatter.set_xlabel("best defense: value of closing (game points)")
    scatter.set_ylabel("PIMC: value of closing (game points)")
    scatter.set_title("one point per position", fontsize=9)
    gap = both.groupby("talon_size")["reference_gap"]
    sizes = sorted(gap.groups, reverse=True)
    means = gap.mean().reindex(sizes)
    half = (Z95 * gap.std(ddof=1) / np.sqrt(gap.size())).reindex(sizes)
    gaps.bar([str(size) for size in sizes], means, yerr=np.nan_to_num(half), capsize=4)
    gaps.set_xlabel("talon size")
    gaps.set_ylabel("PIMC minus best defense (mean, 95% interval)")
    gaps.set_title("the gap between the references", fontsize=9)
    return figure
