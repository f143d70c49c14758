"""The public Python API: ``Game`` (rules) and ``State`` (one deal in progress).

A ``State`` wraps the same numpy record the numba kernels use, so tests, agents
and tools all see one truth.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence

import numpy as np

from . import core
from .actions import action_name, mask_to_actions, parse_action
from .cards import SUITS, card_name, mask_to_cards, mask_to_names, parse_card
from .rules import RuleSet, compile_rules, make_rules
from .view import PlayerView


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to."""


class Game:
    """A rule set: a preset plus overrides, e.g. ``Game("schnapsen", claim_mode="manual")``."""

    def __init__(self, preset: str = "sixty_six", **overrides) -> None:
        self.preset = preset
        self.rules: RuleSet = make_rules(preset, **overrides)
        self.overrides = dict(overrides)
        self.rule_array = compile_rules(self.rules)
        self.deck_cards = sorted(mask_to_cards(int(self.rule_array[0]["deck_mask"])))

    def __repr__(self) -> str:
        options = "".join(f", {name}={value!r}" for name, value in self.overrides.items())
        return f"Game({self.preset!r}{options})"

    def new_deal(
        self,
        seed: int | None = None,
        *,
        deck: Sequence[str] | None = None,
        dealer: int | None = None,
    ) -> State:
        """A fresh deal: deck and dealer from ``seed``, or an exact ``deck`` and ``dealer``."""
        if deck is None:
            if seed is None:
                raise ValueError("new_deal needs a seed, or a deck and a dealer")
            if not _is_int(seed) or not 0 <= seed < 2**64:
                raise ValueError(f"invalid seed {seed!r}: a seed is an integer in [0, 2**64)")
            order = np.array(self.deck_cards, dtype=np.int64)
            seeded_dealer = int(core.seeded_deal(order, np.uint64(seed)))
            dealer = seeded_dealer if dealer is None else dealer
        else:
            if seed is not None:
                raise ValueError("give new_deal either a seed or a deck, not both")
            order = np.array(self._parse_deck(deck), dtype=np.int64)
        if not _is_int(dealer) or dealer not in (0, 1):
            raise ValueError(f"invalid dealer {dealer!r}: the dealer is player 0 or 1")
        return State(self, order, dealer)

    def _parse_deck(self, deck: Sequence[str]) -> list[int]:
        cards = [parse_card(text) for text in deck]
        valid = set(self.deck_cards)
        for text, card in zip(deck, cards, strict=True):
            if card not in valid:
                raise ValueError(
                    f"card {text!r} is not in the {len(valid)}-card deck of this game "
                    f"({' '.join(card_name(c) for c in self.deck_cards)})"
                )
        seen = set()
        for text, card in zip(deck, cards, strict=True):
            if card in seen:
                raise ValueError(f"card {text!r} appears twice in the deck")
            seen.add(card)
        missing = [card_name(card) for card in self.deck_cards if card not in seen]
        if missing:
            raise ValueError(f"the deck is missing {', '.join(missing)}")
        return cards


