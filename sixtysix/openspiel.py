"""Sixty-Six as an OpenSpiel game: ``import sixtysix.openspiel`` registers ``python_sixty_six``.

    game = pyspiel.load_game("python_sixty_six(preset=schnapsen,claim_mode=manual)")

The state delegates every rule to the engine (``sixtysix.game.State``); this
module only adds the explicit deal, the observers and the world resampler.

Parameters: ``preset`` (any name of ``PRESETS`` or ``MINI_PRESETS``), ``dealer``
(0 or 1, default 1, so player 0 leads first) and every deal-level rule option
of ``OPTION_NAMES`` (the match options are left out: a game is one deal). An
option left at its empty value keeps the preset's value: ``-1`` for numbers,
``""`` for strings, and for on/off options ``-1``, with ``0`` and ``1`` for off
and on (OpenSpiel parameters have no "unset", so on/off options are numbers).

Actions: player actions are the engine's stable ids (``core`` docstring,
0-57) and their strings the engine's canonical strings (``"play QH"``,
``"close"``...). Chance actions are card indices (``suit * 6 + rank``,
0-23), one chance node per dealt card, shown as ``"deal QH"``.

The deal: chance deals the non-dealer's hand, then the dealer's hand, then
the face-up trump card, then the talon from its top. Each hand is dealt in
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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyspiel

from .engine import core
from .engine.actions import action_name
from .engine.cards import NUM_CARD_INDICES, card_name, mask_text, mask_to_cards, suit_of
from .engine.checks import check_player
from .engine.rules import OPTION_NAMES, RuleSet, rules_text
from .facts import PHASE_NAMES
from .game import Game
from .game import State as EngineState
from .view import HISTORY_BLOCKS, NOW_BLOCKS

GAME_NAME = "python_sixty_six"
CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
MATCH_OPTIONS = ("next_dealer", "draw_bonus_next_deal", "match_target", "match_shutout_double")
DEAL_OPTIONS = tuple(name for name in OPTION_NAMES if name not in MATCH_OPTIONS)
MAX_REMEMBERED_STRINGS = 1 << 18  # per observer; forgotten all at once when full
_UNSET = {bool: -1, int: -1, str: ""}
_DEFAULT_RULES = RuleSet()


def _option_type(name: str) -> type:
    return type(getattr(_DEFAULT_RULES, name))


PARAMETERS = {
    "preset": "sixty_six",
    "dealer": 1,
    **{name: _UNSET[_option_type(name)] for name in DEAL_OPTIONS},
}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Sixty-Six and Schnapsen (sixtysix engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rule_overrides(params: dict) -> dict:
    """The rule options set in OpenSpiel ``params`` (unset ones keep the preset's value)."""
    overrides = {}
    for name in DEAL_OPTIONS:
        value = params.get(name, PARAMETERS[name])
        if value == PARAMETERS[name]:
            continue
        if _option_type(name) is bool:
            if value not in (0, 1):
                raise ValueError(
                    f"invalid value {value!r} for rule option {name!r}: use 0 (off) or 1 (on), "
                    "or leave it out for the preset's value"
                )
            value = bool(value)
        overrides[name] = value
    return overrides


class _Deal:
    """What every state of one game shares (immutable): the engine game, the dealer and
    the deal order."""

    def __init__(self, engine_game: Game, dealer: int) -> None:
        rules = engine_game.rule_array[0]
        hand_size = int(rules["hand_size"])
        owners = rules["hand_owner"][: 2 * hand_size]
        positions = rules["hand_positions"][: 2 * hand_size]
        talon = int(rules["deck_size"]) - 2 * hand_size - 1
        #: Deck positions in chance order: non-dealer's hand, dealer's hand, trump, talon.
        self.positions = tuple(
            [int(p) for p, owner in zip(positions, owners, strict=True) if owner == 0]
            + [int(p) for p, owner in zip(positions, owners, strict=True) if owner == 1]
            + [int(rules["trump_position"])]
            + [int(p) for p in rules["talon_positions"][:talon]]
        )
        self.engine_game = engine_game
        self.dealer = dealer
        self.hand_size = hand_size
        self.deck_mask = int(rules["deck_mask"])

    def hand_of(self, step: int) -> int | None:
        """Whose hand chance step ``step`` deals to (None: trump or talon)."""
        if step < 2 * self.hand_size:
            non_dealer = 1 - self.dealer
            return non_dealer if step < self.hand_size else self.dealer
        return None

    def chance_outcomes(self, dealt: tuple[int, ...]) -> list[tuple[int, float]]:
        """``(card, probability)`` of the next chance step after ``dealt``."""
        remaining = self.deck_mask
        for card in dealt:
            remaining &= ~(1 << card)
        step = len(dealt)
        if self.hand_of(step) is None:
            cards = mask_to_cards(remaining)
            return [(card, 1.0 / len(cards)) for card in cards]
        first_of_hand = step % self.hand_size == 0
        lowest = -1 if first_of_hand else dealt[-1]
        candidates = [card for card in mask_to_cards(remaining) if card > lowest]
        still = self.hand_size - step % self.hand_size  # this card included
        hands = math.comb(len(candidates), still)
        outcomes = []
        for rank, card in enumerate(candidates):
            higher = len(candidates) - rank - 1
            ways = math.comb(higher, still - 1)  # hands whose smallest undealt card is ``card``
            if ways:
                outcomes.append((card, ways / hands))
        return outcomes

    def engine_state(self, dealt: tuple[int, ...]) -> EngineState:
        """The engine's state of a complete deal."""
        deck = np.empty(len(dealt), dtype=np.int64)
        deck[list(self.positions)] = dealt
        return EngineState(self.engine_game, deck, self.dealer)

    def chance_order(self, engine: EngineState) -> list[int]:
        """The chance actions that deal ``engine``'s deck (each hand in ascending order)."""
        cards = [int(engine.deck[p]) for p in self.positions]
        size = self.hand_size
        return sorted(cards[:size]) + sorted(cards[size : 2 * size]) + cards[2 * size :]


class SixtySixGame(pyspiel.Game):
    """``python_sixty_six``: one deal of a sixtysix rule set."""

    def __init__(self, params: dict | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        dealer = check_player(params["dealer"], "dealer")
        engine_game = Game(params["preset"], **rule_overrides(params))
        rules = engine_game.rule_array
        tricks = int(rules[0]["deck_size"]) // 2
        most = float(engine_game.rules.max_game_points)
        info = pyspiel.GameInfo(
            num_distinct_actions=core.NUM_ACTIONS,
            max_chance_outcomes=NUM_CARD_INDICES,
            num_players=2,
            min_utility=-most,
            max_utility=most,
            utility_sum=0.0,
            # Per trick a lead, a follow and a draw or close; once per deal an exchange, a
            # close, an exchange on close and a claim, plus the final claim or pass.
            max_game_length=3 * tricks + 5,
        )
        # Only the parameters that differ from the defaults: a short, loadable game string.
        given = {k: v for k, v in params.items() if k == "preset" or v != PARAMETERS[k]}
        super().__init__(GAME_TYPE, info, given)
        self.deal = _Deal(engine_game, dealer)

    @property
    def engine_game(self) -> Game:
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
        return SixtySixObserver(obs_type.perfect_recall)


class _Play:
    """One deal in progress: the cards dealt so far, then the engine's state.

    All of a ``SixtySixState``'s own data, in one object so that OpenSpiel's clone (a
    ``copy.deepcopy`` of each attribute) costs one engine clone.
    """

    def __init__(self, deal: _Deal) -> None:
        self.deal = deal
        self.dealt: tuple[int, ...] = ()
        self.engine: EngineState | None = None
        self.mover = CHANCE  # asked for often by OpenSpiel's algorithms, so kept

    def __deepcopy__(self, memo) -> _Play:
        copy = object.__new__(_Play)
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
        for step, card in enumerate(self.dealt):
            if self.deal.hand_of(step) == player:
                mask |= 1 << card
        return mask

    def face_up(self) -> int | None:
        """The face-up trump card, once chance has turned it."""
        step = 2 * self.deal.hand_size
        return self.dealt[step] if len(self.dealt) > step else None


class SixtySixState(pyspiel.State):
    """A ``python_sixty_six`` state; the engine's state once the deal is complete."""

    def __init__(self, game: SixtySixGame) -> None:
        super().__init__(game)
        self._play = _Play(game.deal)

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
        if not self.is_terminal():
            return [0.0, 0.0]
        winner, game_points, _ = self._play.engine.outcome
        if winner is None:
            return [0.0, 0.0]
        return [float(game_points), -float(game_points)][:: 1 if winner == 0 else -1]

    def __str__(self) -> str:
        engine = self._play.engine
        if engine is None:
            return "dealing: " + " ".join(card_name(card) for card in self._play.dealt)
        moves = ", ".join(f"P{player} {action}" for player, action in engine.history)
        return f"{engine!r} led={engine.led_card} closed_by={engine.closed_by} history=[{moves}]"

    def resample_from_infostate(self, player_id: int, probability_sampler) -> SixtySixState:
        """A state ``player_id`` cannot tell from this one, drawn uniformly (``worlds``).

        The sampler's first draw seeds the world sampler.
        """
        seed = int(probability_sampler() * 2**53)
        return self.resample(player_id, seed)

    # ---- sixtysix additions ---------------------------------------------------------------
    @property
    def engine(self) -> EngineState | None:
        """The engine's state once the deal is complete (the full truth: not for agents)."""
        return self._play.engine

    def resample(self, player: int, rng) -> SixtySixState:
        """A uniformly drawn state ``player`` cannot tell from this one; ``rng`` a seed or a
        numpy Generator. Only after the deal (no agent decides during it)."""
        play = self._play
        if play.engine is None:
            raise ValueError("resampling needs a complete deal; this state is still dealing")
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
    information_sets: tuple[int, int]


def tree_size(game: SixtySixGame) -> TreeSize:
    """Walk the whole tree of ``game`` (only sensible for the ``mini_*`` presets)."""
    histories = terminals = deals = 0
    information_sets: tuple[set, set] = (set(), set())
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
    """OpenSpiel's Python observer interface over the engine's ``PlayerView``."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        blocks = NOW_BLOCKS + (HISTORY_BLOCKS if perfect_recall else ()) + (("deal_progress", 1),)
        self.tensor = np.zeros(sum(size for _, size in blocks), np.float32)
        self.dict = {}
        start = 0
        for name, size in blocks:
            self.dict[name] = self.tensor[start : start + size]
            start += size
        self._view_size = start - 1
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
                self.dict[block][card] = 1.0
        if face_up is not None:
            self.dict["face_up"][face_up] = 1.0
            self.dict["trump"][suit_of(face_up)] = 1.0
            if self.perfect_recall:
                self.dict["initial_face_up"][face_up] = 1.0
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


pyspiel.register_game(GAME_TYPE, SixtySixGame)
