"""Worlds (``sixtysix.engine.worlds``): counting, enumeration, uniform sampling, hidden information.

Views come from random deals of every preset, as shipped and with manual
claims. The policy prefers marriages and exchanges and makes closes and claims
rarer, so the views cover shown marriage partners, exchanges, open and closed
talons and strict-phase voids.
Every world is checked against the view it came from: the player's view of
the world has the same key and the same public record, the opponent's hand
holds the known cards and none of the excluded ones, and the true state is
one of the enumerated worlds.
"""

from __future__ import annotations

import functools
import math
import random
import re
from collections import Counter

import numpy as np
import pytest
from conftest import game_of
from numba import njit
from scipy.stats import chisquare

import sixtysix
from sixtysix.engine import worlds
from sixtysix.engine.rng import seed_rng

PRESET_NAMES = tuple(sixtysix.PRESETS)
CONFIGS = [
    pytest.param(preset, mode, id=f"{preset}-{mode or 'preset'}")
    for preset in PRESET_NAMES
    for mode in (None, "manual")
]
SPECIAL = ("marry", "exchange", "close", "exchange-on-close")
WORLD_BUDGET = 250  # enumerated worlds checked per configuration
MAX_ENUMERATED = 60  # worlds of one enumerated view
MAX_ORDERED = 600  # worlds of the one view per configuration with an ordered hidden talon


def random_deal_states(game: sixtysix.Game, seed: int):
    """Every state along one random deal; marriages and exchanges are favoured, claims and
    closes made rarer, so that deals run long."""
    rng = random.Random(seed)
    state = game.new_deal(seed=seed)
    while not state.is_terminal:
        actions = state.legal_actions()
        rare = [a for a in actions if a == "close" or a.split()[0] in ("claim", "marry-claim")]
        if len(rare) < len(actions) and rng.random() < 0.85:
            actions = [action for action in actions if action not in rare]
        special = [action for action in actions if action.split()[0] in SPECIAL]
        state.apply(rng.choice(special if special and rng.random() < 0.6 else actions))
        yield state.clone()


@functools.cache
def small_views(preset: str, mode: str | None) -> list[tuple[sixtysix.State, object]]:
    """(true state, view) pairs, at most two per deal: one view whose open talon hides 2+
    cards (at most MAX_ORDERED worlds), then views of 1 to MAX_ENUMERATED worlds,
    WORLD_BUDGET worlds in all."""
    game = game_of(preset, mode)
    found, budget, ordered = [], WORLD_BUDGET, False
    for seed in range(1000):
        candidates = []
        for state in random_deal_states(game, seed):
            if state.tricks_played < 2:
                continue
            for player in (0, 1):
                view = state.view(player)
                count = view.count_worlds()
                if not ordered and count <= MAX_ORDERED and is_ordered(view):
                    found.append((state, view))
                    ordered = True
                elif count <= MAX_ENUMERATED:
                    candidates.append((state, view))
        for state, view in random.Random(seed).sample(candidates, min(2, len(candidates))):
            if view.count_worlds() <= budget:
                found.append((state, view))
                budget -= view.count_worlds()
        if budget < 10 and ordered:
            break
    return found


def is_ordered(view) -> bool:
    """The view's talon is open and hides at least two cards, whose order makes worlds."""
    return view.closed_by is None and view.hidden_talon >= 2


def identity(record, view) -> tuple:
    """A world's hidden part: the opponent's hand and the remaining talon, top first."""
    top, end = int(record["talon_top"]), int(record["talon_end"])
    return int(record["hand"][view.opponent]), tuple(int(c) for c in record["talon"][top:end])


def canonical_truth(state, view) -> tuple:
    """The true state's hidden part; a closed talon's dead cards in ascending order."""
    hand, talon = identity(state.array[0], view)
    if view.closed_by is not None and talon:
        talon = (*sorted(talon[:-1]), talon[-1])
    return hand, talon


def check_world(world: sixtysix.State, view) -> None:
    """A world is consistent with the view it was made from."""
    record = world.array[0]
    hand = int(record["hand"][view.opponent])
    assert hand & view.known_opponent == view.known_opponent
    assert hand & view.excluded_opponent == 0
    assert hand.bit_count() == view.opponent_hand_size
    assert int(record["hand"][view.player]) == view.hand
    assert world.history == list(view.history)
    world_view = world.view(view.player)
    assert world_view.key() == view.key()
    assert world_view.record.tobytes() == view.record.tobytes()
    assert world.view(view.opponent).hand == hand


