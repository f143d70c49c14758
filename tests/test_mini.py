"""Reduced decks and the mini presets (docs/mini_presets.md).

* The options ``ranks``, ``suits``, ``target`` and ``marriage_points``: validation
  (every error names the value and the valid ones), and that setting them to the
  docs/rules.md values changes nothing (same compiled rules, same play).
* Constructed deals on each mini preset (``dealer=1``, so N, who leads trick 1,
  is player 0): marriages, the trump exchange and the close at the first lead,
  claims at ``target``, the schneider threshold ``target // 2``, the last trick
  when nobody reaches the target, and that an odd talon is refused.
* Random play of thousands of deals: legal, terminal, cards and points
  conserved, the outcome scored as docs/rules.md 10 says with scaled thresholds.
* The solver against test_solver's exhaustive minimax on every position of
  whole mini deals; views and worlds of mini deals with the checks of
  test_view and test_worlds.
"""

from __future__ import annotations

import collections
import functools
import itertools
import random

import numpy as np
import pytest
from conftest import finished_deal, game_of
from numba import njit
from test_solver import (
    POLICIES,
    Position,
    check_position,
    kinds,
    minimax,
    play,
    record_value_bounds,
)
from test_view import check_views_under_swaps, make_deck
from test_worlds import canonical_truth, check_world, identity, random_deal_states

import sixtysix
from sixtysix import view
from sixtysix.commands import cli
from sixtysix.engine import multi_core
from sixtysix.engine.cards import RANK_POINTS, RANKS_PER_SUIT, card_name, mask_to_cards, parse_card

N, D = 0, 1
MINI = tuple(sixtysix.MINI_PRESETS)
ONE_DRAW = ("mini_2x3", "mini_2x4")  # the talon allows one draw: closing only at the first lead
SCALED = {  # preset: (deck, card points, target, marriage points, schneider, talon)
    "mini_2x3": (6, 18, 10, 3, 5, 2),
    "mini_2x4": (8, 40, 22, 7, 11, 2),
    "mini_2x4_long": (8, 40, 22, 7, 11, 4),
}


def arrange(preset, n=(), d=(), face_up=None, talon_top=(), **options) -> sixtysix.State:
    """A deal (dealer 1) giving N and D the named cards, the face-up card and the talon top;
    the other cards, in card order, fill N's hand, then D's, then the talon."""
    game = game_of(preset, **options)
    named = {*n, *d, face_up, *talon_top}
    spare = [card_name(c) for c in game.deck_cards if card_name(c) not in named]
    hands = [list(n), list(d)]
    for hand in hands:
        while len(hand) < game.rules.hand_size:
            hand.append(spare.pop(0))
    state = game.new_deal(deck=make_deck(game, D, hands, face_up, talon_top), dealer=D)
    assert state.hands == (sorted(hands[N]), sorted(hands[D])) and state.trump_card == face_up
    return state


def run(state: sixtysix.State, actions: str) -> sixtysix.State:
    """Apply ``|``-separated actions."""
    for action in actions.split("|"):
        state.apply(action.strip())
    return state


def card_points_of(mask: int) -> int:
    return sum(RANK_POINTS[card % RANKS_PER_SUIT] for card in mask_to_cards(mask))


# ---- the options ---------------------------------------------------------------------------

