"""Positions without a history (``Game.position``) and the closing analyzer
(``sixtysix.theory.closing_values``).

The constructor is checked against positions reached by seeded random play, field for
field; the analyzer on positions whose values are known by hand, against the solver on
each world's ``State``, and its two references against each other.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import game_of

import sixtysix
from sixtysix.engine import multi_core
from sixtysix.engine.cards import card_name, mask_to_names
from sixtysix.engine.multi_core import A_CLOSE
from sixtysix.theory.closing_values import (
    BEST_DEFENSE_TOLERANCE,
    ClosingPosition,
    analyze,
    best_defense_reference,
    pimc_reference,
    position_options,
    render,
)

#: The position of issue 13: schnapsen, trump diamonds, the jack exchanged in.
EXAMPLE = {
    "preset": "schnapsen",
    "trump": "D",
    "face_up": "JD",
    "talon_size": 2,
    "hand": ["AS", "KS", "JH", "AD", "TD"],
    "gone": ["JS", "KH", "TH", "JC", "TC", "AC", "QD", "KD"],
    "opponent_known": [],
    "points": [12, 34],
    "tricks": [1, 3],
    "marriages": [[], []],
}


def describe(state: sixtysix.State) -> dict:
    """The full description of a played state at a leader's decision, for ``Game.position``."""
    record = state.array[0]
    leader = int(record["leader"])
    opponent = 1 - leader
    deck_mask = int(state.game.rule_array[0]["deck_mask"])
    top, end = int(record["talon_top"]), int(record["talon_end"])
    totals = state.card_points
    closer = state.closed_by
    return dict(
        leader=leader,
        dealer=state.dealer,
        trump=state.trump_suit,
        face_up=card_name(int(record["talon"][end - 1])) if end > top else None,
        talon_size=end - top,
        hand=mask_to_names(int(record["hand"][leader])),
        won=[mask_to_names(int(record["won"][p])) for p in (leader, opponent)],
        opponent_known=mask_to_names(int(record["shown"][opponent])),
        points=(totals[leader], totals[opponent]),
        tricks=(int(record["tricks"][leader]), int(record["tricks"][opponent])),
        marriages=[state.declared_marriages[p] for p in (leader, opponent)],
        opponent_hand=mask_to_names(int(record["hand"][opponent])),
        talon=[card_name(int(c)) for c in record["talon"][top : end - 1]],
        leader_known=mask_to_names(int(record["shown"][leader])),
        excluded=[
            mask_to_names(int(record["excluded"][p]) & deck_mask) for p in (leader, opponent)
        ],
        closed_by=closer,
        close_snapshot=(
            (int(record["snap_tricks"][1 - closer]), int(record["snap_total"][1 - closer]))
            if closer is not None
            else None
        ),
        before_draw=state.phase == multi_core.PRE_DRAW,
    )


def differing_fields(played: sixtysix.State, built: sixtysix.State) -> list[str]:
    """Record fields that differ, apart from those the positions module documents: dead
    talon slots, ``turn_acted`` at a pre-draw point, the closer's own close snapshot and
    excluded cards outside the deck."""
    records = [multi_core.copy_record(played.array), multi_core.copy_record(built.array)]
    top, end = int(records[0][0]["talon_top"]), int(records[0][0]["talon_end"])
    for record in records:
        record[0]["talon"][:top] = -1
        record[0]["talon"][end:] = -1
        record[0]["excluded"] &= played.game.rule_array[0]["deck_mask"]
        if record[0]["phase"] == multi_core.PRE_DRAW:
            record[0]["turn_acted"] = 0
        if played.closed_by is not None:
            record[0]["snap_tricks"][played.closed_by] = 0
            record[0]["snap_total"][played.closed_by] = 0
    return [
        name
        for name in played.array.dtype.names
        if not np.array_equal(records[0][0][name], records[1][0][name])
    ]


def decisions(game: sixtysix.Game, seed: int):
    """The states at every leader's turn start and pre-draw point of a random deal."""
    state = game.new_deal(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        at_turn_start = state.phase == multi_core.LEAD and state.array[0]["turn_acted"] == 0
        if at_turn_start or state.phase == multi_core.PRE_DRAW:
            yield state.clone()
        state.apply(rng.choice(state.legal_actions()))


# ---- the constructor -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset", ["schnapsen", "sixty_six", "mini_2x4_long", "vu_schnapsen", "czech"]
)
def test_a_built_position_equals_the_position_reached_by_play(preset):
    game = game_of(preset)
    checked = 0
    for seed in range(40):
        for played in decisions(game, seed):
            description = describe(played)
            built = game.position(**description)
            assert differing_fields(played, built) == [], (seed, played.history)
            assert built.legal_actions() == played.legal_actions()
            leader = description["leader"]
            assert built.view(leader).world_spec() == played.view(leader).world_spec()
            # Without the split of the gone cards only the won masks may differ.
            split = description.pop("won")
            unsplit = game.position(**description, gone=split[0] + split[1])
            assert set(differing_fields(played, unsplit)) <= {"won"}
            won, truth = unsplit.array[0]["won"], played.array[0]["won"]
            assert int(won[0] | won[1]) == int(truth[0] | truth[1])
            assert unsplit.card_points == played.card_points
            checked += 1
    assert checked > 100


