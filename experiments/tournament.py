"""Duplicate tournaments between agents: the configuration, the schedule, the rows and the run.

Every unordered pair of distinct agents (a *pairing*, numbered in the order of the
agent list: (a0, a1), (a0, a2), ..., (a1, a2), ...) plays the same seeded deals
twice, once with each agent in seat 0 (``swap`` 0: ``agent_a`` in seat 0; 1: in
seat 1), so the luck of the cards cancels out. Deal (or match) ``i`` of a
tournament with seed ``S`` has the seed ``unit_seed(S, i)``, the same in every
pairing. With ``matches`` each unit is a whole match (``agents.play_match``) and
there is one row per deal of it.

Work goes out in batches (one pairing, a range of deal indices, both seatings) to
this process, a local process pool or a Dask cluster; every finished batch is
saved at once by a :class:`~sixtysix.experiments.store.ResultStore`, so an
interrupted run resumes where it stopped. A row depends only on the configuration
and its place in the schedule, never on the backend, the workers or the batches.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import re
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

from sixtysix import agents
from sixtysix.engine.checks import check_integer, check_seed
from sixtysix.game import Game

from .batch_backends import (
    BatchFailed,
    TournamentError,
    Work,
    open_backend,
    stop_signals_interrupt,
)
from .store import OTHER_KINDS, Configuration, ResultStore, stored_config

#: The main job: the search agents at lighter settings than their defaults, so that the
#: round robin takes about three minutes on two cores.
DEFAULT_AGENTS = (
    "ismcts:iterations=2500",
    "pimc:worlds=16",
    "dmcts:iterations=5000,worlds=16",
    "heuristic",
    "random",
)
DEFAULT_DEALS = 100
BATCHES_PER_SLOT = 16  # batches per worker (or Dask thread): a smooth progress bar
#: Units per batch, so that progress keeps moving (``positions``: the closing study's).
MAX_BATCH = {"deals": 2000, "matches": 250, "positions": 100}
SCHEDULER_ADDRESS = re.compile(r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):\d{1,5}")

#: The columns of every row, with their Parquet types.
DEAL_COLUMNS = {
    "tournament_id": pa.string(),
    "config_digest": pa.string(),
    "pairing": pa.int64(),
    "agent_a": pa.string(),
    "agent_b": pa.string(),
    "deal_index": pa.int64(),
    "swap": pa.int64(),
    "deal_seed": pa.uint64(),
    "spec_0": pa.string(),
    "spec_1": pa.string(),
    "dealer": pa.int64(),
    "winner": pa.int64(),
    "game_points": pa.int64(),
    "card_points_0": pa.int64(),
    "card_points_1": pa.int64(),
    "reason": pa.string(),
    "closed_by": pa.int64(),
    "close_trick": pa.int64(),
    "tricks_played": pa.int64(),
    "decisions_0": pa.int64(),
    "decisions_1": pa.int64(),
    "decision_seconds_0": pa.float64(),
    "decision_seconds_1": pa.float64(),
    "error": pa.string(),
    "error_seat": pa.int64(),
    "engine": pa.string(),
}
#: The further columns of match mode: the match seed, the deal's number in the match (1 for
#: the first, as in ``Match.deal_seed``), and on its last deal the winner and match points.
MATCH_COLUMNS = {
    "match_seed": pa.uint64(),
    "match_deal": pa.int64(),
    "match_winner": pa.int64(),
    "match_points": pa.int64(),
}
TIMING_COLUMNS = ("decision_seconds_0", "decision_seconds_1")


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, SIGHUP) during a run; what was finished is saved. Its message says
    so and how much; ``exit_code`` is the shell's for that signal (130 for Ctrl-C)."""

    def __init__(self, message: str, signal_number: int = signal.SIGINT):
        super().__init__(message)
        self.exit_code = 128 + signal_number


