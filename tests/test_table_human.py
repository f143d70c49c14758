"""The ``human`` agent at a table of two to four (``sixtysix play --preset snapszer4``):
scripted deals of snapszer4, snapszer3_called (with a call) and na66 (with a bid), what a
decision shows and never shows (hidden cards, a called card's holder before the reveal),
reading the table actions, bad input, leaving, and the command's refusals."""

from __future__ import annotations

import io
import random
import re

import pytest
from sixtysix.agents.human import (
    TABLE_REASON_TEXTS,
    HumanAgent,
    describe_table_steps,
    offered_actions,
    parse_choice,
    render_table_view,
    table_deal_summary,
)
from test_table_agents import replayed, swapped_deck, swaps_to_try

import sixtysix
from sixtysix.commands import cli
from sixtysix.engine import multi_core as mc
from sixtysix.engine.cards import card_name, mask_to_names
from sixtysix.engine.multi_rules import TABLE_MINI_PRESETS, TABLE_PRESETS

FIRST_OPTION = "1\n" * 3000
#: Every table preset, and the Snapszer ones with announcements and the first-batch call.
GAMES = [
    *((preset, {}) for preset in [*TABLE_PRESETS, *TABLE_MINI_PRESETS]),
    ("snapszer3", {"announcements": "durchmars"}),
    ("snapszer3_called", {"announcements": "durchmars", "call_timing": "first_batch"}),
    ("snapszer4", {"announcements": "durchmars_betli"}),
    ("snapszer4_called", {"announcements": "durchmars_betli"}),
]


def play(capsys, monkeypatch, stdin: str, args: str) -> tuple[int, str]:
    """Exit code and stdout of ``sixtysix play ARGS`` with ``stdin`` as the person's input."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = cli.main(["play", *args.split()])
    return code, capsys.readouterr().out


def first_seat(preset: str, seed: int) -> int:
    """The seat that speaks first (calls, bids first) in the first deal of match ``seed``."""
    game = sixtysix.Game(preset)
    return (sixtysix.Match(game, seed).dealer + 1) % game.num_players


def first_deal(out: str) -> str:
    """The text of a match's first deal."""
    return out.split("=== Deal 2")[0]


def shown(view) -> str:
    """All a decision prints about ``view`` (the match score aside)."""
    return "\n".join([*describe_table_steps(view), render_table_view(view)])


def random_deal(game, seed: int):
    """A deal played to its end with random actions: every ``(state before, seat)`` of a
    decision, and the finished state."""
    state = game.new_deal(seed=seed)
    rng = random.Random(seed)
    decisions = []
    while not state.is_terminal:
        decisions.append((state.clone(), state.current_player))
        state.apply(rng.choice(state.legal_actions()))
    return decisions, state


# ---- whole deals at the command line ------------------------------------------------------


def test_a_scripted_snapszer4_match_plays_to_its_winner(capsys, monkeypatch):
    code, out = play(
        capsys, monkeypatch, FIRST_OPTION, "--preset snapszer4 --opponent random --seed 3"
    )
    assert code == 0
    assert out.startswith(
        "snapszer4: you in seat 0 against random in every other seat, match seed 3 "
        "(replay: --seed 3)"
    )
    deals = out.count("=== Deal ")
    assert deals == out.count("Deal over: ") >= 2
    assert out.count("Dealt hands: you ") == deals
    assert re.search(r"\*\*\* (Your|The other) team wins the match \d+-\d+ \*\*\*\n$", out)
    assert "Sides: you and seat 2 against seat 1 and seat 3" in out
    assert re.search(r"  Trick \d+: (you|seat \d) took \w\w \w\w \w\w \w\w \(\d+ points\)", out)
    for seat in (1, 2, 3):
        assert f"  Seat {seat} plays " in out
    won, mine, theirs = re.search(
        r"\*\*\* (Your|The other) team wins the match (\d+)-(\d+)", out
    ).groups()
    assert (won == "Your") == (int(mine) > int(theirs)) and max(int(mine), int(theirs)) >= 7


