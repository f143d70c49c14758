"""The heuristic agent (sixtysix/engine/heuristic.py): a legal action in every decision of every
preset and claim mode, its rules in built positions, its blindness to hidden cards, and
(slow) its strength against uniformly random play.

Built positions use ``dealer=1``, so the non-dealer N, who leads trick 1, is player 0.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import game_of
from numba import njit
from sixtysix.agents import policies, specs

import sixtysix
from sixtysix import agents
from sixtysix.engine import multi_core as mc
from sixtysix.engine import worlds
from sixtysix.engine.bits import nth_set_bit, popcount
from sixtysix.engine.cards import NUM_SUITS, card_name
from sixtysix.engine.heuristic import heuristic_action
from sixtysix.engine.rng import random_below, seed_rng, shuffle_and_cut

ALL_PRESETS = tuple(sixtysix.PRESETS)
CLAIM_MODES = ("automatic", "manual", "optional_verified")
N, D = 0, 1


def decide(record, game) -> int:
    """The heuristic policy's action id in a deal record (blanked or not)."""
    stream = policies.new_stream(0)  # unused: the heuristic draws nothing without noise
    return int(
        policies.policy_action_array(policies.HEURISTIC, 0.0, record, game.rule_array, stream)
    )


def act(state: sixtysix.State, spec: str = "heuristic:worlds=0") -> str:
    """The heuristic agent's action for the player to move, from his view: by default its
    rules alone."""
    return agents.make(spec).act(state.view(state.current_player))


@njit(cache=True, inline="always")
def is_legal(low, high, action):
    """Whether ``action`` is in the legal set ``(low, high)``."""
    if action < 0 or action >= mc.NUM_TABLE_ACTIONS:
        return False
    word = low if action < mc.HIGH else high
    return (word >> (action % mc.HIGH)) & 1 == 1


@njit(cache=True, inline="always")
def nth_legal(low, high, n):
    """The ``n``-th action id of the legal set ``(low, high)``, ascending."""
    count_low = popcount(low)
    return nth_set_bit(low, n) if n < count_low else mc.HIGH + nth_set_bit(high, n - count_low)


@njit(cache=True)
def mixed_deals(rules_array, deals, seed):
    """Play ``deals`` deals in which each action is, on a coin flip, the heuristic's or a
    uniformly random one; the heuristic is asked at every decision.

    Returns (decisions, illegal choices, claim errors): a claim error is a missed claim
    at the target or a claim (``claim`` or ``marry-claim``) short of it.
    """
    rules = rules_array[0]
    state_array = np.zeros(1, dtype=mc.TWO_PLAYER_STATE_DTYPE)
    view_array = np.zeros(1, dtype=mc.TWO_PLAYER_STATE_DTYPE)
    state = state_array[0]
    deck = mc.sorted_deck(rules)
    rng = seed_rng(seed)
    decisions = illegal = claim_errors = 0
    for _ in range(deals):
        rng, dealer = shuffle_and_cut(deck, rng, 2)
        mc.deal(state, rules, deck, dealer)
        while state.phase != mc.OVER:
            player = state.to_move
            view_array[:] = state_array
            worlds.hide_from(view_array, rules_array, player)
            action = heuristic_action(view_array[0], rules)
            low, high = mc.legal_masks(state, rules)
            decisions += 1
            if not is_legal(low, high, action):
                illegal += 1
                action = nth_legal(low, high, 0)
            reached = mc.credited(state, rules, player) >= rules.target
            marry_claim = mc.A_MARRY_CLAIM <= action < mc.A_MARRY_CLAIM + NUM_SUITS
            if is_legal(low, high, mc.A_CLAIM) and (action == mc.A_CLAIM) != reached:
                if not (marry_claim and not reached):
                    claim_errors += 1
            if marry_claim:
                value = mc.marriage_value(state, rules, action - mc.A_MARRY_CLAIM)
                if state.tricks[player] == 0 or mc.credited(state, rules, player) + value < (
                    rules.target
                ):
                    claim_errors += 1
            rng, coin = random_below(rng, 2)
            if coin:
                rng, choice = random_below(rng, popcount(low) + popcount(high))
                action = nth_legal(low, high, choice)
            mc.apply_with_knowledge(state, rules, action)
    return decisions, illegal, claim_errors


def deck_for(game, hands, face_up, talon_top=(), dealer=D):
    """A deck dealing ``hands[p]`` to player p and ``face_up`` as the trump card; the
    talon starts with ``talon_top`` (top first), the other cards follow in card order."""
    rules = game.rule_array[0]
    size = int(rules["deck_size"])
    face_up_position = int(rules["face_up_position"])
    deck = [None] * size
    dealt = [hands[0].split(), hands[1].split()]
    talon_positions = []
    for position in rules["deal_order"][:size]:  # hands, then the talon from its top
        offset = int(rules["deal_seat"][position])  # seat offset from the non-dealer
        if offset >= 0:
            deck[position] = dealt[(1 - dealer + offset) % 2].pop(0)
        elif position != face_up_position:
            talon_positions.append(position)
    assert dealt == [[], []]
    deck[face_up_position] = face_up
    used = {*hands[0].split(), *hands[1].split(), face_up, *talon_top}
    rest = [*talon_top, *(card_name(c) for c in game.deck_cards if card_name(c) not in used)]
    for position, card in zip(talon_positions, rest, strict=True):
        deck[position] = card
    return deck


