"""Presets, option overrides, deal patterns and match play, against docs/rules.md.

* Every preset holds exactly the option values of docs/rules.md section 12 / 12.1,
  with the binding decisions (``claim_mode = automatic`` everywhere, the
  ``hatvanhat`` trick rule ``standard``) and R-A10 ("n/a" cells take the
  ``sixty_six`` value).
* Overrides change just the option named and the behaviour follows it.
* Deal patterns map a known deck to hands, talon order and trump suit as
  docs/rules.md 2.2 and R-A9 say, for both dealers.
* ``Match``: scores accumulate, the next dealer follows ``next_dealer``, deals
  without a winner keep the dealer under ``winner_of_deal``, the match ends at
  ``match_target``, ``vu_schnapsen`` refuses a match.
"""

from __future__ import annotations

import random

import pytest
from conftest import deck_of, finish_randomly

import sixtysix

PRESET_NAMES = (
    "sixty_six",
    "hatvanhat",
    "snapszer",
    "schnapsen",
    "czech",
    "slovak",
    "vu_schnapsen",
)

# ---- docs/rules.md section 12 / 12.1, written out cell by cell -----------------------------------

SIXTY_SIX = dict(
    deck=24,
    ranks="",  # the reduced-deck options (docs/mini_presets.md) keep the docs/rules.md values
    suits=4,
    target=66,
    marriage_points=20,
    nine_points=0,
    hand_size=6,
    deal_pattern="N3 D3 N3 D3 T",
    next_dealer="winner_of_deal",
    trick_winner_rule="standard",
    exchange_rank="9",
    exchange_timing="leader_before_lead",
    exchange_requires_trick_won=True,
    exchange_min_talon=2,
    exchange_on_opponent_close=True,
    marriage_on_first_lead=True,
    marriage_in_strict_phase=False,
    marriage_on_closing_turn=True,
    marriage_lead_card="either",
    marriage_points_validation="any_trick",
    claim_after_marriage=True,
    closing_allowed=True,
    close_on_first_lead=True,
    close_min_talon=2,
    close_before_draw=True,
    last_trick_bonus=10,
    exhausted_no_claim_rule="higher_total_wins",
    draw_bonus_next_deal=0,
    strict_must_follow=True,
    strict_must_head=True,
    strict_must_trump=True,
    claim_mode="automatic",  # binding decision 1 (the table's column says manual)
    false_claim_penalty="fixed_2",
    game_point_scale="standard",
    schwarz_basis="no_tricks",
    closer_win_basis="at_end",
    opponent_out_after_close="as_failed_close",
    failed_close_penalty="two_or_three_by_tricks_at_close",
    match_target=7,
    match_shutout_double=False,
)

HATVANHAT = dict(
    SIXTY_SIX,
    nine_points=1,
    hand_size=5,
    deal_pattern="N3 D3 T N2 D2",
    trick_winner_rule="standard",  # binding decision 2 (S0 literal would be value_always)
    exchange_requires_trick_won=False,
    exchange_on_opponent_close=False,
    marriage_on_closing_turn=False,
    close_before_draw=False,
    exhausted_no_claim_rule="no_score",
    schwarz_basis="zero_points",
)

SCHNAPSEN = dict(
    SIXTY_SIX,
    deck=20,
    nine_points=0,  # n/a -> sixty_six value (R-A10)
    hand_size=5,
    deal_pattern="N3 D3 T N2 D2",
    next_dealer="alternate",
    exchange_rank="J",
    exchange_requires_trick_won=False,
    exchange_on_opponent_close=False,
    marriage_in_strict_phase=True,
    marriage_on_closing_turn=True,
    close_before_draw=False,
    last_trick_bonus=0,
    exhausted_no_claim_rule="last_trick_winner",
    draw_bonus_next_deal=0,  # n/a
    false_claim_penalty="two_or_three",
    closer_win_basis="at_close",
)

