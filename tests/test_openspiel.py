"""The OpenSpiel game ``python_sixty_six``: conformance, observers, resampling, CFR."""

from __future__ import annotations

import math
import pickle
import random
from collections import defaultdict

import numpy as np
import pyspiel
import pytest

import sixtysix
from sixtysix import openspiel as sixtysix_openspiel
from sixtysix.engine.actions import NUM_ACTIONS, action_name
from sixtysix.engine.cards import NUM_CARDS, card_name, parse_card
from sixtysix.engine.rules import MINI_PRESETS
from sixtysix.view import tensor_layout

ALL_PRESETS = tuple(sixtysix.PRESETS) + tuple(MINI_PRESETS)


def load(preset: str = "sixty_six", **params) -> pyspiel.Game:
    return pyspiel.load_game(sixtysix_openspiel.GAME_NAME, {"preset": preset, **params})


def play_randomly(state, rng: random.Random, stop_after: int | None = None):
    """Play chance and uniformly random actions; yield every state passed through (clones)."""
    while not state.is_terminal() and (stop_after is None or len(state.history()) < stop_after):
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


# ---- loading and parameters ------------------------------------------------------------------
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_random_sim_test_passes_for_every_preset(preset):
    pyspiel.random_sim_test(load(preset), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("preset", ["sixty_six", "schnapsen", "mini_2x3"])
def test_random_sim_test_passes_with_manual_claims(preset):
    game = load(preset, claim_mode="manual", dealer=0)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_game_string_names_only_what_differs_and_loads_back():
    game = pyspiel.load_game("python_sixty_six(preset=schnapsen,claim_mode=manual,dealer=0)")
    assert str(game) == "python_sixty_six(claim_mode=manual,dealer=0,preset=schnapsen)"
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert str(pyspiel.load_game("python_sixty_six")) == "python_sixty_six(preset=sixty_six)"


def test_parameters_reach_the_engine_rules():
    game = load("schnapsen", claim_mode="manual", strict_must_head=0, target=60)
    rules = game.engine_game.rules
    assert rules == sixtysix.make_rules(
        "schnapsen", claim_mode="manual", strict_must_head=False, target=60
    )
    assert load("sixty_six").engine_game.rules == sixtysix.make_rules("sixty_six")


@pytest.mark.parametrize("preset", ["schnapsen", "mini_2x4"])
def test_every_deal_option_is_a_parameter_of_its_own_type(preset):
    """Each option given explicitly as the preset's own value leaves the rules unchanged."""
    rules = sixtysix.make_rules(preset)
    for name in sixtysix_openspiel.DEAL_OPTIONS:
        value = getattr(rules, name)
        value = int(value) if isinstance(value, bool) else value
        game = load(preset, **{name: value})
        assert game.engine_game.rules == rules, name


def test_game_info_follows_the_rules():
    czech, schnapsen, mini = load("czech"), load("schnapsen"), load("mini_2x3")
    assert (czech.min_utility(), czech.max_utility()) == (-6.0, 6.0)  # failed close: 6
    assert (schnapsen.min_utility(), schnapsen.max_utility()) == (-3.0, 3.0)
    assert schnapsen.num_distinct_actions() == NUM_ACTIONS
    assert schnapsen.max_chance_outcomes() == NUM_CARDS
    assert schnapsen.max_game_length() == 3 * 10 + 5
    assert mini.max_game_length() == 3 * 3 + 5
    assert len(czech.information_state_tensor_shape()) == 1


@pytest.mark.parametrize(
    "text, message",
    [
        ("python_sixty_six(preset=nope)", "unknown preset 'nope'"),
        ("python_sixty_six(claim_mode=bogus)", "invalid value 'bogus' for rule option"),
        ("python_sixty_six(strict_must_head=2)", "use 0 (off) or 1 (on)"),
        ("python_sixty_six(dealer=3)", "invalid dealer 3"),
        ("python_sixty_six(hand_size=4)", "hand_size"),
    ],
)
def test_bad_parameters_are_named(text, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        pyspiel.load_game(text)


# ---- the deal --------------------------------------------------------------------------------
def test_the_deal_is_uniform_and_reaches_the_engine_exactly():
    """Every chance history of mini_2x3 has probability 1 / (number of distinct deals), and
    the engine receives exactly the hands, trump card and talon that chance dealt."""
    game = load("mini_2x3")
    probability = {}

    def walk(state, p):
        if not state.is_chance_node():
            engine = state.engine
            deal = (tuple(map(tuple, engine.hands)), tuple(engine.talon))
            assert deal not in probability
            probability[deal] = p
            return
        for card, q in state.chance_outcomes():
            walk(state.child(card), p * q)

    walk(game.new_initial_state(), 1.0)
    # 6 cards: 2 to the non-dealer, 2 to the dealer, then the ordered talon of 2.
    assert len(probability) == math.comb(6, 2) * math.comb(4, 2) * 2
    for p in probability.values():
        assert p == pytest.approx(1 / len(probability), rel=1e-12)


def test_a_hand_is_dealt_in_ascending_order_with_the_engine_layout():
    game = load("schnapsen", dealer=0)
    state = game.new_initial_state()
    for _ in play_randomly(state, random.Random(3), stop_after=20):
        pass
    history = state.history()
    non_dealer, dealer = history[:5], history[5:10]
    assert non_dealer == sorted(non_dealer) and dealer == sorted(dealer)
    engine = state.engine
    assert engine.dealer == 0
    assert sorted(engine.hands[1]) == sorted(card_name(c) for c in non_dealer)
    assert sorted(engine.hands[0]) == sorted(card_name(c) for c in dealer)
    assert engine.trump_card == card_name(history[10])
    assert engine.talon == [card_name(c) for c in history[11:20]] + [engine.trump_card]


def test_chance_outcomes_are_legal_and_sum_to_one_during_every_deal():
    for preset in ALL_PRESETS:
        state = load(preset).new_initial_state()
        rng = random.Random(preset)
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert [c for c, _ in outcomes] == state.legal_actions()
            state.apply_action(rng.choice(outcomes)[0])


def test_an_impossible_chance_outcome_is_refused():
    state = load("schnapsen").new_initial_state()
    nine = parse_card("9C")  # the nine of clubs is not in the 20-card deck
    with pytest.raises(ValueError, match=f"invalid chance outcome {nine}"):
        state.apply_action(nine)


# ---- actions and returns ---------------------------------------------------------------------
def test_actions_are_the_engine_ids_and_strings():
    game = load("sixty_six")
    for state in random_states(game, 5, seed=1):
        if state.is_terminal():
            returns = state.returns()
            winner, points, _ = state.engine.outcome
            expected = [0.0, 0.0] if winner is None else [points, -points][:: 1 - 2 * winner]
            assert returns == expected
        elif state.is_chance_node():
            card = state.legal_actions()[0]
            assert state.action_to_string(card) == f"deal {card_name(card)}"
        else:
            assert state.legal_actions() == state.engine.legal_action_ids()
            for action in state.legal_actions():
                assert state.action_to_string(action) == action_name(action)


# ---- observers -------------------------------------------------------------------------------
def _observations(state, player):
    return (
        state.information_state_string(player),
        tuple(state.information_state_tensor(player)),
        state.observation_string(player),
        tuple(state.observation_tensor(player)),
    )


@pytest.mark.parametrize("preset", ["sixty_six", "schnapsen", "vu_schnapsen", "mini_2x4"])
def test_information_state_string_is_the_engine_view_key(preset):
    states = random_states(load(preset), 8, seed=2)
    keys_of = defaultdict(set)
    strings_of = defaultdict(set)
    for state in states:
        if state.engine is None:
            continue
        for player in (0, 1):
            string = state.information_state_string(player)
            key = state.engine.view(player).key()
            assert string == key
            keys_of[string].add(key)
            strings_of[key].add(string)
    assert all(len(v) == 1 for v in keys_of.values())
    assert all(len(v) == 1 for v in strings_of.values())


@pytest.mark.parametrize("preset", ["sixty_six", "mini_2x3"])
def test_equal_information_tensors_exactly_when_equal_strings(preset):
    """Including the deal, where the string and tensor come from this module, not the view."""
    game = load(preset)
    tensor_of, string_of = {}, {}
    states = random_states(game, 30, seed=4)
    for state in states:
        for player in (0, 1):
            string = state.information_state_string(player)
            tensor = np.asarray(state.information_state_tensor(player)).tobytes()
            assert tensor_of.setdefault(string, tensor) == tensor
            assert string_of.setdefault(tensor, string) == string
    assert any(s.startswith("rules") and "dealing" in s for s in tensor_of)
    assert len(tensor_of) > 200


def test_observation_tensor_is_the_views_now_block():
    game = load("sixty_six")
    now = sum(size for _, size in tensor_layout(game.engine_game).now_blocks)
    for state in random_states(game, 2, seed=9):
        if state.engine is None:
            continue
        for player in (0, 1):
            tensor = np.asarray(state.observation_tensor(player), dtype=np.float32)
            assert np.array_equal(tensor[:now], state.engine.view(player).tensor()[:now])
            assert tensor[now] == 1.0  # deal_progress: complete


def test_observers_have_named_pieces_and_reject_unsupported_types():
    game = load("schnapsen")
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    now = game.make_py_observer()
    layout = tensor_layout(game.engine_game)
    assert list(now.dict) == [name for name, _ in layout.now_blocks] + ["deal_progress"]
    assert "tricks" in info.dict and len(info.tensor) == layout.size + 1
    with pytest.raises(ValueError, match="one player with public information"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False,
                public_info=True,
                private_info=pyspiel.PrivateInfoType.NONE,
            )
        )


@pytest.mark.parametrize("preset", ["sixty_six", "schnapsen", "mini_2x3", "mini_2x4"])
def test_nothing_hidden_reaches_a_players_observations(preset):
    """Resampled worlds differ in hidden cards only: every string and tensor of the player is
    the same in each of them. A leak of a hidden card would make some of them differ."""
    game = load(preset)
    rng = np.random.default_rng(5)
    changed = 0
    for state in random_states(game, 6, seed=5)[::3]:
        if state.engine is None:
            continue
        for player in (0, 1):
            mine = _observations(state, player)
            for _ in range(3):
                world = state.resample(player, rng)
                assert _observations(world, player) == mine
                assert (
                    world.history()[len(world.history()) - len(state.engine.history) :]
                    == (state.history()[len(state.history()) - len(state.engine.history) :])
                )
                changed += str(world) != str(state)
    assert changed > 0


def test_the_deal_observations_show_only_own_cards():
    game = load("mini_2x3", dealer=1)
    base = game.new_initial_state()
    # Player 0 (non-dealer) gets 0-1 of the first suits' cards, then the dealer's hand.
    first = base.child(base.legal_actions()[0])
    second = first.child(first.legal_actions()[0])
    dealer_a = second.child(second.legal_actions()[0])
    dealer_b = second.child(second.legal_actions()[1])
    assert _observations(dealer_a, 0) == _observations(dealer_b, 0)
    assert _observations(dealer_a, 1) != _observations(dealer_b, 1)


# ---- resampling ------------------------------------------------------------------------------
def test_resample_from_infostate_and_a_seeded_resampler():
    game = load("schnapsen")
    state = random_states(game, 1, seed=6)[25]
    player = state.current_player()
    sampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sampled.information_state_string(player) == state.information_state_string(player)
    first = sixtysix_openspiel.make_resampler(11)
    second = sixtysix_openspiel.make_resampler(11)
    worlds = [str(first(state, player)) for _ in range(5)]
    assert worlds == [str(second(state, player)) for _ in range(5)]
    assert len(set(worlds)) > 1
    dealing = game.new_initial_state()
    with pytest.raises(ValueError, match="still dealing"):
        dealing.resample(0, 1)


# ---- serialization ---------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["sixty_six", "czech", "mini_2x4"])
def test_serialization_round_trips(preset):
    game = load(preset, claim_mode="manual")
    for state in random_states(game, 3, seed=7)[::4]:
        text = pyspiel.serialize_game_and_state(game, state)
        game_back, state_back = pyspiel.deserialize_game_and_state(text)
        assert str(game_back) == str(game)
        assert str(state_back) == str(state)
        assert state_back.history() == state.history()
        for player in (0, 1):
            assert _observations(state_back, player) == _observations(state, player)
        if not state_back.is_terminal():
            assert state_back.legal_actions() == state.legal_actions()
        pickled = pickle.loads(pickle.dumps(state))
        assert str(pickled) == str(state) and pickled.history() == state.history()


# ---- OpenSpiel's algorithms ------------------------------------------------------------------
def _ismcts_bot(game, seed: int, simulations: int):
    from open_spiel.python.algorithms import ismcts, mcts

    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )
    bot.set_resampler(sixtysix_openspiel.make_resampler(seed + 2))
    return bot


