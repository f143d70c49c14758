"""Helpers shared by the test modules (``from conftest import ...``).

pytest puts this folder on ``sys.path`` (the default ``prepend`` import mode, no
``__init__.py`` here), so the test modules import these plain functions by name.
"""

from __future__ import annotations

import functools
import random

import sixtysix

#: The card notation, written out here rather than taken from ``sixtysix.engine.cards``.
RANKS = "9JQKTA"  # ascending strength
SUITS = "CDHS"


@functools.cache
def _game(preset: str, overrides: tuple) -> sixtysix.Game:
    return sixtysix.Game(preset, **dict(overrides))


def game_of(preset: str, claim_mode: str | None = None, **overrides) -> sixtysix.Game:
    """The game of ``preset`` with option overrides, made once per set of arguments.

    ``claim_mode`` None keeps the preset's own (``automatic``); it is the second argument
    so that ``game_of(preset, mode)`` reads as a preset and a claim mode.
    """
    if claim_mode is not None:
        overrides["claim_mode"] = claim_mode
    return _game(preset, tuple(sorted(overrides.items())))


def deck_of(game: sixtysix.Game) -> list[str]:
    """The cards of a 24- or 20-card game in card order: suit by suit, rank ascending."""
    ranks = RANKS if game.rules.deck == 24 else RANKS[1:]
    return [rank + suit for suit in SUITS for rank in ranks]


def snapshot(state: sixtysix.State) -> tuple:
    """Everything observable about a state plus its raw record, to check it did not change."""
    return (
        state.current_player,
        state.is_terminal,
        state.outcome,
        tuple(map(tuple, state.hands)),
        tuple(state.talon),
        tuple(map(tuple, state.won_cards)),
        state.tricks_won,
        state.card_points,
        state.closed_by,
        state.led_card,
        state.trump_suit,
        tuple(state.history),
        tuple(state.legal_actions()),
        tuple(state.hand_log),
        state.array.tobytes(),
    )


def finish_randomly(state: sixtysix.State, rng: random.Random, avoid=()) -> sixtysix.State:
    """Play ``state`` to its end with random legal actions from ``rng``, the action kinds in
    ``avoid`` (e.g. ``("claim", "close")``) only when nothing else is legal."""
    while not state.is_terminal:
        legal = state.legal_actions()
        preferred = [action for action in legal if action.split()[0] not in avoid] or legal
        state.apply(rng.choice(preferred))
    return state


def finished_deal(game: sixtysix.Game, seed: int) -> sixtysix.State:
    """The deal ``new_deal(seed=seed)`` played to its end by ``finish_randomly`` with
    ``random.Random(seed)``."""
    return finish_randomly(game.new_deal(seed=seed), random.Random(seed))