def unit_seed(seed: int, index: int) -> int:
    """The seed of deal (or match) ``index`` of a tournament with seed ``seed``:
    ``SeedSequence([seed, index])``'s first 64-bit word."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0])


@dataclass(frozen=True)
class TournamentConfig(Configuration):
    """Everything that defines a tournament's rows; checked and made canonical when built.

    ``agents`` are spec strings (stored in canonical form); give ``deals`` or
    ``matches`` (deals per pairing and seating, or matches); ``overrides`` are rule
    options on top of ``preset`` (those equal to the preset's value are dropped);
    ``time_limit`` is seconds per decision (None: no limit). Agents that cheat (whose class
    sets ``cheating = True``: they see hidden cards) are refused unless ``allow_cheating``,
    a permission that is not part of the configuration (``as_dict``, the digest).
    """

    ID_PREFIX: ClassVar[str] = "t"

    agents: tuple[str, ...] = DEFAULT_AGENTS
    deals: int | None = None
    matches: int | None = None
    preset: str = "sixty_six"
    overrides: dict = field(default_factory=dict)
    seed: int = 0
    time_limit: float | None = None
    allow_cheating: bool = field(default=False, compare=False)
    seatings: ClassVar[int] = 2  # every unit of a pairing is played in both seatings

    def __post_init__(self) -> None:
        canonical = canonical_specs(self.agents)
        if not self.allow_cheating:
            refuse_cheating(canonical)
        if self.deals is None and self.matches is None:
            object.__setattr__(self, "deals", DEFAULT_DEALS)
        if self.deals is not None and self.matches is not None:
            raise ValueError("give a number of deals or of matches, not both")
        count = check_integer(self.units, self.mode, 1)
        overrides = canonical_overrides(self.preset, self.overrides)
        game = Game(self.preset, **overrides)
        if self.matches is not None and game.rules.match_target is None:
            raise ValueError(
                f"matches need rules that play matches: {game!r} plays single deals "
                "(match_target=None); play deals instead"
            )
        for name, value in [
            ("agents", canonical),
            (self.mode, count),
            ("overrides", overrides),
            ("seed", check_seed(self.seed)),
            ("time_limit", check_time_limit(self.time_limit)),
        ]:
            object.__setattr__(self, name, value)

    @classmethod
    def from_dict(cls, config: dict) -> TournamentConfig:
        """The configuration ``as_dict`` gave (checked when it was made: cheating agents in it
        were allowed then)."""
        return cls(**{**config, "agents": tuple(config["agents"]), "allow_cheating": True})

    def as_dict(self) -> dict:
        """The configuration as plain JSON values."""
        return {
            "agents": list(self.agents),
            "deals": self.deals,
            "matches": self.matches,
            "preset": self.preset,
            "overrides": self.overrides,
            "seed": self.seed,
            "time_limit": self.time_limit,
        }

    @property
    def tournament_id(self) -> str:
        return self.run_id

    @property
    def mode(self) -> str:
        """``"deals"`` or ``"matches"``: what a unit of the schedule is."""
        return "deals" if self.matches is None else "matches"

    @property
    def unit_name(self) -> str:
        """``"deal"`` or ``"match"``."""
        return "deal" if self.matches is None else "match"

    @property
    def units(self) -> int:
        """Deals (or matches) per pairing and seating."""
        return self.deals if self.matches is None else self.matches

    @property
    def pairings(self) -> list[tuple[str, str]]:
        """``(agent_a, agent_b)`` of each pairing, by pairing number."""
        return list(combinations(self.agents, 2))

    @property
    def keys(self) -> list[str]:
        """The columns that order the rows and tell them apart."""
        keys = ["pairing", "deal_index", "swap"]
        return keys + ["match_deal"] if self.matches is not None else keys

    @property
    def schema(self) -> pa.Schema:
        """The columns of the rows and their types."""
        columns = DEAL_COLUMNS if self.matches is None else {**DEAL_COLUMNS, **MATCH_COLUMNS}
        return pa.schema(columns)

    def game(self) -> Game:
        """The game the deals are played in."""
        return Game(self.preset, **self.overrides)


def canonical_specs(specs, least: int = 2, purpose: str = "a tournament") -> tuple[str, ...]:
    """Agent specs in canonical form, at least ``least`` (what ``purpose`` needs) and no
    agent twice; each agent is built once, so that a bad parameter value is refused before
    anything is played."""
    if isinstance(specs, str):
        specs = (specs,)
    canonical = [agents.parse_spec(spec).canonical for spec in specs]
    for spec in specs:
        if getattr(agents.parse_spec(spec).factory, "interactive", False):
            raise ValueError(
                f"agent {spec!r} is interactive (it asks a person for every move) and cannot "
                "play in a tournament; to play an agent yourself: sixtysix play --opponent SPEC"
            )
        agents.make(spec, 0)
    if len(canonical) < least:
        raise ValueError(
            f"{purpose} needs at least {least} agent{'s' if least > 1 else ''}; got "
            f"{len(canonical)} "
            f"({', '.join(map(repr, specs)) or 'none'})"
        )
    for number, spec in enumerate(canonical):
        if spec in canonical[:number]:
            first = specs[canonical.index(spec)]
            written = "" if first == specs[number] else f" (as {first!r} and {specs[number]!r})"
            raise ValueError(f"agent {spec!r} is listed twice{written}; list each agent once")
    return tuple(canonical)


def canonical_overrides(preset: str, overrides: dict) -> dict:
    """The rule ``overrides`` of ``preset`` (checked), sorted, without those equal to the
    preset's value."""
    rules = Game(preset, **overrides).rules
    base = Game(preset).rules
    return {
        name: getattr(rules, name)
        for name in sorted(overrides)
        if getattr(rules, name) != getattr(base, name)
    }


def refuse_cheating(specs: tuple[str, ...]) -> None:
    """``ValueError`` naming the agents of ``specs`` that cheat, if any."""
    cheating = [
        spec for spec in specs if getattr(agents.parse_spec(spec).factory, "cheating", False)
    ]
    if cheating:
        one = len(cheating) == 1
        raise ValueError(
            f"{'agent' if one else 'agents'} {', '.join(map(repr, cheating))} "
            f"{'cheats (it sees' if one else 'cheat (they see'} hidden cards: a reference only); "
            f"give --allow-cheating (allow_cheating=True) to let {'it' if one else 'them'} play"
        )


def check_time_limit(seconds) -> float | None:
    """None, or a positive finite number of seconds as a float."""
    if seconds is None:
        return None
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not (0 < seconds < math.inf)
    ):
        raise ValueError(
            f"invalid time limit {seconds!r}: the time limit must be a positive number of "
            "seconds per decision"
        )
    return float(seconds)


