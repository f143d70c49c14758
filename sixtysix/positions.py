"""Positions without a history: the two-player table record (``multi_core``) of a leader's
decision, built from a description of it (``Game.position``) and checked for consistency.

A position is described from the leader's side: his hand, the cards gone in
tricks, the opponent's known cards, the face-up card and the talon size, the
credited totals, tricks and declared marriages as ``(leader, opponent)``. Which
trick took which gone card does not matter to the rest of the deal, so the
split of the gone cards between the players (``won``) may be left out: a split
that makes both players' card points is chosen. The unseen cards (the rest of
the deck) are the opponent's hidden cards and the hidden talon cards; a world
gives them (``opponent_hand``, ``talon``), or the first world in the order of
``worlds.ranked_hidden`` completes the position (the opponent's hidden cards
the lowest unseen cards, the talon the rest in ascending order).

The record starts as ``multi_core.deal`` of the stand-in deck returned with it, so the
fields the two-player game never changes (``team``, ``playing``, the call and auction
fields...) are those of every deal; the described ones are then written over it. It
equals the one that play reaches, field for field, except where the fields cannot be
known without a history and the rules never read them: the drawn cards before the
talon's top and the slots after its end (-1 here); at a pre-draw decision,
``turn_acted`` (0 here; play leaves the previous leader's turn there, which nothing
reads before the close or draw resets it); after a close, the closer's own entries of
``snap_tricks`` and ``snap_total`` (0 here: only the non-closer's are read); and the
cards outside the deck that play's follow-suit inference leaves in ``excluded`` (whole
suits: every reader intersects it with the unseen cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from .engine import multi_core as mc
from .engine.cards import (
    KING,
    NUM_CARDS,
    QUEEN,
    SUITS,
    card_index,
    card_name,
    mask_text,
    mask_to_cards,
    parse_card,
    parse_suit,
    suit_cards,
    suit_of,
)
from .engine.checks import check_integer, check_player

Card = str | int
Pair = Sequence  # a (leader, opponent) pair


def _mask(items: Sequence[Card], what: str, deck_mask: int) -> int:
    """A card list (strings or indices) as a mask: each card in the deck, none twice."""
    if isinstance(items, str | bytes) or not isinstance(items, Sequence | set | frozenset):
        raise ValueError(f"{what} must be a list of cards like ['QH', 'KS'], got {items!r}")
    mask = 0
    for item in items:
        card = parse_card(item) if isinstance(item, str) else item
        if isinstance(card, bool) or not isinstance(card, int | np.integer):
            raise ValueError(f"invalid card {item!r} in {what}: give card strings like 'QH'")
        card = int(card)
        if not 0 <= card < NUM_CARDS or not deck_mask >> card & 1:
            name = card_name(card) if 0 <= card < NUM_CARDS else repr(item)
            raise ValueError(
                f"card {name} in {what} is not in this game's deck ({mask_text(deck_mask)})"
            )
        if mask >> card & 1:
            raise ValueError(f"card {card_name(card)} is listed twice in {what}")
        mask |= 1 << card
    return mask


def _pair(value, what: str) -> tuple:
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != 2:
        raise ValueError(f"{what} must be a [leader, opponent] pair, got {value!r}")
    return tuple(value)


def _suits(items, what: str) -> int:
    """Marriage suits (letters) as a suit bit mask, none twice."""
    if isinstance(items, str) or not isinstance(items, Sequence):
        raise ValueError(f"{what} must be a list of suits like ['H'], got {items!r}")
    mask = 0
    for item in items:
        suit = parse_suit(item)
        if mask >> suit & 1:
            raise ValueError(f"the marriage in {SUITS[suit]} is listed twice in {what}")
        mask |= 1 << suit
    return mask


def card_points_of(mask: int, rules) -> int:
    """Card points of the cards in ``mask`` (compiled rules)."""
    return sum(int(rules["card_points"][c]) for c in mask_to_cards(mask))


def split_gone(gone: int, count: int, points: int, rules) -> int | None:
    """A ``count``-card subset of ``gone`` worth ``points`` card points, or None if none is."""
    reachable = {(0, 0): 0}  # (cards, points) -> a subset making them
    for card in mask_to_cards(gone):
        value = int(rules["card_points"][card])
        for (n, p), subset in list(reachable.items()):
            reachable.setdefault((n + 1, p + value), subset | 1 << card)
    return reachable.get((count, points))


class _Cards(NamedTuple):
    """The described cards as masks, from the leader's side; ``won`` is the given split of
    the gone cards ``(leader, opponent)`` or None."""

    own: int
    known: int
    gone: int
    won: tuple[int, int] | None
    face_up: int
    unseen: int


def position_record(
    game,
    *,
    leader: int,
    trump: str,
    face_up: Card | None,
    talon_size: int,
    hand: Sequence[Card],
    gone: Sequence[Card] | None,
    won: Pair | None,
    opponent_known: Sequence[Card],
    points: Pair,
    tricks: Pair,
    marriages: Pair,
    opponent_hand: Sequence[Card] | None,
    talon: Sequence[Card] | None,
    leader_known: Sequence[Card] | None,
    excluded: Pair,
    closed_by: int | None,
    close_snapshot: Pair | None,
    before_draw: bool,
    dealer: int | None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The checked record of a described position, a stand-in deck and the dealer (see
    ``Game.position``); an inconsistent description is a ValueError saying what is wrong."""
    rules = game.rule_array[0]
    deck_mask = int(rules["deck_mask"])
    leader = check_player(leader, "leader")
    dealer = 1 - leader if dealer is None else check_player(dealer, "dealer")
    trump_suit = parse_suit(trump)
    if not trump_suit < game.rules.suits:
        raise ValueError(
            f"trump {trump!r} is not a suit of this game ({SUITS[: game.rules.suits]})"
        )
    points = tuple(check_integer(p, "points", 0) for p in _pair(points, "points"))
    tricks = tuple(check_integer(t, "tricks", 0) for t in _pair(tricks, "tricks"))
    talon_size = _checked_talon_size(game, talon_size)
    open_talon = closed_by is None and talon_size > 0

    cards = _cards(
        hand, gone, won, opponent_known, face_up, trump, trump_suit, talon_size, deck_mask
    )
    _check_counts(game, cards, tricks, talon_size, open_talon, before_draw)
    theirs, talon_cards = _world(cards, opponent_hand, talon, deck_mask)

    married, values = _marriages(game, marriages, trump_suit, cards)
    _check_turn(rules, tricks, leader, dealer, talon_size, open_talon, before_draw)
    record_points, record_marriage, card = _point_fields(
        game, cards, points, tricks, married, values, trump_suit
    )
    leader_won = _leader_won(rules, cards, points, tricks, card)
    _check_no_claim(game, points)

    hands = [0, 0]
    hands[leader], hands[1 - leader] = cards.own, theirs
    deck = _stand_in_deck(game, hands, talon_cards, cards.face_up, dealer)
    array = np.zeros(1, dtype=mc.TWO_PLAYER_STATE_DTYPE)
    mc.deal_array(array, game.rule_array, deck, dealer)
    record = array[0]
    for side, player in enumerate((leader, 1 - leader)):
        record["points"][player] = record_points[side]
        record["marriage"][player] = record_marriage[side]
        record["tricks"][player] = tricks[side]
    record["married_cards"] = _married_cards(married)
    record["hand"][:] = hands
    record["in_hands"] = cards.own.bit_count() + theirs.bit_count()
    record["won"][leader], record["won"][1 - leader] = leader_won, cards.gone & ~leader_won
    shown = _leader_shown(cards.own, married[0], leader_known, deck_mask)
    record["shown"][leader], record["shown"][1 - leader] = shown, cards.known
    _fill_excluded(record, excluded, leader, deck_mask)
    _fill_talon(game, record, talon_size, talon_cards, cards.face_up)
    record["trump"] = trump_suit
    record["phase"] = mc.PRE_DRAW if before_draw else mc.LEAD
    record["to_move"] = record["leader"] = leader
    _fill_close(rules, record, closed_by, close_snapshot, talon_size)
    record["tricks_done"] = sum(tricks)
    # The last trick's winner; play leaves him in ``winning_seat`` too until the next lead.
    record["last_winner"] = record["winning_seat"] = leader if sum(tricks) else -1
    return array, deck, dealer