def test_a_snapszer3_called_deal_with_the_persons_call(capsys, monkeypatch):
    seat = first_seat("snapszer3_called", 5)
    code, out = play(
        capsys,
        monkeypatch,
        "AS\n" + FIRST_OPTION,
        f"--preset snapszer3_called --opponent random --seed 5 --seat {seat}",
    )
    assert code == 0
    deal = first_deal(out)
    assert "--- you call a card: its suit becomes trump, its holder your partner ---" in deal
    assert "  You call AS: spades are trump" in deal
    assert "Called card: AS, called by you" in deal
    assert "Deal over: " in deal and "Dealt hands: " in deal
    assert re.search(
        r"\*\*\* (You win|Seat \d wins) the match: (you|seat 0) \d+, .* \*\*\*\n$", out
    )


def test_a_na66_deal_with_the_persons_bid_then_quit(capsys, monkeypatch):
    seat = first_seat("na66", 2)
    stdin = "bid 2\n" + "1\n" * 12 + "quit\n"
    code, out = play(
        capsys, monkeypatch, stdin, f"--preset na66 --opponent random --seed 2 --seat {seat}"
    )
    assert code == 0
    deal = first_deal(out)
    assert "--- your bid, or pass ---" in deal
    assert "  You bid 2 (66 points)" in deal
    assert re.search(r"Auction: you bid 2 \(66 points\)", deal)
    assert re.search(r"Contract: (you|seat \d), level \d", deal)
    assert "Deal over: " in deal and "Game points: " in deal
    assert out.endswith("\nYou left the match.\n")


def test_one_spec_per_other_seat(capsys, monkeypatch):
    code, out = play(
        capsys,
        monkeypatch,
        "quit\n",
        "--preset snapszer3 --opponent random heuristic --seat 1 --seed 1",
    )
    assert code == 0
    assert out.startswith(
        "snapszer3: you in seat 1 against random in seat 0, heuristic in seat 2, match seed 1"
    )


@pytest.mark.parametrize("stdin", ["", "1\nquit\n", "QUIT\n"])
def test_quit_and_the_end_of_input_leave_cleanly(capsys, monkeypatch, stdin):
    code, out = play(
        capsys, monkeypatch, stdin, "--preset snapszer4_called --opponent random --seed 4"
    )
    assert code == 0
    assert out.endswith("\nYou left the match.\n") and "Traceback" not in out


def test_bad_input_at_the_command_line_is_asked_again(capsys, monkeypatch):
    code, out = play(
        capsys,
        monkeypatch,
        "99\nZZ\n" + FIRST_OPTION[:40] + "quit\n",
        "--preset snapszer4 --opponent random --seed 3",
    )
    prompts = out.split("Your choice: ")
    options = re.findall(r"^ +\d+\) (.+)$", prompts[0], re.MULTILINE)
    assert prompts[1].startswith(f"  99 is not an option: choose a number from 1 to {len(options)}")
    assert prompts[2].startswith(
        "  'ZZ' is not an action: type an option number, a card to play (QH), or one of "
        f"{', '.join(options)}\n"
    )
    assert code == 0 and out.endswith("\nYou left the match.\n")


