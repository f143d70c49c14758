"""The player's view (sixtysix/view.py): what one player may know, with perfect recall.

Random states come from seeded deals played with seeded uniformly random legal actions,
under every preset and claim mode. The central check swaps cards the player cannot know
(an unseen opponent card with a hidden talon card, two hidden talon cards, two unseen
opponent cards) in the deck, replays the same public history and requires an identical
view. A longer run: ``SIXTYSIX_VIEW_DEALS=150 pytest tests/test_view.py``.
"""

from __future__ import annotations

import itertools
import os
import re

import numpy as np
import pytest
from conftest import game_of

import sixtysix
from sixtysix import view
from sixtysix.engine import multi_core as mc
from sixtysix.engine.cards import card_name, mask_to_cards, mask_to_names, parse_card, suit_cards
from sixtysix.view import PlayerView, tensor_layout

ALL_PRESETS = tuple(sixtysix.PRESETS)
CLAIM_MODES = ("automatic", "manual", "optional_verified")  # automatic: every preset's own
#: Random deals per preset and claim mode in the invariance test (150 is a good long run).
VIEW_DEALS = int(os.environ.get("SIXTYSIX_VIEW_DEALS", "10"))
N, D = 0, 1  # with dealer=1 the non-dealer N is player 0


def mask(*names: str) -> int:
    return sum(1 << parse_card(name) for name in names)


def suit_mask(suit: str) -> int:
    return int(suit_cards("CDHS".index(suit)))


def random_states(game: sixtysix.Game, seed: int):
    """Every state of one seeded deal played by seeded random legal actions."""
    rng = np.random.default_rng(seed)
    state = game.new_deal(seed=seed)
    yield state
    while not state.is_terminal:
        legal = state.legal_action_ids()
        state = state.clone().apply(legal[rng.integers(len(legal))])
        yield state


def make_deck(game, dealer, hands, face_up, talon_top=()):
    """A deck list dealing ``hands[p]`` to player p, ``face_up`` and the talon.

    The talon starts with ``talon_top`` (top first); the rest of the deck follows in
    card order.
    """
    rules = game.rule_array[0]
    size, hand = int(rules["deck_size"]), int(rules["hand_size"])
    order = [int(p) for p in rules["deal_order"][:size]]  # non-dealer, dealer, talon, face-up
    deck = [None] * size
    for offset, player in enumerate((1 - dealer, dealer)):
        positions = sorted(order[offset * hand : (offset + 1) * hand])
        for position, card in zip(positions, hands[player], strict=True):
            deck[position] = card
    deck[rules["face_up_position"]] = face_up
    used = {*hands[0], *hands[1], face_up, *talon_top}
    rest = list(talon_top) + [card_name(c) for c in game.deck_cards if card_name(c) not in used]
    for position, card in zip(order[2 * hand : size - 1], rest, strict=True):
        deck[position] = card
    assert None not in deck
    return deck


def deck_names(state) -> list[str]:
    return [card_name(int(card)) for card in state.deck]


def swapped_replay(state, card_a: int, card_b: int):
    """The state reached by the same history from the deck with two cards exchanged."""
    deck = deck_names(state)
    i, j = deck.index(card_name(card_a)), deck.index(card_name(card_b))
    deck[i], deck[j] = deck[j], deck[i]
    return sixtysix.replay(state.game, deck, state.dealer, [a for _, a in state.history])


def hidden_talon_mask(state) -> int:
    record = state.array[0]
    cards = record["talon"][record["talon_top"] : record["talon_end"] - 1]
    return sum(1 << int(card) for card in cards)


#: Each readable field of a view and the mask field, or the card field, it spells out.
READABLE_MASKS = {
    "hand_cards": "hand",
    "initial_hand_cards": "initial_hand",
    "known_opponent_cards": "known_opponent",
    "excluded_opponent_cards": "excluded_opponent",
    "unknown_cards": "unknown",
}
READABLE_CARDS = {
    "initial_face_up_name": "initial_face_up",
    "talon_bottom_name": "talon_bottom",
    "face_up_name": "face_up_card",
}


def readable(v: PlayerView) -> dict:
    names = (*READABLE_MASKS, *READABLE_CARDS, "own_hand_log_cards", "won_cards")
    return {name: getattr(v, name) for name in names}


