"""Property tests: random play over every preset and claim mode, checked against docs/rules.md.

Every preset is run as shipped (``claim_mode = automatic``) and with
``claim_mode = "manual"`` and ``"optional_verified"``.  Hypothesis draws the deck
permutation, the dealer, a play seed and a play policy; the deal is then played
with random legal actions.  After *every* action a reference model written from
docs/rules.md (``DealChecker``) checks:

* the invariants: cards conserved and disjoint (hands + talon + won cards + the
  card on the table = the deck), each card played at most once, legal actions
  non-empty until the deal is over and empty after, ``current_player`` is
  ``None`` iff terminal, the talon even while open, card points within bounds;
* the transition itself: trick winner (section 4), draw order (5.1/5.2), the
  exchange swap (5.3), closing and its snapshot (8.2), the pre-draw, L3 and
  final-claim decision points (R-A1, R-A2, R-A7), R-A8;
* the exact legal action set at every decision point (3.2, 6.2, 7.1, 8.1, 9.1);
* the exact card points (tricks + last-trick bonus + marriages that count,
  section 3.1, 7.4, 9.3) and, at the end, the exact outcome (sections 9, 10,
  R-A12 to R-A16) and that the game points and reason lie in the preset's
  documented set.

The same model also runs on random valid combinations of option overrides
(``test_random_option_combinations_match_rules_model``).

Further properties: deterministic replay (``replay`` and ``new_deal(seed=...)``)
and ``clone`` independence.  ``test_bulk_random_deals`` plays thousands of
deals per preset with a light tracker and checks the outcome invariants.

Set ``SIXTYSIX_PROPERTY_EXAMPLES`` to raise the number of hypothesis examples
(default 25 per preset and claim mode).
"""

from __future__ import annotations

import collections
import os
import random
import zlib

import pytest
from conftest import RANKS, SUITS, deck_of, finish_randomly, game_of
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import sixtysix
from sixtysix.engine.cards import card_name

PRESET_NAMES = tuple(sixtysix.PRESETS)
CLAIM_MODES = (None, "manual", "optional_verified")  # None: the preset's own (automatic)
CONFIGS = [
    pytest.param(preset, mode, id=f"{preset}-{mode or 'preset'}")
    for preset in PRESET_NAMES
    for mode in CLAIM_MODES
]

EXAMPLES = int(os.environ.get("SIXTYSIX_PROPERTY_EXAMPLES", "25"))
PROPERTY_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

RANK_POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
ALL_MARRIAGES = 40 + 3 * 20  # every marriage of the deal declared


def card_points(card: str, rules) -> int:
    return rules.nine_points if card[0] == "9" else RANK_POINTS[card[0]]


def deck_points(game) -> int:
    return sum(card_points(card, game.rules) for card in deck_of(game))


def beats(led: str, played: str, trump: str, rules, talon_open: bool) -> bool:
    """docs/rules.md section 4: does the follower's card win the trick?"""
    if led[1] == played[1]:
        return RANKS.index(played[0]) > RANKS.index(led[0])
    if played[1] == trump:
        return True
    if led[1] == trump:
        return False
    rule = rules.trick_winner_rule
    if rule == "value_always" or (rule == "value_open_phase" and talon_open):
        return card_points(played, rules) > card_points(led, rules)
    return False


def strict_follow(hand: list[str], led: str, trump: str, rules) -> set[str]:
    """docs/rules.md 6.2: the follower's legal cards once the talon is closed or exhausted."""
    same = [card for card in hand if card[1] == led[1]]
    if rules.strict_must_follow and rules.strict_must_head:
        higher = [card for card in same if RANKS.index(card[0]) > RANKS.index(led[0])]
        if higher:
            return set(higher)
    if rules.strict_must_follow and same:
        return set(same)
    if rules.strict_must_trump and led[1] != trump:
        trumps = [card for card in hand if card[1] == trump]
        if trumps:
            return set(trumps)
    return set(hand)


def scale(rules, loser_total: int, loser_tricks: int) -> int:
    """docs/rules.md 10.1 and R-A13."""
    if rules.game_point_scale == "czech":
        if loser_total <= 22:
            return 3
        return 2 if loser_total <= 44 else 1
    schwarz = loser_tricks == 0 if rules.schwarz_basis == "no_tricks" else loser_total == 0
    if schwarz:
        return 3
    return 2 if loser_total < 33 else 1


def failed_close_points(rules, snap_tricks: int, closer_total: int) -> int:
    """docs/rules.md 10.2 R6 and R-A14."""
    penalty = rules.failed_close_penalty
    if penalty == "two_or_three_by_tricks_at_close":
        return 3 if snap_tricks == 0 else 2
    if penalty == "always_3":
        return 3
    if penalty == "by_closer_points":
        if snap_tricks == 0:
            return 3
        return 1 if closer_total >= 33 else 2
    assert penalty == "czech_6_or_3"
    return 6 if closer_total < 33 else 3