def _checked_talon_size(game, talon_size) -> int:
    full_talon = game.rules.talon_size
    talon_size = check_integer(talon_size, "talon_size", 0, full_talon + 1)
    if talon_size % 2 or talon_size == 1:
        raise ValueError(
            f"invalid talon_size {talon_size}: the talon holds an even number of cards "
            f"(0 to {full_talon} in {game.preset})"
        )
    return talon_size


# ---- the cards -----------------------------------------------------------------


def _cards(
    hand, gone, won, opponent_known, face_up, trump, trump_suit, talon_size, deck_mask
) -> _Cards:
    """The described cards, each in the deck and none in two places."""
    own = _mask(hand, "hand", deck_mask)
    known = _mask(opponent_known, "opponent_known", deck_mask)
    if won is not None:
        if gone is not None:
            raise ValueError("give the gone cards either as gone or split into won, not both")
        won_pair = _pair(won, "won")
        won_masks = (
            _mask(won_pair[0], "won[leader]", deck_mask),
            _mask(won_pair[1], "won[opponent]", deck_mask),
        )
        _disjoint({"won[leader]": won_masks[0], "won[opponent]": won_masks[1]})
        gone_mask = won_masks[0] | won_masks[1]
    else:
        gone_mask = _mask([] if gone is None else gone, "gone", deck_mask)
        won_masks = None
    bottom = 0
    if face_up is not None:
        bottom = _mask([face_up], "face_up", deck_mask)
        if suit_of(bottom.bit_length() - 1) != trump_suit:
            raise ValueError(f"face_up {face_up!r} is not a trump: the trump suit is {trump!r}")
    if (face_up is None) != (talon_size == 0):
        raise ValueError(
            f"face_up {face_up!r} with talon_size {talon_size}: the face-up card (the talon's "
            "last card) is null exactly when the talon is empty"
        )
    _disjoint({"hand": own, "gone": gone_mask, "opponent_known": known, "face_up": bottom})
    unseen = deck_mask & ~(own | gone_mask | known | bottom)
    return _Cards(own, known, gone_mask, won_masks, bottom, unseen)