def check_readable(v: PlayerView) -> None:
    """The readable fields spell out the mask fields, so they show nothing more."""
    for name, field in READABLE_MASKS.items():
        assert getattr(v, name) == mask_to_names(getattr(v, field)), name
    for name, field in READABLE_CARDS.items():
        card = getattr(v, field)
        assert getattr(v, name) == (None if card is None else card_name(card)), name
    assert v.own_hand_log_cards == tuple(mask_to_names(hand) for hand in v.own_hand_log)
    assert v.won_cards == tuple(mask_to_names(mask) for mask in v.won)


def signature(v: PlayerView) -> dict:
    """Everything a view holds, comparable with ==."""
    values = {name: value for name, value in vars(v).items() if name not in ("game", "record")}
    values["readable"] = readable(v)
    values["record"] = v.record.tobytes()
    values["key"] = v.key()
    values["tensor"] = v.tensor().tobytes()
    values["legal"] = v.legal_actions()
    return values


def hidden_swaps(state, v: PlayerView, rng, per_kind: int = 1):
    """Card pairs the player cannot tell apart: opponent-talon, talon-talon, opponent-opponent."""
    opponent_hand = int(state.array[0]["hand"][v.opponent])
    unseen = mask_to_cards(opponent_hand & v.unknown)
    talon = mask_to_cards(hidden_talon_mask(state))
    to_opponent = [card for card in talon if not v.excluded_opponent >> card & 1]
    pairs = {
        "opponent-talon": [(a, b) for a in unseen for b in to_opponent],
        "talon-talon": [(a, b) for a in talon for b in talon if a < b],
        "opponent-opponent": [(a, b) for a in unseen for b in unseen if a < b],
    }
    for kind, candidates in pairs.items():
        for index in rng.permutation(len(candidates))[:per_kind]:
            yield kind, candidates[index]


def check_truth(state, v: PlayerView) -> None:
    """The view agrees with the hidden truth, and its counts add up."""
    opponent_hand = int(state.array[0]["hand"][v.opponent])
    assert v.known_opponent & ~opponent_hand == 0, "a known card is not in the opponent's hand"
    assert v.excluded_opponent & opponent_hand == 0, "the opponent holds an excluded card"
    assert v.excluded_opponent & ~v.unknown == 0
    assert (opponent_hand & ~v.known_opponent) | hidden_talon_mask(state) == v.unknown
    assert v.unknown.bit_count() == v.hidden_opponent + v.hidden_talon
    assert v.hidden_opponent == (opponent_hand & ~v.known_opponent).bit_count()
    assert v.opponent_hand_size == opponent_hand.bit_count()
    assert v.hand == int(state.array[0]["hand"][v.player])
    assert v.talon_size == len(state.talon)
    assert v.talon_bottom == (parse_card(state.talon[-1]) if state.talon else None)
    trump_card = state.trump_card
    assert v.face_up_card == (None if trump_card is None else parse_card(trump_card))
    assert v.closed_by == state.closed_by
    assert v.history == tuple(state.history)
    assert v.own_hand_log == tuple(hands[v.player] for hands in state.hand_log)


def check_no_leak(state, v: PlayerView) -> None:
    """No hidden card in the key or the masks, the record blanked, no reference to the state."""
    hidden = {card_name(card) for card in mask_to_cards(v.unknown)}
    named = set(re.findall(r"\b[9JQKTA][CDHS]\b", v.key() + repr(v.history)))
    assert not named & hidden, f"the key names hidden cards {named & hidden}"
    masks = [v.hand, v.initial_hand, v.known_opponent, *v.own_hand_log, *v.won]
    masks += [1 << card for card in (v.initial_face_up, v.talon_bottom) if card is not None]
    masks += [int(m) for m in (*v.record[0]["hand"], *v.record[0]["won"], *v.record[0]["shown"])]
    masks += [1 << int(card) for card in v.record[0]["talon"] if card >= 0]
    assert all(m & v.unknown == 0 for m in masks), "a mask of the view holds a hidden card"
    record = v.record[0]
    assert record["hand"][v.opponent] == v.known_opponent
    assert record["hand"][v.player] == v.hand
    assert record["shown"][v.opponent] == v.known_opponent
    assert record["excluded"][v.opponent] & v.unknown == v.excluded_opponent
    expected_talon = np.full(len(record["talon"]), -1)
    if v.talon_bottom is not None:
        expected_talon[record["talon_end"] - 1] = v.talon_bottom
    assert list(record["talon"]) == list(expected_talon)
    truth = state.array[0]
    for field in record.dtype.names:
        if field not in ("hand", "talon", "shown", "excluded"):
            assert np.array_equal(record[field], truth[field]), field
    check_no_reference(state, v)