INVALID = [
    # (preset, overrides, words the message must hold)
    ("sixty_six", dict(ranks="JQX"), ["'JQX'", "ranks", "'9JQKTA'"]),
    ("sixty_six", dict(ranks="KQ"), ["'KQ'", "ranks", "in that order"]),
    ("sixty_six", dict(ranks="JJQ"), ["'JJQ'", "ranks", "each once"]),
    ("sixty_six", dict(ranks="J"), ["'J'", "ranks", "at least 2"]),
    ("sixty_six", dict(ranks=7), ["7", "ranks", "''"]),
    ("mini_2x3", dict(suits=1), ["1", "suits", "2, 3, 4"]),
    ("mini_2x3", dict(suits=5), ["5", "suits", "2, 3, 4"]),
    ("mini_2x3", dict(suits=True), ["True", "suits", "2, 3, 4"]),
    ("mini_2x3", dict(suits="2"), ["'2'", "suits", "2, 3, 4"]),
    ("sixty_six", dict(suits=3), ["suits=3", "ranks"]),
    ("sixty_six", dict(ranks="JQK", suits=3, deck=6), ["deck=6", "'JQK'", "9 cards", "deck=9"]),
    ("mini_2x3", dict(deck=9), ["deck=9", "'JQK'", "2 suits", "6 cards", "deck=6"]),
    ("mini_2x4", dict(suits=3), ["deck=8", "12 cards", "deck=12"]),
    (
        "mini_2x3",
        dict(suits=3, deck=9, hand_size=3, deal_pattern="N3 D3 T"),
        ["talon", "3 cards", "even"],
    ),
    ("mini_2x3", dict(deck="6"), ["deck='6'", "deck=6"]),
    ("sixty_six", dict(deck=9), ["9", "deck", "24, 20"]),
    ("sixty_six", dict(target=0), ["0", "target", "integers >= 1"]),
    ("sixty_six", dict(target=-66), ["-66", "target", "integers >= 1"]),
    ("sixty_six", dict(target=65.5), ["65.5", "target", "integers >= 1"]),
    ("sixty_six", dict(target="66"), ["'66'", "target", "integers >= 1"]),
    ("sixty_six", dict(target=True), ["True", "target", "integers >= 1"]),
    ("sixty_six", dict(marriage_points=-1), ["-1", "marriage_points", "integers >= 0"]),
    ("sixty_six", dict(marriage_points=2.5), ["2.5", "marriage_points", "integers >= 0"]),
    ("sixty_six", dict(marriage_points=None), ["None", "marriage_points", "integers >= 0"]),
    ("mini_2x3", dict(hand_size=4), ["4", "hand_size", "2, 3, 5, 6"]),
    ("mini_2x3", dict(deal_pattern="N4 D4 T"), ["'N4 D4 T'", "'N2 D2 T'", "'N3 D3 T'"]),
    # no nines in the deck: no nine points, no nine exchange
    ("mini_2x3", dict(nine_points=1), ["nine_points=1", "'JQK'", "nine"]),
    ("mini_2x4", dict(exchange_rank="9"), ["exchange_rank='9'", "'JQKA'", "exchange_rank='J'"]),
    ("schnapsen", dict(nine_points=1), ["nine_points=1", "deck=24"]),
    ("mini_2x3", dict(ranks="QKA", deck=6), ["exchange_rank='J'", "'QKA'", "'9' or 'J'"]),
    # the talon must hold 2 to 16 cards, and the pattern must deal hand_size cards
    ("sixty_six", dict(hand_size=2, deal_pattern="N2 D2 T"), ["talon of 20", "2 to 16"]),
    ("sixty_six", dict(hand_size=3, deal_pattern="N3 D3 T"), ["talon of 18", "2 to 16"]),
    ("mini_2x3", dict(hand_size=3, deal_pattern="N3 D3 T"), ["talon of 0", "2 to 16"]),
    ("mini_2x4", dict(ranks="JQK", deck=6), ["talon of 0", "2 to 16"]),
    ("mini_2x3", dict(deal_pattern="N3 D3 T"), ["deal_pattern", "deals 3", "hand_size is 2"]),
    ("mini_2x4", dict(hand_size=2), ["deal_pattern", "deals 3", "hand_size is 2"]),
]


@pytest.mark.parametrize(("preset", "overrides", "words"), INVALID)
def test_invalid_options_are_value_errors_naming_value_and_valid_ones(preset, overrides, words):
    with pytest.raises(ValueError) as info:
        sixtysix.Game(preset, **overrides)
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)


def test_valid_reduced_decks():
    game = sixtysix.Game(
        "sixty_six", ranks="9JQKTA", suits=3, deck=18, hand_size=5, deal_pattern="N3 D3 T N2 D2"
    )
    assert [card_name(c) for c in game.deck_cards] == [r + s for s in "CDH" for r in "9JQKTA"]
    assert len(game.new_deal(seed=1).talon) == 8
    game = sixtysix.Game(
        "schnapsen",
        ranks="JQKTA",
        suits=2,
        deck=10,
        hand_size=3,
        deal_pattern="alternate singles; trump = last card",
    )
    assert [card_name(c) for c in game.deck_cards] == [r + s for s in "CD" for r in "JQKTA"]
    state = game.new_deal(seed=4)
    assert len(state.talon) == 4 and all(len(hand) == 3 for hand in state.hands)


