"""Worlds as genuine ``State`` objects: a deck rebuilt from one player's knowledge alone,
the public history replayed on it.

``DeckPlan`` is made once per view and completes the deck with each world
that ``sixtysix.engine.worlds`` draws; the replayed state is checked against that
world field for field, so both players' views of a world make sense.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .engine.cards import MARRIAGE_PAIR, NUM_CARDS, card_index, mask_text, mask_to_cards, suit_shift
from .engine.inference import NO_DEADLINE
from .engine.worlds import WorldReconstructionError, fill_world_record
from .history import EXCHANGES

if TYPE_CHECKING:
    from .game import State
    from .view import PlayerView

#: Deadline of a hidden-origin card that is never needed before now.
_NO_DEADLINE = math.inf


class DeckPlan:
    """A world's deck, rebuilt from public facts and the player's own facts only.

    Deck positions come from the compiled deal pattern (``deal_order``,
    ``face_up_position``). The player's initial hand fills his hand positions
    (ascending); his draws, read from his hand log, fill the talon positions
    they came from (the trick winner draws the top card, the loser the next; at
    the last draw the loser takes the bottom card, which is public); the
    face-up position holds the initial face-up card.
    The opponent's initial hand and face-down draws are his *slots*. The cards
    that fill them are his *hidden-origin* cards: those he played, showed in a
    marriage, exchanged away or still holds that did not come to him publicly
    (by an exchange or as the bottom card). Each has a deadline, the first
    history index at which it must be in his hand; held cards never needed
    have none. Cards sorted by deadline go to the slots in time order
    (earliest deadline first), which succeeds whenever any assignment does.
    """

    def __init__(self, view: PlayerView) -> None:
        rules = view.game.rule_array[0]
        self.view = view
        hand_size = int(rules["hand_size"])
        dealt = 2 * hand_size
        talon_cards = int(rules["deck_size"]) - dealt
        # deal_order lists each hand's positions (the non-dealer's, then the dealer's), then
        # the talon's, top first, the face-up card last.
        order = [int(p) for p in rules["deal_order"][: dealt + talon_cards]]
        own = 0 if view.player != view.dealer else 1  # 0: the non-dealer's hand
        own_positions = sorted(order[own * hand_size : (own + 1) * hand_size])
        other_positions = sorted(order[(1 - own) * hand_size : (2 - own) * hand_size])
        talon_positions = order[dealt:]
        self.deck = [-1] * int(rules["deck_size"])
        self.deck[int(rules["face_up_position"])] = view.initial_face_up
        for position, card in zip(own_positions, mask_to_cards(view.initial_hand), strict=True):
            self.deck[position] = card
        # (time, deck position) of the opponent's slots, in time order; -1 is the deal.
        self.slots: list[tuple[int, int]] = [(-1, position) for position in other_positions]
        record = view.record[0]
        exchange_card = card_index(int(record["trump"]), int(rules["exchange_rank"]))
        bottom = view.initial_face_up
        public = 0  # the opponent's cards that came to him publicly and are still in his hand
        self.deadlines: dict[int, int] = {}
        draws = 0
        for step in view.read_history():
            if step.actor == view.opponent:
                needed, leaving = _needed_and_leaving(step, exchange_card)
                for card in needed:
                    if not public >> card & 1:
                        self.deadlines.setdefault(card, step.index)
                public &= ~leaving
            if step.action in EXCHANGES:
                if step.actor == view.opponent:
                    public |= 1 << bottom
                bottom = exchange_card
            elif step.drew >= 0:  # both players drew
                top = 2 * draws
                draws += 1
                mine_first = step.first_drawer == view.player
                own_index, other_index = (top, top + 1) if mine_first else (top + 1, top)
                if own_index < talon_cards - 1:
                    self.deck[talon_positions[own_index]] = step.drew
                if other_index == talon_cards - 1:
                    public |= 1 << bottom
                else:
                    self.slots.append((step.index, talon_positions[other_index]))
        if 2 * draws != record["talon_top"]:
            raise WorldReconstructionError(
                f"{draws} draws in the history but the talon top is {record['talon_top']}"
            )
        if public & ~view.known_opponent:
            raise WorldReconstructionError(
                f"the opponent holds {mask_text(public & ~view.known_opponent)}, which came to "
                "him publicly, but the view does not know it"
            )
        self.public = public
        start = int(record["talon_top"])
        self.talon_positions = talon_positions[start : start + view.hidden_talon]

    def history_arrays(self) -> tuple[np.ndarray, ...]:
        """What ``engine.inference.history_deck`` takes, in order: the deck with every card
        the player knows (-1 elsewhere), the slots' times and deck positions, each card's
        deadline (``inference.NO_DEADLINE`` if none), the mask of the opponent's cards that
        came publicly, and the hidden talon's deck positions (top first)."""
        deadlines = np.full(NUM_CARDS, NO_DEADLINE, dtype=np.int64)
        for card, deadline in self.deadlines.items():
            deadlines[card] = deadline
        return (
            np.array(self.deck, dtype=np.int64),
            np.array([time for time, _ in self.slots], dtype=np.int64),
            np.array([position for _, position in self.slots], dtype=np.int64),
            deadlines,
            np.int64(self.public),
            np.array(self.talon_positions, dtype=np.int64),
        )

    def world(self, hidden: int, talon_cards: list[int]) -> State:
        """The replayed ``State`` of one world: the opponent's ``hidden`` cards and talon order."""
        view = self.view
        deck = list(self.deck)
        hand = view.known_opponent | hidden
        cards = set(self.deadlines) | set(mask_to_cards(hand & ~self.public))
        ordered = sorted(cards, key=lambda card: (self.deadlines.get(card, _NO_DEADLINE), card))
        if len(ordered) != len(self.slots):
            raise WorldReconstructionError(
                f"{len(ordered)} hidden-origin opponent cards for {len(self.slots)} slots"
            )
        for card, (time, position) in zip(ordered, self.slots, strict=True):
            if self.deadlines.get(card, _NO_DEADLINE) <= time:
                raise WorldReconstructionError(
                    f"no slot of the opponent receives {mask_text(1 << card)} before action "
                    f"{self.deadlines[card]}"
                )
            deck[position] = card
        for position, card in zip(self.talon_positions, talon_cards, strict=True):
            deck[position] = card
        state = view.game.replay(np.array(deck, dtype=np.int64), view.dealer, view.action_ids)
        expected = np.zeros(1, dtype=view.record.dtype)
        talon = np.array(talon_cards + [0], dtype=np.int64)  # never empty, for numba
        fill_world_record(expected, 0, view.record[0], view.opponent, hidden, talon)
        _check_replay(state.array, expected)
        return state