def check_no_reference(state, v: PlayerView) -> None:
    """Neither the view nor anything it holds is the state, its deck, record or logs."""
    forbidden = [state, state.array, state.deck, state.history, state.hand_log]
    seen = set()

    def walk(value, path):
        if id(value) in seen or isinstance(value, str | int | float | type(None)):
            return
        seen.add(id(value))
        assert not any(value is item for item in forbidden), f"{path} is part of the state"
        if isinstance(value, np.ndarray):
            for array in (state.array, state.deck):
                assert not np.shares_memory(value, array), f"{path} shares the state's memory"
        elif isinstance(value, tuple | list):
            for k, item in enumerate(value):
                walk(item, f"{path}[{k}]")
        elif isinstance(value, dict):
            for name, item in value.items():
                walk(item, f"{path}.{name}")
        elif hasattr(value, "__dict__"):
            walk(vars(value), path)

    walk(v, "view")


# ---- 1. invariance under hidden swaps; 4. leaks; 5. consistency ----------------------------


def check_views_under_swaps(game, deals: int) -> tuple[dict, int]:
    """Truth, leak and invariance checks of both views of every state of ``deals`` deals;
    the swaps made by kind, and how many swapped into a closed talon's strict play."""
    rng = np.random.default_rng(7)
    swaps = dict.fromkeys(("opponent-talon", "talon-talon", "opponent-opponent"), 0)
    strict_swaps = 0
    for seed in range(deals):
        for state in random_states(game, seed):
            for player in (0, 1):
                v = state.view(player)
                check_truth(state, v)
                check_no_leak(state, v)
                check_readable(v)
                expected = signature(v)
                for kind, (a, b) in hidden_swaps(state, v, rng):
                    other = swapped_replay(state, a, b)  # IllegalActionError: a leak
                    assert signature(other.view(player)) == expected, (kind, a, b)
                    swaps[kind] += 1
                    strict_swaps += kind == "opponent-talon" and state.closed_by is not None
    return swaps, strict_swaps


@pytest.mark.parametrize("claim_mode", CLAIM_MODES)
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_view_is_unchanged_by_cards_the_player_cannot_know(preset, claim_mode):
    swaps, strict_swaps = check_views_under_swaps(game_of(preset, claim_mode), VIEW_DEALS)
    assert all(count > 20 for count in swaps.values()), swaps
    if preset != "vu_schnapsen":  # the only preset without closing
        assert strict_swaps > 5


def test_legal_actions_are_the_movers_and_nobody_elses():
    game = game_of("sixty_six", "manual")
    for seed in range(5):
        for state in random_states(game, seed):
            for player in (0, 1):
                v = state.view(player)
                if state.current_player == player:
                    assert v.is_my_turn and v.to_move == player
                    assert v.legal_actions() == state.legal_actions()
                    assert v.legal_action_ids() == state.legal_action_ids()
                else:
                    assert not v.is_my_turn
                    assert v.legal_actions() == [] and v.legal_action_ids() == []


# ---- key and tensor ------------------------------------------------------------------------


def test_equal_tensors_exactly_for_equal_keys():
    game = game_of("sixty_six", "manual")
    rng = np.random.default_rng(11)
    tensor_of_key: dict[str, bytes] = {}
    key_of_tensor: dict[bytes, str] = {}
    indistinguishable = 0
    for seed in range(40):
        for state, player in itertools.product(random_states(game, seed), (0, 1)):
            v = state.view(player)
            views = [v]
            for _, (a, b) in hidden_swaps(state, v, rng):
                views.append(swapped_replay(state, a, b).view(player))
                indistinguishable += 1
            for w in views:
                key, tensor = w.key(), w.tensor().tobytes()
                assert tensor_of_key.setdefault(key, tensor) == tensor
                assert key_of_tensor.setdefault(tensor, key) == key
    assert len(tensor_of_key) > 500 and indistinguishable > 500


