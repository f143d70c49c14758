"""Match play: deals to ``match_target`` game points, dealer by ``next_dealer``."""

from __future__ import annotations

from .engine.checks import check_integer, check_player, check_seed
from .facts import PHASE_NAMES
from .game import Game, State
from .table_game import TableGame, TableState

_GOLDEN = 0x9E3779B97F4A7C15  # spreads match seeds apart in the 64-bit seed space


class Match:
    """A match of deals between players 0 and 1, seeded for replay. A game for 2-4 seats
    (``TableGame``) makes a ``TableMatch``."""

    def __new__(cls, game, seed: int):
        if isinstance(game, TableGame):
            return TableMatch(game, seed)
        return super().__new__(cls)

    def __init__(self, game: Game, seed: int) -> None:
        if game.rules.match_target is None:
            raise ValueError(f"{game!r} plays single deals (match_target=None); no match")
        self.game = game
        self.seed = check_seed(seed)
        self.dealer = game.new_deal(seed=self.deal_seed(0)).dealer  # the first dealer
        self.scores = [0, 0]
        self.deals: list[State] = []
        self._draw_bonus = 0

    @property
    def is_over(self) -> bool:
        return max(self.scores) >= self.game.rules.match_target

    @property
    def winner(self) -> int | None:
        """The player who reached the target, ``None`` while the match goes on."""
        if not self.is_over:
            return None
        return 0 if self.scores[0] >= self.game.rules.match_target else 1

    @property
    def match_points(self) -> int:
        """What the finished match counts: 2 for a shut-out under ``match_shutout_double``."""
        if not self.is_over:
            return 0
        shutout = min(self.scores) == 0
        return 2 if shutout and self.game.rules.match_shutout_double else 1

    def new_deal(self) -> State:
        """The next deal, dealt by the current dealer, its cards from the match seed."""
        if self.is_over:
            raise ValueError(
                f"the match is over: scores {self.scores[0]}-{self.scores[1]} reached "
                f"match_target {self.game.rules.match_target}"
            )
        return self.game.new_deal(seed=self.next_deal_seed, dealer=self.dealer)

    @property
    def next_deal_seed(self) -> int:
        """The seed of the deal that ``new_deal`` deals next."""
        return self.deal_seed(len(self.deals) + 1)

    def deal_seed(self, number: int) -> int:
        """The seed of deal ``number`` (1 is the first deal; 0 only chooses the first dealer)."""
        return (self.seed * _GOLDEN + number) % 2**64

    def record(self, state: State) -> None:
        """Score a finished deal of this game by the current dealer; choose the next dealer."""
        self._check_deal(state, "record")
        if not state.is_terminal:
            raise ValueError(
                f"record() needs a finished deal; this one is at P{state.current_player}'s "
                f"{PHASE_NAMES[state.phase]}"
            )
        self.deals.append(state)
        winner, points, reason = state.outcome
        if winner is None:
            rules = self.game.rules
            if rules.draw_bonus_next_deal and reason == "draw":
                self._draw_bonus += rules.draw_bonus_next_deal
            if rules.next_dealer == "alternate":
                self.dealer = 1 - self.dealer
            return
        self._score(winner, points)

    def forfeit(self, state: State, loser: int) -> None:
        """Score a deal as lost by ``loser`` (an agent failed in it): the opponent scores the
        game's most game points, as for winning the deal."""
        self._check_deal(state, "forfeit")
        loser = check_player(loser, "loser")
        self.deals.append(state)
        self._score(1 - loser, self.game.rules.max_game_points)

    def _check_deal(self, state: State, method: str) -> None:
        """Refuse a deal of another game, one recorded already or one by the wrong dealer."""
        if state.game.rules != self.game.rules:
            raise ValueError(f"{method}() got a deal of {state.game!r}, not of {self.game!r}")
        if any(state is recorded for recorded in self.deals):
            number = next(i for i, recorded in enumerate(self.deals, 1) if recorded is state)
            raise ValueError(f"{method}() got deal {number} of this match again")
        if state.dealer != self.dealer:
            raise ValueError(f"{method}() got a deal by dealer {state.dealer}, not {self.dealer}")

    def _score(self, winner: int, points: int) -> None:
        """Credit a deal's winner (with any draw bonus) and choose the next dealer."""
        self.scores[winner] += points + self._draw_bonus
        self._draw_bonus = 0
        rules = self.game.rules
        self.dealer = winner if rules.next_dealer == "winner_of_deal" else 1 - self.dealer


