"""RULES_MULTI section 12 (edge-case scenarios 1-16) and the binding resolutions of its
section 13 that decide them, as exact tests of the multi-player presets.

Every test states the hands, the talon (top first) and the face-up card it wants;
``deal`` turns them into the deck permutation of the preset's deal pattern (1.3) and
checks that the engine dealt exactly that.  Then concrete actions are played, and the
tests assert the legal actions at the points a scenario talks about, who draws what,
the card points, and the scores and reason at the end.

Conventions:
* trump is spades unless said otherwise (as in section 12);
* ``plays(state, "0:AC 1:TC 2:KC")`` means: seat 0 plays AC, then seat 1 TC, then
  seat 2 KC, each checked to be the seat on turn;
* a comment "T3: 2 KH, 0 9H, 1 9S -> 1 (+4 = 17)" means trick 3, led by seat 2, won
  by seat 1, who gains 4 card points and now has 17;
* card points: A 11, T 10, K 4, Q 3, J 2, 9/8/7 0 (``low_card_points`` = 0).
"""

from __future__ import annotations

import pytest

import sixtysix

SUITS = "CDHS"
PACKS = {
    24: [rank + suit for suit in SUITS for rank in "9JQKTA"],
    32: [rank + suit for suit in SUITS for rank in "789JQKTA"],
}
#: preset -> (number of seats, pack size, deal pattern), from RULES_MULTI 1.3.3
LAYOUT = {
    "snapszer3": (3, 24, "P3 P2 T"),
    "snapszer3_called": (3, 24, "P3 P2"),
    "snapszer4": (4, 32, "P3 P2 T"),
    "snapszer4_called": (4, 32, "P3 P2 P3"),
    "na66": (4, 24, "P3 P3"),
}
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


# ---- helpers ------------------------------------------------------------------------


def cards(text) -> list[str]:
    """``"AC TC"`` or a list -> a list of card strings."""
    return text.split() if isinstance(text, str) else list(text)


def points(text) -> int:
    return sum(POINTS[card[0]] for card in cards(text))


def build_deck(preset, dealer, hands, talon=None, face_up=None):
    """The deck permutation that deals ``hands[s]`` to seat s under the preset's deal
    pattern, turns ``face_up`` at the pattern's ``T`` and leaves ``talon`` (top first).

    ``Pk`` gives k cards to every seat in play order from the first leader
    ``(dealer + 1) % N``; each hand is taken in the order written.  ``talon=None`` means
    "the unused cards in pack order" (for tests where the talon's order is irrelevant).
    Returns ``(deck, talon)``.
    """
    n, size, pattern = LAYOUT[preset]
    pack = PACKS[size]
    hands = [cards(hand) for hand in hands]
    assert len(hands) == n, f"{preset} has {n} seats"
    named = [card for hand in hands for card in hand] + ([face_up] if face_up else [])
    if talon is None:
        talon = [card for card in pack if card not in named]
    talon = cards(talon)
    everything = named + talon
    assert len(everything) == len(set(everything)), f"a card is named twice: {everything}"
    assert sorted(everything) == sorted(pack), f"not the {size}-card pack: {everything}"
    assert ("T" in pattern.split()) == (face_up is not None)
    first = (dealer + 1) % n
    taken = [0] * n
    deck = []
    for token in pattern.split():
        if token == "T":
            deck.append(face_up)
            continue
        batch = int(token[1:])
        for seat in ((first + k) % n for k in range(n)):
            deck += hands[seat][taken[seat] : taken[seat] + batch]
            taken[seat] += batch
    assert taken == [len(hand) for hand in hands], "hands do not fit the deal pattern"
    deck += talon
    assert len(deck) == size and sorted(deck) == sorted(pack)
    return deck, talon


def deal(preset, dealer, hands, talon=None, face_up=None, **options):
    """A fresh deal of ``preset`` with exactly this layout; checks what the engine dealt."""
    n = LAYOUT[preset][0]
    deck, talon = build_deck(preset, dealer, hands, talon, face_up)
    state = sixtysix.Game(preset, **options).new_deal(deck=deck, dealer=dealer)
    assert state.num_players == n
    assert [list(dealt) for dealt in state.hands] == [sorted(cards(wanted)) for wanted in hands]
    assert list(state.talon) == talon + ([face_up] if face_up else [])
    assert state.trump_suit == (face_up[1] if face_up else None)
    assert state.current_player == (dealer + 1) % n
    assert not state.is_terminal
    assert state.scores is None and state.reason is None
    return state


def act(state, seat, action):
    """Seat ``seat`` (checked to be on turn) takes ``action``."""
    assert state.current_player == seat, (
        f"seat {state.current_player} is on turn, not {seat} (for {action!r})"
    )
    state.apply(action)
    return state


def plays(state, script):
    """``"0:AC 1:TC"``: seat 0 plays AC, then seat 1 plays TC."""
    for step in script.split():
        seat, card = step.split(":")
        act(state, int(seat), f"play {card}")
    return state


def plays_of(text) -> list[str]:
    """The sorted ``play`` actions of these cards (a legal-action list)."""
    return sorted(f"play {card}" for card in cards(text))


def hand(state, seat) -> list[str]:
    return list(state.hands[seat])


def snapshot(state) -> tuple:
    """Everything the public API shows, to check that a rejected action changed nothing."""
    return (
        state.current_player,
        tuple(tuple(h) for h in state.hands),
        tuple(state.talon),
        state.trump_suit,
        tuple(state.card_points),
        tuple(state.tricks_won),
        state.is_terminal,
        state.scores,
        state.reason,
        tuple(state.legal_actions()),
    )


def assert_over(state, scores, reason):
    assert state.is_terminal
    assert state.current_player is None
    assert tuple(state.scores) == scores
    assert state.reason == reason


