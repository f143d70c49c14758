"""The public facts of a deal, read from its core record: shared by ``State`` and ``PlayerView``.

Every field read here is public (both players see it), so a view's blanked
record answers each of these exactly as the full record does.
"""

from __future__ import annotations

import numpy as np

from .engine import multi_core as mc
from .engine.cards import RANKS_PER_SUIT, SUITS, card_name, mask_to_names

PHASE_NAMES = mc.TABLE_PHASE_NAMES


class DealFacts:
    """Public facts as properties over ``self.array`` (a one-element
    ``multi_core.TWO_PLAYER_STATE_DTYPE`` array), ``self.game`` (its rules) and
    ``self.history_ids`` (the public actions: who declared which marriage)."""

    array: np.ndarray

    @property
    def _record(self):
        return self.array[0]

    @property
    def phase(self) -> int:
        """The decision point, an index of ``PHASE_NAMES`` (``multi_core.LEAD``, ...)."""
        return int(self._record["phase"])

    @property
    def is_terminal(self) -> bool:
        return self.phase == mc.OVER

    @property
    def outcome(self) -> tuple[int | None, int, str] | None:
        """``(winner, game_points, reason)`` once the deal is over; reasons in
        ``multi_core.TABLE_REASONS``."""
        if not self.is_terminal:
            return None
        record = self._record
        winners = int(record["winners"])
        winner = None if winners == 0 else winners.bit_length() - 1
        points = 0 if winner is None else int(record["scores"][winner])
        return winner, points, mc.TABLE_REASONS[int(record["reason"])]

    @property
    def scores(self) -> tuple[int, int] | None:
        """The game points each player scores in this deal, ``None`` until it ends."""
        if not self.is_terminal:
            return None
        return tuple(int(points) for points in self._record["scores"])

    @property
    def reason(self) -> str | None:
        """The outcome reason (docs/rules.md R-A12), ``None`` until the deal ends."""
        return self.outcome[2] if self.is_terminal else None

    @property
    def num_players(self) -> int:
        return 2

    @property
    def card_points(self) -> tuple[int, int]:
        """Credited totals: card points, last-trick bonus and marriages that count."""
        return tuple(int(t) for t in mc.credited_array(self.array, self.game.rule_array))

    @property
    def pending_marriage_points(self) -> tuple[int, int]:
        """Declared marriage points that do not count yet (no trick won, or VU pending)."""
        record = self._record
        counted = [total - int(record["points"][p]) for p, total in enumerate(self.card_points)]
        return tuple(int(record["marriage"][p]) - counted[p] for p in (0, 1))

    @property
    def won(self) -> tuple[int, int]:
        """Masks of the cards each player has taken in tricks."""
        return tuple(int(mask) for mask in self._record["won"])

    @property
    def won_cards(self) -> tuple[list[str], list[str]]:
        """Cards each player has taken in tricks, sorted."""
        return tuple(mask_to_names(mask) for mask in self.won)

    @property
    def married_suits(self) -> tuple[int, int]:
        """Bit masks (bit ``suit``) of the suits whose marriage each player declared."""
        masks = [0, 0]
        for player, action in self.history_ids:
            if mc.A_MARRY <= action < mc.A_CALL:
                masks[player] |= 1 << (action - mc.A_MARRY) // RANKS_PER_SUIT
            elif mc.A_MARRY_CLAIM <= action < mc.A_MELD:
                masks[player] |= 1 << (action - mc.A_MARRY_CLAIM)
        return tuple(masks)

    @property
    def declared_marriages(self) -> tuple[list[str], list[str]]:
        """Suits of the marriages each player has declared, in ``C D H S`` order."""
        return tuple(
            [suit for i, suit in enumerate(SUITS) if mask >> i & 1] for mask in self.married_suits
        )

    @property
    def tricks_won(self) -> tuple[int, int]:
        return tuple(int(t) for t in self._record["tricks"])

    @property
    def tricks_played(self) -> int:
        return int(self._record["tricks_done"])

    @property
    def trump(self) -> int:
        """The trump suit's index."""
        return int(self._record["trump"])

    @property
    def trump_suit(self) -> str:
        return SUITS[self.trump]

    @property
    def talon_size(self) -> int:
        """Cards left in the talon, the face-up (or turned-down) trump card included."""
        return int(self._record["talon_end"] - self._record["talon_top"])

    @property
    def closed_by(self) -> int | None:
        closer = int(self._record["closed_by"])
        return None if closer < 0 else closer

    @property
    def leader(self) -> int:
        """Leader of the current trick."""
        return int(self._record["leader"])

    @property
    def led_card(self) -> str | None:
        """The card led to the current trick, if any."""
        led = int(self._record["led"])
        return None if led < 0 else card_name(led)