@pytest.mark.parametrize("preset", ALL_PRESETS + tuple(sixtysix.MINI_PRESETS))
def test_tensor_size_is_the_packs(preset):
    game = game_of(preset)
    size = tensor_layout(game).size
    assert size == 47 * len(game.deck_cards) + 187  # a card block per card of the pack
    state = game.new_deal(seed=1)
    for v in (state.view(0), state.view(1)):
        tensor = v.tensor()
        assert tensor.shape == (size,) and tensor.dtype == np.float32


def documented_sizes() -> dict[str, str]:
    """``block name -> size`` from the tables of the module docstring."""
    rows = re.findall(r"^\| (\w+) \| ([^|]+) \|", view.__doc__, re.MULTILINE)
    return {name: size.strip() for name, size in rows if name != "block"}


@pytest.mark.parametrize("preset", ["sixty_six", "schnapsen", "mini_2x3"])
def test_tensor_layout_is_documented(preset):
    layout = tensor_layout(game_of(preset))
    cards = len(layout.pack)
    documented = documented_sizes()
    blocks = layout.now_blocks + layout.history_blocks + layout.slot_blocks
    assert [name for name, _ in blocks] == list(documented)
    for name, size in blocks:
        formula = re.sub(r"(\d*)P", lambda m: f"{m.group(1) or 1} * {cards}", documented[name])
        assert eval(formula.replace("×", "*")) == size, name
    assert layout.slot_size * view.MAX_TRICKS == dict(layout.history_blocks)["tricks"]
    assert tensor_layout(game_of("sixty_six")).size == 259 + 48 + 12 * 84
    assert tensor_layout(game_of("schnapsen")).size == 223 + 40 + 12 * 72


def test_key_is_readable():
    game = game_of("sixty_six")
    hands = (["AH", "TH", "KH", "QH", "AC", "TC"], ["9C", "JC", "QC", "9D", "JD", "QD"])
    deck = make_deck(game, D, hands, "JS", ["KD", "KC"])
    state = game.new_deal(deck=deck, dealer=D)
    state.apply("marry KH").apply("play 9C").apply("draw")
    assert state.view(N).key() == (
        "rules sixty_six\n"
        "player 0 dealer 1\n"
        "dealt TC AC QH KH TH AH face-up JS\n"
        "1. P0 marry KH\n"
        "2. P1 play 9C\n"
        "3. P0 draw / I got KD\n"
        "P0 to lead"
    )
    assert state.view(D).key().splitlines()[2:] == [
        "dealt 9C JC QC 9D JD QD face-up JS",
        "1. P0 marry KH",
        "2. P1 play 9C",
        "3. P0 draw / I got KC",
        "P0 to lead",
    ]
    assert view.rules_text(game_of("schnapsen", "manual").rules) == "schnapsen claim_mode='manual'"


def test_the_cards_of_a_view_read_as_card_strings():
    game = game_of("sixty_six")
    hands = (["AH", "TH", "KH", "QH", "AC", "TC"], ["9C", "JC", "QC", "9D", "JD", "QD"])
    deck = make_deck(game, D, hands, "JS", ["KD", "KC"])
    state = game.new_deal(deck=deck, dealer=D)
    state.apply("marry KH").apply("play 9C").apply("draw")
    mine, theirs = state.view(N), state.view(D)
    assert mine.hand_cards == state.hands[N] == ["AC", "AH", "KD", "QH", "TC", "TH"]
    assert mine.initial_hand_cards == ["AC", "AH", "KH", "QH", "TC", "TH"]
    assert mine.own_hand_log_cards[-1] == mine.hand_cards
    assert mine.won_cards == (["9C", "KH"], [])
    assert (mine.known_opponent_cards, theirs.known_opponent_cards) == ([], ["QH"])
    assert mine.initial_face_up_name == mine.talon_bottom_name == mine.face_up_name == "JS"
    assert mine.face_up_name == state.trump_card
    unseen = {*state.hands[D], *state.talon[:-1]}
    assert mine.unknown_cards == sorted(unseen) and mine.excluded_opponent_cards == []
    for v in (mine, theirs):
        check_readable(v)
    state.apply("close")
    closed = state.view(D)
    assert closed.face_up_name is None and closed.talon_bottom_name == "JS"
    check_readable(closed)


