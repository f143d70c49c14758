"""What each action of a deal's history did, read from action ids and one player's hand log.

The one interpretation of a history that the view's tensor and the rebuilding
of worlds share. It reads only what that player knows: the public actions, his
dealt hand and his hand after each action (the draws show there), and
public facts of the record.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from .engine import multi_core as mc
from .engine.cards import suit_of

EXCHANGES = (mc.A_EXCHANGE, mc.A_EXCHANGE_ON_CLOSE)
CLOSE_ANSWERS = (mc.A_EXCHANGE_ON_CLOSE, mc.A_PASS)  # the non-closer's L3 actions


class Step(NamedTuple):
    """One action of a history, interpreted.

    ``tricks_before`` counts the tricks completed before the action. ``card`` is
    the card played (led or followed), -1 for other actions; ``marriage_suit``
    the suit of a declared marriage (``marry`` or ``marry-claim``), else -1.
    ``leads`` and ``follows`` say whether the card was led to trick
    ``tricks_before`` or completed it; a ``marry`` whose automatic claim ended
    the deal (R-A8) leads nothing. ``drew`` is the card the reading player
    drew with this action (-1 if none) and ``first_drawer`` the player who
    drew the talon's top card when both drew (-1 if nobody drew).
    ``pre_draw_close`` marks a close right after a trick, before the draw, and
    ``answers_close`` the non-closer's L3 answer (``exchange-on-close`` or ``pass``).
    """

    index: int
    actor: int
    action: int
    tricks_before: int
    card: int
    marriage_suit: int
    leads: bool
    follows: bool
    drew: int
    first_drawer: int
    pre_draw_close: bool
    answers_close: bool


def read_history(
    history: Sequence[tuple[int, int]],
    hand_log: Sequence[int],
    initial_hand: int,
    is_terminal: bool,
    next_leader: int,
) -> Iterator[Step]:
    """The steps of ``history`` (``(player, action id)`` pairs) as one player reads them.

    ``hand_log`` is that player's hand after each action; ``next_leader`` is the
    record's leader (the winner of the last trick, who draws first after it).
    """
    tricks = 0
    card_led = False
    before = initial_hand
    undrawn_trick = False  # the previous action completed a trick and nobody drew
    previous = -1
    last = len(history) - 1
    for index, ((actor, action), after) in enumerate(zip(history, hand_log, strict=True)):
        gained = after & ~before
        before = after
        drew = gained.bit_length() - 1 if gained and action not in EXCHANGES else -1
        card = action if action < mc.A_MARRY else -1
        marriage_suit = -1
        if mc.A_MARRY <= action < mc.A_CALL:
            card = action - mc.A_MARRY
            marriage_suit = suit_of(card)
            if index == last and is_terminal and not card_led:
                card = -1  # R-A8: the automatic claim ended the deal before the lead
        elif mc.A_MARRY_CLAIM <= action < mc.A_MELD:
            marriage_suit = action - mc.A_MARRY_CLAIM
        follows = card >= 0 and card_led
        leads = card >= 0 and not card_led
        first_drawer = -1
        if drew >= 0:
            following = history[index + 1][0] if index < last else next_leader
            first_drawer = actor if action == mc.A_DRAW else following
        answers_close = previous == mc.A_CLOSE and action in CLOSE_ANSWERS
        pre_draw_close = action == mc.A_CLOSE and undrawn_trick
        yield Step(  # positional: a history is read often, by the view's tensor among others
            index,
            actor,
            action,
            tricks,
            card,
            marriage_suit,
            leads,
            follows,
            drew,
            first_drawer,
            pre_draw_close,
            answers_close,
        )
        if follows:
            tricks += 1
        if card >= 0:
            card_led = leads
        undrawn_trick = follows and drew < 0
        previous = action