def test_a_position_without_its_world_is_completed_by_the_first_world():
    position = ClosingPosition.from_json(EXAMPLE)
    first = position.world(0)
    assert position.state().array.tobytes() == first.array.tobytes()
    assert position.count_worlds() == 6  # 6 unseen cards: 5 in the opponent's hand, 1 in the talon
    hands = {tuple(position.world(rank).hands[1]) for rank in range(6)}
    assert len(hands) == 6


# ---- bad descriptions -----------------------------------------------------------------------


def changed(**changes) -> dict:
    return {**EXAMPLE, **changes}


BAD_POSITIONS = [
    (changed(hand=["AS", "KS", "JH", "AD", "JS"]), "JS is listed in both hand and gone"),
    (changed(hand=["AS", "KS", "JH", "AD", "9D"]), "card 9D in hand is not in this game's deck"),
    (changed(hand=["AS", "KS", "JH", "AD"]), "4 cards in hand"),
    (changed(hand=["AS", "AS", "JH", "AD", "TD"]), "AS is listed twice in hand"),
    (changed(gone=EXAMPLE["gone"][:-1]), "7 cards gone for 4 tricks"),
    (changed(points=[12, 30]), "the gone cards are worth 46"),
    (changed(points=[1, 45]), "no 1 tricks of the gone cards make the leader's 1 card points"),
    (changed(points=[40, 6], tricks=[4, 0]), "the opponent has won no trick"),
    (changed(tricks=[0, 4]), "the leader has won no trick"),
    (changed(talon_size=3), "invalid talon_size 3"),
    (changed(talon_size=12), "invalid talon_size 12"),
    (changed(talon_size=4), "talon_size 4 after 4 tricks"),
    (changed(face_up="JS"), "face_up 'JS' is not a trump"),
    (changed(face_up=None), "null exactly when the talon is empty"),
    (changed(opponent_known=["QS", "QH", "QC", "KC", "9C"]), "9C in opponent_known"),
    (changed(marriages=[["H"], []]), "QH KH must each be gone or in the leader's hand"),
    (changed(marriages=[[], ["S"]]), "QS KS must each be gone or in opponent_known"),
    (changed(marriages=[["X"], []]), "unknown suit 'X'"),
    (changed(points=[12, 70], gone=EXAMPLE["gone"]), "the gone cards are worth 46"),
    (changed(preset="skat"), "unknown preset 'skat'"),
    (changed(trump="H"), "face_up 'JD' is not a trump"),
    (changed(points=[12]), "points must be a [leader, opponent] pair"),
    (changed(hand="AS KS"), "hand must be a list"),
    ({**EXAMPLE, "stock": 2}, "unknown keys ['stock']"),
    ({k: v for k, v in EXAMPLE.items() if k != "tricks"}, "missing ['tricks']"),
]


@pytest.mark.parametrize("data, message", BAD_POSITIONS)
def test_an_inconsistent_position_is_refused_saying_what_is_wrong(data, message):
    with pytest.raises(ValueError) as error:
        ClosingPosition.from_json(data)
    assert message in str(error.value)


def test_a_position_where_closing_is_illegal_is_refused():
    state = game_of("sixty_six").new_deal(seed=3)
    first_lead = ClosingPosition.from_view(state.view(state.current_player)).to_json()
    assert first_lead["talon_size"] == 12 and first_lead["gone"] == []
    with pytest.raises(ValueError, match="closing is not legal at this position"):
        ClosingPosition.from_json({**first_lead, "options": {"close_on_first_lead": False}})


def test_bad_files_get_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="cannot read the position file"):
        ClosingPosition.from_json(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"preset": "schnapsen",')
    with pytest.raises(ValueError, match="is not valid JSON"):
        ClosingPosition.from_json(broken)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(EXAMPLE))
    assert ClosingPosition.from_json(str(good)).to_json() == EXAMPLE
    assert ClosingPosition.from_json(json.dumps(EXAMPLE)).to_json() == EXAMPLE


