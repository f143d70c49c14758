"""Sixty-Six as an OpenSpiel game: ``import sixtysix.openspiel`` registers ``python_sixty_six``.

    game = pyspiel.load_game("python_sixty_six(preset=schnapsen,claim_mode=manual)")

The state delegates every rule to the engine (``sixtysix.game.State``); this
module only adds the explicit deal, the observers and the world resampler.
What follows is for the two-player presets; the multi-player ones come last.

Parameters: ``preset`` (any name of ``PRESETS`` or ``MINI_PRESETS``), ``dealer``
(0 or 1, default 1, so player 0 leads first) and every deal-level rule option
of ``OPTION_NAMES`` (the match options are left out: a game is one deal). An
option left at its empty value keeps the preset's value: ``-1`` for numbers,
``""`` for strings, and for on/off options ``-1``, with ``0`` and ``1`` for off
and on (OpenSpiel parameters have no "unset", so on/off options are numbers).

Actions: player actions are the engine's ids (``multi_core`` docstring, 0-116,
``NUM_ACTIONS``; the same for every preset) and their strings the engine's canonical
strings (``"play QH"``, ``"close"``...). Chance actions are card indices over the
32-card pack (``suit * 8 + rank``, ``cards``), one chance node per dealt card, shown
as ``"deal QH"``.

The deal (``_Deal``): chance deals the non-dealer's hand, then the dealer's hand,
then the face-up trump card, then the talon from its top. Each hand is dealt in
ascending card order, with the exact probabilities of the smallest card not
yet dealt (a uniformly random hand, dealt in order), so a hand is one chance
history rather than ``hand_size!`` of them. The engine's ``deal_pattern``
only maps positions, so it does not change what is dealt where.

Returns are the deal's game points: the winner's, and minus them for the
loser (zero for a deal nobody wins).

Observers: the information state (perfect recall) is the engine's
``PlayerView``: its ``key()`` as the string and its ``tensor()`` as the tensor,
plus a ``deal_progress`` number. The observation (no recall) is the view's
"now" block and a readable summary of the same facts. During the deal a
player knows the cards dealt to him so far and the face-up card once it is
turned.

Three and four players: every multi-player preset (``TABLE_PRESET_NAMES``:
``snapszer3``, ``snapszer4``, the called-card games, ``na66`` and their minis) is
a preset of the same game, played by ``sixtysix.table_game`` (RULES_MULTI), with
``num_players`` from the preset and the multi-player rule options
(``TABLE_DEAL_OPTIONS``) as parameters; ``dealer`` is a seat (default 1, so seat
2 leads first with four seats). Actions and chance actions are numbered as for two
players, each hand dealt in ascending order seat by seat from the dealer's left,
then the face-up card, then the talon (``_Deal``). Returns are the research payoff
of RULES_MULTI 1.13.6 (``table_returns``): +g for each winner and -g for each loser
of a two-sided deal, the game points of each seat in a normal ``snapszer3`` deal. The game
type is zero-sum when the sides are always of equal size and general-sum
otherwise (``table_game_type``). Observers wrap ``TableView``
(``TableObserver``); worlds for ISMCTS come from ``TableWorldSampler``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyspiel

from .engine import multi_core as mc
from .engine.actions import NUM_ACTIONS, action_name
from .engine.cards import (
    NUM_CARDS,
    RANKS_PER_SUIT,
    SUITS,
    card_name,
    mask_text,
    mask_to_cards,
    mask_to_names,
    parse_card,
    suit_of,
)
from .engine.checks import check_integer, check_player
from .engine.multi_rules import OPTION_NAMES as TABLE_OPTION_NAMES
from .engine.multi_rules import TWO_PLAYER_OPTIONS, TableRules
from .engine.rules import OPTION_NAMES, RuleSet, rules_text
from .facts import PHASE_NAMES
from .game import Game
from .game import State as EngineState
from .table_game import TABLE_PRESET_NAMES, TableGame, TableState
from .table_worlds import sample_worlds
from .view import TensorLayout, tensor_layout

GAME_NAME = "python_sixty_six"
CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
MATCH_OPTIONS = ("next_dealer", "draw_bonus_next_deal", "match_target", "match_shutout_double")
DEAL_OPTIONS = tuple(name for name in OPTION_NAMES if name not in MATCH_OPTIONS)
#: The multi-player rule options that are parameters: all but the match's.
TABLE_MATCH_OPTIONS = ("match_target", "match_scoring", "next_dealer")
#: The options of the multi-player presets (the two-player ones that their engine also
#: knows, ``TWO_PLAYER_OPTIONS``, belong to the two-player presets here).
TABLE_DEAL_OPTIONS = tuple(
    name
    for name in TABLE_OPTION_NAMES
    if name not in TABLE_MATCH_OPTIONS and name not in TWO_PLAYER_OPTIONS
)
MAX_REMEMBERED_STRINGS = 1 << 18  # per observer; forgotten all at once when full
_UNSET = {bool: -1, int: -1, str: ""}
_DEFAULT_RULES = RuleSet()
_DEFAULT_TABLE_RULES = TableRules()


def _option_type(name: str) -> type:
    if name in DEAL_OPTIONS:
        return type(getattr(_DEFAULT_RULES, name))
    return type(getattr(_DEFAULT_TABLE_RULES, name))


PARAMETERS = {
    "preset": "sixty_six",
    "dealer": 1,
    **{name: _UNSET[_option_type(name)] for name in DEAL_OPTIONS},
    # The options only the multi-player presets have (shared names are listed above).
    **{name: _UNSET[_option_type(name)] for name in TABLE_DEAL_OPTIONS if name not in DEAL_OPTIONS},
}


def _game_type(players: tuple[int, int], utility) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Sixty-Six and Schnapsen (sixtysix engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


_ZERO_SUM = pyspiel.GameType.Utility.ZERO_SUM
_GENERAL_SUM = pyspiel.GameType.Utility.GENERAL_SUM
#: The type registered for ``python_sixty_six`` (2 to 4 players; the utility of the default
#: preset). Each game's own ``get_type()`` is that of its preset (``table_game_type``).
GAME_TYPE = _game_type((2, 4), _ZERO_SUM)
#: The type of every two-player preset of ``PRESETS`` and ``MINI_PRESETS``.
TWO_PLAYER_GAME_TYPE = _game_type((2, 2), _ZERO_SUM)


def _set_options(params: dict, names: tuple[str, ...]) -> list[str]:
    return [name for name in names if params.get(name, PARAMETERS[name]) != PARAMETERS[name]]


def _checked_option(name: str, value):
    if _option_type(name) is bool:
        if value not in (0, 1):
            raise ValueError(
                f"invalid value {value!r} for rule option {name!r}: use 0 (off) or 1 (on), "
                "or leave it out for the preset's value"
            )
        return bool(value)
    return value


def rule_overrides(params: dict) -> dict:
    """The rule options set in OpenSpiel ``params`` (unset ones keep the preset's value)."""
    return {
        name: _checked_option(name, params[name]) for name in _set_options(params, DEAL_OPTIONS)
    }


def table_rule_overrides(params: dict) -> dict:
    """The multi-player rule options set in ``params``; a two-player-only option is refused."""
    foreign = [
        name for name in _set_options(params, DEAL_OPTIONS) if name not in TABLE_DEAL_OPTIONS
    ]
    if foreign:
        raise ValueError(
            f"rule option {foreign[0]!r} is not an option of the multi-player preset "
            f"{params['preset']!r}; its options are {', '.join(TABLE_DEAL_OPTIONS)}"
        )
    return {
        name: _checked_option(name, params[name])
        for name in _set_options(params, TABLE_DEAL_OPTIONS)
    }


class _Deal:
    """What every state of one game shares (immutable): the engine game, the dealer, the
    deal order and, for the multi-player presets, the world sampler (``worlds``; None for
    two players, whose worlds come from ``PlayerView.sample_worlds``).

    Chance deals the hands seat by seat from the first leader (the dealer's left: the
    non-dealer of two players), each hand in ascending card order with the exact
    probabilities of its smallest card not yet dealt (one chance history per hand); then
    the face-up card, if the deal pattern turns one, then the talon from its top. A seat's
    first ``first_batch`` cards (0: none apart), all it holds at the call of the
    called-card games under ``call_timing = first_batch`` (M2), are dealt as a hand of
    their own.
    """

    def __init__(
        self,
        engine_game: Game | TableGame,
        dealer: int,
        num_players: int,
        max_length: int,
        first_batch: int = 0,
        worlds: TableWorldSampler | None = None,
    ) -> None:
        rules = engine_game.rule_array[0]
        size = int(rules["deck_size"])
        offsets = [int(offset) for offset in rules["deal_seat"][:size]]
        face_up = int(rules["face_up_position"])
        first = (dealer + 1) % num_players
        groups: list[tuple[int | None, list[int]]] = []
        for offset in range(num_players):
            seat = (first + offset) % num_players
            positions = [p for p in range(size) if offsets[p] == offset]
            if 0 < first_batch < len(positions):
                groups += [(seat, positions[:first_batch]), (seat, positions[first_batch:])]
            else:
                groups.append((seat, positions))
        if face_up >= 0:
            groups.append((None, [face_up]))
        groups += [(None, [p]) for p in range(size) if offsets[p] < 0 and p != face_up]
        #: ``(seat or None, deck positions)`` per group, in chance order.
        self.groups = tuple((seat, tuple(positions)) for seat, positions in groups)
        #: Deck positions in chance order.
        self.positions = tuple(p for _, positions in self.groups for p in positions)
        #: Per chance step: whose hand it deals to (None: face-up or talon), the size of its
        #: group and the step's place in the group.
        self.steps = tuple(
            (seat, len(positions), index)
            for seat, positions in self.groups
            for index in range(len(positions))
        )
        self.face_up_step = self.positions.index(face_up) if face_up >= 0 else None
        self.engine_game = engine_game
        self.dealer = dealer
        self.num_players = num_players
        self.max_length = max_length
        self.deck_mask = int(rules["deck_mask"])
        self.worlds = worlds

    def chance_outcomes(self, dealt: tuple[int, ...]) -> list[tuple[int, float]]:
        """``(card, probability)`` of the next chance step after ``dealt``."""
        remaining = self.deck_mask
        for card in dealt:
            remaining &= ~(1 << card)
        _, size, index = self.steps[len(dealt)]
        cards = mask_to_cards(remaining)
        if size == 1:
            return [(card, 1.0 / len(cards)) for card in cards]
        lowest = dealt[-1] if index else -1
        candidates = [card for card in cards if card > lowest]
        still = size - index  # this card included
        hands = math.comb(len(candidates), still)
        outcomes = []
        for rank, card in enumerate(candidates):
            higher = len(candidates) - rank - 1
            ways = math.comb(higher, still - 1)  # hands whose smallest undealt card is ``card``
            if ways:
                outcomes.append((card, ways / hands))
        return outcomes

    def engine_state(self, dealt: tuple[int, ...]) -> EngineState | TableState:
        """The engine's state of a complete deal."""
        deck = [0] * len(dealt)
        for position, card in zip(self.positions, dealt, strict=True):
            deck[position] = card
        return self.engine_game.new_deal(deck=deck, dealer=self.dealer)

    def chance_order(self, engine: EngineState | TableState) -> list[int]:
        """The chance actions that deal ``engine``'s deck (each hand in ascending order)."""
        order: list[int] = []
        for _, positions in self.groups:
            order += sorted(int(engine.deck[p]) for p in positions)
        return order


class SixtySixGame(pyspiel.Game):
    """``python_sixty_six``: one deal of a sixtysix rule set (two players, or a
    multi-player preset of ``TABLE_PRESET_NAMES`` for 2 to 4 seats)."""

    def __init__(self, params: dict | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        # Only the parameters that differ from the defaults: a short, loadable game string.
        given = {k: v for k, v in params.items() if k == "preset" or v != PARAMETERS[k]}
        if params["preset"] in TABLE_PRESET_NAMES:
            self._init_table(params, given)
            return
        table_only = [
            name for name in _set_options(params, TABLE_DEAL_OPTIONS) if name not in DEAL_OPTIONS
        ]
        if table_only:
            raise ValueError(
                f"rule option {table_only[0]!r} is an option of the multi-player presets "
                f"({', '.join(TABLE_PRESET_NAMES)}), not of {params['preset']!r}"
            )
        dealer = check_player(params["dealer"], "dealer")
        engine_game = Game(params["preset"], **rule_overrides(params))
        tricks = int(engine_game.rule_array[0]["deck_size"]) // 2
        most = float(engine_game.rules.max_game_points)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=2,
            min_utility=-most,
            max_utility=most,
            utility_sum=0.0,
            # Per trick a lead, a follow and a draw or close; once per deal an exchange, a
            # close, an exchange on close and a claim, plus the final claim or pass.
            max_game_length=3 * tricks + 5,
        )
        super().__init__(TWO_PLAYER_GAME_TYPE, info, given)
        self.deal = _Deal(engine_game, dealer, 2, info.max_game_length)
        self.is_table = False

    def _init_table(self, params: dict, given: dict) -> None:
        table_game = TableGame(params["preset"], **table_rule_overrides(params))
        rules = table_game.rules
        n = table_game.num_players
        dealer = check_integer(params["dealer"], "dealer", 0, n)
        most = float(table_max_game_points(rules))
        zero_sum = table_game_type(rules).utility == _ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=n,
            min_utility=-most,
            max_utility=most,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=table_max_game_length(rules),
        )
        super().__init__(table_game_type(rules), info, given)
        split = rules.sides == "called_card" and rules.call_timing == "first_batch"
        batch = int(table_game.rule_array[0]["call_batch"]) if split else 0
        worlds = TableWorldSampler(table_game, dealer)
        self.deal = _Deal(table_game, dealer, n, info.max_game_length, batch, worlds)
        self.is_table = True

    @property
    def engine_game(self) -> Game | TableGame:
        return self.deal.engine_game

    def new_initial_state(self) -> SixtySixState:
        return SixtySixState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The information-state observer (perfect recall) or the observation observer."""
        if params:
            raise ValueError(f"observer parameters are not supported; got {params!r}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not obs_type.public_info or (
            obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "python_sixty_six observes for one player with public information "
                f"(private_info=SINGLE_PLAYER, public_info=True); got {obs_type}"
            )
        if self.is_table:
            return TableObserver(obs_type.perfect_recall, self.deal)
        return SixtySixObserver(obs_type.perfect_recall, tensor_layout(self.engine_game))


class _Play:
    """One deal in progress: the cards dealt so far, then the engine's state.

    All of a ``SixtySixState``'s own data, in one object so that OpenSpiel's clone (a
    ``copy.deepcopy`` of each attribute) costs one engine clone. The returns and the text
    are those of two players; ``_TablePlay`` has the multi-player ones.
    """

    def __init__(self, deal: _Deal) -> None:
        self.deal = deal
        self.dealt: tuple[int, ...] = ()
        self.engine: EngineState | TableState | None = None
        self.mover = CHANCE  # asked for often by OpenSpiel's algorithms, so kept

    def __deepcopy__(self, memo) -> _Play:
        copy = object.__new__(type(self))
        copy.deal, copy.dealt, copy.mover = self.deal, self.dealt, self.mover
        copy.engine = None if self.engine is None else self.engine.clone()
        return copy

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.deal.chance_outcomes(self.dealt)

    def apply(self, action: int) -> None:
        if self.engine is None:
            if action not in dict(self.chance_outcomes()):
                raise ValueError(f"invalid chance outcome {action!r} after dealing {self.dealt}")
            self.dealt += (int(action),)
            if len(self.dealt) < len(self.deal.positions):
                return
            self.engine = self.deal.engine_state(self.dealt)
        else:
            self.engine.apply(int(action))
        mover = self.engine.current_player
        self.mover = TERMINAL if mover is None else mover

    def dealt_to(self, player: int) -> int:
        """Mask of the cards dealt to ``player`` so far."""
        mask = 0
        for (seat, _, _), card in zip(self.deal.steps, self.dealt, strict=False):
            if seat == player:
                mask |= 1 << card
        return mask

    def face_up(self) -> int | None:
        """The face-up card, once chance has turned it."""
        step = self.deal.face_up_step
        return None if step is None or len(self.dealt) <= step else self.dealt[step]

    def returns(self) -> list[float]:
        """The deal's game points: the winner's, and minus them for the loser."""
        if self.mover != TERMINAL:
            return [0.0, 0.0]
        winner, game_points, _ = self.engine.outcome
        if winner is None:
            return [0.0, 0.0]
        return [float(game_points), -float(game_points)][:: 1 if winner == 0 else -1]

    def __str__(self) -> str:
        engine = self.engine
        if engine is None:
            return "dealing: " + " ".join(card_name(card) for card in self.dealt)
        moves = ", ".join(f"P{player} {action}" for player, action in engine.history)
        return f"{engine!r} led={engine.led_card} closed_by={engine.closed_by} history=[{moves}]"


class SixtySixState(pyspiel.State):
    """A ``python_sixty_six`` state; the engine's state once the deal is complete."""

    def __init__(self, game: SixtySixGame) -> None:
        super().__init__(game)
        self._play = (_TablePlay if game.is_table else _Play)(game.deal)

    # ---- the OpenSpiel API --------------------------------------------------------------
    def current_player(self) -> int:
        return self._play.mover

    def _legal_actions(self, player: int) -> list[int]:
        return self._play.engine.legal_action_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._play.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._play.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"deal {card_name(action)}"
        return action_name(action)

    def is_terminal(self) -> bool:
        return self._play.mover == TERMINAL

    def returns(self) -> list[float]:
        return self._play.returns()

    def __str__(self) -> str:
        return str(self._play)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> SixtySixState:
        """A state ``player_id`` cannot tell from this one, drawn uniformly (``worlds``).

        The sampler's first draw seeds the world sampler.
        """
        seed = int(probability_sampler() * 2**53)
        return self.resample(player_id, seed)

    # ---- sixtysix additions ---------------------------------------------------------------
    @property
    def engine(self) -> EngineState | TableState | None:
        """The engine's state once the deal is complete (the full truth: not for agents)."""
        return self._play.engine

    def resample(self, player: int, rng) -> SixtySixState:
        """A uniformly drawn state ``player`` cannot tell from this one; ``rng`` a seed or a
        numpy Generator. Only after the deal (no agent decides during it). A multi-player
        deal's world comes from ``TableWorldSampler`` (close to uniform, see there)."""
        play = self._play
        if play.engine is None:
            raise ValueError("resampling needs a complete deal; this state is still dealing")
        if play.deal.worlds is not None:
            world = play.deal.worlds.sample(play.engine, player, rng)
        else:
            world = play.engine.view(player).sample_worlds(1, rng)[0]
        state = self.get_game().new_initial_state()
        for card in play.deal.chance_order(world):
            state.apply_action(card)
        for action in self.history()[len(play.dealt) :]:
            state.apply_action(action)
        return state


