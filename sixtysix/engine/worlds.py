"""Worlds, in numba: blanking a record for one player and drawing the deals he cannot tell apart.

A *world* of a player's view is a complete state consistent with it. The
opponent's hand is his known cards plus ``H``, a ``hidden_opponent``-subset
of the unknown cards not excluded from his hand, and the hidden talon
positions (every talon card but the public bottom one) hold the other unknown
cards. While the talon is open their order matters, as they will be drawn;
once it is closed (or has no hidden position) the dead cards' order cannot
matter to play, so worlds are counted without it and their cards lie in
ascending order. Hence

    count = C(|allowed|, hidden_opponent) * (hidden_talon! if ordered else 1)

and sampling is uniform over exactly these worlds.

This module knows only records and masks (cards are ``sixtysix.engine.cards``
indices, so ascending is card order; the rules are a ``TABLE_RULES_DTYPE``
record): ``hide_from`` blanks a copy of a two-player deal record
(``multi_core.TWO_PLAYER_STATE_DTYPE``) for one player and returns his unknown
cards, ``draw_hidden`` draws one world's hidden cards, ``sample_hidden`` many
into arrays, ``sample_world_record`` one world straight into a record (for
agents that stay inside numba), ``ranked_world_record`` the world of a given
rank (ranks ``0 .. count-1`` enumerate every world once) and
``fill_world_record`` writes a given world into one. ``WorldSpec`` holds the
numbers that define a view's worlds.
``PlayerView`` (``sixtysix.view``) offers them from Python, as records or as
replayed ``State`` objects.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from .bits import nth_set_bit, popcount, trailing_zeros
from .rng import random_below, seed_rng


class WorldReconstructionError(AssertionError):
    """A world that cannot be rebuilt or does not replay to itself: a bug, never bad input."""


@njit(cache=True, inline="always")
def unknown_cards(state, rules, player):
    """The cards ``player`` has not seen: neither in his hand, nor won, nor led, nor shown
    by the opponent, nor the talon's last card. The same on a record blanked for him."""
    seen = state.hand[player] | state.won[0] | state.won[1] | state.shown[1 - player]
    if state.led >= 0:
        seen |= np.int64(1) << state.led
    if state.talon_end > state.talon_top:
        seen |= np.int64(1) << state.talon[state.talon_end - 1]
    return rules.deck_mask & ~seen


@njit(cache=True)
def hide_from(state_array, rules_array, player):
    """Blank in ``state_array[0]`` what ``player`` may not know; return his unknown cards
    (``unknown_cards``: the opponent's unseen cards and the hidden talon cards).

    The opponent's hand keeps only his shown cards, and every talon slot but
    the last (public) card becomes -1, stale drawn cards included.
    """
    state = state_array[0]
    opponent = 1 - player
    unknown = unknown_cards(state, rules_array[0], player)
    end = state.talon_end
    bottom = state.talon[end - 1] if end > state.talon_top else -1
    state.hand[opponent] = state.shown[opponent]
    state.talon[:] = -1
    if bottom >= 0:
        state.talon[end - 1] = bottom
    return unknown


@njit(cache=True, inline="always")
def _random_index(rng, mask):
    """A uniform index below the number of cards in ``mask``: ``(rng, index)``."""
    return random_below(rng, popcount(mask))


@njit(cache=True)
def draw_hidden(rng, allowed, unknown, hidden_opponent, talon, start, hidden_talon, ordered):
    """One uniform world: ``(rng, H)``; the talon's hidden cards go to ``talon[start:]``.

    ``H`` is a uniform ``hidden_opponent``-subset of ``allowed``; the other
    ``hidden_talon`` unknown cards are shuffled if ``ordered``, else ascending.
    """
    hidden = np.int64(0)
    free = np.int64(allowed)
    for _ in range(hidden_opponent):
        rng, choice = _random_index(rng, free)
        card = nth_set_bit(free, choice)
        hidden |= np.int64(1) << card
        free &= ~(np.int64(1) << card)
    rest = np.int64(unknown) & ~hidden
    for j in range(hidden_talon):
        if ordered:
            rng, choice = _random_index(rng, rest)
            card = nth_set_bit(rest, choice)
        else:
            card = trailing_zeros(rest)
        talon[start + j] = card
        rest &= ~(np.int64(1) << card)
    return rng, hidden


@njit(cache=True, inline="always")
def _binomial(n, k):
    """``C(n, k)`` for the small numbers of a deck (0 outside ``0 <= k <= n``)."""
    if k < 0 or k > n:
        return 0
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


@njit(cache=True, inline="always")
def _factorial(n):
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