class State:
    """One deal in progress. Mutated by ``apply``; copy with ``clone``."""

    def __init__(self, game: Game, deck: np.ndarray, dealer: int) -> None:
        self.game = game
        self.deck = deck
        self.dealer = dealer
        self.array = np.zeros(1, dtype=core.STATE_DTYPE)
        core.deal_array(self.array, game.rule_array, deck, dealer)
        self.history: list[tuple[int, str]] = []
        # Each player's hand mask after every action: a player's private observations.
        self.hand_log: list[tuple[int, int]] = []

    # ---- moving ---------------------------------------------------------------
    def legal_action_ids(self) -> list[int]:
        """Legal action ids, ascending."""
        return mask_to_actions(int(core.legal_mask_array(self.array, self.game.rule_array)))

    def legal_actions(self) -> list[str]:
        """Legal actions as sorted canonical strings (empty when the deal is over)."""
        return sorted(action_name(action) for action in self.legal_action_ids())

    def apply(self, action: str | int) -> State:
        """Apply an action string (or id); an illegal one raises ``IllegalActionError``."""
        if isinstance(action, str):
            action_id = parse_action(action)
        elif _is_int(action):
            in_range = 0 <= action < core.NUM_ACTIONS
            action_id = int(action) if in_range else -1  # out of range: never legal
        else:
            raise IllegalActionError(
                f"invalid action {action!r}: give an action string like 'play QH' or an action id"
            )
        record = self.array[0]
        player = int(record["to_move"])
        if not core.apply_checked(self.array, self.game.rule_array, action_id):
            legal = ", ".join(self.legal_actions()) or "none: the deal is over"
            raise IllegalActionError(f"illegal action {action!r}; legal actions: {legal}")
        self.history.append((player, action_name(action_id)))
        hands = record["hand"]
        self.hand_log.append((int(hands[0]), int(hands[1])))
        return self

    def clone(self) -> State:
        """An independent copy."""
        copy = object.__new__(State)
        copy.game, copy.deck, copy.dealer = self.game, self.deck, self.dealer
        copy.array = core.copy_record(self.array)
        copy.history = list(self.history)
        copy.hand_log = list(self.hand_log)
        return copy

    # ---- reading --------------------------------------------------------------
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know of this deal: the input of every agent."""
        return PlayerView(self, player)

    @property
    def current_player(self) -> int | None:
        """The player to decide, ``None`` when the deal is over."""
        return None if self.is_terminal else int(self.array[0]["to_move"])

    @property
    def is_terminal(self) -> bool:
        return int(self.array[0]["phase"]) == core.OVER

    @property
    def outcome(self) -> tuple[int | None, int, str] | None:
        """``(winner, game_points, reason)`` once the deal is over; reasons in ``core.REASONS``."""
        if not self.is_terminal:
            return None
        winner = int(self.array[0]["winner"])
        return (
            None if winner < 0 else winner,
            int(self.array[0]["game_points"]),
            core.REASONS[int(self.array[0]["reason"])],
        )

    @property
    def card_points(self) -> tuple[int, int]:
        """Credited totals: card points, last-trick bonus and marriages that count."""
        return tuple(int(t) for t in core.totals_array(self.array, self.game.rule_array))

    @property
    def pending_marriage_points(self) -> tuple[int, int]:
        """Declared marriage points that do not count yet (no trick won, or VU pending)."""
        record = self.array[0]
        counted = [total - int(record["points"][p]) for p, total in enumerate(self.card_points)]
        return tuple(int(record["marriage"][p]) - counted[p] for p in (0, 1))

    @property
    def hands(self) -> tuple[list[str], list[str]]:
        """Both hands as sorted card strings (the full truth)."""
        return tuple(mask_to_names(int(self.array[0]["hand"][p])) for p in (0, 1))

    @property
    def won_cards(self) -> tuple[list[str], list[str]]:
        """Cards each player has taken in tricks, sorted."""
        return tuple(mask_to_names(int(self.array[0]["won"][p])) for p in (0, 1))

    @property
    def declared_marriages(self) -> tuple[list[str], list[str]]:
        """Suits of the marriages each player has declared, in ``C D H S`` order."""
        return tuple(
            [suit for i, suit in enumerate(SUITS) if self.array[0]["married_suits"][p] >> i & 1]
            for p in (0, 1)
        )

    @property
    def tricks_won(self) -> tuple[int, int]:
        return tuple(int(t) for t in self.array[0]["tricks"])

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

    @property
    def trump_suit(self) -> str:
        return SUITS[int(self.array[0]["trump"])]

    @property
    def closed_by(self) -> int | None:
        closer = int(self.array[0]["closed_by"])
        return None if closer < 0 else closer

    @property
    def leader(self) -> int:
        """Leader of the current trick."""
        return int(self.array[0]["leader"])

    @property
    def led_card(self) -> str | None:
        """The card led to the current trick, if any."""
        led = int(self.array[0]["led"])
        return None if led < 0 else card_name(led)

    @property
    def tricks_played(self) -> int:
        return int(self.array[0]["tricks_done"])

    def __repr__(self) -> str:
        status = f"outcome={self.outcome}" if self.is_terminal else f"to_move={self.current_player}"
        return (
            f"<State {self.game.preset} trump={self.trump_suit} hands={self.hands} "
            f"talon={self.talon} points={self.card_points} {status}>"
        )


def _is_int(value) -> bool:
    """An integer (Python or numpy), but not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def replay(game: Game, deck: Sequence[str], dealer: int, actions: Iterable[str]) -> State:
    """The state after playing ``actions`` from the deal of ``deck`` and ``dealer``."""
    state = game.new_deal(deck=deck, dealer=dealer)
    for action in actions:
        state.apply(action)
    return state
