"""Tournaments for the games of ``TableGame`` (three and four seats, and the two-seat
``na66_2``): the configuration, the seating schedule, the rows, the run and the replay of a
row, on the machinery of ``tournament`` (the store, the backends, the progress bar, the
interruption and the resume).

Every *lineup* (the agents of one seat group) plays the same seeded deals under each of its
*arrangements* (seatings), so the luck of the cards cancels out: deal ``i`` of a tournament
with seed ``S`` has the seed ``tournament.unit_seed(S, i)`` in every lineup and arrangement.

* Fixed partnerships (``rules.sides == "fixed_opposite"``, and the contract game ``na66``
  with four seats; partners sit opposite): a lineup is a pair of teams. By default every
  unordered pair of distinct agents (A, B), in the order of the agent list, gives team
  A = (A, A) against team B = (B, B). With ``mixed`` the teams are every unordered pair of
  agents with repetition ((A, A), (A, B), (B, B), ...: ``combinations_with_replacement``
  order) and a lineup is every unordered pair of distinct teams (``combinations`` order).
  Arrangement 0 seats the first team in seats 0 and 2 (its first agent in seat 0) and the
  second in seats 1 and 3 (its first agent in seat 1); arrangement 1 swaps the teams.
* Every other game (``snapszer3``, the called-card games, ``na66_3``, ``na66_2``): a lineup
  is a multiset of ``num_players`` agents with at least two distinct ones
  (``combinations_with_replacement`` order, the uniform ones dropped). Arrangement ``k`` of
  the ``num_players`` rotations puts the lineup's agent ``j`` in seat ``(j + k) % n``. With
  ``permutations`` the arrangements are every distinct ordering of the lineup instead, sorted
  by the agents' places in the agent list (so the lineup's own order is arrangement 0).

A *duplicate group* is one lineup on one deal in every arrangement: the unit of the
schedule and of a batch. There is one row per lineup, deal and arrangement
(``table_columns``): the lineup, every seat's agent and results (columns ``NAME_k`` for seat
``k``), and how the deal ended. With ``matches`` a unit is a whole match
(``agents.play_match``, match ``i`` seeded ``tournament.unit_seed(S, i)``), played under the
same arrangements, with one row per deal of it and the match's columns (``MATCH_COLUMNS``).
Rows depend only on the configuration and their place in the schedule, never on the
backend, the workers or the batches.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement, permutations
from typing import ClassVar

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sixtysix import agents
from sixtysix.engine.checks import check_integer, check_seed
from sixtysix.engine.multi_rules import OPTION_ALIASES, TableRules
from sixtysix.game import Game
from sixtysix.table_game import TABLE_PRESET_NAMES, TableGame

from .store import TABLE_KIND, Configuration, stored_config
from .tournament import (
    DEFAULT_DEALS,
    Batch,
    Replay,
    canonical_overrides,
    canonical_specs,
    check_time_limit,
    done_units,
    refuse_cheating,
    replay_report,
    replayed_deal,
    run_schedule,
    stored_row,
    stored_tournament_config,
    unit_seed,
)

#: The agents of a table tournament when none are given.
TABLE_DEFAULT_AGENTS = ("heuristic", "random")

#: The columns before the seats', with their Parquet types.
PLACE_COLUMNS = {
    "tournament_id": pa.string(),
    "config_digest": pa.string(),
    "lineup": pa.int64(),
    "lineup_name": pa.string(),
    "arrangement": pa.int64(),
    "deal_index": pa.int64(),
    "deal_seed": pa.uint64(),
    "dealer": pa.int64(),
    "seats": pa.int64(),
}
#: The columns of each seat ``k``, named ``NAME_k``; ``side`` is the seats of its side at
#: the end as a bit mask.
SEAT_COLUMNS = {
    "spec": pa.string(),
    "score": pa.int64(),
    "payoff": pa.int64(),
    "card_points": pa.int64(),
    "side": pa.int64(),
    "decisions": pa.int64(),
    "decision_seconds": pa.float64(),
}
#: The columns after the seats': ``winners`` is a seat mask (0 on a draw), ``closed_by`` and
#: ``error_seat`` are -1 for none, ``error`` is null without one; ``actors`` and ``actions``
#: are the deal's history, seats and action ids.
END_COLUMNS = {
    "winners": pa.int64(),
    "reason": pa.string(),
    "closed_by": pa.int64(),
    "tricks_played": pa.int64(),
    "error": pa.string(),
    "error_seat": pa.int64(),
    "engine": pa.string(),
    "actors": pa.list_(pa.int64()),
    "actions": pa.list_(pa.int64()),
}


#: The further columns of match mode: the match seed, the deal's number in the match (1 for
#: the first, as in ``TableMatch.deal_seed``) and, on the match's last deal, the winning
#: team's (or seat's) seats as a bit mask (0 on the deals before).
MATCH_COLUMNS = {
    "match_seed": pa.uint64(),
    "match_deal": pa.int64(),
    "match_winners": pa.int64(),
}
#: The match columns of each seat ``k``: ``match_score`` is the match score that the seat's
#: points went to (its team's under ``match_scoring = team``, else its own) on the match's
#: last deal (0 on the deals before); ``match_side`` the seats sharing that score, a bit mask.
MATCH_SEAT_COLUMNS = {"match_score": pa.int64(), "match_side": pa.int64()}


def table_columns(seats: int, matches: bool = False) -> dict[str, pa.DataType]:
    """Every column of a row of a game for ``seats`` seats, in order, with its type; with
    ``matches`` those of a match tournament."""

    def per_seat(columns: dict[str, pa.DataType]) -> dict[str, pa.DataType]:
        return {f"{name}_{seat}": kind for seat in range(seats) for name, kind in columns.items()}

    columns = {**PLACE_COLUMNS, **per_seat(SEAT_COLUMNS), **END_COLUMNS}
    if matches:
        columns |= {**MATCH_COLUMNS, **per_seat(MATCH_SEAT_COLUMNS)}
    return columns


def has_fixed_partners(rules: TableRules) -> bool:
    """Whether partners sit opposite for the whole deal (``snapszer4``, four-seat ``na66``)."""
    return rules.sides == "fixed_opposite" or (rules.sides == "contract" and rules.num_players == 4)


@dataclass(frozen=True)
class Lineup:
    """One seat group: its name and, for each arrangement, the spec in every seat."""

    name: str
    arrangements: tuple[tuple[str, ...], ...]


def partnership_lineups(specs: tuple[str, ...], mixed: bool) -> list[Lineup]:
    """The lineups of a fixed-partnership game: pairs of teams, each in both seat pairs."""
    if mixed:
        teams = list(combinations_with_replacement(specs, 2))
    else:
        teams = [(spec, spec) for spec in specs]
    return [
        Lineup(
            f"{'+'.join(first)} vs {'+'.join(second)}",
            (
                (first[0], second[0], first[1], second[1]),
                (second[0], first[0], second[1], first[1]),
            ),
        )
        for first, second in combinations(teams, 2)
    ]


def rotation_lineups(specs: tuple[str, ...], seats: int, every_order: bool) -> list[Lineup]:
    """The lineups of a game without fixed partners: multisets of ``seats`` agents, each in
    every rotation, or with ``every_order`` in every distinct permutation."""
    place = {spec: number for number, spec in enumerate(specs)}
    lineups = []
    for group in combinations_with_replacement(specs, seats):
        if len(set(group)) < 2:
            continue
        if every_order:
            orders = sorted(set(permutations(group)), key=lambda order: [place[s] for s in order])
        else:
            orders = [tuple(group[(s - k) % seats] for s in range(seats)) for k in range(seats)]
        lineups.append(Lineup(", ".join(group), tuple(orders)))
    return lineups


@dataclass(frozen=True, kw_only=True)
class TableTournamentConfig(Configuration):
    """Everything that defines a table tournament's rows; checked and made canonical when
    built.

    ``preset`` is one of ``TABLE_PRESET_NAMES``, ``overrides`` rule options on top of it
    (those equal to the preset's value are dropped); ``agents`` are spec strings (stored in
    canonical form); give ``deals`` or ``matches`` (per lineup, each in every arrangement;
    ``DEFAULT_DEALS`` deals if neither); ``mixed`` (fixed partnerships only) also seats mixed
    teams; ``permutations`` (games without fixed partners, three or four seats) plays every
    distinct permutation instead of the rotations; ``time_limit`` is seconds per decision
    (None: no limit). Agents that cheat are refused unless ``allow_cheating``, a permission
    that is not part of the configuration.
    """

    ID_PREFIX: ClassVar[str] = "t"

    preset: str = "snapszer4"
    overrides: dict = field(default_factory=dict)
    agents: tuple[str, ...] = TABLE_DEFAULT_AGENTS
    deals: int | None = None
    matches: int | None = None
    seed: int = 0
    mixed: bool = False
    permutations: bool = False
    time_limit: float | None = None
    allow_cheating: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        if self.preset not in TABLE_PRESET_NAMES:
            raise ValueError(
                f"preset {self.preset!r} is no preset for three or four seats: give one of "
                f"{', '.join(TABLE_PRESET_NAMES)} (a two-player preset plays a "
                "tournament.TournamentConfig)"
            )
        canonical = canonical_specs(self.agents)
        if not self.allow_cheating:
            refuse_cheating(canonical)
        if self.deals is None and self.matches is None:
            object.__setattr__(self, "deals", DEFAULT_DEALS)
        if self.deals is not None and self.matches is not None:
            raise ValueError(
                f"give a number of deals or of matches, not both (deals {self.deals!r}, "
                f"matches {self.matches!r})"
            )
        named = {OPTION_ALIASES.get(name, name): value for name, value in self.overrides.items()}
        for name, value in [
            ("agents", canonical),
            (self.mode, check_integer(self.units, self.mode, 1)),
            ("overrides", canonical_overrides(self.preset, named)),
            ("seed", check_seed(self.seed)),
            ("time_limit", check_time_limit(self.time_limit)),
        ]:
            object.__setattr__(self, name, value)
        self._check_seating(self.game().rules)

    def _check_seating(self, rules: TableRules) -> None:
        """Refuse ``mixed`` and ``permutations`` where they do not apply, saying why."""
        for name in ("mixed", "permutations"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"invalid {name} {getattr(self, name)!r}: True or False")
        game = f"{self.preset} ({rules.num_players} seats, sides {rules.sides!r})"
        partners = has_fixed_partners(rules)
        if self.mixed and not partners:
            raise ValueError(
                f"mixed teams (--mixed) need fixed partners, and {game} has none: each deal is "
                "played under every rotation of the seated agents (or with --permutations, "
                "every permutation)"
            )
        if self.permutations and partners:
            raise ValueError(
                f"--permutations does not apply to {game}: its partners sit opposite, so each "
                "pair of teams plays every deal in both seat pairs; --mixed also seats mixed "
                "teams"
            )
        if self.permutations and rules.num_players == 2:
            raise ValueError(
                f"--permutations does not apply to {game}: with two seats the two rotations "
                "are every permutation already"
            )

    @classmethod
    def from_dict(cls, config: dict) -> TableTournamentConfig:
        """The configuration ``as_dict`` gave (checked when it was made: cheating agents in it
        were allowed then)."""
        stored = {name: value for name, value in config.items() if name != "kind"}
        return cls(**{**stored, "agents": tuple(config["agents"]), "allow_cheating": True})

    def as_dict(self) -> dict:
        """The configuration as plain JSON values, with its ``kind``."""
        return {
            "kind": TABLE_KIND,
            "preset": self.preset,
            "overrides": self.overrides,
            "agents": list(self.agents),
            "deals": self.deals,
            "matches": self.matches,
            "seed": self.seed,
            "mixed": self.mixed,
            "permutations": self.permutations,
            "time_limit": self.time_limit,
        }

    @property
    def tournament_id(self) -> str:
        return self.run_id

    # ---- what ``tournament.run_schedule`` reads: a unit is one deal (or match) of a lineup
    # in every arrangement

    @property
    def mode(self) -> str:
        """``"deals"`` or ``"matches"``: what a unit of the schedule is."""
        return "deals" if self.matches is None else "matches"

    def batch_name(self, batch) -> str:
        """How an error names ``batch``: its lineup and deals (or matches)."""
        name = self.lineups[batch.pairing].name
        return f"lineup {batch.pairing} ({name}), {self.mode} {batch.start}..{batch.stop - 1}"

    @property
    def units(self) -> int:
        """Deals (or matches) per lineup, each in every arrangement."""
        return self.deals if self.matches is None else self.matches

    @property
    def seatings(self) -> int:
        """The arrangements of each lineup, by which the progress bar multiplies the units it
        counts (so that it counts deals or matches played); 1 if the lineups have different
        numbers of them (``permutations``), and the bar counts duplicate groups."""
        sizes = {len(lineup.arrangements) for lineup in self.lineups}
        return sizes.pop() if len(sizes) == 1 else 1

    @property
    def unit(self) -> str:
        """``"deal"`` or ``"match"``."""
        return "deal" if self.matches is None else "match"

    @property
    def unit_name(self) -> str:
        """What the progress bar counts: ``unit``, or ``"deal group"`` or ``"match group"``
        when it counts duplicate groups (``seatings``)."""
        return self.unit if self.seatings > 1 else f"{self.unit} group"

    @property
    def keys(self) -> list[str]:
        """The columns that order the rows and tell them apart."""
        keys = ["lineup", "deal_index", "arrangement"]
        return keys if self.matches is None else [*keys, "match_deal"]

    @functools.cached_property
    def lineups(self) -> list[Lineup]:
        """The lineups, by lineup number."""
        rules = self.game().rules
        if has_fixed_partners(rules):
            return partnership_lineups(self.agents, self.mixed)
        return rotation_lineups(self.agents, rules.num_players, self.permutations)

    @property
    def pairings(self) -> list[Lineup]:
        """The lineups, under the name ``tournament.run_schedule`` gives the schedule's groups."""
        return self.lineups

    @property
    def schema(self) -> pa.Schema:
        """The columns of the rows and their types."""
        return pa.schema(table_columns(self.game().num_players, self.matches is not None))

    def game(self) -> TableGame:
        """The game the deals are played in."""
        return Game(self.preset, **self.overrides)


