"""The multi-player engine over many random deals of every preset and option mix
(docs/rules.md "Three and four players"): every deal ends, cards are conserved, the
following rules hold, and the scores agree with the reason. Also the refused rule
combinations and the errors of bad input."""

from __future__ import annotations

import random

import pytest

import sixtysix
from sixtysix.engine import multi_core as mc
from sixtysix.engine.cards import RANK_POINTS, RANKS, card_name, mask_to_names
from sixtysix.engine.multi_rules import TABLE_MINI_PRESETS, TABLE_PRESETS
from sixtysix.table_game import TableGame

PRESETS = [*TABLE_PRESETS, *TABLE_MINI_PRESETS]
OPTION_MIXES = [
    ("snapszer3", dict(announcements="durchmars")),
    ("snapszer3", dict(claim_mode="manual", loser_basis="per_opponent")),
    (
        "snapszer3",
        dict(claim_mode="optional_verified", low_card_points=1, closer_win_basis="at_end"),
    ),
    ("snapszer3", dict(failed_close_penalty="two_or_three_by_tricks_at_close", exchange_rank="9")),
    ("snapszer3_called", dict(announcements="durchmars", claim_mode="manual")),
    ("snapszer3_called", dict(call_own_card=False, call_timing="first_batch")),
    ("snapszer3_called", dict(claims_before_reveal=True, marriage_validation_scope="own")),
    ("snapszer4", dict(announcements="durchmars_betli")),
    (
        "snapszer4",
        dict(announcements="durchmars_betli", betli_partner="plays", betli_must_head=True),
    ),
    ("snapszer4", dict(announcements="durchmars_betli", betli_ranking="normal")),
    ("snapszer4", dict(marriage_declarers="leader_and_partner", claim_mode="manual")),
    ("snapszer4", dict(strict_must_head=True, must_overtrump=True, low_card_points=1)),
    ("snapszer4", dict(trump_duty="if_winning", exchange_rank="lowest", last_trick_bonus=10)),
    ("snapszer4_called", dict(announcements="durchmars_betli")),
    ("snapszer4_called", dict(announcements="durchmars", claim_mode="optional_verified")),
    ("na66", dict(all_pass="redeal", defender_units=True)),
    ("na66_3", dict(defender_units=True)),
    ("mini4_4x3", dict(announcements="durchmars_betli", betli_partner="plays")),
    ("mini3_3x3", dict(claim_mode="manual")),
]
SCALE_REASONS = ("claim", "closer_claim")
FIXED_POINTS = {"durchmars_made": 6, "durchmars_failed": 6, "betli_made": 5, "betli_failed": 5}


def card_points(game: TableGame, card: str) -> int:
    """A card's points under ``game``'s rules (from the notation, not from the engine)."""
    if card[0] in "789":
        return game.rules.low_card_points
    return RANK_POINTS[RANKS.index(card[0])]


def check_follow(state) -> None:
    """Legal plays of a follower (not in betli): in the strict phase, a card of the led
    suit if he has one, else a trump if he has one and must trump (docs/rules.md)."""
    rules = state.game.rules
    seat = state.current_player
    hand = state.hands[seat]
    plays = [action.split()[1] for action in state.legal_actions()]
    assert set(plays) <= set(hand) and plays
    led = state.trick[0][1][1]
    strict = rules.open_phase_rule == "strict" or not state.talon or state.closed_by is not None
    if not strict:
        assert sorted(plays) == sorted(hand)
        return
    same = [card for card in hand if card[1] == led]
    trumps = [card for card in hand if card[1] == state.trump_suit]
    if same:
        assert all(card[1] == led for card in plays), (hand, plays, state.trick)
    elif trumps and rules.strict_must_trump and rules.trump_duty == "always":
        assert all(card[1] == state.trump_suit for card in plays), (hand, plays, state.trick)


def check_conserved(state) -> None:
    """Every card of the pack is in exactly one place: a hand, the talon, a trick won or
    the table."""
    places = [*state.hands, state.talon, *state.won_cards, [card for _, card in state.trick]]
    cards = [card for place in places for card in place]
    assert sorted(cards) == sorted(card_name(card) for card in state.game.deck_cards)