def test_ismcts_completes_games_against_a_random_bot():
    """(OpenSpiel's evaluate_bots needs restart_at, which its ISMCTS bot lacks: a plain loop.)"""
    from open_spiel.python.bots import uniform_random

    game = load("schnapsen")
    rng = random.Random(8)
    for seat in (0, 1):
        bots = {seat: _ismcts_bot(game, 9, 20)}
        bots[1 - seat] = uniform_random.UniformRandomBot(1 - seat, np.random.RandomState(10))
        state = game.new_initial_state()
        for _ in play_randomly(state, rng, stop_after=len(game.engine_game.deck_cards)):
            pass
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        assert returns[0] == -returns[1] and abs(returns[0]) in (1, 2, 3)


def test_ismcts_uses_resample_from_infostate_without_a_resampler():
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("mini_2x4")
    state = random_states(game, 1, seed=19)[game.engine_game.rules.deck]  # the first decision
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(20)),
        uct_c=2.0,
        max_simulations=10,
        random_state=np.random.RandomState(21),
    )
    assert bot.step(state) in state.legal_actions()


def test_ismcts_decides_from_the_information_state_alone():
    """Two states one player cannot tell apart get the same ISMCTS move for equal seeds."""
    game = load("schnapsen")
    rng = np.random.default_rng(14)
    decided = 0
    for state in random_states(game, 4, seed=15)[::5]:
        if state.engine is None or state.is_terminal():
            continue
        player = state.current_player()
        world = state.resample(player, rng)
        assert _ismcts_bot(game, 16, 15).step(state) == _ismcts_bot(game, 16, 15).step(world)
        decided += 1
    assert decided >= 3


