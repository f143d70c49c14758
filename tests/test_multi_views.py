"""A multi-player seat's view holds only what that seat may know (RULES_MULTI 1.17):
swapping cards it cannot see, between other seats and the talon, never changes its view,
the partnership of a called-card game included."""

from __future__ import annotations

import random

import numpy as np
import pytest

import sixtysix
from sixtysix.engine.cards import card_name
from sixtysix.engine.multi_rules import TABLE_MINI_PRESETS, TABLE_PRESETS

PRESETS = [*TABLE_PRESETS, *TABLE_MINI_PRESETS]


def played_to(game, seed: int, steps: int):
    """A deal of ``game`` from ``seed`` after at most ``steps`` random actions."""
    state = game.new_deal(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def hidden_from(state, seat: int) -> list[str]:
    """Cards ``seat`` cannot see: in other hands or face down in the talon, never in its
    own hand, neither the card turned up by the deal (an exchanger holds it) nor a declared
    marriage's card."""
    view = state.view(seat)
    ever_held = 0
    for hands in state.hand_log:
        ever_held |= hands[seat]
    shown = set()
    for suits in view.declared_marriages:
        shown.update(f"{rank}{suit}" for suit in suits for rank in "QK")
    shown.add(state.face_up_at_deal)
    candidates = [card for other, hand in enumerate(state.hands) if other != seat for card in hand]
    talon = state.talon[:-1] if view.face_up else state.talon
    candidates += talon
    deck_index = {card_name(int(c)): int(c) for c in state.deck}
    return [c for c in candidates if not ever_held >> deck_index[c] & 1 and c not in shown]


def replayed_with_swap(state, first: str, second: str):
    """The deal with two cards swapped in the deck and the same actions, or None if an
    action is then illegal."""
    deck = [card_name(int(c)) for c in state.deck]
    i, j = deck.index(first), deck.index(second)
    deck[i], deck[j] = deck[j], deck[i]
    try:
        return state.game.replay(deck, state.dealer, [a for _, a in state.history_ids])
    except sixtysix.IllegalActionError:
        return None


@pytest.mark.parametrize("preset", PRESETS)
def test_swapping_cards_a_seat_cannot_see_never_changes_its_view(preset):
    game = sixtysix.Game(preset)
    compared = changed_truth = 0
    for seed in range(12):
        state = played_to(game, seed, random.Random(seed).randrange(1, 20))
        for seat in range(state.num_players):
            view = state.view(seat)
            cards = hidden_from(state, seat)
            rng = random.Random(seed * 10 + seat)
            for _ in range(6):
                if len(cards) < 2:
                    break
                first, second = rng.sample(cards, 2)
                other = replayed_with_swap(state, first, second)
                if other is None or [h[seat] for h in other.hand_log] != [
                    h[seat] for h in state.hand_log
                ]:
                    continue
                other_view = other.view(seat)
                assert other_view.key() == view.key(), (preset, seed, seat, first, second)
                assert np.array_equal(other_view.tensor(), view.tensor())
                assert other_view.legal_actions() == view.legal_actions()
                assert other_view.is_partner_known == view.is_partner_known
                compared += 1
                changed_truth += other.hands != state.hands
    assert compared >= 20
    if game.num_players == 2:  # na66_2: the other hand is the rest of the pack, nothing is hidden
        assert changed_truth == 0
    else:
        assert changed_truth >= 10


@pytest.mark.parametrize("own", [True, False])
def test_a_first_batch_caller_sees_only_his_first_batch_at_the_call(own):
    """M2: under ``call_timing = first_batch`` the caller calls on his first cards; his
    later cards may be swapped with any hidden card without changing his view or his
    choices, and once he has called he sees his whole hand."""
    game = sixtysix.Game("snapszer4_called", call_timing="first_batch", call_own_card=own)
    for seed in range(6):
        state = game.new_deal(seed=seed)
        caller = state.current_player
        view = state.view(caller)
        batch = set(view.hand)
        assert len(batch) == 3 and batch < set(state.hands[caller])
        later = sorted(set(state.hands[caller]) - batch)
        others = [c for seat in range(4) if seat != caller for c in state.hands[seat]]
        for first, second in zip(
            later, random.Random(seed).sample(others, len(later)), strict=True
        ):
            other = replayed_with_swap(state, first, second)
            other_view = other.view(caller)
            assert other_view.key() == view.key()
            assert other_view.legal_actions() == view.legal_actions()
            assert np.array_equal(other_view.tensor(), view.tensor())
        state.apply(view.legal_actions()[0])
        assert state.view(caller).hand == state.hands[caller]


def test_a_called_partner_is_hidden_until_the_reveal():
    """snapszer4_called: before the called card is played only its holder (and a caller
    who holds it) knows the sides; the others' views are the same whoever holds it."""
    game = sixtysix.Game("snapszer4_called")
    state = game.new_deal(seed=5)
    caller = state.current_player
    outside = [seat for seat in range(4) if seat != caller]
    called = next(card for seat in outside for card in state.hands[seat] if card[0] == "A")
    state.apply(f"call {called}")
    holder = next(seat for seat in range(4) if called in state.hands[seat])
    assert state.view(holder).is_partner_known
    for seat in range(4):
        if seat != holder:
            assert not state.view(seat).is_partner_known
    assert all(state.view(seat).called_card == called for seat in range(4))


def test_a_view_keeps_no_reference_to_the_state():
    state = sixtysix.Game("snapszer4").new_deal(seed=2)
    view = state.view(1)
    assert not any(value is state for value in vars(view).values())
    assert view.hand == state.hands[1]
    with pytest.raises(ValueError, match="seat"):
        state.view(4)