# ---- playing a batch -------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _setup(config_json: str) -> tuple[TableTournamentConfig, TableGame]:
    """The configuration and game of a batch, made once per process."""
    config = TableTournamentConfig.from_dict(json.loads(config_json))
    return config, config.game()


def play_batch(config_json: str, batch: Batch) -> pa.Table:
    """The rows of ``batch`` (``batch.pairing`` is the lineup) of the table tournament
    ``config_json`` (``TableTournamentConfig.to_json``): its deals (or matches) in every
    arrangement."""
    config, game = _setup(config_json)
    lineup = config.lineups[batch.pairing]
    place = {
        "tournament_id": config.tournament_id,
        "config_digest": config.digest,
        "lineup": batch.pairing,
        "lineup_name": lineup.name,
    }
    seeds = [unit_seed(config.seed, unit) for unit in range(batch.start, batch.stop)]
    play = _deal_rows if config.matches is None else _match_rows
    rows = []
    for arrangement, specs in enumerate(lineup.arrangements):
        seated = {**place, "arrangement": arrangement}
        seated |= {f"spec_{seat}": spec for seat, spec in enumerate(specs)}
        rows += [{**seated, **row} for row in play(config, game, specs, batch.start, seeds)]
    return pa.Table.from_pylist(rows, schema=config.schema)