def test_unknown_preset_lists_both_kinds():
    with pytest.raises(ValueError) as info:
        sixtysix.Game("mini_4x4")
    message = str(info.value)
    assert "'mini_4x4'" in message
    for name in (*sixtysix.PRESETS, *sixtysix.MINI_PRESETS):
        assert name in message


def test_mini_presets_are_apart_from_the_rules_md_ones():
    assert set(sixtysix.MINI_PRESETS) == set(SCALED)
    assert not set(sixtysix.MINI_PRESETS) & set(sixtysix.PRESETS)


@pytest.mark.parametrize("preset", MINI)
def test_mini_presets_are_schnapsen_on_a_scaled_deck(preset):
    deck, points, target, marriage, _, talon = SCALED[preset]
    rules = sixtysix.Game(preset).rules
    schnapsen = sixtysix.Game("schnapsen").rules
    differing = {
        name for name in sixtysix.OPTION_NAMES if getattr(rules, name) != getattr(schnapsen, name)
    }
    assert differing == {
        "ranks",
        "suits",
        "deck",
        "hand_size",
        "deal_pattern",
        "target",
        "marriage_points",
    }
    game = sixtysix.Game(preset)
    assert len(game.deck_cards) == rules.deck == deck and rules.talon_size == talon
    assert sum(RANK_POINTS[card % RANKS_PER_SUIT] for card in game.deck_cards) == points
    assert (rules.target, rules.marriage_points) == (target, marriage)
    compiled = game.rule_array[0]
    assert (compiled["target"], compiled["marriage_points"]) == (target, marriage)
    assert compiled["deck_mask"] == sum(1 << card for card in game.deck_cards)


@pytest.mark.parametrize("preset", sixtysix.PRESETS)
def test_rules_md_values_of_the_new_options_change_nothing(preset):
    plain = sixtysix.Game(preset)
    rules = plain.rules
    spelled = sixtysix.Game(
        preset, ranks=rules.deck_ranks, suits=4, target=66, marriage_points=20
    )  # different RuleSet (ranks given), same game
    assert spelled.rules != plain.rules
    assert spelled.rule_array.tobytes() == plain.rule_array.tobytes()
    assert multi_core.random_playouts(spelled.rule_array, 20_000, 5) == multi_core.random_playouts(
        plain.rule_array, 20_000, 5
    )
    for seed in range(40):
        a, b = finished_deal(plain, seed), finished_deal(spelled, seed)
        assert (a.history, a.outcome, a.card_points) == (b.history, b.outcome, b.card_points)


def test_target_and_marriage_points_on_a_rules_md_preset():
    """sixty_six with marriages of 10/20 and a target of 50: claims come at 50."""
    game = sixtysix.Game("sixty_six", target=50, marriage_points=10)
    state = game.new_deal(seed=1)
    rng = random.Random(1)
    while not any(action.startswith("marry") for action in state.legal_actions()):
        state = game.new_deal(seed=rng.randrange(10**6))
    marriage = next(action for action in state.legal_actions() if action.startswith("marry"))
    suit = marriage[-1]
    state.apply(marriage)
    assert state.array[0]["marriage"][state.leader] == (20 if suit == state.trump_suit else 10)
    below_66 = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            assert max(state.card_points) < 50  # automatic claims: at 50 the deal ends
            state.apply(rng.choice(state.legal_actions()))
        winner, _, reason = state.outcome
        if reason == "claim":
            assert state.card_points[winner] >= 50
            below_66 += state.card_points[winner] < 66
    assert below_66 >= 3


# ---- scaled scoring thresholds -------------------------------------------------------------


@njit(cache=True)
def _scale_points(rules_array, loser_total, loser_tricks):
    return multi_core.scale(rules_array[0], loser_total, loser_tricks)


@njit(cache=True)
def _failed_close_points(state_array, rules_array):
    return multi_core.failed_close_points(state_array[0], rules_array[0])