def test_build_deck_follows_the_pattern():
    """The helper itself (RULES_MULTI 1.3.1): ``P3 P2 T`` from the first leader, the
    turned card at index 15 (snapszer3), the talon after it."""
    hands = ["9C 9D 9H JD QC", "AC QD 9S TH KC", "JC AD KH AH TD"]
    deck, talon = build_deck("snapszer3", 2, hands, "JH QH TC KD JS AS TS QS", "KS")
    assert deck[:3] == ["9C", "9D", "9H"]  # seat 0 = next(2) first
    assert deck[3:9] == ["AC", "QD", "9S", "JC", "AD", "KH"]
    assert deck[9:15] == ["JD", "QC", "TH", "KC", "AH", "TD"]
    assert deck[15] == "KS" and deck[16:] == talon


# ---- section 12, scenarios 1-16 --------------------------------------------------------


def test_scenario_01_snapszer3_draws():
    """RULES_MULTI 12.1 (1.6, MP-A4, 3P.3): dealer 2, first leader 0.  Before trick 3 the
    talon holds X = TS, Y = QS and the face-up KS; seat 1 wins trick 3 and draws X, seat 2
    draws Y, seat 0 the face-up KS.  Tricks 1-3 are free, trick 4 is strict."""
    st = deal(
        "snapszer3",
        dealer=2,
        hands=["9C 9D 9H JD QC", "AC QD 9S TH KC", "JC AD KH AH TD"],
        talon="JH QH TC KD JS AS TS QS",
        face_up="KS",
    )
    # Lead 1: any card, closing allowed on the first lead (1.9.1); no JS, no marriage.
    assert st.legal_actions() == ["close", *plays_of("9C 9D 9H JD QC")]
    act(st, 0, "play 9C")
    assert st.legal_actions() == plays_of("AC QD 9S TH KC")  # open phase: free (3P.3)
    plays(st, "1:AC 2:JC")  # T1: 0 9C, 1 AC, 2 JC -> 1 (13)
    # Draw: winner 1 first (JH), then 2 (QH), then 0 (TC).
    assert hand(st, 1) == sorted("QD 9S TH KC JH".split())
    assert hand(st, 2) == sorted("AD KH AH TD QH".split())
    assert hand(st, 0) == sorted("9D 9H JD QC TC".split())
    assert st.talon == ["KD", "JS", "AS", "TS", "QS", "KS"]
    plays(st, "1:QD 2:AD 0:9D")  # T2: -> 2 (14); draws 2 KD, 0 JS, 1 AS
    assert hand(st, 2) == sorted("KH AH TD QH KD".split())
    assert hand(st, 0) == sorted("9H JD QC TC JS".split())
    assert hand(st, 1) == sorted("9S TH KC JH AS".split())
    assert st.talon == ["TS", "QS", "KS"]
    plays(st, "2:KH 0:9H 1:9S")  # T3: free, 1 trumps -> 1 (+4 = 17)
    assert st.tricks_won == (0, 2, 1)
    assert st.card_points == (0, 17, 14)
    assert st.talon == []
    assert hand(st, 1) == sorted("TH KC JH AS TS".split())  # X = TS
    assert hand(st, 2) == sorted("AH TD QH KD QS".split())  # Y = QS
    assert hand(st, 0) == sorted("JD QC TC JS KS".split())  # the face-up KS
    # Trick 4 is strict: follow suit, else trump (any trump), no duty to beat.
    act(st, 1, "play TH")
    assert st.legal_actions() == plays_of("AH QH")
    act(st, 2, "play QH")
    assert st.legal_actions() == plays_of("JS KS")
    assert not st.is_terminal


def test_scenario_02_snapszer3_exchange_window():
    """RULES_MULTI 12.2 (1.8, MP-A5, 3P.4): seat 0 holds JS; he may exchange at the leads
    with talon 9 and 6, and may not at the lead with talon 3."""
    st = deal(
        "snapszer3",
        dealer=2,
        hands=["JS AC AD 9H JH", "9C 9D QC QH 9S", "JC JD KC KD QS"],
        talon="QD TD TC KH TH AH KS AS",
        face_up="TS",
    )
    assert len(st.talon) == 9
    assert st.legal_actions() == ["close", "exchange", *plays_of("JS AC AD 9H JH")]
    swapped = st.clone()
    swapped.apply("exchange")
    assert hand(swapped, 0) == sorted("TS AC AD 9H JH".split())
    assert swapped.talon[-1] == "JS" and len(swapped.talon) == 9
    assert swapped.current_player == 0 and "exchange" not in swapped.legal_actions()
    assert "JS" in hand(st, 0)  # the clone is independent

    plays(st, "0:AC 1:9C 2:JC")  # T1: -> 0 (13); draws 0 QD, 1 TD, 2 TC
    assert len(st.talon) == 6 and st.current_player == 0
    assert "exchange" in st.legal_actions()
    swapped = st.clone()
    swapped.apply("exchange")
    assert swapped.talon == ["KH", "TH", "AH", "KS", "AS", "JS"]
    assert "TS" in hand(swapped, 0) and "JS" not in hand(swapped, 0)

    plays(st, "0:AD 1:9D 2:JD")  # T2: -> 0 (26); draws 0 KH, 1 TH, 2 AH
    assert st.talon == ["KS", "AS", "TS"] and st.current_player == 0
    assert "JS" in hand(st, 0)
    assert "exchange" not in st.legal_actions()
    assert "close" in st.legal_actions()
    with pytest.raises(sixtysix.IllegalActionError):
        st.apply("exchange")
    assert "JS" in hand(st, 0) and st.talon == ["KS", "AS", "TS"]