def _needed_and_leaving(step, exchange_card: int) -> tuple[tuple[int, ...], int]:
    """Cards the opponent must hold for his action ``step``, and the mask leaving his hand."""
    if step.marriage_suit >= 0:
        queen_and_king = MARRIAGE_PAIR << suit_shift(step.marriage_suit)
        leaving = 1 << step.card if step.card >= 0 else 0  # marry-claim, R-A8: nothing led
        return tuple(mask_to_cards(queen_and_king)), leaving
    if step.card >= 0:
        return (step.card,), 1 << step.card
    if step.action in EXCHANGES:
        return (exchange_card,), 1 << exchange_card
    return (), 0


def _check_replay(replayed: np.ndarray, expected: np.ndarray) -> None:
    """The replayed record must be the world: every field, the live talon included."""
    world, truth = expected[0], replayed[0]
    top, end = int(world["talon_top"]), int(world["talon_end"])
    for dead in (slice(0, top), slice(end, None)):  # drawn cards and unused slots: not compared
        world["talon"][dead] = truth["talon"][dead]
    if replayed.tobytes() != expected.tobytes():
        differing = [
            f"{name} ({truth[name]} != {world[name]})"
            for name in replayed.dtype.names
            if not np.array_equal(truth[name], world[name])
        ]
        raise WorldReconstructionError(
            "the replayed world differs from the sampled one in " + ", ".join(differing)
        )