VU_SCHNAPSEN = dict(
    SIXTY_SIX,
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
    # n/a cells take the sixty_six values (R-A10): next_dealer, nine_points,
    # exchange_on_opponent_close, marriage_on_closing_turn, close_on_first_lead,
    # close_min_talon, close_before_draw, draw_bonus_next_deal, false_claim_penalty,
    # closer_win_basis, opponent_out_after_close, failed_close_penalty, match_shutout_double
)

SNAPSZER = dict(
    SCHNAPSEN,
    exchange_min_talon=4,
    strict_must_head=False,
    failed_close_penalty="always_3",
    closer_win_basis="at_close",
    exhausted_no_claim_rule="last_trick_winner",
)

CZECH = dict(
    SIXTY_SIX,
    deal_pattern="N3 D3 T N3 D3",
    exchange_requires_trick_won=False,
    exchange_on_opponent_close=False,
    marriage_on_closing_turn=False,
    strict_must_head=False,
    game_point_scale="czech",
    failed_close_penalty="czech_6_or_3",
)

SLOVAK = dict(
    SIXTY_SIX,
    deal_pattern="3 x (N2 D2) T",
    trick_winner_rule="value_open_phase",
    marriage_on_first_lead=False,
    marriage_lead_card="queen",
    exchange_requires_trick_won=True,
    exchange_on_opponent_close=False,
    strict_must_head=False,
    exhausted_no_claim_rule="last_trick_winner",
)

EXPECTED_PRESETS = {
    "sixty_six": SIXTY_SIX,
    "hatvanhat": HATVANHAT,
    "snapszer": SNAPSZER,
    "schnapsen": SCHNAPSEN,
    "czech": CZECH,
    "slovak": SLOVAK,
    "vu_schnapsen": VU_SCHNAPSEN,
}


def rules_dict(game) -> dict:
    return {name: getattr(game.rules, name) for name in sixtysix.OPTION_NAMES}


def test_the_preset_list():
    assert set(sixtysix.PRESETS) == set(PRESET_NAMES)
    assert set(sixtysix.OPTION_NAMES) == set(SIXTY_SIX)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_values_match_rules_md(preset):
    actual = rules_dict(sixtysix.Game(preset))
    expected = EXPECTED_PRESETS[preset]
    wrong = {
        name: (actual[name], expected[name]) for name in expected if actual[name] != expected[name]
    }
    assert not wrong, f"{preset}: option (engine, docs/rules.md): {wrong}"
    for name, value in expected.items():
        assert type(actual[name]) is type(value), (name, actual[name], value)


def test_default_game_is_sixty_six():
    assert rules_dict(sixtysix.Game()) == SIXTY_SIX


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_binding_decisions(preset):
    rules = sixtysix.Game(preset).rules
    assert rules.claim_mode == "automatic"
    if preset == "hatvanhat":
        assert rules.trick_winner_rule == "standard"
    if preset == "slovak":
        assert rules.trick_winner_rule == "value_open_phase"


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("mode", ["manual", "optional_verified", "automatic"])
def test_claim_mode_override_on_every_preset(preset, mode):
    game = sixtysix.Game(preset, claim_mode=mode)
    expected = dict(EXPECTED_PRESETS[preset], claim_mode=mode)
    assert rules_dict(game) == expected


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("sixty_six", dict(nine_points=1, last_trick_bonus=0)),
        ("hatvanhat", dict(trick_winner_rule="value_always")),
        ("schnapsen", dict(close_min_talon=4, exchange_min_talon=4, match_target=11)),
        ("vu_schnapsen", dict(closing_allowed=True, claim_after_marriage=True)),
        ("czech", dict(game_point_scale="standard", match_shutout_double=True)),
        ("slovak", dict(marriage_lead_card="either", next_dealer="alternate")),
    ],
)
def test_overrides_change_only_the_named_options(preset, overrides):
    game = sixtysix.Game(preset, **overrides)
    assert rules_dict(game) == dict(EXPECTED_PRESETS[preset], **overrides)
    # the preset itself is not modified by an override
    assert rules_dict(sixtysix.Game(preset)) == EXPECTED_PRESETS[preset]


