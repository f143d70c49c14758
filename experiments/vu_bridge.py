"""Drive the independent VU Amsterdam Schnapsen engine (PyPI ``schnapsen``).

This module is the VU half of the differential test against the
``vu_schnapsen`` preset (docs/rules.md Appendix B) and of the matches against
VU's bots (``experiments.vu_match``).  It knows nothing about ``sixtysix``: it
deals an injected deck permutation through VU's own
``GamePlayEngine.play_game`` loop and asks a caller-supplied ``chooser`` for
every move, handing it VU's legal moves already translated to our notation,
except at the seats given to one of VU's own bots (``rivals``), whose moves
are recorded in the same history.

Mapping (docs/rules.md "Card and action notation"):

* VU ``Card`` -> rank + suit string, ranks ``J Q K T A`` (and ``9`` for the
  24-card VU variant), suits ``C D H S``.
* ``RegularMove(card)`` -> ``"play <card>"``
* ``Marriage(Q, K)`` -> ``"marry K<suit>"`` (VU always leads the king)
* ``TrumpExchange(J)`` -> ``"exchange"``

Player numbering: player 0 is VU's ``bot1`` (it gets deck positions
0, 2, 4, 6, 8 and leads the first trick); player 1 is ``bot2``.

The game is run through the unmodified VU code path
(``SchnapsenGamePlayEngine.play_game``: ``SchnapsenHandGenerator``,
``SchnapsenTrickImplementer``, ``SchnapsenMoveValidator`` (legal moves and
the legality check of the chosen move) and ``SchnapsenTrickScorer``).  The
only substitution is the deck generator's ``shuffle_deck``, which returns the
injected permutation instead of shuffling.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from schnapsen.deck import Card, OrderedCardCollection, Rank, Suit
from schnapsen.game import (
    Bot,
    Move,
    PlayerPerspective,
    SchnapsenDeckGenerator,
    SchnapsenGamePlayEngine,
)

RANK_TO_STR = {
    Rank.NINE: "9",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.TEN: "T",
    Rank.ACE: "A",
}
SUIT_TO_STR = {
    Suit.CLUBS: "C",
    Suit.DIAMONDS: "D",
    Suit.HEARTS: "H",
    Suit.SPADES: "S",
}
STR_TO_RANK = {v: k for k, v in RANK_TO_STR.items()}
STR_TO_SUIT = {v: k for k, v in SUIT_TO_STR.items()}


def card_to_str(card: Card) -> str:
    """VU ``Card`` -> our card string, e.g. ``Card.TEN_SPADES`` -> ``"TS"``."""
    return RANK_TO_STR[card.rank] + SUIT_TO_STR[card.suit]


def str_to_card(s: str) -> Card:
    """Our card string -> VU ``Card`` (accepts ``10S`` and lower case)."""
    s = s.strip().upper()
    if s.startswith("10"):
        s = "T" + s[2:]
    if len(s) != 2 or s[0] not in STR_TO_RANK or s[1] not in STR_TO_SUIT:
        raise ValueError(f"not a card: {s!r}")
    return Card.get_card(STR_TO_RANK[s[0]], STR_TO_SUIT[s[1]])


def move_to_str(move: Move) -> str:
    """VU ``Move`` -> our action string."""
    if move.is_trump_exchange():
        return "exchange"
    if move.is_marriage():
        m = move.as_marriage()
        return "marry " + card_to_str(m.king_card)
    return "play " + card_to_str(move.as_regular_move().card)


#: VU's canonical 20-card deck order (SchnapsenDeckGenerator): suits H C S D,
#: ranks J Q K T A.  ``seeded_deck`` shuffles exactly this list, so the deck
#: for a seed is the one VU itself would deal for ``play_game(..., Random(seed))``.
VU_CANONICAL_DECK: tuple[str, ...] = tuple(
    card_to_str(c) for c in SchnapsenDeckGenerator().get_initial_deck().get_cards()
)


def seeded_deck(seed: int) -> tuple[list[str], random.Random]:
    """Deck permutation for ``seed``, plus the RNG (already advanced past the
    shuffle) that the caller may keep using for move choices."""
    rng = random.Random(seed)
    deck = list(VU_CANONICAL_DECK)
    rng.shuffle(deck)
    return deck, rng


@dataclass
class VUView:
    """What VU shows at one decision point (for extra cross-checks)."""

    player: int  # 0 = bot1 (first leader), 1 = bot2
    is_leader: bool
    leader_move: str | None  # the leader's move when following, else None
    hand: list[str]  # the mover's hand, VU hand order
    opponent_hand: list[str] | None  # known only in phase two
    talon_size: int
    trump_suit: str
    trump_card: str | None
    my_score: tuple[int, int]  # (direct, pending)
    opponent_score: tuple[int, int]
    # Full engine state (read from VU's GameState, for cross-checks only):
    hands: dict = field(default_factory=dict)  # player -> hand (VU order)
    talon: list = field(default_factory=list)  # top first, trump card last
    scores: dict = field(default_factory=dict)  # player -> (direct, pending)


@dataclass
class VUResult:
    winner: int  # 0 or 1
    game_points: int
    reason: str  # "claim" (66 reached) or "last_trick"
    scores: dict = field(default_factory=dict)  # player -> (direct, pending)
    history: list[str] = field(default_factory=list)


#: chooser(view, legal_actions_sorted) -> chosen action string
Chooser = Callable[[VUView, list], str]


class _ControllerBot(Bot):
    def __init__(self, index: int, chooser: Chooser | None, history: list[str]) -> None:
        super().__init__(name=f"player{index}")
        self.index = index
        self.chooser = chooser
        self.history = history
        self.final_score: tuple[int, int] | None = None
        self.won: bool | None = None

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        moves = perspective.valid_moves()
        by_name: dict[str, Move] = {}
        for m in moves:
            name = move_to_str(m)
            if name in by_name:
                raise AssertionError(f"VU offered duplicate move {name}: {moves}")
            by_name[name] = m
        legal = sorted(by_name)
        phase_two = perspective.get_talon_size() == 0
        trump_card = perspective.get_trump_card()
        my, opp = perspective.get_my_score(), perspective.get_opponent_score()
        view = VUView(
            player=self.index,
            is_leader=perspective.am_i_leader(),
            leader_move=None if leader_move is None else move_to_str(leader_move),
            hand=[card_to_str(c) for c in perspective.get_hand().get_cards()],
            opponent_hand=(
                [card_to_str(c) for c in perspective.get_opponent_hand_in_phase_two().get_cards()]
                if phase_two
                else None
            ),
            talon_size=perspective.get_talon_size(),
            trump_suit=SUIT_TO_STR[perspective.get_trump_suit()],
            trump_card=None if trump_card is None else card_to_str(trump_card),
            my_score=(my.direct_points, my.pending_points),
            opponent_score=(opp.direct_points, opp.pending_points),
        )
        # The perspective keeps the full GameState in a name-mangled attribute;
        # read it for cross-checks (bots never see this).
        gs = perspective._PlayerPerspective__game_state  # type: ignore[attr-defined]
        for bs in (gs.leader, gs.follower):
            idx = bs.implementation.index
            view.hands[idx] = [card_to_str(c) for c in bs.hand.get_cards()]
            view.scores[idx] = (bs.score.direct_points, bs.score.pending_points)
        view.talon = [card_to_str(c) for c in gs.talon.get_cards()]
        choice = self.chooser(view, legal)
        if choice not in by_name:
            raise AssertionError(f"chooser returned {choice!r}, not among VU's legal moves {legal}")
        self.history.append(choice)
        return by_name[choice]

    def notify_game_end(self, won: bool, perspective: PlayerPerspective) -> None:
        s = perspective.get_my_score()
        self.final_score = (s.direct_points, s.pending_points)
        self.won = won


class _RecordedBot(_ControllerBot):
    """One of VU's bots, its moves appended to the game's history in our notation."""

    def __init__(self, index: int, bot: Bot, history: list[str]) -> None:
        super().__init__(index, None, history)
        self.bot = bot

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        move = self.bot.get_move(perspective, leader_move)
        self.history.append(move_to_str(move))
        return move


class InjectedDeckGenerator(SchnapsenDeckGenerator):
    """VU's deck generator, except that 'shuffling' returns a given permutation."""

    def __init__(self, permutation: Sequence[str]) -> None:
        super().__init__()
        cards = [str_to_card(s) for s in permutation]
        if sorted(cards, key=lambda c: c.name) != sorted(self.deck, key=lambda c: c.name):
            raise ValueError(f"not a permutation of VU's 20-card deck: {list(permutation)}")
        self._permutation = cards

    def shuffle_deck(
        self, deck: OrderedCardCollection, rng: random.Random
    ) -> OrderedCardCollection:  # type: ignore[override]
        return OrderedCardCollection(list(self._permutation))


