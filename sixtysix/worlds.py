"""Worlds: the complete deals that one player's view cannot tell apart.

A *world* of a view is a complete state consistent with it. The opponent's hand
is ``known_opponent | H``, where ``H`` is a ``hidden_opponent``-subset of the
unknown cards not excluded from his hand (``unknown & ~excluded_opponent``),
and the hidden talon positions (every talon card but the public bottom one)
hold the other unknown cards. While the talon is open their order matters, as
they will be drawn; once it is closed (or has no hidden position) the dead
cards' order cannot matter to play, so worlds are counted without it and
their cards lie in ascending order. Hence

    count = C(|unknown & ~excluded_opponent|, hidden_opponent) * (hidden_talon! if open else 1)

and sampling is uniform over exactly these worlds.

Sampling runs in numba: ``draw_hidden`` draws one world's hidden cards,
``sample_hidden`` draws many into arrays, ``sample_world_record`` draws one
world straight into a ``core.STATE_DTYPE`` record (for agents that stay inside
numba; ``world_spec`` gives its arguments) and ``fill_world_record`` writes a
given world into one. From Python, ``sample_world_records`` gives records and
``sample_worlds`` / ``enumerate_worlds`` give genuine ``State`` objects: each
replays the public history from a deck rebuilt from the view alone, so the
views of both players in a world are meaningful (see ``_DeckPlan``).
"""

from __future__ import annotations

import itertools
import math
import numbers
from dataclasses import dataclass

import numpy as np
from numba import njit

from . import core
from . import game as game_api
from .actions import parse_action
from .bits import nth_set_bit, popcount, trailing_zeros
from .cards import QUEEN, SUITS, card_name, mask_to_cards, parse_card

#: Deadline of a hidden-origin card that is never needed before now.
_NO_DEADLINE = math.inf
_EXCHANGES = ("exchange", "exchange-on-close")


class WorldReconstructionError(AssertionError):
    """A world that cannot be rebuilt or does not replay to itself: a bug, never bad input."""


# ---- numba: drawing hidden cards ---------------------------------------------------------


@njit(cache=True, inline="always")
def _random_index(rng, mask):
    """A uniform index below the number of cards in ``mask``: ``(rng, index)``."""
    return core.random_below(rng, popcount(mask))


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


@njit(cache=True)
def sample_hidden(
    allowed, unknown, hidden_opponent, hidden_talon, ordered, n, seed, hidden_out, talon_out
):
    """Draw ``n`` i.i.d. uniform worlds from ``seed``.

    World ``i`` is the opponent's hidden cards ``hidden_out[i]`` and the hidden
    talon cards ``talon_out[i, :hidden_talon]``, top first.
    """
    rng = core.seed_rng(seed)
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
def _sample_records(
    view_records, opponent, allowed, unknown, hidden_opponent, ordered, seed, worlds
):
    rng = core.seed_rng(seed)
    for i in range(len(worlds)):
        rng = sample_world_record(
            rng, worlds, i, view_records[0], opponent, allowed, unknown, hidden_opponent, ordered
        )


# ---- the numbers that define a view's worlds ------------------------------------------------


@dataclass(frozen=True)
class WorldSpec:
    """What the samplers need from a view (all plain integers)."""

    opponent: int
    unknown: int  # cards in the opponent's hand (not known) or at hidden talon positions
    allowed: int  # the unknown cards that may be in the opponent's hand
    hidden_opponent: int  # opponent cards not known
    hidden_talon: int  # hidden talon positions
    ordered: bool  # whether the hidden talon order counts (the talon is open)