def test_scenario_03_snapszer4_exchange_on_the_last_round():
    """RULES_MULTI 12.3 (1.8, 4P.4): at lead 3 the talon is 4 (3 + face-up); the leader
    holding JS may exchange; the fourth drawer after that trick gets JS."""
    st = deal(
        "snapszer4",
        dealer=3,
        hands=["AC AD JS 7H 8S", "7C 7D 8H QC JD", "8C 8D AH TC KD", "9C 9D 9H JC QD"],
        talon="KC TD JH QH 7S 9S KH TH KS TS AS",
        face_up="QS",
    )
    assert "exchange" in st.legal_actions()  # talon 12
    act(st, 0, "play AC")
    assert st.legal_actions() == plays_of("7C QC")  # strict from trick 1 (4P.3)
    plays(st, "1:7C 2:8C 3:9C")  # T1: -> 0 (11); draws 0 KC, 1 TD, 2 JH, 3 QH
    assert "exchange" in st.legal_actions()  # talon 8
    plays(st, "0:AD 1:7D 2:8D 3:9D")  # T2: -> 0 (22); draws 0 7S, 1 9S, 2 KH, 3 TH
    assert st.talon == ["KS", "TS", "AS", "QS"]
    assert hand(st, 0) == sorted("JS 7H 8S KC 7S".split())
    assert "exchange" in st.legal_actions()  # 4 >= 4
    act(st, 0, "exchange")
    assert hand(st, 0) == sorted("QS 7H 8S KC 7S".split())
    assert st.talon == ["KS", "TS", "AS", "JS"]
    plays(st, "0:7H 1:8H 2:AH 3:9H")  # T3: -> 2 (11)
    # Draw from winner 2: 2 KS, 3 TS, 0 AS, and the fourth drawer, seat 1, gets JS.
    assert st.talon == []
    assert "JS" in hand(st, 1)
    assert "KS" in hand(st, 2) and "TS" in hand(st, 3) and "AS" in hand(st, 0)
    assert st.card_points == (22, 0, 11, 0)
    assert st.current_player == 2


def test_scenario_04_snapszer4_following_with_an_open_talon():
    """RULES_MULTI 12.4 (1.7.3, binding decision 5): strict rule while the talon is open,
    no duty to beat, no duty to over-trump."""
    # Lead KH; a seat with 9H AS TC: only 9H.  Void in hearts with 7S AC: only 7S.
    st = deal(
        "snapszer4",
        dealer=3,
        hands=["KH JH 8H 7C JC", "9H AS TC 7D 8D", "7S AC 8C 9C 9D", "7H TH AH JD QD"],
        face_up="8S",
    )
    act(st, 0, "play KH")
    assert len(st.talon) == 12
    assert st.legal_actions() == ["play 9H"]
    act(st, 1, "play 9H")
    assert st.legal_actions() == ["play 7S"]
    act(st, 2, "play 7S")
    assert st.legal_actions() == plays_of("7H TH AH")  # trumped: any heart will do

    # After KH and QS, a void seat with 7S AS may play either.
    st = deal(
        "snapszer4",
        dealer=3,
        hands=["KH JH 8H 7C JC", "QS 7D 8D TC 9C", "7S AS AC 8C 9D", "9H 7H TH AH JD"],
        face_up="8S",
    )
    act(st, 0, "play KH")
    assert st.legal_actions() == ["play QS"]
    act(st, 1, "play QS")
    assert st.legal_actions() == plays_of("7S AS")
    act(st, 2, "play 7S")
    assert st.legal_actions() == plays_of("9H 7H TH AH")
    act(st, 3, "play 7H")
    assert st.tricks_won == (0, 1, 0, 0)  # QS, the highest trump, wins
    assert st.card_points == (0, points("KH QS 7S 7H"), 0, 0)


def test_scenario_05_snapszer4_team_claim():
    """RULES_MULTI 12.5 (4P.7, 1.13.1-2): team {0, 2} has 60 with 2 tricks, seat 2 wins a
    7-point trick -> 67, the deal ends; team {1, 3} has 30 with one trick -> 2 GP to
    seats 0 and 2."""
    st = deal(
        "snapszer4",
        dealer=3,
        hands=["AC AD AH TH 8D", "JC TD KS QD 9C", "TC TS KH JH QC", "KC JD AS 7D 8C"],
        talon="QH QS 9H 9S KD 8S 8H JS 7C 7H 9D",
        face_up="7S",
    )
    plays(st, "0:AC 1:JC 2:TC 3:KC")  # T1: -> 0 (27); draws 0 QH, 1 QS, 2 9H, 3 9S
    act(st, 0, "play AD")
    act(st, 1, "play TD")
    assert st.legal_actions() == ["play TS"]  # void in diamonds: must trump
    plays(st, "2:TS 3:JD")  # T2: -> 2 (33); team {0, 2} 60; draws 2 KD, 3 8S, 0 8H, 1 JS
    act(st, 2, "play KH")
    assert st.legal_actions() == plays_of("AS 9S 8S")
    act(st, 3, "play AS")
    assert st.legal_actions() == plays_of("AH TH QH 8H")
    act(st, 0, "play AH")
    assert st.legal_actions() == plays_of("KS QS JS")
    act(st, 1, "play KS")  # T3: -> 3 (30); draws 3 7C, 0 7H, 1 9D, 2 the face-up 7S
    assert st.card_points == (27, 0, 33, 30)
    assert st.tricks_won == (1, 0, 1, 1)
    assert st.talon == [] and "7S" in hand(st, 2)
    assert not st.is_terminal
    plays(st, "3:7D 0:8D 1:QD 2:KD")  # T4: -> 2 (+7): team {0, 2} 67
    assert_over(st, (2, 0, 2, 0), "claim")
    assert st.card_points == (27, 0, 40, 30)


def test_scenario_06_marriage_validated_by_the_partner():
    """RULES_MULTI 12.6 (1.10.3, MP-A7, M22): seat 0 declares 20 on lead 1 and loses the
    trick; the 20 counts only once seat 0 or seat 2 wins a trick (here seat 2)."""
    st = deal(
        "snapszer4",
        dealer=3,
        hands=["QH KH 8C JD 9D", "AH 9C 7D 8D TD", "7H AC QD AD JC", "8H 7C TC KD 9H"],
        talon="QC KC JH TH 8S 9S JS QS KS TS AS",
        face_up="7S",
    )
    assert {"marry KH", "marry QH"} <= set(st.legal_actions())  # first lead (1.10.2)
    act(st, 0, "marry QH")
    assert not st.is_terminal and st.card_points == (0, 0, 0, 0)
    assert st.legal_actions() == ["play AH"]
    plays(st, "1:AH 2:7H 3:8H")  # T1: -> 1 (14); draws 1 QC, 2 KC, 3 JH, 0 TH
    assert st.card_points == (0, 14, 0, 0)  # the 20 waits for a trick of {0, 2}
    plays(st, "1:9C 2:AC 3:7C 0:8C")  # T2: -> 2 (11)
    assert st.tricks_won == (0, 1, 1, 0)
    assert st.card_points == (20, 14, 11, 0)  # validated by the partner's trick


