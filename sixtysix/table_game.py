"""The public API of the games for two to four seats of docs/rules.md "Three and four
players": ``TableGame`` (rules) and ``TableState`` (one deal), made by
``sixtysix.Game("snapszer4", ...)`` for every multi-player preset.

A ``TableState`` wraps the record the kernels of ``engine.multi_core`` use; its history
is kept as action ids, and strings are for people.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .engine import multi_core as mc
from .engine.actions import action_name, masks_to_actions, parse_action
from .engine.cards import SUITS, card_name, mask_to_names, parse_card
from .engine.checks import IllegalActionError, check_integer, check_seed, is_integer
from .engine.multi_rules import (
    TABLE_MINI_PRESETS,
    TABLE_PRESETS,
    TableRules,
    compile_table_rules,
    deal_seats,
    make_table_rules,
)
from .table_view import TableView

TABLE_PRESET_NAMES = (*TABLE_PRESETS, *TABLE_MINI_PRESETS)


class TableGame:
    """A rule set for 2-4 seats: a preset plus overrides, e.g.
    ``Game("snapszer4", announcements="durchmars_betli")``."""

    def __init__(self, preset: str, **overrides) -> None:
        self.preset = preset
        self.rules: TableRules = make_table_rules(preset, **overrides)
        self.overrides = dict(overrides)
        self.rule_array = compile_table_rules(self.rules)
        self.deck_cards = list(self.rules.deck_cards)
        self.num_players = self.rules.num_players
        seats, face_up = deal_seats(self.rules)
        #: Deck positions in talon order, top first, a face-up card's position last.
        self.talon_positions = [p for p, seat in enumerate(seats) if seat < 0 and p != face_up]
        self.talon_positions += [face_up] if face_up >= 0 else []
        #: The seat offset from the first leader that each deck position is dealt to.
        self.deal_offsets = seats

    def __repr__(self) -> str:
        options = "".join(f", {name}={value!r}" for name, value in self.overrides.items())
        return f"Game({self.preset!r}{options})"

    def new_deal(
        self, seed: int | None = None, *, deck: Sequence | None = None, dealer: int | None = None
    ) -> TableState:
        """A fresh deal: deck and dealer from ``seed``, or an exact ``deck`` (a permutation
        of the pack, first dealt first, card strings or indices) and ``dealer``."""
        if deck is None:
            if seed is None:
                raise ValueError("new_deal needs a seed, or a deck and a dealer")
            order = np.array(self.deck_cards, dtype=np.int64)
            seeded = int(mc.seeded_deal(order, np.uint64(check_seed(seed)), self.num_players))
            dealer = seeded if dealer is None else dealer
        else:
            if seed is not None:
                raise ValueError("give new_deal either a seed or a deck, not both")
            if dealer is None:
                raise ValueError("new_deal with a deck needs its dealer")
            order = self._parse_deck(deck)
        dealer = check_integer(dealer, "dealer", 0, self.num_players)
        return TableState(self, order, dealer)

    def replay(self, deck: Sequence, dealer: int, actions: Iterable) -> TableState:
        """The state after playing ``actions`` (strings or ids) from ``deck`` and ``dealer``."""
        state = self.new_deal(deck=deck, dealer=dealer)
        for action in actions:
            state.apply(action)
        return state

    def _parse_deck(self, deck: Sequence) -> np.ndarray:
        valid = set(self.deck_cards)
        pack = " ".join(card_name(card) for card in self.deck_cards)
        if isinstance(deck, str):
            raise ValueError(f"a deck is a sequence of cards, not the string {deck!r}")
        cards: list[int] = []
        for item in deck:
            card = parse_card(item) if isinstance(item, str) else item
            if not is_integer(card) or card not in valid:
                raise ValueError(
                    f"card {item!r} is not in the {len(valid)}-card pack of {self.preset}: {pack}"
                )
            if card in cards:
                raise ValueError(f"card {item!r} appears twice in the deck")
            cards.append(int(card))
        missing = sorted(valid.difference(cards))
        if missing:
            names = " ".join(card_name(card) for card in missing)
            raise ValueError(f"the deck is missing {names} (the pack of {self.preset}: {pack})")
        return np.array(cards, dtype=np.int64)


class TableState:
    """One deal in progress. Mutated by ``apply``; copy with ``clone``."""

    def __init__(self, game: TableGame, deck: np.ndarray, dealer: int) -> None:
        self.game = game
        self.deck = deck
        self.dealer = dealer
        self.array = np.zeros(1, dtype=mc.state_dtype(game.rule_array))
        mc.deal_array(self.array, game.rule_array, deck, dealer)
        self.history_ids: list[tuple[int, int]] = []
        self.hand_log: list[tuple[int, ...]] = [self._hand_masks()]
        first = (dealer + 1) % self.num_players
        #: Per deck position, who received its card and after how many actions (0: the
        #: deal), or None while it lies in the talon: public, as the draw order is.
        self.receipts: list[tuple[int, int] | None] = [
            None if offset < 0 else ((first + offset) % self.num_players, 0)
            for offset in game.deal_offsets
        ]
        #: ``(seat, action index, mask)``: the seat, following at that action, was shown to
        #: hold none of the mask's cards (docs/rules.md, following); public.
        self.exclusions: list[tuple[int, int, int]] = []

    def _hand_masks(self) -> tuple[int, ...]:
        return tuple(int(mask) for mask in self._record["hand"][: self.num_players])

    @property
    def face_up_at_deal(self) -> str | None:
        """The card turned face up by the deal, if the pattern turns one."""
        position = int(self.game.rule_array[0]["face_up_position"])
        return None if position < 0 else card_name(int(self.deck[position]))

    @property
    def _record(self):
        return self.array[0]

    # ---- moving ---------------------------------------------------------------
    def legal_action_ids(self) -> list[int]:
        """Legal action ids, ascending."""
        low, high = mc.legal_masks_array(self.array, self.game.rule_array)
        return masks_to_actions(int(low), int(high))

    def legal_actions(self) -> list[str]:
        """Legal actions as sorted canonical strings (empty when the deal is over)."""
        return sorted(action_name(action) for action in self.legal_action_ids())

    def apply(self, action) -> TableState:
        """Apply an action string (or id); an illegal one raises ``IllegalActionError`` and
        changes nothing."""
        if isinstance(action, str):
            try:
                action_id = parse_action(action)
            except ValueError as error:
                raise IllegalActionError(f"{error}; legal actions: {self._legal_text()}") from None
        elif is_integer(action):
            action_id = int(action) if 0 <= action < mc.NUM_TABLE_ACTIONS else -1
        else:
            raise IllegalActionError(
                f"invalid action {action!r}: give an action string like 'play QH' or an action "
                f"id; legal actions: {self._legal_text()}"
            )
        seat = int(self._record["to_move"])
        drawn = int(self._record["talon_top"])
        excluded = 0
        if int(self._record["phase"]) == mc.FOLLOW and 0 <= action_id < mc.A_MARRY:
            excluded = int(mc.follow_exclusions_array(self.array, self.game.rule_array, action_id))
        if not mc.apply_checked(self.array, self.game.rule_array, action_id):
            if self.is_terminal:
                detail = "the deal is over"
            else:
                detail = f"seat {seat} is to move; legal actions: {self._legal_text()}"
            raise IllegalActionError(f"illegal action {action!r}: {detail}")
        if excluded:
            self.exclusions.append((seat, len(self.history_ids), excluded))
        self.history_ids.append((seat, action_id))
        self.hand_log.append(self._hand_masks())
        self._log_draws(drawn)
        return self

    def _log_draws(self, drawn: int) -> None:
        """Record who drew the talon cards ``drawn`` onwards in this action: the trick's
        winner first, then each playing seat in play order (RULES_MULTI 1.6)."""
        record = self._record
        seat = int(record["last_winner"])
        playing = int(record["playing"])
        for k in range(drawn, int(record["talon_top"])):
            self.receipts[self.game.talon_positions[k]] = (seat, len(self.history_ids))
            seat = (seat + 1) % self.num_players
            while not playing >> seat & 1:
                seat = (seat + 1) % self.num_players

    def _legal_text(self) -> str:
        return ", ".join(self.legal_actions()) or "none: the deal is over"

    def clone(self) -> TableState:
        """An independent copy."""
        copy = object.__new__(TableState)
        copy.game, copy.deck, copy.dealer = self.game, self.deck, self.dealer
        copy.array = mc.copy_record(self.array)
        copy.history_ids = list(self.history_ids)
        copy.hand_log = list(self.hand_log)
        copy.receipts = list(self.receipts)
        copy.exclusions = list(self.exclusions)
        return copy

    def view(self, seat: int) -> TableView:
        """What ``seat`` may know of this deal: the input of every agent."""
        return TableView(self, check_integer(seat, "seat", 0, self.num_players))

    # ---- reading --------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.game.num_players

    @property
    def phase(self) -> str:
        """The decision point: call, announce, bid, lead, follow, meld, final-claim or over."""
        return mc.TABLE_PHASE_NAMES[int(self._record["phase"])]

    @property
    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        return int(self._record["phase"]) == mc.OVER

    @property
    def current_player(self) -> int | None:
        """The seat to decide, ``None`` once the deal is over."""
        return None if self.is_terminal else int(self._record["to_move"])

    @property
    def history(self) -> list[tuple[int, str]]:
        """``[(seat, action string), ...]``."""
        return [(seat, action_name(action)) for seat, action in self.history_ids]

    @property
    def hands(self) -> tuple[list[str], ...]:
        """Every seat's hand as sorted card strings (the full truth; a sitting-out seat's
        cards stay in his hand)."""
        return tuple(mask_to_names(int(self._record["hand"][s])) for s in range(self.num_players))

    @property
    def talon(self) -> list[str]:
        """The talon, top first, a face-up card last (a closed talon's dead cards too)."""
        top, end = int(self._record["talon_top"]), int(self._record["talon_end"])
        return [card_name(int(card)) for card in self._record["talon"][top:end]]

    @property
    def trump_suit(self) -> str | None:
        """The trump suit, ``None`` until set (call, first lead) and in betli."""
        trump = int(self._record["trump"])
        return None if trump < 0 else SUITS[trump]

    @property
    def card_points(self) -> tuple[int, ...]:
        """Each seat's credited total: its trick points and its marriages that count."""
        totals = mc.credited_array(self.array, self.game.rule_array)
        return tuple(int(total) for total in totals)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks each seat has won."""
        return tuple(int(t) for t in self._record["tricks"][: self.num_players])

    @property
    def tricks_played(self) -> int:
        """Tricks completed so far."""
        return sum(self.tricks_won)

    @property
    def won_cards(self) -> tuple[list[str], ...]:
        """The cards each seat has taken in tricks, sorted."""
        return tuple(mask_to_names(int(self._record["won"][s])) for s in range(self.num_players))

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The cards on the table in the current trick, ``(seat, card)`` in play order: the
        last ``trick_size`` cards played."""
        size = int(self._record["trick_size"])
        plays = [
            (seat, action % mc.A_MARRY) for seat, action in self.history_ids if action < mc.A_CALL
        ]
        return [(seat, card_name(card)) for seat, card in plays[len(plays) - size :]]

    @property
    def called_card(self) -> str | None:
        """The called card, once called (public)."""
        called = int(self._record["called"])
        return None if called < 0 else card_name(called)

    @property
    def closed_by(self) -> int | None:
        """The seat that closed the talon, if any."""
        closer = int(self._record["closed_by"])
        return None if closer < 0 else closer

    @property
    def sitting_out(self) -> int | None:
        """The seat whose hand lies face down (betli, the moon), if any."""
        seat = int(self._record["sits_out"])
        return None if seat < 0 else seat

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's side now, as the seats on it (the truth, hidden partners included:
        a view never holds it)."""
        n = self.num_players
        teams = self._record["team"]
        return tuple(tuple(s for s in range(n) if int(teams[seat]) >> s & 1) for seat in range(n))

    @property
    def scores(self) -> tuple[int, ...] | None:
        """The game points each seat scores in this deal, ``None`` until it ends."""
        if not self.is_terminal:
            return None
        return tuple(int(points) for points in self._record["scores"][: self.num_players])

    @property
    def reason(self) -> str | None:
        """The outcome reason (RULES_MULTI 1.13.5), ``None`` until the deal ends."""
        return mc.TABLE_REASONS[int(self._record["reason"])] if self.is_terminal else None

    @property
    def outcome(self) -> tuple[tuple[int, ...], str, tuple[int, ...]] | None:
        """``(winning seats, reason, scores)`` once the deal is over (M21)."""
        if not self.is_terminal:
            return None
        winners = int(self._record["winners"])
        seats = tuple(s for s in range(self.num_players) if winners >> s & 1)
        return seats, self.reason, self.scores

    def __repr__(self) -> str:
        status = f"outcome={self.outcome}" if self.is_terminal else f"to_move={self.current_player}"
        return (
            f"<TableState {self.game.preset} trump={self.trump_suit} hands={self.hands} "
            f"talon={self.talon} points={self.card_points} {status}>"
        )