# ---- deal patterns (docs/rules.md 2.2, R-A9) -----------------------------------------------------

PATTERN_POSITIONS = {
    # (non-dealer, dealer, trump card, first talon position); the talon runs to the end
    "N3 D3 N3 D3 T": ([0, 1, 2, 6, 7, 8], [3, 4, 5, 9, 10, 11], 12, 13),
    "N3 D3 T N2 D2": ([0, 1, 2, 7, 8], [3, 4, 5, 9, 10], 6, 11),
    "N3 D3 T N3 D3": ([0, 1, 2, 7, 8, 9], [3, 4, 5, 10, 11, 12], 6, 13),
    "3 x (N2 D2) T": ([0, 1, 4, 5, 8, 9], [2, 3, 6, 7, 10, 11], 12, 13),
}


def expected_deal(game, deck):
    """(non-dealer hand, dealer hand, talon top first with the trump card last, trump suit)."""
    rules = game.rules
    if rules.deal_pattern == "alternate singles; trump = last card":
        non_dealer = [deck[i] for i in range(0, 10, 2)]
        dealer = [deck[i] for i in range(1, 10, 2)]
        return non_dealer, dealer, deck[10:], deck[-1][1]
    n_pos, d_pos, trump, talon_from = PATTERN_POSITIONS[rules.deal_pattern]
    return (
        [deck[i] for i in n_pos],
        [deck[i] for i in d_pos],
        deck[talon_from:] + [deck[trump]],
        deck[trump][1],
    )


def shuffled_deck(game, seed):
    deck = deck_of(game)
    random.Random(seed).shuffle(deck)
    return deck


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_deal_pattern(preset, dealer, seed):
    game = sixtysix.Game(preset)
    deck = shuffled_deck(game, seed)
    state = game.new_deal(deck=deck, dealer=dealer)
    non_dealer_hand, dealer_hand, talon, trump = expected_deal(game, deck)
    assert state.hands[1 - dealer] == sorted(non_dealer_hand)
    assert state.hands[dealer] == sorted(dealer_hand)
    assert state.talon == talon
    assert state.trump_suit == trump
    assert state.trump_card == talon[-1]
    assert state.current_player == 1 - dealer  # the non-dealer leads trick 1
    assert state.dealer == dealer
    rules = game.rules
    assert len(state.hands[0]) == len(state.hands[1]) == rules.hand_size
    assert len(state.talon) == rules.deck - 2 * rules.hand_size


def test_deal_pattern_literal_sixty_six():
    game = sixtysix.Game("sixty_six")
    deck = deck_of(game)  # 9C JC QC KC TC AC 9D JD QD KD TD AD 9H ... AS
    state = game.new_deal(deck=deck, dealer=0)
    assert state.hands[1] == sorted(["9C", "JC", "QC", "9D", "JD", "QD"])
    assert state.hands[0] == sorted(["KC", "TC", "AC", "KD", "TD", "AD"])
    assert state.trump_suit == "H"
    assert state.talon == ["JH", "QH", "KH", "TH", "AH", "9S", "JS", "QS", "KS", "TS", "AS", "9H"]


def test_deal_pattern_literal_hatvanhat_and_schnapsen():
    game = sixtysix.Game("hatvanhat")
    deck = deck_of(game)
    state = game.new_deal(deck=deck, dealer=1)
    assert state.hands[0] == sorted(["9C", "JC", "QC", "JD", "QD"])
    assert state.hands[1] == sorted(["KC", "TC", "AC", "KD", "TD"])
    assert state.trump_suit == "D" and state.talon[-1] == "9D" and len(state.talon) == 14
    assert state.talon[0] == "AD"
    game = sixtysix.Game("schnapsen")
    deck = deck_of(game)  # JC QC KC TC AC JD QD KD TD AD JH ...
    state = game.new_deal(deck=deck, dealer=0)
    assert state.hands[1] == sorted(["JC", "QC", "KC", "KD", "TD"])
    assert state.hands[0] == sorted(["TC", "AC", "JD", "AD", "JH"])
    assert state.trump_suit == "D" and state.talon == deck[11:] + ["QD"]