def test_a_visible_difference_changes_key_and_tensor():
    game = game_of("sixty_six")
    hands = (["AH", "TH", "KH", "QH", "AC", "TC"], ["9C", "JC", "QC", "9H", "JD", "QD"])

    def played(hands, face_up, actions):
        state = game.new_deal(deck=make_deck(game, D, hands, face_up), dealer=D)
        for action in actions:
            state.apply(action)
        return state

    one_trick = ["close", "pass", "play AH", "play 9H"]  # D passes at L3 (R-A7)
    reference = played(hands, "JS", one_trick)
    other_card = {  # one unplayed card differs: TC -> KC for N, QD -> KD for D
        N: played((hands[0][:-1] + ["KC"], hands[1]), "JS", one_trick),
        D: played((hands[0], hands[1][:-1] + ["KD"]), "JS", one_trick),
    }
    other_face_up = played(hands, "AS", one_trick)
    two_tricks = played(hands, "JS", one_trick + ["play AC", "play 9C"])
    other_order = played(hands, "JS", ["close", "pass", "play AC", "play 9C", "play AH", "play 9H"])
    # The same cards won and held, the same totals: only the order of the tricks differs.
    assert two_tricks.hands == other_order.hands
    assert two_tricks.won_cards == other_order.won_cards
    assert two_tricks.card_points == other_order.card_points
    for player in (N, D):
        pairs = (
            (reference, other_card[player]),
            (reference, other_face_up),
            (two_tricks, other_order),
        )
        for a, b in pairs:
            assert a.view(player).key() != b.view(player).key()
            assert not np.array_equal(a.view(player).tensor(), b.view(player).tensor())
        # The opponent's unplayed card is not visible.
        assert other_card[1 - player].view(player).key() == reference.view(player).key()
        hidden_change = other_card[1 - player].view(player).tensor()
        assert np.array_equal(hidden_change, reference.view(player).tensor())


def test_a_marriage_that_claims_leads_nothing():
    """R-A8: an automatic claim on a marriage ends the deal before the card is led."""
    game = game_of("hatvanhat")
    for seed in range(200):
        *_, state = random_states(game, seed)
        if state.history[-1][1].startswith("marry "):
            break
    else:
        pytest.fail("no deal ended on a marriage")
    actor, action = state.history[-1]
    card = parse_card(action.split()[1])
    v = state.view(actor)
    assert v.hand >> card & 1 and v.led_card is None and v.outcome[2] == "claim"
    assert v.key().splitlines()[-2:] == [
        f"{len(state.history)}. P{actor} {action}",
        f"over: P{actor} wins {v.outcome[1]} game points (claim)",
    ]
    tensor, layout = v.tensor(), tensor_layout(game)
    cards = len(layout.pack)
    slot = layout.history_offsets["tricks"] + state.tricks_played * layout.slot_size
    assert tensor[slot + layout.slot_offsets["marriage"]] == 1
    assert not tensor[slot : slot + cards].any()  # no card led
    led = layout.now_offsets["led"]
    assert not tensor[led : led + cards].any()


def test_the_reference_check_finds_a_planted_reference():
    state = game_of("sixty_six").new_deal(seed=2)
    v = state.view(0)
    check_no_reference(state, v)
    v.extra = {"cards": [state.deck[:3]]}  # a view of the deck's memory
    with pytest.raises(AssertionError, match="shares the state's memory"):
        check_no_reference(state, v)


def test_invalid_player_is_a_value_error():
    state = game_of("sixty_six").new_deal(seed=3)
    for bad in (2, -1, True, "0", 0.0, None):
        with pytest.raises(ValueError, match=re.escape(f"invalid player {bad!r}")):
            state.view(bad)
    assert state.view(np.int64(1)).player == 1


# ---- 3. inference on constructed deals (trump spades, N = player 0 leads) ----------------------


