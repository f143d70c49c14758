"""The search agents ``pimc``, ``ismcts`` and ``dmcts`` on the games of three and four
seats (``agents.table_search_agents``): their world draws are the view's worlds, drawn
uniformly; their choices are legal on every table preset and reproducible from the seed;
``pimc`` plays the solver's best action where the view leaves one world; the tree
searches beat random play on a mini preset."""

from __future__ import annotations

import collections
import math
import random

import numpy as np
import pytest
from sixtysix.agents import table_search_agents
from sixtysix.agents.policies import new_stream
from sixtysix.agents.table_heuristic import heuristic_action
from sixtysix.agents.table_search_agents import (
    PIMC_MIX_STEPS,
    TREE_MIX_STEPS,
    TablePimc,
    WorldChain,
    chain_steps,
    draw_world,
    seat_payoffs,
    world_values,
)

import sixtysix
from sixtysix import agents, table_worlds
from sixtysix.engine import multi_core as mc
from sixtysix.engine.actions import action_name
from sixtysix.engine.cards import card_name
from sixtysix.engine.table_search import move_score
from sixtysix.theory.table_solver import TableSolver, deal_kind, research_payoffs

SPECS = ("pimc:worlds=2", "ismcts:iterations=200", "dmcts:iterations=200,worlds=4")
#: Every table preset with each announcement option it takes.
GAMES = [
    ("snapszer3", {}),
    ("snapszer3", {"announcements": "durchmars"}),
    ("snapszer3_called", {}),
    ("snapszer3_called", {"announcements": "durchmars"}),
    ("snapszer4", {}),
    ("snapszer4", {"announcements": "durchmars_betli"}),
    ("snapszer4_called", {}),
    ("snapszer4_called", {"announcements": "durchmars_betli"}),
    ("na66", {}),
    ("na66_3", {}),
    ("na66_2", {}),
    ("mini3_3x3", {}),
    ("mini3_called_3x3", {}),
    ("mini3_called_3x4", {}),
    ("mini4_4x3", {}),
    ("mini4_called_2x4", {}),
    ("mini4_called_2x4", {"announcements": "durchmars_betli"}),
    ("mini_na66_4x3", {}),
    ("mini_na66_2", {}),
]
#: Random actions before the searchers take over on the full presets where exact solves
#: of the first decisions cost seconds (the first tricks of ``snapszer3``, the auctions, a
#: betli announced in a called-card game); the minis are searched from the deal on.
OPENING = {
    "snapszer3": 9,
    "snapszer3+durchmars": 9,
    "snapszer3_called": 6,
    "snapszer3_called+durchmars": 6,
    "snapszer4_called+durchmars_betli": 5,
    "na66_2": 6,
    "na66_3": 5,
}


def game_id(game: tuple) -> str:
    preset, overrides = game
    return "+".join([preset, *overrides.values()])


def random_position(game, seed: int, plies: int):
    """The deal of ``seed`` after ``plies`` uniformly random actions (fewer if it ends)."""
    rng = random.Random(seed)
    state = game.new_deal(seed=seed)
    for _ in range(plies):
        if state.is_terminal or len(state.legal_actions()) == 0:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def draws(view, count: int, seed: int, mix_steps: int = TREE_MIX_STEPS) -> list:
    """``count`` world records of ``view`` (with the deck of each) drawn by a ``WorldChain``
    seeded with ``seed``."""
    chain = WorldChain(view, new_stream(seed), mix_steps)
    worlds = []
    for _ in range(count):
        world = np.zeros(1, dtype=mc.state_dtype(view.game.rule_array))
        chain.draw(world)
        worlds.append((world, chain.deck()))
    return worlds


@pytest.mark.parametrize("preset", ["snapszer4_called", "snapszer3", "na66_3", "mini4_4x3"])
def test_drawn_worlds_are_the_views_worlds(preset):
    """Every world drawn is the replay of a deck ``table_worlds`` accepts for the view."""
    game = sixtysix.Game(preset)
    rng = random.Random(1)
    state = game.new_deal(seed=1)
    while not state.is_terminal:
        view = state.view(state.current_player)
        for world, deck in draws(view, 2, len(state.history_ids)):
            replayed = table_worlds.world_of(view, [card_name(card) for card in deck])
            assert replayed is not None
            assert replayed.array.tobytes() == world.tobytes()
        state.apply(rng.choice(state.legal_actions()))


def views_with_worlds(game, low: int, high: int):
    """The views of random deals whose seat has ``low`` to ``high`` worlds."""
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            if low <= table_worlds.count_worlds(view) <= high:
                yield view
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("preset", ["mini4_4x3", "mini3_called_3x4", "mini4_called_2x4"])
def test_worlds_are_drawn_uniformly(preset):
    """``pimc``'s draws (the chain's most widely spaced, near independent) over the view's
    worlds pass a chi-square test for uniformity (every world equally likely; the
    tolerance is five standard deviations)."""
    view = next(views_with_worlds(sixtysix.Game(preset), 20, 400))
    exact = collections.Counter(
        world.array[0]["hand"].tobytes() + world.array[0]["talon"].tobytes()
        for world in table_worlds.enumerate_worlds(view)
    )
    total = sum(exact.values())
    samples = 200 * len(exact)
    drawn = collections.Counter(
        world[0]["hand"].tobytes() + world[0]["talon"].tobytes()
        for world, _ in draws(view, samples, 7, PIMC_MIX_STEPS)
    )
    assert set(drawn) == set(exact)
    chi_square = sum(
        (drawn[key] - samples * weight / total) ** 2 / (samples * weight / total)
        for key, weight in exact.items()
    )
    freedom = len(exact) - 1
    assert chi_square < freedom + 5 * (2 * freedom) ** 0.5


