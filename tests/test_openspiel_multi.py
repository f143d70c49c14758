"""``python_sixty_six`` with the multi-player presets (three and four seats, RULES_MULTI):
conformance, the deal, returns (1.13.6), observers, worlds and OpenSpiel's ISMCTS bot."""

from __future__ import annotations

import functools
import math
import pickle
import random

import numpy as np
import pyspiel
import pytest

import sixtysix
from sixtysix import openspiel as sixtysix_openspiel
from sixtysix.engine import multi_core as mc
from sixtysix.engine.actions import NUM_ACTIONS, action_name
from sixtysix.engine.cards import NUM_CARDS, card_name
from sixtysix.engine.multi_rules import make_table_rules
from sixtysix.table_game import TABLE_PRESET_NAMES

MAIN = ("snapszer3", "snapszer3_called", "snapszer4", "snapszer4_called", "na66", "na66_3")
#: Option mixes that reach the rarer actions: announcements, betli, manual claims, melds,
#: a forbidden first batch, optional claims with per-opponent stakes, all passing.
OPTION_MIXES = [
    ("snapszer4", {"announcements": "durchmars_betli", "betli_partner": "plays"}),
    ("snapszer4", {"claim_mode": "manual", "marriage_declarers": "leader_and_partner"}),
    (
        "snapszer4_called",
        {"announcements": "durchmars", "call_own_card": 0, "call_timing": "first_batch"},
    ),
    (
        "snapszer3",
        {"announcements": "durchmars", "claim_mode": "optional_verified"},
    ),
    ("snapszer3_called", {"claims_before_reveal": 1, "claim_mode": "manual"}),
    ("na66", {"all_pass": "redeal", "defender_units": 1}),
]


def load(preset: str, **params) -> pyspiel.Game:
    return pyspiel.load_game(sixtysix_openspiel.GAME_NAME, {"preset": preset, **params})


def play_randomly(state, rng: random.Random):
    """Play chance and uniformly random actions; yield every state passed through (clones)."""
    while not state.is_terminal():
        yield state.clone()
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    yield state.clone()


def random_states(game, deals: int, seed: int) -> list:
    rng = random.Random(seed)
    return [s for _ in range(deals) for s in play_randomly(game.new_initial_state(), rng)]


def finished(game, deals: int, seed: int) -> list:
    return [s for s in random_states(game, deals, seed) if s.is_terminal()]


