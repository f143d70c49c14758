"""Rule options (docs/rules.md section 12), the named presets, and their compilation.

``PRESETS`` are the seven presets of docs/rules.md 12.1; ``MINI_PRESETS`` are reduced-deck
presets for exact game theory (docs/mini_presets.md), made by the options
``ranks``, ``suits``, ``target`` and ``marriage_points``.

A :class:`RuleSet` is frozen and validated; :func:`compile_rules` turns it into
the numpy record the numba kernels read, through the same deal rules for the N-player
engine (:func:`table_rules_of`).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np

from .cards import RANK_POINTS, RANKS, card_index
from .checks import is_integer, normalize_numbers
from .multi_rules import TABLE_MINI_PRESETS, TABLE_PRESETS, TableRules, compile_table_rules

#: The ranks of the two-player packs, low to high (the 24-card pack; the 20-card one has no
#: nine, and ``ranks`` picks others from these).
PACK_RANKS = "9JQKTA"

# Valid values of every enumerated option, in the order compiled to integers.
CHOICES: dict[str, tuple] = {
    "deck": (24, 20),  # the standard packs; with ``ranks`` given, suits * len(ranks)
    "suits": (2, 3, 4),
    "nine_points": (0, 1),
    "hand_size": (2, 3, 5, 6),
    "next_dealer": ("winner_of_deal", "alternate"),
    "trick_winner_rule": ("standard", "value_open_phase", "value_always"),
    "exchange_rank": ("9", "J"),
    "exchange_timing": ("leader_before_lead", "any_time_after_trick_won"),
    "exchange_min_talon": (2, 4),
    "marriage_lead_card": ("either", "king", "queen"),
    "marriage_points_validation": ("any_trick", "next_trick_after_declaration"),
    "close_min_talon": (2, 4),
    "last_trick_bonus": (0, 10),
    "exhausted_no_claim_rule": ("higher_total_wins", "last_trick_winner", "no_score"),
    "draw_bonus_next_deal": (0, 1),
    "claim_mode": ("manual", "optional_verified", "automatic"),
    "false_claim_penalty": ("fixed_2", "two_or_three"),
    "game_point_scale": ("standard", "czech"),
    "schwarz_basis": ("no_tricks", "zero_points"),
    "closer_win_basis": ("at_end", "at_close"),
    "opponent_out_after_close": ("as_failed_close", "fixed_2"),
    "failed_close_penalty": (
        "two_or_three_by_tricks_at_close",
        "always_3",
        "by_closer_points",
        "czech_6_or_3",
    ),
}

BOOL_OPTIONS = (
    "exchange_requires_trick_won",
    "exchange_on_opponent_close",
    "marriage_on_first_lead",
    "marriage_in_strict_phase",
    "marriage_on_closing_turn",
    "claim_after_marriage",
    "closing_allowed",
    "close_on_first_lead",
    "close_before_draw",
    "strict_must_follow",
    "strict_must_head",
    "strict_must_trump",
    "match_shutout_double",
)

DEAL_PATTERNS = (
    "N3 D3 N3 D3 T",
    "N3 D3 T N2 D2",
    "N3 D3 T N3 D3",
    "3 x (N2 D2) T",
    "alternate singles; trump = last card",
    "N2 D2 T",  # hand_size 2 and 3 (the mini presets)
    "N3 D3 T",
)


@dataclass(frozen=True)
class RuleSet:
    """One complete, validated set of rule options; defaults are ``sixty_six``."""

    deck: int = 24
    ranks: str = ""
    suits: int = 4
    target: int = 66
    marriage_points: int = 20
    nine_points: int = 0
    hand_size: int = 6
    deal_pattern: str = "N3 D3 N3 D3 T"
    next_dealer: str = "winner_of_deal"
    trick_winner_rule: str = "standard"
    exchange_rank: str = "9"
    exchange_timing: str = "leader_before_lead"
    exchange_requires_trick_won: bool = True
    exchange_min_talon: int = 2
    exchange_on_opponent_close: bool = True
    marriage_on_first_lead: bool = True
    marriage_in_strict_phase: bool = False
    marriage_on_closing_turn: bool = True
    marriage_lead_card: str = "either"
    marriage_points_validation: str = "any_trick"
    claim_after_marriage: bool = True
    closing_allowed: bool = True
    close_on_first_lead: bool = True
    close_min_talon: int = 2
    close_before_draw: bool = True
    last_trick_bonus: int = 10
    exhausted_no_claim_rule: str = "higher_total_wins"
    draw_bonus_next_deal: int = 0
    strict_must_follow: bool = True
    strict_must_head: bool = True
    strict_must_trump: bool = True
    claim_mode: str = "automatic"
    false_claim_penalty: str = "fixed_2"
    game_point_scale: str = "standard"
    schwarz_basis: str = "no_tricks"
    closer_win_basis: str = "at_end"
    opponent_out_after_close: str = "as_failed_close"
    failed_close_penalty: str = "two_or_three_by_tricks_at_close"
    match_target: int | None = 7
    match_shutout_double: bool = False

    def __post_init__(self) -> None:
        normalize_numbers(self)
        _validate(self)

    @property
    def talon_size(self) -> int:
        """Cards in the talon after the deal, the face-up trump card included."""
        return self.deck - 2 * self.hand_size

    @property
    def deck_ranks(self) -> str:
        """The ranks in play, low to high: ``ranks``, or those of the pack ``deck``."""
        return self.ranks or (PACK_RANKS if self.deck == 24 else PACK_RANKS[1:])

    @property
    def deck_cards(self) -> list[int]:
        """Indices of the cards in play, ascending."""
        rank_indices = [RANKS.index(rank) for rank in self.deck_ranks]
        return [card_index(suit, rank) for suit in range(self.suits) for rank in rank_indices]

    @property
    def max_total(self) -> int:
        """The most one player's total can reach: every card, the last-trick bonus and
        every marriage (the trump one counting double)."""
        ranks = self.deck_ranks
        points = [self.nine_points if r == "9" else RANK_POINTS[RANKS.index(r)] for r in ranks]
        cards = self.suits * sum(points)
        marriages = (self.suits + 1) * self.marriage_points if "Q" in ranks and "K" in ranks else 0
        return cards + self.last_trick_bonus + marriages

    @property
    def max_game_points(self) -> int:
        """The most game points one deal can score: 6 for a czech failed close, else 3."""
        return 6 if self.failed_close_penalty == "czech_6_or_3" else 3


OPTION_NAMES = tuple(field.name for field in dataclasses.fields(RuleSet))

_SCHNAPSEN = dict(
    deck=20,
    hand_size=5,
    deal_pattern="N3 D3 T N2 D2",
    next_dealer="alternate",
    exchange_rank="J",
    exchange_requires_trick_won=False,
    exchange_on_opponent_close=False,
    marriage_in_strict_phase=True,
    close_before_draw=False,
    last_trick_bonus=0,
    exhausted_no_claim_rule="last_trick_winner",
    false_claim_penalty="two_or_three",
    closer_win_basis="at_close",
)

#: Each preset as its differences from the ``sixty_six`` defaults (docs/rules.md 12.1).
PRESETS: dict[str, dict] = {
    "sixty_six": {},
    "hatvanhat": dict(
        nine_points=1,
        hand_size=5,
        deal_pattern="N3 D3 T N2 D2",
        exchange_requires_trick_won=False,
        exchange_on_opponent_close=False,
        marriage_on_closing_turn=False,
        close_before_draw=False,
        exhausted_no_claim_rule="no_score",
        schwarz_basis="zero_points",
    ),
    "snapszer": dict(
        _SCHNAPSEN,
        exchange_min_talon=4,
        strict_must_head=False,
        failed_close_penalty="always_3",
    ),
    "schnapsen": _SCHNAPSEN,
    "czech": dict(
        deal_pattern="N3 D3 T N3 D3",
        exchange_requires_trick_won=False,
        exchange_on_opponent_close=False,
        marriage_on_closing_turn=False,
        strict_must_head=False,
        game_point_scale="czech",
        failed_close_penalty="czech_6_or_3",
    ),
    "slovak": dict(
        deal_pattern="3 x (N2 D2) T",
        trick_winner_rule="value_open_phase",
        marriage_on_first_lead=False,
        marriage_lead_card="queen",
        exchange_on_opponent_close=False,
        strict_must_head=False,
        exhausted_no_claim_rule="last_trick_winner",
    ),
    "vu_schnapsen": dict(
        deck=20,
        hand_size=5,
        deal_pattern="alternate singles; trump = last card",
        exchange_rank="J",
        exchange_requires_trick_won=False,
        marriage_in_strict_phase=True,
        marriage_lead_card="king",
        marriage_points_validation="next_trick_after_declaration",
        claim_after_marriage=False,
        closing_allowed=False,
        last_trick_bonus=0,
        exhausted_no_claim_rule="last_trick_winner",
        schwarz_basis="zero_points",
        match_target=None,
    ),
}


#: Reduced-deck presets for exact game theory (docs/mini_presets.md): ``schnapsen`` on a
#: few ranks and suits, with target and marriages scaled to the deck's card points.
MINI_PRESETS: dict[str, dict] = {
    "mini_2x3": dict(
        _SCHNAPSEN,
        ranks="JQK",
        suits=2,
        deck=6,
        hand_size=2,
        deal_pattern="N2 D2 T",
        target=10,
        marriage_points=3,
    ),
    "mini_2x4": dict(
        _SCHNAPSEN,
        ranks="JQKA",
        suits=2,
        deck=8,
        hand_size=3,
        deal_pattern="N3 D3 T",
        target=22,
        marriage_points=7,
    ),
    "mini_2x4_long": dict(
        _SCHNAPSEN,
        ranks="JQKA",
        suits=2,
        deck=8,
        hand_size=2,
        deal_pattern="N2 D2 T",
        target=22,
        marriage_points=7,
    ),
}


def make_rules(preset: str = "sixty_six", **overrides) -> RuleSet:
    """The rule set of a named preset (``PRESETS`` or ``MINI_PRESETS``) with option overrides."""
    options = PRESETS.get(preset, MINI_PRESETS.get(preset)) if isinstance(preset, str) else None
    if options is None:
        raise ValueError(
            f"unknown preset {preset!r}: valid presets are {', '.join(PRESETS)}; "
            f"mini presets are {', '.join(MINI_PRESETS)}; for three and four players "
            f"{', '.join(TABLE_PRESETS)}, and their minis {', '.join(TABLE_MINI_PRESETS)}"
        )
    _check_option_names(overrides)
    return RuleSet(**{**options, **overrides})


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


def _check_option_names(options: dict) -> None:
    unknown = [name for name in options if name not in OPTION_NAMES]
    if unknown:
        raise ValueError(
            f"unknown rule option {unknown[0]!r}: valid options are {', '.join(OPTION_NAMES)}"
        )


def _validate(rules: RuleSet) -> None:
    _validate_deck(rules)
    for name, valid in CHOICES.items():
        if name == "deck" and rules.ranks:
            continue  # checked against ranks and suits by _validate_deck
        value = getattr(rules, name)
        if value not in valid or isinstance(value, bool) != isinstance(valid[0], bool):
            raise ValueError(
                f"invalid value {value!r} for rule option {name!r}: valid values are "
                f"{', '.join(repr(v) for v in valid)}"
            )
    for name in BOOL_OPTIONS:
        if not isinstance(getattr(rules, name), bool):
            raise ValueError(
                f"invalid value {getattr(rules, name)!r} for rule option {name!r}: "
                "valid values are True, False"
            )
    if rules.deal_pattern not in DEAL_PATTERNS:
        raise ValueError(
            f"invalid value {rules.deal_pattern!r} for rule option 'deal_pattern': "
            f"valid values are {', '.join(repr(p) for p in DEAL_PATTERNS)}"
        )
    target = rules.match_target
    if target is not None and (not is_integer(target) or target < 1):
        raise ValueError(
            f"invalid value {target!r} for rule option 'match_target': "
            "valid values are a positive integer or None (single deals)"
        )
    for name, least in (("target", 1), ("marriage_points", 0)):
        value = getattr(rules, name)
        if not is_integer(value) or value < least:
            raise ValueError(
                f"invalid value {value!r} for rule option {name!r}: "
                f"valid values are integers >= {least}"
            )
    if "9" not in rules.deck_ranks:
        for name, used, instead in (
            ("nine_points", rules.nine_points != 0, "nine_points=0"),
            ("exchange_rank", rules.exchange_rank == "9", "exchange_rank='J'"),
        ):
            if not used:
                continue
            if rules.ranks:
                why = f"nines, but ranks {rules.ranks!r} have none (add '9' or set {instead})"
            else:
                why = f"nines, but deck={rules.deck} has none (set deck=24 or {instead})"
            raise ValueError(f"invalid rules: {name}={getattr(rules, name)!r} needs {why}")
    if rules.exchange_rank not in rules.deck_ranks:
        raise ValueError(
            f"invalid rules: exchange_rank={rules.exchange_rank!r} needs that rank in the deck, "
            f"but ranks {rules.ranks!r} have none; the exchange rank must be one of the ranks "
            "in play ('9' or 'J')"
        )
    dealt = _pattern_hand_sizes(rules.deal_pattern, rules.hand_size)
    if dealt != rules.hand_size:
        raise ValueError(
            f"invalid rules: deal_pattern {rules.deal_pattern!r} deals {dealt} cards per hand "
            f"but hand_size is {rules.hand_size}"
        )
    if not 2 <= rules.talon_size <= 16 or rules.talon_size % 2:
        raise ValueError(
            f"invalid rules: deck={rules.deck} with hand_size={rules.hand_size} leaves a talon "
            f"of {rules.talon_size} cards; the talon (deck - 2 * hand_size) must hold an even "
            "number of cards from 2 to 16 (cards are drawn in pairs)"
        )


def _validate_deck(rules: RuleSet) -> None:
    """``ranks`` and ``suits``, and ``deck`` against them when ranks are given."""
    ranks = rules.ranks
    if not isinstance(ranks, str) or (
        ranks and (len(ranks) < 2 or "".join(r for r in PACK_RANKS if r in ranks) != ranks)
    ):
        raise ValueError(
            f"invalid value {ranks!r} for rule option 'ranks': valid values are '' (the pack "
            f"of deck=24 or deck=20) or at least 2 of the ranks {PACK_RANKS!r}, each once, in that "
            "order (e.g. 'JQK')"
        )
    suits = rules.suits
    if not is_integer(suits) or suits not in CHOICES["suits"]:
        return  # the CHOICES check names it
    if not ranks:
        if suits != 4:
            raise ValueError(
                f"invalid rules: suits={suits} needs ranks (the packs of deck=24 and deck=20 "
                "have 4 suits); set ranks, e.g. ranks='JQK'"
            )
        return
    cards = suits * len(ranks)
    if not is_integer(rules.deck) or rules.deck != cards:
        raise ValueError(
            f"invalid rules: deck={rules.deck!r} but ranks {ranks!r} in {suits} suits make "
            f"{cards} cards; set deck={cards}"
        )


def _pattern_hand_sizes(pattern: str, hand_size: int) -> int:
    """Cards the pattern deals to each hand (alternating singles deal ``hand_size``)."""
    if pattern.startswith("alternate"):
        return hand_size
    return sum(count for who, count in _pattern_steps(pattern) if who == "N")


def _pattern_steps(pattern: str) -> list[tuple[str, int]]:
    """A batch pattern as steps like ``("N", 3)``, ``("T", 1)``."""
    if pattern == "3 x (N2 D2) T":
        return [("N", 2), ("D", 2)] * 3 + [("T", 1)]
    return [(token[0], int(token[1:] or 1)) for token in pattern.split()]


#: The options of a two-player match rather than of a deal (``table_rules_of`` leaves
#: them at the N-player defaults).
_MATCH_OPTIONS = ("next_dealer", "match_target", "match_shutout_double", "draw_bonus_next_deal")


def table_rules_of(rules: RuleSet) -> TableRules:
    """The same deal rules for the N-player engine: two seats, each for himself, with the
    two-player options of ``multi_rules.TWO_PLAYER_OPTIONS``."""
    if rules.deal_pattern.startswith("alternate"):  # singles, the pack's last card face up
        pattern = " ".join(["P1"] * rules.hand_size + ["TL"])
    else:  # each "Nk Dk" pair deals k cards to both seats, non-dealer first: "Pk"
        steps = _pattern_steps(rules.deal_pattern)
        pattern = " ".join("T" if who == "T" else f"P{count}" for who, count in steps if who != "D")
    deal_options = {
        name: getattr(rules, name)
        for name in OPTION_NAMES
        if name not in (*_MATCH_OPTIONS, "deal_pattern", "nine_points")
    }
    return TableRules(
        num_players=2,
        sides="none",
        deal_pattern=pattern,
        open_phase_rule="free",
        low_card_points=rules.nine_points,
        match_scoring="individual",
        **deal_options,
    )


def compile_rules(rules: RuleSet) -> np.ndarray:
    """The record the kernels read (``multi_rules.TABLE_RULES_DTYPE``): the two-player
    game runs on the same kernels as the games for more seats."""
    return compile_table_rules(table_rules_of(rules))