def model_log_likelihood(view, deck: list[int], noise: float) -> float:
    """The inference's log-likelihood of the other seats' play in the deal of ``deck``,
    replayed in Python: at each lead or follow where another seat played one of several
    cards or marriages, ``noise / n`` each, ``1 - noise`` more shared by the plays of
    highest ``move_score``."""
    game = view.game
    state = game.replay([card_name(card) for card in deck], view.dealer, [])
    total = 0.0
    for seat, action in view.history:
        record = state.array[0]
        if seat != view.seat and action < mc.A_CALL and record["phase"] in (mc.LEAD, mc.FOLLOW):
            plays = [a for a in state.legal_action_ids() if a < mc.A_CALL]
            if len(plays) > 1:
                scores = {a: move_score(record, game.rule_array[0], a) for a in plays}
                top = [a for a in plays if scores[a] == max(scores.values())]
                share = noise / len(plays) + (action in top) * (1 - noise) / len(top)
                total += math.log(share)
        state.apply(action)
    return total


@pytest.mark.parametrize("preset", ["snapszer4", "snapszer3_called", "na66"])
def test_a_worlds_weight_is_the_models_likelihood_of_the_other_seats_play(preset):
    game = sixtysix.Game(preset)
    checked = 0
    for seed in range(3):
        state = game.new_deal(seed=seed)
        for _ in range(8 + 6 * seed):  # the table heuristic's play, as in a tournament
            state.apply(heuristic_action(state.view(state.current_player)))
        view = state.view(state.current_player)
        chain = WorldChain(view, new_stream(seed), TREE_MIX_STEPS, model_noise=0.3)
        world = np.zeros(1, dtype=mc.state_dtype(game.rule_array))
        for _ in range(3):
            chain.draw(world)
            expected = model_log_likelihood(view, chain.deck(), 0.3)
            assert chain.arrays[7][1] == pytest.approx(expected, abs=1e-9)
            checked += expected < 0
    assert checked  # some world made another seat's play less than certain


def test_inferred_worlds_place_the_hidden_cards_better_than_uniform_ones():
    """Seat 0 at its decisions from the third trick of ``snapszer4`` deals the table
    heuristic plays: resampled from the same 256 candidate worlds (one stream), the worlds
    weighed by the other seats' play put more of their cards in the right hands than the
    worlds of equal weights (``model_noise=1``); only the weights differ."""
    game = sixtysix.Game("snapszer4")
    placed = {1.0: 0, 0.3: 0}
    for seed in range(8):
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            if view.seat == 0 and state.tricks_played >= 2 and len(view.legal_actions()) > 1:
                hidden = state.array[0]["hand"]
                for noise in placed:
                    chain = WorldChain(view, new_stream(seed), PIMC_MIX_STEPS, noise)
                    for record in chain.weighted(32, 256):
                        placed[noise] += sum(
                            int(hidden[seat] & record["hand"][seat]).bit_count()
                            for seat in range(1, 4)
                        )
            state.apply(heuristic_action(view))
    assert placed[0.3] > placed[1.0]


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_seat_payoffs_are_the_research_payoffs(game):
    preset, overrides = game
    table = sixtysix.Game(preset, **overrides)
    out = np.zeros(4, dtype=np.int64)
    for seed in range(20):
        state = random_position(table, seed, 200)
        seat_payoffs(state.array[0], table.rule_array[0], out)
        assert tuple(out[: table.num_players]) == research_payoffs(state)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_search_agents_play_legally_on_every_table(game, spec):
    """A deal with the agent in every seat: every choice is legal (the protocol would
    forfeit it otherwise)."""
    preset, overrides = game
    table = sixtysix.Game(preset, **overrides)
    state = random_position(table, 3, OPENING.get(game_id(game), 0))
    seats = [agents.make(spec, seed=seat) for seat in range(table.num_players)]
    while not state.is_terminal:
        view = state.view(state.current_player)
        choice = seats[state.current_player].act(view)
        assert choice in view.legal_actions()
        state.apply(choice)