@pytest.mark.parametrize("preset", (*MINI, "sixty_six"))
def test_schneider_threshold_is_half_the_target(preset):
    rules = game_of(preset).rule_array
    target = int(rules[0]["target"])
    schneider = target // 2
    assert _scale_points(rules, 0, 0) == 3  # schwarz: no trick
    assert _scale_points(rules, schneider - 1, 1) == 2
    assert _scale_points(rules, schneider, 1) == 1
    assert _scale_points(rules, target - 1, 3) == 1


@pytest.mark.parametrize("preset", (*MINI, "czech"))
def test_czech_scale_steps_are_thirds_of_the_target(preset):
    rules = game_of(preset, game_point_scale="czech").rule_array
    target = int(rules[0]["target"])
    low, high = target // 3, 2 * target // 3
    assert (low, high) == {10: (3, 6), 22: (7, 14), 66: (22, 44)}[target]
    points = [_scale_points(rules, total, 1) for total in (low, low + 1, high, high + 1)]
    assert points == [3, 2, 2, 1]


@pytest.mark.parametrize("preset", MINI)
def test_failed_close_by_closer_points_uses_half_the_target(preset):
    game = game_of(preset, failed_close_penalty="by_closer_points")
    state = game.new_deal(seed=1)
    record = state.array[0]
    record["closed_by"] = 0
    record["snap_tricks"][1] = 1  # the non-closer's
    schneider = game.rules.target // 2
    for points, expected in ((schneider - 1, 2), (schneider, 1)):
        record["points"][0] = points
        assert _failed_close_points(state.array, game.rule_array) == expected


# ---- constructed deals: every feature on every mini preset -----------------------------------


@pytest.mark.parametrize("preset", MINI)
def test_marriages_at_the_first_lead(preset):
    marriage = SCALED[preset][3]
    state = arrange(preset, n=["QD", "KD"], face_up="JC")  # clubs are trumps
    assert {"marry QD", "marry KD"} <= set(state.legal_actions())
    state.apply("marry KD")
    assert state.array[0]["marriage"][N] == marriage
    assert state.pending_marriage_points == (marriage, 0)  # no trick won yet
    assert state.led_card == "KD"
    assert int(state.array[0]["shown"][N]) == 1 << parse_card("QD")  # the partner is known
    state = arrange(preset, n=["QC", "KC"], face_up="JC")
    state.apply("marry QC")
    assert state.array[0]["marriage"][N] == 2 * marriage  # the trump marriage


@pytest.mark.parametrize("preset", ONE_DRAW)
def test_trump_exchange_at_the_first_lead(preset):
    state = arrange(preset, n=["JC"], face_up="KC")
    assert "exchange" in state.legal_actions()
    state.apply("exchange")
    assert "KC" in state.hands[N] and "JC" not in state.hands[N]
    assert state.talon[-1] == "JC" and state.trump_card == "JC"
    assert int(state.array[0]["shown"][N]) == 1 << parse_card("KC")  # the face-up card
    assert "exchange" not in state.legal_actions()  # once: N no longer holds JC
    # After the first trick the talon holds fewer than 2 cards: no exchange any more.
    state = arrange(preset, n=["QD"], d=["JC", "KD"], face_up="KC")
    run(state, "play QD|play KD")  # D wins and leads trick 2, holding JC
    assert state.current_player == D and "JC" in state.hands[D] and len(state.talon) < 2
    assert "exchange" not in state.legal_actions()


@pytest.mark.parametrize("preset", MINI)
def test_close_at_the_first_lead_makes_the_play_strict(preset):
    open_deal = arrange(preset, n=["JC"], d=["QC", "JD"], face_up="KD")  # diamonds trumps
    assert "close" in open_deal.legal_actions()
    run(open_deal, "play JC")
    assert {"play QC", "play JD"} <= set(open_deal.legal_actions())  # open: anything goes
    closed = arrange(preset, n=["JC"], d=["QC", "JD"], face_up="KD")
    run(closed, "close|play JC")
    assert closed.closed_by == N and closed.trump_card is None
    assert closed.legal_actions() == ["play QC"]  # must head the led suit