# Exploitabilities on mini_2x3, deterministic for a given algorithm and game (measured; the
# docs/openspiel.md quotes them rounded). CFR's average policy after one iteration is the
# uniform policy.
UNIFORM_EXPLOITABILITY = 0.8758333333333334  # 1051 / 1200
CFR_EXPLOITABILITY_2 = 0.4918207920907206
CFR_EXPLOITABILITY_10 = 0.10124567118433338
CFR_PLUS_EXPLOITABILITY_10 = 0.021724681458902467


def _exploitability_after(solver, game, iterations: int) -> float:
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return pyspiel.exploitability(game, solver.average_policy())


def test_cfr_and_cfr_plus_exploitability_on_a_mini_preset():
    game = load("mini_2x3")
    uniform = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    cfr = _exploitability_after(pyspiel.CFRSolver(game), game, 10)
    cfr_plus = _exploitability_after(pyspiel.CFRPlusSolver(game), game, 10)
    assert uniform == pytest.approx(UNIFORM_EXPLOITABILITY, abs=1e-9)
    assert cfr == pytest.approx(CFR_EXPLOITABILITY_10, abs=1e-9)
    assert cfr_plus == pytest.approx(CFR_PLUS_EXPLOITABILITY_10, abs=1e-9)
    assert cfr_plus < cfr < uniform


