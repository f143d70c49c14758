"""The player's view: what one player may know of a deal, with perfect recall.

``State.view(player)`` gives a :class:`PlayerView`, the only input an agent gets.
It copies from the state exactly what ``player`` may know and keeps no
reference to the state, its deck, its record or the opponent's hand.

What a player knows:

* the rules, the dealer, his dealt hand and the face-up card of the deal;
* every action (all actions are public) and his own hand after each one, so
  also every card he drew;
* the opponent's known cards (``known_opponent``, core's ``shown`` mask): the
  partner of a declared marriage, the face-up card taken by an exchange, an
  exchange on close or the last draw, and the trump exchange card of a
  non-closer who was offered the exchange on close (R-A7 offers it only to
  its holder);
* cards the opponent cannot hold (``excluded_opponent``, core's ``excluded``
  mask): the strict-phase inference of RULES.md 6.2, and the exchange card of
  a non-closer who was not offered the exchange on close;
* the talon's last card while the talon is non-empty (it lay face up, or it is
  the exchange card), and the size of everything.

The remaining cards, ``unknown``, are split between the opponent's hand
(``hidden_opponent`` of them) and the talon (``hidden_talon``).

``hide_from`` (numba) blanks a copy of a core record for one player and returns
his unknown cards: the view is built on it, and agents that stay inside numba
use it directly, with ``worlds.sample_world_record``.

``key()`` is a readable string, equal for two states exactly when the player
cannot tell them apart; ``tensor()`` encodes the same facts as a float32
vector of ``TENSOR_SIZE`` numbers for every preset. "Me" is the view's player.
Masks are 24 numbers indexed by card (``suit * 6 + rank``, ``cards``); a
player pair is (me, opponent). The vector is egocentric: the player's number
is not in it (the rules are symmetric; ``dealer`` gives the seat).

Now block (the current state):

| block | size | meaning |
|---|---|---|
| hand | 24 | my hand |
| known_opponent | 24 | cards the opponent is known to hold |
| excluded_opponent | 24 | unknown cards the opponent cannot hold |
| unknown | 24 | cards whose place I do not know |
| won_me | 24 | cards I have won in tricks |
| won_opponent | 24 | cards the opponent has won |
| led | 24 | card led to the current trick |
| face_up | 24 | face-up card under the open talon |
| talon_bottom | 24 | last talon card (face up, or turned down by a close) |
| trump | 4 | trump suit, one-hot |
| talon_size | 1 | cards in the talon / 16 |
| closed | 2 | the talon was closed by me, by the opponent |
| phase | 6 | decision point, one-hot over core's phases (lead ... over) |
| my_turn | 1 | I am to move |
| i_lead | 1 | I lead the current trick |
| totals | 2 | card-point totals (me, opponent) / target (66) |
| pending | 2 | declared marriage points that do not count yet / target |
| tricks_won | 2 | tricks won / 12 |
| marriages | 8 | suits of declared marriages, one-hot: mine, then the opponent's |
| dealer | 1 | I am the dealer |
| outcome | 13 | over: I won, the opponent won, game points / 6, reason one-hot (10) |

History block (perfect recall):

| block | size | meaning |
|---|---|---|
| initial_hand | 24 | my dealt hand |
| initial_face_up | 24 | the face-up card of the deal |
| tricks | 1008 | 12 trick slots of 84 numbers, in play order |

Trick slot (84 numbers; the events of one trick, in play order):

| block | size | meaning |
|---|---|---|
| led_card | 24 | card led |
| followed_card | 24 | card played to it |
| i_led | 1 | I led this trick |
| marriage | 1 | a marriage was declared with the lead (or a marry-claim made) |
| exchange | 2 | trump exchange in this trick by me, by the opponent |
| close_before_lead | 2 | close at the leader's turn by me, by the opponent |
| exchange_on_close | 2 | exchange on close before the lead, by me, by the opponent |
| pass_on_close | 2 | exchange on close declined, by me, by the opponent |
| close_before_draw | 2 | close after this trick, before drawing, by me, by the opponent |
| drew | 24 | card I drew after this trick |
"""