def built(preset, hands, face_up, actions=(), talon_top=(), **overrides):
    game = game_of(preset, **overrides)
    return game.replay(deck_for(game, hands, face_up, talon_top), D, actions)


# ---- legality and claims everywhere -------------------------------------------------


@pytest.mark.parametrize("mode", CLAIM_MODES)
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_legal_action_and_exact_claims_in_every_decision(preset, mode):
    decisions, illegal, claim_errors = mixed_deals(game_of(preset, mode).rule_array, 300, 7)
    assert decisions > 3000
    assert illegal == 0
    assert claim_errors == 0


@pytest.mark.parametrize(
    "preset, overrides",
    [
        ("sixty_six", dict(exchange_timing="any_time_after_trick_won")),
        ("sixty_six", dict(trick_winner_rule="value_always")),
        ("snapszer", dict(close_min_talon=4, exchange_min_talon=4)),
        ("czech", dict(strict_must_follow=False, strict_must_trump=False)),
        ("mini_2x3", dict(claim_mode="manual")),
        ("mini_2x4", dict(claim_mode="optional_verified")),
    ],
)
def test_legal_action_under_other_options(preset, overrides):
    decisions, illegal, claim_errors = mixed_deals(game_of(preset, **overrides).rule_array, 300, 3)
    assert decisions > 300
    assert (illegal, claim_errors) == (0, 0)


# ---- its rules in built positions -------------------------------------------------------

# sixty_six, trumps spades: N holds top cards, D low plain cards; N leads every trick.
STRONG_N = "AS TS KS AH TH AD"
WEAK_D = "9C JC QC 9D JD QD"
FIVE_TRICKS = [  # N: 11, 23, 37, 48, 60 card points, drawing after each trick
    *("play AH", "play 9C", "draw", "play TH", "play JC", "draw", "play AD", "play QC"),
    *("draw", "play AS", "play 9D", "draw", "play TS", "play JD"),
]


def test_claims_exactly_when_the_target_is_reached():
    state = built("sixty_six", (STRONG_N, WEAK_D), "9S", FIVE_TRICKS, claim_mode="manual")
    assert state.phase == mc.PRE_DRAW and state.card_points[N] == 60
    assert act(state) != "claim"
    state.apply("draw").apply("play KS").apply("play QD")  # the last draw: no pre-draw point
    assert state.card_points[N] == 67 and "claim" in state.legal_actions()
    assert act(state) == "claim"


@pytest.mark.parametrize(
    "mode, going_out", [("manual", "marry-claim H"), ("automatic", "marry QH")]
)
def test_declares_a_marriage_and_goes_out_on_one(mode, going_out):
    hands = ("AS TS QH AH TH AD", WEAK_D)
    state = built("sixty_six", hands, "9S", FIVE_TRICKS[:3], ("KH",), claim_mode=mode)
    assert act(state) == "marry QH"  # N drew KH; his 11 and the 20 are short of 66
    state = built("sixty_six", hands, "9S", FIVE_TRICKS[:12], ("KH",), claim_mode=mode)
    assert state.card_points[N] == 48
    assert act(state) == going_out


@pytest.mark.parametrize("preset, card", [("sixty_six", "QS"), ("vu_schnapsen", "KS")])
def test_declares_the_forty_before_the_twenty(preset, card):
    hands = ("KS QS KH QH 9C AD", "9D JD QD 9H JH AH")
    if preset == "vu_schnapsen":
        hands = ("KS QS KH QH AD", "JD QD JH AH JC")
    assert act(built(preset, hands, "AS")) == f"marry {card}"


def test_takes_a_led_ten_with_the_ace_and_a_led_ace_with_the_lowest_trump():
    hands = ("TH AC 9D JD QD KD", "AH 9C JS AS QC 9H")
    assert act(built("sixty_six", hands, "9S", ["play TH"])) == "play AH"
    hands = ("AH AC 9D JD QD KD", "TC 9C JS AS QC JH")
    assert act(built("sixty_six", hands, "9S", ["play AH"])) == "play JS"


def test_throws_its_cheapest_card_on_a_low_lead():
    hands = ("9H AC 9D JD QD KD", "TC JC JS AS KH QH")
    assert act(built("sixty_six", hands, "9S", ["play 9H"])) == "play JC"


def test_closes_with_an_overwhelming_hand_only():
    assert act(built("sixty_six", (STRONG_N, WEAK_D), "9S")) == "close"
    assert act(built("sixty_six", (WEAK_D, STRONG_N), "9S")) == "play 9C"


def test_exchanges_and_exchanges_on_the_close():
    hands = ("JS TC TD KH QC", "JC QD AH TS KS")
    assert act(built("schnapsen", hands, "AS")) == "exchange"
    state = built("sixty_six", ("AC AD AH TC TD TH", "9S JC 9D JD 9H JH"), "AS", ["close"])
    assert state.phase == mc.CLOSE_EXCHANGE and act(state) == "exchange-on-close"


