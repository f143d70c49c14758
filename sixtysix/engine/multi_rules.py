"""The rules of the games for two to four seats of docs/rules.md "Three and four players"
(the specification is RULES_MULTI): options, the named presets, validation and compilation.

Cards are the indices of ``cards`` over the 32-card pack. A :class:`TableRules` is frozen
and validated; :func:`compile_table_rules` turns it into the record the kernels of
``multi_core`` read.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np

from .cards import NUM_CARDS, RANK_POINTS, RANKS, RANKS_PER_SUIT
from .checks import is_integer, normalize_numbers

LOW_RANKS = "789"
#: Trick strength of each rank in betli's Ulti ranking (A K Q J T 9 8 7, RULES_MULTI 6.4).
ULTI_STRENGTH = {"7": 0, "8": 1, "9": 2, "T": 3, "J": 4, "Q": 5, "K": 6, "A": 7}


# Valid values of every enumerated option, in the order compiled to integers.
CHOICES: dict[str, tuple] = {
    "num_players": (2, 3, 4),
    "sides": ("none", "fixed_opposite", "called_card", "contract"),
    "deck": (20, 24, 32),  # the standard packs; with ``ranks`` given, suits * len(ranks)
    "suits": (2, 3, 4),
    "low_card_points": (0, 1),
    "trump_source": ("turn_up", "called_card", "first_lead", "none"),
    "call_timing": ("full_hand", "first_batch"),
    "open_phase_rule": ("free", "strict"),
    "trump_duty": ("always", "if_winning"),
    "exchange_rank": ("J", "9", "lowest"),
    "failed_close_penalty": (
        "always_3",
        "two_or_three_by_tricks_at_close",
        "by_closer_points",
        "czech_6_or_3",
    ),
    "trick_winner_rule": ("standard", "value_open_phase", "value_always"),
    "marriage_lead_card": ("either", "king", "queen"),
    "exchange_timing": ("leader_before_lead", "any_time_after_trick_won"),
    "marriage_points_validation": ("any_trick", "next_trick_after_declaration"),
    "game_point_scale": ("standard", "czech"),
    "opponent_out_after_close": ("as_failed_close", "fixed_2"),
    "closer_win_basis": ("at_close", "at_end"),
    "marriage_declarers": ("leader", "leader_and_partner"),
    "marriage_validation_scope": ("side", "own"),
    "claim_mode": ("automatic", "manual", "optional_verified", "none"),
    "false_claim_penalty": ("two_or_three", "fixed_2"),
    "exhausted_no_claim_rule": ("last_trick_winner", "higher_total_wins", "no_score"),
    "schwarz_basis": ("no_tricks", "zero_points"),
    "last_trick_bonus": (0, 10),
    "loser_basis": ("combined", "per_opponent"),
    "announcements": ("none", "durchmars", "durchmars_betli"),
    "betli_partner": ("sits_out", "plays"),
    "betli_ranking": ("ulti", "normal"),
    "match_scoring": ("individual", "team"),
    "next_dealer": ("rotate",),
    "bid_levels": (5,),
    "all_pass": ("dealer_forced", "redeal"),
    "moon_rule": ("partner_out_all_tricks",),
}

BOOL_OPTIONS = (
    "call_own_card",
    "claims_before_reveal",
    "strict_must_follow",
    "strict_must_head",
    "strict_must_trump",
    "must_overtrump",
    "closing_allowed",
    "marriage_requires_trick",
    "marriage_in_strict_phase",
    "marriage_on_closing_turn",
    "exchange_requires_trick_won",
    "exchange_on_opponent_close",
    "close_before_draw",
    "marriage_on_first_lead",
    "close_on_first_lead",
    "claim_after_marriage",
    "betli_must_head",
    "defender_units",
)

#: Options given as numbers without a fixed set of values (checked in ``_validate``).
NUMBER_OPTIONS = (
    "hand_size",
    "target",
    "marriage_points",
    "exchange_min_talon",
    "close_min_talon",
    "durchmars_points",
    "betli_points",
    "match_target",
    "bid_unit",
)


@dataclass(frozen=True)
class TableRules:
    """One complete, validated set of options of a game for 2-4 seats (RULES_MULTI
    section 8); the defaults are those shared by the Snapszer presets."""

    num_players: int = 4
    sides: str = "fixed_opposite"
    deck: int = 32
    ranks: str = ""
    suits: int = 4
    low_card_points: int = 0
    hand_size: int = 5
    deal_pattern: str = "P3 P2 T"
    target: int = 66
    marriage_points: int = 20
    trump_source: str = "turn_up"
    call_timing: str = "full_hand"
    call_own_card: bool = True
    claims_before_reveal: bool = False
    open_phase_rule: str = "strict"
    strict_must_follow: bool = True
    strict_must_head: bool = False
    strict_must_trump: bool = True
    trump_duty: str = "always"
    must_overtrump: bool = False
    exchange_rank: str = "J"
    exchange_min_talon: int = 4
    exchange_requires_trick_won: bool = False
    exchange_timing: str = "leader_before_lead"
    trick_winner_rule: str = "standard"
    exchange_on_opponent_close: bool = False
    closing_allowed: bool = True
    close_min_talon: int = 2
    close_before_draw: bool = False
    close_on_first_lead: bool = True
    failed_close_penalty: str = "always_3"
    closer_win_basis: str = "at_close"
    marriage_declarers: str = "leader"
    marriage_validation_scope: str = "side"
    marriage_requires_trick: bool = True
    marriage_in_strict_phase: bool = True
    marriage_on_closing_turn: bool = True
    marriage_on_first_lead: bool = True
    marriage_lead_card: str = "either"
    marriage_points_validation: str = "any_trick"
    claim_after_marriage: bool = True
    claim_mode: str = "automatic"
    false_claim_penalty: str = "two_or_three"
    exhausted_no_claim_rule: str = "last_trick_winner"
    schwarz_basis: str = "no_tricks"
    game_point_scale: str = "standard"
    opponent_out_after_close: str = "as_failed_close"
    last_trick_bonus: int = 0
    loser_basis: str = "combined"
    announcements: str = "none"
    durchmars_points: int = 6
    betli_points: int = 5
    betli_partner: str = "sits_out"
    betli_ranking: str = "ulti"
    betli_must_head: bool = False
    match_target: int = 7
    match_scoring: str = "team"
    next_dealer: str = "rotate"
    bid_unit: int = 33
    bid_levels: int = 5
    all_pass: str = "dealer_forced"
    moon_rule: str = "partner_out_all_tricks"
    defender_units: bool = False

    def __post_init__(self) -> None:
        normalize_numbers(self)
        _validate(self)

    @property
    def deck_ranks(self) -> str:
        """The ranks in play, ascending: ``ranks``, or those of the pack ``deck``."""
        return self.ranks or {20: "JQKTA", 24: "9JQKTA", 32: RANKS}[self.deck]

    @property
    def deck_cards(self) -> list[int]:
        """Indices of the cards in play, ascending."""
        ranks = [RANKS.index(rank) for rank in self.deck_ranks]
        return [suit * RANKS_PER_SUIT + rank for suit in range(self.suits) for rank in ranks]

    @property
    def talon_size(self) -> int:
        """Cards in the talon after the deal, a face-up card included."""
        return self.deck - self.num_players * self.hand_size

    @property
    def max_game_points(self) -> int:
        """The most game points one seat can score in a deal (what a forfeit scores): 3, an
        announcement's points, or the moon's level in a contract game."""
        most = [3]
        if self.announcements != "none":
            most.append(self.durchmars_points)
        if self.betli_possible:
            most.append(self.betli_points)
        if self.sides == "contract":
            most.append(self.bid_levels)
        return max(most)

    @property
    def betli_possible(self) -> bool:
        """Whether a betli may be announced."""
        return self.announcements == "durchmars_betli"

    @property
    def exchange_card_rank(self) -> str:
        """The rank of the trump that may be exchanged for the face-up card."""
        return self.deck_ranks[0] if self.exchange_rank == "lowest" else self.exchange_rank


OPTION_NAMES = tuple(field.name for field in dataclasses.fields(TableRules))
#: ``nine_points`` is the two-player name of ``low_card_points`` (RULES_MULTI decision 2).
OPTION_ALIASES = {"nine_points": "low_card_points"}

_SNAPSZER3 = dict(
    num_players=3,
    sides="none",
    deck=24,
    open_phase_rule="free",
    match_scoring="individual",
)
_SNAPSZER3_CALLED = dict(
    num_players=3,
    sides="called_card",
    deck=24,
    deal_pattern="P3 P2",
    trump_source="called_card",
    closing_allowed=False,
    match_scoring="individual",
)
_SNAPSZER4 = dict()
_SNAPSZER4_CALLED = dict(
    sides="called_card",
    hand_size=8,
    deal_pattern="P3 P2 P3",
    trump_source="called_card",
    closing_allowed=False,
    match_scoring="individual",
)
_NA66 = dict(
    sides="contract",
    deck=24,
    hand_size=6,
    deal_pattern="P3 P3",
    trump_source="first_lead",
    strict_must_head=True,
    closing_allowed=False,
    claim_mode="none",
    marriage_requires_trick=False,
    match_target=10,
)

#: Each preset as its differences from the ``TableRules`` defaults (RULES_MULTI 2-7).
TABLE_PRESETS: dict[str, dict] = {
    "snapszer3": _SNAPSZER3,
    "snapszer3_called": _SNAPSZER3_CALLED,
    "snapszer4": _SNAPSZER4,
    "snapszer4_called": _SNAPSZER4_CALLED,
    "na66": _NA66,
    "na66_3": dict(
        _NA66, num_players=3, hand_size=8, deal_pattern="P3 P2 P3", match_scoring="individual"
    ),
    "na66_2": dict(
        _NA66, num_players=2, hand_size=12, deal_pattern="P6 P6", match_scoring="individual"
    ),
}


def _mini(parent: dict, ranks: str, suits: int, hand: int, pattern: str, **scaled) -> dict:
    """A reduced pack of RULES_MULTI section 10 and M1: the first ``suits`` suits."""
    return dict(
        parent,
        ranks=ranks,
        suits=suits,
        deck=len(ranks) * suits,
        hand_size=hand,
        deal_pattern=pattern,
        exchange_min_talon=2,
        **scaled,
    )


#: The small variants for exact game theory (RULES_MULTI section 10, M1).
TABLE_MINI_PRESETS: dict[str, dict] = {
    "mini3_3x3": _mini(_SNAPSZER3, "JQK", 3, 2, "P2 T", target=15, marriage_points=4),
    "mini3_called_3x3": _mini(_SNAPSZER3_CALLED, "JQK", 3, 3, "P3", target=15, marriage_points=4),
    "mini3_called_3x4": _mini(_SNAPSZER3_CALLED, "JQKA", 3, 3, "P3", target=33, marriage_points=10),
    "mini4_4x3": _mini(_SNAPSZER4, "JQK", 4, 2, "P2 T", target=20, marriage_points=6),
    "mini4_called_2x4": _mini(_SNAPSZER4_CALLED, "JQKA", 2, 2, "P2", target=22, marriage_points=7),
    "mini_na66_4x3": _mini(_NA66, "JQK", 4, 3, "P3", target=20, marriage_points=6, bid_unit=10),
    "mini_na66_2": _mini(
        TABLE_PRESETS["na66_2"], "JQK", 4, 6, "P3 P3", target=20, marriage_points=6, bid_unit=10
    ),
}


def make_table_rules(preset: str, **overrides) -> TableRules:
    """The rules of a preset of ``TABLE_PRESETS`` or ``TABLE_MINI_PRESETS`` with overrides."""
    options = TABLE_PRESETS.get(preset, TABLE_MINI_PRESETS.get(preset))
    if options is None:
        raise ValueError(
            f"unknown preset {preset!r}: multi-player presets are {', '.join(TABLE_PRESETS)}; "
            f"their minis are {', '.join(TABLE_MINI_PRESETS)}"
        )
    named = {OPTION_ALIASES.get(name, name): value for name, value in overrides.items()}
    unknown = [name for name in named if name not in OPTION_NAMES]
    if unknown:
        raise ValueError(
            f"unknown rule option {unknown[0]!r} for preset {preset!r}: valid options are "
            f"{', '.join(OPTION_NAMES)} (and nine_points, an alias of low_card_points)"
        )
    return TableRules(**{**options, **named})


def _refuse(option: str, value, valid: str) -> None:
    raise ValueError(f"invalid {option} {value!r}: {valid}")


def _validate_values(rules: TableRules) -> None:
    for name, values in CHOICES.items():
        value = getattr(rules, name)
        if name == "deck" and rules.ranks:
            continue
        if value not in values or isinstance(value, bool):
            _refuse(name, value, f"valid values are {', '.join(map(repr, values))}")
    for name in BOOL_OPTIONS:
        if not isinstance(getattr(rules, name), bool):
            _refuse(name, getattr(rules, name), "it must be True or False")
    for name in NUMBER_OPTIONS:
        value = getattr(rules, name)
        if not is_integer(value) or value < 1:
            _refuse(name, value, "it must be a positive integer")
    ranks = rules.ranks
    if ranks and (
        len(set(ranks)) != len(ranks)
        or any(r not in RANKS for r in ranks)
        or ranks != "".join(sorted(ranks, key=RANKS.index))
    ):
        _refuse("ranks", ranks, f"distinct ranks of {RANKS!r}, in that order")
    if ranks and rules.deck != len(ranks) * rules.suits:
        _refuse(
            "deck",
            rules.deck,
            f"with ranks {ranks!r} and {rules.suits} suits it is {len(ranks) * rules.suits}",
        )
    if not ranks and rules.suits != 4:
        _refuse("suits", rules.suits, "a standard pack has 4 suits (give ranks for a mini)")


def _pattern_steps(rules: TableRules) -> list[tuple[str, int]]:
    steps = []
    for token in rules.deal_pattern.split():
        if token in ("T", "TL"):
            steps.append((token, 1))
        elif token[0] == "P" and token[1:].isdigit() and int(token[1:]) > 0:
            steps.append(("P", int(token[1:])))
        else:
            _refuse(
                "deal_pattern",
                rules.deal_pattern,
                "tokens are Pk (k cards to every seat), T (the next card face up) and TL "
                "(two players: the pack's last card face up), e.g. 'P3 P2 T'",
            )
    return steps


def _validate_deal(rules: TableRules) -> None:
    steps = _pattern_steps(rules)
    per_seat = sum(count for kind, count in steps if kind == "P")
    turned = sum(1 for kind, _ in steps if kind in ("T", "TL"))
    if per_seat != rules.hand_size:
        _refuse(
            "deal_pattern",
            rules.deal_pattern,
            f"it deals {per_seat} cards each, but hand_size is {rules.hand_size}",
        )
    if rules.num_players * rules.hand_size + turned > rules.deck:
        _refuse(
            "hand_size",
            rules.hand_size,
            f"{rules.num_players} hands of it need more than the {rules.deck}-card pack",
        )
    if rules.talon_size % rules.num_players:
        _refuse(
            "hand_size",
            rules.hand_size,
            f"the talon ({rules.talon_size} cards) must be a multiple of the "
            f"{rules.num_players} players (RULES_MULTI 1.3.2)",
        )
    if turned > 1 or (turned == 1) != (rules.trump_source == "turn_up"):
        _refuse("deal_pattern", rules.deal_pattern, "one T exactly when trump_source is 'turn_up'")


def _validate_sides(rules: TableRules) -> None:
    n, sides = rules.num_players, rules.sides
    if (sides == "called_card") != (rules.trump_source == "called_card"):
        _refuse("sides", sides, "called_card sides go with trump_source 'called_card', and back")
    if (sides == "contract") != (rules.trump_source == "first_lead"):
        _refuse("sides", sides, "contract sides go with trump_source 'first_lead', and back")
    if sides == "contract":
        if rules.talon_size:
            _refuse("hand_size", rules.hand_size, "the contract games deal the whole pack")
        if rules.announcements != "none":
            _refuse("announcements", rules.announcements, "the contract games have none")
        if rules.claim_mode != "none":
            _refuse("claim_mode", rules.claim_mode, "the contract games have claim_mode 'none'")
    elif rules.claim_mode == "none":
        _refuse(
            "claim_mode",
            "none",
            "only the contract games (sides 'contract') play without "
            "claims; valid: automatic, manual, optional_verified",
        )
    if sides == "fixed_opposite" and n != 4:
        _refuse("sides", sides, f"fixed partners need 4 players, not {n}")


def _validate_options(rules: TableRules) -> None:
    n = rules.num_players
    if rules.closing_allowed and rules.trump_source != "turn_up":
        _refuse("closing_allowed", True, "closing exists only in the turn-up games")
    if rules.exchange_card_rank not in rules.deck_ranks:  # M19 refuses it in every game
        _refuse("exchange_rank", rules.exchange_rank, f"the pack's ranks are {rules.deck_ranks!r}")
    if rules.low_card_points and not set(LOW_RANKS) & set(rules.deck_ranks):
        _refuse("low_card_points", 1, "the pack has no 9, 8 or 7")
    if rules.loser_basis == "per_opponent" and (n != 3 or rules.sides != "none"):
        _refuse("loser_basis", "per_opponent", "it needs three players each for himself")
    if rules.marriage_declarers == "leader_and_partner" and rules.sides != "fixed_opposite":
        _refuse("marriage_declarers", "leader_and_partner", "it needs fixed partners")
    if rules.announcements == "durchmars_betli":
        if n != 4:
            _refuse("announcements", "durchmars_betli", f"betli needs 4 players, not {n}")
        playing = 3 if rules.sides == "fixed_opposite" and rules.betli_partner == "sits_out" else 4
        if rules.talon_size % playing:
            _refuse(
                "betli_partner",
                rules.betli_partner,
                f"{playing} seats cannot draw a talon of {rules.talon_size} (M9); "
                "betli_partner 'plays' can",
            )


#: Options of the two-player game (RULES) that RULES_MULTI M19 fixes for 2-4 seats, with
#: the value it fixes: only two seats each for himself may set another (the two-player
#: presets, run on this engine by ``engine.rules.table_rules_of``).
TWO_PLAYER_OPTIONS = {
    "exchange_requires_trick_won": False,
    "exchange_timing": "leader_before_lead",
    "exchange_on_opponent_close": False,
    "close_before_draw": False,
    "marriage_on_closing_turn": True,
    "marriage_on_first_lead": True,
    "marriage_lead_card": "either",
    "marriage_points_validation": "any_trick",
    "claim_after_marriage": True,
    "close_on_first_lead": True,
    "trick_winner_rule": "standard",
    "exhausted_no_claim_rule": "last_trick_winner",
    "schwarz_basis": "no_tricks",
    "game_point_scale": "standard",
    "opponent_out_after_close": "as_failed_close",
}


def _validate_two_player_options(rules: TableRules) -> None:
    if rules.num_players == 2 and rules.sides == "none":
        return
    for name, fixed in TWO_PLAYER_OPTIONS.items():
        if getattr(rules, name) != fixed:
            _refuse(
                name,
                getattr(rules, name),
                f"it is an option of the two-player game; here it is fixed at {fixed!r} "
                "(RULES_MULTI M19)",
            )
    if "TL" in rules.deal_pattern.split():
        _refuse("deal_pattern", rules.deal_pattern, "TL is a two-player token")
    if rules.failed_close_penalty in ("by_closer_points", "czech_6_or_3"):
        _refuse(
            "failed_close_penalty",
            rules.failed_close_penalty,
            "a two-player value; here it is always_3 or two_or_three_by_tricks_at_close (M25)",
        )


def _validate(rules: TableRules) -> None:
    _validate_values(rules)
    _validate_deal(rules)
    _validate_sides(rules)
    _validate_options(rules)
    _validate_two_player_options(rules)


def option_code(option: str, value) -> int:
    """The integer a value of an enumerated option compiles to: its place in ``CHOICES``."""
    return CHOICES[option].index(value)


SIDES_NONE, SIDES_FIXED, SIDES_CALLED, SIDES_CONTRACT = range(4)
TRUMP_TURN_UP, TRUMP_CALLED, TRUMP_FIRST_LEAD = range(3)
CLAIM_AUTOMATIC, CLAIM_MANUAL, CLAIM_OPTIONAL_VERIFIED, CLAIM_NONE = range(4)
NO_ANNOUNCEMENTS, DURCHMARS_ONLY, DURCHMARS_BETLI = range(3)
EXHAUSTED_LAST_TRICK, EXHAUSTED_HIGHER_TOTAL, EXHAUSTED_NO_SCORE = range(3)
FAILED_ALWAYS_3, FAILED_TWO_OR_THREE, FAILED_BY_CLOSER_POINTS, FAILED_CZECH = range(4)
TRICK_STANDARD, TRICK_VALUE_OPEN, TRICK_VALUE_ALWAYS = range(3)
LEAD_EITHER, LEAD_KING, LEAD_QUEEN = range(3)

# Fields of the compiled record the kernels read (all int64).
TABLE_RULE_FIELDS = (
    "num_players",
    "sides",
    "hand_size",
    "deck_size",
    "deck_mask",
    "target",
    "marriage_points",
    "trump_source",
    "call_own_card",
    "call_batch",
    "claims_before_reveal",
    "open_strict",
    "must_follow",
    "must_head",
    "must_trump",
    "trump_if_winning",
    "must_overtrump",
    "exchange_rank",
    "exchange_min_talon",
    "closing",
    "close_min_talon",
    "failed_close",
    "trick_rule",
    "marry_first_lead",
    "marry_lead_card",
    "marry_pending",
    "claim_after_marriage",
    "close_first_lead",
    "czech_scale",
    "opponent_out_fixed_2",
    "closer_at_end",
    "partner_melds",
    "validate_own",
    "exchange_needs_trick",
    "exchange_any_time",
    "exchange_on_close",
    "close_before_draw",
    "marry_closing_turn",
    "exhausted_rule",
    "schwarz_zero_points",
    "marriage_needs_trick",
    "marry_strict",
    "claim_mode",
    "false_claim_fixed_2",
    "last_trick_bonus",
    "per_opponent",
    "announcements",
    "durchmars_points",
    "betli_points",
    "betli_sits_out",
    "betli_normal_ranking",
    "betli_must_head",
    "bid_unit",
    "redeal_on_all_pass",
    "defender_units",
    "face_up_position",
)
TABLE_RULES_DTYPE = np.dtype(
    [(name, np.int64) for name in TABLE_RULE_FIELDS]
    + [
        ("deal_seat", np.int64, (NUM_CARDS,)),  # per deck position: seat offset, -1 talon
        ("deal_order", np.int64, (NUM_CARDS,)),  # deck positions by hand (from the first
        # seat), then the talon top first, a face-up card last
        ("card_points", np.int64, (NUM_CARDS,)),
        ("betli_strength", np.int64, (NUM_CARDS,)),
        ("beaten_by", np.int64, (NUM_CARDS,)),  # mask of the same suit's stronger cards
        ("betli_beaten_by", np.int64, (NUM_CARDS,)),  # the same in a betli's ranking
    ],
    align=True,
)


def deal_seats(rules: TableRules) -> tuple[list[int], int]:
    """Where each deck position goes (a seat offset from the first leader, or -1 for the
    talon) and the position of the face-up card (-1 if none)."""
    seats: list[int] = []
    face_up = -1
    for kind, count in _pattern_steps(rules):
        if kind == "T":
            face_up = len(seats)
            seats.append(-1)
        elif kind == "TL":
            face_up = rules.deck - 1
        else:
            seats.extend(seat for seat in range(rules.num_players) for _ in range(count))
    return seats + [-1] * (rules.deck - len(seats)), face_up


@functools.cache
def compile_table_rules(rules: TableRules) -> np.ndarray:
    """A one-element ``TABLE_RULES_DTYPE`` array: the rule numbers the kernels read."""
    seats, face_up = deal_seats(rules)
    values = dict(
        num_players=rules.num_players,
        sides=option_code("sides", rules.sides),
        hand_size=rules.hand_size,
        deck_size=rules.deck,
        deck_mask=sum(1 << card for card in rules.deck_cards),
        target=rules.target,
        marriage_points=rules.marriage_points,
        trump_source=option_code("trump_source", rules.trump_source),
        call_own_card=rules.call_own_card,
        call_batch=seats.count(0) if rules.call_timing == "full_hand" else _first_batch(rules),
        claims_before_reveal=rules.claims_before_reveal,
        open_strict=rules.open_phase_rule == "strict",
        must_follow=rules.strict_must_follow,
        must_head=rules.strict_must_head and rules.strict_must_follow,
        must_trump=rules.strict_must_trump,
        trump_if_winning=rules.trump_duty == "if_winning",
        must_overtrump=rules.must_overtrump,
        exchange_rank=RANKS.index(rules.exchange_card_rank),
        exchange_min_talon=rules.exchange_min_talon,
        closing=rules.closing_allowed,
        close_min_talon=rules.close_min_talon,
        failed_close=option_code("failed_close_penalty", rules.failed_close_penalty),
        trick_rule=option_code("trick_winner_rule", rules.trick_winner_rule),
        marry_first_lead=rules.marriage_on_first_lead,
        marry_lead_card=option_code("marriage_lead_card", rules.marriage_lead_card),
        marry_pending=rules.marriage_points_validation == "next_trick_after_declaration",
        claim_after_marriage=rules.claim_after_marriage,
        close_first_lead=rules.close_on_first_lead,
        czech_scale=rules.game_point_scale == "czech",
        opponent_out_fixed_2=rules.opponent_out_after_close == "fixed_2",
        closer_at_end=rules.closer_win_basis == "at_end",
        partner_melds=rules.marriage_declarers == "leader_and_partner",
        validate_own=rules.marriage_validation_scope == "own",
        exchange_needs_trick=rules.exchange_requires_trick_won,
        exchange_any_time=rules.exchange_timing == "any_time_after_trick_won",
        exchange_on_close=rules.exchange_on_opponent_close,
        close_before_draw=rules.close_before_draw,
        marry_closing_turn=rules.marriage_on_closing_turn,
        exhausted_rule=option_code("exhausted_no_claim_rule", rules.exhausted_no_claim_rule),
        schwarz_zero_points=rules.schwarz_basis == "zero_points",
        marriage_needs_trick=rules.marriage_requires_trick,
        marry_strict=rules.marriage_in_strict_phase,
        claim_mode=option_code("claim_mode", rules.claim_mode),
        false_claim_fixed_2=rules.false_claim_penalty == "fixed_2",
        last_trick_bonus=rules.last_trick_bonus,
        per_opponent=rules.loser_basis == "per_opponent",
        announcements=option_code("announcements", rules.announcements),
        durchmars_points=rules.durchmars_points,
        betli_points=rules.betli_points,
        betli_sits_out=rules.betli_partner == "sits_out" and rules.sides == "fixed_opposite",
        betli_normal_ranking=rules.betli_ranking == "normal",
        betli_must_head=rules.betli_must_head,
        bid_unit=rules.bid_unit,
        redeal_on_all_pass=rules.all_pass == "redeal",
        defender_units=rules.defender_units,
        face_up_position=face_up,
    )
    compiled = np.zeros(1, dtype=TABLE_RULES_DTYPE)
    for name in TABLE_RULE_FIELDS:
        compiled[0][name] = int(values[name])
    compiled[0]["deal_seat"][: len(seats)] = seats
    compiled[0]["deal_order"][: len(seats)] = _deal_order(seats, face_up)
    _fill_card_tables(compiled[0], rules)
    compiled.flags.writeable = False
    return compiled


def _deal_order(seats: list[int], face_up: int) -> list[int]:
    """The deck positions in the order the deal reads them: each hand's cards, seat offset by
    seat offset, then the talon's from the top, a face-up card last."""
    by_seat = sorted((seat, p) for p, seat in enumerate(seats) if seat >= 0)
    talon = [p for p, seat in enumerate(seats) if seat < 0 and p != face_up]
    return [p for _, p in by_seat] + talon + ([face_up] if face_up >= 0 else [])


def _fill_card_tables(record, rules: TableRules) -> None:
    """The per-card tables of a compiled record: points, betli's strength, and
    the masks of the cards of the same suit that beat each card."""
    low = rules.low_card_points
    strength = [card % RANKS_PER_SUIT for card in range(NUM_CARDS)]  # the rank's index
    for card in range(NUM_CARDS):
        rank = RANKS[card % RANKS_PER_SUIT]
        record["card_points"][card] = low if rank in LOW_RANKS else RANK_POINTS[RANKS.index(rank)]
        record["betli_strength"][card] = (
            strength[card] if rules.betli_ranking == "normal" else ULTI_STRENGTH[rank]
        )
    for field, ranking in (("beaten_by", strength), ("betli_beaten_by", record["betli_strength"])):
        for card in range(NUM_CARDS):
            suit = card // RANKS_PER_SUIT * RANKS_PER_SUIT
            record[field][card] = sum(
                1 << other
                for other in range(suit, suit + RANKS_PER_SUIT)
                if ranking[other] > ranking[card]
            )


def _first_batch(rules: TableRules) -> int:
    """How many cards the caller holds when he calls under ``call_timing = first_batch``."""
    steps = _pattern_steps(rules)
    return next(count for kind, count in steps if kind == "P")