# ---- the schedule ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """Units ``start .. stop - 1`` of one pairing, in both seatings."""

    pairing: int
    start: int
    stop: int

    @property
    def size(self) -> int:
        return self.stop - self.start

    @property
    def part_name(self) -> str:
        """The name of the batch's part file."""
        return f"pairing-{self.pairing:04d}_units-{self.start:09d}-{self.stop:09d}.parquet"

    def __str__(self) -> str:
        return f"pairing {self.pairing}, units {self.start}..{self.stop - 1}"


def batch_size(config: TournamentConfig, slots: int) -> int:
    """Units per batch for ``slots`` parallel workers: about ``BATCHES_PER_SLOT`` batches
    each, at most ``MAX_BATCH``."""
    total = len(config.pairings) * config.units
    return max(1, min(MAX_BATCH[config.mode], math.ceil(total / (slots * BATCHES_PER_SLOT))))


def schedule(config: TournamentConfig, done: set[tuple[int, int]], slots: int) -> list[Batch]:
    """The batches that play every ``(pairing, unit)`` not in ``done``: runs of consecutive
    units of ``batch_size``, the lowest units of every pairing first."""
    size = batch_size(config, slots)
    batches = []
    for pairing in range(len(config.pairings)):
        start = None
        for unit in range(config.units + 1):
            todo = unit < config.units and (pairing, unit) not in done
            if start is not None and (not todo or unit - start == size):
                batches.append(Batch(pairing, start, unit))
                start = None
            if todo and start is None:
                start = unit
    return sorted(batches, key=lambda batch: (batch.start, batch.pairing))


def done_units(table: pa.Table | None, group: str = "pairing") -> set[tuple[int, int]]:
    """The ``(group, unit)`` pairs that ``table`` holds rows of (a batch is saved whole);
    ``group`` is the column of the schedule's groups (a table tournament's ``lineup``)."""
    if table is None:
        return set()
    return set(zip(table[group].to_pylist(), table["deal_index"].to_pylist(), strict=True))


# ---- playing a batch -------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _setup(config_json: str) -> tuple[TournamentConfig, Game]:
    """The configuration and game of a batch, made once per process."""
    config = TournamentConfig.from_dict(json.loads(config_json))
    return config, config.game()


def play_batch(config_json: str, batch: Batch) -> pa.Table:
    """The rows of ``batch`` of the tournament ``config_json`` (``TournamentConfig.to_json``)."""
    config, game = _setup(config_json)
    agent_a, agent_b = config.pairings[batch.pairing]
    place = {
        "tournament_id": config.tournament_id,
        "config_digest": config.digest,
        "pairing": batch.pairing,
        "agent_a": agent_a,
        "agent_b": agent_b,
    }
    seeds = [unit_seed(config.seed, unit) for unit in range(batch.start, batch.stop)]
    play = _deal_rows if config.matches is None else _match_rows
    rows = []
    for swap, specs in enumerate([(agent_a, agent_b), (agent_b, agent_a)]):
        seat = {**place, "swap": swap, "spec_0": specs[0], "spec_1": specs[1]}
        rows += [{**seat, **row} for row in play(config, game, specs, batch.start, seeds)]
    return pa.Table.from_pylist(rows, schema=config.schema)