def documented_results(rules) -> dict[str, set[int]]:
    """Reasons (R-A12) a deal can end with under these rules, and the game points of each."""
    failed = {
        "two_or_three_by_tricks_at_close": {2, 3},
        "always_3": {3},
        "by_closer_points": {1, 2, 3},
        "czech_6_or_3": {3, 6},
    }[rules.failed_close_penalty]
    results = {"claim": {1, 2, 3}}
    if rules.closing_allowed:
        results["closer_claim"] = {1, 2, 3}
        results["failed_close"] = failed
        results["opponent_claim_after_close"] = (
            failed if rules.opponent_out_after_close == "as_failed_close" else {2}
        )
    if rules.claim_mode == "manual":
        results["false_claim"] = {2} if rules.false_claim_penalty == "fixed_2" else {2, 3}
        if rules.closing_allowed:
            results["closer_false_claim"] = failed
    exhausted = rules.exhausted_no_claim_rule
    if exhausted == "higher_total_wins":
        results["higher_total"] = {1, 2, 3}
        results["draw"] = {0}
    elif exhausted == "last_trick_winner":
        results["last_trick"] = {1}
    else:
        results["no_score"] = {0}
    return results


def check_outcome_shape(state, rules) -> None:
    """Outcome invariants that need no history: types, reasons, game points, winner."""
    outcome = state.outcome
    assert state.is_terminal and outcome is not None
    winner, points, reason = outcome
    allowed = documented_results(rules)
    assert reason in allowed, f"reason {reason!r} not possible under these rules: {outcome}"
    assert points in allowed[reason], f"game points {points} invalid for {reason!r}: {outcome}"
    if reason in ("draw", "no_score"):
        assert winner is None and points == 0, outcome
    else:
        assert winner in (0, 1), outcome
    totals = state.card_points
    if reason == "draw":
        assert totals[0] == totals[1], (outcome, totals)
    if reason == "higher_total":
        assert totals[winner] > totals[1 - winner], (outcome, totals)
    if reason in ("claim", "closer_claim", "opponent_claim_after_close"):
        assert totals[winner] >= 66, (outcome, totals)
    if reason in ("false_claim", "closer_false_claim"):
        assert totals[1 - winner] < 66, (outcome, totals)
    if reason in ("failed_close", "closer_claim", "closer_false_claim"):
        assert state.closed_by is not None
    if reason == "opponent_claim_after_close":
        assert state.closed_by == 1 - winner
    if reason in ("higher_total", "draw", "last_trick", "no_score"):
        assert state.closed_by is None and not any(state.hands) and not state.talon
    if reason == "failed_close":
        assert winner == 1 - state.closed_by and not any(state.hands)
    if rules.claim_mode == "automatic" and reason in (
        "higher_total",
        "draw",
        "last_trick",
        "no_score",
    ):
        # E3 under automatic claims: the last trick's winner was checked and is below 66.
        # So is the other player, unless a marriage took him there with no claim point
        # after it (claim_after_marriage off) and he won no trick since.
        assert totals[int(state.array[0]["last_winner"])] < 66, (outcome, totals)
        if rules.claim_after_marriage:
            assert max(totals) < 66, (outcome, totals)


def expected_outcome(rules, totals, tricks, closer, snapshot, claimant, last_winner):
    """The outcome docs/rules.md 9.4/10.2 prescribe: ``claimant`` None means the cards ran out."""
    if claimant is not None:
        opponent = 1 - claimant
        if totals[claimant] >= 66:
            if closer is None:
                return claimant, scale(rules, totals[opponent], tricks[opponent]), "claim"
            if closer == claimant:
                if rules.closer_win_basis == "at_close":
                    points = scale(rules, snapshot[1], snapshot[0])
                else:
                    points = scale(rules, totals[opponent], tricks[opponent])
                return claimant, points, "closer_claim"
            if rules.opponent_out_after_close == "as_failed_close":
                points = failed_close_points(rules, snapshot[0], totals[closer])
            else:
                points = 2
            return claimant, points, "opponent_claim_after_close"
        if closer == claimant:
            return (
                opponent,
                failed_close_points(rules, snapshot[0], totals[closer]),
                "closer_false_claim",
            )
        if rules.false_claim_penalty == "fixed_2" or tricks[opponent] > 0:
            return opponent, 2, "false_claim"
        return opponent, 3, "false_claim"
    if closer is not None:
        return 1 - closer, failed_close_points(rules, snapshot[0], totals[closer]), "failed_close"
    rule = rules.exhausted_no_claim_rule
    if rule == "higher_total_wins":
        if totals[0] == totals[1]:
            return None, 0, "draw"
        winner = 0 if totals[0] > totals[1] else 1
        return winner, scale(rules, totals[1 - winner], tricks[1 - winner]), "higher_total"
    if rule == "last_trick_winner":
        return last_winner, 1, "last_trick"
    return None, 0, "no_score"


# ---- deal patterns (docs/rules.md 2.2, R-A9) ---------------------------------------------