def test_deal_pattern_literal_czech_and_slovak():
    game = sixtysix.Game("czech")
    deck = deck_of(game)
    state = game.new_deal(deck=deck, dealer=0)
    assert state.hands[1] == sorted(["9C", "JC", "QC", "JD", "QD", "KD"])
    assert state.hands[0] == sorted(["KC", "TC", "AC", "TD", "AD", "9H"])
    assert state.trump_suit == "D" and state.talon == deck[13:] + ["9D"]
    game = sixtysix.Game("slovak")
    state = game.new_deal(deck=deck, dealer=0)
    assert state.hands[1] == sorted(["9C", "JC", "TC", "AC", "QD", "KD"])
    assert state.hands[0] == sorted(["QC", "KC", "9D", "JD", "TD", "AD"])
    assert state.trump_suit == "H" and state.talon == deck[13:] + ["9H"]


def test_deal_pattern_vu_schnapsen_dealer_1():
    """Appendix B: player 0 (bot1, first leader) gets positions 0, 2, 4, 6, 8."""
    game = sixtysix.Game("vu_schnapsen")
    deck = shuffled_deck(game, 20240)
    state = game.new_deal(deck=deck, dealer=1)
    assert state.current_player == 0
    assert state.hands[0] == sorted(deck[i] for i in (0, 2, 4, 6, 8))
    assert state.hands[1] == sorted(deck[i] for i in (1, 3, 5, 7, 9))
    assert state.talon == deck[10:20]
    assert state.trump_suit == deck[19][1]


# ---- behaviour of overrides ---------------------------------------------------------------------


def arrange(game, dealer, non_dealer_cards=(), dealer_cards=(), trump_card=None, talon_top=()):
    """A deck giving the named cards to the named places (other cards fill in in deck order)."""
    rules = game.rules
    deck = deck_of(game)
    size = rules.deck
    if rules.deal_pattern == "alternate singles; trump = last card":
        n_pos, d_pos, trump_pos, talon_from = (
            list(range(0, 10, 2)),
            list(range(1, 10, 2)),
            size - 1,
            10,
        )
    else:
        n_pos, d_pos, trump_pos, talon_from = PATTERN_POSITIONS[rules.deal_pattern]
    slots: list[str | None] = [None] * size
    for positions, cards in ((n_pos, non_dealer_cards), (d_pos, dealer_cards)):
        for position, card in zip(positions, cards, strict=False):
            slots[position] = card
    if trump_card is not None:
        slots[trump_pos] = trump_card
    for position, card in zip(range(talon_from, size), talon_top, strict=False):
        slots[position] = card
    used = {card for card in slots if card}
    rest = iter(card for card in deck if card not in used)
    return [card if card else next(rest) for card in slots]


def play_first_trick(state):
    """Lead the leader's first card, follow with the follower's first legal card."""
    state.apply(next(a for a in state.legal_actions() if a.startswith("play")))
    state.apply(state.legal_actions()[0])
    return state


def test_schnapsen_manual_offers_claim_after_a_trick():
    game = sixtysix.Game("schnapsen", claim_mode="manual")
    state = play_first_trick(game.new_deal(seed=1))
    assert "claim" in state.legal_actions()
    # the shipped preset (automatic) never offers it
    auto = play_first_trick(sixtysix.Game("schnapsen").new_deal(seed=1))
    assert "claim" not in auto.legal_actions()
    # a claim with few points is false: two_or_three penalty to the opponent
    claimer = state.current_player
    totals = state.card_points
    assert totals[claimer] < 66
    state.apply("claim")
    winner, points, reason = state.outcome
    assert (winner, reason) == (1 - claimer, "false_claim")
    assert points == (3 if state.tricks_won[1 - claimer] == 0 else 2)


