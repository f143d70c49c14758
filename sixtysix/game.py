"""The public Python API: ``Game`` (rules) and ``State`` (one deal in progress).

A ``State`` wraps the same numpy record the numba kernels use, so tests, agents
and tools all see one truth. Its history is kept as action ids; strings are
for people (``history``, ``legal_actions``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .engine import multi_core as mc
from .engine.actions import NUM_ACTIONS, action_name, masks_to_actions, parse_action
from .engine.cards import card_name, mask_text, mask_to_names, parse_card
from .engine.checks import IllegalActionError, check_player, check_seed, is_integer
from .engine.rules import RuleSet, compile_rules, make_rules
from .facts import DealFacts
from .positions import position_record
from .table_game import TABLE_PRESET_NAMES, TableGame
from .view import PlayerView

Card = str | int
Action = str | int


class Game:
    """A rule set: a preset plus overrides, e.g. ``Game("schnapsen", claim_mode="manual")``.
    A multi-player preset (``sixtysix.table_game``) makes a ``TableGame``."""

    num_players = 2

    def __new__(cls, preset: str = "sixty_six", **overrides):
        if isinstance(preset, str) and preset in TABLE_PRESET_NAMES:
            return TableGame(preset, **overrides)
        return super().__new__(cls)

    def __init__(self, preset: str = "sixty_six", **overrides) -> None:
        self.preset = preset
        self.rules: RuleSet = make_rules(preset, **overrides)
        self.overrides = dict(overrides)
        self.rule_array = compile_rules(self.rules)
        self.deck_cards = list(self.rules.deck_cards)

    def __repr__(self) -> str:
        options = "".join(f", {name}={value!r}" for name, value in self.overrides.items())
        return f"Game({self.preset!r}{options})"

    def new_deal(
        self,
        seed: int | None = None,
        *,
        deck: Sequence[Card] | None = None,
        dealer: int | None = None,
    ) -> State:
        """A fresh deal: deck and dealer from ``seed``, or an exact ``deck`` and ``dealer``.

        A deck is a permutation of the game's cards, first dealt first, as card
        strings or card indices (``state.deck`` is one).
        """
        if deck is None:
            if seed is None:
                raise ValueError("new_deal needs a seed, or a deck and a dealer")
            order = np.array(self.deck_cards, dtype=np.int64)
            seeded_dealer = int(mc.seeded_deal(order, np.uint64(check_seed(seed)), 2))
            dealer = seeded_dealer if dealer is None else dealer
        else:
            if seed is not None:
                raise ValueError("give new_deal either a seed or a deck, not both")
            order = self._parse_deck(deck)
        return State(self, order, check_player(dealer, "dealer"))

    def replay(self, deck: Sequence[Card], dealer: int, actions: Iterable[Action]) -> State:
        """The state after playing ``actions`` (strings or ids) from ``deck`` and ``dealer``."""
        state = self.new_deal(deck=deck, dealer=dealer)
        for action in actions:
            state.apply(action)
        return state

    def position(
        self,
        *,
        trump: str,
        face_up: Card | None,
        talon_size: int,
        hand: Sequence[Card],
        points: Sequence[int],
        tricks: Sequence[int],
        gone: Sequence[Card] | None = None,
        won: Sequence[Sequence[Card]] | None = None,
        opponent_known: Sequence[Card] = (),
        marriages: Sequence[Sequence[str]] = ((), ()),
        opponent_hand: Sequence[Card] | None = None,
        talon: Sequence[Card] | None = None,
        leader: int = 0,
        dealer: int | None = None,
        before_draw: bool = False,
        leader_known: Sequence[Card] | None = None,
        excluded: Sequence[Sequence[Card]] = ((), ()),
        closed_by: int | None = None,
        close_snapshot: Sequence[int] | None = None,
    ) -> State:
        """A state at the start of ``leader``'s turn (a pre-draw decision if ``before_draw``),
        built from a description without a history (``sixtysix.positions``).

        Pairs are ``(leader, opponent)``: ``points`` (credited totals), ``tricks``,
        ``marriages`` (suits declared) and ``won`` (the gone cards split by taker; give
        ``gone`` instead when the split is unknown). ``face_up`` is the talon's last card
        (None once the talon is empty); ``talon_size`` counts it. The unseen cards are
        ``opponent_hand`` (with ``opponent_known``) and ``talon`` (top first, the face-up card
        left out); without them the first world completes the state. ``leader_known``:
        the leader's cards the opponent knows (default: his marriage partners in hand);
        ``excluded``: cards each is known not to hold; ``closed_by`` and ``close_snapshot``
        (the non-closer's tricks and total at the close) for a closed talon. ``dealer``
        defaults to the leader's opponent. An inconsistent description is a ValueError.

        The state has no history: ``deck`` is a stand-in that deals the current hands, so
        ``view`` works, but replaying it does not reach the position.
        """
        array, deck, dealer = position_record(
            self,
            leader=leader,
            trump=trump,
            face_up=face_up,
            talon_size=talon_size,
            hand=hand,
            gone=gone,
            won=won,
            opponent_known=opponent_known,
            points=points,
            tricks=tricks,
            marriages=marriages,
            opponent_hand=opponent_hand,
            talon=talon,
            leader_known=leader_known,
            excluded=excluded,
            closed_by=closed_by,
            close_snapshot=close_snapshot,
            before_draw=before_draw,
            dealer=dealer,
        )
        state = State(self, deck, dealer)
        state.array = array
        return state

    def _parse_deck(self, deck: Sequence[Card]) -> np.ndarray:
        """The deck as card indices, checked to be a permutation of this game's cards."""
        valid = set(self.deck_cards)
        cards = []
        for item in deck:
            card = parse_card(item) if isinstance(item, str) else item
            if not is_integer(card) or card not in valid:
                raise ValueError(
                    f"card {item!r} is not in the {len(valid)}-card deck of this game "
                    f"({mask_text(sum(1 << c for c in valid))})"
                )
            if card in cards:
                named = "" if isinstance(item, str) else f" ({card_name(card)})"
                raise ValueError(f"card {item!r}{named} appears twice in the deck")
            cards.append(int(card))
        missing = valid.difference(cards)
        if missing:
            raise ValueError(f"the deck is missing {mask_text(sum(1 << c for c in missing))}")
        return np.array(cards, dtype=np.int64)


class State(DealFacts):
    """One deal in progress. Mutated by ``apply``; copy with ``clone``.

    ``deck`` (card indices, first dealt first) and ``dealer`` define the deal;
    ``history_ids`` are the ``(player, action id)`` pairs played and
    ``hand_log`` both hand masks after each (the players' private observations).
    The public facts (``outcome``, ``card_points``, ``tricks_won``, ...) come from
    ``sixtysix.facts.DealFacts``.
    """

    def __init__(self, game: Game, deck: np.ndarray, dealer: int) -> None:
        self.game = game
        self.deck = deck
        self.dealer = dealer
        self.array = np.zeros(1, dtype=mc.TWO_PLAYER_STATE_DTYPE)
        mc.deal_array(self.array, game.rule_array, deck, dealer)
        self.history_ids: list[tuple[int, int]] = []
        self.hand_log: list[tuple[int, int]] = []

    # ---- moving ---------------------------------------------------------------
    def legal_action_ids(self) -> list[int]:
        """Legal action ids, ascending."""
        return masks_to_actions(*mc.legal_masks_array(self.array, self.game.rule_array))

    def legal_actions(self) -> list[str]:
        """Legal actions as sorted canonical strings (empty when the deal is over)."""
        return sorted(action_name(action) for action in self.legal_action_ids())

    def apply(self, action: Action) -> State:
        """Apply an action string (or id); an illegal one raises ``IllegalActionError``."""
        if isinstance(action, str):
            try:
                action_id = parse_action(action)
            except ValueError as error:
                raise IllegalActionError(f"{error}; legal actions: {self._legal_text()}") from None
        elif is_integer(action):
            in_range = 0 <= action < NUM_ACTIONS
            action_id = int(action) if in_range else -1  # out of range: never legal
        else:
            raise IllegalActionError(
                f"invalid action {action!r}: give an action string like 'play QH' or an action "
                f"id; legal actions: {self._legal_text()}"
            )
        record = self.array[0]
        player = int(record["to_move"])
        if not mc.apply_checked(self.array, self.game.rule_array, action_id):
            is_id = not isinstance(action, str) and action_id >= 0
            named = f" ({action_name(action_id)})" if is_id else ""
            raise IllegalActionError(
                f"illegal action {action!r}{named}; legal actions: {self._legal_text()}"
            )
        self.history_ids.append((player, action_id))
        hands = record["hand"]
        self.hand_log.append((int(hands[0]), int(hands[1])))
        return self

    def _legal_text(self) -> str:
        return ", ".join(self.legal_actions()) or "none: the deal is over"

    def clone(self) -> State:
        """An independent copy."""
        copy = object.__new__(State)
        copy.game, copy.deck, copy.dealer = self.game, self.deck, self.dealer
        copy.array = mc.copy_record(self.array)
        copy.history_ids = list(self.history_ids)
        copy.hand_log = list(self.hand_log)
        return copy

    # ---- reading --------------------------------------------------------------
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know of this deal: the input of every agent."""
        return PlayerView(self, player)

    @property
    def history(self) -> list[tuple[int, str]]:
        """``[(player, action string), ...]``: ``history_ids`` for people."""
        return [(player, action_name(action)) for player, action in self.history_ids]

    @property
    def current_player(self) -> int | None:
        """The player to decide, ``None`` when the deal is over."""
        return None if self.is_terminal else int(self.array[0]["to_move"])

    @property
    def hands(self) -> tuple[list[str], list[str]]:
        """Both hands as sorted card strings (the full truth)."""
        return tuple(mask_to_names(int(self.array[0]["hand"][p])) for p in (0, 1))

    @property
    def talon(self) -> list[str]:
        """Remaining talon cards, top first; the face-up (or turned-down) trump card last."""
        top, end = int(self.array[0]["talon_top"]), int(self.array[0]["talon_end"])
        return [card_name(int(c)) for c in self.array[0]["talon"][top:end]]

    @property
    def trump_card(self) -> str | None:
        """The face-up trump card, while it lies face up under an open talon."""
        talon = self.talon
        return talon[-1] if talon and self.closed_by is None else None

    def __repr__(self) -> str:
        status = f"outcome={self.outcome}" if self.is_terminal else f"to_move={self.current_player}"
        return (
            f"<State {self.game.preset} trump={self.trump_suit} hands={self.hands} "
            f"talon={self.talon} points={self.card_points} {status}>"
        )


def replay(game: Game, deck: Sequence[Card], dealer: int, actions: Iterable[Action]) -> State:
    """The state after playing ``actions`` (strings or ids) from the deal of ``deck`` and
    ``dealer`` (card strings or indices): ``game.replay``."""
    return game.replay(deck, dealer, actions)