def play_vu(
    deck: Sequence[str],
    chooser: Chooser,
    rivals: dict[int, Bot] | None = None,
    history: list[str] | None = None,
) -> VUResult:
    """Play one VU game on the injected ``deck`` (20 card strings, first dealt
    first), asking ``chooser`` for every move of both players except those of
    the players given a VU bot in ``rivals`` (player -> bot).  Every move is
    appended to ``history`` as it is played (a new list by default)."""
    engine = SchnapsenGamePlayEngine()
    engine.deck_generator = InjectedDeckGenerator(deck)
    history = [] if history is None else history
    rivals = rivals or {}
    bots = [
        _RecordedBot(i, rivals[i], history) if i in rivals else _ControllerBot(i, chooser, history)
        for i in range(2)
    ]
    winner_bot, points, winner_score = engine.play_game(bots[0], bots[1], random.Random(0))
    winner = bots.index(winner_bot)
    loser = 1 - winner
    reason = "claim" if winner_score.direct_points >= 66 else "last_trick"
    return VUResult(
        winner=winner,
        game_points=points,
        reason=reason,
        scores={
            winner: (winner_score.direct_points, winner_score.pending_points),
            loser: bots[loser].final_score,
        },
        history=history,
    )


def random_chooser(rng: random.Random) -> Chooser:
    def choose(view: VUView, legal: list) -> str:
        return rng.choice(legal)

    return choose


def _demo(n: int = 3, seed: int = 0) -> None:
    for s in range(seed, seed + n):
        deck, rng = seeded_deck(s)
        print(f"seed {s}: deck {' '.join(deck)}")

        def chooser(view: VUView, legal: list, rng=rng) -> str:
            a = rng.choice(legal)
            role = "lead" if view.is_leader else "foll"
            print(
                f"  p{view.player} {role} hand={' '.join(view.hand)} "
                f"talon={view.talon_size} trump={view.trump_card or view.trump_suit} "
                f"score={view.my_score}/{view.opponent_score} legal={legal} -> {a}"
            )
            return a

        r = play_vu(deck, chooser)
        print(f"  => winner p{r.winner}, {r.game_points} GP ({r.reason}), scores {r.scores}")


if __name__ == "__main__":
    _demo()