def test_scenario_07_called_card_in_the_talon():
    """RULES_MULTI 12.7 (3C.2-3C.4, binding decision 6, MP-A9): seat 0 calls AC (clubs
    trump), which is in the talon.  Seat 2 wins 15 in trick 1, draws AC after trick 2
    and so is seat 0's partner; seat 2 passes 66 before AC is played, yet nothing ends
    the deal until AC falls; then side {0, 2} wins, and its total needs trick 1's 15."""
    st = deal(
        "snapszer3_called",
        dealer=2,
        hands=["QD TH TS QH QS", "JD 9H 9S JH 9C", "TD AH AS KH KS"],
        talon="KC 9D JC AC KD AD TC JS QC",
    )
    assert st.legal_actions() == sorted(f"call {card}" for card in PACKS[24])
    act(st, 0, "call AC")
    assert st.trump_suit == "C"
    assert st.legal_actions() == plays_of("QD TH TS QH QS")  # no exchange or close (M7)
    plays(st, "0:QD 1:JD 2:TD")  # T1: -> 2 (15); draws 2 KC, 0 9D, 1 JC
    plays(st, "2:AH 0:TH 1:9H")  # T2: -> 2 (36); draws 2 AC, 0 KD, 1 AD
    assert "AC" in hand(st, 2)
    plays(st, "2:AS 0:TS 1:9S")  # T3: -> 2 (57); draws 2 TC, 0 JS, 1 QC
    assert st.talon == []
    plays(st, "2:KH 0:QH 1:JH")  # T4: -> 2 (66): no claim before the reveal
    assert st.card_points == (0, 0, 66)
    assert not st.is_terminal
    act(st, 2, "play KS")
    act(st, 0, "play QS")
    assert st.legal_actions() == plays_of("9C JC QC")  # void in spades: trump
    act(st, 1, "play 9C")  # T5: -> 1 (7)
    assert not st.is_terminal and st.current_player == 1
    act(st, 1, "play JC")
    assert st.legal_actions() == plays_of("KC AC TC")
    act(st, 2, "play AC")  # the reveal
    assert st.legal_actions() == plays_of("9D KD JS")  # void in trumps: anything
    act(st, 0, "play 9D")  # T6: -> 2 (+13 = 79): side {0, 2} 79 (64 without trick 1)
    assert st.card_points == (0, 7, 79)
    assert_over(st, (2, 0, 2), "claim")  # seat 1: 7 < 33 with a trick -> 2 GP each


def test_scenario_08_caller_alone():
    """RULES_MULTI 12.8 (3C.3, 3C.7, 1.13.1-2): seat 0 calls TH, which he holds, and
    plays alone; seats 1 and 2 are partners.  If seat 0 wins (the others combined 40) he
    alone scores 1; if seats 1 and 2 win, each scores (1: seat 0 has 47 counting his
    valid 40)."""
    st = deal(
        "snapszer3_called",
        dealer=2,
        hands=["TH KH QH JS JC", "QS AS TC QC QD", "9S KS TS AC 9C"],
        talon="9D TD KC AH KD JH AD JD 9H",
    )
    act(st, 0, "call TH")
    assert st.trump_suit == "H"
    act(st, 0, "marry KH")  # 40, not yet valid, and no claim point before the reveal
    assert not st.is_terminal and st.card_points == (0, 0, 0)
    assert st.legal_actions() == plays_of("QS AS TC QC QD")  # void in trumps: anything
    plays(st, "1:QS 2:9S")  # T1: -> 0 (7 + 40 = 47); draws 0 9D, 1 TD, 2 KC
    assert st.card_points == (47, 0, 0)
    act(st, 0, "play JS")
    assert st.legal_actions() == ["play AS"]
    plays(st, "1:AS 2:KS")  # T2: -> 1 (17); draws 1 AH, 2 KD, 0 JH
    plays(st, "1:TC 2:AC 0:JC")  # T3: -> 2 (23); draws 2 AD, 0 JD, 1 9H
    assert st.card_points == (47, 17, 23) and st.talon == []
    act(st, 2, "play TS")
    assert st.legal_actions() == plays_of("JH QH TH")  # void in spades: trump
    act(st, 0, "play TH")  # the reveal: seat 0 is alone
    assert st.legal_actions() == plays_of("9H AH")

    caller_wins = st.clone()
    act(caller_wins, 1, "play 9H")  # T4: -> 0 (+20 = 67)
    assert caller_wins.card_points == (67, 17, 23)
    assert_over(caller_wins, (1, 0, 0), "claim")

    act(st, 1, "play AH")  # T4: -> 1 (+31): side {1, 2} 71
    assert st.card_points == (47, 48, 23)
    assert_over(st, (0, 1, 1), "claim")


def test_scenario_09_reveal_check():
    """RULES_MULTI 12.9 (MP-A9, M5): snapszer4_called.  Before the reveal side B = {1, 3}
    has 70 with a trick; the called AS falls in a trick won by side A = {0, 2}, bringing
    A to 50.  A is checked first (50 < 66), then B (70): B wins, 1 GP each."""
    st = deal(
        "snapszer4_called",
        dealer=3,
        hands=[
            "AD JC 9S 7H QC JH QH 8H",
            "TD AC QS KS AH 8D 9D JD",
            "KD TC 7S AS 7C 8C 9C 7D",
            "QD KC 8S 9H KH TH JS TS",
        ],
    )
    assert st.legal_actions() == sorted(f"call {card}" for card in PACKS[32])
    act(st, 0, "call AS")  # seat 2 holds it: A = {0, 2}
    assert st.trump_suit == "S"
    plays(st, "0:AD 1:TD 2:KD")
    assert st.legal_actions() == ["play QD"]
    act(st, 3, "play QD")  # T1: -> 0 (28)
    plays(st, "0:JC 1:AC 2:TC 3:KC")  # T2: -> 1 (27)
    act(st, 1, "marry QS")  # 40: seat 1 alone has 67, but nothing is revealed
    assert st.card_points == (28, 67, 0, 0)
    assert not st.is_terminal
    assert st.legal_actions() == plays_of("7S AS")
    plays(st, "2:7S 3:8S 0:9S")  # T3: -> 1 (+3): side B 70
    assert st.card_points == (28, 70, 0, 0)
    assert not st.is_terminal
    act(st, 1, "play AH")
    assert st.legal_actions() == ["play AS"]
    plays(st, "2:AS 3:9H 0:7H")  # T4, the reveal: -> 2 (22): side A 50
    assert st.card_points == (28, 70, 22, 0)
    assert_over(st, (0, 1, 0, 1), "claim")


