"""External-sampling MCCFR over the abstraction of ``sixtysix.theory.abstraction``, and the trained
strategy as a policy.

Each iteration deals one deck (shuffled from the run's xoshiro256** stream, dealer
``iteration % 2``) and traverses it once for each player. The *traverser* tries every legal
abstract action at his decisions and updates their regrets; at the opponent's decisions one
action is sampled from the current regret-matching strategy, which is added to that
information set's strategy sum (external sampling, Lanctot et al. 2009). Both updates of
iteration ``t`` (from 0) are weighted by ``t + 1``: linear CFR (Brown and Sandholm 2019),
which forgets the poor early strategies faster than uniform weights. Chance is sampled
once per traversal: the whole deck, talon order included. A decision with a single abstract
action is played without a table entry. External rather than outcome sampling: outcome
sampling's importance weights multiply over the ~12 decisions of a player in a deal, so its
regret estimates are very noisy; external sampling's are not, at the price of more nodes per
iteration, which negative-regret pruning (``PRUNE_SHARE``) cuts down.

Regrets and strategy sums live in an open-addressing hash table (linear probing) keyed by
``abstract_key``, of a ``capacity`` (a power of two) fixed when a run starts; it counts as
full at 7/8 load, which ends training with ``TableFullError``.

``train`` runs, checkpoints and resumes a run in a folder; ``AbstractStrategy`` loads the
strategy file it writes and plays it (``policy(view)``). docs/abstraction.md has the details.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np
from numba import njit
from tqdm import tqdm

from ..engine import multi_core, rng
from ..engine.actions import action_name
from ..engine.bits import popcount, trailing_zeros
from ..engine.checks import check_integer, check_seed
from ..engine.heuristic import heuristic_action
from ..engine.rules import MINI_PRESETS, PRESETS, compile_rules, make_rules, rules_text
from ..engine.solver import signed_outcome
from .abstraction import (
    ABSTRACT_ACTION_NAMES,
    ABSTRACTION_VERSION,
    NUM_ABSTRACT_ACTIONS,
    abstract_actions,
    abstract_key,
    abstract_node_array,
    key_mask,
)

ALGORITHM = "external-sampling MCCFR, linear weighting, negative-regret pruning"
DEFAULT_CAPACITY = 1 << 18
CHECKPOINT_NAME = "checkpoint.npz"
STRATEGY_NAME = "strategy.npz"
MAX_DEPTH = 128  # decisions in one deal: far above any legal deal's count
EMPTY = -1  # the key of a free table slot (abstract keys are non-negative)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_UNIT = 1 << 30  # resolution of a uniform draw in [0, 1)
#: Negative-regret pruning (as in Pluribus): from iteration ``prune_after`` on, a share
#: ``PRUNE_SHARE`` of the traversals skip the traverser's actions whose regret is below
#: ``PRUNE_REGRET`` game points a weighted iteration (they have no probability in the
#: current strategy).
PRUNE_SHARE = 0.95
PRUNE_REGRET = -100.0
#: Iterations per kernel call: a progress step (the results do not depend on it).
CHUNK = 16


_CHECKPOINT_ARRAYS = ("iterations", "stream", "slots", "keys", "regrets", "sums")


class TableFullError(RuntimeError):
    """The regret table reached its load limit: train again with a larger capacity."""


# ---- the hash table -------------------------------------------------------------------


@njit(cache=True, inline="always")
def _slot(keys, used, key):
    """The slot of ``key``, inserted if new; -1 when the table is at its load limit."""
    capacity = len(keys)
    slot = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(32)) & (capacity - 1)
    while keys[slot] != key:
        if keys[slot] == EMPTY:
            if used[0] >= capacity - capacity // 8:
                return -1
            keys[slot] = key
            used[0] += 1
            return slot
        slot = (slot + 1) & (capacity - 1)
    return slot


@njit(cache=True)
def lookup_slots(keys, queries, out):
    """``out[i]``: the slot of ``queries[i]`` in the table ``keys``, -1 if absent."""
    capacity = len(keys)
    for i in range(len(queries)):
        key = queries[i]
        slot = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(32)) & (capacity - 1)
        while keys[slot] != key and keys[slot] != EMPTY:
            slot = (slot + 1) & (capacity - 1)
        out[i] = slot if keys[slot] == key else -1


# ---- the traversal --------------------------------------------------------------------


@njit(cache=True, inline="always")
def _regret_matching(regrets, mask, out):
    """The regret-matching strategy over the abstract actions of ``mask`` into ``out``."""
    positive = 0.0
    for action in range(NUM_ABSTRACT_ACTIONS):
        out[action] = max(regrets[action], 0.0) if mask >> action & 1 else 0.0
        positive += out[action]
    if positive > 0.0:
        for action in range(NUM_ABSTRACT_ACTIONS):
            out[action] /= positive
    else:
        share = 1.0 / popcount(mask)
        for action in range(NUM_ABSTRACT_ACTIONS):
            out[action] = share if mask >> action & 1 else 0.0


@njit(cache=True, inline="always")
def _draw_unit(stream):
    """A uniform number in [0, 1) from ``stream`` (four uint64 words, advanced in place)."""
    generator, value = rng.random_below((stream[0], stream[1], stream[2], stream[3]), _UNIT)
    stream[0], stream[1], stream[2], stream[3] = generator
    return value / _UNIT


@njit(cache=True, inline="always")
def _sample(strategy, mask, unit):
    """The abstract action of ``mask`` where the cumulative ``strategy`` passes ``unit``."""
    rest = mask
    action = trailing_zeros(rest)
    cumulative = 0.0
    while rest:
        action = trailing_zeros(rest)
        rest &= rest - 1
        cumulative += strategy[action]
        if unit < cumulative:
            break
    return action


@njit(cache=True, inline="always")
def _descend(work, rules, depth, frame, action):
    """Record ``frame`` (slot or -1, abstract actions left, abstract action, explored) at
    ``depth`` and play the abstract action into the state one deeper (with the public
    knowledge of the hands, which the abstraction reads, as in real play)."""
    states, actions, _, _, frames = work
    frames[depth, 0], frames[depth, 1], frames[depth, 2], frames[depth, 3] = frame
    states[depth + 1] = states[depth]
    multi_core.apply_with_knowledge(states[depth + 1], rules, actions[depth, action])


@njit(cache=True)
def _traverse(traverser, weight, prune, rules, work, table, stream):
    """The sampled counterfactual value for ``traverser`` of the deal in ``work``'s
    ``states[0]`` (game points), adding ``weight`` times the sampled regrets at his decisions
    and ``weight`` times the current strategy to the strategy sums at his opponent's.
    ``work`` holds per-depth buffers (states, concrete actions, strategies, action values,
    frames), ``table`` the hash table (keys, regrets, strategy sums, ``[used slots, full
    flag]``). Iterative: numba cannot cache a recursive function."""
    keys, regrets, sums, used = table
    states, actions, strategies, values, frames = work
    depth = 0
    entering = True  # entering states[depth], else returning ``result`` from it
    result = 0.0
    while True:
        if entering:
            state = states[depth]
            if state.phase == multi_core.OVER:
                outcome = signed_outcome(state)
                result = float(outcome if traverser == 0 else -outcome)
                entering = False
                continue
            mask = abstract_actions(state, rules, actions[depth])
            if mask & (mask - 1) == 0:  # one abstract action: no decision to learn
                _descend(work, rules, depth, (-1, 0, trailing_zeros(mask), 0), trailing_zeros(mask))
                depth += 1
                continue
            player = state.to_move
            slot = _slot(keys, used, abstract_key(state, rules, player, mask))
            if slot < 0:
                used[1] = 1  # the table is full
                return 0.0
            strategy = strategies[depth]
            _regret_matching(regrets[slot], mask, strategy)
            if player != traverser:
                for action in range(NUM_ABSTRACT_ACTIONS):
                    sums[slot, action] += weight * strategy[action]
                action = _sample(strategy, mask, _draw_unit(stream))
                _descend(work, rules, depth, (-1, 0, action, 0), action)
                depth += 1
                continue
            explored = mask
            if prune:
                for action in range(NUM_ABSTRACT_ACTIONS):
                    if regrets[slot, action] < PRUNE_REGRET * weight:
                        explored &= ~(np.int64(1) << action)
                if explored == 0:
                    explored = mask
            action = trailing_zeros(explored)
            _descend(
                work, rules, depth, (slot, explored & (explored - 1), action, explored), action
            )
            depth += 1
            continue
        if depth == 0:
            return result
        depth -= 1
        slot, left, action, explored = frames[depth]
        if slot < 0:  # a forced or sampled action: its value is the node's
            continue
        values[depth, action] = result
        if left:
            action = trailing_zeros(left)
            _descend(work, rules, depth, (slot, left & (left - 1), action, explored), action)
            depth += 1
            entering = True
            continue
        strategy = strategies[depth]
        result = 0.0
        rest = explored
        while rest:
            action = trailing_zeros(rest)
            rest &= rest - 1
            result += strategy[action] * values[depth, action]
        rest = explored
        while rest:
            action = trailing_zeros(rest)
            rest &= rest - 1
            regrets[slot, action] += weight * (values[depth, action] - result)


@njit(cache=True)
def run_iterations(rules_array, keys, regrets, sums, used, stream, start, stop, prune_after):
    """Iterations ``start .. stop - 1``; returns the number of iterations completed in all,
    ``stop`` unless the table filled up (then ``used[1]`` is 1)."""
    rules = rules_array[0]
    states = np.zeros(MAX_DEPTH + 1, dtype=multi_core.TWO_PLAYER_STATE_DTYPE)
    actions = np.zeros((MAX_DEPTH, NUM_ABSTRACT_ACTIONS), dtype=np.int64)
    strategies = np.zeros((MAX_DEPTH, NUM_ABSTRACT_ACTIONS), dtype=np.float64)
    values = np.zeros((MAX_DEPTH, NUM_ABSTRACT_ACTIONS), dtype=np.float64)
    sorted_deck = multi_core.sorted_deck(rules)
    deck = np.empty_like(sorted_deck)
    frames = np.zeros((MAX_DEPTH, 4), dtype=np.int64)
    table = (keys, regrets, sums, used)
    work = (states, actions, strategies, values, frames)
    for iteration in range(start, stop):
        for traverser in range(2):
            deck[:] = sorted_deck
            generator = (stream[0], stream[1], stream[2], stream[3])
            generator, _ = rng.shuffle_and_cut(deck, generator)  # the cut's dealer is not used
            stream[0], stream[1], stream[2], stream[3] = generator
            multi_core.deal(states[0], rules, deck, iteration % 2)
            prune = iteration >= prune_after and _draw_unit(stream) < PRUNE_SHARE
            _traverse(traverser, iteration + 1.0, prune, rules, work, table, stream)
            if used[1]:
                return iteration
    return stop


@njit(cache=True)
def _start_stream(stream, seed):
    """Start ``stream`` (four uint64 words) from an integer seed."""
    stream[0], stream[1], stream[2], stream[3] = rng.seed_rng(seed)


# ---- runs: configuration, checkpoints, strategy files -----------------------------------


def run_config(preset: str, seed: int, capacity: int, prune_after: int) -> dict:
    """The configuration of a run: everything its results depend on, iterations aside."""
    if not isinstance(preset, str) or preset not in {**PRESETS, **MINI_PRESETS}:
        valid = ", ".join([*PRESETS, *MINI_PRESETS])
        raise ValueError(f"unknown preset {preset!r}: valid presets are {valid}")
    capacity = check_integer(capacity, "capacity", 1 << 10, 1 << 31)
    if capacity & (capacity - 1):
        raise ValueError(f"invalid capacity {capacity}: capacity must be a power of two")
    return {
        "algorithm": ALGORITHM,
        "abstraction_version": ABSTRACTION_VERSION,
        "preset": preset,
        "rules": rules_text(make_rules(preset)),
        "seed": check_seed(seed),
        "capacity": capacity,
        "prune_after": check_integer(prune_after, "prune_after", 0),
        "prune_share": PRUNE_SHARE,
        "prune_regret": PRUNE_REGRET,
    }


class Table:
    """A run's state: the hash table (keys, regrets, strategy sums, used slots), the random
    stream and the iterations done."""

    def __init__(self, config: dict) -> None:
        capacity = config["capacity"]
        self.config = config
        self.keys = np.full(capacity, EMPTY, dtype=np.int64)
        self.regrets = np.zeros((capacity, NUM_ABSTRACT_ACTIONS))
        self.sums = np.zeros((capacity, NUM_ABSTRACT_ACTIONS))
        self.used = np.zeros(2, dtype=np.int64)  # [slots used, table full]
        self.stream = np.zeros(4, dtype=np.uint64)
        _start_stream(self.stream, np.uint64(config["seed"]))
        self.iterations = 0
        self.rule_array = compile_rules(make_rules(config["preset"]))

    def run(self, stop: int) -> None:
        """Iterate up to ``stop`` iterations in all; ``TableFullError`` if the table fills."""
        done = run_iterations(
            self.rule_array,
            self.keys,
            self.regrets,
            self.sums,
            self.used,
            self.stream,
            self.iterations,
            stop,
            self.config["prune_after"],
        )
        if self.used[1]:
            raise TableFullError(
                f"the table of capacity {len(self.keys)} filled up ({self.used[0]} keys) in "
                f"iteration {done}: train again from the start with a larger --capacity (a "
                "power of two; the capacity is part of the run's configuration: a new --out)"
            )
        self.iterations = done

    def save_checkpoint(self, path: Path) -> None:
        """Write the used slots, the stream, the iterations and the configuration."""
        slots = np.flatnonzero(self.keys != EMPTY)
        _save_atomically(
            path,
            config=np.array(json.dumps(self.config)),
            iterations=np.array(self.iterations),
            stream=self.stream,
            slots=slots,
            keys=self.keys[slots],
            regrets=self.regrets[slots],
            sums=self.sums[slots],
        )

    @classmethod
    def load_checkpoint(cls, path: Path, config: dict) -> Table:
        """The run saved at ``path``, if its configuration is ``config`` (else ValueError)."""
        try:
            with np.load(path, allow_pickle=False) as saved:
                stored = json.loads(str(saved["config"]))
                arrays = {name: saved[name] for name in _CHECKPOINT_ARRAYS}
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(
                f"unreadable checkpoint {path} ({error}): delete it to start afresh"
            ) from None
        differences = [
            f"{name} {stored.get(name)!r} (asked: {config[name]!r})"
            for name in config
            if stored.get(name) != config[name]
        ]
        if differences:
            raise ValueError(
                f"the checkpoint {path} belongs to another configuration: "
                + ", ".join(differences)
                + "; use another output folder or the checkpoint's configuration"
            )
        table = cls(config)
        slots = arrays["slots"]
        table.keys[slots] = arrays["keys"]
        table.regrets[slots] = arrays["regrets"]
        table.sums[slots] = arrays["sums"]
        table.used[0] = len(slots)
        table.stream[:] = arrays["stream"]
        table.iterations = int(arrays["iterations"])
        return table

    def average_strategy(self) -> tuple[np.ndarray, np.ndarray]:
        """``(keys, probabilities)``: every key in the table, ascending, with its average
        strategy (float32 rows over the abstract actions); a key with no strategy sum yet
        (reached only at the traverser's own decisions) gets its current regret-matching
        strategy."""
        slots = np.flatnonzero(self.keys != EMPTY)
        slots = slots[np.argsort(self.keys[slots])]
        keys = self.keys[slots]
        legal = (key_mask(keys)[:, None] >> np.arange(NUM_ABSTRACT_ACTIONS)) & 1
        sums = self.sums[slots]
        positive = np.maximum(self.regrets[slots], 0.0) * legal
        unvisited = sums.sum(axis=1) == 0
        sums[unvisited] = np.where(
            positive[unvisited].sum(axis=1, keepdims=True) > 0,
            positive[unvisited],
            legal[unvisited],
        )
        probabilities = sums / sums.sum(axis=1, keepdims=True)
        return keys, probabilities.astype(np.float32)

    def save_strategy(self, path: Path) -> None:
        """Write the average strategy file that ``AbstractStrategy.load`` reads."""
        keys, probabilities = self.average_strategy()
        _save_atomically(
            path,
            config=np.array(json.dumps(self.config)),
            iterations=np.array(self.iterations),
            abstract_actions=np.array(ABSTRACT_ACTION_NAMES),
            keys=keys,
            probabilities=probabilities,
        )


def _save_atomically(path: Path, **arrays) -> None:
    """``numpy.savez_compressed`` to a temporary file beside ``path``, then a rename."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            np.savez_compressed(file, **arrays)
        os.chmod(temporary, 0o644)  # mkstemp makes it private
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def train(
    preset: str = "sixty_six",
    *,
    iterations: int,
    out: str | os.PathLike,
    seed: int = 0,
    checkpoint_every: int = 10_000,
    capacity: int = DEFAULT_CAPACITY,
    prune_after: int = 1_000,
    progress: bool = True,
) -> Path:
    """Train (or resume, from ``out/checkpoint.npz``) to ``iterations`` iterations; write
    checkpoints every ``checkpoint_every`` iterations and at the end, and the average
    strategy to ``out/strategy.npz``, whose path it returns."""
    config = run_config(preset, seed, capacity, prune_after)
    iterations = check_integer(iterations, "iterations", 1)
    checkpoint_every = check_integer(checkpoint_every, "checkpoint_every", 1)
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"invalid output folder {str(folder)!r}: it is a file")
    checkpoint = folder / CHECKPOINT_NAME
    if checkpoint.exists():
        table = Table.load_checkpoint(checkpoint, config)
        if table.iterations > iterations:
            raise ValueError(
                f"the checkpoint {checkpoint} has {table.iterations} iterations, more than "
                f"the {iterations} asked for: ask for at least {table.iterations}"
            )
    else:
        table = Table(config)
    folder.mkdir(parents=True, exist_ok=True)
    bar = tqdm(
        total=iterations,
        initial=table.iterations,
        desc=f"mccfr {preset}",
        unit="it",
        disable=not progress,
    )
    with bar:
        while table.iterations < iterations:
            next_checkpoint = (table.iterations // checkpoint_every + 1) * checkpoint_every
            before = table.iterations
            table.run(min(before + CHUNK, next_checkpoint, iterations))
            bar.update(table.iterations - before)
            bar.set_postfix(keys=int(table.used[0]), refresh=False)
            if table.iterations % checkpoint_every == 0 or table.iterations == iterations:
                table.save_checkpoint(checkpoint)
    strategy = folder / STRATEGY_NAME
    table.save_strategy(strategy)
    return strategy


# ---- playing a strategy -----------------------------------------------------------------


class AbstractStrategy:
    """A trained average strategy: ``policy(view)`` maps it to the view's legal actions.

    A decision with one abstract action plays it; a key the training never reached
    (``fallbacks`` counts them, ``lookups`` counts every table look-up, over every user of
    this object: the ``cfr`` agent shares one per file and process) plays the
    ``heuristic`` policy's action with probability 1.
    """

    def __init__(self, keys: np.ndarray, probabilities: np.ndarray, config: dict, iterations):
        self.keys = keys
        self.probabilities = probabilities
        self.config = config
        self.iterations = int(iterations)
        self.lookups = 0
        self.fallbacks = 0
        self._actions = np.zeros(NUM_ABSTRACT_ACTIONS, dtype=np.int64)

    @classmethod
    def load(cls, path: str | os.PathLike) -> AbstractStrategy:
        """Read a strategy file written by ``train``."""
        try:
            with np.load(path, allow_pickle=False) as saved:
                config = json.loads(str(saved["config"]))
                names = tuple(str(name) for name in saved["abstract_actions"])
                strategy = cls(saved["keys"], saved["probabilities"], config, saved["iterations"])
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"not an MCCFR strategy file: {str(path)!r} ({error})") from None
        version = config.get("abstraction_version")
        if names != ABSTRACT_ACTION_NAMES or version != ABSTRACTION_VERSION:
            raise ValueError(
                f"the strategy {str(path)!r} uses abstraction version {version}; this is "
                f"version {ABSTRACTION_VERSION}: train it again"
            )
        return strategy

    @property
    def rules(self) -> str:
        """The rule text (``rules.rules_text``) of the game it was trained for."""
        return self.config["rules"]

    def policy(self, view) -> dict[str, float]:
        """``{action string: probability}`` over the view's legal actions (those it plays)."""
        played = rules_text(view.game.rules)
        if played != self.rules:
            raise ValueError(
                f"the strategy was trained for the rules {self.rules!r}, not {played!r}"
            )
        if not view.is_my_turn:
            raise ValueError("the view's player is not to move: there is no decision")
        actions = self._actions
        mask, key = abstract_node_array(view.record, view.game.rule_array, actions)
        legal = [a for a in range(NUM_ABSTRACT_ACTIONS) if int(mask) >> a & 1]
        if len(legal) == 1:
            return {action_name(int(actions[legal[0]])): 1.0}
        self.lookups += 1
        index = int(np.searchsorted(self.keys, key))
        if index < len(self.keys) and self.keys[index] == key:
            row = self.probabilities[index].astype(np.float64)[legal]
            if row.sum() > 0:
                row /= row.sum()
                return {
                    action_name(int(actions[a])): float(p) for a, p in zip(legal, row, strict=True)
                }
        self.fallbacks += 1
        return {action_name(int(heuristic_array(view.record, view.game.rule_array))): 1.0}


@njit(cache=True)
def heuristic_array(record_array, rules_array):
    """The ``heuristic`` policy's action in a blanked one-element record array."""
    return heuristic_action(record_array[0], rules_array[0])
