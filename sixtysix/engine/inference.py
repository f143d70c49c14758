"""Inference from the opponent's play: how likely each world makes what he did.

A world of a view (``worlds``) fixes the opponent's hand and the talon order now, not
how he came by his cards, and his past decisions depend on that. ``world_states.DeckPlan``
knows his *slots* (his initial hand's deck positions and his face-down draws, in time
order) and the *deadline* of each hidden-origin card (the first history index at which he
must hold it). ``history_deck`` completes one world's deck with a uniform random history:
from the latest slot back to the deal, each slot takes a uniform card among those left
whose deadline lies after it. The number of cards to choose from at each slot does not
depend on earlier choices, so every feasible history is equally likely; and as that
number is the same for every world, a uniform world with a uniform history is a uniform
deal consistent with the view.

``log_likelihood`` replays the public history on such a deck and sums, over the
opponent's decisions with more than one legal action, the log-probability of his action
under a model of his play: the ``heuristic`` policy (``sixtysix.engine.heuristic``) with
``noise``, that is, probability ``1 - noise + noise / n`` for the heuristic's action among
``n`` legal ones and ``noise / n`` for each other action.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import multi_core as mc
from .bits import nth_set_bit, popcount, trailing_zeros
from .heuristic import heuristic_action
from .rng import random_below
from .worlds import world_record

NO_DEADLINE = 1 << 30  # the deadline of a card never needed before now


@njit(cache=True)
def history_deck(
    rng,
    world,
    opponent,
    plan_deck,
    slot_times,
    slot_positions,
    deadlines,
    public,
    talon_positions,
    deck,
):
    """Write into ``deck`` the full deal of ``world`` with a uniform random history of the
    opponent's cards (module docstring); returns ``(rng, feasible)``."""
    deck[:] = plan_deck
    for j in range(len(talon_positions)):
        deck[talon_positions[j]] = world.talon[world.talon_top + j]
    cards = world.hand[opponent] & ~public
    for card in range(len(deadlines)):
        if deadlines[card] != NO_DEADLINE:
            cards |= np.int64(1) << card
    if popcount(cards) != len(slot_times):
        return rng, False
    for i in range(len(slot_times) - 1, -1, -1):
        eligible = np.int64(0)
        rest = cards
        while rest:
            card = trailing_zeros(rest)
            rest &= rest - 1
            if deadlines[card] > slot_times[i]:
                eligible |= np.int64(1) << card
        if eligible == 0:
            return rng, False
        rng, choice = random_below(rng, popcount(eligible))
        card = nth_set_bit(eligible, choice)
        deck[slot_positions[i]] = card
        cards &= ~(np.int64(1) << card)
    return rng, True


@njit(cache=True)
def log_likelihood(state, rules, deck, dealer, actors, actions, opponent, noise):
    """The log-probability of the opponent's actions in ``actions`` (by ``actors``) when the
    deal of ``deck`` is replayed in ``state``, under the heuristic with ``noise``."""
    mc.deal(state, rules, deck, dealer)
    total = 0.0
    for i in range(len(actions)):
        action = actions[i]
        if actors[i] == opponent:
            low, high = mc.legal_masks(state, rules)
            options = popcount(low) + popcount(high)
            if options > 1:
                share = noise / options
                if heuristic_action(state, rules) == action:
                    share += 1.0 - noise
                total += math.log(share)
        mc.apply_with_knowledge(state, rules, action)
    return total


@njit(cache=True)
def resample(rng, log_weights, picks):
    """Fill ``picks`` with indices drawn by systematic resampling in proportion to
    ``exp(log_weights)`` (one uniform draw for all); returns the rng."""
    top = log_weights.max()
    weights = np.exp(log_weights - top)
    step = weights.sum() / len(picks)
    rng, offset = random_below(rng, 1 << 30)
    target = step * (offset + 0.5) / (1 << 30)
    running = 0.0
    index = -1
    for k in range(len(picks)):
        while running <= target and index + 1 < len(weights):
            index += 1
            running += weights[index]
        picks[k] = index
        target += step
    return rng


@njit(cache=True)
def weighted_worlds(
    stream,
    rules_array,
    view_array,
    opponent,
    allowed,
    unknown,
    hidden_opponent,
    ordered,
    enumerate_all,
    plan_deck,
    slot_times,
    slot_positions,
    deadlines,
    public,
    talon_positions,
    dealer,
    actors,
    actions,
    noise,
    candidates,
    log_weights,
    worlds,
):
    """Fill ``worlds`` by resampling ``candidates`` (every world of the view by rank if
    ``enumerate_all``, else uniform samples) in proportion to the likelihood of the
    opponent's actions (``log_likelihood``, on a uniform history: ``history_deck``), which
    ``log_weights`` receives; ``stream`` (four ``uint64`` words) advances in place."""
    rules = rules_array[0]
    view = view_array[0]
    rng = (stream[0], stream[1], stream[2], stream[3])
    deck = np.empty(len(plan_deck), dtype=np.int64)
    replay = candidates[:1].copy()
    for k in range(len(candidates)):
        rng = world_record(
            k,
            enumerate_all,
            rng,
            candidates,
            k,
            view,
            opponent,
            allowed,
            unknown,
            hidden_opponent,
            ordered,
        )
        rng, feasible = history_deck(
            rng,
            candidates[k],
            opponent,
            plan_deck,
            slot_times,
            slot_positions,
            deadlines,
            public,
            talon_positions,
            deck,
        )
        log_weights[k] = -np.inf
        if feasible:
            log_weights[k] = log_likelihood(
                replay[0], rules, deck, dealer, actors, actions, opponent, noise
            )
    picks = np.empty(len(worlds), dtype=np.int64)
    rng = resample(rng, log_weights, picks)
    for k in range(len(worlds)):
        worlds[k] = candidates[picks[k]]
    stream[0], stream[1], stream[2], stream[3] = rng