def test_scenario_10_durchmars_fails():
    """RULES_MULTI 12.10 (6.1-6.3, M6, MP-A14): snapszer4 with durchmars; seat 0 passes,
    seat 1 announces for team {1, 3} and leads (no closing); seat 2 wins trick 2 ->
    durchmars_failed, team {0, 2} +6."""
    st = deal(
        "snapszer4",
        dealer=3,
        hands=["9C 8D JH QH 9H", "AC AD TD KD 7H", "7C 8S AH TH KC", "8C 7D QC JC 8H"],
        talon="TC KH 9D JD QD 9S JS QS KS TS AS",
        face_up="7S",
        announcements="durchmars",
    )
    assert st.legal_actions() == ["announce durchmars", "pass"]
    act(st, 0, "pass")
    act(st, 1, "announce durchmars")
    assert st.current_player == 1  # the announcer leads (6.2)
    assert st.legal_actions() == plays_of("AC AD TD KD 7H")  # no close, no claim
    act(st, 1, "play AC")
    assert st.legal_actions() == plays_of("7C KC")
    plays(st, "2:7C 3:8C 0:9C")  # T1: -> 1 (11); draws 1 TC, 2 KH, 3 9D, 0 JD
    assert not st.is_terminal and st.card_points == (0, 11, 0, 0)
    act(st, 1, "play AD")
    assert st.legal_actions() == ["play 8S"]
    plays(st, "2:8S 3:7D 0:8D")  # T2: -> 2
    assert st.tricks_won == (0, 1, 1, 0)
    assert_over(st, (6, 0, 6, 0), "durchmars_failed")


def test_scenario_11_betli():
    """RULES_MULTI 12.11 (6.4, M8, MP-A15): snapszer4, seat 1 announces betli; seat 3 sits
    out; no trump (the face-up 9S is an ordinary card); seat 1 leads; tricks of 3 in the
    Ulti ranking.  Seat 1 wins trick 4 -> betli_failed, team {0, 2} +5; had he won none,
    team {1, 3} +5."""
    out = "AC KS TH JH QH"  # seat 3's hand, never played
    st = deal(
        "snapszer4",
        dealer=0,
        hands=["AS 7D 8D 9H 9D", "7C 8C 9C 7H AH", "KC AD KD KH QD", out],
        talon="JD TD 8H TS TC 7S JS JC 8S QS QC",
        face_up="9S",
        announcements="durchmars_betli",
    )
    assert st.trump_suit == "S"
    assert st.legal_actions() == ["announce betli", "announce durchmars", "pass"]
    act(st, 1, "announce betli")
    assert st.trump_suit is None  # M8 (a)
    assert st.legal_actions() == plays_of("7C 8C 9C 7H AH")  # no exchange, close, marriage
    act(st, 1, "play 7C")
    assert st.legal_actions() == ["play KC"]
    act(st, 2, "play KC")
    assert st.current_player == 0  # seat 3 sits out: tricks of three
    assert st.legal_actions() == plays_of("AS 7D 8D 9H 9D")  # void: anything, no trumping
    act(st, 0, "play AS")  # T1: KC wins, AS is no trump -> 2; draws 2 JD, 0 TD, 1 8H
    assert st.tricks_won == (0, 0, 1, 0)
    assert len(st.talon) == 9 and hand(st, 3) == sorted(out.split())  # he never draws
    assert hand(st, 1) == sorted("8C 9C 7H AH 8H".split())
    plays(st, "2:AD 0:7D 1:8C")  # T2: -> 2; draws 2 TS, 0 TC, 1 7S
    plays(st, "2:KD 0:8D 1:9C")  # T3: -> 2; draws 2 JS, 0 JC, 1 8S
    act(st, 2, "play KH")
    assert st.legal_actions() == ["play 9H"]
    act(st, 0, "play 9H")
    assert st.legal_actions() == plays_of("7H 8H AH")

    failed = st.clone()
    act(failed, 1, "play AH")  # T4: -> 1
    assert failed.tricks_won == (0, 1, 3, 0)
    assert_over(failed, (5, 0, 5, 0), "betli_failed")

    act(st, 1, "play 7H")  # T4: -> 2; draws 2 QS, 0 QC, 1 the face-up 9S
    assert st.talon == [] and "9S" in hand(st, 1)
    plays(st, "2:QD 0:9D 1:AH")  # T5: -> 2 (AH discarded)
    plays(st, "2:JD 0:TD 1:8H")  # T6: J above T in the Ulti ranking -> 2
    assert st.current_player == 2
    plays(st, "2:TS 0:TC 1:7S")  # T7
    plays(st, "2:JS 0:JC 1:8S")  # T8
    plays(st, "2:QS 0:QC 1:9S")  # T9: the cards run out
    assert st.tricks_won == (0, 0, 9, 0)
    assert hand(st, 3) == sorted(out.split())
    assert_over(st, (0, 5, 0, 5), "betli_made")