class TableMatch:
    """A match of a game for 2-4 seats to ``match_target`` (RULES_MULTI 1.14, MP-A12,
    N11): one score per team under ``match_scoring = team`` (seats 0 and 2 are team 0,
    seats 1 and 3 team 1), else one per seat; the deal passes to the next seat; a tie at
    the top plays on; if both teams of a contract game pass the target in one deal, the
    declarer's wins."""

    def __init__(self, game: TableGame, seed: int) -> None:
        self.game = game
        self.seed = check_seed(seed)
        self.dealer = game.new_deal(seed=self.deal_seed(0)).dealer  # the first dealer
        self.teams = game.rules.match_scoring == "team"
        self.scores = [0] * (2 if self.teams else game.num_players)
        self.deals: list[TableState] = []
        self._winner: int | None = None

    def owner(self, seat: int) -> int:
        """The score a seat's points go to: its team's, or its own."""
        return seat % 2 if self.teams else seat

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def winner(self) -> int | None:
        """The team (or seat) that won the match, ``None`` while it goes on."""
        return self._winner

    def deal_seed(self, number: int) -> int:
        """The seed of deal ``number`` (1 is the first deal; 0 only chooses the first dealer)."""
        return (self.seed * _GOLDEN + number) % 2**64

    @property
    def next_deal_seed(self) -> int:
        return self.deal_seed(len(self.deals) + 1)

    def new_deal(self) -> TableState:
        """The next deal, dealt by the current dealer, its cards from the match seed."""
        if self.is_over:
            raise ValueError(f"the match is over: scores {self.scores}, winner {self.winner}")
        return self.game.new_deal(seed=self.next_deal_seed, dealer=self.dealer)

    def record(self, state: TableState) -> None:
        """Score a finished deal of this match by the current dealer; pass the deal on."""
        self._check_deal(state, "record")
        if not state.is_terminal:
            raise ValueError(f"record() needs a finished deal; this one is at {state.phase}")
        self._credit(state, state.scores)

    def forfeit(self, state: TableState, loser: int) -> None:
        """Score a deal as lost by ``loser`` (an agent failed in it): ``forfeit_scores``."""
        self._check_deal(state, "forfeit")
        self._credit(
            state, forfeit_scores(state, check_integer(loser, "loser", 0, state.num_players))
        )

    def _check_deal(self, state: TableState, method: str) -> None:
        """Refuse a deal of another game, one recorded already or one by the wrong dealer."""
        if state.game.rules != self.game.rules:
            raise ValueError(f"{method}() got a deal of {state.game!r}, not of {self.game!r}")
        if any(state is recorded for recorded in self.deals):
            raise ValueError(f"{method}() got a deal of this match again")
        if state.dealer != self.dealer:
            raise ValueError(f"{method}() got a deal by dealer {state.dealer}, not {self.dealer}")

    def _credit(self, state: TableState, scores: tuple[int, ...]) -> None:
        """Add a deal's scores (once per team), pass the deal on, see whether it is decided."""
        self.deals.append(state)
        credited = set()
        for seat, points in enumerate(scores):
            if self.owner(seat) not in credited:
                credited.add(self.owner(seat))
                self.scores[self.owner(seat)] += points
        self.dealer = (self.dealer + 1) % self.game.num_players
        self._winner = self._decided(state)

    def _decided(self, state: TableState) -> int | None:
        target = self.game.rules.match_target
        reached = [k for k, score in enumerate(self.scores) if score >= target]
        if not reached:
            return None
        declarer = int(state.array[0]["declarer"])
        if len(reached) > 1 and self.game.rules.sides == "contract" and declarer >= 0:
            return self.owner(declarer)
        top = max(self.scores)
        leaders = [k for k, score in enumerate(self.scores) if score == top]
        return leaders[0] if len(leaders) == 1 else None


def forfeit_scores(state: TableState, loser: int) -> tuple[int, ...]:
    """The scores of a deal that seat ``loser`` forfeits (its agent failed): every seat not
    on its side (its true side now; in a three-sided deal, every other seat) scores the
    rules' most game points, its side scores 0."""
    points = state.game.rules.max_game_points
    side = state.sides[loser]
    return tuple(0 if seat in side else points for seat in range(state.num_players))