@njit(cache=True)
def ranked_hidden(rank, allowed, unknown, hidden_opponent, talon, start, hidden_talon, ordered):
    """The world of number ``rank`` (``0 <= rank < count``): ``H``; the talon's hidden cards go
    to ``talon[start:]``.

    Rank ``s * orders + p`` (``orders = hidden_talon!`` if ``ordered``, else 1) is the
    ``s``-th ``hidden_opponent``-subset of ``allowed`` in lexicographic order of its cards
    and the ``p``-th ordering (factorial number system) of the other unknown cards.
    """
    orders = _factorial(hidden_talon) if ordered else 1
    subset, order = rank // orders, rank % orders
    hidden = np.int64(0)
    free = np.int64(allowed)
    remaining = popcount(free)
    needed = hidden_opponent
    while needed > 0:
        card = trailing_zeros(free)
        free &= ~(np.int64(1) << card)
        remaining -= 1
        with_card = _binomial(remaining, needed - 1)  # the subsets that take this card
        if subset < with_card:
            hidden |= np.int64(1) << card
            needed -= 1
        else:
            subset -= with_card
    rest = np.int64(unknown) & ~hidden
    for j in range(hidden_talon):
        if ordered:
            block = _factorial(hidden_talon - 1 - j)
            card = nth_set_bit(rest, order // block)
            order %= block
        else:
            card = trailing_zeros(rest)
        talon[start + j] = card
        rest &= ~(np.int64(1) << card)
    return hidden


@njit(cache=True)
def sample_hidden(
    allowed, unknown, hidden_opponent, hidden_talon, ordered, n, seed, hidden_out, talon_out
):
    """Draw ``n`` i.i.d. uniform worlds from ``seed``.

    World ``i`` is the opponent's hidden cards ``hidden_out[i]`` and the hidden
    talon cards ``talon_out[i, :hidden_talon]``, top first.
    """
    rng = seed_rng(seed)
    for i in range(n):
        rng, hidden_out[i] = draw_hidden(
            rng, allowed, unknown, hidden_opponent, talon_out[i], 0, hidden_talon, ordered
        )


@njit(cache=True, inline="always")
def hidden_talon_slots(record):
    """Hidden talon positions of a record: every remaining talon card but the bottom one."""
    return max(record.talon_end - record.talon_top - 1, 0)


@njit(cache=True)
def fill_world_record(worlds, index, view_record, opponent, hidden, talon_cards):
    """Write into ``worlds[index]`` the view's record completed by one world.

    ``hidden`` joins the opponent's hand; ``talon_cards`` fill the hidden talon
    positions, top first.
    """
    worlds[index] = view_record
    world = worlds[index]
    world.hand[opponent] |= hidden
    start = world.talon_top
    for j in range(hidden_talon_slots(world)):
        world.talon[start + j] = talon_cards[j]


@njit(cache=True)
def sample_world_record(
    rng, worlds, index, view_record, opponent, allowed, unknown, hidden_opponent, ordered
):
    """Draw one uniform world straight into ``worlds[index]``; returns the advanced rng."""
    worlds[index] = view_record
    world = worlds[index]
    rng, hidden = draw_hidden(
        rng,
        allowed,
        unknown,
        hidden_opponent,
        world.talon,
        world.talon_top,
        hidden_talon_slots(world),
        ordered,
    )
    world.hand[opponent] |= hidden
    return rng


@njit(cache=True)
def ranked_world_record(
    rank, worlds, index, view_record, opponent, allowed, unknown, hidden_opponent, ordered
):
    """Write the world of number ``rank`` (``ranked_hidden``) into ``worlds[index]``."""
    worlds[index] = view_record
    world = worlds[index]
    world.hand[opponent] |= ranked_hidden(
        rank,
        allowed,
        unknown,
        hidden_opponent,
        world.talon,
        world.talon_top,
        hidden_talon_slots(world),
        ordered,
    )


@njit(cache=True)
def world_record(
    k,
    enumerate_all,
    rng,
    worlds,
    index,
    view_record,
    opponent,
    allowed,
    unknown,
    hidden_opponent,
    ordered,
):
    """World ``k`` of a search into ``worlds[index]``: by rank if ``enumerate_all``, else a
    uniform sample drawn from ``rng``; returns the (advanced) rng."""
    if enumerate_all:
        ranked_world_record(
            k, worlds, index, view_record, opponent, allowed, unknown, hidden_opponent, ordered
        )
        return rng
    return sample_world_record(
        rng, worlds, index, view_record, opponent, allowed, unknown, hidden_opponent, ordered
    )


@njit(cache=True)
def sample_records(
    view_records, opponent, allowed, unknown, hidden_opponent, ordered, seed, worlds
):
    """Fill ``worlds`` with i.i.d. uniform worlds of the blanked ``view_records[0]``."""
    rng = seed_rng(seed)
    for i in range(len(worlds)):
        rng = sample_world_record(
            rng, worlds, i, view_records[0], opponent, allowed, unknown, hidden_opponent, ordered
        )


@dataclass(frozen=True)
class WorldSpec:
    """The numbers that define a view's worlds (all plain integers)."""

    opponent: int
    unknown: int  # cards in the opponent's hand (not known) or at hidden talon positions
    allowed: int  # the unknown cards that may be in the opponent's hand
    hidden_opponent: int  # opponent cards not known
    hidden_talon: int  # hidden talon positions
    ordered: bool  # whether the hidden talon order counts (the talon is open)

    def __post_init__(self) -> None:
        if (
            self.unknown.bit_count() != self.hidden_opponent + self.hidden_talon
            or self.allowed.bit_count() < self.hidden_opponent
        ):
            raise WorldReconstructionError(
                f"inconsistent view: {self.unknown.bit_count()} unknown cards, "
                f"{self.allowed.bit_count()} of them allowed in the opponent's hand, for "
                f"{self.hidden_opponent} hidden opponent cards and {self.hidden_talon} hidden "
                "talon positions"
            )

    @property
    def record_arguments(self) -> tuple[int, int, int, int, bool]:
        """``(opponent, allowed, unknown, hidden_opponent, ordered)``: what the record kernels
        (``sample_world_record``, ``ranked_world_record``, ``sample_records``) take, in order."""
        return self.opponent, self.allowed, self.unknown, self.hidden_opponent, self.ordered

    def count(self) -> int:
        """The exact number of worlds (see the module docstring)."""
        subsets = math.comb(self.allowed.bit_count(), self.hidden_opponent)
        return subsets * (math.factorial(self.hidden_talon) if self.ordered else 1)