def test_leads_its_sure_winners_in_the_strict_phase():
    # N closes at once and draws trumps; once D shows he has none, N cashes a plain ace.
    state = built("sixty_six", (STRONG_N, WEAK_D), "9S", ["close"])
    assert act(state) == "play AS"
    assert act(state.apply("play AS").apply("play 9C")) == "play AD"


# ---- counting at closing and in the strict phase ----------------------------------------------


def strict_positions(preset: str, deals: int):
    """Views of the player to move at the strict-phase decisions with a choice, in heuristic
    self-play."""
    game = sixtysix.Game(preset)
    views = []
    for seed in range(deals):
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            strict = view.closed_by is not None or view.talon_size == 0
            if strict and len(view.legal_actions()) > 1:
                views.append(view)
            state.apply(act(state))
    return views


@pytest.mark.parametrize("preset", ["schnapsen", "sixty_six"])
def test_plays_the_exact_move_once_every_card_is_known(preset):
    """Once the talon is exhausted the one consistent world is solved: the move is one of
    the open-hand solver's best, which the rules alone miss somewhere."""
    exhausted = [view for view in strict_positions(preset, 40) if view.talon_size == 0]
    differs = 0
    for view in exhausted:
        values = agents.make("pimc:horizon=0", 0).action_values(view)
        best = max(values.values())
        assert view.count_worlds() == 1
        assert values[agents.make("heuristic", 0).act(view)] == best
        differs += values[agents.make("heuristic:worlds=0", 0).act(view)] < best
    assert len(exhausted) > 30 and differs > 0


def test_closes_where_closing_counts_at_least_close_at():
    """Where closing is legal it closes when its rules close, or when the counted value of
    closing reaches ``close_at``; otherwise it plays its rules' move."""
    game = sixtysix.Game("schnapsen")
    checked = closes = 0
    for seed in range(30):
        state = game.new_deal(seed=seed)
        while not state.is_terminal and checked < 60:
            view = state.view(state.current_player)
            if "close" in view.legal_actions() and view.closed_by is None:
                rule = act(state)
                value = agents.make("pimc:horizon=0,worlds=32", 5).action_values(view, ["close"])
                expected = "close" if rule == "close" or value["close"] >= 1.0 else rule
                assert agents.make("heuristic", 5).act(view) == expected
                checked += 1
                closes += expected == "close" != rule
            state.apply(act(state))
    assert checked == 60 and closes > 0


def test_rules_alone_keep_the_fast_path_and_a_closed_form_policy():
    assert specs.policy_of("heuristic:worlds=0") == (policies.HEURISTIC, 0.0)
    assert specs.policy_of("heuristic") is None
    first_lead = sixtysix.Game("schnapsen").new_deal(seed=4)
    view = first_lead.view(first_lead.current_player)
    with pytest.raises(
        ValueError, match="samples worlds here .* use worlds>=726485760 or worlds=0"
    ):
        agents.make("heuristic").policy(view)
    exhausted = [v for v in strict_positions("schnapsen", 3) if v.talon_size == 0][0]
    policy = agents.make("heuristic:noise=0.2").policy(exhausted)
    assert sum(policy.values()) == pytest.approx(1.0) and max(policy.values()) > 0.2
    with pytest.raises(
        ValueError, match="invalid worlds -1: worlds counted per decision, at least 0"
    ):
        agents.make("heuristic:worlds=-1")
    with pytest.raises(ValueError, match="invalid close_at nan: a number of game points"):
        agents.make("heuristic:close_at=nan")


# ---- it sees only its own view ------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_action_depends_only_on_what_the_player_may_know(preset):
    """In every world consistent with the mover's view, the heuristic chooses the same
    action, whether it is given the world blanked by ``hide_from`` or the world itself."""
    game = game_of(preset, "manual")
    rng = np.random.default_rng(1)
    checked = 0
    for seed in range(12):
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            player = state.current_player
            view = state.view(player)
            expected = decide(view.record, game)
            records = view.sample_world_records(6, seed * 1000 + len(state.history_ids))
            for k in range(len(records)):
                world = records[k : k + 1]
                assert decide(world, game) == expected
                worlds.hide_from(world, game.rule_array, player)
                assert decide(world, game) == expected
                checked += 1
            legal = state.legal_action_ids()
            state.apply(legal[rng.integers(len(legal))] if rng.random() < 0.5 else expected)
    assert checked > 500


# ---- strength --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["sixty_six", "schnapsen"])
def test_wins_most_deals_against_random_play(preset):
    game, seeds = sixtysix.Game(preset), range(5000)
    scores, net_points = [], []
    for seat, pair in enumerate([("heuristic", "random"), ("random", "heuristic")]):
        for result in agents.play_deals(game, pair, seeds):
            winner, points, _ = result.outcome
            scores.append(0.5 if winner is None else float(winner == seat))
            net_points.append(0 if winner is None else points if winner == seat else -points)
    assert np.mean(scores) >= 0.85
    assert np.mean(net_points) > 1.4