def test_sixty_six_manual_pre_draw_point_offers_claim_close_draw():
    """R-A1: after trick 1 the winner may claim, close before drawing, or draw."""
    game = sixtysix.Game("sixty_six", claim_mode="manual")
    state = play_first_trick(game.new_deal(seed=4))
    assert state.legal_actions() == ["claim", "close", "draw"]
    assert len(state.hands[0]) == len(state.hands[1]) == 5
    state.apply("draw")
    assert len(state.hands[0]) == len(state.hands[1]) == 6
    assert "claim" in state.legal_actions()  # L0 claim at the start of the turn


def test_optional_verified_offers_no_false_claim():
    game = sixtysix.Game("sixty_six", claim_mode="optional_verified")
    state = play_first_trick(game.new_deal(seed=4))
    assert state.legal_actions() == ["close", "draw"]


def test_vu_schnapsen_manual_reenables_claims_with_sixty_six_defaults():
    """R-A10: n/a cells take the sixty_six values, so a false claim costs fixed_2."""
    game = sixtysix.Game("vu_schnapsen", claim_mode="manual")
    state = play_first_trick(game.new_deal(seed=2))
    assert "claim" in state.legal_actions() and "close" not in state.legal_actions()
    claimer = state.current_player
    state.apply("claim")
    assert state.outcome == (1 - claimer, 2, "false_claim")


def test_close_before_draw_override():
    game = sixtysix.Game("sixty_six", close_before_draw=False)
    state = play_first_trick(game.new_deal(seed=4))
    assert "draw" not in state.legal_actions()
    assert len(state.hands[0]) == len(state.hands[1]) == 6
    default = play_first_trick(sixtysix.Game("sixty_six").new_deal(seed=4))
    assert default.legal_actions() == ["close", "draw"]


def test_closing_allowed_override():
    game = sixtysix.Game("sixty_six", closing_allowed=False)
    state = game.new_deal(seed=4)
    assert "close" not in state.legal_actions()
    play_first_trick(state)
    assert "close" not in state.legal_actions() and "draw" not in state.legal_actions()
    assert "close" in sixtysix.Game("sixty_six").new_deal(seed=4).legal_actions()


def test_exchange_requires_trick_won_override():
    deck_game = sixtysix.Game("sixty_six")
    # non-dealer (player 1) holds the trump nine 9S; the face-up card is AS
    deck = arrange(
        deck_game, 0, non_dealer_cards=["9S", "JC", "QC", "KC", "TC", "AC"], trump_card="AS"
    )
    state = deck_game.new_deal(deck=deck, dealer=0)
    assert state.trump_suit == "S" and "exchange" not in state.legal_actions()
    game = sixtysix.Game("sixty_six", exchange_requires_trick_won=False)
    state = game.new_deal(deck=deck, dealer=0)
    assert "exchange" in state.legal_actions()
    state.apply("exchange")
    assert "AS" in state.hands[1] and "9S" not in state.hands[1] and state.talon[-1] == "9S"
    assert state.current_player == 1


@pytest.mark.parametrize(
    ("preset", "overrides", "expected"),
    [
        ("sixty_six", {}, ["marry KC", "marry QC"]),
        ("sixty_six", {"marriage_lead_card": "king"}, ["marry KC"]),
        ("sixty_six", {"marriage_lead_card": "queen"}, ["marry QC"]),
        ("sixty_six", {"marriage_on_first_lead": False}, []),
        ("slovak", {}, []),  # no marriage before a trick is won
        ("slovak", {"marriage_on_first_lead": True}, ["marry QC"]),
        ("vu_schnapsen", {}, ["marry KC"]),
        ("schnapsen", {}, ["marry KC", "marry QC"]),
    ],
)
def test_marriage_options_on_the_first_lead(preset, overrides, expected):
    game = sixtysix.Game(preset, **overrides)
    hand = ["KC", "QC", "JD", "TD", "TS", "JS"]  # one marriage only, in every deck
    deck = arrange(game, 0, non_dealer_cards=hand, trump_card="AH")
    state = game.new_deal(deck=deck, dealer=0)
    assert state.trump_suit == "H"
    marriages = [a for a in state.legal_actions() if a.startswith("marry ")]
    assert marriages == expected