def _deal_rows(config, game, specs, start: int, seeds: list[int]) -> list[dict]:
    """The rows of deals ``start, start + 1, ...`` with ``seeds`` between the seated ``specs``."""
    results = agents.play_deals(game, specs, seeds, time_limit=config.time_limit)
    return [
        {"deal_index": unit, **deal_columns(result)} for unit, result in enumerate(results, start)
    ]


def _match_rows(config, game, specs, start: int, seeds: list[int]) -> list[dict]:
    """The rows of matches ``start, start + 1, ...`` with ``seeds``: one per deal played."""
    rows = []
    for unit, seed in enumerate(seeds, start):
        match = agents.play_match(game, specs, seed, time_limit=config.time_limit)
        for number, result in enumerate(match.deals, 1):
            last = number == len(match.deals)
            rows.append(
                {
                    "deal_index": unit,
                    **deal_columns(result),
                    "match_seed": seed,
                    "match_deal": number,
                    "match_winner": match.winner if last else -1,
                    "match_points": match.match_points if last else 0,
                }
            )
    return rows


def deal_columns(result: agents.DealResult) -> dict:
    """The columns of a row that come from the deal played."""
    winner, game_points, reason = result.outcome
    return {
        "deal_seed": result.seed,
        "dealer": result.dealer,
        "winner": -1 if winner is None else winner,
        "game_points": game_points,
        "card_points_0": result.card_points[0],
        "card_points_1": result.card_points[1],
        "reason": reason,
        "closed_by": -1 if result.closed_by is None else result.closed_by,
        "close_trick": result.close_trick,
        "tricks_played": result.tricks_played,
        "decisions_0": result.decisions[0],
        "decisions_1": result.decisions[1],
        "decision_seconds_0": result.decision_seconds[0],
        "decision_seconds_1": result.decision_seconds[1],
        "error": result.error or "",
        "error_seat": -1 if result.error_seat is None else result.error_seat,
        "engine": result.engine,
    }


# ---- where batches run ---------------------------------------------------------------------


def check_scheduler(address: str) -> str:
    """A Dask scheduler address ``tcp://HOST:PORT`` (or ``tls://``), else ``ValueError``."""
    if not SCHEDULER_ADDRESS.fullmatch(address):
        raise ValueError(
            f"invalid scheduler address {address!r}: give tcp://HOST:PORT (or tls://HOST:PORT), "
            "e.g. tcp://127.0.0.1:8786"
        )
    return address


# ---- the run ---------------------------------------------------------------------------------


def run_tournament(
    config: TournamentConfig,
    out: str | os.PathLike,
    workers: int | None = None,
    scheduler: str | None = None,
    force: bool = False,
    quiet: bool = False,
) -> pd.DataFrame:
    """Play the tournament ``config`` into the Parquet file ``out`` and return every row.

    Runs on ``workers`` local processes (default: one per CPU; 1 plays in this process)
    or on the Dask cluster of ``scheduler``; a script that starts worker processes must
    call this under ``if __name__ == "__main__":``, as ``multiprocessing`` requires.
    Resumes from the rows already in ``out`` (and its parts folder); ``force`` deletes
    them first. ``quiet`` hides the progress bar, which shows only when stderr is a
    terminal.
    """
    return run_schedule(config, out, play_batch, workers, scheduler, force, quiet).to_pandas()