def closed_deal(preset, hands, face_up="JS", actions=(), answer="pass"):
    """A deal where N closes on the first lead, D gives ``answer`` at an L3 point (R-A7), then
    ``actions`` are played."""
    game = game_of(preset)
    state = game.new_deal(deck=make_deck(game, D, hands, face_up), dealer=D)
    state.apply("close")
    if answer and state.phase == mc.CLOSE_EXCHANGE:
        state.apply(answer)
    for action in actions:
        state.apply(action)
    return state


SIX_N = ["AH", "QH", "KS", "AC", "TC", "KD"]
FIVE_N = ["AH", "QH", "KS", "AC", "TC"]


def test_failing_to_follow_excludes_the_suit_and_trumps():
    state = closed_deal("sixty_six", (SIX_N, ["9C", "JC", "QC", "9D", "JD", "QD"]), "TS")
    state.apply("play AH").apply("play 9C")  # D has no heart and no trump
    v = state.view(N)
    assert v.record[0]["excluded"][D] == suit_mask("H") | suit_mask("S")
    assert v.excluded_opponent == (suit_mask("H") | suit_mask("S")) & v.unknown
    assert v.excluded_opponent & mask("KH", "9S", "AS")
    check_truth(state, v)


def test_trumping_a_void_suit_excludes_only_the_suit():
    state = closed_deal("sixty_six", (SIX_N, ["9C", "JC", "QC", "9D", "JD", "JS"]), "TS")
    state.apply("play AH").apply("play JS")
    assert state.view(N).record[0]["excluded"][D] == suit_mask("H")


def test_following_low_excludes_the_higher_cards_under_must_head():
    for preset, hands in (
        ("sixty_six", (SIX_N, ["JH", "9H", "QC", "9D", "JD", "QD"])),
        ("schnapsen", (FIVE_N, ["JH", "AD", "QC", "JD", "QD"])),
    ):
        state = closed_deal(preset, hands)
        state.apply("play QH").apply("play JH")
        v = state.view(N)
        expected = mask("KH", "TH", "AH")
        assert v.record[0]["excluded"][D] == expected, preset
        assert not v.excluded_opponent & mask("9H")


@pytest.mark.parametrize("preset", ["snapszer", "czech", "slovak"])
def test_following_low_excludes_nothing_without_must_head(preset):
    hands = (
        (FIVE_N, ["JH", "AD", "QC", "JD", "QD"])
        if preset == "snapszer"
        else (
            SIX_N,
            ["JH", "9H", "QC", "9D", "JD", "QD"],
        )
    )
    state = closed_deal(preset, hands)
    state.apply("play QH").apply("play JH")
    assert state.view(N).record[0]["excluded"][D] == 0
    assert state.view(N).excluded_opponent == 0


def test_a_trump_lead_that_cannot_be_headed_excludes_the_higher_trumps():
    state = closed_deal("sixty_six", (SIX_N, ["JS", "QS", "QC", "9D", "JD", "QD"]), "TS")
    state.apply("play KS").apply("play QS")
    assert state.view(N).record[0]["excluded"][D] == mask("AS", "TS")
    assert state.view(N).excluded_opponent == mask("AS")  # TS lies face down, known
    state.apply("play AH").apply("play JS")  # void in hearts: the whole suit
    expected = mask("AS", "TS") | suit_mask("H")
    assert state.view(N).record[0]["excluded"][D] == expected


def test_open_phase_play_infers_nothing():
    game = game_of("sixty_six")
    hands = (SIX_N, ["9C", "JC", "QC", "9D", "JD", "QD"])
    state = game.new_deal(deck=make_deck(game, D, hands, "TS"), dealer=D)
    state.apply("play AH").apply("play 9C")  # no heart, no trump: fine while the talon is open
    assert state.view(N).record[0]["excluded"][D] == 0
    for seed in range(10):
        for state in random_states(game_of("sixty_six", "manual"), seed):
            if state.closed_by is None and state.talon:
                assert state.view(0).excluded_opponent == state.view(1).excluded_opponent == 0


def test_the_marriage_partner_is_known_until_played():
    game = game_of("sixty_six")
    hands = (["KH", "QH", "AH", "AC", "TC", "KD"], ["9C", "JC", "QC", "9D", "JD", "QD"])
    state = game.new_deal(deck=make_deck(game, D, hands, "TS"), dealer=D)
    state.apply("marry QH")
    assert state.view(D).known_opponent == mask("KH")
    assert state.view(N).known_opponent == 0
    state.apply("play 9C").apply("draw")  # N wins; the king stays known
    assert state.view(D).known_opponent == mask("KH")
    state.apply("play KH")
    assert state.view(D).known_opponent == 0