def pattern_positions(rules):
    """(non-dealer positions, dealer positions, trump position, talon positions) of a deck."""
    n = rules.deck
    pattern = rules.deal_pattern
    if pattern == "N3 D3 N3 D3 T":
        return [0, 1, 2, 6, 7, 8], [3, 4, 5, 9, 10, 11], 12, list(range(13, n))
    if pattern == "N3 D3 T N2 D2":
        return [0, 1, 2, 7, 8], [3, 4, 5, 9, 10], 6, list(range(11, n))
    if pattern == "N3 D3 T N3 D3":
        return [0, 1, 2, 7, 8, 9], [3, 4, 5, 10, 11, 12], 6, list(range(13, n))
    if pattern == "3 x (N2 D2) T":
        return [0, 1, 4, 5, 8, 9], [2, 3, 6, 7, 10, 11], 12, list(range(13, n))
    assert pattern == "alternate singles; trump = last card"
    size = rules.hand_size
    return (
        list(range(0, 2 * size, 2)),
        list(range(1, 2 * size, 2)),
        n - 1,
        list(range(2 * size, n - 1)),
    )


# ---- the reference model ----------------------------------------------------------------


def freeze(value):
    """Lists and tuples, recursively, as tuples (for equality of whole views)."""
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


class View:
    """Everything observable about a state, copied."""

    __slots__ = (
        "hands",
        "talon",
        "won",
        "tricks",
        "points",
        "closed_by",
        "led",
        "player",
        "legal",
        "terminal",
        "outcome",
        "history",
        "tricks_played",
        "trump",
    )

    def __init__(self, state) -> None:
        self.hands = tuple(list(hand) for hand in state.hands)
        self.talon = list(state.talon)
        self.won = tuple(list(won) for won in state.won_cards)
        self.tricks = tuple(state.tricks_won)
        self.points = tuple(state.card_points)
        self.closed_by = state.closed_by
        self.led = state.led_card
        self.player = state.current_player
        self.legal = list(state.legal_actions())
        self.terminal = state.is_terminal
        self.outcome = state.outcome
        self.history = list(state.history)
        self.tricks_played = state.tricks_played
        self.trump = state.trump_suit

    def as_tuple(self):
        return tuple(freeze(getattr(self, name)) for name in self.__slots__)

    def talon_open(self) -> bool:
        return self.closed_by is None and len(self.talon) > 0