def _deal_rows(config, game, specs, start: int, seeds: list[int]) -> list[dict]:
    """The rows of deals ``start, start + 1, ...`` with ``seeds`` between the seated ``specs``."""
    results = agents.play_deals(game, specs, seeds, time_limit=config.time_limit)
    return [{"deal_index": unit, **deal_row(result)} for unit, result in enumerate(results, start)]


def _match_rows(config, game, specs, start: int, seeds: list[int]) -> list[dict]:
    """The rows of matches ``start, start + 1, ...`` with ``seeds``: one per deal played."""
    rows = []
    for unit, seed in enumerate(seeds, start):
        match = agents.play_match(game, specs, seed, time_limit=config.time_limit)
        rows += [
            {"deal_index": unit, **deal_row(result), **match_columns(match, number)}
            for number, result in enumerate(match.deals, 1)
        ]
    return rows


def match_columns(match: agents.MatchResult, number: int) -> dict:
    """The match columns (``MATCH_COLUMNS``, ``MATCH_SEAT_COLUMNS``) of deal ``number`` (1 is
    the first) of ``match``. Its ``scores`` are one per team (seats 0 and 2, 1 and 3) or one
    per seat, so seat ``k``'s points go to score ``k % len(scores)``."""
    seats = len(match.deals[0].scores)
    owners = [seat % len(match.scores) for seat in range(seats)]
    last = number == len(match.deals)
    row = {
        "match_seed": match.seed,
        "match_deal": number,
        "match_winners": sum(1 << s for s in range(seats) if last and owners[s] == match.winner),
    }
    for seat in range(seats):
        row |= {
            f"match_score_{seat}": match.scores[owners[seat]] if last else 0,
            f"match_side_{seat}": sum(1 << s for s in range(seats) if owners[s] == owners[seat]),
        }
    return row