def test_a_harvested_view_round_trips_through_json():
    game = game_of("sixty_six")
    found = 0
    for seed in range(10):
        for state in decisions(game, seed):
            view = state.view(state.current_player)
            if A_CLOSE not in view.legal_action_ids():
                continue
            position = ClosingPosition.from_view(view)
            again = ClosingPosition.from_json(json.loads(json.dumps(position.to_json())))
            assert again == position
            # the position's leader is player 0: the same worlds, seen from seat 0
            assert position.spec == dataclasses.replace(view.world_spec(), opponent=1)
            assert position.view.legal_actions() == view.legal_actions()
            found += 1
    assert found > 20


# ---- the PIMC reference on positions known by hand -------------------------------------------


def close_column(reference) -> np.ndarray:
    return reference.values[:, reference.options.index(position_options_close(reference))]


def position_options_close(reference):
    return next(option for option in reference.options if option.actions == (A_CLOSE,))


def test_a_close_that_reaches_the_target_in_every_world_wins_three():
    """Trump hearts, JH face up: the leader holds every other trump and the top spade, so
    after closing he wins all five tricks (AH, TH, the trump marriage, AS): 18 + 39 + 40
    points and more. The opponent has no trick at the close: 3 game points."""
    position = ClosingPosition.from_json(
        {
            "preset": "schnapsen",
            "trump": "H",
            "face_up": "JH",
            "talon_size": 4,
            "hand": ["AH", "TH", "KH", "QH", "AS"],
            "gone": ["JC", "QC", "KC", "JD", "QD", "KD"],
            "opponent_known": [],
            "points": [18, 0],
            "tricks": [3, 0],
            "marriages": [[], []],
        }
    )
    reference = pimc_reference(position)
    assert reference.enumerated and reference.worlds == 336  # C(8, 5) hands x 3! talons
    assert np.all(close_column(reference) == 3)


def test_a_close_that_fails_in_every_world_loses_two():
    """The leader has 20 points and can reach at most 20 + 12 (his cards) + 33 (the five best
    unseen cards) = 65 < 66: the close fails in every world, and the opponent, who has won
    tricks, scores 2."""
    position = ClosingPosition.from_json(
        {
            "preset": "schnapsen",
            "trump": "H",
            "face_up": "JH",
            "talon_size": 4,
            "hand": ["JS", "QS", "JC", "QC", "JD"],
            "gone": ["AS", "TS", "AC", "TC", "AD", "TD"],
            "opponent_known": [],
            "points": [20, 43],
            "tricks": [1, 2],
            "marriages": [[], []],
        }
    )
    reference = pimc_reference(position)
    assert reference.enumerated
    assert np.all(close_column(reference) == -2)
    analysis = analyze(position, best_defense=False)
    assert analysis["close_value"] == -2 and analysis["verdict"] == "do not close"


#: mini_2x3, trump clubs, QC face up, the leader holds KC QD; JC JD KD are unseen.
MINI = {
    "preset": "mini_2x3",
    "trump": "C",
    "face_up": "QC",
    "talon_size": 2,
    "hand": ["KC", "QD"],
    "gone": [],
    "opponent_known": [],
    "points": [0, 0],
    "tricks": [0, 0],
    "marriages": [[], []],
}


def test_values_counted_on_paper():
    """Closing needs 10 points from the four cards in the hands, so both tricks. Opponent
    JC JD (world 0): KC takes JC (6), QD takes JD (5): 11, and 3 game points (no trick for
    him at the close). Opponent JC KD (world 1): KD heads QD, so at most 6: the close fails,
    3 to him. Opponent JD KD (world 2): KD heads QD again: fails, -3. Mean -1."""
    position = ClosingPosition.from_json(MINI)
    reference = pimc_reference(position)
    assert [o.name for o in reference.options] == ["close", "play KC", "play QD"]
    assert reference.worlds == 3 and reference.enumerated
    assert list(close_column(reference)) == [3, -3, -3]
    assert [position.world(r).hands[1] for r in range(3)] == [
        ["JC", "JD"],
        ["JC", "KD"],
        ["JD", "KD"],
    ]
    analysis = analyze(position)
    assert analysis["close_value"] == -1
    assert analysis["best_alternative"] == "play QD" and analysis["best_alternative_value"] == 1
    assert analysis["verdict"] == "do not close"
    assert json.loads(json.dumps(analysis)) == analysis
    text = render(analysis)
    assert "verdict (PIMC): do not close" in text and "3 worlds" in text