def test_scenario_12_snapszer3_close():
    """RULES_MULTI 12.12 (1.9, 3P.5, MP-A6): seat 0 closes at lead 3 (talon 3); seat 1 won
    trick 1 (14), seat 0 trick 2; seat 2 has none.  Seat 0 goes out (40 in trumps):
    snapshot 14 with a trick -> 2 GP.  Failing (the cards run out), seats 1 and 2 +3."""
    st = deal(
        "snapszer3",
        dealer=2,
        hands=["9D TS KS 9C 9H", "AD TC AH KC QH", "QD AC TH KH JH"],
        talon="TD KD QS JD JC QC AS JS",
        face_up="9S",
    )
    plays(st, "0:9D 1:AD 2:QD")  # T1: -> 1 (14); draws 1 TD, 2 KD, 0 QS
    plays(st, "1:TC 2:AC 0:TS")  # T2: -> 0 (31); draws 0 JD, 1 JC, 2 QC
    assert st.card_points == (31, 14, 0) and st.tricks_won == (1, 1, 0)
    assert st.talon == ["AS", "JS", "9S"]
    assert st.legal_actions() == [
        "close",
        "marry KS",
        "marry QS",
        *plays_of("9C 9H JD KS QS"),
    ]  # no exchange with talon 3
    act(st, 0, "close")
    assert st.current_player == 0
    assert "close" not in st.legal_actions() and "exchange" not in st.legal_actions()
    assert st.talon == ["AS", "JS", "9S"]  # M23: the dead talon keeps its cards

    out = st.clone()
    act(out, 0, "marry KS")  # 31 + 40 = 71: out before the card is led
    assert "KS" in hand(out, 0)
    assert_over(out, (2, 0, 0), "closer_claim")  # others at the close: 14, a trick

    act(st, 0, "play 9H")
    assert st.legal_actions() == plays_of("AH QH")  # strict after the close
    plays(st, "1:AH 2:TH")  # T3: -> 1 (+21 = 35)
    assert [len(h) for h in st.hands] == [4, 4, 4]  # no drawing after the close
    plays(st, "1:JC 2:QC 0:9C")  # T4: -> 2 (5)
    act(st, 2, "play KH")
    assert st.legal_actions() == plays_of("KS QS")
    plays(st, "0:QS 1:QH")  # T5: -> 0 (+10 = 41)
    act(st, 0, "play KS")
    assert st.legal_actions() == plays_of("KC TD")
    plays(st, "1:KC 2:JH")  # T6: -> 0 (+10 = 51)
    plays(st, "0:JD 1:TD 2:KD")  # T7: -> 1 (+16 = 51); the cards run out
    assert st.card_points == (51, 51, 5)
    assert_over(st, (0, 3, 3), "failed_close")


def test_scenario_13_last_trick_decides():
    """RULES_MULTI 12.13 (1.12.1, MP-A11, 3P.8): snapszer3, nobody out, card points
    (60, 40, 20); seat 2 wins trick 8 -> seat 2 +1."""
    st = deal(
        "snapszer3",
        dealer=2,
        hands=["AC AD QC QD KH", "TC KD JC 9D AH", "KC TD 9C JD TH"],
        talon="KS AS QH JS JH TS 9H QS",
        face_up="9S",
    )
    plays(st, "0:AC 1:TC 2:KC")  # T1: -> 0 (25); draws 0 KS, 1 AS, 2 QH
    plays(st, "0:AD 1:KD 2:TD")  # T2: -> 0 (50); draws 0 JS, 1 JH, 2 TS
    plays(st, "0:QC 1:JC 2:9C")  # T3: -> 0 (55); draws 0 9H, 1 QS, 2 the face-up 9S
    assert st.talon == []
    act(st, 0, "play QD")
    assert st.legal_actions() == ["play 9D"]  # strict once the talon is exhausted
    act(st, 1, "play 9D")
    assert st.legal_actions() == ["play JD"]
    act(st, 2, "play JD")  # T4: -> 0 (60)
    plays(st, "0:KH 1:AH 2:TH")  # T5: -> 1 (25)
    plays(st, "1:AS 2:9S 0:KS")  # T6: -> 1 (40)
    plays(st, "1:JH 2:QH 0:9H")  # T7: -> 2 (5)
    assert st.card_points == (60, 40, 5) and not st.is_terminal
    plays(st, "2:TS 0:JS 1:QS")  # T8: -> 2 (20)
    assert st.card_points == (60, 40, 20)
    assert st.tricks_won == (4, 2, 2)
    assert_over(st, (0, 0, 1), "last_trick")


def test_scenario_14_na66_auction_and_contract():
    """RULES_MULTI 12.14 (N4-N10, M18, M27): dealer 0, order 1 2 3 0.  1 bids 1, 2 bids 2,
    3 bids 3, then 0, 1 and 2 pass: contract 3 for team {1, 3}, needing 99.  Seat 3 leads
    KD announcing 40: diamonds trump, the 40 counts at once.  Team {1, 3} ends with 101
    -> +3 each."""
    st = deal(
        "na66",
        dealer=0,
        hands=[
            "9D QC TH TS JS 9C",
            "AD AC 9H KS JC QS",
            "TD TC AH AS KH JD",
            "KD KC JH 9S QH QD",
        ],
    )
    bids = ["bid 1", "bid 2", "bid 3", "bid 4", "bid 5"]
    assert st.legal_actions() == [*bids, "pass"]
    act(st, 1, "bid 1")
    assert st.legal_actions() == [*bids[1:], "pass"]
    act(st, 2, "bid 2")
    assert st.legal_actions() == [*bids[2:], "pass"]
    act(st, 3, "bid 3")
    for seat in (0, 1, 2):
        assert st.legal_actions() == [*bids[3:], "pass"]
        act(st, seat, "pass")
    assert st.current_player == 3  # the declarer leads
    assert st.trump_suit is None
    assert "marry KD" in st.legal_actions()
    act(st, 3, "marry KD")
    assert st.trump_suit == "D"
    assert st.card_points == (0, 0, 0, 40)  # counts without a trick (N8)
    assert st.legal_actions() == ["play 9D"]
    act(st, 0, "play 9D")
    assert st.legal_actions() == ["play AD"]  # heading
    act(st, 1, "play AD")
    assert st.legal_actions() == plays_of("TD JD")  # AD cannot be beaten
    act(st, 2, "play TD")  # T1: -> 1 (25)
    plays(st, "1:AC 2:TC 3:KC 0:QC")  # T2: -> 1 (53)
    act(st, 1, "play 9H")
    assert st.legal_actions() == plays_of("AH KH")  # must beat 9H
    plays(st, "2:AH 3:JH 0:TH")  # T3: -> 2 (23)
    plays(st, "2:AS 3:9S 0:TS 1:KS")  # T4: -> 2 (48)
    plays(st, "2:KH 3:QH 0:JS 1:JC")  # T5: -> 2 (59)
    assert not any(a.startswith("claim") for a in st.legal_actions())  # claim_mode none
    plays(st, "2:JD 3:QD 0:9C 1:QS")  # T6: -> 3 (+8): team {1, 3} 61 + 40 = 101
    assert st.card_points == (0, 53, 59, 48)
    assert_over(st, (0, 3, 0, 3), "contract_made")


