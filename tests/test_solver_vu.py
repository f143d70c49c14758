"""The open-hand solver against the VU Amsterdam engine's own phase-two searches.

The VU package (PyPI ``schnapsen``, docs/rules.md Appendix B) ships two perfect-
information bots for phase two (talon exhausted; VU has no closing):
``schnapsen.bots.alphabeta.AlphaBetaBot`` and ``schnapsen.bots.minimax.MiniMaxBot``.
Both have ``value(state, engine, leader_move, maximizing) -> (value, move)``, a
search over VU's own engine (``engine.play_one_trick`` with VU's move
validator) that scores an ended game with ``SchnapsenTrickScorer.declare_winner``:
the winner's game points, 1, 2 or 3 (3 if the loser has 0 direct points, 2 if
under 33, else 1; 1 for the last trick when the cards run out), positive when
the player who had ``maximizing=True`` at the root wins and negative when the
opponent does. ``leader_move`` is None at a leader's decision and the leader's
move at the follower's. With ``maximizing=True`` and the full window it is
called with, the root value is the exact minimax value for the player to move
(pruning makes only the values below the root bounds), so it is directly
comparable with ours:

    VU value == solve(state).value if the mover is player 0, else -solve(state).value

The returned move is one with that value, so it must be among our optimal
actions too (``solve_actions``). MiniMaxBot (no pruning) gives the same value
and is compared on a subset, being slower.

Positions: seeded random games played through VU's unmodified
``play_game`` loop with an injected deck (as in ``experiments/vu_bridge.py``); at
every phase-two decision the full VU ``GameState`` is captured with
``perspective.get_state_in_phase_two()`` and our ``vu_schnapsen`` state is
rebuilt by replaying the same deck (dealer 1: player 0 is VU's ``bot1``) and
moves. Hands and scores of the two are cross-checked first.
"""

from __future__ import annotations

import collections
import random
from typing import NamedTuple

import pytest
from schnapsen.bots.alphabeta import AlphaBetaBot
from schnapsen.bots.minimax import MiniMaxBot
from schnapsen.game import Bot, GamePhase, SchnapsenGamePlayEngine
from sixtysix.experiments import vu_bridge as vb

import sixtysix

DEALER = 1  # player 0 is VU's bot1, who leads the first trick
DEALS = 60
MINIMAX_POSITIONS = 30  # MiniMaxBot runs on the first positions only
BASE_SEED = 77_000_000


class VUPosition(NamedTuple):
    """A phase-two decision in VU, with the moves that led to it."""

    seed: int
    deck: list[str]
    history: list[str]  # every move so far, our notation, both players
    game_state: object  # VU GameState (the led card still in the leader's hand)
    engine: object
    leader_move: object  # VU Move when the mover follows, else None
    mover: int


class _RecordingBot(Bot):
    """Plays seeded random moves and records every phase-two decision.

    A hoarding bot (half of the games) keeps its kings and queens through phase
    one when it can and marries whenever it can in phase two, so that phase-two
    positions offer marriages.
    """

    def __init__(self, index, rng, hoard, history, found, seed, deck):
        super().__init__(name=f"player{index}")
        self.index, self.rng, self.hoard = index, rng, hoard
        self.history, self.found, self.seed, self.deck = history, found, seed, deck

    def get_move(self, perspective, leader_move):
        phase_two = perspective.get_phase() == GamePhase.TWO
        if phase_two:
            self.found.append(
                VUPosition(
                    self.seed,
                    self.deck,
                    list(self.history),
                    perspective.get_state_in_phase_two(),
                    perspective.get_engine(),
                    leader_move,
                    self.index,
                )
            )
        moves = perspective.valid_moves()
        if self.hoard and phase_two:
            preferred = [move for move in moves if move.is_marriage()]
        elif self.hoard:
            preferred = [move for move in moves if not _royal(move)]
        else:
            preferred = []
        move = self.rng.choice(preferred or moves)
        self.history.append(vb.move_to_str(move))
        return move


def _royal(move) -> bool:
    """A marriage, or a king or queen played alone."""
    return move.is_marriage() or (
        move.is_regular_move() and vb.card_to_str(move.as_regular_move().card)[0] in "KQ"
    )