def test_the_card_taken_by_an_exchange_is_known():
    game = game_of("czech")  # an exchange needs no trick won
    hands = (["9S", "QH", "AH", "AC", "TC", "KD"], ["9C", "JC", "QC", "9D", "JD", "QD"])
    state = game.new_deal(deck=make_deck(game, D, hands, "AS"), dealer=D)
    state.apply("exchange")
    v = state.view(D)
    assert v.known_opponent == mask("AS")
    assert v.talon_bottom == v.face_up_card == parse_card("9S")
    assert v.initial_face_up == parse_card("AS")
    assert "1. P0 exchange" in v.key() and "I got" not in v.key()
    assert state.view(N).key().splitlines()[3] == "1. P0 exchange / I got AS"
    check_truth(state, v)


def test_the_face_up_card_drawn_at_the_last_draw_is_known_to_the_winner():
    checked = 0
    for preset in ("sixty_six", "schnapsen"):
        game = game_of(preset)
        for seed in range(10):
            rng = np.random.default_rng(seed)
            state = game.new_deal(seed=seed)
            while not state.is_terminal and len(state.talon) > 0:
                bottom = parse_card(state.talon[-1])
                legal = [a for a in state.legal_actions() if a != "close"]
                state.apply(legal[rng.integers(len(legal))])
            if state.is_terminal or state.closed_by is not None:
                continue
            winner = state.leader
            loser = 1 - winner
            assert bottom in mask_to_cards(int(state.array[0]["hand"][loser]))
            assert state.view(winner).known_opponent >> bottom & 1
            assert not state.view(loser).known_opponent >> bottom & 1
            checked += 1
    assert checked > 5


def test_the_exchange_on_close_shows_only_when_made():
    hands = (SIX_N, ["9S", "JC", "QC", "9D", "JD", "QD"])
    state = closed_deal("sixty_six", hands, "AS", answer=None)
    assert state.legal_actions() == ["exchange-on-close", "pass"]
    assert state.view(N).known_opponent == 0  # being offered the exchange shows nothing (R-A7)
    assert state.view(N).excluded_opponent == 0
    taken = state.clone().apply("exchange-on-close")
    v = taken.view(N)
    assert v.known_opponent == mask("AS")
    assert v.talon_bottom == parse_card("9S") and v.face_up_card is None
    passed = state.clone().apply("pass")
    assert passed.view(N).known_opponent == 0
    for s in (state, taken, passed):
        check_truth(s, s.view(N))
        check_truth(s, s.view(D))


def closed_and_passed(n_hand, d_hand, answer_l3=True):
    """sixty_six, face-up AS: N closes at the first lead and D passes at his L3 point."""
    game = game_of("sixty_six")
    state = game.new_deal(deck=make_deck(game, D, (n_hand, d_hand), "AS"), dealer=D)
    state.apply("close")
    assert state.legal_actions()[-1] == "pass"
    return state.apply("pass") if answer_l3 else state


@pytest.mark.parametrize("at_the_l3_point", [True, False])
def test_where_the_nine_lies_changes_no_view_of_the_other_player(at_the_l3_point):
    """R-A7 revised: a swap of the trump nine between one player's hand and the talon leaves
    the other player's view unchanged, at the L3 point and after the pass."""
    n_hand, d_hand = ["AH", "QH", "KS", "AC", "TC", "KD"], ["JC", "QC", "9D", "JD", "QD", "KC"]
    for holder, watcher in ((N, D), (D, N)):
        with_nine = [list(n_hand), list(d_hand)]
        with_nine[holder][0] = "9S"  # the card it replaces goes to the talon
        with_talon = [n_hand, d_hand]
        views = [
            closed_and_passed(*hands, answer_l3=not at_the_l3_point).view(watcher)
            for hands in (with_nine, with_talon)
        ]
        assert views[0].key() == views[1].key()
        assert np.array_equal(views[0].tensor(), views[1].tensor())
        assert views[0].record.tobytes() == views[1].record.tobytes()
