"""The worlds of a multi-player view: the deals its seat cannot tell apart from the true
one (RULES_MULTI 1.17), counted, enumerated or sampled uniformly.

A world is a whole deal (hands as sets, the talon in order) whose replay of the deal's
actions is legal and gives the seat exactly the same view. The view fixes the seat's own
cards at the deck positions it received and the face-up card at its place; every other
position holds an unseen card. Three kinds of public fact restrict where an unseen card
may lie:

* a card another seat showed (played, declared in a marriage or a meld, exchanged, the
  called card by a durchmars announcement) lies at one of that seat's positions
  received before the action that showed it;
* a follower who did not follow suit (or trump, or head) holds none of the cards the
  rule would have forced: none of them lies at his positions received by then, unless
  he had already played it (``TableView.exclusions``);
* a caller who may not call his own card (``call_own_card = false``) does not hold it
  among the cards he called on (his first batch under ``call_timing = first_batch``);
* at a first-batch call, a seat's later cards are not yet its own (M2).

These make the candidates a bipartite matching of card classes to position classes,
which a dynamic program counts exactly and samples uniformly. Every candidate is then
replayed and kept only if it gives the same view, which also enforces the facts not
listed above: a partner's meld decision point (``leader_and_partner``), deal ends that
depend on hidden sides (``claims_before_reveal``). Where such a
fact occurs the count comes from enumeration (small games only, ``limit``); otherwise
from the program, and every sampled candidate passes.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

from .engine import multi_core as mc
from .engine.cards import card_name, parse_card
from .engine.checks import check_integer, check_seed
from .table_view import TableView, call_positions

ENUMERATION_LIMIT = 2_000_000  # candidates walked by enumerate_worlds
SAMPLING_TRIES = 200  # candidates drawn per world wanted before sample_worlds gives up


@dataclass(frozen=True)
class WorldLayout:
    """What a view fixes of the deck and where each unseen card may lie."""

    fixed: dict  # deck position -> card index
    free: tuple  # deck positions whose card is unseen
    cards: tuple  # the unseen cards
    allowed: dict  # card -> frozenset of the free positions it may occupy
    residual: bool  # facts only the replay checks (see the module docstring)


def _gained(view: TableView, time: int) -> int:
    before = view.hand_at_deal if time == 1 else view.hand_history[time - 2]
    return view.hand_history[time - 1] & ~before


def _marriage(suit: int) -> list[int]:
    return [suit * 8 + 4, suit * 8 + 5]  # the queen and the king


def _shown_cards(view: TableView, seat: int, action: int) -> list[int]:
    """The cards an action shows to be in its seat's hand at that moment."""
    if action < mc.A_MARRY:
        return [action]
    if action < mc.A_CALL:
        return _marriage((action - mc.A_MARRY) // 8)
    if action >= mc.A_MARRY_CLAIM:
        return _marriage((action - mc.A_MARRY_CLAIM) % 4)
    if action in (mc.A_EXCHANGE, mc.A_EXCHANGE_ON_CLOSE):
        rules = view.game.rules
        return [parse_card(rules.exchange_card_rank + view.face_up_at_deal[1])]
    caller = (view.dealer + 1) % view.num_players
    if action == mc.A_DURCHMARS and view.called_card and seat != caller:
        return [parse_card(view.called_card)]  # only the holder may announce besides him
    return []


def _fixed_cards(view: TableView) -> dict:
    """The cards at the positions the view knows: its own and the face-up card."""
    fixed: dict[int, int] = {}
    batch = [c for c in range(32) if view.first_batch >> c & 1]  # first: at its positions
    own = batch + sorted(c for c in range(32) if (view.hand_at_deal & ~view.first_batch) >> c & 1)
    initial = [p for p, receipt in enumerate(view.receipts) if receipt == (view.seat, 0)]
    fixed.update(zip(initial[: len(own)], own, strict=True))  # at a first-batch call, the batch
    face_up = view.game.talon_positions[-1] if view.face_up_at_deal else -1
    for position, receipt in enumerate(view.receipts):
        if receipt and receipt[0] == view.seat and receipt[1] > 0 and position != face_up:
            fixed[position] = _gained(view, receipt[1]).bit_length() - 1
    if face_up >= 0:
        fixed[face_up] = parse_card(view.face_up_at_deal)
    return fixed


def _positions_by(view: TableView, seat: int, latest: int, free) -> set:
    """``seat``'s free positions received after at most ``latest`` actions."""
    return {
        p
        for p in free
        if view.receipts[p] and view.receipts[p][0] == seat and view.receipts[p][1] <= latest
    }


@functools.lru_cache(maxsize=256)  # views are equal (and hash) by their key
def world_layout(view: TableView) -> WorldLayout:
    """The deck positions a view fixes and where each unseen card may lie (module docstring)."""
    rules = view.game.rules
    fixed = _fixed_cards(view)
    known = set(fixed.values())
    free = tuple(p for p in range(len(view.receipts)) if p not in fixed)
    cards = tuple(c for c in view.game.deck_cards if c not in known)
    allowed = {card: set(free) for card in cards}
    owner: dict[int, tuple[int, int]] = {}  # card -> (seat, action that showed it)
    for index, (seat, action) in enumerate(view.history):
        for card in _shown_cards(view, seat, action):
            if seat != view.seat and card in allowed and card not in owner:
                owner[card] = (seat, index)
                allowed[card] &= _positions_by(view, seat, index, free)
    for seat, index, mask in view.exclusions:
        forbidden = _positions_by(view, seat, index, free)
        for card in allowed:
            gone = card in owner and owner[card][0] == seat and owner[card][1] < index
            if mask >> card & 1 and not gone:
                allowed[card] -= forbidden
    if view.called_card and not rules.call_own_card:
        called = parse_card(view.called_card)
        if called in allowed:
            caller = (view.dealer + 1) % view.num_players
            allowed[called] -= set(call_positions(view.game, view.receipts, caller))
    residual = rules.marriage_declarers == "leader_and_partner" or (
        rules.sides == "called_card" and rules.claims_before_reveal
    )
    frozen = {card: frozenset(positions) for card, positions in allowed.items()}
    return WorldLayout(fixed, free, cards, frozen, residual)


def _classes(layout: WorldLayout):
    """Cards grouped by their allowed positions, and positions grouped alike: ``(card
    classes [(cards, allowed position-class indices)], position classes [positions])``."""
    by_allowed: dict[frozenset, list[int]] = {}
    for card in layout.cards:
        by_allowed.setdefault(layout.allowed[card], []).append(card)
    signature: dict[int, tuple] = {
        p: tuple(p in allowed for allowed in by_allowed) for p in layout.free
    }
    position_classes: dict[tuple, list[int]] = {}
    for position in layout.free:
        position_classes.setdefault(signature[position], []).append(position)
    keys = list(position_classes)
    card_classes = [
        (cards, tuple(j for j, key in enumerate(keys) if key[i]))
        for i, cards in enumerate(by_allowed.values())
    ]
    # The most constrained first: the program then branches little before the wide
    # classes, whose last one has a single way to fill what is left.
    card_classes.sort(key=lambda item: (len(item[1]), len(item[0])))
    return card_classes, [position_classes[key] for key in keys]


def _splits(total: int, classes: tuple, capacity: tuple):
    """Every way to put ``total`` cards into ``classes`` within ``capacity``."""
    room = [0] * (len(classes) + 1)  # the capacity of classes[k:]
    for k in range(len(classes) - 1, -1, -1):
        room[k] = room[k + 1] + capacity[classes[k]]

    def fill(k: int, left: int):
        if k == len(classes):
            yield ()
            return
        # Only as few cards here as the classes after it can take the rest of.
        for here in range(min(left, capacity[classes[k]]), max(0, left - room[k + 1]) - 1, -1):
            for tail in fill(k + 1, left - here):
                yield ((classes[k], here), *tail)

    if total <= room[0]:
        yield from fill(0, total)


class _Matchings:
    """The number of ways to put the card classes on the position classes (every
    position filled, each card where it is allowed), and uniform draws of one."""

    def __init__(self, layout: WorldLayout) -> None:
        self.card_classes, self.position_classes = _classes(layout)
        self.count = functools.lru_cache(maxsize=None)(self._count)
        self.weighted = functools.lru_cache(maxsize=None)(self._weighted)
        capacity = tuple(len(positions) for positions in self.position_classes)
        self.total = self.count(0, capacity)

    def _options(self, i: int, capacity: tuple):
        cards, classes = self.card_classes[i]
        for split in _splits(len(cards), classes, capacity):
            left = list(capacity)
            weight = math.factorial(len(cards))
            for j, k in split:
                left[j] -= k
                weight //= math.factorial(k)
            yield split, weight, tuple(left)

    def _count(self, i: int, capacity: tuple) -> int:
        if i == len(self.card_classes):
            return math.prod(math.factorial(len(p)) for p in self.position_classes)
        return sum(w * self.count(i + 1, left) for _, w, left in self._options(i, capacity))

    def _weighted(self, i: int, capacity: tuple) -> tuple[list, list]:
        """Class ``i``'s splits at ``capacity`` and the number of matchings through each."""
        options = list(self._options(i, capacity))
        return options, [w * self.count(i + 1, left) for _, w, left in options]

    def draw(self, rng: random.Random) -> dict:
        """One matching, uniformly: ``{position: card}``."""
        capacity = tuple(len(positions) for positions in self.position_classes)
        buckets: list[list[int]] = [[] for _ in self.position_classes]
        for i, (cards, _) in enumerate(self.card_classes):
            options, weights = self.weighted(i, capacity)
            split, _, capacity = rng.choices(options, weights=weights)[0]
            shuffled = list(cards)
            rng.shuffle(shuffled)
            for j, k in split:
                buckets[j].extend(shuffled[:k])
                shuffled = shuffled[k:]
        placed = {}
        for positions, bucket in zip(self.position_classes, buckets, strict=True):
            rng.shuffle(bucket)
            placed.update(zip(positions, bucket, strict=True))
        return placed


@functools.lru_cache(maxsize=64)
def _matchings(view: TableView) -> _Matchings:
    """The counted matchings of a view (kept, so that drawing again costs no count)."""
    return _Matchings(world_layout(view))


def _deck(view: TableView, layout: WorldLayout, placed: dict) -> list[str]:
    cards = {**layout.fixed, **placed}
    return [card_name(cards[position]) for position in range(len(view.receipts))]


def _consistent(view: TableView, deck: list[str]):
    """The replayed world of ``deck`` if it gives ``view.seat`` the same view, else None."""
    try:
        world = view.game.replay(deck, view.dealer, [action for _, action in view.history])
    except ValueError:
        return None
    return world if world.view(view.seat).key() == view.key() else None


def _orderings(view: TableView) -> int:
    """How many position orders each distinct deal has: the other seats' dealt hands."""
    sizes = [sum(1 for r in view.receipts if r == (seat, 0)) for seat in range(view.num_players)]
    return math.prod(math.factorial(size) for seat, size in enumerate(sizes) if seat != view.seat)


def _canonical(view: TableView, deck: list[str]) -> tuple:
    """A deal up to the order of each dealt hand."""
    dealt = [
        tuple(sorted(deck[p] for p, r in enumerate(view.receipts) if r == (seat, 0)))
        for seat in range(view.num_players)
    ]
    rest = tuple(deck[p] for p, r in enumerate(view.receipts) if r is None or r[1] > 0)
    return tuple(dealt), rest


def enumerate_worlds(view: TableView, limit: int = ENUMERATION_LIMIT) -> list:
    """Every world of ``view`` once (a replayed ``TableState`` each)."""
    layout = world_layout(view)
    candidates = _matchings(view).total // _orderings(view)
    if candidates > check_integer(limit, "limit", 1):
        raise ValueError(
            f"{candidates} candidate deals to walk for this view, above the limit {limit}: "
            "count_worlds counts them and sample_worlds draws them without a walk"
        )
    worlds, seen = [], set()
    for placed in _walk(layout, 0, {}):
        deck = _deck(view, layout, placed)
        key = _canonical(view, deck)
        if key not in seen:
            seen.add(key)
            world = _consistent(view, deck)
            if world is not None:
                worlds.append(world)
    return worlds


def _walk(layout: WorldLayout, k: int, placed: dict):
    """Every matching of the unseen cards to the free positions, card by card."""
    if k == len(layout.cards):
        yield dict(placed)
        return
    card = layout.cards[k]
    taken = set(placed)
    for position in sorted(layout.allowed[card] - taken):
        placed[position] = card
        yield from _walk(layout, k + 1, placed)
        del placed[position]


def count_worlds(view: TableView, limit: int = ENUMERATION_LIMIT) -> int:
    """How many deals ``view``'s seat cannot tell apart from the true one: by the
    dynamic program, or by enumeration where a fact only the replay checks occurs."""
    layout = world_layout(view)
    if layout.residual:
        return len(enumerate_worlds(view, limit))
    return _matchings(view).total // _orderings(view)


def replay_checks_more(view: TableView) -> bool:
    """Whether a fact only the replay checks occurs in ``view``'s game (then not every
    candidate is a world, and ``count_worlds`` enumerates)."""
    return world_layout(view).residual


def draw_candidates(view: TableView, count: int, seed: int) -> list[list[str]]:
    """``count`` candidate decks drawn uniformly by the dynamic program, before the
    replay check (``world_of``)."""
    rng = random.Random(check_seed(seed))
    layout, matchings = world_layout(view), _matchings(view)
    return [
        _deck(view, layout, matchings.draw(rng)) for _ in range(check_integer(count, "count", 1))
    ]


def world_of(view: TableView, deck: list[str]):
    """The replayed world of ``deck`` if it gives ``view``'s seat the same view, else None."""
    return _consistent(view, deck)


def sample_worlds(view: TableView, count: int, seed: int, tries: int = SAMPLING_TRIES) -> list:
    """``count`` worlds of ``view`` drawn uniformly and independently (with repetition),
    from ``seed``; a ValueError if ``tries`` candidates per world find too few."""
    count = check_integer(count, "count", 1)
    rng = random.Random(check_seed(seed))
    layout, matchings = world_layout(view), _matchings(view)
    worlds = []
    for _ in range(count * check_integer(tries, "tries", 1)):
        world = _consistent(view, _deck(view, layout, matchings.draw(rng)))
        if world is not None:
            worlds.append(world)
            if len(worlds) == count:
                return worlds
    raise ValueError(
        f"found {len(worlds)} of {count} worlds in {count * tries} candidates: "
        "this view's worlds are too rare for rejection; enumerate_worlds walks them all"
    )
