"""What every built-in agent must do, at settings cheap enough for the test suite: see only
what its player may know, and play only legal actions in every preset and claim mode.
The agents' own behaviour is tested beside them (test_pimc, test_mcts, ...)."""

from __future__ import annotations

import inspect

import pytest
from conftest import game_of
from test_agents import assert_blind_to_hidden_cards

import sixtysix
from sixtysix import agents
from sixtysix.engine.rules import CHOICES, MINI_PRESETS

#: A cheap spec of every agent that plays by itself and sees only its view.
CHEAP = {
    "random": "random",
    "heuristic": "heuristic",
    "pimc": "pimc:worlds=4,horizon=1",
    "dmcts": "dmcts:iterations=40,worlds=2",
    "ismcts": "ismcts:iterations=40",
    "openspiel-ismcts": "openspiel-ismcts:simulations=10",
    "best": "best:iterations=40",
}
SEARCH = [
    *(CHEAP[name] for name in ("pimc", "dmcts", "ismcts", "openspiel-ismcts")),
    "pimc:worlds=4,horizon=1,infer=true,candidates=16",  # worlds weighed by the opponent's play
    "ismcts:iterations=40,pimc_worlds=4",  # closing and the strict phase left to PIMC
]


def test_every_fair_self_playing_agent_is_tested_here():
    fair = {
        info["name"]
        for info in agents.available()
        if not info["cheating"] and not info["interactive"]
    }
    assert fair == set(CHEAP) | {"cfr"}  # cfr needs a strategy file: tests/test_cfr_agent.py


@pytest.mark.parametrize("name", list(agents.BUILTIN))
def test_the_listed_parameters_are_the_constructors(name):
    info = agents.BUILTIN[name]
    signature = inspect.signature(info.factory).parameters
    if not info.factory.interactive:  # the human agent's streams are not spec parameters
        assert [p.name for p in info.parameters] == [p for p in signature if p != "seed"]
    for parameter in info.parameters:
        assert signature[parameter.name].default == parameter.default, parameter.name


@pytest.mark.parametrize("spec", SEARCH)
@pytest.mark.parametrize("preset", ["sixty_six", "schnapsen", "mini_2x4"])
def test_search_agents_do_not_see_hidden_cards(spec, preset):
    for seed in range(2):
        assert_blind_to_hidden_cards(spec, sixtysix.Game(preset), seed, worlds=3)


@pytest.mark.parametrize("spec", SEARCH)
@pytest.mark.parametrize("claim_mode", CHOICES["claim_mode"])
def test_search_agents_play_only_legal_actions(spec, claim_mode):
    """A deal in each seat of every preset: an illegal action would forfeit it."""
    for k, preset in enumerate([*sixtysix.PRESETS, *MINI_PRESETS]):
        game = game_of(preset, claim_mode)
        for seat in range(2):
            pair = (spec, "random") if seat == 0 else ("random", spec)
            result = agents.play_deal(game, pair, seed=100 * k + seat)
            assert result.error is None, result.error
            assert result.decisions[seat] > 0