def _check_counts(game, cards: _Cards, tricks, talon_size, open_talon, before_draw) -> None:
    """The hand, the gone and the unseen cards fit the tricks and the talon size."""
    settings = game.rules
    tricks_done = tricks[0] + tricks[1]
    size = cards.own.bit_count()
    if size == 0:
        raise ValueError("the hand is empty: a position is a decision with cards to play")
    if cards.gone.bit_count() != 2 * tricks_done:
        raise ValueError(
            f"{cards.gone.bit_count()} cards gone for {tricks_done} tricks {list(tricks)}: each "
            "trick takes two cards"
        )
    draws = (settings.talon_size - talon_size) // 2
    expected_draws = tricks_done - 1 if before_draw else tricks_done
    if open_talon and draws != expected_draws:
        raise ValueError(
            f"talon_size {talon_size} after {tricks_done} tricks: with the talon open "
            f"{game.preset} leaves {settings.talon_size - 2 * expected_draws} cards in the talon"
        )
    if not open_talon and draws > tricks_done:
        raise ValueError(
            f"talon_size {talon_size} after only {tricks_done} tricks: the talon shrinks by "
            "two cards a trick"
        )
    hand_size = settings.hand_size - tricks_done + draws
    if size != hand_size:
        raise ValueError(
            f"{size} cards in hand: after {tricks_done} tricks with {talon_size} cards left "
            f"in the talon the leader holds {hand_size}"
        )
    known, unseen = cards.known.bit_count(), cards.unseen.bit_count()
    hidden_opponent = size - known
    hidden_talon = max(talon_size - 1, 0)
    if hidden_opponent < 0 or unseen != hidden_opponent + hidden_talon:
        raise ValueError(
            f"{unseen} unseen cards ({mask_text(cards.unseen, 'none')}), but the opponent "
            f"holds {size} cards of which {known} are known and the talon hides "
            f"{hidden_talon}: {max(hidden_opponent, 0) + hidden_talon} cards should be unseen"
        )