def dealt(game, seed: int):
    """A state of ``game`` just after the deal (the first decision)."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probabilities)[0])
    return state


@functools.cache
def game_with_dealer(preset: str, dealer: int) -> sixtysix_openspiel.SixtySixGame:
    return sixtysix_openspiel.SixtySixGame({"preset": preset, "dealer": dealer})


def spiel_state(game, table_state):
    """The ``python_sixty_six`` state of an engine ``TableState`` (its deal as chance
    actions, then its actions) in ``game`` (of the same rules and dealer)."""
    state = game.new_initial_state()
    for card in game.deal.chance_order(table_state):
        state.apply_action(card)
    for _, action in table_state.history_ids:
        state.apply_action(action)
    return state


def _observations(state, player):
    return (
        state.information_state_string(player),
        tuple(state.information_state_tensor(player)),
        state.observation_string(player),
        tuple(state.observation_tensor(player)),
    )


# ---- loading, parameters and game type -------------------------------------------------------
@pytest.mark.parametrize("preset", TABLE_PRESET_NAMES)
def test_random_sim_test_passes_for_every_multi_player_preset(preset):
    pyspiel.random_sim_test(load(preset), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("preset, options", OPTION_MIXES)
def test_random_sim_test_passes_with_option_mixes(preset, options):
    pyspiel.random_sim_test(load(preset, dealer=0, **options), num_sims=3, serialize=True,
                            verbose=False)  # fmt: skip


@pytest.mark.parametrize("preset", TABLE_PRESET_NAMES)
def test_game_info_follows_the_preset(preset):
    game = load(preset)
    rules = make_table_rules(preset)
    n = rules.num_players
    assert game.num_players() == n == sixtysix.Game(preset).num_players
    assert game.num_distinct_actions() == NUM_ACTIONS == 117
    assert game.max_chance_outcomes() == NUM_CARDS
    assert game.max_game_length() >= rules.deck
    kind = game.get_type()
    assert kind.min_num_players == kind.max_num_players == n
    equal_sides = n == 2 or (n == 4 and rules.sides != "called_card")
    utility = pyspiel.GameType.Utility
    assert kind.utility == (utility.ZERO_SUM if equal_sides else utility.GENERAL_SUM)
    most = 5.0 if rules.sides == "contract" else 3.0
    assert (game.min_utility(), game.max_utility()) == (-most, most)
    size = sum(math.prod(shape) for _, shape in sixtysix_openspiel.TABLE_VIEW_BLOCKS)
    assert game.observation_tensor_shape() == [size + 16 + 1]
    plies = game.max_game_length() * sixtysix_openspiel.TABLE_PLY_SIZE
    assert game.information_state_tensor_shape() == [size + 16 + 64 + plies + 1]


def test_named_game_types():
    utility = pyspiel.GameType.Utility
    assert load("snapszer3").get_type().utility == utility.GENERAL_SUM
    assert load("snapszer4").get_type().utility == utility.ZERO_SUM
    assert load("snapszer4_called").get_type().utility == utility.GENERAL_SUM  # 1 v 3
    assert load("na66").get_type().utility == utility.ZERO_SUM
    assert load("na66_2").get_type().utility == utility.ZERO_SUM
    assert load("snapszer3", loser_basis="per_opponent").max_utility() == 6.0
    assert load("snapszer4", announcements="durchmars").max_utility() == 6.0
    # The registered type admits every preset; two-player games keep their own type.
    registered = next(t for t in pyspiel.registered_games() if t.short_name == "python_sixty_six")
    assert (registered.min_num_players, registered.max_num_players) == (2, 4)
    two = load("schnapsen").get_type()
    assert (two.min_num_players, two.max_num_players, two.utility) == (2, 2, utility.ZERO_SUM)


def test_parameters_reach_the_table_rules_and_the_string_loads_back():
    game = load("snapszer4", announcements="durchmars_betli", call_own_card=0, dealer=0)
    assert game.engine_game.rules == make_table_rules(
        "snapszer4", announcements="durchmars_betli", call_own_card=False
    )
    assert str(game) == (
        "python_sixty_six(announcements=durchmars_betli,call_own_card=0,dealer=0,preset=snapszer4)"
    )
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert load("snapszer3", target=60).engine_game.rules.target == 60  # a shared option
    assert load("snapszer4").engine_game.rules == make_table_rules("snapszer4")
    assert dealt(load("snapszer4", dealer=2), 0).engine.dealer == 2


@pytest.mark.parametrize(
    "text, message",
    [
        ("python_sixty_six(preset=snapszer4,dealer=4)", "invalid dealer 4"),
        ("python_sixty_six(preset=snapszer3,dealer=3)", "invalid dealer 3"),
        (
            "python_sixty_six(preset=snapszer4,close_on_first_lead=1)",
            "'close_on_first_lead' is not an option of the multi-player preset",
        ),
        (
            "python_sixty_six(preset=schnapsen,announcements=durchmars)",
            "'announcements' is an option of the multi-player presets",
        ),
        ("python_sixty_six(preset=snapszer4,call_own_card=2)", "use 0 (off) or 1 (on)"),
        ("python_sixty_six(preset=snapszer3,sides=fixed_opposite)", "fixed partners need 4"),
    ],
)
def test_bad_multi_player_parameters_are_named(text, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        pyspiel.load_game(text)


# ---- the deal --------------------------------------------------------------------------------
def test_the_deal_is_uniform_and_reaches_the_engine_exactly():
    """mini3_called_3x3 (9 cards, three hands of 3, no talon): every chance history has
    probability 1 / 1680 (RULES_MULTI section 10) and deals a different set of hands."""
    game = load("mini3_called_3x3")
    probability = {}

    def walk(state, p):
        if not state.is_chance_node():
            hands = tuple(map(tuple, state.engine.hands))
            assert hands not in probability
            probability[hands] = p
            return
        for card, q in state.chance_outcomes():
            walk(state.child(card), p * q)

    walk(game.new_initial_state(), 1.0)
    assert len(probability) == 1680 == math.comb(9, 3) * math.comb(6, 3)
    for p in probability.values():
        assert p == pytest.approx(1 / 1680, rel=1e-12)


@pytest.mark.parametrize("preset", ["snapszer4", "snapszer3", "snapszer4_called", "na66"])
def test_hands_are_dealt_seat_by_seat_then_the_face_up_card_then_the_talon(preset):
    game = load(preset, dealer=1)
    rules = make_table_rules(preset)
    n, size = rules.num_players, rules.hand_size
    for seed in range(3):
        state = dealt(game, seed)
        history = state.history()
        engine = state.engine
        assert engine.dealer == 1 and engine.current_player is not None
        for k in range(n):
            hand = history[k * size : (k + 1) * size]
            assert hand == sorted(hand)
            assert engine.hands[(2 + k) % n] == sorted(card_name(c) for c in hand)
        rest = [card_name(c) for c in history[n * size :]]
        if rules.trump_source == "turn_up":  # the face-up card lies last in the talon
            assert engine.face_up_at_deal == rest[0]
            assert engine.talon == rest[1:] + rest[:1]
        else:
            assert engine.talon == rest
        assert sorted(history) == sorted(int(c) for c in engine.deck)


def test_chance_outcomes_sum_to_one_and_strings_name_the_cards():
    for preset in TABLE_PRESET_NAMES:
        state = load(preset).new_initial_state()
        rng = random.Random(preset)
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert [c for c, _ in outcomes] == state.legal_actions()
            card = rng.choice(outcomes)[0]
            assert state.action_to_string(card) == f"deal {card_name(card)}"
            state.apply_action(card)
        for action in state.legal_actions():
            assert state.action_to_string(action) == action_name(action)
        assert state.legal_actions() == state.engine.legal_action_ids()


def test_an_impossible_chance_outcome_is_refused():
    state = load("snapszer3").new_initial_state()  # 24 cards: no sevens and eights
    with pytest.raises(ValueError, match="invalid chance outcome 0"):
        state.apply_action(0)


# ---- returns (RULES_MULTI 1.13.6) ------------------------------------------------------------
def _signed(winners, points, n):
    return [float(points) if seat in winners else -float(points) for seat in range(n)]


def test_a_team_deal_pays_each_winner_g_and_each_loser_minus_g():
    reasons = set()
    for state in finished(load("snapszer4"), 25, seed=1):
        winners, reason, scores = state.engine.outcome
        assert winners in ((0, 2), (1, 3))
        assert state.returns() == _signed(winners, scores[winners[0]], 4)
        assert sum(state.returns()) == 0.0
        reasons.add(reason)
    assert len(reasons) >= 3


def test_snapszer3_pays_game_points_unless_a_close_made_it_one_against_two():
    kinds = set()
    for state in finished(load("snapszer3"), 60, seed=2):
        engine = state.engine
        winners, reason, scores = engine.outcome
        closer = engine.closed_by
        if closer is None:  # three-sided: the game points each seat scores
            assert state.returns() == [float(points) for points in scores]
            assert len(winners) == 1 and sum(state.returns()) == scores[winners[0]] > 0
            kinds.add("normal")
        else:  # the closer against the two others
            assert winners in ((closer,), tuple(s for s in range(3) if s != closer))
            assert state.returns() == _signed(winners, scores[winners[0]], 3)
            kinds.add("closer won" if winners == (closer,) else "closer lost")
    assert kinds == {"normal", "closer won", "closer lost"}


def test_the_called_card_game_pays_by_the_hidden_sides():
    alone = 0
    for state in finished(load("snapszer4_called"), 25, seed=3):
        engine = state.engine
        caller, call = engine.history_ids[0]
        called = call - mc.A_CALL
        holder = next(s for s in range(4) if engine.hand_log[0][s] >> called & 1)
        side = tuple(sorted({caller, holder}))
        winners, _, scores = engine.outcome
        assert winners in (side, tuple(s for s in range(4) if s not in side))
        assert state.returns() == _signed(winners, scores[winners[0]], 4)
        alone += caller == holder
    assert alone >= 1  # a caller who named his own card played alone: +g, -g, -g, -g


def test_a_contract_pays_the_declarers_team_its_signed_level():
    seen = set()
    for state in finished(load("na66"), 20, seed=4):
        engine = state.engine
        declarer, bid = next(
            (seat, action)
            for seat, action in reversed(engine.history_ids)
            if mc.A_BID + 1 <= action <= mc.A_BID + 5
        )
        level = bid - mc.A_BID
        made = engine.reason in ("contract_made", "moon_made")
        team = (declarer % 2, declarer % 2 + 2)
        expected = [float(level if made else -level) * (1 if s in team else -1) for s in range(4)]
        assert state.returns() == expected
        seen.add(made)
    assert seen == {True, False}
    # Defenders' units (defender_units) are match scoring: the payoff stays zero-sum.
    for state in finished(load("na66", defender_units=1), 10, seed=5):
        assert sum(state.returns()) == 0.0


def test_four_passes_redeal_and_pay_nothing():
    state = dealt(load("na66", all_pass="redeal"), 6)
    for _ in range(4):
        state.apply_action(mc.A_PASS)
    assert state.is_terminal() and state.engine.reason == "redeal"
    assert state.returns() == [0.0] * 4


def test_returns_are_zero_before_the_end():
    state = dealt(load("snapszer4"), 7)
    assert state.returns() == [0.0] * 4
    assert load("snapszer3").new_initial_state().returns() == [0.0] * 3


@pytest.mark.parametrize("preset, options", [(p, {}) for p in MAIN] + OPTION_MIXES)
def test_deals_stay_within_the_game_length_and_utility_bounds(preset, options):
    game = load(preset, **options)
    for state in finished(game, 12, seed=8):
        moves = len(state.history()) - len(state._play.dealt)
        assert moves <= game.max_game_length()
        assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())


# ---- observers -------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["snapszer4", "snapszer3_called", "na66_3"])
def test_information_state_string_is_the_views_key(preset):
    for state in random_states(load(preset), 3, seed=9)[::3]:
        if state.engine is None:
            continue
        for seat in range(state.num_players()):
            assert state.information_state_string(seat) == repr(state.engine.view(seat).key())


@pytest.mark.parametrize("preset", ["mini4_4x3", "snapszer3_called", "mini_na66_4x3"])
def test_equal_information_tensors_exactly_when_equal_strings(preset):
    """Including the deal, where the string and tensor come from this module."""
    game = load(preset)
    tensor_of, string_of = {}, {}
    for state in random_states(game, 12, seed=10):
        for seat in range(game.num_players()):
            string = state.information_state_string(seat)
            tensor = np.asarray(state.information_state_tensor(seat)).tobytes()
            assert tensor_of.setdefault(string, tensor) == tensor
            assert string_of.setdefault(tensor, string) == string
    assert any(s.startswith("rules") and "dealing" in s for s in tensor_of)
    assert len(tensor_of) > 200


def test_observation_tensor_is_the_views_tensor_and_the_extras():
    game = load("snapszer4")
    observer = game.make_py_observer()
    names = [name for name, _ in sixtysix_openspiel.TABLE_VIEW_BLOCKS]
    assert list(observer.dict) == [*names, "dealer", "to_move", "closed_by", "sitting_out",
                                   "deal_progress"]  # fmt: skip
    for state in random_states(game, 2, seed=11)[::4]:
        if state.engine is None:
            continue
        for seat in range(4):
            view = state.engine.view(seat)
            tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
            now = view.tensor()
            assert np.array_equal(tensor[: len(now)], now)
            extra = tensor[len(now) : len(now) + 16].reshape(4, 4)
            assert extra[0].tolist() == [float(s == state.engine.dealer) for s in range(4)]
            mover = state.engine.current_player
            assert extra[1].tolist() == [float(s == mover) for s in range(4)]
            assert tensor[-1] == 1.0
            assert f"seat {seat} of 4" in state.observation_string(seat)


def test_the_information_state_tensor_lists_every_action():
    game = load("snapszer4")
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    state = random_states(game, 1, seed=12)[-1]
    observer.set_from(state, 1)
    plies = observer.dict["plies"]
    history = state.engine.history_ids
    for ply, (seat, action) in enumerate(history):
        assert plies[ply, seat] == 1 and plies[ply, 4 + action] == 1
    assert not plies[len(history) :].any()
    view = state.engine.view(1)
    ever = 0
    for hand in view.hand_history:
        ever |= hand
    gained = plies[:, 4 + NUM_ACTIONS :].sum()
    assert gained == bin(ever & ~view.hand_at_deal).count("1") > 0  # draws (and exchanges)
    assert observer.dict["initial_hand"].sum() == 5


def test_the_deal_observations_show_only_own_cards():
    game = load("snapszer4", dealer=3)  # seat 0 is dealt first
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])  # seat 0's hand
    first = state.legal_actions()
    to_one = [state.child(first[0]), state.child(first[1])]  # seat 1's first card
    assert _observations(to_one[0], 0) == _observations(to_one[1], 0)
    assert _observations(to_one[0], 2) == _observations(to_one[1], 2)
    assert _observations(to_one[0], 1) != _observations(to_one[1], 1)
    assert "my cards" in to_one[0].information_state_string(0)


def _hidden_from(state, seat: int) -> list[str]:
    """Cards ``seat`` cannot see: in other hands or face down in the talon, never in its
    own hand, neither the card turned up by the deal nor a declared marriage's card."""
    view = state.view(seat)
    ever_held = 0
    for hands in state.hand_log:
        ever_held |= hands[seat]
    shown = {state.face_up_at_deal}
    for suits in view.declared_marriages:
        shown.update(f"{rank}{suit}" for suit in suits for rank in "QK")
    others = [card for other, hand in enumerate(state.hands) if other != seat for card in hand]
    talon = state.talon[:-1] if view.face_up else state.talon
    index = {card_name(int(c)): int(c) for c in state.deck}
    return [c for c in others + talon if not ever_held >> index[c] & 1 and c not in shown]