def check_outcome(state) -> None:
    """Scores agree with the reason: the winning seats score alike, the rest nothing."""
    rules = state.game.rules
    seats, reason, scores = state.outcome
    assert reason == state.reason and scores == state.scores
    if reason == "redeal":
        assert scores == (0,) * state.num_players and not seats
        return
    if reason.startswith(("contract", "moon")):
        return
    assert seats and all(scores[s] == scores[seats[0]] for s in seats)
    assert all(scores[s] == 0 for s in range(state.num_players) if s not in seats)
    points = scores[seats[0]]
    if reason in FIXED_POINTS:
        assert points == FIXED_POINTS[reason]
    elif reason == "last_trick":
        assert points == 1
    elif reason in SCALE_REASONS and not rules.loser_basis == "per_opponent":
        assert points in (1, 2, 3)
        assert sum(state.card_points[s] for s in seats) >= rules.target
    else:
        assert points in (1, 2, 3, 4, 5, 6)


def check_knowledge(state) -> None:
    """The record's public knowledge of each hand: shown cards are in it, excluded ones are
    not, and the exclusions are those the state logged since the seat's last hidden draw
    (but for cards he received in public since: the face-up card, an exchange)."""
    record = state.array[0]
    face_up = int(state.game.rule_array[0]["face_up_position"])
    played = int(record["trick_cards"])
    last_draw = [0] * state.num_players
    for seat in range(state.num_players):
        played |= int(record["won"][seat])
    for position, receipt in enumerate(state.receipts):
        if receipt is not None and position != face_up:
            last_draw[receipt[0]] = max(last_draw[receipt[0]], receipt[1])
    public = [0] * state.num_players  # cards each seat took or showed in public
    suits = mc.A_MELD - mc.A_MARRY_CLAIM
    for seat, action in state.history_ids:
        suit = None
        if mc.A_MARRY <= action < mc.A_CALL:  # a marriage with its lead
            suit = mc.suit_of(action - mc.A_MARRY)
        elif action >= mc.A_MARRY_CLAIM:  # a marry-claim or a meld
            suit = (action - mc.A_MARRY_CLAIM) % suits
        if suit is not None:
            public[seat] |= mc.MARRIAGE_PAIR << (suit * mc.RANKS_PER_SUIT)
        elif action in (mc.A_EXCHANGE, mc.A_EXCHANGE_ON_CLOSE):
            public[seat] |= 1 << int(state.deck[face_up])
    if face_up >= 0 and state.receipts[face_up] is not None:
        bottom = int(record["talon"][int(record["talon_end"]) - 1])
        public[state.receipts[face_up][0]] |= 1 << bottom
    for seat in range(state.num_players):
        hand = int(record["hand"][seat])
        excluded = int(record["excluded"][seat])
        assert int(record["shown"][seat]) == public[seat] & hand
        assert excluded & hand == 0
        logged = 0
        for who, when, mask in state.exclusions:
            if who == seat and when >= last_draw[seat]:
                logged |= mask
        assert excluded & ~played == logged & ~hand & ~played


def play_random(game: TableGame, seed: int):
    """A deal of ``game`` from ``seed`` played with random legal actions, checked at every
    step."""
    state = game.new_deal(seed=seed)
    rng = random.Random(seed)
    for _ in range(200):
        if state.is_terminal:
            break
        check_conserved(state)
        check_knowledge(state)
        if state.phase == "follow" and state.trump_suit is not None:  # not betli
            check_follow(state)
        state.apply(rng.choice(state.legal_actions()))
    assert state.is_terminal
    check_outcome(state)
    return state


@pytest.mark.parametrize("preset", PRESETS)
def test_random_deals_of_every_preset_end_conserve_cards_and_score_by_reason(preset):
    game = sixtysix.Game(preset)
    assert isinstance(game, TableGame)
    for seed in range(150):
        play_random(game, seed)


@pytest.mark.parametrize(("preset", "options"), OPTION_MIXES)
def test_random_deals_of_option_mixes(preset, options):
    game = sixtysix.Game(preset, **options)
    for seed in range(150):
        play_random(game, seed)


def test_trick_points_add_up_to_the_pack_when_every_card_is_played():
    game = sixtysix.Game("snapszer3", low_card_points=1)
    pack = mask_to_names(sum(1 << card for card in game.deck_cards))
    total = sum(card_points(game, card) for card in pack)
    assert total == 124
    checked = 0
    for seed in range(300):
        state = play_random(game, seed)
        if state.reason == "last_trick":  # every card played (a closed talon holds dead cards)
            won = sum(card_points(game, c) for cards in state.won_cards for c in cards)
            assert won == total
            checked += 1
    assert checked > 5