@dataclass(frozen=True)
class TreeSize:
    """The size of a game tree: histories (every node), terminal histories, deals (chance
    histories that complete the deal) and information sets per player."""

    histories: int
    terminals: int
    deals: int
    information_sets: tuple[int, ...]


def tree_size(game: SixtySixGame) -> TreeSize:
    """Walk the whole tree of ``game`` (only sensible for the two-player ``mini_*`` presets)."""
    histories = terminals = deals = 0
    information_sets = tuple(set() for _ in range(game.num_players()))
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if state.is_terminal():
            terminals += 1
            continue
        if not state.is_chance_node():
            player = state.current_player()
            information_sets[player].add(state.information_state_string(player))
            deals += len(state.history()) == len(state._play.dealt)
        stack.extend(state.child(action) for action in state.legal_actions())
    return TreeSize(histories, terminals, deals, tuple(len(s) for s in information_sets))


def make_resampler(seed: int):
    """A resampler for OpenSpiel's ISMCTS bot (``bot.set_resampler``), seeded for repeatability."""
    rng = np.random.default_rng(seed)
    return lambda state, player: state.resample(player, rng)


class SixtySixObserver:
    """OpenSpiel's Python observer interface over the engine's ``PlayerView``: its tensor's
    blocks are those of the game's pack (``view.tensor_layout``)."""

    def __init__(self, perfect_recall: bool, layout: TensorLayout) -> None:
        self.perfect_recall = perfect_recall
        blocks = layout.now_blocks + (layout.history_blocks if perfect_recall else ())
        blocks += (("deal_progress", 1),)
        self.tensor = np.zeros(sum(size for _, size in blocks), np.float32)
        self.dict = {}
        start = 0
        for name, size in blocks:
            self.dict[name] = self.tensor[start : start + size]
            start += size
        self._view_size = start - 1
        self._entry = layout.entry  # a card's entry in a card block
        self._strings: dict[tuple, str] = {}

    def set_from(self, state: SixtySixState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.engine is not None:
            self.tensor[: self._view_size] = state.engine.view(player).tensor()[: self._view_size]
            self.dict["deal_progress"][0] = 1.0
            return
        play = state._play
        hand = play.dealt_to(player)
        face_up = play.face_up()
        blocks = ("hand", "initial_hand") if self.perfect_recall else ("hand",)
        for block in blocks:
            for card in mask_to_cards(hand):
                self.dict[block][self._entry[card]] = 1.0
        if face_up is not None:
            self.dict["face_up"][self._entry[face_up]] = 1.0
            self.dict["trump"][suit_of(face_up)] = 1.0
            if self.perfect_recall:
                self.dict["initial_face_up"][self._entry[face_up]] = 1.0
        self.dict["dealer"][0] = play.deal.dealer == player
        self.dict["deal_progress"][0] = len(play.dealt) / len(play.deal.positions)

    def string_from(self, state: SixtySixState, player: int) -> str:
        # A pure function of the player and the history, so kept for tree-walking algorithms
        # (CFR, best response) that meet the same history again and again.
        memo_key = (player, tuple(state.history()))
        text = self._strings.get(memo_key)
        if text is None:
            if len(self._strings) >= MAX_REMEMBERED_STRINGS:
                self._strings.clear()
            text = self._string(state, player)
            self._strings[memo_key] = text
        return text

    def _string(self, state: SixtySixState, player: int) -> str:
        if state.engine is None:
            return _dealing_text(state._play, player)
        view = state.engine.view(player)
        return view.key() if self.perfect_recall else _observation_text(view)


def _cards(mask: int) -> str:
    return mask_text(mask, empty="-")


def _dealing_text(play: _Play, player: int) -> str:
    deal = play.deal
    face_up = play.face_up()
    return "\n".join(
        [
            f"rules {rules_text(deal.engine_game.rules)}",
            f"player {player} dealer {deal.dealer}",
            f"dealing {len(play.dealt)}/{len(deal.positions)}: "
            f"my cards {_cards(play.dealt_to(player))} "
            f"face-up {'-' if face_up is None else card_name(face_up)}",
        ]
    )


def _observation_text(view) -> str:
    """What ``view``'s player sees now (the facts of the tensor's now block)."""
    me, opponent = view.player, view.opponent
    closed = "open" if view.closed_by is None else f"closed by P{view.closed_by}"
    face_up = "-" if view.face_up_card is None else card_name(view.face_up_card)
    status = (
        "over: {} wins {} game points ({})".format(
            "nobody" if view.outcome[0] is None else f"P{view.outcome[0]}", *view.outcome[1:]
        )
        if view.is_terminal
        else f"P{view.to_move} to {PHASE_NAMES[view.phase]}"
    )
    return "\n".join(
        [
            f"player {me} dealer {view.dealer} trump {view.trump_suit}",
            f"hand {_cards(view.hand)}",
            f"talon {view.talon_size} {closed}, face-up {face_up}, "
            f"bottom {'-' if view.talon_bottom is None else card_name(view.talon_bottom)}",
            f"led {view.led_card or '-'}, P{view.leader} leads",
            f"points {view.card_points[me]}/{view.card_points[opponent]} pending "
            f"{view.pending_marriage_points[me]}/{view.pending_marriage_points[opponent]} "
            f"tricks {view.tricks_won[me]}/{view.tricks_won[opponent]} "
            f"marriages {''.join(view.declared_marriages[me]) or '-'}/"
            f"{''.join(view.declared_marriages[opponent]) or '-'}",
            f"won {_cards(view.won[me])} / {_cards(view.won[opponent])}",
            f"opponent holds {_cards(view.known_opponent)}, "
            f"cannot hold {_cards(view.excluded_opponent)}; unknown {_cards(view.unknown)}",
            status,
        ]
    )


# ==== three and four players ===============================================================
# The multi-player presets (``TABLE_PRESET_NAMES``: RULES_MULTI, ``sixtysix.table_game``).


def table_game_type(rules: TableRules) -> pyspiel.GameType:
    """The OpenSpiel type of a multi-player rule set. Zero-sum when every deal is two sides
    of equal size (two seats; four with fixed partners or the contract teams), so that +g
    for each winner and -g for each loser sums to zero; general-sum otherwise: three seats
    (a normal ``snapszer3`` deal is three-sided, and one against two gives +g, -g, -g) and
    the called-card game for four, whose caller may play alone (one against three)."""
    n = rules.num_players
    equal_sides = n == 2 or (n == 4 and rules.sides in ("fixed_opposite", "contract"))
    return _game_type((n, n), _ZERO_SUM if equal_sides else _GENERAL_SUM)


def table_max_game_points(rules: TableRules) -> int:
    """The most game points one seat can score in a deal (1.13): the scale's 3 (a failed
    close and a false claim score 3 at most too), twice that for ``loser_basis =
    per_opponent``, the durchmars and betli values when announced, and in the contract
    games the highest level."""
    if rules.sides == "contract":
        return rules.bid_levels
    most = 6 if rules.loser_basis == "per_opponent" else 3
    if rules.announcements != "none":
        most = max(most, rules.durchmars_points)
    if rules.betli_possible:
        most = max(most, rules.betli_points)
    return most


def table_max_game_length(rules: TableRules) -> int:
    """A bound on the player actions of a deal: each card played once, plus the actions
    that are not plays, each possible a bounded number of times."""
    n = rules.num_players
    length = rules.deck  # every card is played at most once
    if rules.trump_source == "turn_up":
        length += 1  # the exchange: afterwards the face-up card is the exchange card itself
    if rules.closing_allowed:
        length += 1
    if rules.claim_mode in ("manual", "optional_verified"):
        length += 2  # a claim (it ends the deal) and the last trick's claim or pass
    if rules.sides == "called_card":
        length += 1  # the call
    if rules.announcements != "none":
        length += n  # one announcement turn per seat at most
    if rules.sides == "contract":
        length += rules.bid_levels + n  # bids only rise, and a pass is final
    if rules.marriage_declarers == "leader_and_partner":
        length += rules.deck // n  # one meld turn per trick at most
    return length


def table_returns(state: TableState) -> list[float]:
    """The research payoff of RULES_MULTI 1.13.6 for a finished deal (zeros before).

    A two-sided deal (every multi-player deal but a normal ``snapszer3`` one) is won by one
    side: each winning seat gets ``+g`` and each losing seat ``-g``, ``g`` being the game
    points each winner scores; in the contract games (``na66``) ``g`` is the declarer's
    level, so the declarer's team gets its signed level and the defenders the negative
    (defenders' units under ``defender_units`` are match scoring, not part of the payoff).
    A deal nobody wins (``redeal``) pays zeros.

    With ``sides = none`` (``snapszer3``, ``mini3_3x3``) a deal is two-sided only when it
    became one seat against the others (a close, an announcement) and was settled between
    them; otherwise, a normal deal (or a false claim after a close, M15), it is multi-sided
    and the returns are the game points each seat scores (general-sum; subtract the mean
    for a constant-sum form).
    """
    n = state.num_players
    if not state.is_terminal:
        return [0.0] * n
    record = state.array[0]
    winners = int(record["winners"])
    scores = state.scores
    if winners == 0:
        return [0.0] * n
    rules = state.game.rules
    if rules.sides == "none" and n > 2:
        lone = int(record["closed_by"])
        if lone < 0 and int(record["announced"]):
            lone = int(record["announcer"])
        everyone = (1 << n) - 1
        if lone < 0 or winners not in (1 << lone, everyone & ~(1 << lone)):
            return [float(points) for points in scores]
    if rules.sides == "contract":
        points = abs(scores[int(record["declarer"])])
    else:
        points = scores[(winners & -winners).bit_length() - 1]
    return [float(points) if winners >> seat & 1 else -float(points) for seat in range(n)]


class _TablePlay(_Play):
    """One multi-player deal in progress (``_Play`` with the multi-player returns and text;
    the dealing and the moves are the same)."""

    def returns(self) -> list[float]:
        if self.engine is None:
            return [0.0] * self.deal.num_players
        return table_returns(self.engine)

    def __str__(self) -> str:
        engine = self.engine
        if engine is None:
            return "dealing: " + " ".join(card_name(card) for card in self.dealt)
        moves = ", ".join(f"P{seat} {action}" for seat, action in engine.history)
        return (
            f"{engine!r} dealer={engine.dealer} trick={engine.trick} "
            f"called={engine.called_card} closed_by={engine.closed_by} history=[{moves}]"
        )


# ---- the observers ------------------------------------------------------------------------
_SEATS = 4  # the view's tensor always has room for four seats
#: The blocks of ``TableView.tensor()`` in order (its docstring), with their shapes.
TABLE_VIEW_BLOCKS = (
    ("seat", (_SEATS,)),
    ("hand", (NUM_CARDS,)),
    ("won", (_SEATS, NUM_CARDS)),
    ("trick", (_SEATS, NUM_CARDS)),
    ("trump", (len(SUITS) + 1,)),  # the last one: no trump (yet)
    ("face_up", (NUM_CARDS,)),
    ("called", (NUM_CARDS,)),
    ("talon_size", (1,)),
    ("tricks", (_SEATS,)),
    ("trick_points", (_SEATS,)),
    ("marriages", (_SEATS, len(SUITS))),
    ("phase", (len(mc.TABLE_PHASE_NAMES),)),
)
#: What the observers add to the view's facts (one-hot by seat; zeros for nobody).
TABLE_EXTRA_BLOCKS = (
    ("dealer", (_SEATS,)),
    ("to_move", (_SEATS,)),
    ("closed_by", (_SEATS,)),
    ("sitting_out", (_SEATS,)),
)
#: One action of the deal in the information-state tensor: the acting seat, the action id
#: and the cards that reached the observing seat's hand with it (draws, the exchange).
TABLE_PLY_SIZE = _SEATS + NUM_ACTIONS + NUM_CARDS


def table_recall_blocks(max_length: int) -> tuple:
    """The perfect-recall blocks: the hand and face-up card of the deal, then one
    ``TABLE_PLY_SIZE`` slot per action of the deal (``max_length`` of them)."""
    return (
        ("initial_hand", (NUM_CARDS,)),
        ("initial_face_up", (NUM_CARDS,)),
        ("plies", (max_length, TABLE_PLY_SIZE)),
    )


def _put_mask(vector: np.ndarray, mask: int) -> None:
    vector[:] = (int(mask) >> np.arange(len(vector), dtype=np.int64)) & 1


class TableObserver:
    """OpenSpiel's Python observer interface over ``TableView`` for a multi-player game.

    The observation (no recall) is the view's ``tensor()`` followed by
    ``TABLE_EXTRA_BLOCKS`` and ``deal_progress``, and a readable summary of the same facts.
    The information state (perfect recall) adds ``table_recall_blocks``: every action with
    its seat, and what reached the seat's hand with it, so that equal tensors mean equal
    information states; its string is the ``repr`` of the view's ``key()``. During the
    deal a seat knows the cards dealt to it so far and the face-up card once it is turned.
    """

    def __init__(self, perfect_recall: bool, deal: _Deal) -> None:
        self.perfect_recall = perfect_recall
        blocks = TABLE_VIEW_BLOCKS + TABLE_EXTRA_BLOCKS
        if perfect_recall:
            blocks += table_recall_blocks(deal.max_length)
        blocks += (("deal_progress", (1,)),)
        sizes = [math.prod(shape) for _, shape in blocks]
        self.tensor = np.zeros(sum(sizes), np.float32)
        self.dict = {}
        start = 0
        for (name, shape), size in zip(blocks, sizes, strict=True):
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size
        self._view_size = sum(math.prod(shape) for _, shape in TABLE_VIEW_BLOCKS)
        self._strings: dict[tuple, str] = {}

    def set_from(self, state: SixtySixState, player: int) -> None:
        self.tensor.fill(0.0)
        play = state._play
        pieces = self.dict
        pieces["dealer"][play.deal.dealer] = 1.0
        engine = play.engine
        if engine is None:
            self._set_dealing(play, player)
            return
        view = engine.view(player)
        now = view.tensor()
        if len(now) != self._view_size:
            raise AssertionError(
                f"TableView.tensor() has {len(now)} numbers; TABLE_VIEW_BLOCKS {self._view_size}"
            )
        self.tensor[: self._view_size] = now
        for block, seat in (
            ("to_move", view.current_player),
            ("closed_by", view.closed_by),
            ("sitting_out", view.sitting_out),
        ):
            if seat is not None:
                pieces[block][seat] = 1.0
        if self.perfect_recall:
            _put_mask(pieces["initial_hand"], view.hand_at_deal)
            if view.face_up_at_deal is not None:
                pieces["initial_face_up"][parse_card(view.face_up_at_deal)] = 1.0
            plies = pieces["plies"]
            before = view.hand_at_deal
            for ply, ((seat, action), hand) in enumerate(
                zip(view.history, view.hand_history, strict=True)
            ):
                plies[ply, seat] = 1.0
                plies[ply, _SEATS + action] = 1.0
                _put_mask(plies[ply, _SEATS + NUM_ACTIONS :], hand & ~before)
                before = hand
        pieces["deal_progress"][0] = 1.0

    def _set_dealing(self, play: _TablePlay, player: int) -> None:
        pieces = self.dict
        pieces["seat"][player] = 1.0
        hand = play.dealt_to(player)
        face_up = play.face_up()
        _put_mask(pieces["hand"], hand)
        trump = len(SUITS) if face_up is None else face_up // RANKS_PER_SUIT
        pieces["trump"][trump] = 1.0
        if face_up is not None:
            pieces["face_up"][face_up] = 1.0
        if self.perfect_recall:
            _put_mask(pieces["initial_hand"], hand)
            if face_up is not None:
                pieces["initial_face_up"][face_up] = 1.0
        pieces["deal_progress"][0] = len(play.dealt) / len(play.deal.positions)

    def string_from(self, state: SixtySixState, player: int) -> str:
        # A pure function of the player and the history: kept, as SixtySixObserver does.
        memo_key = (player, tuple(state.history()))
        text = self._strings.get(memo_key)
        if text is None:
            if len(self._strings) >= MAX_REMEMBERED_STRINGS:
                self._strings.clear()
            text = self._string(state, player)
            self._strings[memo_key] = text
        return text

    def _string(self, state: SixtySixState, player: int) -> str:
        play = state._play
        if play.engine is None:
            return _table_dealing_text(play, player)
        view = play.engine.view(player)
        return repr(view.key()) if self.perfect_recall else _table_observation_text(view)


def _names(cards) -> str:
    return " ".join(cards) or "-"


def _table_dealing_text(play: _TablePlay, player: int) -> str:
    deal = play.deal
    game = deal.engine_game
    face_up = play.face_up()
    return "\n".join(
        [
            f"rules {game!r}",
            f"seat {player} of {deal.num_players}, dealer {deal.dealer}",
            f"dealing {len(play.dealt)}/{len(deal.positions)}: "
            f"my cards {_names(mask_to_names(play.dealt_to(player)))} "
            f"face-up {'-' if face_up is None else card_name(face_up)}",
        ]
    )


def _table_observation_text(view) -> str:
    """What ``view``'s seat sees now (the facts of the observation tensor)."""

    def seat(value) -> str:
        return "-" if value is None else str(value)

    def by_seat(values) -> str:
        return "/".join(str(value) for value in values)

    if view.is_terminal:
        status = f"over ({view.reason}), game points {by_seat(view.scores)}"
    else:
        status = f"{view.phase}, seat {view.current_player} to move"
    marriages = "/".join("".join(suits) or "-" for suits in view.declared_marriages)
    return "\n".join(
        [
            f"seat {view.seat} of {view.num_players}, dealer {view.dealer}: {status}",
            f"trump {view.trump_suit or '-'}, face-up {view.face_up or '-'}, "
            f"called {view.called_card or '-'}, talon {view.talon_size}, "
            f"closed by {seat(view.closed_by)}, sitting out {seat(view.sitting_out)}",
            f"hand {_names(view.hand)}",
            "trick " + (" ".join(f"P{s} {card}" for s, card in view.trick) or "-"),
            "won " + " / ".join(_names(cards) for cards in view.won_cards),
            f"tricks {by_seat(view.tricks_won)}, trick points {by_seat(view.trick_points)}, "
            f"marriages {marriages}",
        ]
    )


# ---- worlds for the search bots -------------------------------------------------------------
_CHAIN_STEPS = 20  # swap proposals per hidden card before the first world is tried
_MAX_WORLD_ATTEMPTS = 500


class TableWorldSampler:
    """Worlds for ``SixtySixState.resample`` of the multi-player presets (so for
    OpenSpiel's ISMCTS bot): one uniform draw of ``sixtysix.table_worlds.sample_worlds``
    per call, seeded from ``rng``; only the seat's view enters it, so two states the seat
    cannot tell apart give the same worlds from the same draws."""

    def __init__(self, table_game: TableGame, dealer: int) -> None:
        self.game = table_game
        self.dealer = dealer

    def sample(self, truth: TableState, seat: int, rng) -> TableState:
        """A world ``seat`` cannot tell from ``truth`` (replayed to the same point)."""
        if not isinstance(rng, np.random.Generator):
            rng = np.random.default_rng(rng)
        return sample_worlds(truth.view(seat), 1, int(rng.integers(2**63)))[0]


pyspiel.register_game(GAME_TYPE, SixtySixGame)