@pytest.mark.parametrize("preset", ONE_DRAW)
def test_close_only_at_the_first_lead(preset):
    state = arrange(preset, n=["KC"], d=["JC"], face_up="KD")
    run(state, "play KC|play JC")  # N wins and leads trick 2
    assert state.current_player == N and "close" not in state.legal_actions()


def test_mini_2x4_long_closes_and_exchanges_at_two_leads():
    """The talon of 4 allows two draws: closing and the exchange at the first two leads."""
    state = arrange("mini_2x4_long", n=["KC", "QD"], d=["JC", "JD"], face_up="AD")
    assert {"close", "play KC"} <= set(state.legal_actions())
    run(state, "play KC|play JC")  # N wins trick 1 (no trump led), draws; talon 4 -> 2
    assert state.current_player == N and len(state.talon) == 2
    assert "close" in state.legal_actions()
    state = arrange("mini_2x4_long", n=["QD", "KC"], d=["JD", "AC"], face_up="KD")
    run(state, "play KC|play AC")  # D wins trick 1, holding the jack of trumps JD
    assert state.current_player == D and {"exchange", "close"} <= set(state.legal_actions())
    run(state, "exchange")
    assert "KD" in state.hands[D] and state.trump_card == "JD"


# ---- constructed deals: mini_2x3 scoring -----------------------------------------------------
# mini_2x3: J 2, Q 3, K 4 of clubs and diamonds (18 points); target 10, marriages 3 and 6,
# schneider below 5; three tricks.


def test_mini_2x3_marriage_counts_after_a_trick_won():
    # diamonds trumps. T1: N marries KC (3) and leads it, D JC -> N 6 + 3 = 9 (< 10).
    state = arrange("mini_2x3", n=["QC", "KC"], d=["JC", "JD"], face_up="QD", talon_top=["KD"])
    run(state, "marry KC")
    assert state.card_points == (0, 0) and state.pending_marriage_points == (3, 0)
    run(state, "play JC")
    assert state.card_points == (9, 0) and state.pending_marriage_points == (0, 0)
    # N drew KD, D the face-up QD. T2: N QC, D must trump: JD -> D 5.
    # T3: D QD, N must follow KD -> N 16: a claim; D has 5 = schneider, so 1 game point.
    assert state.hands == (["KD", "QC"], ["JD", "QD"]) and not state.talon
    run(state, "play QC")
    assert state.legal_actions() == ["play JD", "play QD"]
    run(state, "play JD|play QD|play KD")
    assert state.card_points == (16, 5) and state.outcome == (N, 1, "claim")


def test_mini_2x3_trump_marriage_reaches_the_target_at_once():
    # T1: N marries QD (trumps: 6) and leads it, D KC -> N 7 + 6 = 13: claim, D schwarz (3).
    state = arrange("mini_2x3", n=["QD", "KD"], d=["QC", "KC"], face_up="JD", talon_top=["JC"])
    run(state, "marry QD|play KC")
    assert state.card_points == (13, 0) and state.outcome == (N, 3, "claim")


@pytest.mark.parametrize(
    ("n", "d", "lead", "loser_total", "game_points"),
    [
        # T1: N leads, D trumps with JD and wins; D draws QD, N the face-up KD.
        # T2: D leads his club, N heads with KC; T3: N KD, D QD -> N 14 or 13.
        (["JC", "KC"], ["JD", "QC"], "play JC", 4, 2),  # D 4 < 5: schneider, 2
        (["QC", "KC"], ["JD", "JC"], "play QC", 5, 1),  # D 5 = 10 // 2: 1
    ],
)
def test_mini_2x3_schneider_threshold(n, d, lead, loser_total, game_points):
    state = arrange("mini_2x3", n=n, d=d, face_up="KD", talon_top=["QD"])
    run(state, f"{lead}|play JD")
    assert state.card_points == (0, loser_total) and state.current_player == D
    run(state, f"play {next(c for c in state.hands[D] if c.endswith('C'))}|play KC|play KD")
    assert state.legal_actions() == ["play QD"]
    run(state, "play QD")
    assert state.card_points[D] == loser_total and state.card_points[N] >= 10
    assert state.outcome == (N, game_points, "claim")


