"""The numba fast path: built-in policies over blanked table records, and whole deals in numba.

A *policy* is a built-in agent's decision rule as a numba function of the
two-player table record (``multi_core.TWO_PLAYER_STATE_DTYPE``) that
``worlds.hide_from`` leaves its player (exactly the record a ``PlayerView``
holds) and, for random choices, the agent's own xoshiro256** stream kept in a
four-word ``uint64`` array. A random choice draws an index into the legal
action ids in ascending order (``nth_action`` across the two words of the legal
set). ``play_policy_deals`` plays many deals between two policies without
returning to Python; the Python agents in ``sixtysix.agents.policy_agents`` call
the same policy functions on ``view.record``, so both paths make the same
choices for the same seeds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sixtysix.engine import multi_core as mc
from sixtysix.engine.bits import nth_set_bit, popcount, trailing_zeros
from sixtysix.engine.heuristic import heuristic_action
from sixtysix.engine.rng import random_below, seed_rng, splitmix
from sixtysix.engine.worlds import hide_from

RANDOM = 0  # policy codes
HEURISTIC = 1
MAX_PLIES = 128  # a bound on the actions of one deal, far above any legal deal's count
NOISE_STEPS = 1 << 30  # the resolution of a noise probability

_AGENT_SEED_SALT = np.uint64(0xA0761D6478BD642F)  # separates agent streams from deal seeds


@njit(cache=True, inline="always")
def agent_seed(deal_seed, seat):
    """The seed of the agent in ``seat`` for the deal with seed ``deal_seed``."""
    x = np.uint64(deal_seed) ^ (_AGENT_SEED_SALT * np.uint64(seat + 1))
    _, mixed = splitmix(x)
    return mixed


@njit(cache=True, inline="always")
def start_stream(stream, seed):
    """Start ``stream`` (four ``uint64`` words) afresh from an integer seed."""
    stream[0], stream[1], stream[2], stream[3] = seed_rng(seed)


def new_stream(seed: int) -> np.ndarray:
    """A fresh random stream from an integer seed in ``[0, 2**64)``."""
    stream = np.empty(4, dtype=np.uint64)
    start_stream_array(stream, np.uint64(seed))
    return stream


@njit(cache=True)
def start_stream_array(stream, seed):
    """``start_stream`` for Python callers."""
    start_stream(stream, seed)


@njit(cache=True, inline="always")
def draw_below(stream, n):
    """A uniform integer in ``[0, n)`` from ``stream``, which advances in place."""
    rng, value = random_below((stream[0], stream[1], stream[2], stream[3]), n)
    stream[0], stream[1], stream[2], stream[3] = rng
    return value


@njit(cache=True, inline="always")
def nth_action(low, high, n):
    """The ``n``-th (from 0) action id of the set ``(low, high)`` in ascending order (bit
    ``a`` of ``low`` is action ``a``, bit ``a`` of ``high`` action ``mc.HIGH + a``)."""
    count_low = popcount(low)
    if n < count_low:
        return nth_set_bit(low, n)
    return mc.HIGH + nth_set_bit(high, n - count_low)


@njit(cache=True, inline="always")
def random_action(view, rules, stream):
    """A uniform legal action: a uniform index into the legal action ids, ascending."""
    low, high = mc.legal_masks(view, rules)
    return nth_action(low, high, draw_below(stream, popcount(low) + popcount(high)))


@njit(cache=True, inline="always")
def policy_action(policy, noise, view, rules, stream):
    """The action id that ``policy`` chooses in the blanked record ``view``; with probability
    ``noise`` (drawn from ``stream`` only when positive) a uniform legal action instead."""
    if policy == RANDOM or (noise > 0.0 and draw_below(stream, NOISE_STEPS) < noise * NOISE_STEPS):
        return random_action(view, rules, stream)
    return heuristic_action(view, rules)


@njit(cache=True)
def policy_action_array(policy, noise, view_array, rules_array, stream):
    """``policy_action`` on one-element record arrays (for the Python agents)."""
    return policy_action(policy, noise, view_array[0], rules_array[0], stream)


@njit(cache=True)
def play_policy_deals(rules_array, policies, noises, deal_seeds, results, plies, actors, actions):
    """Play one deal per seed between ``policies[0]`` (seat 0) and ``policies[1]`` (seat 1),
    with ``noises`` (see ``policy_action``).

    Deals are ``Game.new_deal(seed=deal_seeds[i])``, played as ``Game.apply`` plays them
    (``multi_core.apply_with_knowledge``, which keeps the public knowledge the views read);
    each seat's stream starts from ``agent_seed(deal_seed, seat)``. Policies other than
    ``RANDOM`` see the mover's record blanked by ``hide_from``; ``RANDOM`` reads only the
    legal actions, which are the same on the full record, so it skips the blanking. Row
    ``i`` of ``results`` gets the columns of ``RESULT_COLUMNS`` (``winner`` -1 for none);
    ``plies[i]`` actions go to ``actors[i]`` and ``actions[i]``.
    """
    rules = rules_array[0]
    state_array = np.zeros(1, dtype=mc.TWO_PLAYER_STATE_DTYPE)
    view_array = np.zeros(1, dtype=mc.TWO_PLAYER_STATE_DTYPE)
    state = state_array[0]
    view = view_array[0]
    sorted_deck = mc.sorted_deck(rules)
    deck = np.empty_like(sorted_deck)
    streams = np.empty((2, 4), dtype=np.uint64)
    decisions = np.zeros(2, dtype=np.int64)
    for i in range(len(deal_seeds)):
        deck[:] = sorted_deck
        dealer = mc.seeded_deal(deck, deal_seeds[i], rules.num_players)
        mc.deal(state, rules, deck, dealer)
        for seat in range(2):
            start_stream(streams[seat], agent_seed(deal_seeds[i], seat))
        decisions[:] = 0
        close_trick = -1
        ply = 0
        while state.phase != mc.OVER:
            if ply == MAX_PLIES:
                raise RuntimeError("a deal ran past MAX_PLIES actions")
            player = state.to_move
            policy = policies[player]
            if policy == RANDOM:  # random reads only the legal actions, alike on both records
                action = random_action(state, rules, streams[player])
            else:
                view_array[:] = state_array
                hide_from(view_array, rules_array, player)
                action = policy_action(policy, noises[player], view, rules, streams[player])
            if action == mc.A_CLOSE:
                close_trick = state.tricks_done
            mc.apply_with_knowledge(state, rules, action)
            actors[i, ply] = player
            actions[i, ply] = action
            decisions[player] += 1
            ply += 1
        plies[i] = ply
        row = results[i]
        winner = trailing_zeros(state.winners) if state.winners else -1
        row[0] = dealer
        row[1] = winner
        row[2] = state.scores[winner] if winner >= 0 else 0
        row[3] = state.reason
        row[4] = mc.credited(state, rules, 0)
        row[5] = mc.credited(state, rules, 1)
        row[6] = state.closed_by
        row[7] = close_trick
        row[8] = state.tricks_done
        row[9] = decisions[0]
        row[10] = decisions[1]


RESULT_COLUMNS = (
    "dealer",
    "winner",
    "game_points",
    "reason",
    "card_points_0",
    "card_points_1",
    "closed_by",
    "close_trick",
    "tricks_played",
    "decisions_0",
    "decisions_1",
)


def deal_outputs(count: int) -> tuple[np.ndarray, ...]:
    """Output arrays ``(results, plies, actors, actions)`` of ``play_policy_deals`` for
    ``count`` deals."""
    return (
        np.empty((count, len(RESULT_COLUMNS)), dtype=np.int64),
        np.empty(count, dtype=np.int64),
        np.empty((count, MAX_PLIES), dtype=np.int8),
        np.empty((count, MAX_PLIES), dtype=np.int8),
    )


def play_policies(rules_array, policies, deal_seeds: np.ndarray, outputs=None):
    """``play_policy_deals`` of ``policies`` (two ``(code, noise)`` pairs) on ``deal_seeds``
    (``uint64``) into ``outputs`` (``deal_outputs`` by default), which it returns."""
    outputs = deal_outputs(len(deal_seeds)) if outputs is None else outputs
    codes, noises = (np.array(column) for column in zip(*policies, strict=True))
    play_policy_deals(rules_array, codes, noises, deal_seeds, *outputs)
    return outputs