def test_the_values_are_the_solvers_in_each_world():
    for data in (EXAMPLE, MINI):
        position = ClosingPosition.from_json(data)
        reference = pimc_reference(position)
        for rank in range(reference.worlds):
            solved = sixtysix.solve_actions(position.world(rank))
            for option, value in zip(reference.options, reference.values[rank], strict=True):
                if len(option.actions) == 1:
                    assert value == solved[option.name]


def test_exchange_then_close_is_an_option():
    """mini_2x3 with KC face up: the leader holding the jack of trumps may exchange first."""
    position = ClosingPosition.from_json({**MINI, "face_up": "KC", "hand": ["JC", "KD"]})
    names = [o.name for o in position_options(position)]
    assert names[:2] == ["close", "exchange, close"]
    assert "exchange, play KD" in names
    analysis = analyze(position)
    assert analysis["close_option"] == "exchange, close" and analysis["close_value"] == 3


def test_enumeration_and_sampling_agree_within_their_intervals():
    game = game_of("schnapsen")
    # a position with a few hundred worlds: schnapsen, four cards in the talon
    position = next(
        ClosingPosition.from_view(state.view(state.current_player))
        for seed in range(50)
        for state in decisions(game, seed)
        if state.talon_size == 4 and A_CLOSE in state.legal_action_ids()
    )
    exact = pimc_reference(position)
    sampled = pimc_reference(position, limit=0, samples=400, seed=7)
    assert exact.enumerated and not sampled.enumerated and sampled.values.shape[0] == 400
    assert exact.worlds == sampled.worlds > 100
    for i in range(len(exact.options)):
        half = sampled.half_width(sampled.values[:, i])
        assert abs(exact.means[i] - sampled.means[i]) <= max(half, 1e-9)


# ---- the best-defense reference -----------------------------------------------------------


def test_best_defense_lies_below_pimc():
    for data in (EXAMPLE, MINI):
        position = ClosingPosition.from_json(data)
        pimc = pimc_reference(position)
        defense = best_defense_reference(position)
        assert defense.skipped is None
        for mean, value in zip(pimc.means, defense.values, strict=True):
            assert value.guaranteed <= value.upper + 1e-9
            assert value.guaranteed <= mean + 1e-9


def test_best_defense_equals_pimc_when_the_closer_knows_every_card():
    position = ClosingPosition.from_json(MINI)
    pimc = pimc_reference(position)
    for rank in range(3):
        defense = best_defense_reference(position, ranks=[rank], tolerance=1e-6)
        rows = zip(defense.options, pimc.values[rank], defense.values, strict=True)
        for option, exact, value in rows:
            assert value.guaranteed == pytest.approx(exact, abs=1e-3), option.name


def test_best_defense_keeps_the_open_hand_value_of_its_worlds():
    position = ClosingPosition.from_json(EXAMPLE)
    pimc = pimc_reference(position)
    defense = best_defense_reference(position, groups=4)  # few worlds: all of them, no samples
    assert pimc.enumerated and defense.groups == 0
    for mean, value in zip(pimc.means, defense.values, strict=True):
        assert value.open_hand == pytest.approx(mean) and value.gap == mean - value.guaranteed
        assert value.half_width == value.gap_half_width == 0


def test_sampled_best_defense_averages_the_games_of_its_samples():
    """Each group is the game on ``max_worlds`` distinct worlds drawn from the seed; the
    reference reports the means over the groups with 95% t intervals."""
    position = ClosingPosition.from_json(EXAMPLE)
    count = position.count_worlds()
    sampled = best_defense_reference(position, max_worlds=3, groups=4, seed=11)
    assert sampled.skipped is None and (sampled.worlds, sampled.groups) == (3, 4)
    draw = np.random.default_rng(11)
    samples = [draw.choice(count, size=3, replace=False) for _ in range(4)]
    games = [best_defense_reference(position, max_worlds=3, ranks=s) for s in samples]
    quantile = 3.182446305284263 / 2  # the 97.5% quantile of t, 3 degrees of freedom, / sqrt(4)
    for i, value in enumerate(sampled.values):
        guaranteed = np.array([game.values[i].guaranteed for game in games])
        gaps = np.array([game.values[i].gap for game in games])
        assert value.groups == 4
        assert value.guaranteed == pytest.approx(guaranteed.mean())
        assert value.gap == pytest.approx(gaps.mean())
        assert value.half_width == pytest.approx(quantile * guaranteed.std(ddof=1))
        assert value.gap_half_width == pytest.approx(quantile * gaps.std(ddof=1))
    again = best_defense_reference(position, max_worlds=3, groups=4, seed=11)
    assert [v.guaranteed for v in again.values] == [v.guaranteed for v in sampled.values]