def run_schedule(
    config,
    out: str | os.PathLike,
    work: Work,
    workers: int | None = None,
    scheduler: str | None = None,
    force: bool = False,
    quiet: bool = False,
    done: Callable[[pa.Table | None], set[tuple[int, int]]] = done_units,
    complete_is_done: bool = False,
) -> pa.Table:
    """Do ``work`` on every batch of ``config``'s schedule not yet in ``out``; every row.

    ``config`` is a ``TournamentConfig`` or any object with its ``pairings``, ``units``,
    ``seatings``, ``mode``, ``unit_name``, ``keys``, ``as_dict()`` (the stored
    configuration) and ``to_json()`` (what ``work(config_json, batch)`` gets, with the
    ``agents``); ``done(rows)`` names the ``(pairing, unit)`` pairs that ``rows`` hold.
    With ``complete_is_done`` a complete ``out`` is done whatever ``done`` says (for work
    where a unit may give no rows). Parameters otherwise as ``run_tournament``.
    """
    workers = check_integer(os.cpu_count() if workers is None else workers, "workers", 1)
    if scheduler is not None:
        check_scheduler(scheduler)
    out = Path(out)
    total = len(config.pairings) * config.units
    with ResultStore(out, config.as_dict(), config.keys, force=force) as store:
        finished = done(store.table())
        todo = len(finished) < total and not (complete_is_done and store.was_complete)
        if finished and todo and not quiet:
            played = f"{len(finished)} of {total} {config.mode} played"
            print(f"resuming {out}: {played}", file=sys.stderr)
        if todo:
            _play(config, store, finished, workers, scheduler, quiet, work)
        return store.finish()


def _play(config, store: ResultStore, done: set, workers: int, scheduler, quiet: bool, work):
    """Do ``work`` on the units not ``done`` and add them to ``store``. Ctrl-C, SIGTERM and
    SIGHUP stop it as an interruption (``TournamentInterrupted``)."""
    total = len(config.pairings) * config.units
    played = len(done)
    bar = tqdm(
        total=config.seatings * total,
        initial=config.seatings * played,
        unit=config.unit_name,
        disable=quiet or not sys.stderr.isatty(),
        smoothing=0.1,
    )
    try:
        with bar, stop_signals_interrupt(), open_backend(workers, scheduler, work) as backend:
            batches = schedule(config, done, backend.slots)
            with contextlib.closing(backend.results(config.to_json(), batches)) as results:
                for batch, table in results:
                    store.add(batch.part_name, table)
                    played += batch.size
                    bar.update(config.seatings * batch.size)
    except BatchFailed as failed:
        error = failed.error
        raise TournamentError(
            f"batch {config.batch_name(failed.batch)} failed: {type(error).__name__}: {error}\n"
            f"{_saved(config, store.path, played)}"
        ) from failed
    except KeyboardInterrupt as stop:  # Ctrl-C, or a RunStopped that names its signal
        saved = _saved(config, store.path, played)
        number = getattr(stop, "signal_number", signal.SIGINT)
        raise TournamentInterrupted(f"{str(stop) or 'interrupted'}\n{saved}", number) from None


def _saved(config, out: Path, played: int) -> str:
    total = len(config.pairings) * config.units
    seatings = " (in both seatings)" if config.seatings == 2 else ""
    return (
        f"{played} of {total} {config.mode}{seatings} are saved in {out}; "
        "rerun the same command to play the rest"
    )


def read_results(path: str | os.PathLike) -> pd.DataFrame:
    """The rows of a tournament's results file (read without rebuilding its configuration,
    so its agents' modules need not be importable)."""
    stored_tournament_config(path)
    return pq.read_table(path).to_pandas()


def _config_of(path: str | os.PathLike) -> TournamentConfig:
    """The configuration stored in the results file ``path``."""
    return TournamentConfig.from_dict(stored_tournament_config(path))


def stored_tournament_config(path: str | os.PathLike) -> dict:
    """The configuration stored in ``path``; ``ValueError`` if it is no tournament's results
    file, naming what it is and what reads it."""
    try:
        config = stored_config(path)
    except pa.ArrowInvalid as error:
        raise ValueError(f"{path} is not a Parquet file: {error}") from None
    if config is None:
        raise ValueError(f"{path} is not a sixtysix results file (no configuration in it)")
    kind = config.get("kind")
    if kind is not None:
        what, reader = OTHER_KINDS.get(kind, (f"the results of a {kind!r} run", ""))
        reader = f"; {reader.replace('FILE', str(path))}" if reader else ""
        raise ValueError(f"{path} is {what}, not a tournament's results{reader}")
    return config