def deal_row(result: agents.DealResult) -> dict:
    """The columns of a row that come from the deal played (all but the place and specs)."""
    row = {
        "deal_seed": result.seed,
        "dealer": result.dealer,
        "seats": len(result.scores),
        "winners": sum(1 << seat for seat in result.winners),
        "reason": result.reason,
        "closed_by": -1 if result.closed_by is None else result.closed_by,
        "tricks_played": result.tricks_played,
        "error": result.error,
        "error_seat": -1 if result.error_seat is None else result.error_seat,
        "engine": result.engine,
        "actors": [seat for seat, _ in result.history_ids],
        "actions": [action for _, action in result.history_ids],
    }
    for seat in range(len(result.scores)):
        row |= {
            f"score_{seat}": result.scores[seat],
            f"payoff_{seat}": result.payoffs[seat],
            f"card_points_{seat}": result.card_points[seat],
            f"side_{seat}": result.sides[seat],
            f"decisions_{seat}": result.decisions[seat],
            f"decision_seconds_{seat}": result.decision_seconds[seat],
        }
    return row


# ---- the run ---------------------------------------------------------------------------------


def run_table_tournament(
    config: TableTournamentConfig,
    out: str | os.PathLike,
    workers: int | None = None,
    scheduler: str | None = None,
    force: bool = False,
    quiet: bool = False,
) -> pd.DataFrame:
    """Play the table tournament ``config`` into the Parquet file ``out`` and return every row,
    sorted by lineup, deal and arrangement; parameters, resuming and interruption as
    ``tournament.run_tournament``."""
    done = functools.partial(done_units, group="lineup")
    table = run_schedule(config, out, play_batch, workers, scheduler, force, quiet, done)
    return table.to_pandas()