def world_spec(view) -> WorldSpec:
    """The world-defining numbers of ``view``, checked for consistency."""
    unknown = int(view.unknown)
    allowed = unknown & ~int(view.excluded_opponent)
    hidden_opponent = int(view.hidden_opponent)
    hidden_talon = int(view.hidden_talon)
    if (
        unknown.bit_count() != hidden_opponent + hidden_talon
        or allowed.bit_count() < hidden_opponent
    ):
        raise WorldReconstructionError(
            f"inconsistent view: {unknown.bit_count()} unknown cards, {allowed.bit_count()} of "
            f"them allowed in the opponent's hand, for {hidden_opponent} hidden opponent cards "
            f"and {hidden_talon} hidden talon positions"
        )
    return WorldSpec(
        opponent=int(view.opponent),
        unknown=unknown,
        allowed=allowed,
        hidden_opponent=hidden_opponent,
        hidden_talon=hidden_talon,
        ordered=view.closed_by is None and hidden_talon > 0,
    )


def count_worlds(view) -> int:
    """The exact number of worlds of ``view`` (see the module docstring)."""
    spec = world_spec(view)
    subsets = math.comb(spec.allowed.bit_count(), spec.hidden_opponent)
    return subsets * (math.factorial(spec.hidden_talon) if spec.ordered else 1)


# ---- Python entry points -------------------------------------------------------------------


def sample_world_records(view, n: int, seed) -> np.ndarray:
    """``n`` i.i.d. uniform worlds as ``core.STATE_DTYPE`` records, from an integer ``seed``.

    With equal seeds these are the worlds ``sample_worlds`` returns.
    """
    n = _check_count(n)
    seed = _check_seed(seed)
    spec = world_spec(view)
    worlds = np.zeros(n, dtype=core.STATE_DTYPE)
    _sample_records(
        view.record,
        spec.opponent,
        spec.allowed,
        spec.unknown,
        spec.hidden_opponent,
        spec.ordered,
        np.uint64(seed),
        worlds,
    )
    return worlds


def sample_worlds(view, n: int, rng) -> list[game_api.State]:
    """``n`` i.i.d. uniform worlds as replayed ``State`` objects.

    ``rng`` is an integer seed in [0, 2**64) or a ``numpy.random.Generator``
    (one seed is drawn from it).
    """
    n = _check_count(n)
    seed = _seed_from(rng)
    spec = world_spec(view)
    hidden = np.zeros(n, dtype=np.int64)
    talons = np.zeros((n, max(spec.hidden_talon, 1)), dtype=np.int64)
    sample_hidden(
        spec.allowed,
        spec.unknown,
        spec.hidden_opponent,
        spec.hidden_talon,
        spec.ordered,
        n,
        np.uint64(seed),
        hidden,
        talons,
    )
    plan = _DeckPlan(view)
    return [
        plan.world(int(hidden[i]), [int(c) for c in talons[i, : spec.hidden_talon]])
        for i in range(n)
    ]


def enumerate_worlds(view, limit: int = 100_000) -> list[game_api.State]:
    """Every world of ``view`` in a fixed order; more than ``limit`` worlds is a ValueError.

    Order: opponent subsets ascending (as ``itertools.combinations`` of the
    sorted allowed cards), then talon orders (``itertools.permutations``).
    """
    if not _is_int(limit) or limit < 0:
        raise ValueError(f"invalid limit {limit!r}: the limit is an integer >= 0")
    count = count_worlds(view)
    if count > limit:
        raise ValueError(f"the view has {count} worlds, more than the limit {limit}")
    spec = world_spec(view)
    plan = _DeckPlan(view)
    worlds = []
    for subset in itertools.combinations(mask_to_cards(spec.allowed), spec.hidden_opponent):
        hidden = sum(1 << card for card in subset)
        rest = mask_to_cards(spec.unknown & ~hidden)
        orders = itertools.permutations(rest) if spec.ordered else [rest]
        worlds.extend(plan.world(hidden, list(order)) for order in orders)
    return worlds


# ---- rebuilding a world's deck ---------------------------------------------------------------