# ---- reading the choice -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "legal", "action"),
    [
        ("as", ["call AS", "call KS", "call AH"], "call AS"),
        ("call 10h", ["call TH", "call KS"], "call TH"),
        ("durchmars", ["announce betli", "announce durchmars", "pass"], "announce durchmars"),
        ("Betli", ["announce betli", "announce durchmars", "pass"], "announce betli"),
        ("bid 2", ["bid 1", "bid 2", "bid 5", "pass"], "bid 2"),
        ("moon", ["bid 4", "bid 5", "pass"], "bid 5"),
        ("PASS", ["bid 4", "bid 5", "pass"], "pass"),
        ("meld hearts", ["meld H", "pass"], "meld H"),
        ("qh", ["play QH", "play KH", "marry QH"], "play QH"),
    ],
)
def test_table_actions_by_notation(typed, legal, action):
    assert parse_choice(typed, legal) == action


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("7", "7 is not an option: choose a number from 1 to 3"),
        (
            "bid 9",
            "'bid 9' is not an action: type an option number, a card to play (QH), or "
            "one of bid 4, bid 5, pass",
        ),
        ("bid 2", "bid 2 is not legal here; legal: bid 4, bid 5, pass"),
        ("betli", "announce betli is not legal here; legal: bid 4, bid 5, pass"),
    ],
)
def test_bad_table_choices_name_the_value_and_the_valid_ones(typed, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        parse_choice(typed, ["bid 4", "bid 5", "pass"])


def test_bad_input_at_a_call_is_asked_again_with_the_reason():
    game = sixtysix.Game("snapszer4_called")
    state = game.new_deal(seed=1)
    view = state.view(state.current_player)
    legal = offered_actions(view)
    assert view.phase == "call" and len(legal) == 32
    output = io.StringIO()
    human = HumanAgent(input=io.StringIO("0\nplay AS\nqq\nks\n"), output=output)
    assert human.act(view) == "call KS"
    text = output.getvalue()
    assert "0 is not an option: choose a number from 1 to 32" in text
    assert f"play AS is not legal here; legal: {', '.join(legal)}" in text
    assert "'qq' is not an action" in text
    assert text.count("Your choice: ") == 4
    assert re.search(r"^   1\) call AC   2\) call TC .* 5\) call JC$", text, re.MULTILINE)


# ---- what a decision shows ----------------------------------------------------------------


def test_a_snapszer4_decision_shows_hand_trump_talon_trick_teams_and_points():
    game = sixtysix.Game("snapszer4")
    decisions, _ = random_deal(game, 7)
    state, seat = next((s, p) for s, p in decisions if s.phase == "follow" and len(s.trick) == 2)
    view = state.view(seat)
    text = render_table_view(view, "Match score: X")
    trump = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[view.trump_suit]
    assert f"Trump: {trump} ({view.trump_suit}); talon {view.talon_size} cards, " in text
    assert f"the face-up card {view.face_up} at the bottom" in text
    partner = (seat + 2) % 4
    assert f"Sides: you and seat {partner} against " in text
    (first, led), (second, played) = view.trick
    names = {seat: "you", **{s: f"seat {s}" for s in range(4) if s != seat}}
    assert f"On the table: {names[first]} led {led}, {names[second]} played {played}" in text
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand: "))
    groups = hand_line[len("Your hand: ") :].split("   ")[0].split(" | ")
    assert sorted(card.rstrip("*") for group in groups for card in group.split()) == view.hand
    assert [group[1] for group in groups] == sorted(
        {card[1] for card in view.hand}, key="CDHS".index
    )
    for group in groups:
        assert all(card.endswith("*") == (card[1] == view.trump_suit) for card in group.split())
    assert "Match score: X" in text
    options = re.findall(r"^ +\d+\) (.+)$", text, re.MULTILINE)
    assert options == offered_actions(view) and sorted(options) == view.legal_actions()


def test_the_moves_since_the_last_decision_are_announced_by_seat():
    game = sixtysix.Game("snapszer4")
    _, state = random_deal(game, 4)
    view = state.view(1)
    lines = describe_table_steps(view)
    tricks = [line for line in lines if line.startswith("Trick ")]
    assert len(tricks) == sum(state.tricks_won)
    for line in tricks:
        taker, cards = re.match(r"Trick \d+: (you|seat \d) took ((?:\w\w ?){4})", line).groups()
        taker_seat = 1 if taker == "you" else int(taker[-1])
        assert set(cards.split()) <= set(state.won_cards[taker_seat])
    plays = [line for line in lines if re.match(r"(You|Seat \d) (lead|leads|play|plays) ", line)]
    assert len(plays) == sum(action < mc.A_CALL for _, action in state.history_ids)
    later = describe_table_steps(view, 5)
    assert later == [line for line in lines if line not in lines[: len(lines) - len(later)]]


def test_the_end_of_a_deal_shows_every_dealt_hand_and_the_outcome():
    game = sixtysix.Game("snapszer3")
    _, state = random_deal(game, 2)
    text = table_deal_summary(state, 0, state.outcome)
    assert text.startswith("Deal over: ")
    dealt = text.split("Dealt hands: ")[1].splitlines()[0]
    for hand in state.hand_log[0]:
        for card in mask_to_names(hand):
            assert card in dealt
    talon = dealt.split("talon (top first, the face-up card last) ")[1].split()
    assert talon == [card_name(int(state.deck[p])) for p in game.talon_positions]
    assert talon[-1] == state.face_up_at_deal
    assert TABLE_REASON_TEXTS[state.reason] in text
    assert set(TABLE_REASON_TEXTS) == set(mc.TABLE_REASONS)


@pytest.mark.parametrize(("preset", "options"), GAMES, ids=lambda g: str(g))
def test_the_display_never_changes_with_hidden_cards(preset, options):
    """At decisions of every seat, every swap of two cards the seat cannot see (between
    other seats and the talon, the called card between two other seats first) that keeps
    its view leaves everything shown the same."""
    game = sixtysix.Game(preset, **options)
    compared = changed = partner_moved = 0
    for seed in range(3):
        decisions, _ = random_deal(game, seed)
        for number, (truth, seat) in enumerate(decisions[:: max(1, len(decisions) // 6)]):
            text = shown(truth.view(seat))
            for first, second in swaps_to_try(truth, seat, random.Random(seed * 100 + number)):
                other = replayed(
                    game,
                    swapped_deck(truth, first, second),
                    truth.dealer,
                    [a for _, a in truth.history_ids],
                )
                if other is None or other.view(seat).key() != truth.view(seat).key():
                    continue
                assert shown(other.view(seat)) == text, (seed, seat, first, second)
                compared += 1
                changed += (other.hands, other.talon) != (truth.hands, truth.talon)
                called = truth.called_card
                partner_moved += bool(called) and [called in h for h in other.hands] != [
                    called in h for h in truth.hands
                ]
    assert compared >= 10 and changed >= (10 if game.num_players > 2 else 0)
    if game.rules.sides == "called_card":
        assert partner_moved >= 1


@pytest.mark.parametrize(
    ("preset", "options"),
    [g for g in GAMES if sixtysix.Game(g[0], **g[1]).rules.sides == "called_card"],
    ids=lambda g: str(g),
)
def test_a_called_cards_holder_is_named_only_once_the_seat_knows_him(preset, options):
    game = sixtysix.Game(preset, **options)
    unknown = known = 0
    for seed in range(8):
        decisions, _ = random_deal(game, seed)
        for state, seat in decisions:
            if state.called_card is None:
                continue
            view = state.view(seat)
            sides = next(
                line for line in render_table_view(view).splitlines() if line.startswith("Sides: ")
            )
            caller = (state.dealer + 1) % state.num_players
            holder = next(
                (s for s, hand in enumerate(state.hands) if state.called_card in hand), None
            )
            if not view.is_partner_known:
                unknown += 1
                assert "stays unknown until it is played" in sides
                assert "(the holder" not in sides and "alone" not in sides
            elif holder not in (None, caller) and "betli" not in sides:
                known += 1
                holder_name = "you" if holder == seat else f"seat {holder}"
                assert f"{holder_name} (the holder of {state.called_card})" in sides
    assert unknown and known


# ---- the command's refusals and help ------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--preset", "snapszer4", "--opponent", "random", "random"],
            "argument --opponent: snapszer4 takes one SPEC for every other seat or 3, one per "
            "other seat; got 2: random random",
        ),
        (
            ["--preset", "snapszer4", "--opponent", "random", "--seat", "4"],
            "argument --seat: invalid seat 4: snapszer4 has seats 0 to 3",
        ),
        (
            ["--opponent", "random", "--seat", "1"],
            "argument --seat: sixty_six is a two-player match: you are player 0",
        ),
        (
            ["--opponent", "random", "random"],
            "argument --opponent: sixty_six takes one SPEC, the opponent's; got 2: random random",
        ),
        (
            ["--preset", "na66", "--opponent", "random", "human"],
            "'human' is not an agent that plays itself",
        ),
    ],
)
def test_play_refuses_a_bad_table(capsys, args, message):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", *args])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_play_help_names_the_table_options(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--seat SEAT" in out and "--opponent SPEC [SPEC ...]" in out
    assert "one SPEC plays every other seat, or give one per other seat in seat order" in out
    for preset in [*TABLE_PRESETS, *TABLE_MINI_PRESETS]:
        assert preset in out