@pytest.mark.parametrize(
    ("preset", "overrides", "follower_wins"),
    [
        ("hatvanhat", {}, False),  # binding decision 2: standard
        ("hatvanhat", {"trick_winner_rule": "value_always"}, True),
        ("sixty_six", {}, False),
        ("sixty_six", {"trick_winner_rule": "value_open_phase"}, True),
        ("slovak", {}, True),  # S3: ♣Q can be taken by ♥K while the talon is open
        ("slovak", {"trick_winner_rule": "standard"}, False),
    ],
)
def test_trick_winner_rule_option(preset, overrides, follower_wins):
    game = sixtysix.Game(preset, **overrides)
    # trump spades; the non-dealer (player 1) leads QC, the dealer answers KH
    deck = arrange(game, 0, non_dealer_cards=["QC"], dealer_cards=["KH"], trump_card="AS")
    state = game.new_deal(deck=deck, dealer=0)
    assert state.trump_suit == "S"
    state.apply("play QC")
    state.apply("play KH")
    assert state.tricks_won == ((1, 0) if follower_wins else (0, 1))


def test_value_open_phase_is_strict_after_a_close():
    """R-A17: a trick led right after a close is a strict (standard) trick."""
    game = sixtysix.Game("slovak")
    # trump spades; the dealer (player 0) has no clubs and no trumps
    deck = arrange(
        game,
        0,
        non_dealer_cards=["QC", "9C", "JC", "KC", "TC", "AC"],
        dealer_cards=["KH", "9D", "JD", "TD", "AD", "9H"],
        trump_card="AS",
    )
    state = game.new_deal(deck=deck, dealer=0)
    assert state.hands[0] == ["9D", "9H", "AD", "JD", "KH", "TD"]
    state.apply("close")
    state.apply("play QC")
    assert state.legal_actions() == sorted(f"play {c}" for c in state.hands[0])
    state.apply("play KH")
    assert state.tricks_won == (0, 1)  # standard: the led club wins
    # while the talon is open the same trick goes to the king
    open_state = game.new_deal(deck=deck, dealer=0)
    open_state.apply("play QC")
    open_state.apply("play KH")
    assert open_state.tricks_won == (1, 0)


# ---- match play ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset", ["sixty_six", "hatvanhat", "snapszer", "schnapsen", "czech", "slovak"]
)
@pytest.mark.parametrize("seed", [1, 2])
def test_match_play(preset, seed):
    game = sixtysix.Game(preset)
    match = sixtysix.Match(game, seed)
    rng = random.Random(seed)
    target = game.rules.match_target
    scores = [0, 0]
    deals = 0
    while not match.is_over:
        assert match.winner is None and match.match_points == 0
        dealer = match.dealer
        state = match.new_deal()
        assert state.dealer == dealer and state.current_player == 1 - dealer
        finish_randomly(state, rng)
        match.record(state)
        deals += 1
        winner, points, _ = state.outcome
        if winner is not None:
            scores[winner] += points
        assert match.scores == scores
        if game.rules.next_dealer == "alternate":
            assert match.dealer == 1 - dealer
        elif winner is None:
            assert match.dealer == dealer  # a draw keeps the dealer
        else:
            assert match.dealer == winner  # the winner deals the next deal
        assert deals < 100
    assert max(scores) >= target and match.winner == scores.index(max(scores))
    assert min(scores) < target  # the match stopped as soon as the target was reached
    assert len(match.deals) == deals
    with pytest.raises(ValueError):
        match.new_deal()


def test_match_is_reproducible():
    def run(seed):
        match = sixtysix.Match(sixtysix.Game("schnapsen"), seed)
        rng = random.Random(0)
        histories = []
        while not match.is_over:
            state = finish_randomly(match.new_deal(), rng)
            match.record(state)
            histories.append((state.hands, tuple(state.history), state.outcome))
        return histories, match.scores

    assert run(42) == run(42)
    assert run(42) != run(43)


