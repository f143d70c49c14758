"""What one seat of a multi-player deal may know (RULES_MULTI 1.17): ``TableView``, made
by ``TableState.view(seat)``, the input of every agent.

A view copies out what the seat may know and keeps no reference to the state: its own
hand and every hand it held (so its draws), the rules, the dealer, the face-up card, the
talon's size and every action of the deal (all actions are public: plays, calls,
announcements, bids, exchanges, closes, marriages and melds). It never holds another
seat's cards or the talon's order, and before the reveal of a called-card game it says
nothing of the partnership beyond what the seat can deduce from its own cards. Totals
that count marriages by sides are left out for that reason; trick points and declared
marriages are public.
"""

from __future__ import annotations

import functools

import numpy as np

from .engine import multi_core as mc
from .engine.actions import action_name
from .engine.cards import NUM_CARDS, SUITS, card_name, mask_to_names, parse_card


class TableView:
    """One seat's information state of a multi-player deal."""

    def __init__(self, state, seat: int) -> None:
        record = state.array[0]
        n = state.num_players
        self.game = state.game
        self.seat = seat
        self.num_players = n
        self.dealer = state.dealer
        self.phase = state.phase
        self.current_player = state.current_player
        self.is_terminal = state.is_terminal
        self.first_batch = self._first_batch(state, seat)
        if self.first_batch and state.phase == "call":  # M2: the later cards are not his yet
            self.hand_mask = self.hand_at_deal = self.first_batch
        else:
            self.hand_mask = int(record["hand"][seat])
            self.hand_at_deal = state.hand_log[0][seat]
        self.hand_history = tuple(hands[seat] for hands in state.hand_log[1:])
        self.face_up_at_deal = state.face_up_at_deal
        self.receipts = tuple(state.receipts)
        self.exclusions = tuple(state.exclusions)
        self.history = tuple(state.history_ids)
        self.talon_size = int(record["talon_end"]) - int(record["talon_top"])
        self.face_up = self._face_up(state, self.talon_size)
        self.trump_suit = state.trump_suit
        self.called_card = state.called_card
        self.closed_by = state.closed_by
        self.sitting_out = state.sitting_out
        self.trick = tuple(state.trick)
        self.tricks_won = state.tricks_won
        self.won_masks = tuple(int(mask) for mask in record["won"][:n])
        self.trick_points = tuple(int(points) for points in record["points"][:n])
        self.scores = state.scores
        self.reason = state.reason
        self._legal_ids = tuple(state.legal_action_ids()) if state.current_player == seat else ()

    @staticmethod
    def _first_batch(state, seat: int) -> int:
        """The cards of the seat's first batch, under ``call_timing = first_batch`` (what
        the caller calls on, M2; while the call is pending the view holds only these),
        else 0."""
        rules = state.game.rules
        if rules.sides != "called_card" or rules.call_timing != "first_batch":
            return 0
        return sum(
            1 << int(state.deck[p]) for p in call_positions(state.game, state.receipts, seat)
        )

    @staticmethod
    def _face_up(state, talon_size: int) -> str | None:
        """The face-up card while it lies under an open talon (public in turn-up games)."""
        if state.game.rules.trump_source != "turn_up" or state.closed_by is not None:
            return None
        return (
            card_name(int(state.array[0]["talon"][state.array[0]["talon_end"] - 1]))
            if talon_size
            else None
        )

    @functools.cached_property
    def hand(self) -> list[str]:
        """The seat's hand, sorted card strings."""
        return mask_to_names(self.hand_mask)

    @functools.cached_property
    def won_cards(self) -> tuple[list[str], ...]:
        """The cards each seat has taken in tricks, sorted (public)."""
        return tuple(mask_to_names(mask) for mask in self.won_masks)

    def legal_actions(self) -> list[str]:
        """The seat's legal actions when it is to move (sorted strings), else empty."""
        return sorted(action_name(action) for action in self._legal_ids)

    def legal_action_ids(self) -> list[int]:
        """The seat's legal action ids when it is to move (ascending), else empty."""
        return list(self._legal_ids)

    @property
    def public_history(self) -> list[tuple[int, str]]:
        """``[(seat, action string), ...]``: every action of the deal."""
        return [(seat, action_name(action)) for seat, action in self.history]

    @property
    def declared_marriages(self) -> tuple[list[str], ...]:
        """The suits each seat declared (by ``marry``, ``marry-claim`` or ``meld``)."""
        suits: list[list[str]] = [[] for _ in range(self.num_players)]
        for seat, action in self.history:
            if mc.A_MARRY <= action < mc.A_CALL:
                suits[seat].append(SUITS[(action - mc.A_MARRY) // 8])
            elif mc.A_MARRY_CLAIM <= action < mc.NUM_TABLE_ACTIONS:
                suits[seat].append(SUITS[(action - mc.A_MARRY_CLAIM) % 4])
        return tuple(suits)

    @property
    def is_partner_known(self) -> bool:
        """Whether this seat knows the sides: always, except in a called-card game before
        the reveal (the called card played, a betli, a durchmars by a seat other than the
        caller) for a seat that does not hold the called card."""
        if self.game.rules.sides != "called_card" or self.called_card is None:
            return True
        called = parse_card(self.called_card)
        caller = (self.dealer + 1) % self.num_players
        for seat, action in self.history:
            if action in (mc.A_PLAY + called, mc.A_MARRY + called, mc.A_BETLI):
                return True
            if action == mc.A_DURCHMARS and seat != caller:
                return True
        return self.called_card in self.hand

    def key(self) -> tuple:
        """A hashable key equal for exactly the deals this seat cannot tell apart
        (perfect recall: the rules, its seat and every observation in order)."""
        return (
            self.game.preset,
            tuple(sorted(self.game.overrides.items())),
            self.seat,
            self.dealer,
            self.face_up_at_deal,
            self.hand_at_deal,
            self.first_batch,
            self.history,
            self.hand_history,
        )

    def __eq__(self, other) -> bool:
        """Views are equal when their seat's information is: equal keys."""
        return isinstance(other, TableView) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def tensor(self) -> np.ndarray:
        """A fixed-size float vector of what the seat knows now (not perfect recall): its
        seat, hand, the cards each seat has played and won, the trick, trump, the face-up
        and called cards, talon size, tricks, trick points, declared marriages, phase."""
        n = 4
        parts = [
            _one_hot(self.seat, n),
            _card_vector(self.hand),
            *(_card_vector(cards) for cards in _padded(self.won_cards, n)),
            *(_card_vector([card]) for card in _trick_by_seat(self.trick, n)),
            _one_hot(SUITS.index(self.trump_suit) if self.trump_suit else 4, 5),
            _card_vector([self.face_up] if self.face_up else []),
            _card_vector([self.called_card] if self.called_card else []),
            np.array([self.talon_size / NUM_CARDS], dtype=np.float32),
            np.array(_padded(self.tricks_won, n, 0), dtype=np.float32) / 12,
            np.array(_padded(self.trick_points, n, 0), dtype=np.float32) / 132,
            *(_suit_vector(suits) for suits in _padded(self.declared_marriages, n)),
            _one_hot(mc.TABLE_PHASE_NAMES.index(self.phase), len(mc.TABLE_PHASE_NAMES)),
        ]
        return np.concatenate(parts).astype(np.float32)


def call_positions(game, receipts, seat: int) -> list[int]:
    """The deck positions of the cards ``seat`` holds at the call: its whole dealt hand,
    or its first batch under ``call_timing = first_batch`` (M2)."""
    dealt = [p for p, receipt in enumerate(receipts) if receipt == (seat, 0)]
    if game.rules.call_timing == "first_batch":
        return dealt[: int(game.rule_array[0]["call_batch"])]
    return dealt


def _one_hot(index: int, size: int) -> np.ndarray:
    vector = np.zeros(size, dtype=np.float32)
    vector[index] = 1
    return vector


def _card_vector(cards) -> np.ndarray:
    vector = np.zeros(NUM_CARDS, dtype=np.float32)
    for card in cards:
        if card:
            vector[parse_card(card)] = 1
    return vector


def _suit_vector(suits) -> np.ndarray:
    vector = np.zeros(4, dtype=np.float32)
    for suit in suits:
        vector[SUITS.index(suit)] = 1
    return vector


def _padded(values, size: int, fill=()):
    return list(values) + [fill] * (size - len(values))


def _trick_by_seat(trick, size: int) -> list[str | None]:
    cards: list[str | None] = [None] * size
    for seat, card in trick:
        cards[seat] = card
    return cards
