"""The close-the-talon study's positions: harvested from play, read back and rebuilt.

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

**Reading** (``read_positions``, ``position_state``): any Parquet file with
``REQUIRED_COLUMNS`` is a positions file (a harvest, or one made by hand); a row rebuilds
its state by replay. The harvest is resumable, atomic and parallel like a tournament
(``tournament.run_schedule``); ``closing_evaluation`` values the positions.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sixtysix import agents
from sixtysix.engine.actions import action_name
from sixtysix.engine.cards import mask_to_names
from sixtysix.engine.checks import check_integer, check_seed
from sixtysix.engine.multi_core import A_CLOSE
from sixtysix.engine.rules import MINI_PRESETS, PRESETS, make_rules
from sixtysix.facts import PHASE_NAMES
from sixtysix.game import Game, State

from .store import HARVEST_KIND, Configuration, canonical_json, is_complete, stored_config
from .tournament import (
    Batch,
    canonical_overrides,
    canonical_specs,
    done_units,
    refuse_cheating,
    run_schedule,
    unit_seed,
)

DEFAULT_HARVEST_DEALS = 10

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


def refuse_rules_without_closing(preset: str, overrides: dict) -> None:
    """A ValueError where closing is never legal: a harvest would find nothing."""
    if make_rules(preset, **overrides).closing_allowed:
        return
    if "closing_allowed" in overrides:
        raise ValueError(
            "invalid rule closing_allowed=false: closing is never legal, so there is nothing "
            "to harvest"
        )
    allowing = [name for name in (*PRESETS, *MINI_PRESETS) if make_rules(name).closing_allowed]
    raise ValueError(
        f"invalid preset {preset!r}: closing is never legal in it (closing_allowed=False), "
        f"so there is nothing to harvest; presets that allow closing: {', '.join(allowing)}"
    )


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
        refuse_rules_without_closing(self.preset, self.overrides)

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
        if A_CLOSE in state.legal_action_ids():
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
                "closed": action == A_CLOSE,
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
    if A_CLOSE not in state.legal_action_ids():
        raise ValueError(f"closing is not legal in the position: {state!r}")
    return state