class DealChecker:
    """A model of one deal written from docs/rules.md, checked against the engine at every step."""

    def __init__(self, game, deck, dealer) -> None:
        self.game = game
        self.rules = game.rules
        self.deck = list(deck)
        self.dealer = dealer
        self.mode = self.rules.claim_mode
        self.declared = [0, 0]  # marriage points declared
        self.pending = [0, 0]  # VU: declared, not yet redeemed by a won trick
        self.redeemed = [0, 0]  # VU: marriage points redeemed
        self.bonus = [0, 0]  # last-trick bonus credited
        self.played: set[str] = set()
        self.snapshot = None  # the non-closer's (tricks, total) at the close
        self.phase = "lead"  # lead, follow, pre_draw, close_exchange, final_claim, over
        self.turn_flags: set[str] = set()  # "exchange" / "close" done in this leader turn
        self.claimant = None
        self.last_winner = None
        self.max_points = deck_points(game) + self.rules.last_trick_bonus + ALL_MARRIAGES

    @property
    def exchange_card(self) -> str:
        return self.rules.exchange_rank + self.trump

    # ---- start ----
    def check_start(self, state) -> None:
        rules = self.rules
        view = View(state)
        non_dealer = 1 - self.dealer
        n_pos, d_pos, t_pos, talon_pos = pattern_positions(rules)
        assert len(n_pos) == len(d_pos) == rules.hand_size
        deck = [name.upper().replace("10", "T") for name in self.deck]
        assert sorted(view.hands[non_dealer]) == sorted(deck[i] for i in n_pos)
        assert sorted(view.hands[self.dealer]) == sorted(deck[i] for i in d_pos)
        assert view.talon == [deck[i] for i in talon_pos] + [deck[t_pos]]
        assert view.trump == deck[t_pos][1]
        assert view.player == non_dealer
        assert view.history == [] and view.tricks == (0, 0) and view.points == (0, 0)
        assert view.closed_by is None and view.led is None and not view.terminal
        self.trump = view.trump
        self.deck = deck
        self.check_view(view)

    # ---- applying one action ----
    def apply(self, state, action: str) -> None:
        before = View(state)
        assert action in before.legal
        player = before.player
        state.apply(action)
        after = View(state)
        assert after.history == before.history + [(player, action)]
        self.transition(before, after, player, action)
        self.check_view(after)

    def transition(self, before: View, after: View, p: int, action: str) -> None:
        rules = self.rules
        kind, _, arg = action.partition(" ")
        o = 1 - p
        unchanged_won = after.won == before.won and after.tricks == before.tricks
        if kind == "play":
            card = arg
            assert card in before.hands[p], (action, before.hands)
            assert card not in self.played, f"{card} played twice"
            self.played.add(card)
            if self.phase == "lead":
                self.lead_card(before, after, p, card)
            else:
                assert self.phase == "follow", self.phase
                self.complete_trick(before, after, p, card)
        elif kind == "marry":
            card = arg
            assert self.phase == "lead" and card[0] in "KQ"
            assert "K" + card[1] in before.hands[p] and "Q" + card[1] in before.hands[p]
            self.declare(p, 40 if card[1] == self.trump else 20)
            if after.terminal:
                # R-A8: automatic claim on the marriage; the card stays in the hand
                assert self.mode == "automatic" and rules.claim_after_marriage, action
                assert after.hands == before.hands and after.talon == before.talon
                assert self.total(p, after) >= 66
                self.claimant = p
                self.finish(after)
            else:
                if self.mode == "automatic" and rules.claim_after_marriage:
                    assert self.total(p, after) < 66, "automatic claim on a marriage was missed"
                assert card not in self.played, f"{card} played twice"
                self.played.add(card)
                self.lead_card(before, after, p, card)
        elif kind == "marry-claim":
            suit = arg
            assert self.phase == "lead"
            assert "K" + suit in before.hands[p] and "Q" + suit in before.hands[p]
            self.declare(p, 40 if suit == self.trump else 20)
            assert after.terminal and after.hands == before.hands and unchanged_won
            self.claimant = p
            self.finish(after)
        elif kind == "claim":
            assert self.phase in ("lead", "pre_draw", "final_claim"), self.phase
            assert after.terminal and after.hands == before.hands and unchanged_won
            self.claimant = p
            self.finish(after)
        elif kind == "exchange":
            assert self.phase == "lead" or (
                self.phase == "follow" and rules.exchange_timing == "any_time_after_trick_won"
            )
            assert before.talon_open()
            ex = self.exchange_card
            assert ex in before.hands[p]
            expected = sorted([c for c in before.hands[p] if c != ex] + [before.talon[-1]])
            assert sorted(after.hands[p]) == expected
            assert after.hands[o] == before.hands[o]
            assert after.talon == before.talon[:-1] + [ex]
            assert after.player == p and not after.terminal and unchanged_won
            assert after.led == before.led
            if self.phase == "lead":
                self.turn_flags.add("exchange")
        elif kind == "close":
            assert self.phase in ("lead", "pre_draw") and before.talon_open()
            assert after.closed_by == p
            assert after.talon == before.talon, "R-A11: the closed talon keeps its order"
            assert after.hands == before.hands and unchanged_won
            self.snapshot = (before.tricks[o], before.points[o])
            if self.phase == "pre_draw":
                self.turn_flags = set()
            self.turn_flags.add("close")
            ex = self.exchange_card
            placed = ex == before.talon[-1] or any(ex in won for won in before.won)
            if rules.exchange_on_opponent_close and not placed:  # R-A7, as revised
                self.phase = "close_exchange"
                assert after.player == o
            else:
                self.phase = "lead"
                assert after.player == p
        elif kind == "exchange-on-close":
            assert self.phase == "close_exchange" and before.closed_by == o
            ex = self.exchange_card
            expected = sorted([c for c in before.hands[p] if c != ex] + [before.talon[-1]])
            assert sorted(after.hands[p]) == expected
            assert after.talon == before.talon[:-1] + [ex], "R-A11: L3 swaps the last card"
            assert after.player == o and unchanged_won
            self.phase = "lead"
        elif kind == "pass":
            if self.phase == "close_exchange":
                assert after.player == o and after.hands == before.hands
                assert after.talon == before.talon and unchanged_won
                self.phase = "lead"
            else:
                assert self.phase == "final_claim", self.phase
                assert after.terminal
                self.finish(after)
        elif kind == "draw":
            assert self.phase == "pre_draw" and before.talon_open()
            assert sorted(after.hands[p]) == sorted(before.hands[p] + [before.talon[0]])
            assert sorted(after.hands[o]) == sorted(before.hands[o] + [before.talon[1]])
            assert after.talon == before.talon[2:] and after.player == p and unchanged_won
            self.phase = "lead"
            self.turn_flags = set()
        else:
            raise AssertionError(f"unexpected action {action!r}")
        if not after.terminal:
            assert self.phase != "over"

    def lead_card(self, before: View, after: View, p: int, card: str) -> None:
        assert after.led == card and not after.terminal
        assert sorted(after.hands[p]) == sorted(c for c in before.hands[p] if c != card)
        assert after.hands[1 - p] == before.hands[1 - p]
        assert after.talon == before.talon and after.player == 1 - p
        assert after.won == before.won and after.tricks == before.tricks
        self.phase = "follow"

    def declare(self, p: int, value: int) -> None:
        self.declared[p] += value
        self.pending[p] += value

    def complete_trick(self, before: View, after: View, follower: int, played: str) -> None:
        rules = self.rules
        leader = 1 - follower
        led = before.led
        assert led is not None
        talon_open = before.talon_open()
        w = follower if beats(led, played, self.trump, rules, talon_open) else leader
        loser = 1 - w
        expected_tricks = list(before.tricks)
        expected_tricks[w] += 1
        assert after.tricks == tuple(expected_tricks), (
            f"trick {led} / {played} (trump {self.trump}, talon open {talon_open}) should go to "
            f"player {w}; tricks {before.tricks} -> {after.tricks}"
        )
        assert sorted(after.won[w]) == sorted(before.won[w] + [led, played])
        assert after.won[loser] == before.won[loser]
        assert after.tricks_played == before.tricks_played + 1
        assert after.led is None
        self.last_winner = w
        if rules.marriage_points_validation == "next_trick_after_declaration":
            self.redeemed[w] += self.pending[w]
            self.pending[w] = 0
        hands = [list(before.hands[0]), list(before.hands[1])]
        hands[follower].remove(played)
        hands_empty = not hands[0] and not hands[1]
        if hands_empty and before.closed_by is None:
            assert not before.talon
            self.bonus[w] += rules.last_trick_bonus
        total_w = self.total(w, after)
        self.turn_flags = set()
        if self.mode == "automatic" and total_w >= 66:
            assert after.terminal, "automatic claim after the trick was missed"
            self.claimant = w
            self.finish(after)
            return
        if hands_empty:
            offered = self.claim_offered(w, after)
            if offered:
                assert not after.terminal and after.player == w
                self.phase = "final_claim"
            else:
                assert after.terminal
                self.finish(after)
            return
        assert not after.terminal, "the deal ended early"
        assert after.player == w
        pre_draw = (
            talon_open
            and rules.closing_allowed
            and rules.close_before_draw
            and len(before.talon) >= rules.close_min_talon + 2
        )
        if pre_draw:
            self.phase = "pre_draw"
            assert sorted(after.hands[0]) == sorted(hands[0])
            assert sorted(after.hands[1]) == sorted(hands[1])
            assert after.talon == before.talon
            return
        if talon_open:
            # 5.1 / 5.2: the winner draws the top card, the loser the next
            hands[w].append(before.talon[0])
            hands[loser].append(before.talon[1])
            assert after.talon == before.talon[2:]
        else:
            assert after.talon == before.talon
        assert sorted(after.hands[0]) == sorted(hands[0])
        assert sorted(after.hands[1]) == sorted(hands[1])
        self.phase = "lead"

    def finish(self, after: View) -> None:
        self.phase = "over"
        expected = expected_outcome(
            self.rules,
            after.points,
            after.tricks,
            after.closed_by,
            self.snapshot,
            self.claimant,
            self.last_winner,
        )
        assert after.outcome == expected, (
            f"outcome {after.outcome}, docs/rules.md gives {expected} "
            f"(totals {after.points}, tricks {after.tricks}, closed_by {after.closed_by}, "
            f"snapshot {self.snapshot}, claimant {self.claimant})"
        )

    # ---- the model's numbers ----
    def total(self, p: int, view: View) -> int:
        """docs/rules.md 3.1: trick points + last-trick bonus + marriages that count."""
        points = sum(card_points(card, self.rules) for card in view.won[p]) + self.bonus[p]
        if self.rules.marriage_points_validation == "any_trick":
            if view.tricks[p] > 0:
                points += self.declared[p]
        else:
            points += self.redeemed[p]
        return points

    def claim_offered(self, p: int, view: View) -> bool:
        if self.mode == "manual":
            return True
        return self.mode == "optional_verified" and self.total(p, view) >= 66

    def may_exchange(self, p: int, view: View) -> bool:
        """docs/rules.md 5.3 (``any_time_after_trick_won`` needs a won trick by its name)."""
        rules = self.rules
        needs_trick = (
            rules.exchange_requires_trick_won or rules.exchange_timing == "any_time_after_trick_won"
        )
        return (
            view.talon_open()
            and len(view.talon) >= rules.exchange_min_talon
            and self.exchange_card in view.hands[p]
            and (not needs_trick or view.tricks[p] > 0)
        )

    def expected_legal(self, view: View) -> set[str]:
        rules = self.rules
        p = view.player
        if self.phase == "follow":
            hand = view.hands[p]
            cards = (
                set(hand) if view.talon_open() else strict_follow(hand, view.led, self.trump, rules)
            )
            legal = {"play " + card for card in cards}
            if rules.exchange_timing == "any_time_after_trick_won" and self.may_exchange(p, view):
                legal.add("exchange")  # 5.3: also before following
            return legal
        if self.phase == "pre_draw":
            legal = {"close", "draw"}
            if self.claim_offered(p, view):
                legal.add("claim")
            return legal
        if self.phase == "close_exchange":
            holds = self.exchange_card in view.hands[p]
            return {"pass", "exchange-on-close"} if holds else {"pass"}
        if self.phase == "final_claim":
            return {"claim", "pass"}
        assert self.phase == "lead"
        hand = view.hands[p]
        first_lead = view.tricks_played == 0
        is_open = view.talon_open()
        legal = {"play " + card for card in hand}
        may_marry = (rules.marriage_on_first_lead or not first_lead) and (
            is_open
            or rules.marriage_in_strict_phase
            or (rules.marriage_on_closing_turn and "close" in self.turn_flags)
        )
        for suit in SUITS:
            if may_marry and "K" + suit in hand and "Q" + suit in hand:
                lead = {"either": "KQ", "king": "K", "queen": "Q"}[rules.marriage_lead_card]
                legal |= {f"marry {rank}{suit}" for rank in lead}
                if rules.claim_after_marriage and self.mode != "automatic":
                    value = 40 if suit == self.trump else 20
                    counts = rules.marriage_points_validation == "any_trick" and view.tricks[p] > 0
                    if (
                        self.mode == "manual"
                        or self.total(p, view) + (value if counts else 0) >= 66
                    ):
                        legal.add("marry-claim " + suit)
        if self.may_exchange(p, view):
            legal.add("exchange")
        if (
            rules.closing_allowed
            and is_open
            and len(view.talon) >= rules.close_min_talon
            and (rules.close_on_first_lead or not first_lead)
        ):
            legal.add("close")
        if not first_lead and not self.turn_flags and self.claim_offered(p, view):
            legal.add("claim")
        return legal

    # ---- invariants of one state ----
    def check_view(self, view: View) -> None:
        rules = self.rules
        # cards conserved and disjoint
        on_table = [view.led] if view.led is not None else []
        everything = (
            view.hands[0] + view.hands[1] + view.talon + view.won[0] + view.won[1] + on_table
        )
        assert len(everything) == len(set(everything)), f"a card is in two places: {everything}"
        assert sorted(everything) == sorted(self.deck), "cards not conserved"
        # each card played at most once (history), and only cards that are gone from the hands
        moved = [a.split()[1] for _, a in view.history if a.startswith(("play ", "marry "))]
        assert len(moved) == len(set(moved)), f"a card was played twice: {view.history}"
        # terminal <-> no player <-> no legal actions <-> outcome
        assert (
            view.terminal == (view.player is None) == (not view.legal) == (view.outcome is not None)
        )
        assert view.legal == sorted(view.legal)
        assert view.trump == self.trump
        # the talon: even while open, never growing
        if view.talon_open():
            assert len(view.talon) % 2 == 0, f"odd open talon {view.talon}"
        assert len(view.talon) <= rules.deck - 2 * rules.hand_size
        # card points: exact, and within the possible bounds
        expected_points = (self.total(0, view), self.total(1, view))
        assert view.points == expected_points, (
            f"card points {view.points}, docs/rules.md gives {expected_points} "
            f"(declared {self.declared}, bonus {self.bonus}, tricks {view.tricks})"
        )
        for points in view.points:
            assert 0 <= points <= self.max_points
        assert sum(view.points) <= self.max_points
        assert sum(view.tricks) == view.tricks_played
        assert all(
            len(won) == 2 * tricks for won, tricks in zip(view.won, view.tricks, strict=True)
        )
        if view.terminal:
            assert self.phase == "over"
            return
        # hand sizes
        sizes = [len(hand) for hand in view.hands]
        if self.phase == "follow":
            assert sizes[1 - view.player] == sizes[view.player] - 1
        else:
            assert sizes[0] == sizes[1]
        if self.phase in ("lead", "follow") and view.talon_open():
            assert max(sizes) == rules.hand_size
        # the exact legal action set
        expected = self.expected_legal(view)
        assert set(view.legal) == expected, (
            f"phase {self.phase}: legal {sorted(view.legal)}, the rules give {sorted(expected)}"
        )