class _DeckPlan:
    """A world's deck, rebuilt from public facts and the player's own facts only.

    Deck positions come from the compiled deal pattern. The player's initial
    hand fills his hand positions (ascending); his draws, read from his hand
    log, fill the talon positions they came from (the trick winner draws the
    top card, the loser the next; at the last draw the loser takes the bottom
    card, which is public); the trump position holds the initial face-up card.
    The opponent's initial hand and face-down draws are his *slots*. The cards
    that fill them are his *hidden-origin* cards: those he played, showed in a
    marriage, exchanged away or still holds that did not come to him publicly
    (by an exchange or as the bottom card). Each has a deadline, the first
    history index at which it must be in his hand; held cards never needed
    have none. Cards sorted by deadline go to the slots in time order
    (earliest deadline first), which succeeds whenever any assignment does.
    The plan is made once per view; ``world`` completes it with one world.
    """

    def __init__(self, view) -> None:
        rules = view.game.rule_array[0]
        self.view = view
        self.action_ids = [parse_action(action) for _, action in view.history]
        hand_size = int(rules["hand_size"])
        talon_cards = int(rules["deck_size"]) - 2 * hand_size
        bottom_position = int(rules["trump_position"])
        talon_positions = [int(p) for p in rules["talon_positions"][: talon_cards - 1]]
        talon_positions.append(bottom_position)
        self.deck = [-1] * int(rules["deck_size"])
        self.deck[bottom_position] = int(view.initial_face_up)
        # (time, deck position) of the opponent's slots, in time order; -1 is the deal.
        self.slots: list[tuple[int, int]] = []
        own_cards = iter(mask_to_cards(int(view.initial_hand)))
        own_owner = 0 if view.player != view.dealer else 1  # 0: the non-dealer
        for k in range(2 * hand_size):
            position = int(rules["hand_positions"][k])
            if int(rules["hand_owner"][k]) == own_owner:
                self.deck[position] = next(own_cards)
            else:
                self.slots.append((-1, position))
        record = view.record[0]
        exchange_card = int(record["trump"]) * 6 + int(rules["exchange_rank"])
        over = int(record["phase"]) == core.OVER
        bottom = int(view.initial_face_up)
        public = 0  # the opponent's cards that came to him publicly and are still in his hand
        self.deadlines: dict[int, int] = {}
        draws = 0
        history = view.history
        previous = int(view.initial_hand)
        for i, (actor, action) in enumerate(history):
            word, _, argument = action.partition(" ")
            own = int(view.own_hand_log[i])
            gained, previous = own & ~previous, own
            if actor == view.opponent:
                needed, leaving = self._needed(word, argument, exchange_card, history, i)
                for card in needed:
                    if not public >> card & 1:
                        self.deadlines.setdefault(card, i)
                if word == "marry" and over and i == len(history) - 1:
                    leaving = ()  # R-A8: the claim ended the deal before the card was led
                for card in leaving:
                    public &= ~(1 << card)
            if word in _EXCHANGES:
                if actor == view.opponent:
                    public |= 1 << bottom
                bottom = exchange_card
            elif gained:  # both players drew
                winner = history[i + 1][0] if i + 1 < len(history) else int(record["leader"])
                top = 2 * draws
                draws += 1
                own_index, other_index = (top, top + 1) if winner == view.player else (top + 1, top)
                if own_index < talon_cards - 1:
                    self.deck[talon_positions[own_index]] = gained.bit_length() - 1
                if other_index == talon_cards - 1:
                    public |= 1 << bottom
                else:
                    self.slots.append((i, talon_positions[other_index]))
        if 2 * draws != record["talon_top"]:
            raise WorldReconstructionError(
                f"{draws} draws in the history but the talon top is {record['talon_top']}"
            )
        if public & ~int(view.known_opponent):
            raise WorldReconstructionError(
                f"the opponent holds {_names(public & ~int(view.known_opponent))}, which came to "
                "him publicly, but the view does not know it"
            )
        self.public = public
        start = int(record["talon_top"])
        self.talon_positions = talon_positions[start : start + int(view.hidden_talon)]

    @staticmethod
    def _needed(word, argument, exchange_card, history, i):
        """Cards the opponent must hold for his action ``i``, and the cards leaving his hand."""
        if word == "play":
            card = parse_card(argument)
            return (card,), (card,)
        if word in ("marry", "marry-claim"):
            led = parse_card(argument) if word == "marry" else -1
            suit = led // 6 if word == "marry" else SUITS.index(argument)
            pair = (suit * 6 + QUEEN, suit * 6 + QUEEN + 1)
            return pair, ((led,) if word == "marry" else ())
        if word in _EXCHANGES:
            return (exchange_card,), (exchange_card,)
        if word == "pass" and i > 0 and history[i - 1][1] == "close":
            return (exchange_card,), ()  # L3 is offered only to the holder of the exchange card
        return (), ()

    def world(self, hidden: int, talon_cards: list[int]) -> game_api.State:
        """The replayed ``State`` of one world: the opponent's ``hidden`` cards and talon order."""
        view = self.view
        deck = list(self.deck)
        hand = int(view.known_opponent) | hidden
        cards = set(self.deadlines) | set(mask_to_cards(hand & ~self.public))
        ordered = sorted(cards, key=lambda card: (self.deadlines.get(card, _NO_DEADLINE), card))
        if len(ordered) != len(self.slots):
            raise WorldReconstructionError(
                f"{len(ordered)} hidden-origin opponent cards for {len(self.slots)} slots"
            )
        for card, (time, position) in zip(ordered, self.slots, strict=True):
            if self.deadlines.get(card, _NO_DEADLINE) <= time:
                raise WorldReconstructionError(
                    f"no slot of the opponent receives {card_name(card)} before action "
                    f"{self.deadlines[card]}"
                )
            deck[position] = card
        for position, card in zip(self.talon_positions, talon_cards, strict=True):
            deck[position] = card
        if sorted(deck) != view.game.deck_cards:
            raise WorldReconstructionError(f"the rebuilt deck {_names_list(deck)} is no deck")
        state = game_api.State(view.game, np.array(deck, dtype=np.int64), view.dealer)
        for action in self.action_ids:
            state.apply(action)
        expected = np.zeros(1, dtype=core.STATE_DTYPE)
        talon = np.array(talon_cards + [0], dtype=np.int64)  # never empty, for numba
        fill_world_record(expected, 0, view.record[0], view.opponent, hidden, talon)
        _check_replay(state.array, expected)
        return state