def is_table_results(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a Parquet file holding a table tournament's results."""
    try:
        config = stored_config(path)
    except (pa.ArrowInvalid, OSError):
        return False
    return config is not None and config.get("kind") == TABLE_KIND


def _check_table_results(path: str | os.PathLike) -> None:
    """``ValueError`` naming what ``path`` is, unless it holds a table tournament's results."""
    if not is_table_results(path):
        stored_tournament_config(path)  # names what the file is, if no tournament's results
        raise ValueError(
            f"{path} holds a two-player tournament's results, not a table tournament's; "
            "read it with tournament.read_results"
        )


def read_table_results(path: str | os.PathLike) -> pd.DataFrame:
    """The rows of a table tournament's results file (read without rebuilding its
    configuration, so its agents' modules need not be importable)."""
    _check_table_results(path)
    return pq.read_table(path).to_pandas()


# ---- replaying a row -------------------------------------------------------------------------

#: Columns a replay does not compare: measured times and the path taken.
UNCOMPARED = ("decision_seconds", "engine")


def replay_table_row(path: str | os.PathLike, row: int) -> Replay:
    """Re-play row ``row`` (0 is the first) of the table tournament's results file ``path``
    from its stored configuration and seed (of a match tournament: the row's match, to its
    deal): every hand and the talon at each trick, each seat's actions with its spec, and how
    the replay differs from the row."""
    _check_table_results(path)
    config = TableTournamentConfig.from_dict(stored_config(path))
    stored = stored_row(path, row)
    game = config.game()
    specs = tuple(stored[f"spec_{seat}"] for seat in range(game.num_players))
    seated = ", ".join(f"P{seat} {spec}" for seat, spec in enumerate(specs))
    lines = [
        f"row {row} of {path}: tournament {config.tournament_id} ({config.preset}, "
        f"{config.units} {config.mode}, seed {config.seed})",
        f"lineup {stored['lineup']} ({stored['lineup_name']}), {config.unit} "
        f"{stored['deal_index']}, arrangement {stored['arrangement']}: {seated}",
    ]
    result, match = replayed_deal(config, game, specs, stored, lines)
    if result is None:
        return Replay("\n".join(lines), [lines[-1]])
    replayed = deal_row(result)
    if match is not None:
        replayed |= match_columns(match, stored["match_deal"])
    lines += _play_text(game, result, specs)
    compared = {name: value for name, value in replayed.items() if not name.startswith(UNCOMPARED)}
    return replay_report(lines, stored, compared, row)


def _play_text(game: TableGame, result: agents.DealResult, specs: tuple[str, ...]) -> list[str]:
    """The deal of ``result`` action by action: every hand and the talon at the start of each
    trick (after the draws, so that every card played was in a hand shown), each action with
    its seat, spec and the card points after it, and the outcome."""
    state = game.new_deal(seed=result.seed, dealer=result.dealer)
    face_up = f", face-up {state.face_up_at_deal}" if state.face_up_at_deal else ""
    lines = [f"deal seed {result.seed}, dealer P{state.dealer}{face_up}"]
    spec_width = max(map(len, specs))
    action_width = max((len(action) for _, action in result.actions), default=0)
    shown = -1  # the trick whose hands are shown
    for seat, action in result.actions:
        if state.tricks_played != shown:
            shown = state.tricks_played
            lines += _hands_text(state)
        state.apply(action)
        points = "-".join(map(str, state.card_points))
        lines.append(
            f"    P{seat} {specs[seat]:<{spec_width}}  {action:<{action_width}}  points {points}"
        )
    if result.error is not None:
        lines.append(f"  {result.error}: a forfeit")
    winners = ", ".join(f"P{seat}" for seat in result.winners)
    ending = f"{winners} win" if winners else "no winner"
    lines.append(
        f"  -> {ending} ({result.reason}); scores {list(result.scores)}, payoffs "
        f"{list(result.payoffs)}, card points {list(result.card_points)}, "
        f"{result.tricks_played} tricks"
    )
    return lines


def _hands_text(state) -> list[str]:
    """The trick about to start, the trump, the talon (top first) and every hand."""
    talon = f"talon {' '.join(state.talon)}" if state.talon else "talon empty"
    notes = [
        f"trump {state.trump_suit or 'not set'}",
        talon,
        f"called {state.called_card}" if state.called_card else "",
        f"closed by P{state.closed_by}" if state.closed_by is not None else "",
        f"P{state.sitting_out} sits out" if state.sitting_out is not None else "",
    ]
    hands = [f"      P{seat} hand {' '.join(hand)}" for seat, hand in enumerate(state.hands)]
    return [f"  trick {state.tricks_played + 1}: {'; '.join(filter(None, notes))}", *hands]
