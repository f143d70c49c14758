"""Seeded random numbers for the kernels: SplitMix64 seeding, xoshiro256** draws and the
shuffle of a deck, the same generator as the C reference (``commands/reference``), so with
equal seeds both play the very same random deals."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _rotate_left(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def splitmix(x):
    """One SplitMix64 step: ``(next x, output)``."""
    x += np.uint64(0x9E3779B97F4A7C15)
    z = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def seed_rng(seed):
    """A xoshiro256** state (four uint64) from an integer seed, by SplitMix64."""
    x = np.uint64(seed)
    x, s0 = splitmix(x)
    x, s1 = splitmix(x)
    x, s2 = splitmix(x)
    x, s3 = splitmix(x)
    return (s0, s1, s2, s3)


@njit(cache=True, inline="always")
def random_below(rng, n):
    """One xoshiro256** step: ``(next state, uniform integer in [0, n))`` for n < 2**32.

    The state is a tuple of locals, so it stays in registers. Bounded draws use
    the top 32 bits (bias below n / 2**32), exactly as the C reference does, so
    with equal seeds both play the very same random deals.
    """
    s0, s1, s2, s3 = rng
    result = _rotate_left(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotate_left(s3, 45)
    return (s0, s1, s2, s3), np.int64(((result >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def shuffle(deck, rng):
    """Fisher-Yates shuffle of ``deck`` in place; returns the next rng state."""
    for i in range(len(deck) - 1, 0, -1):
        rng, j = random_below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return rng


@njit(cache=True, inline="always")
def shuffle_and_cut(deck, rng, players=2):
    """``shuffle``, then a random dealer among ``players``: ``(rng, dealer)``."""
    return random_below(shuffle(deck, rng), players)
