"""The player's view: what one player may know of a deal, with perfect recall.

``State.view(player)`` gives a :class:`PlayerView`, the only input an agent gets.
It copies from the state exactly what ``player`` may know and keeps no
reference to the state, its deck, its record or the opponent's hand.

What a player knows:

* the rules, the dealer, his dealt hand and the face-up card of the deal;
* every action (all actions are public) and his own hand after each one, so
  also every card he drew;
* the opponent's known cards (``known_opponent``, core's ``shown`` mask): the
  partner of a declared marriage, and the face-up card taken by an exchange,
  an exchange on close or the last draw (the exchange on close is offered
  whether or not he holds the exchange card, docs/rules.md R-A7, so only an
  exchange tells);
* cards the opponent cannot hold (``excluded_opponent``, core's ``excluded``
  mask): the strict-phase inference of docs/rules.md 6.2;
* the talon's last card while the talon is non-empty (it lay face up, or it is
  the exchange card), and the size of everything.

The remaining cards, ``unknown``, are split between the opponent's hand
(``hidden_opponent`` of them) and the talon (``hidden_talon``).

``worlds.hide_from`` (numba) blanks a copy of a core record for one player and
returns his unknown cards: the view is built on it, and agents that stay inside
numba use it directly, with ``worlds.sample_world_record``.

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

import itertools
from typing import TYPE_CHECKING

import numpy as np

from .engine import core
from .engine.actions import action_name, mask_to_actions
from .engine.cards import (
    NUM_CARD_INDICES,
    NUM_SUITS,
    card_name,
    mask_text,
    mask_to_cards,
    mask_to_names,
)
from .engine.checks import check_integer, check_player, check_seed
from .engine.rules import rules_text
from .engine.worlds import WorldSpec, hide_from, sample_hidden, sample_records
from .facts import PHASE_NAMES, DealFacts
from .history import Step, read_history
from .world_states import DeckPlan

if TYPE_CHECKING:
    from .game import State

MAX_TRICKS = 12
TALON_SCALE = 16
GAME_POINT_SCALE = 6

#: (name, size) of the now block, the history head and one trick slot, as documented above.
NOW_BLOCKS = (
    ("hand", NUM_CARD_INDICES),
    ("known_opponent", NUM_CARD_INDICES),
    ("excluded_opponent", NUM_CARD_INDICES),
    ("unknown", NUM_CARD_INDICES),
    ("won_me", NUM_CARD_INDICES),
    ("won_opponent", NUM_CARD_INDICES),
    ("led", NUM_CARD_INDICES),
    ("face_up", NUM_CARD_INDICES),
    ("talon_bottom", NUM_CARD_INDICES),
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
    ("led_card", NUM_CARD_INDICES),
    ("followed_card", NUM_CARD_INDICES),
    ("i_led", 1),
    ("marriage", 1),
    ("exchange", 2),
    ("close_before_lead", 2),
    ("exchange_on_close", 2),
    ("pass_on_close", 2),
    ("close_before_draw", 2),
    ("drew", NUM_CARD_INDICES),
)
SLOT_SIZE = sum(size for _, size in SLOT_BLOCKS)
HISTORY_BLOCKS = (
    ("initial_hand", NUM_CARD_INDICES),
    ("initial_face_up", NUM_CARD_INDICES),
    ("tricks", MAX_TRICKS * SLOT_SIZE),
)
TENSOR_SIZE = sum(size for _, size in NOW_BLOCKS + HISTORY_BLOCKS)


def _offsets(blocks: tuple, start: int = 0) -> dict[str, int]:
    offsets = {}
    for name, size in blocks:
        offsets[name] = start
        start += size
    return offsets


_CARD_BITS = np.arange(NUM_CARD_INDICES)  # shifts that spread a card mask over 24 numbers
# where each block starts: in the tensor (now and history) and in a trick's slot
NOW_OFFSETS = _offsets(NOW_BLOCKS)
HISTORY_OFFSETS = _offsets(HISTORY_BLOCKS, sum(size for _, size in NOW_BLOCKS))
SLOT_OFFSETS = _offsets(SLOT_BLOCKS)


class PlayerView(DealFacts):
    """What ``player`` may know of a deal; built from a ``State`` but holding none of it.

    Card sets are int masks, cards are indices (``cards``), players 0 and 1.

    * ``player``, ``opponent``, ``game`` (rules only), ``dealer``, ``trump`` (suit index)
    * ``hand``, ``initial_hand``, ``initial_face_up``, ``own_hand_log`` (my hand after
      each action), ``history_ids`` (``(player, action id)`` pairs) and ``history``
      (the same with action strings)
    * ``opponent_hand_size``, ``known_opponent``, ``excluded_opponent`` (within
      ``unknown``), ``hidden_opponent``; ``talon_size``, ``hidden_talon``, ``closed_by``,
      ``talon_bottom`` (the last talon card, or None), ``face_up_card`` (it, while the
      talon is open); ``unknown`` (``hidden_opponent + hidden_talon`` cards)
    * ``record``: a one-element ``core.STATE_DTYPE`` array, the state with the opponent's
      hand reduced to ``known_opponent`` and every talon slot but the bottom card set to -1
    * public facts (``sixtysix.facts.DealFacts``, read from ``record``): ``phase``,
      ``is_terminal``, ``outcome``, ``leader``, ``led_card``, ``tricks_played``,
      ``tricks_won``, ``card_points`` (totals), ``pending_marriage_points``, ``won``
      (masks), ``won_cards``, ``declared_marriages``, ``married_suits`` (suit bit masks);
      ``to_move`` (None when over) and ``is_my_turn``
    * the same cards for people, as sorted card strings (``cards.mask_to_names``, like
      ``State.hands``): ``hand_cards``, ``initial_hand_cards``, ``own_hand_log_cards``,
      ``known_opponent_cards``, ``excluded_opponent_cards``, ``unknown_cards``,
      ``won_cards``; single cards as a string (or None): ``initial_face_up_name``,
      ``talon_bottom_name``, ``face_up_name``
    """

    def __init__(self, state: State, player: int) -> None:
        player = check_player(player)
        game = state.game
        rules = game.rule_array[0]
        self.game = game  # rules only
        self.player = player
        self.opponent = opponent = 1 - player
        self.dealer = int(state.dealer)

        # Private observations: the dealt hand, the face-up card, the hand after each action.
        owner = 0 if player != self.dealer else 1  # hand_owner 0 is the non-dealer
        self.initial_hand = 0
        for k in range(2 * int(rules["hand_size"])):
            if rules["hand_owner"][k] == owner:
                self.initial_hand |= 1 << int(state.deck[rules["hand_positions"][k]])
        self.initial_face_up = int(state.deck[rules["trump_position"]])
        self.own_hand_log = tuple(int(hands[player]) for hands in state.hand_log)
        self.history_ids = tuple(state.history_ids)

        # The public record: every field is public except the opponent's hand and the
        # talon cards other than its last one (``worlds.hide_from`` blanks those).
        self.array = core.copy_record(state.array)
        self.unknown = int(hide_from(self.array, game.rule_array, player))
        public = self.array[0]
        self.hand = int(public["hand"][player])
        self.talon_bottom = (
            int(public["talon"][public["talon_end"] - 1]) if self.talon_size > 0 else None
        )
        self.known_opponent = int(public["shown"][opponent])
        self.face_up_card = self.talon_bottom if self.closed_by is None else None
        self.opponent_hand_size = int(state.array[0]["hand"][opponent]).bit_count()  # public
        self.excluded_opponent = int(public["excluded"][opponent]) & self.unknown
        self.hidden_opponent = self.opponent_hand_size - self.known_opponent.bit_count()
        self.hidden_talon = self.talon_size - 1 if self.talon_size > 0 else 0
        assert self.unknown.bit_count() == self.hidden_opponent + self.hidden_talon
        self.to_move = None if self.is_terminal else int(public["to_move"])
        self.is_my_turn = self.to_move == player
        # Legality needs only the mover's hand and public facts: the blanked record has them.
        legal = core.legal_mask_array(self.array, game.rule_array) if self.is_my_turn else 0
        self._legal = tuple(mask_to_actions(int(legal)))

    def __repr__(self) -> str:
        status = "over" if self.is_terminal else f"P{self.to_move} to {PHASE_NAMES[self.phase]}"
        return (
            f"<PlayerView of P{self.player} trump={self.trump_suit} hand={self.hand_cards} "
            f"known_opponent={self.known_opponent_cards} talon={self.talon_size} "
            f"{status}>"
        )

    # ---- reading -----------------------------------------------------------------------
    @property
    def record(self) -> np.ndarray:
        """The blanked core record (one-element ``core.STATE_DTYPE`` array)."""
        return self.array

    @property
    def hand_cards(self) -> list[str]:
        """My hand as sorted card strings."""
        return mask_to_names(self.hand)

    @property
    def initial_hand_cards(self) -> list[str]:
        """My dealt hand as sorted card strings."""
        return mask_to_names(self.initial_hand)

    @property
    def own_hand_log_cards(self) -> tuple[list[str], ...]:
        """My hand after each action, as sorted card strings."""
        return tuple(mask_to_names(hand) for hand in self.own_hand_log)

    @property
    def known_opponent_cards(self) -> list[str]:
        """The cards the opponent is known to hold, sorted."""
        return mask_to_names(self.known_opponent)

    @property
    def excluded_opponent_cards(self) -> list[str]:
        """The unknown cards the opponent cannot hold, sorted."""
        return mask_to_names(self.excluded_opponent)

    @property
    def unknown_cards(self) -> list[str]:
        """The cards whose place I do not know, sorted."""
        return mask_to_names(self.unknown)

    @property
    def initial_face_up_name(self) -> str:
        """The face-up card of the deal."""
        return card_name(self.initial_face_up)

    @property
    def talon_bottom_name(self) -> str | None:
        """The talon's last card, None once the talon is empty."""
        return None if self.talon_bottom is None else card_name(self.talon_bottom)

    @property
    def face_up_name(self) -> str | None:
        """The face-up card while the talon is open, else None."""
        return None if self.face_up_card is None else card_name(self.face_up_card)

    @property
    def history(self) -> tuple[tuple[int, str], ...]:
        """``((player, action string), ...)``: ``history_ids`` for people."""
        return tuple((player, action_name(action)) for player, action in self.history_ids)

    @property
    def action_ids(self) -> list[int]:
        """The action ids of the history, in order."""
        return [action for _, action in self.history_ids]

    def read_history(self) -> list[Step]:
        """The history as I read it (``sixtysix.history``): what each action did."""
        return list(
            read_history(
                self.history_ids,
                self.own_hand_log,
                self.initial_hand,
                self.is_terminal,
                self.leader,
            )
        )

    def legal_action_ids(self) -> list[int]:
        """My legal action ids, ascending (empty when it is not my turn)."""
        return list(self._legal)

    def legal_actions(self) -> list[str]:
        """My legal actions as sorted canonical strings (empty when it is not my turn)."""
        return sorted(action_name(action) for action in self._legal)

    # ---- worlds (``sixtysix.engine.worlds`` draws them, ``sixtysix.world_states`` replays them) --
    def world_spec(self) -> WorldSpec:
        """The numbers that define my worlds."""
        hidden_talon = self.hidden_talon
        return WorldSpec(
            opponent=self.opponent,
            unknown=self.unknown,
            allowed=self.unknown & ~self.excluded_opponent,
            hidden_opponent=self.hidden_opponent,
            hidden_talon=hidden_talon,
            ordered=self.closed_by is None and hidden_talon > 0,
        )

    def count_worlds(self) -> int:
        """Number of complete states consistent with this view."""
        return self.world_spec().count()

    def sample_world_records(self, n: int, seed: int) -> np.ndarray:
        """``n`` i.i.d. uniform worlds as ``core.STATE_DTYPE`` records, from an integer ``seed``.

        With equal seeds these are the worlds ``sample_worlds`` returns.
        """
        n = check_integer(n, "number of worlds", 0)
        spec = self.world_spec()
        worlds = np.zeros(n, dtype=core.STATE_DTYPE)
        sample_records(
            self.array,
            *spec.record_arguments,
            np.uint64(check_seed(seed)),
            worlds,
        )
        return worlds

    def sample_worlds(self, n: int, rng) -> list[State]:
        """``n`` i.i.d. uniform worlds as replayed ``State`` objects.

        ``rng`` is an integer seed in [0, 2**64) or a ``numpy.random.Generator``
        (one seed is drawn from it).
        """
        n = check_integer(n, "number of worlds", 0)
        if isinstance(rng, np.random.Generator):
            seed = int(rng.integers(0, 2**64, dtype=np.uint64))
        else:
            seed = check_seed(rng, "rng (a seed or a numpy.random.Generator)")
        spec = self.world_spec()
        hidden = np.zeros(n, dtype=np.int64)
        talons = np.zeros((n, max(spec.hidden_talon, 1)), dtype=np.int64)
        sample_hidden(
            spec.allowed,
            spec.unknown,
            spec.hidden_opponent,
            spec.hidden_talon,
            spec.ordered,
            n,
            np.uint64(seed),
            hidden,
            talons,
        )
        plan = DeckPlan(self)
        return [
            plan.world(int(hidden[i]), [int(c) for c in talons[i, : spec.hidden_talon]])
            for i in range(n)
        ]

    def enumerate_worlds(self, limit: int = 100_000) -> list[State]:
        """Every world in a fixed order; more than ``limit`` worlds is a ValueError.

        Order: opponent subsets ascending (as ``itertools.combinations`` of the
        sorted allowed cards), then talon orders (``itertools.permutations``).
        """
        limit = check_integer(limit, "limit", 0)
        spec = self.world_spec()
        count = spec.count()
        if count > limit:
            raise ValueError(f"the view has {count} worlds, more than the limit {limit}")
        plan = DeckPlan(self)
        worlds = []
        for subset in itertools.combinations(mask_to_cards(spec.allowed), spec.hidden_opponent):
            hidden = sum(1 << card for card in subset)
            rest = mask_to_cards(spec.unknown & ~hidden)
            orders = itertools.permutations(rest) if spec.ordered else [rest]
            worlds.extend(plan.world(hidden, list(order)) for order in orders)
        return worlds

    # ---- encodings ---------------------------------------------------------------------
    def key(self) -> str:
        """A readable string of all I observed: equal exactly for states I cannot tell apart."""
        lines = [
            f"rules {rules_text(self.game.rules)}",
            f"player {self.player} dealer {self.dealer}",
            f"dealt {mask_text(self.initial_hand)} face-up {card_name(self.initial_face_up)}",
        ]
        before = self.initial_hand
        for number, ((actor, action), after) in enumerate(
            zip(self.history_ids, self.own_hand_log, strict=True), 1
        ):
            gained = after & ~before
            got = f" / I got {mask_text(gained)}" if gained else ""
            lines.append(f"{number}. P{actor} {action_name(action)}{got}")
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
            out[offset : offset + NUM_CARD_INDICES] = (mask >> _CARD_BITS) & 1

        won = self.won
        put(NOW_OFFSETS["hand"], self.hand)
        put(NOW_OFFSETS["known_opponent"], self.known_opponent)
        put(NOW_OFFSETS["excluded_opponent"], self.excluded_opponent)
        put(NOW_OFFSETS["unknown"], self.unknown)
        put(NOW_OFFSETS["won_me"], won[me])
        put(NOW_OFFSETS["won_opponent"], won[opponent])
        led = int(self.array[0]["led"])
        if led >= 0:
            out[NOW_OFFSETS["led"] + led] = 1.0
        if self.face_up_card is not None:
            out[NOW_OFFSETS["face_up"] + self.face_up_card] = 1.0
        if self.talon_bottom is not None:
            out[NOW_OFFSETS["talon_bottom"] + self.talon_bottom] = 1.0
        out[NOW_OFFSETS["trump"] + self.trump] = 1.0
        out[NOW_OFFSETS["talon_size"]] = self.talon_size / TALON_SCALE
        if self.closed_by is not None:
            out[NOW_OFFSETS["closed"] + (self.closed_by != me)] = 1.0
        out[NOW_OFFSETS["phase"] + self.phase] = 1.0
        out[NOW_OFFSETS["my_turn"]] = self.is_my_turn
        out[NOW_OFFSETS["i_lead"]] = self.leader == me
        target = self.game.rules.target
        totals, pending = self.card_points, self.pending_marriage_points
        tricks, married = self.tricks_won, self.married_suits
        for k, p in enumerate((me, opponent)):
            out[NOW_OFFSETS["totals"] + k] = totals[p] / target
            out[NOW_OFFSETS["pending"] + k] = pending[p] / target
            out[NOW_OFFSETS["tricks_won"] + k] = tricks[p] / MAX_TRICKS
            for suit in range(NUM_SUITS):
                out[NOW_OFFSETS["marriages"] + NUM_SUITS * k + suit] = married[p] >> suit & 1
        out[NOW_OFFSETS["dealer"]] = self.dealer == me
        if self.is_terminal:
            winner, game_points, reason = self.outcome
            if winner is not None:
                out[NOW_OFFSETS["outcome"] + (winner != me)] = 1.0
            out[NOW_OFFSETS["outcome"] + 2] = game_points / GAME_POINT_SCALE
            out[NOW_OFFSETS["outcome"] + 3 + core.REASONS.index(reason)] = 1.0
        put(HISTORY_OFFSETS["initial_hand"], self.initial_hand)
        out[HISTORY_OFFSETS["initial_face_up"] + self.initial_face_up] = 1.0
        slots = out[HISTORY_OFFSETS["tricks"] :].reshape(MAX_TRICKS, SLOT_SIZE)
        for trick, block, value in self._trick_events():
            slots[trick, SLOT_OFFSETS[block] + value] = 1.0
        return out

    def _trick_events(self):
        """``(trick, slot block, index)`` of every history event (see the trick slot table)."""
        for step in self.read_history():
            trick, who, action = step.tricks_before, int(step.actor != self.player), step.action
            if step.follows:
                yield trick, "followed_card", step.card
            elif step.leads:
                yield trick, "led_card", step.card
                if not who:
                    yield trick, "i_led", 0
            if step.marriage_suit >= 0:
                yield trick, "marriage", 0
            if step.drew >= 0:  # after the trick just completed (by this follow, or a draw)
                yield trick - (not step.follows), "drew", step.drew
            if action == core.A_EXCHANGE:
                yield trick, "exchange", who
            elif step.pre_draw_close:
                yield trick - 1, "close_before_draw", who
            elif action == core.A_CLOSE:
                yield trick, "close_before_lead", who
            elif step.answers_close:
                exchanged = action == core.A_EXCHANGE_ON_CLOSE
                yield trick, "exchange_on_close" if exchanged else "pass_on_close", who