def _swapped(state, first: str, second: str):
    deck = [card_name(int(c)) for c in state.deck]
    i, j = deck.index(first), deck.index(second)
    deck[i], deck[j] = deck[j], deck[i]
    try:
        return state.game.replay(deck, state.dealer, [a for _, a in state.history_ids])
    except sixtysix.IllegalActionError:
        return None


@pytest.mark.parametrize("preset", ["snapszer4", "snapszer3", "snapszer4_called", "na66"])
def test_swapping_cards_hidden_from_a_seat_never_changes_its_observations(preset):
    """The same deal with two cards the seat cannot see swapped (in other hands or the
    face-down talon) gives the seat the same strings and tensors in OpenSpiel."""
    table_game = sixtysix.Game(preset)
    compared = changed = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = table_game.new_deal(seed=seed)
        for _ in range(rng.randrange(1, 18)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        game = game_with_dealer(preset, state.dealer)
        spiel = spiel_state(game, state)
        for seat in range(state.num_players):
            cards = _hidden_from(state, seat)
            for _ in range(4):
                if len(cards) < 2:
                    break
                other = _swapped(state, *rng.sample(cards, 2))
                if other is None or [h[seat] for h in other.hand_log] != [
                    h[seat] for h in state.hand_log
                ]:
                    continue
                other_spiel = spiel_state(game, other)
                assert _observations(other_spiel, seat) == _observations(spiel, seat)
                compared += 1
                changed += str(other_spiel) != str(spiel)
    assert compared >= 20 and changed >= 10


# ---- worlds ----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset, options", [(p, {}) for p in MAIN] + OPTION_MIXES[:3])
def test_resampled_worlds_look_the_same_to_the_seat(preset, options):
    game = load(preset, **options)
    rng = np.random.default_rng(13)
    changed = 0
    for state in random_states(game, 3, seed=14)[::4]:
        if state.engine is None:
            continue
        for seat in range(game.num_players()):
            world = state.resample(seat, rng)
            assert _observations(world, seat) == _observations(state, seat)
            assert world.current_player() == state.current_player()
            if state.current_player() == seat:
                assert world.legal_actions() == state.legal_actions()
            dealt = len(state._play.dealt)
            assert world.history()[dealt:] == state.history()[dealt:]
            changed += str(world) != str(state)
    assert changed > 0


def test_resampling_uses_only_what_the_seat_knows():
    """A state and a world of it, in two fresh games (no shared cache), give the seat the
    same worlds for the same seeds."""
    params = {"preset": "snapszer4_called", "dealer": 0}
    checked = differ = 0
    for state in random_states(sixtysix_openspiel.SixtySixGame(params), 1, seed=15)[33::4]:
        if state.is_terminal():
            continue
        seat = state.current_player()
        other = state.resample(seat, 16)
        differ += str(other) != str(state)
        games = [sixtysix_openspiel.SixtySixGame(params) for _ in range(2)]
        first, second = spiel_state(games[0], state.engine), spiel_state(games[1], other.engine)
        assert [str(first.resample(seat, s)) for s in range(3)] == [
            str(second.resample(seat, s)) for s in range(3)
        ]
        checked += 1
    assert checked >= 5 and differ >= 3


@pytest.mark.parametrize(
    "preset, steps, seed",
    [("mini3_3x3", 2, 1), ("mini3_called_3x4", 4, 0), ("mini_na66_4x3", 6, 2)],
)
def test_resampled_worlds_are_close_to_uniform_over_every_world(preset, steps, seed):
    """Against ``table_worlds.enumerate_worlds`` (every world, exactly): the sampler only
    draws worlds, reaches each of them, and its frequencies pass a chi-square test of
    uniformity (about five standard deviations)."""
    from sixtysix.table_worlds import enumerate_worlds

    game = game_with_dealer(preset, 1)
    state = game.engine_game.new_deal(seed=seed, dealer=1)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    worlds = {tuple(game.deal.chance_order(w)) for w in enumerate_worlds(state.view(seat))}
    draws, numbers = 3000, np.random.default_rng(seed)
    counts = {world: 0 for world in worlds}
    for _ in range(draws):
        counts[tuple(game.deal.chance_order(game.deal.worlds.sample(state, seat, numbers)))] += 1
    assert len(counts) == len(worlds) >= 20 and min(counts.values()) > 0
    expected = draws / len(worlds)
    chi2 = sum((count - expected) ** 2 / expected for count in counts.values())
    freedom = len(worlds) - 1
    assert chi2 < freedom + 5 * math.sqrt(2 * freedom)


def test_resampling_during_the_deal_is_refused_and_states_pickle():
    game = load("snapszer4")
    with pytest.raises(ValueError, match="still dealing"):
        game.new_initial_state().resample(0, 1)
    state = random_states(game, 1, seed=17)[45]
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state) and back.history() == state.history()
    text = pyspiel.serialize_game_and_state(game, state)
    game_back, state_back = pyspiel.deserialize_game_and_state(text)
    assert str(game_back) == str(game) and str(state_back) == str(state)
    for seat in range(4):
        assert _observations(state_back, seat) == _observations(state, seat)


# ---- OpenSpiel's ISMCTS bot ------------------------------------------------------------------
def _ismcts_bot(game, seed: int, simulations: int, resampler: bool = True):
    from open_spiel.python.algorithms import ismcts, mcts

    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )
    if resampler:
        bot.set_resampler(sixtysix_openspiel.make_resampler(seed + 2))
    return bot


def test_ismcts_plays_a_whole_snapszer4_deal_in_every_seat():
    game = load("snapszer4")
    state = dealt(game, 18)
    bots = [_ismcts_bot(game, 20 + 10 * seat, 8) for seat in range(4)]
    moved = set()
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moved.add(seat)
    assert moved == {0, 1, 2, 3}
    winners, _, scores = state.engine.outcome
    assert state.returns() == _signed(winners, scores[winners[0]], 4)
    assert sum(state.returns()) == 0.0 and abs(state.returns()[0]) in (1.0, 2.0, 3.0)


@pytest.mark.parametrize("preset", ["snapszer3", "snapszer4_called"])
def test_ismcts_uses_resample_from_infostate_without_a_resampler(preset):
    game = load(preset)
    state = dealt(game, 19)
    action = _ismcts_bot(game, 21, 6, resampler=False).step(state)
    assert action in state.legal_actions()