# ---- replaying a row -------------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """One row re-played: the deal move by move as ``text``, and how the replay differs
    from the row (empty when it ends exactly as stored)."""

    text: str
    differences: list[str]


def replay_row(path: str | os.PathLike, row: int) -> Replay:
    """Re-play row ``row`` (0 is the first) of the results file ``path`` from its stored
    configuration and seeds."""
    config = _config_of(path)
    stored = stored_row(path, row)
    game = config.game()
    specs = (stored["spec_0"], stored["spec_1"])
    lines = [
        f"row {row} of {path}: tournament {config.tournament_id} ({config.preset}, "
        f"{config.units} {config.mode}, seed {config.seed})",
        f"pairing {stored['pairing']} ({stored['agent_a']} vs {stored['agent_b']}), "
        f"{config.unit_name} {stored['deal_index']}, swap {stored['swap']}: "
        f"P0 {specs[0]}, P1 {specs[1]}",
    ]
    result, _ = replayed_deal(config, game, specs, stored, lines)
    if result is None:
        return Replay("\n".join(lines), [lines[-1]])
    lines += _play_text(game, result, specs)
    compared = {
        name: value
        for name, value in deal_columns(result).items()
        if name not in (*TIMING_COLUMNS, "engine")
    }
    return replay_report(lines, stored, compared, row)


def replayed_deal(config, game, specs, stored: dict, lines: list[str]):
    """The deal of a stored row played again: ``(result, match)``, ``match`` None for a
    deal tournament. For a match row the whole match is played and a line naming the match
    goes to ``lines``; if it has no deal of the row's number, a line saying so does too, and
    the result is None."""
    if config.matches is None:
        return agents.play_deal(
            game, specs, stored["deal_seed"], time_limit=config.time_limit
        ), None
    match = agents.play_match(game, specs, stored["match_seed"], time_limit=config.time_limit)
    number = stored["match_deal"]
    lines.append(f"match seed {stored['match_seed']}, deal {number} of the match")
    if number > len(match.deals):
        lines.append(f"the replayed match has {len(match.deals)} deals, no deal {number}")
        return None, match
    return match.deals[number - 1], match


def replay_report(lines: list[str], stored: dict, replayed: dict, row: int) -> Replay:
    """``lines`` closed by how the ``replayed`` columns differ from the ``stored`` row."""
    differences = [
        f"{name}: {stored[name]!r} in the file, {value!r} replayed"
        for name, value in replayed.items()
        if stored[name] != value
    ]
    if differences:
        lines.append(f"the replay differs from row {row}: " + "; ".join(differences))
    else:
        lines.append(f"the replay ends exactly as row {row} says")
    return Replay("\n".join(lines), differences)


def stored_row(path: str | os.PathLike, row: int) -> dict:
    """Row ``row`` (0 is the first) of the results file ``path``, as a dict."""
    table = pq.read_table(path)
    if not 0 <= row < table.num_rows:
        raise ValueError(
            f"invalid row {row}: {path} has {table.num_rows} rows, so row must be 0 to "
            f"{table.num_rows - 1}"
        )
    return table.slice(row, 1).to_pylist()[0]


def _play_text(game: Game, result: agents.DealResult, specs: tuple[str, str]) -> list[str]:
    """The deal of ``result`` move by move: both hands and the talon at every trick (after
    the trick winner's draw, so that every card played was in a hand shown), each action
    with the card points after it, and the outcome."""
    state = game.new_deal(seed=result.seed, dealer=result.dealer)
    lines = [
        f"deal seed {result.seed}, dealer P{state.dealer}, trump {state.trump_suit}, "
        f"face-up {state.trump_card}"
    ]
    spec_width = max(map(len, specs))
    action_width = max((len(action) for _, action in result.actions), default=0)
    shown = -1  # the trick whose hands are shown
    for player, action in result.actions:
        if state.tricks_played != shown and action != "draw":
            shown = state.tricks_played
            lines.append(_hands_text(state))
        state.apply(action)
        points = "-".join(map(str, state.card_points))
        lines.append(
            f"    P{player} {specs[player]:<{spec_width}}  {action:<{action_width}}  "
            f"points {points}"
        )
    winner, game_points, reason = result.outcome
    if result.error is not None:
        lines.append(f"  {result.error}: a forfeit")
    ending = "no winner" if winner is None else f"P{winner} wins {game_points} game point(s)"
    totals = "-".join(map(str, result.card_points))
    lines.append(f"  -> {ending} ({reason}); card points {totals}, {result.tricks_played} tricks")
    return lines


def _hands_text(state) -> str:
    hands = " | ".join(f"P{player} {' '.join(hand)}" for player, hand in enumerate(state.hands))
    talon = f"talon {len(state.talon)}" if state.talon else "talon empty"
    face_up = f", face-up {state.trump_card}" if state.trump_card else ""
    closed = f", closed by P{state.closed_by}" if state.closed_by is not None else ""
    return f"  trick {state.tricks_played + 1}: {hands}; {talon}{face_up}{closed}"