@pytest.mark.parametrize(
    ("preset", "options", "named"),
    [
        ("snapszer3", dict(deck=20), "hand_size"),  # talon 5 for 3 players (RULES_MULTI 12.16)
        ("snapszer3", dict(sides="fixed_opposite"), "sides"),
        ("snapszer4", dict(trump_source="called_card"), "trump_source"),
        ("snapszer3_called", dict(closing_allowed=True), "closing_allowed"),
        ("snapszer4", dict(loser_basis="per_opponent"), "loser_basis"),
        ("snapszer3", dict(marriage_declarers="leader_and_partner"), "marriage_declarers"),
        ("snapszer3", dict(announcements="durchmars_betli"), "announcements"),
        ("mini4_4x3", dict(announcements="durchmars_betli"), "betli_partner"),
        ("na66", dict(claim_mode="automatic"), "claim_mode"),
        ("snapszer4", dict(claim_mode="none"), "claim_mode"),
        ("na66", dict(announcements="durchmars"), "announcements"),
        ("mini3_3x3", dict(low_card_points=1), "low_card_points"),
        ("snapszer4", dict(deal_pattern="P3 P2"), "deal_pattern"),
        ("snapszer4", dict(hand_size=6), "deal_pattern"),
        ("snapszer4", dict(open_phase_rule="loose"), "open_phase_rule"),
        ("snapszer4", dict(must_overtrump="yes"), "must_overtrump"),
        ("snapszer4", dict(bid_levels=4), "bid_levels"),
        ("mini3_3x3", dict(exchange_rank="9"), "exchange_rank"),
    ],
)
def test_invalid_rule_combinations_are_refused_naming_the_option(preset, options, named):
    with pytest.raises(ValueError, match=named):
        sixtysix.Game(preset, **options)


def test_unknown_presets_and_options_name_the_valid_ones():
    with pytest.raises(ValueError, match="snapszer4"):
        sixtysix.Game("snapszer5")
    with pytest.raises(ValueError, match="unknown rule option 'partner'.*valid options"):
        sixtysix.Game("snapszer4", partner=True)
    assert sixtysix.Game("snapszer4", nine_points=1).rules.low_card_points == 1


def test_bad_decks_are_refused_naming_the_card():
    game = sixtysix.Game("snapszer3")
    deck = sixtysix.Game("snapszer4").new_deal(seed=1).deck
    with pytest.raises(ValueError, match="not in the 24-card pack"):
        game.new_deal(deck=[card_name(c) for c in deck], dealer=0)
    cards = [card_name(c) for c in game.deck_cards]
    with pytest.raises(ValueError, match="twice"):
        game.new_deal(deck=[cards[0], *cards[:-1]], dealer=0)
    with pytest.raises(ValueError, match="missing AS"):
        game.new_deal(deck=cards[:-1], dealer=0)
    with pytest.raises(ValueError, match="dealer"):
        game.new_deal(deck=cards, dealer=3)


def test_an_illegal_action_names_the_seat_to_move_and_changes_nothing():
    state = sixtysix.Game("snapszer4_called").new_deal(seed=3)
    before = state.clone()
    with pytest.raises(sixtysix.IllegalActionError, match="seat .* is to move"):
        state.apply("play QH")
    with pytest.raises(sixtysix.IllegalActionError, match="unknown action 'call XX'"):
        state.apply("call XX")
    with pytest.raises(sixtysix.IllegalActionError, match="unknown action"):
        state.apply("bid 6")
    assert state.hands == before.hands and state.history == [] and state.phase == "call"
    assert state.trump_suit is None and state.scores is None and state.reason is None


def test_the_same_seed_gives_the_same_deal_and_clones_are_independent():
    game = sixtysix.Game("snapszer3")
    first, second = game.new_deal(seed=11), game.new_deal(seed=11)
    assert first.hands == second.hands and first.talon == second.talon
    copy = first.clone()
    first.apply(first.legal_actions()[0])
    assert copy.history == [] and copy.hands == second.hands


@pytest.mark.parametrize("strict_marriages", [False, True])
def test_a_partners_meld_point_follows_the_marriage_phase_rule(strict_marriages):
    """The leader's partner is offered a meld (M12) only where a leader could marry: with
    the talon closed, only under ``marriage_in_strict_phase`` (found by the reference)."""
    game = sixtysix.Game(
        "mini4_4x3",
        marriage_declarers="leader_and_partner",
        marriage_in_strict_phase=strict_marriages,
    )
    deck = ["QC", "QD", "JC", "QH", "KS", "QS", "JS", "KD", "JH", "KC", "KH", "JD"]
    state = game.new_deal(deck=deck, dealer=3)
    state.apply("close")
    state.apply("play QC")  # seat 2, the leader's partner, holds KS QS
    if strict_marriages:
        assert (state.current_player, state.legal_actions()) == (2, ["meld S", "pass"])
    else:
        assert (state.current_player, state.legal_actions()) == (1, ["play JC"])
