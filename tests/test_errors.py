"""Bad input gives clear errors and leaves the state unchanged.

Covers: illegal actions (the message lists the legal ones; nothing changes),
garbage action strings and non-action objects, actions after the deal is over,
unknown presets and options, invalid option values, inconsistent options, bad
decks (missing, duplicated, unknown cards, a nine in a 20-card game), bad
dealers and bad ``new_deal`` arguments, and ``Match`` misuse. Each message must
name the bad value itself and, where it says what is valid, list that.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import RANKS, SUITS, deck_of, finish_randomly, finished_deal, game_of, snapshot

import sixtysix
from sixtysix import IllegalActionError
from sixtysix.engine.actions import NUM_ACTIONS, action_name, parse_action
from sixtysix.engine.cards import RANKS as CARD_RANKS
from sixtysix.engine.cards import parse_card

PRESET_NAMES = tuple(sixtysix.PRESETS)
#: What the message of an unknown action, card or suit lists as valid.
VALID_FORMS = {
    "action": [
        "'play <card>'",
        "'marry <K or Q>'",
        "'marry-claim <suit>'",
        "'exchange', 'close', 'claim', 'exchange-on-close', 'draw', 'pass'",
    ],
    "card": [f"a rank from {' '.join(CARD_RANKS)} (or 10) followed by a suit from C D H S"],
    "suit": ["valid suits are C, D, H, S"],
}


def message_of(call, *args, error=ValueError, **kwargs) -> str:
    """The message of the ``error`` that ``call(*args, **kwargs)`` raises."""
    with pytest.raises(error) as info:
        call(*args, **kwargs)
    return str(info.value)


def legal_text(state) -> str:
    """How an error message lists the legal actions of ``state``."""
    return "legal actions: " + ", ".join(state.legal_actions())


def midgame_states(preset: str, claim_mode: str | None = None, count: int = 6):
    """A few states at various points of seeded random deals (never terminal)."""
    game = game_of(preset, claim_mode)
    rng = random.Random(preset)
    states = []
    for seed in range(count):
        state = game.new_deal(seed=seed)
        stop = rng.randrange(0, 12)
        for _ in range(stop):
            legal = [a for a in state.legal_actions() if a not in ("claim", "close")]
            legal = [a for a in legal if not a.startswith("marry-claim")] or state.legal_actions()
            nxt = state.clone().apply(rng.choice(legal))
            if nxt.is_terminal:
                break
            state = nxt
        states.append(state)
    return states


def illegal_candidates(state) -> list[str]:
    """Well-formed actions that are not legal in ``state``."""
    legal = set(state.legal_actions())
    words = ["exchange", "close", "claim", "exchange-on-close", "draw", "pass"]
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    actions = words + [f"play {c}" for c in cards] + [f"marry {c}" for c in cards]
    actions += [f"marry-claim {s}" for s in SUITS]
    return [a for a in actions if a not in legal]


# ---- illegal actions ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_illegal_action_lists_legal_actions_and_changes_nothing(preset):
    for state in midgame_states(preset, claim_mode="manual"):
        legal = state.legal_actions()
        before = snapshot(state)
        for action in illegal_candidates(state):
            message = message_of(state.apply, action, error=IllegalActionError)
            assert message == f"illegal action {action!r}; {legal_text(state)}"
            assert snapshot(state) == before
        # the state still works afterwards
        state.apply(legal[0])
        assert state.history[-1][1] == legal[0]


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, ValueError)


def test_playing_an_opponents_card_is_illegal():
    game = game_of("sixty_six")
    state = game.new_deal(deck=deck_of(game), dealer=0)
    other = state.hands[state.dealer][0]
    before = snapshot(state)
    message = message_of(state.apply, f"play {other}", error=IllegalActionError)
    assert message == f"illegal action 'play {other}'; {legal_text(state)}"
    assert snapshot(state) == before


def test_talon_card_and_wrong_phase_actions_are_illegal():
    game = game_of("sixty_six")
    state = game.new_deal(deck=deck_of(game), dealer=0)
    before = snapshot(state)
    top = state.talon[0]
    for action in (f"play {top}", "draw", "pass", "exchange-on-close", "claim"):
        message = message_of(state.apply, action, error=IllegalActionError)
        assert message == f"illegal action {action!r}; {legal_text(state)}"
    assert snapshot(state) == before


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_illegal_action_ids_are_rejected(preset):
    for state in midgame_states(preset, count=3):
        before = snapshot(state)
        ids = set(state.legal_action_ids())
        bad = [-1, -100, NUM_ACTIONS, 999, 2**40] + [a for a in range(NUM_ACTIONS) if a not in ids]
        for action in bad:
            message = message_of(state.apply, action, error=IllegalActionError)
            named = f" ({action_name(action)})" if 0 <= action < NUM_ACTIONS else ""
            assert message == f"illegal action {action}{named}; {legal_text(state)}"
        assert snapshot(state) == before


# ---- garbage actions ---------------------------------------------------------------------

GARBAGE = {  # action text: what the message names as unknown
    "": "action ''",
    "   ": "action '   '",
    "play": "action 'play'",
    "marry": "action 'marry'",
    "marry-claim": "action 'marry-claim'",
    "play ZZ": "card 'ZZ'",
    "play XZ": "card 'XZ'",
    "play 11H": "card '11H'",
    "play Q": "card 'Q'",
    "play QHH": "card 'QHH'",
    "play QH KH": "action 'play QH KH'",
    "plays QH": "action 'plays QH'",
    "foo": "action 'foo'",
    "exchange now": "action 'exchange now'",
    "claim!": "action 'claim!'",
    "marry-claim X": "suit 'X'",
    "marry-claim HH": "suit 'HH'",
    "QH": "action 'QH'",
    "play-QH": "action 'play-QH'",
}


@pytest.mark.parametrize("text", GARBAGE)
def test_garbage_action_strings_raise_value_error(text):
    unknown = GARBAGE[text]
    state = game_of("sixty_six").new_deal(seed=11)
    before = snapshot(state)
    message = message_of(state.apply, text)
    # the message names the offending text (and its bad part) and what is valid there
    named = f"unknown {unknown}: "
    if not unknown.startswith("action"):
        named = f"unknown action {text!r}: {named}"
    assert message.startswith(named), message
    for valid in VALID_FORMS[unknown.split()[0]]:
        assert valid in message, (valid, message)
    assert message.endswith(f"; {legal_text(state)}"), message
    assert snapshot(state) == before


def not_an_action(thing, state) -> str:
    """The message for ``thing``, neither an action string nor an action id."""
    return (
        f"invalid action {thing!r}: give an action string like 'play QH' or an action id; "
        f"{legal_text(state)}"
    )


@pytest.mark.parametrize("thing", [None, ["play QH"], {"play": "QH"}, object()])
def test_non_action_objects_are_rejected(thing):
    state = game_of("sixty_six").new_deal(seed=11)
    before = snapshot(state)
    message = message_of(state.apply, thing, error=(TypeError, ValueError))
    assert message == not_an_action(thing, state)
    assert snapshot(state) == before


@pytest.mark.parametrize("thing", [True, False, 1.0, 2.7])
def test_bool_and_float_actions_are_rejected(thing):
    game = game_of("sixty_six")
    # 9C, JC, QC (action ids 0, 1, 2) are in the non-dealer's hand, so those ids are legal
    deck = ["9C", "JC", "QC", "KC", "TC", "AC", *deck_of(game)[6:]]
    state = game.new_deal(deck=deck, dealer=1)
    before = snapshot(state)
    message = message_of(state.apply, thing, error=(TypeError, ValueError))
    assert message == not_an_action(thing, state)
    assert snapshot(state) == before


def test_action_parsing_is_case_and_space_insensitive():
    game = game_of("sixty_six")
    deck = deck_of(game)
    deck[0], deck[4] = deck[4], deck[0]  # the non-dealer gets TC
    state = game.new_deal(deck=deck, dealer=1)
    assert "TC" in state.hands[0]
    card = state.hands[0][1]
    state.clone().apply(f"  PLAY   {card.lower()} ")
    other = state.clone()
    other.apply(f"  PLAY   {card.lower()} ")
    assert other.history == [(0, f"play {card}")]
    state.apply("play 10c")
    assert state.history == [(0, "play TC")]


# ---- after the deal is over ----------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_actions_after_the_deal_is_over_are_rejected(preset):
    state = finished_deal(game_of(preset), 3)
    assert state.is_terminal and state.current_player is None and state.legal_actions() == []
    outcome = state.outcome
    before = snapshot(state)
    leftovers = [f"play {card}" for hand in state.hands for card in hand]
    claim = parse_action("claim")
    for action in leftovers + ["claim", "pass", "draw", "close", "play AS", "exchange", 0, claim]:
        message = message_of(state.apply, action, error=IllegalActionError)
        named = f" ({action_name(action)})" if isinstance(action, int) else ""
        assert message == f"illegal action {action!r}{named}; legal actions: none: the deal is over"
    assert snapshot(state) == before
    assert state.outcome == outcome


# ---- presets and options -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sixtysix", "Sixty_Six", "schnapsen ", "", "66", "bridge"])
def test_unknown_preset_lists_valid_presets(name):
    message = message_of(sixtysix.Game, name)
    assert message.startswith(f"unknown preset {name!r}: valid presets are "), message
    for preset in PRESET_NAMES + tuple(sixtysix.MINI_PRESETS):
        assert preset in message


@pytest.mark.parametrize("option", ["colour", "claimmode", "Deck", "goal", "players"])
def test_unknown_option_lists_valid_options(option):
    message = message_of(sixtysix.Game, "sixty_six", **{option: 1})
    assert message.startswith(f"unknown rule option {option!r}: valid options are "), message
    for name in sixtysix.OPTION_NAMES:
        assert name in message
    for name in ("claim_mode", "deal_pattern", "match_target", "trick_winner_rule"):
        assert name in message


BOOLS = ["True", "False"]
DEAL_PATTERNS = [
    "'N3 D3 N3 D3 T'",
    "'N3 D3 T N2 D2'",
    "'N3 D3 T N3 D3'",
    "'3 x (N2 D2) T'",
    "'alternate singles; trump = last card'",
    "'N2 D2 T'",
    "'N3 D3 T'",
]
POSITIVE_OR_NONE = ["a positive integer or None"]
INVALID_VALUES = [  # (option, value, every valid value the message lists)
    ("claim_mode", "sometimes", ["'manual'", "'optional_verified'", "'automatic'"]),
    ("claim_mode", "Manual", ["'manual'", "'optional_verified'", "'automatic'"]),
    ("deck", 32, ["24", "20"]),
    ("deck", "24", ["24", "20"]),
    ("deck", True, ["24", "20"]),
    ("hand_size", 7, ["2", "3", "5", "6"]),
    ("nine_points", 2, ["0", "1"]),
    ("trick_winner_rule", "highest", ["'standard'", "'value_open_phase'", "'value_always'"]),
    ("exchange_rank", 9, ["'9'", "'J'"]),
    ("exchange_rank", "Q", ["'9'", "'J'"]),
    ("exchange_min_talon", 3, ["2", "4"]),
    ("close_min_talon", 0, ["2", "4"]),
    ("last_trick_bonus", 20, ["0", "10"]),
    ("last_trick_bonus", True, ["0", "10"]),
    ("next_dealer", "loser", ["'winner_of_deal'", "'alternate'"]),
    ("marriage_lead_card", "ace", ["'either'", "'king'", "'queen'"]),
    ("marriage_points_validation", "never", ["'any_trick'", "'next_trick_after_declaration'"]),
    (
        "exhausted_no_claim_rule",
        "replay",
        ["'higher_total_wins'", "'last_trick_winner'", "'no_score'"],
    ),
    ("false_claim_penalty", "fixed_3", ["'fixed_2'", "'two_or_three'"]),
    ("game_point_scale", "german", ["'standard'", "'czech'"]),
    ("schwarz_basis", "no_points", ["'no_tricks'", "'zero_points'"]),
    ("closer_win_basis", "at_start", ["'at_end'", "'at_close'"]),
    ("opponent_out_after_close", "fixed_3", ["'as_failed_close'", "'fixed_2'"]),
    (
        "failed_close_penalty",
        "always_2",
        ["'two_or_three_by_tricks_at_close'", "'always_3'", "'by_closer_points'", "'czech_6_or_3'"],
    ),
    ("draw_bonus_next_deal", 2, ["0", "1"]),
    ("closing_allowed", "yes", BOOLS),
    ("closing_allowed", 1, BOOLS),
    ("strict_must_head", None, BOOLS),
    ("match_shutout_double", "no", BOOLS),
    ("deal_pattern", "N6 D6 T", DEAL_PATTERNS),
    ("match_target", 0, POSITIVE_OR_NONE),
    ("match_target", -7, POSITIVE_OR_NONE),
    ("match_target", 7.5, POSITIVE_OR_NONE),
    ("match_target", "7", POSITIVE_OR_NONE),
    ("match_target", True, POSITIVE_OR_NONE),
]


@pytest.mark.parametrize(("option", "value", "valid"), INVALID_VALUES)
def test_invalid_option_value_names_value_and_valid_ones(option, value, valid):
    message = message_of(sixtysix.Game, "sixty_six", **{option: value})
    named = f"invalid value {value!r} for rule option {option!r}: valid values are "
    assert message.startswith(named), message
    listed = message.removeprefix(named)
    for text in valid:
        assert text in listed, (text, message)


@pytest.mark.parametrize(
    ("preset", "overrides", "words"),
    [
        # R-A9: a pattern that deals a different number of cards than hand_size
        ("sixty_six", {"hand_size": 5}, ["deal_pattern 'N3 D3 N3 D3 T' deals 6", "hand_size is 5"]),
        ("czech", {"hand_size": 5}, ["deal_pattern 'N3 D3 T N3 D3' deals 6", "hand_size is 5"]),
        ("slovak", {"hand_size": 5}, ["deal_pattern '3 x (N2 D2) T' deals 6", "hand_size is 5"]),
        ("hatvanhat", {"hand_size": 6}, ["deal_pattern 'N3 D3 T N2 D2' deals 5", "hand_size is 6"]),
        ("schnapsen", {"hand_size": 6}, ["deal_pattern 'N3 D3 T N2 D2' deals 5", "hand_size is 6"]),
        (
            "sixty_six",
            {"deal_pattern": "N3 D3 T N2 D2"},
            ["deal_pattern 'N3 D3 T N2 D2' deals 5", "hand_size is 6"],
        ),
        (
            "hatvanhat",
            {"deal_pattern": "N3 D3 N3 D3 T"},
            ["deal_pattern 'N3 D3 N3 D3 T' deals 6", "hand_size is 5"],
        ),
        # a nine exchange (or nine points) needs nines
        ("schnapsen", {"exchange_rank": "9"}, ["exchange_rank='9' needs nines, but deck=20"]),
        ("vu_schnapsen", {"exchange_rank": "9"}, ["exchange_rank='9' needs nines, but deck=20"]),
        ("schnapsen", {"nine_points": 1}, ["nine_points=1 needs nines, but deck=20"]),
        (
            "sixty_six",
            {"deck": 20},
            ["exchange_rank='9' needs nines, but deck=20", "set deck=24 or exchange_rank='J'"],
        ),
        (
            "hatvanhat",
            {"deck": 20, "exchange_rank": "J"},
            ["nine_points=1 needs nines, but deck=20", "set deck=24 or nine_points=0"],
        ),
    ],
)
def test_inconsistent_options_are_rejected(preset, overrides, words):
    message = message_of(sixtysix.Game, preset, **overrides)
    assert message.startswith("invalid rules: "), message
    for word in words:
        assert word in message, (word, message)


def test_consistent_overrides_are_accepted():
    game = sixtysix.Game("sixty_six", hand_size=5, deal_pattern="N3 D3 T N2 D2")
    assert len(game.new_deal(seed=1).hands[0]) == 5
    game = sixtysix.Game("schnapsen", deck=24, exchange_rank="9")
    assert len(game.new_deal(seed=1).talon) == 14


# ---- decks ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_deck_missing_a_card(preset):
    game = game_of(preset)
    deck = deck_of(game)
    for missing in (deck[0], deck[-1], deck[len(deck) // 2]):
        short = [card for card in deck if card != missing]
        message = message_of(game.new_deal, deck=short, dealer=0)
        assert message == f"the deck is missing {missing}"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_deck_with_a_duplicated_card(preset):
    game = game_of(preset)
    deck = deck_of(game)
    # one card replaced by a copy of another (right length)
    twice = deck[:-1] + [deck[3]]
    message = message_of(game.new_deal, deck=twice, dealer=1)
    assert message == f"card {deck[3]!r} appears twice in the deck"
    # one card too many
    message = message_of(game.new_deal, deck=deck + [deck[5]], dealer=1)
    assert message == f"card {deck[5]!r} appears twice in the deck"
    # the same card in another spelling is still the same card
    spelled = deck[:-1] + [deck[3].lower()]
    message = message_of(game.new_deal, deck=spelled, dealer=1)
    assert message == f"card {deck[3].lower()!r} appears twice in the deck"


@pytest.mark.parametrize("bad", ["XZ", "ZZ", "1H", "11S", "Q", "", "QHX", "Joker"])
def test_deck_with_an_unknown_card(bad):
    game = game_of("sixty_six")
    deck = deck_of(game)[:-1] + [bad]
    message = message_of(game.new_deal, deck=deck, dealer=0)
    assert message.startswith(f"unknown card {bad!r}: "), message
    for valid in VALID_FORMS["card"]:
        assert valid in message, (valid, message)


ACE_OF_CLUBS = parse_card("AC")
NON_STRING_CARDS = {  # card: what the message says of it
    None: "is not in the 24-card deck of this game",
    ACE_OF_CLUBS: "(AC) appears twice in the deck",  # a card index, in the deck already
    ("Q", "H"): "is not in the 24-card deck of this game",
}


@pytest.mark.parametrize("bad", NON_STRING_CARDS)
def test_deck_with_a_non_string_card(bad):
    problem = NON_STRING_CARDS[bad]
    game = game_of("sixty_six")
    message = message_of(game.new_deal, deck=deck_of(game)[:-1] + [bad], dealer=0)
    assert message.startswith(f"card {bad!r} {problem}"), message
    if "not in" in problem:
        assert message.endswith(f"({' '.join(deck_of(game))})"), message


@pytest.mark.parametrize("preset", ["snapszer", "schnapsen", "vu_schnapsen"])
def test_a_nine_in_a_20_card_game(preset):
    game = game_of(preset)
    deck = deck_of(game)
    cards = " ".join(deck)
    message = message_of(game.new_deal, deck=deck[:-1] + ["9H"], dealer=0)
    assert message == f"card '9H' is not in the 20-card deck of this game ({cards})"
    # the full 24-card deck is refused too
    message = message_of(game.new_deal, deck=deck_of(game_of("sixty_six")), dealer=0)
    assert message == f"card '9C' is not in the 20-card deck of this game ({cards})"


def test_empty_deck():
    game = game_of("sixty_six")
    message = message_of(game.new_deal, deck=[], dealer=0)
    assert message == f"the deck is missing {' '.join(deck_of(game))}"


# ---- dealer and new_deal arguments ---------------------------------------------------


def bad_dealer(dealer) -> str:
    return f"invalid dealer {dealer!r}: dealer must be player 0 or 1"


@pytest.mark.parametrize("dealer", [2, -1, 3, True, False, None, "0", "1", 0.5])
def test_wrong_dealer_with_a_deck(dealer):
    game = game_of("sixty_six")
    assert message_of(game.new_deal, deck=deck_of(game), dealer=dealer) == bad_dealer(dealer)


@pytest.mark.parametrize("dealer", [2, -1, True, "1"])
def test_wrong_dealer_with_a_seed(dealer):
    game = game_of("schnapsen")
    assert message_of(game.new_deal, seed=5, dealer=dealer) == bad_dealer(dealer)


@pytest.mark.parametrize("dealer", [0.0, 1.0])
def test_float_dealer_is_refused_clearly_or_accepted(dealer):
    """A whole-number float dealer must not crash the kernel: a clear error or the same deal."""
    game = game_of("sixty_six")
    try:
        state = game.new_deal(deck=deck_of(game), dealer=dealer)
    except ValueError as error:
        assert str(error) == bad_dealer(dealer)
        return
    reference = game.new_deal(deck=deck_of(game), dealer=int(dealer))
    assert snapshot(state) == snapshot(reference)


def test_numpy_integer_dealer_is_accepted():
    game = game_of("sixty_six")
    for dealer in (np.int64(0), np.int32(1)):
        state = game.new_deal(deck=deck_of(game), dealer=dealer)
        assert state.current_player == 1 - int(dealer)


def test_new_deal_argument_errors():
    game = game_of("sixty_six")
    needs = "new_deal needs a seed, or a deck and a dealer"
    assert message_of(game.new_deal) == needs
    assert message_of(game.new_deal, dealer=0) == needs
    message = message_of(game.new_deal, seed=1, deck=deck_of(game), dealer=0)
    assert message == "give new_deal either a seed or a deck, not both"
    # a deck needs a dealer
    assert message_of(game.new_deal, deck=deck_of(game)) == bad_dealer(None)


def test_replay_with_an_illegal_action_raises():
    game = game_of("sixty_six")
    deck = deck_of(game)
    state = game.new_deal(deck=deck, dealer=0)
    first = state.legal_actions()[0]
    after_first = legal_text(state.clone().apply(first))
    actions = [first, "claim", "claim"]
    message = message_of(sixtysix.replay, game, deck, 0, actions, error=IllegalActionError)
    assert message == f"illegal action 'claim'; {after_first}"
    message = message_of(sixtysix.replay, game, deck, 0, ["bogus"])
    assert message.startswith("unknown action 'bogus': "), message
    assert message.endswith(f"; {legal_text(state)}"), message
    assert message_of(sixtysix.replay, game, deck, 5, []) == bad_dealer(5)


# ---- match misuse -------------------------------------------------------------------------


def test_match_errors():
    message = message_of(sixtysix.Match, sixtysix.Game("vu_schnapsen"), 1)
    assert message == "Game('vu_schnapsen') plays single deals (match_target=None); no match"
    message = message_of(sixtysix.Match, sixtysix.Game("sixty_six", match_target=None), 1)
    assert message == (
        "Game('sixty_six', match_target=None) plays single deals (match_target=None); no match"
    )
    match = sixtysix.Match(sixtysix.Game("sixty_six", match_target=1), 4)
    state = match.new_deal()
    assert message_of(match.record, state) == (  # not over yet
        "record() needs a finished deal; this one is at P0's lead"
    )
    assert match.scores == [0, 0] and match.deals == []
    rng = random.Random(4)
    while not match.is_over:
        match.record(finish_randomly(match.new_deal(), rng))
    low, high = sorted(match.scores)
    assert message_of(match.new_deal) in (
        f"the match is over: scores {low}-{high} reached match_target 1",
        f"the match is over: scores {high}-{low} reached match_target 1",
    )


def test_match_refuses_recording_a_deal_twice():
    match = sixtysix.Match(game_of("sixty_six"), 1)
    state = finish_randomly(match.new_deal(), random.Random(1))
    match.record(state)
    scores = list(match.scores)
    assert message_of(match.record, state) == "record() got deal 1 of this match again"
    assert match.scores == scores


def test_match_refuses_a_deal_of_another_game():
    match = sixtysix.Match(game_of("sixty_six"), 1)
    other = finished_deal(game_of("schnapsen"), 1)
    message = message_of(match.record, other)
    assert message == "record() got a deal of Game('schnapsen'), not of Game('sixty_six')"
    assert match.scores == [0, 0]


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
def test_bad_seed_is_refused_clearly(seed):
    message = message_of(game_of("sixty_six").new_deal, seed=seed)
    assert message == f"invalid seed {seed!r}: seed must be an integer in [0, 2**64)"


def test_seeded_deals_are_stable_across_versions():
    # The shuffle is the project's own xoshiro256** stream, not numpy's or Python's,
    # so a seed names the same deal on every platform and library version.
    state = game_of("sixty_six").new_deal(seed=7)
    assert state.dealer == 0
    assert state.hands == (
        ["9C", "9H", "AD", "QD", "TC", "TD"],
        ["AC", "JH", "KC", "KH", "KS", "QH"],
    )