@pytest.mark.parametrize("spec", SPECS)
def test_the_same_seed_makes_the_same_choices(spec):
    game = sixtysix.Game("mini4_called_2x4", announcements="durchmars_betli")
    for seed in range(4):
        state = game.new_deal(seed=seed)
        first, second = agents.make(spec, seed=seed), agents.make(spec, seed=seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            choice = first.act(view)
            assert second.act(view) == choice
            state.apply(choice)


def test_pimc_plays_the_solvers_best_action_when_the_view_leaves_one_world():
    """In ``mini_na66_2`` each seat knows the other's hand (the rest of the pack): one
    world, which ``pimc`` solves exactly."""
    game = sixtysix.Game("mini_na66_2")
    solver = TableSolver(game)
    pimc = agents.make("pimc:worlds=3", seed=0)
    for seed in range(6):
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            assert table_worlds.count_worlds(view) == 1
            best = {action_name(a) for a in solver.best_actions(state)}
            choice = pimc.act(view)
            assert choice in best
            state.apply(choice)


def test_pimc_values_each_world_as_the_table_solver_does():
    """``world_values`` (``pimc``'s values of a world) gives the values of
    ``TableSolver``: ``solve`` on a two-sided deal, ``paranoid`` on a three-sided one, and
    on an unsettled one the value of the position each action leads to (the others
    passing an announcement round), by its kind."""
    kinds = set()
    for preset in ("mini3_3x3", "mini4_called_2x4", "mini3_called_3x3"):
        game = sixtysix.Game(preset)
        solver = TableSolver(game)
        for seed in range(8):
            state = random_position(game, seed, seed % 4)
            if state.is_terminal:
                continue
            kind = deal_kind(state)
            kinds.add(kind)
            if kind == "two-sided":
                expected = solver.action_values(state, method="solve")
            elif kind == "three-sided":
                expected = solver.action_values(state, method="paranoid")
            else:
                mover = state.current_player
                expected = {}
                for action in state.legal_action_ids():
                    child = state.clone().apply(action)
                    while not child.is_terminal and child.phase == "announce":
                        child.apply("pass")
                    if child.is_terminal:
                        expected[action] = research_payoffs(child)[mover]
                    elif deal_kind(child) == "two-sided":
                        expected[action] = solver.solve(child, mover)
                    else:
                        expected[action] = solver.paranoid(child, mover)
            assert world_values(solver, state) == expected, (preset, seed)
    assert kinds == {"two-sided", "three-sided", "unsettled"}


def test_pimc_plays_the_heuristics_choice_when_the_budget_solves_no_world(monkeypatch):
    """With no search node to spend, ``pimc`` solves only the worlds that need none (the
    last cards); elsewhere it values nothing and plays the table heuristic's choice."""
    monkeypatch.setattr(table_search_agents, "NODE_BUDGET", 0)
    game = sixtysix.Game("mini4_4x3")
    pimc = TablePimc(seed=0, worlds=4)
    fallbacks = 0
    for seed in range(6):
        state = game.new_deal(seed=seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            if len(view.legal_actions()) > 1 and not pimc.action_values(view):
                assert pimc.act(view) == heuristic_action(view)
                fallbacks += 1
            state.apply(pimc.act(view))
    assert fallbacks >= 10


def test_a_world_draw_counts_its_tries_and_gives_up_after_the_last():
    """``draw_world`` returns the draws it made: one where the replay accepts the first,
    0 after exactly ``tries`` refused draws (asked for another seat's decision, the
    replay refuses every deal)."""
    game = sixtysix.Game("mini4_4x3")
    state = game.new_deal(seed=2)
    view = state.view(state.current_player)
    rules = game.rule_array
    world = np.zeros(1, dtype=mc.state_dtype(rules))
    chain = WorldChain(view, new_stream(5), TREE_MIX_STEPS)
    args = (chain.stream, world, rules, chain.arrays, chain.dealer)
    assert draw_world(*args, view.seat, chain.steps, 5) == 1
    other = (view.seat + 1) % game.num_players
    stream, holder = chain.stream.copy(), chain.arrays[4].copy()
    assert draw_world(*args, other, chain.steps, 5) == 0
    for _ in range(5):  # the chain moved as far as five draws move it
        chain_steps(stream, chain.arrays[3], holder, chain.steps)
    assert (stream == chain.stream).all() and (holder == chain.arrays[4]).all()


def test_tree_search_refuses_the_solver_on_tables():
    state = sixtysix.Game("mini4_4x3").new_deal(seed=0)
    with pytest.raises(ValueError, match="solver=true is not supported"):
        agents.make("ismcts:solver=true", seed=0).act(state.view(state.current_player))


@pytest.mark.parametrize("spec", ["ismcts:iterations=500", "dmcts:iterations=500,worlds=8"])
def test_tree_searches_beat_random_play(spec):
    """Duplicate pairs of ``mini_na66_4x3`` deals (the searcher's team in seats 0 and 2,
    then in 1 and 3): the searchers' team wins about 80% of them (measured over 200
    deals), random play about half."""
    game = sixtysix.Game("mini_na66_4x3")
    won = 0
    deals = 30
    for seed in range(deals):
        for searcher_seats in (0, 1):
            specs = [spec if seat % 2 == searcher_seats else "random" for seat in range(4)]
            result = agents.play_deal(game, specs, seed)
            won += result.payoffs[searcher_seats] > 0
    assert won >= 0.65 * 2 * deals