# ---- counting and enumeration ------------------------------------------------------------


@pytest.mark.parametrize("preset, mode", CONFIGS)
def test_enumeration_matches_count_and_contains_truth(preset, mode):
    views = small_views(preset, mode)
    assert sum(view.count_worlds() for _, view in views) >= WORLD_BUDGET - 10
    for state, view in views:
        found = view.enumerate_worlds()
        assert len(found) == view.count_worlds()
        identities = [identity(world.array[0], view) for world in found]
        assert len(set(identities)) == len(found)
        assert canonical_truth(state, view) in identities
        for world in found[:: max(1, len(found) // 25)]:
            check_world(world, view)
    # The views cover what makes worlds interesting.
    game = game_of(preset, mode)
    assert any(is_ordered(view) for _, view in views)
    assert any(view.known_opponent for _, view in views)
    for word in ("marry", "exchange"):
        assert any(did(view, word, (0, 1)) for _, view in views)
    if game.rules.closing_allowed:
        assert any(view.closed_by is not None and view.hidden_talon for _, view in views)
        assert any(view.excluded_opponent for _, view in views)


def did(view, word: str, players) -> bool:
    """Whether one of ``players`` made an action starting with ``word`` in the view's history."""
    return any(actor in players and action.startswith(word) for actor, action in view.history)


def test_enumerated_views_cover_opponent_marriages_and_exchanges():
    """The opponent's marriages and exchanges fix deadlines and public cards of his."""
    views = [view for config in CONFIGS for _, view in small_views(*config.values)]
    for word in ("marry", "exchange"):
        assert sum(did(view, word, (view.opponent,)) for view in views) >= 10


def test_count_at_the_deal_is_the_formula():
    for preset, unknown, hidden_talon in (("sixty_six", 17, 11), ("schnapsen", 14, 9)):
        view = game_of(preset).new_deal(seed=7).view(0)
        hand_size = game_of(preset).rules.hand_size
        expected = math.comb(unknown, hand_size) * math.factorial(hidden_talon)
        assert view.count_worlds() == expected


def test_closed_talon_order_is_not_counted():
    game = game_of("sixty_six")
    for seed in range(200):
        for state in random_deal_states(game, seed):
            view = state.view(0)
            if view.closed_by is not None and view.hidden_talon >= 2:
                allowed = view.unknown & ~view.excluded_opponent
                expected = math.comb(allowed.bit_count(), view.hidden_opponent)
                assert view.count_worlds() == expected
                return
    pytest.fail("no closed talon with hidden cards found")


def test_enumeration_order_is_deterministic():
    state, view = small_views("sixty_six", None)[-1]
    first = [world.deck.tolist() for world in view.enumerate_worlds()]
    again = [world.deck.tolist() for world in state.view(view.player).enumerate_worlds()]
    assert first == again


# ---- sampling --------------------------------------------------------------------------------


CHI_SQUARE_KINDS = {
    "open": lambda view: view.closed_by is None and view.hidden_talon >= 1,
    "ordered": is_ordered,
    "closed": lambda view: view.closed_by is not None and view.hidden_talon >= 1,
    "known": lambda view: view.known_opponent != 0 and view.hidden_talon >= 1,
    "excluded": lambda view: view.excluded_opponent != 0 and view.hidden_talon >= 1,
}
CHI_SQUARE_CASES = [
    ("sixty_six", "open"),
    ("vu_schnapsen", "ordered"),
    ("schnapsen", "closed"),
    ("czech", "known"),
    ("slovak", "excluded"),
]


@functools.cache
def chi_square_view(preset: str, kind: str):
    """The first view of this kind with 6 to 60 worlds in random deals of ``preset``."""
    game = game_of(preset)
    for seed in range(2000):
        for state in random_deal_states(game, seed):
            for player in (0, 1):
                view = state.view(player)
                if CHI_SQUARE_KINDS[kind](view) and 6 <= view.count_worlds() <= 60:
                    return view
    raise AssertionError(f"no {kind} view with 6 to 60 worlds in {preset}")


@pytest.mark.parametrize("preset, kind", CHI_SQUARE_CASES)
def test_sampled_worlds_are_consistent_and_uniform(preset, kind):
    view = chi_square_view(preset, kind)
    seed = len(view.history)
    expected = [identity(world.array[0], view) for world in view.enumerate_worlds()]
    position = {world: k for k, world in enumerate(expected)}
    samples = view.sample_worlds(60 * len(expected), seed)
    for world in samples[:25]:
        check_world(world, view)
    frequencies = Counter(position[identity(world.array[0], view)] for world in samples)
    observed = [frequencies[k] for k in range(len(expected))]
    assert chisquare(observed).pvalue > 1e-4
    # The record sampler draws the very same worlds, and is uniform over many more.
    records = view.sample_world_records(len(samples), seed)
    assert [identity(r, view) for r in records] == [identity(w.array[0], view) for w in samples]
    records = view.sample_world_records(2000 * len(expected), seed + 1)
    frequencies = Counter(position[identity(record, view)] for record in records)
    assert chisquare([frequencies[k] for k in range(len(expected))]).pvalue > 1e-4


def test_sample_records_are_the_replayed_worlds():
    _, view = small_views("sixty_six", "manual")[len(small_views("sixty_six", "manual")) // 2]
    records = view.sample_world_records(30, 5)
    states = view.sample_worlds(30, 5)
    for record, state in zip(records, states, strict=True):
        truth = state.array[0]
        for name in record.dtype.names:
            if name != "talon":
                assert np.array_equal(record[name], truth[name]), name
        top, end = int(truth["talon_top"]), int(truth["talon_end"])
        assert np.array_equal(record["talon"][top:end], truth["talon"][top:end])
        assert (record["talon"][:top] == -1).all()  # drawn cards stay hidden


@pytest.mark.parametrize("preset, mode", CONFIGS)
def test_mid_game_samples_are_consistent(preset, mode):
    game = game_of(preset, mode)
    for seed in range(3):
        for state in random_deal_states(game, seed):
            if state.tricks_played in (1, 3) or state.closed_by is not None:
                view = state.view(state.tricks_played % 2)
                for world in view.sample_worlds(3, seed):
                    check_world(world, view)
                    # The opponent's view of a world is meaningful too: its worlds replay.
                    world.view(view.opponent).sample_worlds(1, seed)


def test_same_seed_same_worlds_and_different_seeds_differ():
    view = game_of("sixty_six").new_deal(seed=11).view(1)
    decks = [w.deck.tolist() for w in view.sample_worlds(20, 3)]
    assert decks == [w.deck.tolist() for w in view.sample_worlds(20, 3)]
    assert decks != [w.deck.tolist() for w in view.sample_worlds(20, 4)]
    assert len({tuple(deck) for deck in decks}) == 20
    from_generator = view.sample_worlds(5, np.random.default_rng(9))
    seed = int(np.random.default_rng(9).integers(0, 2**64, dtype=np.uint64))
    assert [w.deck.tolist() for w in from_generator] == [
        w.deck.tolist() for w in view.sample_worlds(5, seed)
    ]
    assert view.sample_worlds(0, 1) == []
    assert len(view.sample_world_records(0, 1)) == 0


# ---- hidden information ------------------------------------------------------------------


def test_samples_depend_only_on_the_view():
    """Two true states a player cannot tell apart give identical samples from one seed."""
    checked = 0
    for preset in PRESET_NAMES:
        for truth, view in small_views(preset, None)[::7]:
            for other in view.enumerate_worlds():
                if identity(other.array[0], view) != canonical_truth(truth, view):
                    break
            else:
                continue
            twin = other.view(view.player)
            assert twin.key() == view.key()
            first = [w.deck.tolist() for w in view.sample_worlds(8, 21)]
            second = [w.deck.tolist() for w in twin.sample_worlds(8, 21)]
            assert first == second
            records = view.sample_world_records(50, 4).tobytes()
            assert records == twin.sample_world_records(50, 4).tobytes()
            checked += 1
    assert checked >= 10


def test_samples_ignore_a_swap_of_hidden_cards():
    """Swap an unseen opponent card with a hidden talon card in the dealt deck, replay."""
    game = game_of("sixty_six")
    checked = 0
    for seed in range(40):
        states = list(random_deal_states(game, seed))
        truth = states[min(4, len(states) - 1)]
        view = truth.view(seed % 2)
        record = truth.array[0]
        top, end = int(record["talon_top"]), int(record["talon_end"])
        hand = int(record["hand"][view.opponent]) & ~view.known_opponent & ~view.excluded_opponent
        if not hand or end - top < 2:
            continue
        deck = truth.deck.tolist()
        a = deck.index(hand.bit_length() - 1)
        b = deck.index(int(record["talon"][top]))
        deck[a], deck[b] = deck[b], deck[a]
        try:
            twin = sixtysix.replay(
                game,
                [sixtysix.engine.cards.card_name(c) for c in deck],
                truth.dealer,
                [action for _, action in truth.history],
            )
        except sixtysix.IllegalActionError:
            continue
        twin_view = twin.view(view.player)
        if twin_view.key() != view.key():
            continue
        assert identity(twin.array[0], view) != identity(record, view)
        assert [w.deck.tolist() for w in view.sample_worlds(6, 8)] == [
            w.deck.tolist() for w in twin_view.sample_worlds(6, 8)
        ]
        checked += 1
    assert checked >= 5


# ---- numba entry points ------------------------------------------------------------------


@njit(cache=True)
def _sample_in_numba(view_records, opponent, allowed, unknown, hidden_opponent, ordered, seed, n):
    worlds_out = np.zeros(n, dtype=view_records.dtype)
    rng = seed_rng(seed)
    for i in range(n):
        rng = worlds.sample_world_record(
            rng,
            worlds_out,
            i,
            view_records[0],
            opponent,
            allowed,
            unknown,
            hidden_opponent,
            ordered,
        )
    return worlds_out


@njit(cache=True)
def _fill_in_numba(view_records, opponent, hidden, talon):
    out = np.zeros(1, dtype=view_records.dtype)
    worlds.fill_world_record(out, 0, view_records[0], opponent, hidden, talon)
    return out


def test_numba_callable_sampling_matches_python_entry_point():
    view = game_of("schnapsen").new_deal(seed=3).view(0)
    spec = view.world_spec()
    inside = _sample_in_numba(
        view.record,
        *spec.record_arguments,
        np.uint64(12),
        40,
    )
    assert inside.tobytes() == view.sample_world_records(40, 12).tobytes()
    first = inside[0]
    top = int(first["talon_top"])
    talon = first["talon"][top : top + spec.hidden_talon].copy()
    hidden = int(first["hand"][spec.opponent]) & ~view.known_opponent
    filled = _fill_in_numba(view.record, spec.opponent, hidden, talon)
    assert filled.tobytes() == inside[:1].tobytes()


# ---- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [-1, 2.0, True, "3", None])
def test_bad_number_of_worlds(n):
    view = game_of("sixty_six").new_deal(seed=1).view(0)
    with pytest.raises(ValueError, match=re.escape(f"invalid number of worlds {n!r}")):
        view.sample_worlds(n, 1)
    with pytest.raises(ValueError, match="invalid number of worlds"):
        view.sample_world_records(n, 1)


@pytest.mark.parametrize("rng", [-1, 2**64, 1.5, True, "7", None, random.Random(1)])
def test_bad_rng(rng):
    view = game_of("sixty_six").new_deal(seed=1).view(0)
    with pytest.raises(ValueError, match="invalid rng .*numpy.random.Generator"):
        view.sample_worlds(1, rng)
    with pytest.raises(ValueError, match="invalid seed"):
        view.sample_world_records(1, rng)


def test_limit_exceeded_and_bad_limit():
    view = game_of("sixty_six").new_deal(seed=1).view(0)
    count = view.count_worlds()
    with pytest.raises(ValueError, match=f"has {count} worlds, more than the limit 100000"):
        view.enumerate_worlds()
    with pytest.raises(ValueError, match="invalid limit -1"):
        view.enumerate_worlds(-1)
    with pytest.raises(ValueError, match="invalid limit 'many'"):
        view.enumerate_worlds("many")
    _, small = small_views("czech", None)[0]
    with pytest.raises(ValueError, match=f"more than the limit {small.count_worlds() - 1}"):
        small.enumerate_worlds(small.count_worlds() - 1)