def test_mini_2x3_close_that_reaches_the_target():
    # N closes, marries QD (trumps, 6) and leads it; D has no diamond and no trump: KC.
    # N 7 + 6 = 13: the closer goes out; D had no trick at the close: 3.
    state = arrange("mini_2x3", n=["QD", "KD"], d=["QC", "KC"], face_up="JD", talon_top=["JC"])
    run(state, "close|marry QD")
    assert state.legal_actions() == ["play KC", "play QC"]
    run(state, "play KC")
    assert state.card_points == (13, 0) and state.outcome == (N, 3, "closer_claim")


def test_mini_2x3_failed_closes():
    # D heads JC with KC (6), leads KD; N has no diamond and no trump: QC -> D 13, out.
    state = arrange("mini_2x3", n=["JC", "QC"], d=["KC", "KD"], face_up="QD", talon_top=["JD"])
    run(state, "close|play JC")
    assert state.legal_actions() == ["play KC"]
    run(state, "play KC|play KD|play QC")
    assert state.card_points == (0, 13)
    assert state.outcome == (D, 3, "opponent_claim_after_close")
    # N takes KC/QC (7), D trumps JC with JD (4): the cards run out, N short of 10.
    state = arrange("mini_2x3", n=["JC", "KC"], d=["QC", "JD"], face_up="KD", talon_top=["QD"])
    run(state, "close|play KC|play QC|play JC|play JD")
    assert state.card_points == (7, 4) and state.outcome == (D, 3, "failed_close")


def test_mini_2x3_has_no_last_trick_outcome():
    """Three tricks: whoever wins two holds 4 of the 6 cards, at least 10 points."""
    low = sorted(RANK_POINTS[card % RANKS_PER_SUIT] for card in game_of("mini_2x3").deck_cards)
    assert sum(low[:4]) >= SCALED["mini_2x3"][2]


# ---- constructed deals: the last trick --------------------------------------------------------


def test_mini_2x4_last_trick_when_nobody_reaches_the_target():
    # diamonds trumps. T1: N KD, D JC -> N 6; N draws JD, D the face-up QD.
    # T2: N AC, D KC -> N 21. T3: N QC, D trumps QD -> D 6. T4: D AD, N JD -> D 19.
    state = arrange(
        "mini_2x4", n=["QC", "KD", "AC"], d=["AD", "KC", "JC"], face_up="QD", talon_top=["JD"]
    )
    run(state, "play KD|play JC|play AC|play KC|play QC")
    assert state.legal_actions() == ["play AD", "play QD"]
    run(state, "play QD|play AD|play JD")
    assert state.card_points == (21, 19) and state.outcome == (D, 1, "last_trick")


# ---- random play ---------------------------------------------------------------------------


def check_partition(state: sixtysix.State) -> None:
    """Every card is in exactly one place; credited points are the won cards' points."""
    record = state.array[0]
    top, end = int(record["talon_top"]), int(record["talon_end"])
    places = [int(record["hand"][0]), int(record["hand"][1]), int(record["won"][0])]
    places += [int(record["won"][1]), *(1 << int(c) for c in record["talon"][top:end])]
    if record["led"] >= 0:
        places.append(1 << int(record["led"]))
    deck = sum(1 << card for card in state.game.deck_cards)
    assert sum(places) == deck and functools.reduce(int.__or__, places) == deck
    for player in (0, 1):
        assert record["points"][player] == card_points_of(int(record["won"][player]))


def check_outcome(state: sixtysix.State) -> None:
    """The outcome as docs/rules.md 10 scores it, with thresholds from ``target``."""
    rules = state.game.rules
    record = state.array[0]
    target = rules.target
    winner, points, reason = state.outcome
    totals = state.card_points
    tricks = state.tricks_won

    def scale(total, trick_count):
        return 3 if trick_count == 0 else 2 if total < target // 2 else 1

    closer = state.closed_by
    hands_empty = not state.hands[0] and not state.hands[1]
    if reason == "claim":
        assert closer is None and totals[winner] >= target
        assert points == scale(totals[1 - winner], tricks[1 - winner])
    elif reason == "closer_claim":
        assert winner == closer and totals[winner] >= target
        opponent = 1 - closer
        assert points == scale(
            int(record["snap_total"][opponent]), int(record["snap_tricks"][opponent])
        )
    elif reason in ("opponent_claim_after_close", "failed_close"):
        assert winner == 1 - closer and points == (3 if record["snap_tricks"][winner] == 0 else 2)
        if reason == "failed_close":
            assert hands_empty and max(totals) < target
        else:
            assert totals[winner] >= target
    elif reason == "last_trick":
        assert closer is None and hands_empty and max(totals) < target
        assert winner == int(record["last_winner"]) and points == 1
        # The cards ran out: every card was won.
        assert not state.talon
        won = int(record["won"][0] | record["won"][1])
        assert won == sum(1 << card for card in state.game.deck_cards)
    else:
        raise AssertionError(f"unexpected outcome {state.outcome} under automatic claims")