# ---- the world: the opponent's hand and the talon order ---------------------------


def _world(cards: _Cards, opponent_hand, talon, deck_mask) -> tuple[int, list[int]]:
    """The opponent's hand and the hidden talon cards (top first): given, or the first
    world's."""
    size, known, unseen = cards.own.bit_count(), cards.known, cards.unseen
    if opponent_hand is None:
        if talon is not None:
            raise ValueError("a talon order needs the opponent's hand (opponent_hand) too")
        hidden = mask_to_cards(unseen)[: size - known.bit_count()]
        theirs = known | sum(1 << card for card in hidden)
    else:
        theirs = _mask(opponent_hand, "opponent_hand", deck_mask)
        if theirs & known != known or theirs & ~(known | unseen) or theirs.bit_count() != size:
            raise ValueError(
                f"opponent_hand {mask_text(theirs)} must hold the {size} cards of "
                f"opponent_known ({mask_text(known, 'none')}) plus unseen ones "
                f"({mask_text(unseen, 'none')})"
            )
    rest = unseen & ~theirs
    if talon is None:
        return theirs, mask_to_cards(rest)
    talon_mask = _mask(talon, "talon", deck_mask)
    if talon_mask != rest:
        raise ValueError(
            f"talon {list(talon)} must be the unseen cards the opponent does not hold "
            f"({mask_text(rest, 'none')}), top first, without the face-up card"
        )
    return theirs, [parse_card(c) if isinstance(c, str) else int(c) for c in talon]


# ---- points, tricks and marriages ---------------------------------------------------


def _marriage_value(settings, suit: int, trump_suit: int) -> int:
    return 2 * settings.marriage_points if suit == trump_suit else settings.marriage_points


def _marriages(game, marriages, trump_suit, cards: _Cards) -> tuple[list[int], list[int]]:
    """Each side's declared suits (a mask) and their marriage points, checked against the
    cards each side may have shown."""
    settings = game.rules
    deck_mask = int(game.rule_array[0]["deck_mask"])
    married = [
        _suits(suits, f"marriages[{who}]")
        for suits, who in zip(_pair(marriages, "marriages"), ("leader", "opponent"), strict=True)
    ]
    if married[0] & married[1]:
        raise ValueError("both players declared the same marriage")
    may_hold = (cards.own | cards.gone, cards.known | cards.gone)
    values = []
    for side, mask in enumerate(married):
        value = 0
        for suit in range(4):
            if not mask >> suit & 1:
                continue
            pair = (1 << card_index(suit, QUEEN)) | (1 << card_index(suit, KING))
            if suit >= settings.suits or pair & ~deck_mask:
                raise ValueError(f"no marriage in {SUITS[suit]} exists in {game.preset}")
            if pair & ~may_hold[side]:
                who = "the leader's hand" if side == 0 else "opponent_known"
                raise ValueError(
                    f"the marriage in {SUITS[suit]} was declared, so {mask_text(pair)} must "
                    f"each be gone or in {who}"
                )
            value += _marriage_value(settings, suit, trump_suit)
        values.append(value)
    return married, values


def _married_cards(married) -> int:
    """The cards of every suit whose marriage either side declared (``married_cards``)."""
    suits = married[0] | married[1]
    return sum(int(suit_cards(suit)) for suit in range(len(SUITS)) if suits >> suit & 1)


