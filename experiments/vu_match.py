"""Matches inside the VU engine (PyPI ``schnapsen``, the ``vu_schnapsen`` rules): sixtysix
agents against one of VU's bots, by default ``RdeepBot``, the outside yardstick of issue 22.

The rivals (``RIVALS``): ``rdeep`` is ``RdeepBot(samples, depth)``, which values each of its
moves by ``samples`` random worlds, each played on by random moves for ``depth`` tricks, and
plays the move of the best share of the card points then; ``rdeep-alphabeta`` is the same
until the talon is closed or exhausted and VU's exact ``AlphaBetaBot`` after (the delegation
that VU's documentation of ``AlphaBetaBot`` describes); ``bully`` is VU's ``BullyBot`` (a
random trump if it holds one, else a card of the suit led, else one of its highest cards) and
``rand`` its ``RandBot``.

Each deal is VU's own shuffle of its seed (``vu_bridge.seeded_deck``) and is played twice,
the agent as VU's ``bot1`` (who leads the first trick) and as ``bot2``: a duplicate pair. VU's
unmodified engine runs the game; the agent plays on our ``vu_schnapsen`` state, kept in step
with VU's moves (dealer 1, so player 0 is ``bot1``; the differential test checks that the two
engines agree on every legal move), and sees only its view (a cheating reference such as
``open-hand``, allowed only with ``allow_cheating``, gets the state). At the end of each deal
our outcome must equal VU's, else the run fails naming the deal.

Seeds: deal ``index`` of a run of ``seed`` has the tournaments' seed ``unit_seed(seed,
index)`` (recorded in each row); the agent and the rival's ``random.Random`` are seeded with
``unit_seed(deal_seed, agent_player)``. Rows are one per agent, deal and seating; times are
wall-clock seconds per decision of each side, every decision counted (forced ones too), after
one untimed deal of the agent in each process; ``samples`` and ``depth`` are recorded for
every rival but used only by the ``rdeep`` ones. The runs are the tournaments'
(``tournament.run_schedule``): batches on a process pool, resumable ``ResultStore`` files,
and SIGTERM or a failed batch ending them with what was played saved.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import time
from pathlib import Path
from typing import ClassVar

import matplotlib.pyplot as plt
import pandas as pd
import pyarrow as pa

import sixtysix
from sixtysix import agents
from sixtysix.engine.checks import check_integer, check_seed

from .batch_backends import TournamentError
from .store import VU_MATCH_KIND, Configuration
from .tournament import Batch, canonical_specs, refuse_cheating, run_schedule, unit_seed
from .tournament_plots import save_png
from .tournament_summary import group_intervals, plus_minus

PRESET = "vu_schnapsen"
DEALER = 1  # player 0 is VU's bot1, who leads the first trick
DEFAULT_SAMPLES, DEFAULT_DEPTH = 16, 4  # RdeepBot(16, 4), as issue 22 measured
RIVALS = ("rdeep", "rdeep-alphabeta", "bully", "rand")
COLUMNS = {
    "agent": pa.string(),
    "index": pa.int64(),
    "deal_seed": pa.uint64(),
    "agent_player": pa.int64(),
    "won": pa.bool_(),
    "game_points": pa.int64(),
    "agent_seconds": pa.list_(pa.float64()),
    "rival_seconds": pa.list_(pa.float64()),
}


@dataclasses.dataclass(frozen=True)
class VUMatchConfig(Configuration):
    """Each of ``agents`` against the VU bot ``rival`` (one of ``RIVALS``) on ``deals``
    duplicate pairs; for ``tournament.run_schedule``, one 'pairing' per agent, whose units are
    its deals."""

    keys: ClassVar[list[str]] = ["agent", "index", "agent_player"]
    seatings: ClassVar[int] = 2
    mode: ClassVar[str] = "deals"
    unit_name: ClassVar[str] = "deal"

    agents: tuple[str, ...]
    deals: int
    seed: int
    samples: int = DEFAULT_SAMPLES
    depth: int = DEFAULT_DEPTH
    rival: str = RIVALS[0]
    allow_cheating: bool = dataclasses.field(default=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("deals", "samples", "depth"):
            check_integer(getattr(self, name), name, 1)
        if self.rival not in RIVALS:
            raise ValueError(f"rival {self.rival!r}: valid are {', '.join(RIVALS)}")
        canonical = canonical_specs(self.agents, 1, "a VU match")
        if not self.allow_cheating:
            refuse_cheating(canonical)
        object.__setattr__(self, "agents", canonical)
        object.__setattr__(self, "seed", check_seed(self.seed))

    @property
    def rival_name(self) -> str:
        """The rival as the tables and plots name it, e.g. ``RdeepBot(16, 4)``."""
        rdeep = f"RdeepBot({self.samples}, {self.depth})"
        return {
            "rdeep": rdeep,
            "rdeep-alphabeta": f"{rdeep} + AlphaBetaBot",
            "bully": "BullyBot",
            "rand": "RandBot",
        }[self.rival]

    def as_dict(self) -> dict:
        fields = dataclasses.asdict(self)
        del fields["allow_cheating"]
        return {"kind": VU_MATCH_KIND, **fields, "agents": list(self.agents)}

    @property
    def pairings(self) -> list[tuple[str]]:
        return [(spec,) for spec in self.agents]

    @property
    def units(self) -> int:
        return self.deals

    def done(self, table: pa.Table | None) -> set[tuple[int, int]]:
        """The ``(agent number, deal)`` pairs that ``table`` holds (a batch is saved whole)."""
        if table is None:
            return set()
        number = {spec: index for index, spec in enumerate(self.agents)}
        rows = zip(table["agent"].to_pylist(), table["index"].to_pylist(), strict=True)
        return {(number[spec], index) for spec, index in rows}


def _vu():
    """``vu_bridge``, or a clear error where the ``schnapsen`` package is missing."""
    try:
        from . import vu_bridge
    except ImportError as error:
        raise TournamentError(
            f"the VU match needs the PyPI package schnapsen==0.0.5 ({error}): "
            "pip install -e '.[dev]'"
        ) from None
    return vu_bridge


def rival_bot(config: VUMatchConfig, rand: random.Random):
    """A new VU bot of ``config.rival``, drawing its random choices from ``rand``."""
    from schnapsen.bots import AlphaBetaBot, BullyBot, RandBot, RdeepBot

    if config.rival == "bully":
        return BullyBot(rand)
    if config.rival == "rand":
        return RandBot(rand)
    rdeep = RdeepBot(config.samples, config.depth, rand)
    return rdeep if config.rival == "rdeep" else ExactAfterTalon(rdeep, AlphaBetaBot())


class ExactAfterTalon:
    """``first`` while the talon is open, ``exact`` (which needs a closed or exhausted talon,
    VU's phase two) after."""

    def __init__(self, first, exact) -> None:
        self.first = first
        self.exact = exact

    def get_move(self, perspective, leader_move):
        from schnapsen.game import GamePhase

        open_talon = perspective.get_phase() != GamePhase.TWO
        return (self.first if open_talon else self.exact).get_move(perspective, leader_move)


class _Lockstep:
    """Our agent at one seat of a VU game: it applies the moves VU played since its last
    turn to our state, then asks the agent about its own view."""

    def __init__(self, state, agent, player: int, history: list[str]) -> None:
        self.state = state
        self.agent = agent
        self.player = player
        self.history = history
        self.applied = 0
        self.seconds: list[float] = []

    def catch_up(self) -> None:
        for action in self.history[self.applied :]:
            self.state.apply(action)
        self.applied = len(self.history)

    def choose(self, view, legal: list[str]) -> str:
        """The agent's action (a ``vu_bridge`` chooser: VU's ``view`` and ``legal`` moves are
        not shown to the agent)."""
        self.catch_up()
        started = time.perf_counter()
        if getattr(self.agent, "cheating", False):
            action = self.agent.act_on_state(self.state.clone())
        else:
            action = self.agent.act(self.state.view(self.player))
        self.seconds.append(time.perf_counter() - started)
        return action


class _TimedBot:
    """A VU bot whose time per move is recorded."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.seconds: list[float] = []

    def get_move(self, perspective, leader_move):
        started = time.perf_counter()
        move = self.bot.get_move(perspective, leader_move)
        self.seconds.append(time.perf_counter() - started)
        return move


def play_deal(config: VUMatchConfig, spec: str, index: int, agent_player: int) -> dict:
    """One deal of ``spec`` against the rival, the agent as VU's player ``agent_player``."""
    vu_bridge = _vu()
    seed = unit_seed(config.seed, index)
    seat_seed = unit_seed(seed, agent_player)
    history: list[str] = []
    deck = vu_bridge.seeded_deck(seed)[0]
    state = sixtysix.Game(PRESET).new_deal(deck=deck, dealer=DEALER)
    ours = _Lockstep(state, agents.make(spec, seat_seed), agent_player, history)
    rival = _TimedBot(rival_bot(config, random.Random(seat_seed)))
    result = vu_bridge.play_vu(deck, ours.choose, {1 - agent_player: rival}, history)
    ours.catch_up()
    winner, game_points, _ = ours.state.outcome
    if (winner, game_points) != (result.winner, result.game_points):
        raise RuntimeError(
            f"deal {index} (seed {seed}): VU's outcome (winner, game points) "
            f"{(result.winner, result.game_points)} differs from ours {(winner, game_points)}"
        )
    won = winner == agent_player
    return {
        "agent": spec,
        "index": index,
        "deal_seed": seed,
        "agent_player": agent_player,
        "won": won,
        "game_points": game_points if won else -game_points,
        "agent_seconds": ours.seconds,
        "rival_seconds": rival.seconds,
    }


def play_batch(config_json: str, batch: Batch) -> pa.Table:
    """The rows of the deals ``batch.start .. batch.stop - 1`` of agent ``batch.pairing``, in
    both seatings (the ``Work`` of ``batch_backends``)."""
    config = _config_of(config_json)
    spec = config.agents[batch.pairing]
    _warm_up(spec)
    rows = [
        play_deal(config, spec, index, player)
        for index in range(batch.start, batch.stop)
        for player in (0, 1)
    ]
    return pa.Table.from_pylist(rows, schema=pa.schema(COLUMNS))


@functools.cache
def _warm_up(spec: str) -> None:
    """One untimed deal of ``spec`` against itself, once per process, so that no timed
    decision pays for compiling or loading its kernels (every phase of a deal is played)."""
    agents.play_deal(sixtysix.Game(PRESET), (spec, spec), seed=0)


@functools.lru_cache(maxsize=4)
def _config_of(config_json: str) -> VUMatchConfig:
    """The configuration of a batch, checked once per process."""
    stored = json.loads(config_json)
    stored.pop("kind")
    return VUMatchConfig(**{**stored, "agents": tuple(stored["agents"]), "allow_cheating": True})


def run_vu_match(
    config: VUMatchConfig, out: str | Path, workers: int, force: bool = False, quiet: bool = False
) -> pd.DataFrame:
    """Play the match into ``out`` (resuming what is there; the tournaments' runner,
    ``tournament.run_schedule``) and return its rows."""
    _vu()
    return run_schedule(
        config, out, play_batch, workers, None, force, quiet, config.done
    ).to_pandas()


def summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per agent: deals and duplicate pairs played, the share of deals won and the game points
    per deal with 95% t intervals over the pairs, and the median and mean seconds per decision
    of the agent and of the rival, with the agent's over the rival's (``time_ratio``)."""
    pairs = results.groupby(["agent", "index"])[["won", "game_points"]].mean()
    names = {"won": "win_share", "game_points": "points"}
    table = group_intervals(pairs.astype(float), ["agent"], names, count="pairs")
    table.insert(0, "deals", results.groupby("agent").size())
    for side in ("agent", "rival"):
        seconds = results.explode(f"{side}_seconds").groupby("agent")[f"{side}_seconds"]
        table[f"{side}_median_ms"] = 1000 * seconds.median().astype(float)
        table[f"{side}_mean_ms"] = 1000 * seconds.mean().astype(float)
    table["time_ratio"] = table["agent_median_ms"] / table["rival_median_ms"]
    return table


def shown(table: pd.DataFrame, rival: str) -> pd.DataFrame:
    """``summary``'s table as printed, the rival's columns labelled ``rival``: intervals as
    ``mean ± half-width``."""
    columns = {
        "deals": table["deals"],
        "win share": plus_minus(table, "win_share", 3),
        "game points/deal": plus_minus(table, "points", 2),
    }
    for side, label in (("agent", "agent"), ("rival", rival)):
        medians, means = table[f"{side}_median_ms"], table[f"{side}_mean_ms"]
        columns[f"{label} ms/decision: median, mean"] = [
            f"{median:.1f}, {mean:.1f}" for median, mean in zip(medians, means, strict=True)
        ]
    columns["time ratio (medians)"] = table["time_ratio"].round(2)
    return pd.DataFrame(columns, index=table.index)


def plot_win_shares(table: pd.DataFrame, title: str, path: Path) -> None:
    """Each agent's share of deals won against the rival, with its 95% interval, as a PNG."""
    figure, axes = plt.subplots(figsize=(7, 0.6 * len(table) + 1.2))
    low = table["win_share"] - table["win_share_low"]
    high = table["win_share_high"] - table["win_share"]
    axes.errorbar(table["win_share"], range(len(table)), xerr=[low, high], fmt="o", capsize=4)
    axes.axvline(0.5, color="grey", linewidth=0.8)
    axes.set_yticks(range(len(table)), table.index)
    axes.set_xlabel("share of deals won (95% interval over duplicate pairs)")
    axes.set_title(title)
    save_png(figure, path)
    plt.close(figure)