# ---- random play ----------------------------------------------------------------------

SPECIAL = ("claim", "close", "exchange", "marry", "marry-claim", "exchange-on-close")


def choose(state, rng: random.Random, policy: str) -> str:
    """``uniform``: any legal action; ``patient``: special actions rarely; ``claimer``:
    claim exactly when the claim is correct, otherwise patient."""
    legal = state.legal_actions()
    if policy == "uniform":
        return rng.choice(legal)
    if policy == "claimer":
        player = state.current_player
        if "claim" in legal and state.card_points[player] >= 66:
            return "claim"
        legal = [a for a in legal if a != "claim" and not a.startswith("marry-claim")] or legal
    ordinary = [a for a in legal if a.split()[0] not in SPECIAL]
    if ordinary and rng.random() < 0.85:
        return rng.choice(ordinary)
    return rng.choice(legal)


def play_checked(game, deck, dealer, seed, policy, stop_after=None):
    state = game.new_deal(deck=deck, dealer=dealer)
    checker = DealChecker(game, deck, dealer)
    checker.check_start(state)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal and (stop_after is None or steps < stop_after):
        checker.apply(state, choose(state, rng, policy))
        steps += 1
    return state


def play_plain(game, deck, dealer, seed, policy):
    state = game.new_deal(deck=deck, dealer=dealer)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal:
        action = choose(state, rng, policy)
        state.apply(action)
        actions.append(action)
    return state, actions