def test_scenario_15_na66_moon():
    """RULES_MULTI 12.15 (N5, N9, M18): seat 2 bids 5; his partner seat 0 sits out; seat
    2 leads and must win all tricks; he loses trick 4 -> the deal ends, team {0, 2} -5."""
    out = "QD KD JH QH KH TH"
    st = deal(
        "na66",
        dealer=1,
        hands=[out, "9S AC TC QC JD AD", "AS TS KS 9H 9C 9D", "QS JS AH KC JC TD"],
    )
    act(st, 2, "bid 5")  # ends the auction at once
    assert st.current_player == 2
    act(st, 2, "play AS")
    assert st.trump_suit == "S"
    act(st, 3, "play QS")
    assert st.current_player == 1  # seat 0 sits out: tricks of three
    act(st, 1, "play 9S")  # T1: -> 2
    plays(st, "2:TS 3:JS 1:JD")  # T2: -> 2
    plays(st, "2:KS 3:TD 1:QC")  # T3: -> 2
    assert st.tricks_won == (0, 0, 3, 0) and not st.is_terminal
    act(st, 2, "play 9H")
    assert st.legal_actions() == ["play AH"]
    plays(st, "3:AH 1:AC")  # T4: -> 3
    assert hand(st, 0) == sorted(out.split())
    assert_over(st, (-5, 0, -5, 0), "moon_failed")


@pytest.mark.parametrize("options", [dict(deck=20), dict(deck=20, hand_size=5)])
def test_scenario_16_talon_not_a_multiple_of_the_players(options):
    """RULES_MULTI 12.16 (1.3.2, M19): N = 3 with 20 cards and hands of 5 leaves a talon
    of 5, not a multiple of 3: the rules are refused."""
    with pytest.raises(ValueError):
        sixtysix.Game("snapszer3", **options)


# ---- further binding points ------------------------------------------------------------


def test_m9_betli_needs_four_players():
    """RULES_MULTI M9 (6.1): ``durchmars_betli`` with N != 4 is refused."""
    with pytest.raises(ValueError):
        sixtysix.Game("snapszer3", announcements="durchmars_betli")


@pytest.mark.parametrize(
    "preset, hands, called",
    [
        ("snapszer3_called", ["QD TH TS QH QS", "JD 9H 9S JH 9C", "TD AH AS KH KS"], "9H"),
        (
            "snapszer4_called",
            [
                "AD JC 9S 7H QC JH QH 8H",
                "TD AC QS KS AH 8D 9D JD",
                "KD TC 7S AS 7C 8C 9C 7D",
                "QD KC 8S 9H KH TH JS TS",
            ],
            "7H",
        ),
    ],
)
def test_the_call(preset, hands, called):
    """RULES_MULTI 3C.2, 4C.2, MP-A10 (a caller who holds the card plays alone: scenario
    8): the caller is offered every card of the pack, his own included, and nothing else;
    the called card's suit becomes trump; then he leads, with no exchange or close."""
    st = deal(preset, dealer=2, hands=hands)
    caller = st.current_player
    pack = PACKS[LAYOUT[preset][1]]
    assert st.legal_actions() == sorted(f"call {card}" for card in pack)
    assert st.trump_suit is None
    before = snapshot(st)
    for wrong in (f"play {hand(st, caller)[0]}", "pass", "call 2H"):
        with pytest.raises(sixtysix.IllegalActionError):
            st.apply(wrong)
        assert snapshot(st) == before
    act(st, caller, f"call {called}")
    assert st.trump_suit == called[1]
    assert st.current_player == caller
    assert st.legal_actions() == plays_of(hand(st, caller))


@pytest.mark.parametrize("ranking", ["ulti", "normal"])
def test_betli_ranking_and_no_trump(ranking):
    """RULES_MULTI 6.4, M8 (a) and (e): in betli the ten ranks below the jack (Ulti
    ranking, the default; ``betli_ranking = normal`` keeps the usual order), and the
    face-up card's suit is no trump: a void follower may play anything and a spade
    does not win."""
    st = deal(
        "snapszer4",
        dealer=0,
        hands=["AS KS QS AD KD", "TC 7D 8D 7H 8H", "JC 9D TD 9H TH", "QC KC AC JD QD"],
        face_up="7S",
        announcements="durchmars_betli",
        betli_ranking=ranking,
    )
    act(st, 1, "announce betli")
    assert st.trump_suit is None
    act(st, 1, "play TC")
    assert st.legal_actions() == ["play JC"]
    act(st, 2, "play JC")
    assert st.legal_actions() == plays_of("AS KS QS AD KD")
    act(st, 0, "play AS")
    if ranking == "ulti":  # JC beats TC: seat 2 wins, the betli goes on
        assert st.tricks_won == (0, 0, 1, 0)
        assert st.current_player == 2 and not st.is_terminal
    else:  # TC beats JC: the announcer wins a trick
        assert st.tricks_won == (0, 1, 0, 0)
        assert_over(st, (5, 0, 5, 0), "betli_failed")


NA66_HANDS = ["9D QC TH TS JS 9C", "AD AC 9H KS JC QS", "TD TC AH AS KH JD", "KD KC JH 9S QH QD"]


