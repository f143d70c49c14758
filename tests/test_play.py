"""``sixtysix play`` and the ``human`` agent: a scripted match at the terminal, reading the
choices, what a decision shows (and never shows), leaving cleanly, and refusals."""

from __future__ import annotations

import io
import random
import re

import pytest
from conftest import RANKS, SUITS, finish_randomly, game_of
from sixtysix.agents.human import (
    HumanAgent,
    PlayerLeft,
    deal_summary,
    describe_steps,
    offered_actions,
    parse_choice,
    render_view,
)
from sixtysix.experiments.tournament import TournamentConfig

from sixtysix import agents
from sixtysix.commands import cli
from sixtysix.engine.cards import mask_to_names

FIRST_OPTION = "1\n" * 2000
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def play(capsys, monkeypatch, stdin, *args: str) -> tuple[int, str]:
    """Exit code and stdout of ``sixtysix play ARGS`` with ``stdin`` as the person's input."""
    monkeypatch.setattr("sys.stdin", stdin if not isinstance(stdin, str) else io.StringIO(stdin))
    code = cli.main(["play", *args])
    return code, capsys.readouterr().out


def scripted(lines: str = FIRST_OPTION) -> tuple[HumanAgent, io.StringIO]:
    """A human reading ``lines``, and what it writes."""
    output = io.StringIO()
    return HumanAgent(input=io.StringIO(lines), output=output), output


def decisions(preset: str, seed: int, player: int = 0):
    """The views of ``player`` at his decisions in a random deal, and the finished state."""
    game = game_of(preset)
    state = game.new_deal(seed=seed)
    rng = random.Random(seed)
    views = []
    while not state.is_terminal:
        if state.current_player == player:
            views.append(state.view(player))
        state.apply(rng.choice(state.legal_actions()))
    return views, state


def shown(view) -> str:
    """All a decision prints about ``view``, the typing hint aside (its example cards)."""
    text = "\n".join([*describe_steps(view), render_view(view, (2, 5), 7)])
    return "\n".join(line for line in text.splitlines() if not line.startswith("Type "))


# ---- a whole match ------------------------------------------------------------------------


def test_a_scripted_match_against_random_finishes_with_the_winner(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, FIRST_OPTION, "--opponent", "random", "--seed", "3")
    assert code == 0
    assert out.startswith("sixty_six against random, match seed 3 (replay: --seed 3)")
    assert re.search(r"\*\*\* (You win|The opponent wins) the match \d+-\d+ \*\*\*\n$", out)
    deals = out.count("=== Deal ")
    assert deals == out.count("Deal over: ") >= 2
    assert out.count("Dealt hands: you ") == deals
    assert "  Opponent leads " in out and "  Opponent plays " in out
    assert re.search(r"  Trick \d+: (you|the opponent) took \w\w and \w\w \(\d+ points\)", out)
    final = re.findall(r"Match score: you (\d+), opponent (\d+)\n", out)[-1]
    assert max(map(int, final)) >= 7


def test_without_a_seed_a_fresh_one_is_printed_and_replays_the_match(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, FIRST_OPTION, "--opponent", "heuristic")
    seed = re.match(r"sixty_six against heuristic, match seed (\d+) \(replay: --seed \1\)", out)
    assert code == 0 and seed
    _, again = play(capsys, monkeypatch, FIRST_OPTION, "--opponent", "heuristic", "--seed", seed[1])
    assert again == out


def test_watching_a_match_does_not_change_it():
    game = game_of("schnapsen")
    human, _ = scripted()
    watched = agents.play_match(game, (human, "heuristic"), 11, observer=human)
    reference = agents.play_match(game, (scripted()[0], "heuristic"), 11)
    played = [(d.seed, d.dealer, d.history_ids, d.outcome) for d in watched.deals]
    assert played == [(d.seed, d.dealer, d.history_ids, d.outcome) for d in reference.deals]
    assert (watched.scores, watched.winner) == (reference.scores, reference.winner)
    assert watched.deals[0].specs == ("human", "heuristic")


# ---- reading the choice -------------------------------------------------------------------

LEGAL = ["play AH", "play KH", "play 9C", "marry KH", "marry QH", "close", "exchange"]


