"""The player's view: what one player may know of a deal, with perfect recall.

``State.view(player)`` gives a :class:`PlayerView`, the only input an agent gets.
It copies from the state exactly what ``player`` may know and keeps no
reference to the state, its deck, its record or the opponent's hand.

What a player knows:

* the rules, the dealer, his dealt hand and the face-up card of the deal;
* every action (all actions are public) and his own hand after each one, so
  also every card he drew;
* the opponent's known cards (``known_opponent``, the record's ``shown`` mask): the
  partner of a declared marriage, and the face-up card taken by an exchange,
  an exchange on close or the last draw (the exchange on close is offered
  whether or not he holds the exchange card, docs/rules.md R-A7, so only an
  exchange tells);
* cards the opponent cannot hold (``excluded_opponent``, the record's
  ``excluded`` mask): the strict-phase inference of docs/rules.md 6.2;
* the talon's last card while the talon is non-empty (it lay face up, or it is
  the exchange card), and the size of everything.

The remaining cards, ``unknown``, are split between the opponent's hand
(``hidden_opponent`` of them) and the talon (``hidden_talon``).

``worlds.hide_from`` (numba) blanks a copy of the deal record for one player
and returns his unknown cards: the view is built on it, and agents that stay
inside numba use it directly, with ``worlds.sample_world_record``.

``key()`` is a readable string, equal for two states exactly when the player
cannot tell them apart (cards and actions by name, so it does not depend on
the card encoding); ``tensor()`` encodes the same facts as a float32 vector
whose layout depends only on the game's pack (``tensor_layout(game)``). "Me"
is the view's player. A card block has ``P`` numbers, one per card of the
game's pack in card order (suit by suit, rank ascending): 24 for the 24-card
pack, 20 for the 20-card pack, fewer for the minis, so a tensor has
``47 P + 187`` numbers (1315 for 24 cards, 1127 for 20). A player pair is
(me, opponent). The vector is egocentric: the player's number is not in it
(the rules are symmetric; ``dealer`` gives the seat).

Now block (the current state):

| block | size | meaning |
|---|---|---|
| hand | P | my hand |
| known_opponent | P | cards the opponent is known to hold |
| excluded_opponent | P | unknown cards the opponent cannot hold |
| unknown | P | cards whose place I do not know |
| won_me | P | cards I have won in tricks |
| won_opponent | P | cards the opponent has won |
| led | P | card led to the current trick |
| face_up | P | face-up card under the open talon |
| talon_bottom | P | last talon card (face up, or turned down by a close) |
| trump | 4 | trump suit, one-hot |
| talon_size | 1 | cards in the talon / 16 |
| closed | 2 | the talon was closed by me, by the opponent |
| phase | 6 | decision point, one-hot (lead ... over) |
| my_turn | 1 | I am to move |
| i_lead | 1 | I lead the current trick |
| totals | 2 | card-point totals (me, opponent) / target (66) |
| pending | 2 | declared marriage points that do not count yet / target |
| tricks_won | 2 | tricks won / 12 |
| marriages | 8 | suits of declared marriages, one-hot: mine, then the opponent's |
| dealer | 1 | I am the dealer |
| outcome | 13 | over: I won, the opponent won, game points / 6, reason one-hot (10) |

The phase and the reason one-hots follow ``TENSOR_PHASES`` and ``TENSOR_REASONS``.

History block (perfect recall):

| block | size | meaning |
|---|---|---|
| initial_hand | P | my dealt hand |
| initial_face_up | P | the face-up card of the deal |
| tricks | 12 × (3P + 12) | 12 trick slots, in play order |

Trick slot (3P + 12 numbers; the events of one trick, in play order):

| block | size | meaning |
|---|---|---|
| led_card | P | card led |
| followed_card | P | card played to it |
| i_led | 1 | I led this trick |
| marriage | 1 | a marriage was declared with the lead (or a marry-claim made) |
| exchange | 2 | trump exchange in this trick by me, by the opponent |
| close_before_lead | 2 | close at the leader's turn by me, by the opponent |
| exchange_on_close | 2 | exchange on close before the lead, by me, by the opponent |
| pass_on_close | 2 | exchange on close declined, by me, by the opponent |
| close_before_draw | 2 | close after this trick, before drawing, by me, by the opponent |
| drew | P | card I drew after this trick |
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .engine import multi_core as mc
from .engine.actions import action_name, masks_to_actions
from .engine.cards import NUM_CARDS, NUM_SUITS, card_name, mask_text, mask_to_cards, mask_to_names
from .engine.checks import check_integer, check_player, check_seed
from .engine.rules import rules_text
from .engine.worlds import WorldSpec, hide_from, sample_hidden, sample_records
from .facts import PHASE_NAMES, DealFacts
from .history import Step, read_history
from .world_states import DeckPlan

if TYPE_CHECKING:
    from .game import Game, State

MAX_TRICKS = 12
TALON_SCALE = 16
GAME_POINT_SCALE = 6
#: The phase block's order: the two-player decision points (names of ``PHASE_NAMES``).
TENSOR_PHASES = ("lead", "follow", "pre-draw", "close-exchange", "final-claim", "over")
#: The outcome block's reasons: the two-player ones (names of ``multi_core.TABLE_REASONS``).
TENSOR_REASONS = (
    "claim",
    "closer_claim",
    "opponent_claim_after_close",
    "false_claim",
    "closer_false_claim",
    "failed_close",
    "higher_total",
    "draw",
    "last_trick",
    "no_score",
)


def _offsets(blocks: tuple, start: int = 0) -> dict[str, int]:
    offsets = {}
    for name, size in blocks:
        offsets[name] = start
        start += size
    return offsets


@dataclass(frozen=True, eq=False)
class TensorLayout:
    """The tensor's blocks for one pack, as documented above: ``(name, size)`` of the now
    block, the history head and one trick slot, where each starts (in the tensor, and in a
    trick's slot) and where each card of the pack goes in a card block."""

    pack: np.ndarray  # the pack's cards, ascending: entry k of a card block is pack[k]
    now_blocks: tuple[tuple[str, int], ...]
    history_blocks: tuple[tuple[str, int], ...]
    slot_blocks: tuple[tuple[str, int], ...]
    slot_size: int
    size: int
    now_offsets: dict[str, int]
    history_offsets: dict[str, int]
    slot_offsets: dict[str, int]
    entry: np.ndarray  # by card index: its entry in a card block, -1 outside the pack


def tensor_layout(game: Game) -> TensorLayout:
    """The layout of ``game``'s view tensors (its pack decides it)."""
    return _layout_of_pack(int(game.rule_array[0]["deck_mask"]))


@functools.cache
def _layout_of_pack(deck_mask: int) -> TensorLayout:
    pack = np.array(mask_to_cards(deck_mask), dtype=np.int64)
    cards = len(pack)
    now_blocks = (
        ("hand", cards),
        ("known_opponent", cards),
        ("excluded_opponent", cards),
        ("unknown", cards),
        ("won_me", cards),
        ("won_opponent", cards),
        ("led", cards),
        ("face_up", cards),
        ("talon_bottom", cards),
        ("trump", NUM_SUITS),
        ("talon_size", 1),
        ("closed", 2),
        ("phase", len(TENSOR_PHASES)),
        ("my_turn", 1),
        ("i_lead", 1),
        ("totals", 2),
        ("pending", 2),
        ("tricks_won", 2),
        ("marriages", 2 * NUM_SUITS),
        ("dealer", 1),
        ("outcome", 3 + len(TENSOR_REASONS)),
    )
    slot_blocks = (
        ("led_card", cards),
        ("followed_card", cards),
        ("i_led", 1),
        ("marriage", 1),
        ("exchange", 2),
        ("close_before_lead", 2),
        ("exchange_on_close", 2),
        ("pass_on_close", 2),
        ("close_before_draw", 2),
        ("drew", cards),
    )
    slot_size = sum(size for _, size in slot_blocks)
    history_blocks = (
        ("initial_hand", cards),
        ("initial_face_up", cards),
        ("tricks", MAX_TRICKS * slot_size),
    )
    now_size = sum(size for _, size in now_blocks)
    entry = np.full(NUM_CARDS, -1, dtype=np.int64)
    entry[pack] = np.arange(cards)
    pack.flags.writeable = entry.flags.writeable = False  # shared by every view of the pack
    return TensorLayout(
        pack=pack,
        now_blocks=now_blocks,
        history_blocks=history_blocks,
        slot_blocks=slot_blocks,
        slot_size=slot_size,
        size=now_size + sum(size for _, size in history_blocks),
        now_offsets=_offsets(now_blocks),
        history_offsets=_offsets(history_blocks, now_size),
        slot_offsets=_offsets(slot_blocks),
        entry=entry,
    )


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
    * ``record``: a one-element ``multi_core.TWO_PLAYER_STATE_DTYPE`` array, the state with
      the opponent's hand reduced to ``known_opponent`` and every talon slot but the bottom
      card set to -1
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
        # deal_order lists the non-dealer's hand positions, then the dealer's.
        hand_size = int(rules["hand_size"])
        first = hand_size * (0 if player != self.dealer else 1)
        positions = rules["deal_order"][first : first + hand_size]
        self.initial_hand = sum(1 << int(state.deck[p]) for p in positions)
        self.initial_face_up = int(state.deck[rules["face_up_position"]])
        self.own_hand_log = tuple(int(hands[player]) for hands in state.hand_log)
        self.history_ids = tuple(state.history_ids)

        # The public record: every field is public except the opponent's hand and the
        # talon cards other than its last one (``worlds.hide_from`` blanks those).
        self.array = mc.copy_record(state.array)
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
        legal = mc.legal_masks_array(self.array, game.rule_array) if self.is_my_turn else (0, 0)
        self._legal = tuple(masks_to_actions(int(legal[0]), int(legal[1])))

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
        """The blanked deal record (one-element ``multi_core.TWO_PLAYER_STATE_DTYPE`` array)."""
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
        """``n`` i.i.d. uniform worlds as deal records (``multi_core.TWO_PLAYER_STATE_DTYPE``),
        from an integer ``seed``.

        With equal seeds these are the worlds ``sample_worlds`` returns.
        """
        n = check_integer(n, "number of worlds", 0)
        spec = self.world_spec()
        worlds = np.zeros(n, dtype=self.array.dtype)
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
        """The float32 encoding of ``tensor_layout(game).size`` numbers (the module docstring)."""
        layout = tensor_layout(self.game)
        now, head = layout.now_offsets, layout.history_offsets
        pack, entry = layout.pack, layout.entry
        out = np.zeros(layout.size, dtype=np.float32)
        me, opponent = self.player, self.opponent

        def put(offset: int, mask: int) -> None:
            out[offset : offset + len(pack)] = (mask >> pack) & 1

        def put_card(offset: int, card: int | None) -> None:
            if card is not None and card >= 0:
                out[offset + entry[card]] = 1.0

        won = self.won
        put(now["hand"], self.hand)
        put(now["known_opponent"], self.known_opponent)
        put(now["excluded_opponent"], self.excluded_opponent)
        put(now["unknown"], self.unknown)
        put(now["won_me"], won[me])
        put(now["won_opponent"], won[opponent])
        put_card(now["led"], int(self.array[0]["led"]))
        put_card(now["face_up"], self.face_up_card)
        put_card(now["talon_bottom"], self.talon_bottom)
        out[now["trump"] + self.trump] = 1.0
        out[now["talon_size"]] = self.talon_size / TALON_SCALE
        if self.closed_by is not None:
            out[now["closed"] + (self.closed_by != me)] = 1.0
        out[now["phase"] + TENSOR_PHASES.index(PHASE_NAMES[self.phase])] = 1.0
        out[now["my_turn"]] = self.is_my_turn
        out[now["i_lead"]] = self.leader == me
        target = self.game.rules.target
        totals, pending = self.card_points, self.pending_marriage_points
        tricks, married = self.tricks_won, self.married_suits
        for k, p in enumerate((me, opponent)):
            out[now["totals"] + k] = totals[p] / target
            out[now["pending"] + k] = pending[p] / target
            out[now["tricks_won"] + k] = tricks[p] / MAX_TRICKS
            for suit in range(NUM_SUITS):
                out[now["marriages"] + NUM_SUITS * k + suit] = married[p] >> suit & 1
        out[now["dealer"]] = self.dealer == me
        if self.is_terminal:
            winner, game_points, reason = self.outcome
            if winner is not None:
                out[now["outcome"] + (winner != me)] = 1.0
            out[now["outcome"] + 2] = game_points / GAME_POINT_SCALE
            out[now["outcome"] + 3 + TENSOR_REASONS.index(reason)] = 1.0
        put(head["initial_hand"], self.initial_hand)
        put_card(head["initial_face_up"], self.initial_face_up)
        slots = out[head["tricks"] :].reshape(MAX_TRICKS, layout.slot_size)
        for trick, block, index in self._trick_events(entry):
            slots[trick, layout.slot_offsets[block] + index] = 1.0
        return out

    def _trick_events(self, entry: np.ndarray):
        """``(trick, slot block, index)`` of every history event (see the trick slot table);
        a card block's index is the card's ``entry``."""
        for step in self.read_history():
            trick, who, action = step.tricks_before, int(step.actor != self.player), step.action
            if step.follows:
                yield trick, "followed_card", entry[step.card]
            elif step.leads:
                yield trick, "led_card", entry[step.card]
                if not who:
                    yield trick, "i_led", 0
            if step.marriage_suit >= 0:
                yield trick, "marriage", 0
            if step.drew >= 0:  # after the trick just completed (by this follow, or a draw)
                yield trick - (not step.follows), "drew", entry[step.drew]
            if action == mc.A_EXCHANGE:
                yield trick, "exchange", who
            elif step.pre_draw_close:
                yield trick - 1, "close_before_draw", who
            elif action == mc.A_CLOSE:
                yield trick, "close_before_lead", who
            elif step.answers_close:
                exchanged = action == mc.A_EXCHANGE_ON_CLOSE
                yield trick, "exchange_on_close" if exchanged else "pass_on_close", who
