"""Inference from the opponent's play (``sixtysix.engine.inference``): every history drawn
for a world replays to that world, the heuristic opponent's true deal is the likeliest, and
resampling follows the weights."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from numba import njit

import sixtysix
from sixtysix import agents
from sixtysix.engine import inference
from sixtysix.world_states import DeckPlan


@njit(cache=True)
def _history_deck(stream, world, opponent, arrays, deck):
    """``inference.history_deck`` with the rng in a stream array, for Python callers."""
    rng = (stream[0], stream[1], stream[2], stream[3])
    rng, feasible = inference.history_deck(rng, world, opponent, *arrays, deck)
    stream[0], stream[1], stream[2], stream[3] = rng
    return feasible


@njit(cache=True)
def _log_likelihood(state_array, rules_array, deck, dealer, actors, actions, opponent, noise):
    return inference.log_likelihood(
        state_array[0], rules_array[0], deck, dealer, actors, actions, opponent, noise
    )


@njit(cache=True)
def _resample(stream, log_weights, picks):
    rng = (stream[0], stream[1], stream[2], stream[3])
    rng = inference.resample(rng, log_weights, picks)
    stream[0], stream[1], stream[2], stream[3] = rng


def deal_views(game, seed: int, policy=None):
    """The views of the player to move along one deal, with the deal's states; exchanges and
    marriages favoured so that histories hold public cards."""
    rng = random.Random(seed)
    state = game.new_deal(seed=seed)
    while not state.is_terminal:
        yield state.clone(), state.view(state.current_player)
        actions = state.legal_actions()
        special = [a for a in actions if a.split()[0] in ("marry", "exchange")]
        state.apply(rng.choice(special or actions) if policy is None else policy(state))


def history_arrays(view):
    actors, actions = np.array(view.history_ids, dtype=np.int64).reshape(-1, 2).T.copy()
    return actors, actions


@pytest.mark.parametrize("preset", ["sixty_six", "schnapsen", "vu_schnapsen", "czech"])
def test_every_drawn_history_replays_to_its_world(preset):
    game = sixtysix.Game(preset)
    stream = agents.policies.new_stream(7)
    for seed in range(8):
        for _, view in deal_views(game, seed):
            arrays = DeckPlan(view).history_arrays()
            deck = np.zeros(len(arrays[0]), dtype=np.int64)
            for world in view.sample_world_records(2, seed):
                assert _history_deck(stream, world, view.opponent, arrays, deck)
                replayed = game.replay([int(c) for c in deck], view.dealer, view.action_ids)
                final = replayed.array[0]
                assert list(final["hand"]) == list(world["hand"])
                live = slice(int(world["talon_top"]), int(world["talon_end"]))
                assert list(final["talon"][live]) == list(world["talon"][live])


def reference_log_likelihood(game, deck, dealer, history, opponent, noise) -> float:
    """``inference.log_likelihood`` in Python: the heuristic agent asked at every decision of
    the opponent with a choice, on his view of the replayed deal."""
    heuristic = agents.make("heuristic:worlds=0", 0)
    state = game.new_deal(deck=[int(card) for card in deck], dealer=dealer)
    total = 0.0
    for actor, action in history:
        options = state.legal_action_ids()
        if actor == opponent and len(options) > 1:
            chosen = agents.protocol._legal_id(heuristic.act(state.view(actor)), state.view(actor))
            total += math.log(noise / len(options) + (1 - noise) * (chosen == action))
        state.apply(int(action))
    return total


def test_the_likelihood_is_the_heuristic_models_in_every_world():
    """Against a heuristic opponent his true deal explains every action of his (the most a
    deal can); in every world the likelihood is the Python reference's."""
    game = sixtysix.Game("schnapsen")
    heuristic = agents.make("heuristic:worlds=0", 0)
    noise = 0.2
    checked = 0
    for seed in range(6):
        play = lambda s: heuristic.act(s.view(s.current_player))  # noqa: E731
        for state, view in deal_views(game, seed, play):
            actors, actions = history_arrays(view)
            if view.opponent not in actors:
                continue
            scratch = state.array.copy()
            arguments = (view.dealer, actors, actions, view.opponent, noise)
            true = _log_likelihood(scratch, game.rule_array, np.array(state.deck), *arguments)
            most = 0.0
            for k, actor in enumerate(actors):
                options = len(game.replay(state.deck, view.dealer, actions[:k]).legal_action_ids())
                if actor == view.opponent and options > 1:
                    most += math.log(1 - noise + noise / options)
            assert true == pytest.approx(most)
            stream = agents.policies.new_stream(seed)
            arrays = DeckPlan(view).history_arrays()
            deck = np.zeros(len(arrays[0]), dtype=np.int64)
            for world in view.sample_world_records(2, seed):
                assert _history_deck(stream, world, view.opponent, arrays, deck)
                reference = reference_log_likelihood(
                    game, deck, view.dealer, view.history_ids, view.opponent, noise
                )
                assert _log_likelihood(scratch, game.rule_array, deck, *arguments) == (
                    pytest.approx(reference)
                )
            checked += 1
    assert checked > 20


def test_resampling_follows_the_weights():
    stream = agents.policies.new_stream(3)
    picks = np.zeros(4000, dtype=np.int64)
    _resample(stream, np.array([0.0, -np.inf, math.log(3.0)]), picks)
    counts = np.bincount(picks, minlength=3)
    assert list(counts) == [1000, 0, 3000]  # systematic: exact shares up to one pick


def test_pimc_with_inference_plays_a_seeded_deal_twice_alike():
    game = sixtysix.Game("schnapsen")
    spec = "pimc:worlds=8,infer=true,candidates=32"
    first = agents.play_deal(game, (spec, "heuristic"), seed=11)
    again = agents.play_deal(game, (spec, "heuristic"), seed=11)
    assert first.history_ids == again.history_ids
    assert first.error is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc:infer=true,model_noise=0", "invalid model_noise 0.0"),
        ("pimc:infer=true,candidates=0", "invalid candidates 0"),
    ],
)
def test_bad_inference_settings_are_named(spec, message):
    with pytest.raises(ValueError, match=message):
        agents.make(spec, 0)