@pytest.mark.parametrize(
    ("typed", "action"),
    [
        ("1", "play AH"),
        (" 7 ", "exchange"),
        ("kh", "play KH"),
        ("play 9c", "play 9C"),
        ("lead AH", "play AH"),
        ("Marry kh", "marry KH"),
        ("marry QH", "marry QH"),
        ("CLOSE", "close"),
        ("swap", "exchange"),
    ],
)
def test_choices_by_number_or_notation_case_insensitive(typed, action):
    assert parse_choice(typed, LEGAL) == action


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("0", "0 is not an option: choose a number from 1 to 7"),
        ("99", "99 is not an option: choose a number from 1 to 7"),
        ("XX", "'XX' is not an action: type an option number, a card to play (QH)"),
        ("QS", "play QS is not legal here; legal: play AH, play KH, play 9C, marry KH"),
        ("marry spades", "marry KS is not legal here"),
        ("marry h", "say which card to lead: marry KH or marry QH"),
        ("", "type an option number from 1 to 7, or an action"),
    ],
)
def test_bad_choices_say_why(typed, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        parse_choice(typed, LEGAL)


def test_suits_and_the_exchange_on_close_have_short_forms():
    assert parse_choice("marry hearts", ["marry KH", "play KH"]) == "marry KH"
    assert parse_choice("marry claim h", ["marry-claim H", "pass"]) == "marry-claim H"
    assert parse_choice("exchange", ["exchange-on-close", "pass"]) == "exchange-on-close"
    assert parse_choice("10s", ["play TS"]) == "play TS"


def test_bad_input_is_asked_again_with_the_reason():
    views, _ = decisions("sixty_six", 1)
    view = views[0]
    legal = offered_actions(view)
    illegal = next(
        card for card in mask_to_names(view.unknown) if f"play {card}" not in view.legal_actions()
    )
    human, output = scripted(f"0\n99\nXX\n{illegal.lower()}\n{legal[1].lower()}\n")
    assert human.act(view) == legal[1]
    text = output.getvalue()
    assert f"0 is not an option: choose a number from 1 to {len(legal)}" in text
    assert f"99 is not an option: choose a number from 1 to {len(legal)}" in text
    assert "'XX' is not an action" in text
    assert f"play {illegal} is not legal here; legal: {', '.join(legal)}" in text
    assert text.count("Your choice: ") == 5


# ---- leaving ------------------------------------------------------------------------------


class Interrupted(io.StringIO):
    def readline(self, *args):
        raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("stdin", "code", "message"),
    [
        ("", 0, "\nYou left the match.\n"),
        ("1\n1\nquit\n", 0, "\nYou left the match.\n"),
        (Interrupted(), 130, "\nInterrupted: you left the match.\n"),
    ],
)
def test_end_of_input_quit_and_ctrl_c_leave_cleanly(capsys, monkeypatch, stdin, code, message):
    exit_code, out = play(capsys, monkeypatch, stdin, "--opponent", "random", "--seed", "4")
    assert exit_code == code
    assert out.endswith(message) and "Traceback" not in out


def test_leaving_is_not_an_agent_failure_that_forfeits_the_deal():
    human, _ = scripted("")
    with pytest.raises(PlayerLeft):
        agents.play_deal(game_of("sixty_six"), (human, "random"), seed=2)


# ---- what a decision shows ----------------------------------------------------------------


def test_a_decision_shows_hand_trump_talon_scores_and_known_cards():
    for seed in range(200):  # the first deal where P0 decides knowing an opponent's card
        views, _ = decisions("sixty_six", seed)
        known = [v for v in views if v.known_opponent and v.talon_size and not v.closed_by]
        if known:
            view = known[0]
            break
    text = render_view(view, (3, 1), 7)
    me, them = view.player, view.opponent
    trump = view.trump_suit
    hand = mask_to_names(view.hand)
    by_suit = [
        " ".join(rank + suit + "*" * (suit == trump) for rank in RANKS[::-1] if rank + suit in hand)
        for suit in SUITS
    ]
    assert f"Your hand: {' | '.join(filter(None, by_suit))}   (* trump)" in text
    assert f"Trump: {SUIT_NAMES[SUITS.index(trump)]} ({trump})" in text
    assert f"talon {view.talon_size} cards" in text
    assert f"face-up card {mask_to_names(1 << view.face_up_card)[0]}" in text
    assert f"Points: you {view.card_points[me]}" in text
    assert f"opponent {view.card_points[them]}" in text
    assert f"Tricks: you {view.tricks_won[me]}, opponent {view.tricks_won[them]}" in text
    assert "Match score: you 3, opponent 1 (playing to 7)" in text
    known_line = next(line for line in text.splitlines() if line.startswith("Opponent holds"))
    for card in mask_to_names(view.known_opponent):
        assert card in known_line
    options = re.findall(r"^ +(\d+)\) (.+)$", text, re.MULTILINE)
    assert [action for _, action in options] == offered_actions(view)
    assert sorted(offered_actions(view)) == view.legal_actions()


