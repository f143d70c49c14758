"""The worlds of a multi-player view (sixtysix.table_worlds) are exactly the deals its
seat cannot tell apart: equal to a brute force over every deal of the minis, each
consistent with the view, and sampled uniformly."""

from __future__ import annotations

import collections
import itertools
import math
import random

import pytest

import sixtysix
from sixtysix import table_worlds
from sixtysix.engine.cards import card_name
from sixtysix.table_worlds import count_worlds, enumerate_worlds, sample_worlds

SMALL_MINIS = ["mini3_called_3x3", "mini4_called_2x4", "mini_na66_2"]


def every_deal(game):
    """Every distinct deck of ``game`` (each dealt hand as a set, the talon in order)."""
    cards = [card_name(card) for card in game.deck_cards]
    offsets = game.deal_offsets
    hand_positions = [
        [p for p, o in enumerate(offsets) if o == seat] for seat in range(game.num_players)
    ]
    talon = game.talon_positions

    def fill(seat, left, deck):
        if seat == game.num_players:
            for order in itertools.permutations(left):
                full = dict(deck)
                full.update(zip(talon, order, strict=True))
                yield [full[p] for p in range(len(cards))]
            return
        for hand in itertools.combinations(left, len(hand_positions[seat])):
            rest = [c for c in left if c not in hand]
            yield from fill(
                seat + 1, rest, {**deck, **dict(zip(hand_positions[seat], hand, strict=True))}
            )

    yield from fill(0, cards, {})


def replayed(game, deck, dealer, actions):
    try:
        return game.replay(deck, dealer, actions)
    except ValueError:
        return None


def deal_key(state) -> tuple:
    """A deal up to the order of each hand: the hands as dealt and the talon's order."""
    return (tuple(tuple(sorted(hand)) for hand in _dealt_hands(state)), tuple(_dealt_talon(state)))


def _dealt_hands(state):
    hands = [[] for _ in range(state.num_players)]
    first = (state.dealer + 1) % state.num_players
    for position, offset in enumerate(state.game.deal_offsets):
        if offset >= 0:
            hands[(first + offset) % state.num_players].append(card_name(int(state.deck[position])))
    return hands


def _dealt_talon(state):
    return [card_name(int(state.deck[p])) for p in state.game.talon_positions]


def random_views(game, seeds, most_steps):
    for seed in seeds:
        state = game.new_deal(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, most_steps)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            yield state, state.view(rng.randrange(state.num_players))


FIRST_BATCH = {"call_timing": "first_batch", "call_own_card": False}


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        *((preset, {}) for preset in SMALL_MINIS),
        ("mini4_called_2x4", FIRST_BATCH),  # M2: at the call only the first batch is seen
        ("mini4_called_2x4", {"call_timing": "first_batch"}),
    ],
)
def test_enumerated_worlds_equal_a_brute_force_over_every_deal(preset, options):
    game = sixtysix.Game(preset, **options)
    decks = list(every_deal(game))
    checked = 0
    for state, view in random_views(game, range(6), 6):
        actions = [action for _, action in state.history_ids]
        brute = set()
        for deck in decks:
            world = replayed(game, deck, state.dealer, actions)
            if world is not None and world.view(view.seat).key() == view.key():
                brute.add(deal_key(world))
        worlds = enumerate_worlds(view)
        assert {deal_key(world) for world in worlds} == brute
        assert len(worlds) == len(brute) == count_worlds(view)
        assert deal_key(state) in brute
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize(
    "preset",
    [
        "snapszer3",
        "snapszer3_called",
        "snapszer4",
        "snapszer4_called",
        "na66",
        "na66_3",
        "mini3_3x3",
        "mini4_4x3",
        "mini3_called_3x4",
        "mini_na66_4x3",
    ],
)
def test_sampled_worlds_give_the_seat_the_same_view(preset):
    game = sixtysix.Game(preset)
    for state, view in random_views(game, range(8), 30):
        worlds = sample_worlds(view, 10, seed=3)
        assert len(worlds) == 10
        for world in worlds:
            assert world.view(view.seat).key() == view.key()
            assert world.hands[view.seat] == state.hands[view.seat]


def test_sampling_is_uniform_over_the_worlds():
    game = sixtysix.Game("mini4_called_2x4")
    state, view = next(
        (s, v) for s, v in random_views(game, range(50), 4) if 4 <= count_worlds(v) <= 30
    )
    worlds = {deal_key(w) for w in enumerate_worlds(view)}
    draws = 200 * len(worlds)
    counts = collections.Counter(deal_key(w) for w in sample_worlds(view, draws, seed=9))
    assert set(counts) == worlds
    expected = draws / len(worlds)
    chi_square = sum((counts[w] - expected) ** 2 / expected for w in worlds)
    assert chi_square < 3 * len(worlds) + 20  # far above the mean (worlds - 1) of a fair sampler


def test_bad_arguments_are_refused():
    view = sixtysix.Game("snapszer4").new_deal(seed=1).view(0)
    with pytest.raises(ValueError, match="above the limit"):
        enumerate_worlds(view)
    with pytest.raises(ValueError, match="count"):
        sample_worlds(view, 0, seed=1)


def test_at_the_deal_the_count_is_the_number_of_ways_to_deal_the_unseen_cards():
    view = sixtysix.Game("snapszer4").new_deal(seed=4).view(2)
    unseen = 32 - 5 - 1  # its own hand and the face-up card
    assert count_worlds(view) == math.factorial(unseen) // math.factorial(5) ** 3


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("snapszer4", {}),
        ("snapszer4", {"strict_must_head": True, "must_overtrump": True}),
        ("snapszer3", {"announcements": "durchmars"}),
        ("snapszer4_called", {"announcements": "durchmars"}),
        ("snapszer3_called", {"call_own_card": False}),
        ("snapszer4_called", FIRST_BATCH),
        ("na66", {}),
        ("snapszer4", {"announcements": "durchmars_betli"}),
    ],
)
def test_where_no_fact_is_left_to_the_replay_every_drawn_candidate_is_a_world(preset, options):
    """The dynamic program's candidates already respect every public fact, so the replay
    rejects none of them (a self-check of the exclusions and shown cards)."""
    game = sixtysix.Game(preset, **options)
    for state, view in random_views(game, range(10), 40):
        assert not table_worlds.replay_checks_more(view)
        for deck in table_worlds.draw_candidates(view, 5, seed=1):
            assert table_worlds.world_of(view, deck) is not None, (preset, state.history)


def test_a_partners_meld_point_is_checked_by_the_replay():
    game = sixtysix.Game("snapszer4", marriage_declarers="leader_and_partner")
    for _, view in random_views(game, range(10), 30):
        for world in sample_worlds(view, 5, seed=2):
            assert world.view(view.seat).key() == view.key()