def _check_replay(replayed: np.ndarray, expected: np.ndarray) -> None:
    """The replayed record must be the world: every field, the live talon included."""
    world, truth = expected[0], replayed[0]
    top, end = int(world["talon_top"]), int(world["talon_end"])
    for dead in (slice(0, top), slice(end, None)):  # drawn cards and unused slots: not compared
        world["talon"][dead] = truth["talon"][dead]
    if replayed.tobytes() != expected.tobytes():
        differing = [
            f"{name} ({truth[name]} != {world[name]})"
            for name in core.STATE_DTYPE.names
            if not np.array_equal(truth[name], world[name])
        ]
        raise WorldReconstructionError(
            "the replayed world differs from the sampled one in " + ", ".join(differing)
        )


# ---- argument checks ---------------------------------------------------------------------------


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_count(n) -> int:
    if not _is_int(n) or n < 0:
        raise ValueError(f"invalid number of worlds {n!r}: give an integer >= 0")
    return int(n)


def _check_seed(seed) -> int:
    if not _is_int(seed) or not 0 <= seed < 2**64:
        raise ValueError(f"invalid seed {seed!r}: a seed is an integer in [0, 2**64)")
    return int(seed)


def _seed_from(rng) -> int:
    """A seed from an integer seed or one draw of a ``numpy.random.Generator``."""
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, 2**64, dtype=np.uint64))
    if not _is_int(rng) or not 0 <= rng < 2**64:
        raise ValueError(
            f"invalid rng {rng!r}: give an integer seed in [0, 2**64) or a numpy.random.Generator"
        )
    return int(rng)


def _names(mask: int) -> str:
    return " ".join(card_name(card) for card in mask_to_cards(mask))


def _names_list(cards: list[int]) -> str:
    return " ".join(card_name(card) if card >= 0 else "??" for card in cards)