@pytest.mark.parametrize("preset", MINI)
def test_random_play(preset):
    game = game_of(preset)
    target = game.rules.target
    reasons = collections.Counter()
    actions = collections.Counter()
    for seed in range(2000):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        check_partition(state)
        while not state.is_terminal:
            assert max(state.card_points) < target  # automatic claims: at target the deal ends
            legal = state.legal_actions()
            assert legal and len(legal) == len(state.legal_action_ids())
            hand = state.hands[state.current_player]
            assert all(a.split()[1] in hand for a in legal if a.split()[0] in ("play", "marry"))
            action = rng.choice(legal)
            actions[action.split()[0]] += 1
            state.apply(action)
            check_partition(state)
        check_outcome(state)
        if state.closed_by is not None:  # only at the first lead: the opponent had no trick
            assert state.outcome[1] == 3
        reasons[state.outcome[2]] += 1
    assert {"play", "marry", "exchange", "close"} <= set(actions)
    expected = {"claim", "closer_claim", "opponent_claim_after_close", "failed_close"}
    if preset != "mini_2x3":
        expected.add("last_trick")
    assert set(reasons) == expected, reasons


@pytest.mark.parametrize("preset", MINI)
def test_random_play_with_manual_claims(preset):
    game = game_of(preset, claim_mode="manual")
    target = game.rules.target
    reasons = collections.Counter()
    for seed in range(500):
        state = finished_deal(game, seed)
        winner, _, reason = state.outcome
        reasons[reason] += 1
        if reason in ("claim", "closer_claim", "opponent_claim_after_close"):
            assert state.card_points[winner] >= target
        elif reason in ("false_claim", "closer_false_claim"):
            assert state.card_points[1 - winner] < target
    assert reasons["claim"] and reasons["false_claim"], reasons


# ---- the solver ------------------------------------------------------------------------------

SOLVER_CONFIGS = [(preset, {}) for preset in MINI] + [
    ("mini_2x3", {"claim_mode": "manual"}),
    ("mini_2x4", {"claim_mode": "manual"}),
    ("mini_2x4", {"game_point_scale": "czech", "failed_close_penalty": "czech_6_or_3"}),
    ("mini_2x3", {"failed_close_penalty": "by_closer_points", "closer_win_basis": "at_end"}),
]


@pytest.mark.parametrize(("preset", "options"), SOLVER_CONFIGS)
def test_solver_matches_the_reference_on_whole_mini_deals(preset, options):
    """Every position of 40 deals (the four policies of test_solver), from the deal on;
    the bounds the solver takes from the scaled scoring contain every value."""
    game = game_of(preset, **options)
    found = collections.Counter()
    values = collections.Counter()
    for seed in range(40):
        policy = POLICIES[seed % len(POLICIES)]
        _, positions = play(game, seed, policy)
        for state in positions:
            value, nodes = minimax(state)
            check_position(Position(state, value, nodes, policy, seed))
            low, high = record_value_bounds(state.array, game.rule_array)
            assert low <= value <= high, (low, high, value, seed, state.history)
            found.update(kinds(state))
            values[value] += 1
    wanted = {"close", "marriage", "exchange", "follow", "closed_talon", "exhausted_talon"}
    if options.get("claim_mode") == "manual":
        wanted |= {"claim", "final_claim"}
    assert wanted <= set(found), found
    assert len(values) >= 4, values