@pytest.mark.parametrize("preset", ["sixty_six", "schnapsen"])
def test_the_display_never_changes_with_hidden_cards(preset):
    hidden_hands_differ = False
    for seed in range(6):
        views, _ = decisions(preset, seed)
        for number, view in enumerate(views):
            text = shown(view)
            worlds = view.sample_worlds(4, seed * 100 + number)
            for world in worlds:
                assert shown(world.view(view.player)) == text
            hidden_hands_differ |= len({tuple(w.hands[view.opponent]) for w in worlds}) > 1
            for card in mask_to_names(view.unknown):  # and never names an unseen card
                assert not re.search(rf"\b{card}\b", text)
    assert hidden_hands_differ  # the worlds did swap hidden cards


def test_the_opponents_moves_and_each_trick_are_announced():
    game = game_of("sixty_six")
    for seed in range(300):  # a deal where the opponent (P1) marries and closes
        state = finish_randomly(game.new_deal(seed=seed), random.Random(seed))
        kinds = {action.split()[0] for player, action in state.history if player == 1}
        if {"marry", "close"} <= kinds:
            break
    lines = describe_steps(state.view(0))
    marriage = next(action for player, action in state.history if player == 1 and "marry" in action)
    suit = SUITS.index(marriage[-1])
    points = 40 if suit == state.trump else 20
    name = SUIT_NAMES[suit]
    assert f"Opponent marries {name} ({points}) and leads {marriage[-2:]}" in lines
    assert any(line.startswith("Opponent closes the talon") for line in lines)
    tricks = [line for line in lines if line.startswith("Trick ")]
    assert len(tricks) == state.tricks_played
    for line in tricks:
        cards = re.search(r"took (\w\w) and (\w\w)", line).groups()
        taker = 0 if "you took" in line else 1
        assert all(card in state.won_cards[taker] for card in cards)


def test_the_end_of_a_deal_shows_the_outcome_and_both_dealt_hands():
    views, state = decisions("schnapsen", 3)
    text = deal_summary(state, state.outcome)
    winner, points, _ = state.outcome
    assert text.startswith("Deal over: ")
    assert f"{points} game point" in text
    for player in (0, 1):
        for card in mask_to_names(state.view(player).initial_hand):
            assert card in text.split("Dealt hands: ")[1].splitlines()[0]
        for card in state.won_cards[player]:
            assert card in text.split("Cards won: ")[1]


# ---- refusals and help --------------------------------------------------------------------


def test_the_tournament_refuses_interactive_agents(capsys, tmp_path):
    assert agents.BUILTIN["human"].factory.interactive
    assert {a["name"]: a["interactive"] for a in agents.available()}["human"] is True
    with pytest.raises(ValueError, match="'human' is interactive"):
        TournamentConfig(agents=("human", "random"), deals=2)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(
            ["tournament", "--agents", "human", "random", "--out", str(tmp_path / "t.parquet")]
        )
    assert exit_info.value.code == 2
    assert "'human' is interactive" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponent", "human"], "'human' is not an agent that plays itself"),
        (["--opponent", "nobody"], "unknown agent 'nobody'"),
        (["--opponent", "random", "--preset", "vu_schnapsen"], "invalid choice: 'vu_schnapsen'"),
        (["--opponent", "random", "--rule", "match_target=none"], "plays no match"),
        ([], "the following arguments are required: --opponent"),
    ],
)
def test_play_refuses_bad_arguments(capsys, args, message):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", *args])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_play_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--opponent SPEC", "--preset PRESET", "--seed SEED", "--rule OPTION=VALUE"):
        assert option in out
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "play a match against an agent at the terminal" in capsys.readouterr().out
