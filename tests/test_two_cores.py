"""The two-player core and the N-player core (``multi_core`` with two seats) play every
two-player preset and option mix identically: the same deals, stepped in lockstep through
the public API, agree at every step, the records' public knowledge of the hands included
(``engine.rules.table_rules_of`` gives the N-player rules of a two-player rule set).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

import sixtysix
from sixtysix.engine.cards import card_name, mask_to_names
from sixtysix.engine.multi_rules import mask_names
from sixtysix.engine.rules import (
    BOOL_OPTIONS,
    CHOICES,
    MINI_PRESETS,
    PRESETS,
    make_rules,
    table_rules_of,
)
from sixtysix.table_game import TableState

SHARED_PRESETS = (*PRESETS, *MINI_PRESETS)
#: The two-player deal options a random mix sets, each to any of its values (every value
#: is valid with every two-player preset).
MIXED_OPTIONS = (
    "claim_mode",
    "false_claim_penalty",
    "closer_win_basis",
    "failed_close_penalty",
    "last_trick_bonus",
    "exhausted_no_claim_rule",
    "schwarz_basis",
    "trick_winner_rule",
    "marriage_lead_card",
    "game_point_scale",
    "opponent_out_after_close",
    "marriage_points_validation",
    "exchange_timing",
    *(name for name in BOOL_OPTIONS if name != "match_shutout_double"),
)


def _mix(rng: random.Random) -> tuple[str, dict]:
    """A random shared preset and option mix (not following suit goes without the trump
    duty: the two specifications differ there, see the refusal test)."""
    options = {name: rng.choice(CHOICES.get(name, (False, True))) for name in MIXED_OPTIONS}
    options["strict_must_trump"] &= options["strict_must_follow"]
    return rng.choice(SHARED_PRESETS), options


def _knowledge(state, deck: set) -> tuple:
    """The record's public knowledge of each hand (``shown``, ``excluded``): the names of
    the cards of ``deck`` in it."""
    record = state.array[0]
    names = mask_names if isinstance(state, TableState) else mask_to_names
    return tuple(
        tuple(sorted(deck.intersection(names(int(record[field][seat])))))
        for field in ("shown", "excluded")
        for seat in range(2)
    )


def _public(state, deck: set) -> dict:
    return dict(
        knowledge=_knowledge(state, deck),
        player=state.current_player,
        legal=state.legal_actions() if not state.is_terminal else [],
        hands=tuple(map(tuple, state.hands)),
        talon=list(state.talon),
        trump=state.trump_suit,
        points=tuple(state.card_points),
        over=state.is_terminal,
    )


def play_both(preset: str, options: dict, deals: int, seed: int) -> int:
    """Play ``deals`` random deals on both cores at once; return the steps compared."""
    two = sixtysix.Game(preset, **options)
    table = sixtysix.Game("snapszer3", **dataclasses.asdict(table_rules_of(two.rules)))
    rng = random.Random(seed)
    steps = 0
    for _ in range(deals):
        first = two.new_deal(seed=rng.getrandbits(32))
        deck = [card_name(int(card)) for card in first.deck]
        second = table.new_deal(deck=deck, dealer=first.dealer)
        path = []
        while True:
            assert _public(first, set(deck)) == _public(second, set(deck)), (
                preset,
                options,
                deck,
                first.dealer,
                path,
            )
            steps += 1
            if first.is_terminal:
                break
            action = rng.choice(first.legal_actions())
            path.append(action)
            first.apply(action)
            second.apply(action)
        assert (tuple(first.scores), first.reason) == (tuple(second.scores), second.reason)
    return steps


@pytest.mark.parametrize("preset", SHARED_PRESETS)
def test_the_two_cores_agree_on_the_shared_presets(preset):
    assert play_both(preset, {}, deals=400, seed=1) > 400 * 5


@pytest.mark.parametrize("mix", range(12))
def test_the_two_cores_agree_on_random_option_mixes(mix):
    preset, options = _mix(random.Random(mix))
    play_both(preset, options, deals=60, seed=mix)


@pytest.mark.slow
@pytest.mark.parametrize("mix", range(200))
def test_the_two_cores_agree_on_many_option_mixes(mix):
    preset, options = _mix(random.Random(10_000 + mix))
    play_both(preset, options, deals=300, seed=mix)


@pytest.mark.parametrize(
    "option, value",
    [
        ("exchange_requires_trick_won", True),
        ("marriage_on_closing_turn", False),
        ("exhausted_no_claim_rule", "no_score"),
        ("schwarz_basis", "zero_points"),
        ("exchange_on_opponent_close", True),
        ("close_before_draw", True),
        ("trick_winner_rule", "value_always"),
        ("marriage_lead_card", "king"),
        ("claim_after_marriage", False),
        ("game_point_scale", "czech"),
        ("failed_close_penalty", "czech_6_or_3"),
        ("marriage_points_validation", "next_trick_after_declaration"),
        ("exchange_timing", "any_time_after_trick_won"),
        ("deal_pattern", "P3 P2 TL"),
    ],
)
def test_the_two_player_options_are_refused_for_more_seats(option, value):
    presets = ("snapszer3", "snapszer4") if option == "deal_pattern" else ("snapszer3", "na66_2")
    for preset in presets:  # na66_2: two seats, but not each for himself
        with pytest.raises(ValueError, match=f"invalid {option} .*two-player"):
            sixtysix.Game(preset, **{option: value})


def test_following_suit_off_with_the_trump_duty_is_refused():
    """RULES 6.2 makes a follower who holds the led suit but may not follow it trump;
    RULES_MULTI 1.7 puts the trump duty on a void follower only."""
    rules = make_rules("snapszer", strict_must_follow=False)
    with pytest.raises(ValueError, match="strict_must_follow=False"):
        table_rules_of(rules)