from __future__ import annotations

import functools
import numbers

import numpy as np
from numba import njit

from . import core
from .actions import action_name
from .cards import SUITS, card_name, mask_to_cards, mask_to_names, parse_card
from .rules import MINI_PRESETS, OPTION_NAMES, PRESETS, RuleSet, make_rules

PHASE_NAMES = ("lead", "follow", "pre-draw", "close-exchange", "final-claim", "over")
MAX_TRICKS = 12
TALON_SCALE = 16
GAME_POINT_SCALE = 6

#: (name, size) of the now block, the history head and one trick slot, as documented above.
NOW_BLOCKS = (
    ("hand", 24),
    ("known_opponent", 24),
    ("excluded_opponent", 24),
    ("unknown", 24),
    ("won_me", 24),
    ("won_opponent", 24),
    ("led", 24),
    ("face_up", 24),
    ("talon_bottom", 24),
    ("trump", 4),
    ("talon_size", 1),
    ("closed", 2),
    ("phase", 6),
    ("my_turn", 1),
    ("i_lead", 1),
    ("totals", 2),
    ("pending", 2),
    ("tricks_won", 2),
    ("marriages", 8),
    ("dealer", 1),
    ("outcome", 3 + len(core.REASONS)),
)
SLOT_BLOCKS = (
    ("led_card", 24),
    ("followed_card", 24),
    ("i_led", 1),
    ("marriage", 1),
    ("exchange", 2),
    ("close_before_lead", 2),
    ("exchange_on_close", 2),
    ("pass_on_close", 2),
    ("close_before_draw", 2),
    ("drew", 24),
)
SLOT_SIZE = sum(size for _, size in SLOT_BLOCKS)
HISTORY_BLOCKS = (("initial_hand", 24), ("initial_face_up", 24), ("tricks", MAX_TRICKS * SLOT_SIZE))
TENSOR_SIZE = sum(size for _, size in NOW_BLOCKS + HISTORY_BLOCKS)


def _offsets(blocks: tuple, start: int = 0) -> dict[str, int]:
    offsets = {}
    for name, size in blocks:
        offsets[name] = start
        start += size
    return offsets


_NOW = _offsets(NOW_BLOCKS)
_HISTORY = _offsets(HISTORY_BLOCKS, sum(size for _, size in NOW_BLOCKS))
_SLOT = _offsets(SLOT_BLOCKS)


def _cards_text(mask: int) -> str:
    """Cards of a mask in card order, e.g. ``"QH KH"``."""
    return " ".join(card_name(card) for card in mask_to_cards(mask))


@functools.cache
def rules_text(rules: RuleSet) -> str:
    """A canonical name of a rule set: the nearest preset and the options that differ."""
    best = None
    for preset in (*PRESETS, *MINI_PRESETS):
        base = make_rules(preset)
        diffs = [
            f"{name}={getattr(rules, name)!r}"
            for name in OPTION_NAMES
            if getattr(rules, name) != getattr(base, name)
        ]
        if best is None or len(diffs) < len(best):
            best = [preset, *diffs]
    return " ".join(best)