def test_na66_dealer_forced_after_three_passes():
    """RULES_MULTI N4, M18 (``all_pass = dealer_forced``, the default): after three passes
    the dealer is offered only bids; his bid ends the auction and he leads."""
    st = deal("na66", dealer=0, hands=NA66_HANDS)
    for seat in (1, 2, 3):
        act(st, seat, "pass")
    assert st.current_player == 0
    assert st.legal_actions() == ["bid 1", "bid 2", "bid 3", "bid 4", "bid 5"]
    with pytest.raises(sixtysix.IllegalActionError):
        st.apply("pass")
    act(st, 0, "bid 1")
    assert st.current_player == 0  # the declarer leads
    kinds = {action.split()[0] for action in st.legal_actions()}
    assert kinds == {"play"}  # no marriage in this hand


def test_na66_all_pass_redeal():
    """RULES_MULTI M20: with ``all_pass = redeal`` four passes end the deal at once,
    reason ``redeal``, every score 0."""
    st = deal("na66", dealer=0, hands=NA66_HANDS, all_pass="redeal")
    for seat in (1, 2, 3):
        act(st, seat, "pass")
    assert "pass" in st.legal_actions()
    act(st, 0, "pass")
    assert_over(st, (0, 0, 0, 0), "redeal")


@pytest.mark.parametrize("announced", [True, False])
def test_m6_announced_deal_offers_no_claim(announced):
    """RULES_MULTI M6 (and MP-A14, M24): under manual claims a leader who has just won a
    trick is offered ``claim`` and ``marry-claim`` - except in an announced deal, which
    only the announcement checks settle (and which has no closing)."""
    st = deal(
        "snapszer4",
        dealer=3,
        hands=["AC KH QH 7D 8D", "7C 9D TD JD QD", "8C KD AD 7H 8H", "9C 9H JH TH AH"],
        talon="JC QC KC TC 8S 9S JS QS KS TS AS",
        face_up="7S",
        announcements="durchmars",
        claim_mode="manual",
    )
    if announced:
        act(st, 0, "announce durchmars")
    else:
        for seat in range(4):
            act(st, seat, "pass")
    plays(st, "0:AC 1:7C 2:8C 3:9C")  # T1: -> 0 (11); draws 0 JC, 1 QC, 2 KC, 3 TC
    assert not st.is_terminal and st.current_player == 0
    legal = st.legal_actions()
    assert {"marry KH", "marry QH"} <= set(legal)
    if announced:
        assert not any(a.startswith(("claim", "marry-claim")) for a in legal)
        assert "close" not in legal
    else:
        assert {"claim", "marry-claim H", "close"} <= set(legal)


@pytest.mark.parametrize("overtrump", [True, False])
def test_m13_under_trump_when_no_trump_beats(overtrump):
    """RULES_MULTI M13 (1.7.3.3): with ``must_overtrump`` a void follower must beat the
    winning trump if he can (KS over QS), and if he cannot he must still trump (8S or 9S,
    not AD, KD or QC); without it any trump will do."""
    st = deal(
        "snapszer4",
        dealer=3,
        hands=["KH 7C 8C 9C JC", "QS 7D 8D 9D JD", "KS 7S AC TC QD", "8S 9S AD KD QC"],
        face_up="TS",
        must_overtrump=overtrump,
    )
    act(st, 0, "play KH")
    assert st.legal_actions() == ["play QS"]
    act(st, 1, "play QS")
    assert st.legal_actions() == (["play KS"] if overtrump else plays_of("KS 7S"))
    act(st, 2, "play KS")
    assert st.legal_actions() == plays_of("8S 9S")


def test_m15_snapszer3_close_opponent_claim():
    """RULES_MULTI M15 (1.1.4, 1.9.4, 3P.5): after seat 0's close the two others still
    count separately: at 65 + 25 = 90 together nobody is out; when seat 1 reaches 66
    alone, reason ``opponent_claim_after_close`` and both non-closers score 3."""
    st = deal(
        "snapszer3",
        dealer=2,
        hands=["KH KC JD 9C 9D", "TH AC QS KS QC", "AH TC QD 9H JC"],
        talon="JS TS AS JH QH KD TD AD",
        face_up="9S",
    )
    assert st.legal_actions() == ["close", *plays_of("KH KC JD 9C 9D")]
    act(st, 0, "close")  # on the first lead (1.9.1): the others have no trick
    act(st, 0, "play KH")
    assert st.legal_actions() == ["play TH"]
    plays(st, "1:TH 2:AH")  # T1: -> 2 (25)
    act(st, 2, "play TC")
    assert st.legal_actions() == plays_of("KC 9C")
    plays(st, "0:KC 1:AC")  # T2: -> 1 (25)
    assert st.card_points == (0, 25, 25)
    act(st, 1, "marry QS")  # 40 in trumps: seat 1 65, seats 1 + 2 together 90
    assert st.card_points == (0, 65, 25)
    assert not st.is_terminal
    assert st.legal_actions() == plays_of("9H JC QD")
    plays(st, "2:QD 0:JD")  # T3: -> 1 (+8 = 73)
    assert st.card_points == (0, 73, 25)
    assert_over(st, (0, 3, 3), "opponent_claim_after_close")


def test_illegal_action_raises_and_changes_nothing():
    """The API (RULES_MULTI 1.16): an illegal action raises ``IllegalActionError`` (a
    ``ValueError``) and leaves the state as it was."""
    assert issubclass(sixtysix.IllegalActionError, ValueError)
    st = deal(
        "snapszer4",
        dealer=3,
        hands=["KH JH 8H 7C JC", "9H AS TC 7D 8D", "7S AC 8C 9C 9D", "7H TH AH JD QD"],
        face_up="8S",
    )
    act(st, 0, "play KH")
    assert st.legal_actions() == ["play 9H"]
    before = snapshot(st)
    copy = st.clone()
    wrong = (
        "play AS,play TC,play QS,marry 9H,exchange,close,claim,call AS,"
        "announce durchmars,bid 1,pass,meld H,play,fly"
    )
    for action in wrong.split(","):
        with pytest.raises(sixtysix.IllegalActionError):
            st.apply(action)
        assert snapshot(st) == before, action
    assert snapshot(copy) == before
    act(st, 1, "play 9H")  # the legal action still works
    assert st.current_player == 2
