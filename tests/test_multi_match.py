"""Matches of the multi-player presets (RULES_MULTI 1.14, MP-A12): team or individual
scores to ``match_target``, the deal passing to the next seat, ties at the top playing on."""

from __future__ import annotations

import random

import pytest

import sixtysix
from sixtysix.match import TableMatch


def played(match, rng):
    while not match.is_over:
        state = match.new_deal()
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        match.record(state)
    return match


@pytest.mark.parametrize(
    ("preset", "teams"), [("snapszer4", 2), ("snapszer3", 3), ("snapszer4_called", 4)]
)
def test_a_match_adds_each_deal_to_team_or_seat_scores_until_one_leads_at_the_target(preset, teams):
    game = sixtysix.Game(preset)
    for seed in range(5):
        match = played(sixtysix.Match(game, seed), random.Random(seed))
        assert isinstance(match, TableMatch) and len(match.scores) == teams
        totals = [0] * teams
        for number, deal in enumerate(match.deals):
            assert deal.dealer == (match.deals[0].dealer + number) % game.num_players
            for owner in range(teams):
                seats = [s for s in range(game.num_players) if match.owner(s) == owner]
                totals[owner] += deal.scores[seats[0]]
                assert all(deal.scores[s] == deal.scores[seats[0]] for s in seats)
        assert totals == match.scores
        top = max(match.scores)
        assert top >= game.rules.match_target and match.scores.count(top) == 1
        assert match.winner == match.scores.index(top)
        with pytest.raises(ValueError, match="over"):
            match.new_deal()


def test_a_match_refuses_a_deal_of_another_dealer_or_game():
    match = sixtysix.Match(sixtysix.Game("snapszer4"), 1)
    other = sixtysix.Game("snapszer3").new_deal(seed=1)
    with pytest.raises(ValueError, match="not of"):
        match.record(other)
    wrong = sixtysix.Game("snapszer4").new_deal(seed=1, dealer=(match.dealer + 1) % 4)
    with pytest.raises(ValueError, match="dealer"):
        match.record(wrong)
    with pytest.raises(ValueError, match="finished"):
        match.record(match.new_deal())