class PlayerView:
    """What ``player`` may know of a deal; built from a ``State`` but holding none of it.

    Card sets are int masks, cards are indices (``cards``), players 0 and 1.

    * ``player``, ``opponent``, ``game`` (rules only), ``dealer``, ``trump`` (suit index)
    * ``hand``, ``initial_hand``, ``initial_face_up``, ``own_hand_log`` (my hand after
      each action), ``history`` (``(player, action)`` pairs)
    * ``opponent_hand_size``, ``known_opponent``, ``excluded_opponent`` (within
      ``unknown``), ``hidden_opponent``; ``talon_size``, ``hidden_talon``, ``closed_by``,
      ``talon_bottom`` (the last talon card, or None), ``face_up_card`` (it, while the
      talon is open); ``unknown`` (``hidden_opponent + hidden_talon`` cards)
    * ``record``: a one-element ``core.STATE_DTYPE`` array, the state with the opponent's
      hand reduced to ``known_opponent`` and every talon slot but the bottom card set to -1
    * public facts: ``phase``, ``to_move`` (None when over), ``is_my_turn``, ``leader``,
      ``is_terminal``, ``outcome``, ``led_card``, ``tricks_played``, ``tricks_won``,
      ``card_points`` (totals), ``pending_marriage_points``, ``won`` (masks),
      ``won_cards``, ``declared_marriages``, ``married_suits`` (suit bit masks)
    """

    def __init__(self, state, player: int) -> None:
        if not _is_player(player):
            raise ValueError(f"invalid player {player!r}: a player is 0 or 1")
        game = state.game
        rules = game.rule_array[0]
        truth = state.array[0]
        self.game = game  # rules only
        self.player = player = int(player)
        self.opponent = opponent = 1 - player
        self.dealer = int(state.dealer)
        self.trump = int(truth["trump"])

        # Private observations: the dealt hand, the face-up card, the hand after each action.
        owner = 0 if player != self.dealer else 1  # hand_owner 0 is the non-dealer
        self.initial_hand = 0
        for k in range(2 * int(rules["hand_size"])):
            if rules["hand_owner"][k] == owner:
                self.initial_hand |= 1 << int(state.deck[rules["hand_positions"][k]])
        self.initial_face_up = int(state.deck[rules["trump_position"]])
        self.hand = int(truth["hand"][player])
        self.own_hand_log = tuple(int(hands[player]) for hands in state.hand_log)
        self.history = tuple((int(actor), str(action)) for actor, action in state.history)

        # The public record: every field is public except the opponent's hand and the
        # talon cards other than its last one. Public: won cards, points, marriages, tricks,
        # married suits, shown and excluded cards (public knowledge by definition), the
        # talon's bounds, trump, phase, to_move, leader, led card, closer, the close snapshot,
        # trick count, turn flags, winners, game points, reason and dealer.
        record = core.copy_record(state.array)
        self.unknown = int(hide_from(record, game.rule_array, player))
        self.record = record
        public = record[0]
        self.talon_size = int(public["talon_end"] - public["talon_top"])
        self.talon_bottom = (
            int(public["talon"][public["talon_end"] - 1]) if self.talon_size > 0 else None
        )
        self.known_opponent = int(public["shown"][opponent])
        self.closed_by = None if public["closed_by"] < 0 else int(public["closed_by"])
        self.face_up_card = self.talon_bottom if self.closed_by is None else None
        self.opponent_hand_size = int(truth["hand"][opponent]).bit_count()
        self.excluded_opponent = int(public["excluded"][opponent]) & self.unknown
        self.hidden_opponent = self.opponent_hand_size - self.known_opponent.bit_count()
        self.hidden_talon = self.talon_size - 1 if self.talon_size > 0 else 0
        assert self.unknown.bit_count() == self.hidden_opponent + self.hidden_talon

        # Public facts, as copied values.
        self.phase = int(public["phase"])
        self.is_terminal = self.phase == core.OVER
        self.to_move = None if self.is_terminal else int(public["to_move"])
        self.is_my_turn = self.to_move == player
        self.leader = int(public["leader"])
        self.led_card = state.led_card
        self.tricks_played = state.tricks_played
        self.tricks_won = state.tricks_won
        self.card_points = state.card_points
        self.pending_marriage_points = state.pending_marriage_points
        self.won = (int(public["won"][0]), int(public["won"][1]))
        self.won_cards = tuple(tuple(cards) for cards in state.won_cards)
        self.declared_marriages = tuple(tuple(suits) for suits in state.declared_marriages)
        self.married_suits = (int(public["married_suits"][0]), int(public["married_suits"][1]))
        self.outcome = state.outcome
        # Legality depends only on the mover's hand and public facts.
        self._legal = tuple(state.legal_action_ids()) if self.is_my_turn else ()

    def __repr__(self) -> str:
        status = "over" if self.is_terminal else f"P{self.to_move} to {PHASE_NAMES[self.phase]}"
        return (
            f"<PlayerView of P{self.player} trump={self.trump_suit} hand={self.hand_cards} "
            f"known_opponent={mask_to_names(self.known_opponent)} talon={self.talon_size} "
            f"{status}>"
        )

    # ---- reading -----------------------------------------------------------------------
    @property
    def trump_suit(self) -> str:
        return SUITS[self.trump]

    @property
    def hand_cards(self) -> list[str]:
        """My hand as sorted card strings."""
        return mask_to_names(self.hand)

    def legal_action_ids(self) -> list[int]:
        """My legal action ids, ascending (empty when it is not my turn)."""
        return list(self._legal)

    def legal_actions(self) -> list[str]:
        """My legal actions as sorted canonical strings (empty when it is not my turn)."""
        return sorted(action_name(action) for action in self._legal)

    # ---- worlds (sixtysix.worlds) -------------------------------------------------------
    def count_worlds(self) -> int:
        """Number of complete states consistent with this view."""
        from .worlds import count_worlds

        return count_worlds(self)

    def enumerate_worlds(self, limit: int = 100_000):
        """The consistent complete states, up to ``limit`` of them."""
        from .worlds import enumerate_worlds

        return enumerate_worlds(self, limit)

    def sample_worlds(self, n: int, rng):
        """``n`` consistent complete states drawn with ``rng``."""
        from .worlds import sample_worlds

        return sample_worlds(self, n, rng)

    # ---- encodings ---------------------------------------------------------------------
    def key(self) -> str:
        """A readable string of all I observed: equal exactly for states I cannot tell apart."""
        lines = [
            f"rules {rules_text(self.game.rules)}",
            f"player {self.player} dealer {self.dealer}",
            f"dealt {_cards_text(self.initial_hand)} face-up {card_name(self.initial_face_up)}",
        ]
        before = self.initial_hand
        for number, ((actor, action), after) in enumerate(
            zip(self.history, self.own_hand_log, strict=True), 1
        ):
            gained = after & ~before
            got = f" / I got {_cards_text(gained)}" if gained else ""
            lines.append(f"{number}. P{actor} {action}{got}")
            before = after
        if self.is_terminal:
            winner, game_points, reason = self.outcome
            who = "nobody" if winner is None else f"P{winner}"
            lines.append(f"over: {who} wins {game_points} game points ({reason})")
        else:
            lines.append(f"P{self.to_move} to {PHASE_NAMES[self.phase]}")
        return "\n".join(lines)

    def tensor(self) -> np.ndarray:
        """The float32 encoding of length ``TENSOR_SIZE`` (layout in the module docstring)."""
        out = np.zeros(TENSOR_SIZE, dtype=np.float32)
        me, opponent = self.player, self.opponent

        def put(offset: int, mask: int) -> None:
            for card in mask_to_cards(mask):
                out[offset + card] = 1.0

        put(_NOW["hand"], self.hand)
        put(_NOW["known_opponent"], self.known_opponent)
        put(_NOW["excluded_opponent"], self.excluded_opponent)
        put(_NOW["unknown"], self.unknown)
        put(_NOW["won_me"], self.won[me])
        put(_NOW["won_opponent"], self.won[opponent])
        if self.led_card is not None:
            out[_NOW["led"] + parse_card(self.led_card)] = 1.0
        if self.face_up_card is not None:
            out[_NOW["face_up"] + self.face_up_card] = 1.0
        if self.talon_bottom is not None:
            out[_NOW["talon_bottom"] + self.talon_bottom] = 1.0
        out[_NOW["trump"] + self.trump] = 1.0
        out[_NOW["talon_size"]] = self.talon_size / TALON_SCALE
        if self.closed_by is not None:
            out[_NOW["closed"] + (self.closed_by != me)] = 1.0
        out[_NOW["phase"] + self.phase] = 1.0
        out[_NOW["my_turn"]] = self.is_my_turn
        out[_NOW["i_lead"]] = self.leader == me
        target = self.game.rules.target
        for k, p in enumerate((me, opponent)):
            out[_NOW["totals"] + k] = self.card_points[p] / target
            out[_NOW["pending"] + k] = self.pending_marriage_points[p] / target
            out[_NOW["tricks_won"] + k] = self.tricks_won[p] / MAX_TRICKS
            for suit in range(4):
                out[_NOW["marriages"] + 4 * k + suit] = self.married_suits[p] >> suit & 1
        out[_NOW["dealer"]] = self.dealer == me
        if self.is_terminal:
            winner, game_points, reason = self.outcome
            if winner is not None:
                out[_NOW["outcome"] + (winner != me)] = 1.0
            out[_NOW["outcome"] + 2] = game_points / GAME_POINT_SCALE
            out[_NOW["outcome"] + 3 + core.REASONS.index(reason)] = 1.0
        put(_HISTORY["initial_hand"], self.initial_hand)
        out[_HISTORY["initial_face_up"] + self.initial_face_up] = 1.0
        slots = out[_HISTORY["tricks"] :].reshape(MAX_TRICKS, SLOT_SIZE)
        for trick, block, value in self._trick_events():
            slots[trick, _SLOT[block] + value] = 1.0
        return out

    def _trick_events(self):
        """``(trick, slot block, index)`` of every history event (see the trick slot table)."""
        trick = 0  # tricks completed
        led = False  # a card is led to trick ``trick``
        pre_draw = False  # the previous action ended a trick and nobody drew
        previous = ""
        before = self.initial_hand
        last = len(self.history) - 1
        for i, ((actor, action), after) in enumerate(
            zip(self.history, self.own_hand_log, strict=True)
        ):
            who = int(actor != self.player)
            verb, _, argument = action.partition(" ")
            gained = after & ~before
            before = after
            ends_trick = False
            if verb in ("play", "marry") and led:
                yield trick, "followed_card", parse_card(argument)
                trick += 1
                led = False
                ends_trick = True
                for drawn in mask_to_cards(gained):
                    yield trick - 1, "drew", drawn
            elif verb in ("play", "marry"):
                if verb == "marry":
                    yield trick, "marriage", 0
                if not (i == last and self.is_terminal):  # else R-A8: claimed, nothing led
                    yield trick, "led_card", parse_card(argument)
                    led = True
                    if not who:
                        yield trick, "i_led", 0
            elif verb == "draw":
                for drawn in mask_to_cards(gained):
                    yield trick - 1, "drew", drawn
            elif verb == "exchange":
                yield trick, "exchange", who
            elif verb == "close" and pre_draw:
                yield trick - 1, "close_before_draw", who
            elif verb == "close":
                yield trick, "close_before_lead", who
            elif verb == "exchange-on-close":
                yield trick, "exchange_on_close", who
            elif verb == "pass" and previous == "close":
                yield trick, "pass_on_close", who
            elif verb == "marry-claim":
                yield trick, "marriage", 0
            pre_draw = ends_trick and not gained
            previous = verb


@njit(cache=True)
def hide_from(state_array, rules_array, player):
    """Blank in ``state_array[0]`` what ``player`` may not know; return his unknown cards.

    The opponent's hand keeps only his shown cards, and every talon slot but
    the last (public) card becomes -1, stale drawn cards included. Unknown are
    the cards neither in the player's hand, nor won, nor led, nor shown by the
    opponent, nor the talon's last card: the opponent's unseen cards and the
    hidden talon cards.
    """
    state = state_array[0]
    opponent = 1 - player
    seen = state.hand[player] | state.won[0] | state.won[1] | state.shown[opponent]
    if state.led >= 0:
        seen |= np.int64(1) << state.led
    end = state.talon_end
    bottom = state.talon[end - 1] if end > state.talon_top else -1
    if bottom >= 0:
        seen |= np.int64(1) << bottom
    state.hand[opponent] = state.shown[opponent]
    state.talon[:] = -1
    if bottom >= 0:
        state.talon[end - 1] = bottom
    return rules_array[0].deck_mask & ~seen


def _is_player(value) -> bool:
    """0 or 1, as a Python or numpy integer but not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value in (0, 1)