def test_best_defense_on_fewer_worlds_is_worth_at_least_as_much_to_the_closer():
    """Restricted to a subset of the worlds, the closer's strategy for all of them is still a
    strategy, so the mean over the subsets of one size bounds the game on every world from
    above: the sampled reference errs towards the closer, never below the full game."""
    position = ClosingPosition.from_json(EXAMPLE)
    count = position.count_worlds()
    full = best_defense_reference(position)
    subsets = [
        best_defense_reference(position, ranks=set(range(count)) - {left}) for left in range(count)
    ]  # the bounds below are true bounds at any tolerance
    for i, value in enumerate(full.values):
        assert value.guaranteed <= np.mean([s.values[i].upper for s in subsets]) + 1e-9


def test_best_defense_lets_the_closer_see_the_card_he_draws():
    """Before drawing, declining the close draws him a card: worlds where he draws different
    cards are different information sets for him. In these two worlds he draws KC and KD,
    so after the draw he knows the world and best defense is worth PIMC's value."""
    position = ClosingPosition.from_json(
        {
            "preset": "sixty_six",
            "trump": "H",
            "face_up": "9H",
            "talon_size": 4,
            "hand": ["AH", "AS", "JS", "TD", "TS"],
            "gone": ["9C", "9D", "9S", "AC", "JC", "QC", "QD", "QH", "TC", "TH"],
            "opponent_known": ["KH"],
            "points": [21, 61],
            "tricks": [4, 1],
            "marriages": [[], ["H"]],
            "before_draw": True,
        }
    )
    assert [position.world(r).talon[0] for r in (133, 177)] == ["KC", "KD"]
    defense = best_defense_reference(position, ranks=[133, 177])
    [draw] = [v for o, v in zip(defense.options, defense.values, strict=True) if o.name == "draw"]
    assert draw.guaranteed == pytest.approx(draw.open_hand, abs=BEST_DEFENSE_TOLERANCE)


def test_best_defense_refuses_one_group_and_no_worlds():
    position = ClosingPosition.from_json(EXAMPLE)
    with pytest.raises(ValueError, match="groups=1 gives no interval; valid: 0"):
        best_defense_reference(position, groups=1)
    with pytest.raises(ValueError, match="ranks is empty"):
        best_defense_reference(position, ranks=[])


def test_best_defense_is_skipped_beyond_its_limits():
    position = ClosingPosition.from_json(EXAMPLE)
    assert "more than max_worlds=5" in best_defense_reference(position, max_worlds=5).skipped
    nodes = best_defense_reference(position).values[0].nodes  # closing's tree
    assert best_defense_reference(position, max_nodes=nodes).values[0].nodes == nodes
    assert best_defense_reference(position, max_nodes=nodes - 1).values[0] is None
    analysis = analyze(position, max_nodes=nodes - 1)
    assert analysis["best_defense"]["verdict"] is None


def test_the_documented_positions_are_valid():
    text = (Path(__file__).parent.parent / "docs" / "closing_positions.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 3
    for block in blocks:
        position = ClosingPosition.from_json(block)
        assert position.to_json() == json.loads(block)


def test_the_equilibrium_reference_reads_the_solved_values_in_either_seat(tmp_path):
    """Its close value is the solved strategy's value of closing at the leader's information
    set (``cfr.information_set_values``), and a deal with the other dealer gets its twin's."""
    from sixtysix.theory import cfr, closing_values, gametree

    path = tmp_path / "mini.npz"
    cfr.solve("mini_2x3", iterations=30, progress=False).save(path)
    tree = gametree.build("mini_2x3")
    values = cfr.information_set_values(tree, cfr.load_strategy(path).on_tree(tree))
    game = sixtysix.Game("mini_2x3")
    checked = 0
    for seed in range(40):
        deck = game.new_deal(seed=seed).deck
        state, twin = game.replay(deck, 1, []), game.replay(deck, 0, [])
        if "close" not in state.legal_actions():
            continue
        infoset = tree.information_set_of(state.view(state.current_player))
        legal = list(tree.infoset_legal[infoset, : tree.infoset_actions[infoset]])
        result = closing_values.equilibrium_reference(state, str(path))
        close = values[infoset, legal.index(A_CLOSE)]
        if "exchange" not in state.legal_actions():
            assert result["close_value"] == pytest.approx(close)
        assert result == closing_values.equilibrium_reference(twin, str(path))
        assert result["verdict"] == (
            "close" if result["close_value"] > result["best_alternative_value"] else "do not close"
        )
        checked += 1
    assert checked > 10