def _check_turn(rules, tricks, leader, dealer, talon_size, open_talon, before_draw) -> None:
    """The leader may lead: he took the last trick (or leads the first), and a pre-draw
    decision is one the rules allow."""
    tricks_done = tricks[0] + tricks[1]
    if tricks_done > 0 and tricks[0] == 0:
        raise ValueError("the leader has won no trick, but he leads after the first trick")
    if tricks_done == 0 and dealer == leader:
        raise ValueError("before the first trick the non-dealer leads: the dealer cannot lead")
    least = int(rules["close_min_talon"]) + 2
    if before_draw and not (
        tricks_done > 0
        and open_talon
        and talon_size >= least
        and rules["close_before_draw"]
        and rules["closing"]
    ):
        raise ValueError(
            "before_draw: a pre-draw decision follows a trick, with the talon open and at least "
            f"{least} cards in it, under rules with close_before_draw and closing_allowed"
        )


def _point_fields(game, cards: _Cards, points, tricks, married, values, trump_suit):
    """The record's points and marriage fields and each side's card points (leader first),
    checked against the gone cards."""
    rules, settings = game.rule_array[0], game.rules
    pending_rules = bool(rules["marry_pending"])
    credited = [values[s] if tricks[s] > 0 and not pending_rules else 0 for s in (0, 1)]
    record_points = [points[s] - credited[s] for s in (0, 1)]
    record_marriage = list(values)
    gone_points = card_points_of(cards.gone, rules)
    if pending_rules:  # validated marriages are in the points; the opponent's last may pend
        validated = points[0] + points[1] - gone_points - values[0]
        pending = values[1] - validated
        suit_values = {
            _marriage_value(settings, s, trump_suit) for s in range(4) if married[1] >> s & 1
        }
        if pending not in suit_values | {0}:
            raise ValueError(
                f"points {list(points)} do not fit the gone cards ({gone_points} card points) "
                f"and the marriages {values}: under next-trick validation the leader's marriages "
                "count and at most the opponent's last one pends"
            )
        record_marriage = [0, pending]
        card = [points[0] - values[0], points[1] - validated]
    else:
        card = record_points
    for side, who in enumerate(("leader", "opponent")):
        if card[side] < 0:
            raise ValueError(
                f"the {who}'s points {points[side]} are less than his counted marriages "
                f"({credited[side]})"
            )
        if tricks[side] == 0 and card[side] > 0:
            raise ValueError(
                f"the {who} has won no trick, so he has no card points, but his points are "
                f"{points[side]} (marriages count only once he wins a trick)"
            )
    if card[0] + card[1] != gone_points:
        raise ValueError(
            f"points {list(points)} minus counted marriages make {card[0] + card[1]} card "
            f"points, but the gone cards are worth {gone_points}"
        )
    return record_points, record_marriage, card


def _leader_won(rules, cards: _Cards, points, tricks, card) -> int:
    """The gone cards the leader took: the given split, checked, or one that makes his card
    points."""
    if cards.won is None:
        leader_won = split_gone(cards.gone, 2 * tricks[0], card[0], rules)
        if leader_won is None:
            raise ValueError(
                f"no {tricks[0]} tricks of the gone cards make the leader's {card[0]} card "
                f"points (points {list(points)} minus counted marriages)"
            )
        return leader_won
    for side, who in enumerate(("leader", "opponent")):
        if cards.won[side].bit_count() != 2 * tricks[side]:
            raise ValueError(
                f"won[{who}] holds {cards.won[side].bit_count()} cards for {tricks[side]} tricks"
            )
        if card_points_of(cards.won[side], rules) != card[side]:
            raise ValueError(
                f"won[{who}] is worth {card_points_of(cards.won[side], rules)} card points, "
                f"but his points make {card[side]}"
            )
    return cards.won[0]


def _check_no_claim(game, points) -> None:
    """Under automatic claims a player at the target has ended the deal."""
    if game.rules.claim_mode != "automatic":
        return
    target = game.rules.target
    for side, who in enumerate(("leader", "opponent")):
        if points[side] >= target:
            raise ValueError(
                f"the {who} has {points[side]} points: at {target} the deal ends "
                "(automatic claims), so no decision is left"
            )


# ---- the record ---------------------------------------------------------------------