def test_python_cfr_and_exploitability_agree_with_the_cpp_ones():
    from open_spiel.python.algorithms import cfr, exploitability

    game = load("mini_2x3")
    python_solver, cpp_solver = cfr.CFRSolver(game), pyspiel.CFRSolver(game)
    for _ in range(2):
        python_solver.evaluate_and_update_policy()
        cpp_solver.evaluate_and_update_policy()
    python_value = exploitability.exploitability(game, python_solver.average_policy())
    cpp_value = pyspiel.exploitability(game, cpp_solver.average_policy())
    assert python_value == pytest.approx(cpp_value, abs=1e-12)
    assert cpp_value == pytest.approx(CFR_EXPLOITABILITY_2, abs=1e-9)


def test_tree_size_matches_openspiels_own_enumeration():
    from open_spiel.python.algorithms import get_all_states

    game = load("mini_2x3")
    size = sixtysix_openspiel.tree_size(game)
    states = get_all_states.get_all_states(
        game,
        include_terminals=True,
        include_chance_states=True,
        to_string=lambda state: state.history_str(),
    )
    assert size.histories == len(states)
    assert size.terminals == sum(s.is_terminal() for s in states.values())
    for player in (0, 1):
        strings = {
            s.information_state_string(player)
            for s in states.values()
            if s.current_player() == player
        }
        assert size.information_sets[player] == len(strings)