def test_solver_refuses_totals_its_table_key_cannot_hold():
    state = sixtysix.Game("sixty_six", marriage_points=26).new_deal(seed=1)  # 120 + 10 + 130
    with pytest.raises(ValueError, match="260 .*marriage_points=26.* 255"):
        sixtysix.solve(state)
    state = sixtysix.Game("mini_2x3", marriage_points=80).new_deal(seed=1)  # 18 + 3 * 80
    with pytest.raises(ValueError, match="258 .*marriage_points=80"):
        sixtysix.solve_actions(state)
    state = sixtysix.Game("mini_2x3", marriage_points=79).new_deal(seed=1)  # 255: fits
    assert sixtysix.solve(state).value == minimax(state)[0]


# ---- views and worlds ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", MINI)
def test_views_of_mini_deals(preset):
    """test_view's truth, leak and invariance checks on every state of 15 deals."""
    swaps, _ = check_views_under_swaps(game_of(preset), 15)
    assert sum(swaps.values()) > 20


@pytest.mark.parametrize(("preset", "worlds_at_deal"), [("mini_2x3", 3), ("mini_2x4", 4)])
def test_worlds_of_mini_deals(preset, worlds_at_deal):
    """Counting agrees with enumeration and the truth is among the worlds, mid-game."""
    game = game_of(preset)
    # At the deal: C(unknown, hand size) hands, times the order of the hidden talon.
    assert game.new_deal(seed=2).view(0).count_worlds() == worlds_at_deal
    checked = collections.Counter()
    for seed, player in itertools.product(range(40), (0, 1)):
        for state in random_deal_states(game, seed):
            if state.is_terminal:
                continue
            v = state.view(player)
            found = v.enumerate_worlds()
            assert len(found) == v.count_worlds() >= 1
            identities = [identity(world.array[0], v) for world in found]
            assert len(set(identities)) == len(found)
            assert canonical_truth(state, v) in identities
            for world in found[:3]:
                check_world(world, v)
            checked["views"] += 1
            checked["closed"] += v.closed_by is not None and v.hidden_talon > 0
            checked["known"] += v.known_opponent != 0
            checked["excluded"] += v.excluded_opponent != 0
            checked["several"] += len(found) > 1
    # (a hidden card the opponent cannot hold needs a closed talon: rare in 2-suit decks)
    least = {"views": 100, "closed": 10, "known": 10, "several": 10, "excluded": 1}
    assert all(checked[kind] >= count for kind, count in least.items()), checked


@pytest.mark.parametrize("preset", MINI)
def test_tensor_totals_are_divided_by_the_target(preset):
    state = arrange(preset, n=["QD", "KD"], d=["JD"], face_up="JC")
    run(state, "marry KD|play JD")  # N wins the trick: 6 points and the marriage count
    layout = view.tensor_layout(state.game)
    offsets = layout.now_offsets
    tensor = state.view(N).tensor()
    assert tensor.shape == (layout.size,)
    target = SCALED[preset][2]
    me, other = state.card_points
    assert me == 6 + SCALED[preset][3]
    totals = tensor[offsets["totals"] : offsets["totals"] + 2]
    assert np.allclose(totals, [me / target, other / target])


def test_rules_text_names_the_mini_preset():
    assert view.rules_text(game_of("mini_2x3").rules) == "mini_2x3"
    text = view.rules_text(game_of("mini_2x4", claim_mode="manual").rules)
    assert text == "mini_2x4 claim_mode='manual'"
    key = game_of("mini_2x3").new_deal(seed=1).view(0).key()
    assert key.splitlines()[0] == "rules mini_2x3"


def test_presets_command_lists_the_mini_presets(capsys):
    assert cli.main(["presets"]) == 0
    *lines, hint = capsys.readouterr().out.splitlines()
    lines = lines[: len(sixtysix.PRESETS) + len(sixtysix.MINI_PRESETS)]  # then the multi-player
    assert [line.split(":")[0] for line in lines] == [*sixtysix.PRESETS, *sixtysix.MINI_PRESETS]
    assert lines[-2].startswith("mini_2x4: deck=8, ranks='JQKA', suits=2, target=22,")
    assert lines[-1].startswith("mini_2x4_long: deck=8, ranks='JQKA', suits=2, target=22,")
    assert hint.startswith("Every value: sixtysix presets NAME")