def vu_positions(deals: int, base_seed: int) -> list[VUPosition]:
    """Phase-two decisions of ``deals`` seeded VU games."""
    found: list[VUPosition] = []
    for i in range(deals):
        seed = base_seed + i
        deck, rng = vb.seeded_deck(seed)
        engine = SchnapsenGamePlayEngine()
        engine.deck_generator = vb.InjectedDeckGenerator(deck)
        history: list[str] = []
        bots = [_RecordingBot(p, rng, i % 2 == 1, history, found, seed, deck) for p in (0, 1)]
        engine.play_game(bots[0], bots[1], random.Random(0))
    return found


def our_state(game: sixtysix.Game, position: VUPosition) -> sixtysix.State:
    """Our state at the same decision, checked against VU's hands and scores."""
    state = sixtysix.replay(game, position.deck, DEALER, position.history)
    where = f"deal seed {position.seed}, moves {position.history}"
    assert state.current_player == position.mover and not state.talon, where
    following = position.leader_move is not None
    leader = 1 - position.mover if following else position.mover
    vu = {leader: position.game_state.leader, 1 - leader: position.game_state.follower}
    hands = [sorted(vb.card_to_str(card) for card in vu[p].hand.get_cards()) for p in (0, 1)]
    if following:  # VU applies the lead only with the follower's move
        hands[leader].remove(state.led_card)
    assert list(state.hands) == hands, where
    if not following:
        assert state.card_points == tuple(vu[p].score.direct_points for p in (0, 1)), where
        pending = tuple(vu[p].score.pending_points for p in (0, 1))
        assert state.pending_marriage_points == pending, where
    return state


def signed(value: int, mover: int) -> int:
    """A value from player 0's view turned into the mover's view (VU's ``maximizing``)."""
    return value if mover == 0 else -value


@pytest.fixture(scope="module")
def compared():
    """Every sampled position with our state and VU's alpha-beta value and move."""
    game = sixtysix.Game("vu_schnapsen")
    rows = []
    for position in vu_positions(DEALS, BASE_SEED):
        state = our_state(game, position)
        value, move = AlphaBetaBot().value(
            position.game_state, position.engine, position.leader_move, maximizing=True
        )
        rows.append((position, state, value, vb.move_to_str(move)))
    return rows


def test_alphabeta_value_matches(compared):
    """VU's alpha-beta root value equals ours, seen from the player to move."""
    counts = collections.Counter()
    for position, state, vu_value, _ in compared:
        ours = sixtysix.solve(state).value
        assert vu_value == signed(ours, position.mover), (
            f"VU alpha-beta {vu_value} (mover p{position.mover}), ours {ours} (player 0's "
            f"view); deck {position.deck}, dealer {DEALER}, actions {position.history}"
        )
        counts["leader" if position.leader_move is None else "follower"] += 1
        if any(a.startswith("marry") for a in state.legal_actions()):
            counts["marriage offered"] += 1
        counts[f"value {vu_value:+d}"] += 1
    assert len(compared) >= 200, counts
    assert counts["leader"] >= 80 and counts["follower"] >= 80, counts
    assert counts["marriage offered"] >= 10, counts
    assert all(counts[f"value {v:+d}"] > 0 for v in (-3, -2, -1, 1, 2, 3)), counts


def test_alphabeta_move_is_optimal(compared):
    """The move VU's alpha-beta returns is worth the optimum by our ``solve_actions``."""
    for position, state, vu_value, vu_move in compared:
        values = sixtysix.solve_actions(state)
        assert sorted(values) == state.legal_actions()
        best = max(signed(v, position.mover) for v in values.values())
        assert best == vu_value and signed(values[vu_move], position.mover) == best, (
            f"VU plays {vu_move!r} for {vu_value}; our values {values}; "
            f"deck {position.deck}, dealer {DEALER}, actions {position.history}"
        )


def test_minimax_value_matches(compared):
    """VU's plain minimax bot agrees too, on the first positions."""
    for position, state, vu_value, _ in compared[:MINIMAX_POSITIONS]:
        value, _ = MiniMaxBot().value(
            position.game_state, position.engine, position.leader_move, maximizing=True
        )
        assert value == vu_value == signed(sixtysix.solve(state).value, position.mover), (
            f"VU minimax {value}, alpha-beta {vu_value}; deck {position.deck}, "
            f"dealer {DEALER}, actions {position.history}"
        )