def test_match_target_override():
    game = sixtysix.Game("sixty_six", match_target=2)
    match = sixtysix.Match(game, 5)
    rng = random.Random(5)
    while not match.is_over:
        match.record(finish_randomly(match.new_deal(), rng))
    assert max(match.scores) >= 2 and min(match.scores) < 2
    assert sum(deal.outcome[0] is not None for deal in match.deals) <= 3


def test_vu_schnapsen_refuses_a_match():
    with pytest.raises(ValueError, match="match"):
        sixtysix.Match(sixtysix.Game("vu_schnapsen"), 1)
    # with a match target it is allowed
    match = sixtysix.Match(sixtysix.Game("vu_schnapsen", match_target=7), 1)
    assert match.new_deal().game.preset == "vu_schnapsen"


def never_claim_deal(game, seed, dealer):
    """A deal where nobody closes, claims or melds: it runs to the end of the cards (E3)."""
    state = game.new_deal(seed=seed, dealer=dealer)
    rng = random.Random(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        if "draw" in legal:
            state.apply("draw")
        elif legal == ["claim", "pass"]:
            state.apply("pass")
        else:
            state.apply(rng.choice([a for a in legal if a.startswith("play")]))
    return state


def find_deal(game, dealer, reason, tries=5000):
    for seed in range(tries):
        state = never_claim_deal(game, seed, dealer)
        if state.outcome[2] == reason:
            return state
    raise AssertionError(f"no {reason} deal found")


def test_deal_without_winner_keeps_the_dealer_under_winner_of_deal():
    game = sixtysix.Game("hatvanhat", claim_mode="manual")
    match = sixtysix.Match(game, 3)
    for _ in range(3):
        dealer = match.dealer
        state = never_claim_deal(game, 7, dealer)
        assert state.outcome == (None, 0, "no_score")
        match.record(state)
        assert match.dealer == dealer and match.scores == [0, 0]


def test_draw_keeps_the_dealer_and_draw_bonus():
    game = sixtysix.Game("sixty_six", claim_mode="manual", draw_bonus_next_deal=1)
    match = sixtysix.Match(game, 8)
    dealer = match.dealer
    draw = find_deal(game, dealer, "draw")
    assert draw.outcome == (None, 0, "draw") and draw.card_points == (65, 65)
    match.record(draw)
    assert match.dealer == dealer and match.scores == [0, 0]
    # draw_bonus_next_deal: the next deal's winner scores one more
    win = find_deal(game, dealer, "higher_total")
    winner, points, _ = win.outcome
    match.record(win)
    expected = [0, 0]
    expected[winner] = points + 1
    assert match.scores == expected and match.dealer == winner


def test_draw_without_bonus_option_scores_nothing_extra():
    game = sixtysix.Game("sixty_six", claim_mode="manual")
    match = sixtysix.Match(game, 8)
    match.record(find_deal(game, match.dealer, "draw"))
    win = find_deal(game, match.dealer, "higher_total")
    match.record(win)
    winner, points, _ = win.outcome
    assert match.scores[winner] == points and match.scores[1 - winner] == 0


def test_alternate_dealer_also_after_a_deal_without_winner():
    game = sixtysix.Game("schnapsen", claim_mode="manual", exhausted_no_claim_rule="no_score")
    match = sixtysix.Match(game, 3)
    for _ in range(3):
        dealer = match.dealer
        state = never_claim_deal(game, 11, dealer)
        assert state.outcome == (None, 0, "no_score")
        match.record(state)
        assert match.dealer == 1 - dealer


def test_match_shutout_double():
    for double in (False, True):
        game = sixtysix.Game("sixty_six", match_target=1, match_shutout_double=double)
        match = sixtysix.Match(game, 9)
        rng = random.Random(9)
        while not match.is_over:
            match.record(finish_randomly(match.new_deal(), rng))
        assert min(match.scores) == 0
        assert match.match_points == (2 if double else 1)