@st.composite
def deals(draw, game):
    deck = draw(st.permutations(deck_of(game)))
    dealer = draw(st.integers(0, 1))
    seed = draw(st.integers(0, 2**32 - 1))
    policy = draw(st.sampled_from(("uniform", "patient", "claimer")))
    return list(deck), dealer, seed, policy


def full_view(state):
    return View(state).as_tuple()


# ---- hypothesis properties ------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "mode"), CONFIGS)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_random_play_matches_rules_model(preset, mode, data):
    """Every step of a random deal obeys the invariants and the docs/rules.md model."""
    game = game_of(preset, mode)
    deck, dealer, seed, policy = data.draw(deals(game))
    state = play_checked(game, deck, dealer, seed, policy)
    assert state.is_terminal
    check_outcome_shape(state, game.rules)


@pytest.mark.parametrize(("preset", "mode"), CONFIGS)
@settings(
    max_examples=max(5, EXAMPLES // 3), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_replay_is_deterministic(preset, mode, data):
    """``replay`` from deck + dealer + actions reproduces every state, the final one exactly."""
    game = game_of(preset, mode)
    deck, dealer, seed, policy = data.draw(deals(game))
    state, actions = play_plain(game, deck, dealer, seed, policy)
    again = sixtysix.replay(game, deck, dealer, actions)
    assert full_view(again) == full_view(state)
    assert again.hands == state.hands and again.talon == state.talon
    assert again.card_points == state.card_points and again.outcome == state.outcome
    assert again.history == state.history
    # a prefix replays to the state reached after that many actions
    cut = data.draw(st.integers(0, len(actions)))
    prefix = sixtysix.replay(game, deck, dealer, actions[:cut])
    walk = game.new_deal(deck=deck, dealer=dealer)
    for action in actions[:cut]:
        walk.apply(action)
    assert full_view(prefix) == full_view(walk)
    # the same deck given in another spelling deals the same deal
    spelled = [card.lower().replace("t", "10") for card in deck]
    assert full_view(sixtysix.replay(game, spelled, dealer, actions)) == full_view(state)


@pytest.mark.parametrize(("preset", "mode"), CONFIGS)
@settings(
    max_examples=max(5, EXAMPLES // 3), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_clone_is_independent(preset, mode, data):
    """Moves on a clone never touch the original, and vice versa; equal moves give equal states."""
    game = game_of(preset, mode)
    deck, dealer, seed, policy = data.draw(deals(game))
    _, actions = play_plain(game, deck, dealer, seed, policy)
    cut = data.draw(st.integers(0, len(actions) - 1))
    state = sixtysix.replay(game, deck, dealer, actions[:cut])
    before = full_view(state)
    copy = state.clone()
    assert full_view(copy) == before
    rng = random.Random(seed ^ 0x5EED)
    finish_randomly(copy, rng)  # the clone played to the end: the original does not move
    assert full_view(state) == before
    # and moves on the original do not move a fresh clone
    copy = state.clone()
    copy_view = full_view(copy)
    state.apply(actions[cut])
    assert full_view(copy) == copy_view
    copy.apply(actions[cut])
    assert full_view(copy) == full_view(state)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=max(5, EXAMPLES // 3), deadline=None)
@given(seed=st.integers(0, 2**63 - 1), dealer=st.sampled_from((None, 0, 1)))
def test_seeded_deals_are_reproducible(preset, seed, dealer):
    """``new_deal(seed=...)`` is deterministic and deals its own ``deck`` and ``dealer``."""
    game = game_of(preset)
    one = game.new_deal(seed=seed, dealer=dealer)
    two = game.new_deal(seed=seed, dealer=dealer)
    assert full_view(one) == full_view(two)
    if dealer is not None:
        assert one.dealer == dealer
    deck = [card_name(int(card)) for card in one.deck]
    assert sorted(deck) == sorted(deck_of(game))
    DealChecker(game, deck, one.dealer).check_start(one)
    assert full_view(sixtysix.replay(game, deck, one.dealer, [])) == full_view(one)


# Option values of docs/rules.md section 12 (match options left out: they do not affect a deal).
OPTION_VALUES = {
    "deck": (24, 20),
    "nine_points": (0, 1),
    "hand_size": (5, 6),
    "deal_pattern": (
        "N3 D3 N3 D3 T",
        "N3 D3 T N2 D2",
        "N3 D3 T N3 D3",
        "3 x (N2 D2) T",
        "alternate singles; trump = last card",
    ),
    "trick_winner_rule": ("standard", "value_open_phase", "value_always"),
    "exchange_rank": ("9", "J"),
    "exchange_timing": ("leader_before_lead", "any_time_after_trick_won"),
    "exchange_requires_trick_won": (False, True),
    "exchange_min_talon": (2, 4),
    "exchange_on_opponent_close": (False, True),
    "marriage_on_first_lead": (False, True),
    "marriage_in_strict_phase": (False, True),
    "marriage_on_closing_turn": (False, True),
    "marriage_lead_card": ("either", "king", "queen"),
    "marriage_points_validation": ("any_trick", "next_trick_after_declaration"),
    "claim_after_marriage": (False, True),
    "closing_allowed": (False, True),
    "close_on_first_lead": (False, True),
    "close_min_talon": (2, 4),
    "close_before_draw": (False, True),
    "last_trick_bonus": (0, 10),
    "exhausted_no_claim_rule": ("higher_total_wins", "last_trick_winner", "no_score"),
    "strict_must_follow": (False, True),
    "strict_must_head": (False, True),
    "strict_must_trump": (False, True),
    "claim_mode": ("manual", "optional_verified", "automatic"),
    "false_claim_penalty": ("fixed_2", "two_or_three"),
    "game_point_scale": ("standard", "czech"),
    "schwarz_basis": ("no_tricks", "zero_points"),
    "closer_win_basis": ("at_end", "at_close"),
    "opponent_out_after_close": ("as_failed_close", "fixed_2"),
    "failed_close_penalty": (
        "two_or_three_by_tricks_at_close",
        "always_3",
        "by_closer_points",
        "czech_6_or_3",
    ),
}


@st.composite
def rule_variants(draw):
    """A preset with random option overrides that the engine accepts."""
    preset = draw(st.sampled_from(PRESET_NAMES))
    names = draw(st.lists(st.sampled_from(sorted(OPTION_VALUES)), max_size=10, unique=True))
    overrides = {name: draw(st.sampled_from(OPTION_VALUES[name])) for name in names}
    try:
        game = sixtysix.Game(preset, **overrides)
    except ValueError:
        assume(False)
    return game


@settings(
    max_examples=EXAMPLES * 4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_random_option_combinations_match_rules_model(data):
    """The options drive the engine: random valid combinations obey the same docs/rules.md model."""
    game = data.draw(rule_variants())
    deck, dealer, seed, policy = data.draw(deals(game))
    state = play_checked(game, deck, dealer, seed, policy)
    check_outcome_shape(state, game.rules)


# ---- many random deals, outcome invariants only ------------------------------------------------

BULK_DEALS = int(os.environ.get("SIXTYSIX_BULK_DEALS", "3000"))


def bulk_run(game, deals_to_play: int, seed: int) -> collections.Counter:
    """Play deals quickly, tracking just enough to predict the outcome exactly."""
    rules = game.rules
    rng = random.Random(seed)
    deck = deck_of(game)
    reasons = collections.Counter()
    policies = ("uniform", "patient", "claimer")
    for number in range(deals_to_play):
        rng.shuffle(deck)
        dealer = rng.randrange(2)
        policy = policies[number % 3]
        state = game.new_deal(deck=deck, dealer=dealer)
        snapshot = None
        claimant = None
        last_winner = None
        while not state.is_terminal:
            assert state.current_player is not None
            legal = state.legal_actions()
            assert legal
            action = choose(state, rng, policy)
            player = state.current_player
            if action == "close":
                snapshot = (state.tricks_won[1 - player], state.card_points[1 - player])
            tricks = state.tricks_won
            state.apply(action)
            if state.tricks_won != tricks:
                last_winner = 0 if state.tricks_won[0] != tricks[0] else 1
            if state.is_terminal:
                word = action.split()[0]
                if word in ("claim", "marry-claim", "marry"):
                    claimant = player
                elif (
                    word == "play"
                    and state.card_points[last_winner] >= 66
                    and (rules.claim_mode == "automatic")
                ):
                    claimant = last_winner
        assert state.current_player is None and state.legal_actions() == []
        check_outcome_shape(state, rules)
        expected = expected_outcome(
            rules,
            state.card_points,
            state.tricks_won,
            state.closed_by,
            snapshot,
            claimant,
            last_winner,
        )
        assert state.outcome == expected, (
            f"deck {list(deck)} dealer {dealer}: outcome {state.outcome}, expected {expected}; "
            f"history {state.history}"
        )
        reasons[state.outcome[2]] += 1
    return reasons


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_bulk_random_deals(preset):
    """Thousands of random deals per preset: valid outcomes, scored exactly as docs/rules.md."""
    game = game_of(preset)
    reasons = bulk_run(game, BULK_DEALS, seed=zlib.crc32(preset.encode()))
    assert sum(reasons.values()) == BULK_DEALS
    # the runs are not vacuous: normal claims occur, and closes where closing exists
    assert reasons["claim"] > 0
    if game.rules.closing_allowed:
        assert reasons["closer_claim"] > 0 and reasons["failed_close"] > 0


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("mode", ("manual", "optional_verified"))
def test_bulk_random_deals_claim_modes(preset, mode):
    """The same outcome checks with manual and optional_verified claims."""
    game = game_of(preset, mode)
    reasons = bulk_run(game, max(1, BULK_DEALS // 3), seed=zlib.crc32(f"{preset}/{mode}".encode()))
    assert reasons["claim"] > 0
    if mode == "manual":
        assert reasons["false_claim"] > 0
    else:
        assert reasons["false_claim"] == 0 and reasons["closer_false_claim"] == 0