def _fill_excluded(record, excluded, leader: int, deck_mask: int) -> None:
    excluded = _pair(excluded, "excluded")
    for side, player in enumerate((leader, 1 - leader)):
        mask = _mask(
            excluded[side], f"excluded[{'leader' if side == 0 else 'opponent'}]", deck_mask
        )
        hand = int(record["hand"][player])
        if mask & hand:
            raise ValueError(f"excluded cards {mask_text(mask & hand)} are in that hand")
        record["excluded"][player] = mask


def _fill_talon(game, record, talon_size: int, talon_cards, face_up: int) -> None:
    """The talon from its top on, the face-up card last; -1 for the drawn places."""
    full_talon = game.rules.talon_size
    draws = (full_talon - talon_size) // 2
    record["talon"][:] = -1
    record["talon_top"] = 2 * draws
    record["talon_end"] = full_talon
    if talon_size:
        record["talon"][2 * draws : full_talon - 1] = talon_cards
        record["talon"][full_talon - 1] = face_up.bit_length() - 1


def _fill_close(rules, record, closed_by, close_snapshot, talon_size: int) -> None:
    """Who closed the talon (-1: nobody) and the non-closer's tricks and total then."""
    if closed_by is None:
        if close_snapshot is not None:
            raise ValueError("close_snapshot is only for a closed talon (closed_by)")
        return
    closer = check_player(closed_by, "closed_by")
    if talon_size < int(rules["close_min_talon"]):
        raise ValueError(
            f"closed_by {closer} with talon_size {talon_size}: a closed talon "
            f"keeps at least {int(rules['close_min_talon'])} cards"
        )
    if close_snapshot is None:
        raise ValueError(
            "closed_by needs close_snapshot: the non-closer's (tricks, total) at the close"
        )
    snap = _pair(close_snapshot, "close_snapshot")
    record["closed_by"] = closer
    record["snap_tricks"][1 - closer] = check_integer(snap[0], "close_snapshot tricks", 0)
    record["snap_total"][1 - closer] = check_integer(snap[1], "close_snapshot total", 0)


def _disjoint(sets: dict[str, int]) -> None:
    names = list(sets)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            both = sets[first] & sets[second]
            if both:
                raise ValueError(f"card {mask_text(both)} is listed in both {first} and {second}")


def _leader_shown(own: int, married: int, leader_known, deck_mask: int) -> int:
    """The leader's cards the opponent knows: given, or the partners of his marriages."""
    if leader_known is not None:
        shown = _mask(leader_known, "leader_known", deck_mask)
        if shown & ~own:
            raise ValueError(f"leader_known {mask_text(shown & ~own)} is not in the hand")
        return shown
    pairs = sum(
        (1 << card_index(s, QUEEN)) | (1 << card_index(s, KING))
        for s in range(4)
        if married >> s & 1
    )
    return own & pairs


def _stand_in_deck(game, hands, talon_cards, face_up: int, dealer: int) -> np.ndarray:
    """A deck for a position without a history: it deals each player his hand ``hands``
    (padded with other cards when the hands have shrunk), puts the remaining talon cards
    (``talon_cards``, top first) where a deal puts the talon's last ones and the face-up
    card face up; the remaining cards fill the remaining places."""
    rules = game.rule_array[0]
    size = int(rules["deck_size"])
    order = [int(p) for p in rules["deal_order"][:size]]  # the hands', then the talon's
    seat_of = [int(offset) for offset in rules["deal_seat"][:size]]
    face_up_position = int(rules["face_up_position"])
    deck = [-1] * size
    for player in (0, 1):
        cards = iter(mask_to_cards(hands[player]))
        offset = 0 if player != dealer else 1  # the non-dealer is dealt first
        for position in order:
            if seat_of[position] == offset:
                card = next(cards, None)
                if card is not None:
                    deck[position] = card
    if face_up:
        talon = [p for p in order if seat_of[p] < 0 and p != face_up_position]
        for position, card in zip(talon[len(talon) - len(talon_cards) :], talon_cards, strict=True):
            deck[position] = card
        deck[face_up_position] = face_up.bit_length() - 1
    placed = {c for c in deck if c >= 0}
    rest = iter(c for c in game.deck_cards if c not in placed)
    return np.array([c if c >= 0 else next(rest) for c in deck], dtype=np.int64)
