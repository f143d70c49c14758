"""The ``heuristic`` agent's rules for the table presets (three and four seats, RULES_MULTI):
``heuristic_action(view)`` is a deterministic choice among ``view.legal_actions()`` made
from the ``TableView`` alone, in pure Python, fast enough for search rollouts.

What it knows. From the public history it keeps the cards played, the current trick, the
cards a seat is known to hold (the mate of a declared marriage, both cards of a meld, the
face-up card an exchanger took, the face-up card's drawer) and the suits a seat was shown
to lack (``view.exclusions``, valid until that seat draws again). The other cards are
*unseen*: each seat holds a given unseen card it may hold with probability (its unknown
cards) / (the unseen cards it may hold). A card is a **master** when every higher card of
its suit has been played or is in the hand; a run of masters from the top of a suit is a
**top sequence**.

Sides. In ``fixed_opposite`` games and ``na66`` the partner of seat s is (s + 2) % 4 (the
declarer plays alone in ``na66_3`` and ``na66_2``). In the called-card games the caller is
(dealer + 1) % N; the holder of the called card knows he is the caller's partner, a caller
who holds it knows he is alone, and the partnership is public once the card is played (or
its holder announces durchmars, or a betli voids the call). Before that, a seat's sides
are only what its own hand tells: each other seat is a partner with the probability that
it holds the called card (for the caller), or is not its holder (for the others), and
nobody's card is taken for a partner's. Each seat gets a **weight**: +1 for the seat itself
and a known partner, -1 for a known opponent, the expectation in between while the
partnership is hidden.

Its rules:

1. **Claims and melds** (manual claim modes, ``leader_and_partner``): claim exactly when
   the side's known total has reached the target (after the last trick, pass when short;
   under ``optional_verified``, whenever a claim is offered, as it then is correct);
   ``marry-claim`` when the marriage takes the side there; always show a meld, the
   biggest first.
2. **Whom to call** (called-card games): trump is the suit of the hand's most trick
   strength (length, high cards, a marriage); call the highest card of that suit not in
   hand, so that the partner completes the top of the trumps. Call one's own card (the
   lowest of the suit, where ``call_own_card`` allows) only when the points of its sure
   tricks (as in rule 3) and its biggest marriage pass the target by a margin alone.
3. **Announcements**: durchmars only when the sure tricks the announcer can lead one after
   another (its trump top sequence while a talon remains; with no talon and every trump
   out drawn by it, all its trumps and its plain top sequences too), each taking a share
   of the others' cards, with its biggest marriage reach the target plus a margin. Betli
   only when every suit is low from the bottom (its k-th lowest card at most 2k + 1 places
   from the bottom of the betli ranking; with a talon still to draw, at most k places) and
   it has a lead that at least 5 unseen cards of its suit go over; otherwise pass.
4. **Bidding** (``na66``): for each suit as trump, the points of its sure tricks (the trump
   top sequence; with every outstanding trump drawn, all trumps and the plain top
   sequences, else the plain aces at a discount) with what each takes from the others, its
   marriages (40 for the trump pair, led on the first trick, 20 for the others once it
   leads), and, with a partner, his average share; it bids the level (bid_unit points a
   level, at most 4) that its best suit reaches, the moon only when every card is sure,
   and passes when that is not above the high bid; over its partner's high bid it raises
   only to two levels above it (his bid already counts on an average partner). Forced to
   bid, it bids the lowest level. As declarer it leads that suit: the trump marriage if
   it has one, else its top card if a master, else its lowest.
5. **Exchange** the trump jack (the exchange card) whenever the face-up card outranks it.
   **Close** when the side's total, its declarable marriages and the points of its sure
   tricks after a close (trump top sequence; with every unseen trump drawn, all trumps and
   plain top sequences, each taking half the average unseen card from every other seat)
   reach the target.
6. **Declare marriages**: the leader declares the biggest marriage he can (40 before 20),
   leading whichever of its two cards scores better under rule 7.
7. **Playing a card** (leads and follows): every legal card is scored by who is likely to
   win the trick with it: each seat still to play after it takes the trick over from a
   seat it is not known to be allied with with the probability that it holds a card that
   beats the card to beat (a higher card of the suit; a trump when void in the led suit, or
   at will in free play); allies do not overtake each other. The card's value is the
   expected weight of the winner times the trick's points (the cards on the table, this
   card, and a few points for each card still to come), less what the card is worth kept:
   a trump (more the higher it is, more again for a trump master, ace or ten; more again
   for the trump master kept for a last trick that decides the deal: talon exhausted and
   never closed), a plain master, a king or queen whose mate is in hand while marriages
   can be declared (or may still be drawn). Winning or losing the deal on this trick (a
   side reaching the target where a claim can happen) outweighs the rest. From this:
   * it **plays sure winners** (masters nobody can beat or ruff) when the points are
     worth it, and **trumps in** when the trick is worth more than the trump kept;
   * otherwise it **ducks cheaply**: the card of least points and keep;
   * it **does not overtake a partner's sure trick** (an ally is not counted as a threat,
     and overtaking costs a small penalty on top of the card kept);
   * it **schmears**: on a partner's trick that no one after can take it gives the card of
     most points less keep value: a plain ten or ace that is not a master before a
     master, trumps last;
   * leading, **towards a partner's long suit and away from the opponents' strength**: a
     suit a partner led before counts him as likely to take it, a suit an opponent led or
     holds a shown marriage in counts him likely to take it; a suit an opponent behind is
     known to lack (and may ruff) is avoided by the same count.
8. **Cutting the leader** (``snapszer3``, each for himself): the opponent closest to the
   target is the one to stop; once he has 40 or more and leads the other by 10, the other
   opponent's weight drops to -0.3, so that this seat gives him tricks rather than the
   leader and does not overtake him where the leader could take the trick. After a close
   or a durchmars the two others are allies (+1) against the closer or announcer.
9. **Announced games**: in a durchmars (and the moon of ``na66``) every trick decides: the
   announcing side scores its chance of winning the trick, the others theirs of taking
   one. In a betli the announcer leads the card that the most unseen cards of its suit go
   over (the lowest among equals), ducks with its highest card that stays under the
   trick, plays its lowest when every card wins (hoping to be overtaken); an opponent
   leads its lowest card of a suit the announcer is not known to lack, stays under the
   announcer's card (or under the trick he is still to play to) with its highest card
   that does, and otherwise throws its highest card; a playing partner of the announcer
   plays its highest card to take his tricks.

No randomness: the same view gives the same action; ties go to the first legal action in
sorted order.
"""

from __future__ import annotations

from dataclasses import dataclass

from sixtysix.engine import multi_core as mc
from sixtysix.engine.cards import ACE, KING, QUEEN, RANK_POINTS, RANKS, SUITS, TEN, parse_card
from sixtysix.engine.multi_rules import ULTI_STRENGTH

SUIT_SPAN = 8  # card index = suit * 8 + rank (ranks 7 8 9 J Q K T A ascending)
SUIT_BITS = (1 << SUIT_SPAN) - 1

# Keep values: what holding a card is worth beyond its points (rule 7).
TRUMP_KEEP = 10
TRUMP_RANK_KEEP = 1.5  # more for each rank a trump stands above the 7
HIGH_TRUMP_KEEP = 6  # more for a trump master, ace or ten
MASTER_KEEP = 4  # a plain master
MARRIAGE_KEEP_SHARE = 0.6  # share of a marriage's value kept in a king or queen of a pair
HOPE_KEEP = 2  # a king or queen whose mate is unseen while the talon is open
LAST_TRICK_KEEP = 10  # more for the trump master kept for a last trick that decides the deal
OVERTAKE_PENALTY = 3  # taking a trick from a partner who would have won it
EXTRA_POINTS = 2.5  # points each card still to come adds to the trick, on average
WIN_DEAL = 1000  # winning or losing the deal on this trick
ALL_TRICKS = 300  # a trick of a durchmars or a moon
SIGNAL_CHANCE = 0.6  # a seat's chance to take a suit it led before or holds a marriage in
LEADER_ALERT = 40  # snapszer3: an opponent with this total is the one to stop
LEADER_LEAD = 10  # ... when he leads the other opponent by this much
CUT_WEIGHT = -0.3  # ... and the other opponent's weight then
CAPTURE_SHARE = 0.5  # sure tricks take this share of the average unseen card from each seat
DURCHMARS_MARGIN = 10  # the announcer's estimate must pass the target by this much
SOLO_MARGIN = 10  # the same for calling one's own card
BETLI_LEAD_COVER = 5  # a betli needs a lead with this many higher cards of its suit out
PARTNER_SHARE = 20  # na66 bidding: an average partner's points beside the bidder's
PLAIN_ACE_SURE = 0.75  # na66 bidding: a plain top card's chance to win while trumps are out
#: Rule 2: a card's trick strength when choosing the trump (other ranks 0.5).
TRUMP_SCORE = {ACE: 4.0, TEN: 3.0, KING: 2.0, QUEEN: 1.5}


@dataclass(frozen=True)
class _Tables:
    """Per-rules lookups: card points, the pack, betli ranks (0 = the pack's lowest)."""

    points: tuple[int, ...]
    pack: int
    betli_rank: tuple[int, ...]
    exchange_rank: int


_TABLES: dict[tuple, _Tables] = {}


def _tables(game) -> _Tables:
    key = (game.preset, tuple(sorted(game.overrides.items())))
    tables = _TABLES.get(key)
    if tables is None:
        rules = game.rules
        ranks = rules.deck_ranks
        points = [
            rules.low_card_points if RANK_POINTS[c % 8] == 0 else RANK_POINTS[c % 8]
            for c in range(32)
        ]
        if rules.betli_ranking == "ulti":
            order = sorted(ranks, key=ULTI_STRENGTH.__getitem__)
        else:
            order = list(ranks)
        betli = [order.index(RANKS[c % 8]) if RANKS[c % 8] in order else 0 for c in range(32)]
        pack = sum(1 << card for card in rules.deck_cards)
        tables = _Tables(tuple(points), pack, tuple(betli), RANKS.index(rules.exchange_card_rank))
        _TABLES[key] = tables
    return tables


def _suit_mask(suit: int) -> int:
    return SUIT_BITS << (suit * SUIT_SPAN)


def _above(card: int) -> int:
    """The cards of ``card``'s suit above it (normal ranking)."""
    return _suit_mask(card >> 3) & ~((2 << card) - 1)


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _top_sequence(hand: int, outside: int, suit: int) -> int:
    """The hand's cards of ``suit`` above every card of it in ``outside``."""
    cards = hand & _suit_mask(suit)
    rest = outside & _suit_mask(suit)
    if not rest:
        return cards
    return cards & ~((1 << rest.bit_length()) - 1)


def _action_card(action: str) -> int:
    return parse_card(action.split()[1])


class _Table:
    """What the seat to move knows, parsed from its view (module docstring)."""

    def __init__(self, view) -> None:
        game = view.game
        rules = game.rules
        self.view = view
        self.rules = rules
        self.t = _tables(game)
        self.me = view.seat
        self.n = view.num_players
        self.hand = view.hand_mask
        self.trump = SUITS.index(view.trump_suit) if view.trump_suit else -1
        self.caller = (view.dealer + 1) % self.n
        self.called = parse_card(view.called_card) if view.called_card else -1
        self.sitting_out = view.sitting_out
        self.closer = view.closed_by
        self.talon_open = view.talon_size > 0 and view.closed_by is None
        self._parse_history(view)
        self._parse_trick(view)
        self._parse_knowledge(view)
        self._relations(view)

    # ---- parsing -------------------------------------------------------------------------
    def _parse_history(self, view) -> None:
        n = self.n
        self.played = 0
        self.known = [0] * n
        self.marriages: list[tuple[int, int]] = []  # (seat, suit)
        self.signals = [0] * n  # bit per suit each seat has led or declared a marriage in
        self.announced = None  # (mc.A_DURCHMARS or mc.A_BETLI, seat)
        self.bids: list[tuple[int, int]] = []  # (seat, level)
        self.revealer = -1  # the seat that showed it holds the called card
        face_up = parse_card(view.face_up_at_deal) if view.face_up_at_deal else -1
        trick_size = n - (self.sitting_out is not None)
        plays = 0
        for seat, action in view.history:
            if action < mc.A_CALL:
                card = action & 31
                if plays % trick_size == 0:
                    self.signals[seat] |= 1 << (card >> 3)
                plays += 1
                self.played |= 1 << card
                if action >= mc.A_MARRY:
                    self.marriages.append((seat, card >> 3))
                    self.known[seat] |= 1 << (card ^ 1)  # the queen's king, the king's queen
                if card == self.called:
                    self.revealer = seat
            elif action == mc.A_EXCHANGE and face_up >= 0:
                self.known[seat] |= 1 << face_up
                face_up = (face_up & ~7) | self.t.exchange_rank
            elif action == mc.A_DURCHMARS or action == mc.A_BETLI:
                self.announced = (action, seat)
                if action == mc.A_DURCHMARS and seat != self.caller and self.called >= 0:
                    self.revealer = seat
            elif mc.A_BID < action < mc.A_MARRY_CLAIM:
                self.bids.append((seat, action - mc.A_BID))
            elif action >= mc.A_MARRY_CLAIM:
                suit = (action - mc.A_MARRY_CLAIM) % 4
                self.marriages.append((seat, suit))
                self.signals[seat] |= 1 << suit
                if action >= mc.A_MELD:
                    self.known[seat] |= (3 << QUEEN) << (suit * SUIT_SPAN)
        self.face_up = face_up

    def _parse_trick(self, view) -> None:
        self.trick = [(seat, parse_card(card)) for seat, card in view.trick]
        self.best_seat, self.best = -1, -1
        for seat, card in self.trick:
            if self.best < 0 or self.beats(card, self.best):
                self.best_seat, self.best = seat, card
        playing = [s for s in range(self.n) if s != self.sitting_out]
        at = playing.index(self.me)
        order = playing[at + 1 :] + playing[:at]
        self.after = order[: len(playing) - len(self.trick) - 1]

    def _parse_knowledge(self, view) -> None:
        n, me = self.n, self.me
        last_draw = [0] * n
        for receipt in view.receipts:
            if receipt is not None and receipt[1] > last_draw[receipt[0]]:
                last_draw[receipt[0]] = receipt[1]
        in_talon = 0
        if self.face_up >= 0:
            receipt = view.receipts[view.game.talon_positions[-1]]
            if receipt is None:
                in_talon = 1 << self.face_up
            elif receipt[0] != me:
                self.known[receipt[0]] |= 1 << self.face_up
        self.excluded = [0] * n
        for seat, index, mask in view.exclusions:
            if index >= last_draw[seat]:
                self.excluded[seat] |= mask
        gone = self.played | self.hand
        self.known = [mask & ~gone for mask in self.known]
        self.known[me] = 0
        everything_known = gone | in_talon
        for mask in self.known:
            everything_known |= mask
        self.unseen = self.t.pack & ~everything_known
        count = self.hand.bit_count()
        played_now = {seat for seat, _ in self.trick}
        self.share = [0.0] * n
        for s in range(n):
            if s == me or s == self.sitting_out:
                continue
            slots = count - (s in played_now) - self.known[s].bit_count()
            pool = (self.unseen & ~self.excluded[s]).bit_count()
            self.share[s] = min(1.0, max(slots, 0) / pool) if pool else 0.0

    def _relations(self, view) -> None:
        """``weight`` per seat and ``team`` ids (equal ids: known allies)."""
        n, me, rules = self.n, self.me, self.rules
        weight = [-1.0] * n
        team = list(range(n))
        kind, announcer = self.announced or (0, -1)
        declarer = self.bids[-1][0] if self.bids and view.phase != "bid" else -1
        if rules.sides == "fixed_opposite" or (rules.sides == "contract" and n == 4):
            team = [s % 2 for s in range(n)]
        elif rules.sides == "contract" and declarer >= 0:
            team = [int(s == declarer) for s in range(n)]
        elif rules.sides == "none":
            lone = self.closer if self.closer is not None else announcer
            if lone >= 0:
                team = [int(s == lone) for s in range(n)]
        elif rules.sides == "called_card" and self.called >= 0:
            team, weight = self._called_sides(kind, announcer)
        for s in range(n):
            if team[s] == team[me]:
                weight[s] = 1.0
        if rules.sides == "none" and team == list(range(n)):
            self._cut_the_leader(weight)
        self.weight = weight
        self.team = team

    def _called_sides(self, kind: int, announcer: int) -> tuple[list[int], list[float]]:
        n, me, caller = self.n, self.me, self.caller
        weight = [-1.0] * n
        if kind == mc.A_BETLI:
            return [int(s == announcer) for s in range(n)], weight
        holder = self.revealer
        if holder < 0 and self.hand >> self.called & 1:
            holder = me
        if holder >= 0:
            return [int(s == caller or s == holder) for s in range(n)], weight
        team = list(range(n))
        chance = self._holder_chances()
        for s in range(n):
            if s == me:
                continue
            if me == caller:
                weight[s] = 2 * chance[s] - 1
            elif s != caller:
                weight[s] = 1 - 2 * chance[s]
        return team, weight

    def _holder_chances(self) -> list[float]:
        """Each seat's chance of holding the called card (the talon's share included)."""
        slots = [0.0] * self.n
        bit = 1 << self.called
        for s in range(self.n):
            if s != self.me and not self.excluded[s] & bit:
                slots[s] = self.share[s] * (self.unseen & ~self.excluded[s]).bit_count()
        total = sum(slots) + (self.view.talon_size if self.talon_open else 0)
        return [slot / total if total else 0.0 for slot in slots]

    def _cut_the_leader(self, weight: list[float]) -> None:
        others = [s for s in range(self.n) if s != self.me]
        totals = {s: self.seat_total(s) for s in others}
        leader = max(others, key=totals.__getitem__)
        for s in others:
            if s != leader and totals[leader] >= LEADER_ALERT:
                if totals[leader] - totals[s] >= LEADER_LEAD:
                    weight[s] = CUT_WEIGHT

    # ---- rules of play -----------------------------------------------------------------
    def beats(self, card: int, best: int) -> bool:
        if card >> 3 == best >> 3:
            if self.announced and self.announced[0] == mc.A_BETLI:
                return self.t.betli_rank[card] > self.t.betli_rank[best]
            return card > best
        return card >> 3 == self.trump

    @property
    def free_play(self) -> bool:
        return self.talon_open and self.rules.open_phase_rule == "free"

    def marriage_value(self, suit: int) -> int:
        return self.rules.marriage_points * (2 if suit == self.trump else 1)

    def seat_total(self, seat: int) -> int:
        return self.side_total([seat])

    def side_total(self, seats, with_trick: bool = False) -> int:
        """Trick points of ``seats`` plus their marriages that count (or would, once the side
        has a trick: ``with_trick``)."""
        view = self.view
        total = sum(view.trick_points[s] for s in seats)
        has_trick = with_trick or any(view.tricks_won[s] for s in seats)
        if has_trick or not self.rules.marriage_requires_trick:
            total += sum(self.marriage_value(suit) for s, suit in self.marriages if s in seats)
        return total

    def side_of(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if self.team[s] == self.team[seat]]

    def claim_side(self, seat: int) -> list[int]:
        """The seats whose totals a claim of ``seat`` counts: its side, or itself alone in a
        ``snapszer3`` deal (where a non-closer must reach the target alone, M15)."""
        return [seat] if self.rules.sides == "none" else self.side_of(seat)

    def claims_possible(self) -> bool:
        rules = self.rules
        if rules.claim_mode == "none" or self.announced:
            return False
        hidden = rules.sides == "called_card" and self.revealer < 0
        return not hidden or rules.claims_before_reveal

    # ---- probabilities -----------------------------------------------------------------
    def p_holds(self, seat: int, cards: int) -> float:
        if self.known[seat] & cards:
            return 1.0
        count = (cards & self.unseen & ~self.excluded[seat]).bit_count()
        return 1.0 - (1.0 - self.share[seat]) ** count if count else 0.0

    def p_void(self, seat: int, suit: int) -> float:
        cards = _suit_mask(suit)
        if self.known[seat] & cards:
            return 0.0
        count = (cards & self.unseen & ~self.excluded[seat]).bit_count()
        return (1.0 - self.share[seat]) ** count

    def p_beat(self, seat: int, best: int, led: int) -> float:
        """The chance that ``seat`` holds a card it may play over ``best`` (led suit ``led``)."""
        higher = self.p_holds(seat, _above(best))
        trump = self.trump
        if best >> 3 == trump:
            if led == trump or self.free_play:
                return higher
            return higher * self.p_void(seat, led)
        if trump < 0:
            return higher
        ruff = self.p_holds(seat, _suit_mask(trump))
        if not self.free_play:
            ruff *= self.p_void(seat, led)
        return 1.0 - (1.0 - higher) * (1.0 - ruff)

    def winners(self, led: int, best_seat: int, best: int) -> dict[int, float]:
        """The chance of each seat winning the trick, ``best_seat`` holding it with ``best``
        before the seats still to play (rule 7); leading, a seat that signalled the suit (led
        it before, or declared a marriage in it) is taken to be likely to win it."""
        odds = {best_seat: 1.0}
        signals = not self.trick and led != self.trump
        for seat in self.after:
            chance = self.p_beat(seat, best, led)
            if signals and self.signals[seat] >> led & 1:
                chance = max(chance, SIGNAL_CHANCE)
            if chance <= 0.0:
                continue
            taken = 0.0
            for holder in list(odds):
                if self.team[holder] != self.team[seat]:
                    part = odds[holder] * chance
                    odds[holder] -= part
                    taken += part
            if taken:
                odds[seat] = odds.get(seat, 0.0) + taken
        return odds

    # ---- values ------------------------------------------------------------------------
    def is_master(self, card: int) -> bool:
        return not _above(card) & ~(self.hand | self.played) & self.t.pack

    def marriages_open(self) -> bool:
        if self.announced and self.announced[0] == mc.A_BETLI:
            return False
        return self.talon_open or self.rules.marriage_in_strict_phase

    def keep(self, card: int) -> float:
        """What holding ``card`` is worth beyond its points (rule 7)."""
        suit, rank = card >> 3, card & 7
        if suit == self.trump:
            value = TRUMP_KEEP + TRUMP_RANK_KEEP * rank
            if rank >= TEN or self.is_master(card):
                value += HIGH_TRUMP_KEEP
        else:
            value = MASTER_KEEP if self.is_master(card) else 0
        if rank in (QUEEN, KING) and self.marriages_open():
            declared = any(s == suit for _, s in self.marriages)
            mate = 1 << (card ^ 1)
            if not declared and self.hand & mate:
                value += MARRIAGE_KEEP_SHARE * self.marriage_value(suit)
            elif not declared and self.talon_open and self.unseen & mate:
                value += HOPE_KEEP
        return value

    def last_trick_card(self) -> int:
        """The card kept for the last trick (a deal it decides, talon exhausted and never
        closed): the highest trump in hand when it is a master, else -1."""
        if (
            self.trump < 0
            or self.talon_open
            or self.closer is not None
            or self.announced
            or self.rules.exhausted_no_claim_rule != "last_trick_winner"
            or self.rules.claim_mode == "none"
        ):
            return -1
        trumps = self.hand & _suit_mask(self.trump)
        if not trumps:
            return -1
        top = trumps.bit_length() - 1
        return top if self.is_master(top) else -1

    def card_value(self, card: int) -> float:
        """Rule 7 (and 9 for durchmars and the moon): the score of playing ``card``."""
        points = self.t.points
        if self.trick:
            led = self.trick[0][1] >> 3
            if self.beats(card, self.best):
                best_seat, best = self.me, card
            else:
                best_seat, best = self.best_seat, self.best
            on_table = sum(points[c] for _, c in self.trick) + points[card]
        else:
            led, best_seat, best, on_table = card >> 3, self.me, card, points[card]
        odds = self.winners(led, best_seat, best)
        expected = sum(chance * self.weight[seat] for seat, chance in odds.items())
        keep = self.keep(card) + (LAST_TRICK_KEEP if card == self.last_trick_card() else 0)
        value = expected * (on_table + EXTRA_POINTS * len(self.after)) - keep
        if (
            best_seat == self.me
            and self.trick
            and self.best_seat != self.me
            and self.team[self.best_seat] == self.team[self.me]
        ):
            value -= OVERTAKE_PENALTY
        everything = self.all_tricks_side()
        if everything is not None:
            mine = sum(c for s, c in odds.items() if self.team[s] == self.team[self.me])
            value += ALL_TRICKS * (mine if everything else 1.0 - mine)
        elif self.claims_possible():
            value += self._deal_ending(odds, on_table)
        return value

    def _deal_ending(self, odds: dict[int, float], on_table: int) -> float:
        bonus = 0.0
        target = self.rules.target
        for seat, chance in odds.items():
            if self.side_total(self.claim_side(seat), with_trick=True) + on_table >= target:
                bonus += chance * WIN_DEAL * (1 if self.team[seat] == self.team[self.me] else -1)
        return bonus

    def all_tricks_side(self) -> bool | None:
        """In a durchmars or a moon: whether this seat is on the side that must win every
        trick; None in other deals."""
        if self.announced and self.announced[0] == mc.A_DURCHMARS:
            return self.team[self.announced[1]] == self.team[self.me]
        if self.rules.sides == "contract" and self.bids and self.bids[-1][1] == mc.MOON:
            return self.bids[-1][0] == self.me
        return None

    # ---- estimates ---------------------------------------------------------------------
    def sure_points(self, hand: int, trump: int, draw_all: bool) -> tuple[int, float]:
        """``(sure tricks, their points)``: the trump top sequence, and when it draws every
        trump out (``draw_all``: no talon to bring more, strict following) all trumps and
        the plain top sequences too; each trick adds a share of the others' cards."""
        outside = self.t.pack & ~hand & ~self.played
        sure = _top_sequence(hand, outside, trump) if trump >= 0 else 0
        trumps_out = outside & _suit_mask(trump) if trump >= 0 else 0
        if draw_all and sure.bit_count() >= trumps_out.bit_count():
            sure |= hand & _suit_mask(trump) if trump >= 0 else 0
            for suit in range(4):
                if suit != trump:
                    sure |= _top_sequence(hand, outside, suit)
        points = self.t.points
        unseen = _cards(outside)
        average = sum(points[c] for c in unseen) / len(unseen) if unseen else 0.0
        tricks = sure.bit_count()
        capture = CAPTURE_SHARE * average * (self.playing_count() - 1)
        return tricks, sum(points[c] for c in _cards(sure)) + capture * tricks

    def playing_count(self) -> int:
        return self.n - (self.sitting_out is not None)

    def pairs(self, hand: int) -> list[int]:
        """The suits of the hand's undeclared marriages."""
        declared = {suit for _, suit in self.marriages}
        return [
            s for s in range(4) if s not in declared and hand >> (s * SUIT_SPAN + QUEEN) & 3 == 3
        ]


# ---- decisions --------------------------------------------------------------------------


def heuristic_action(view) -> str:
    """The heuristic's action for the seat to move in a ``TableView`` (module docstring)."""
    legal = view.legal_actions()
    if not legal:
        raise ValueError(f"seat {view.seat} has no legal action: it is not to move")
    if len(legal) == 1:
        return legal[0]
    phase = view.phase
    table = _Table(view)
    if phase == "call":
        return _call(table, legal)
    if phase == "announce":
        return _announce(table, legal)
    if phase == "bid":
        return _bid(table, legal)
    if phase in ("lead", "follow"):
        return _play(table, legal)
    if phase == "meld":
        melds = [a for a in legal if a.startswith("meld")]
        return max(melds, key=lambda a: table.marriage_value(SUITS.index(a[-1])))
    if phase == "final-claim":
        return "claim" if _claim_total(table) >= table.rules.target else "pass"
    return "pass" if "pass" in legal else legal[0]


def _claim_total(table: _Table) -> int:
    return table.side_total(table.claim_side(table.me))


def _suit_strength(hand: int, suit: int) -> float:
    """Rule 2: the hand's strength in ``suit`` as trump: 1 a card, ``TRUMP_SCORE`` by
    rank, 2 for its marriage."""
    cards = hand & _suit_mask(suit)
    score = float(cards.bit_count())
    for card in _cards(cards):
        score += TRUMP_SCORE.get(card & 7, 0.5)
    if cards >> (suit * SUIT_SPAN + QUEEN) & 3 == 3:
        score += 2.0
    return score


def _call(table: _Table, legal: list[str]) -> str:
    """Rule 2."""
    hand = table.hand
    suit = max(range(4), key=lambda s: _suit_strength(hand, s))
    calls = {_action_card(a): a for a in legal}
    own = [c for c in _cards(hand & _suit_mask(suit)) if c in calls]
    if own:
        _, points = table.sure_points(hand, suit, draw_all=table.view.talon_size == 0)
        if points + _biggest_marriage(table, suit) >= table.rules.target + SOLO_MARGIN:
            return calls[own[0]]
    for card in sorted(_cards(_suit_mask(suit) & table.t.pack & ~hand), reverse=True):
        if card in calls:
            return calls[card]
    return legal[0]


def _announce(table: _Table, legal: list[str]) -> str:
    """Rule 3."""
    if "announce durchmars" in legal and _durchmars_sure(table):
        return "announce durchmars"
    if "announce betli" in legal and _betli_safe(table):
        return "announce betli"
    return "pass"


def _durchmars_sure(table: _Table) -> bool:
    draw_all = table.view.talon_size == 0
    tricks, points = table.sure_points(table.hand, table.trump, draw_all)
    if not tricks:
        return False
    return points + _biggest_marriage(table, table.trump) >= table.rules.target + DURCHMARS_MARGIN


def _biggest_marriage(table: _Table, trump: int) -> int:
    """The value of the biggest marriage in hand with ``trump`` as trump (0 if none)."""
    pairs = table.pairs(table.hand)
    return max((table.rules.marriage_points * (1 + (s == trump)) for s in pairs), default=0)


def _betli_safe(table: _Table) -> bool:
    slack = 1 if table.view.talon_size == 0 else 0  # cards still to draw: a stricter rule
    rank = table.t.betli_rank
    for suit in range(4):
        ranks = sorted(rank[c] for c in _cards(table.hand & _suit_mask(suit)))
        if any(r > (1 + slack) * k + slack for k, r in enumerate(ranks)):
            return False
    lead = _betli_lead(table, _cards(table.hand))
    return _higher_outside(table, lead) >= BETLI_LEAD_COVER


def _higher_outside(table: _Table, card: int) -> int:
    """The cards of ``card``'s suit above it in the betli ranking, neither in hand nor
    played."""
    rank = table.t.betli_rank
    outside = table.t.pack & ~table.hand & ~table.played & _suit_mask(card >> 3)
    return sum(rank[other] > rank[card] for other in _cards(outside))


def _betli_lead(table: _Table, cards: list[int]) -> int:
    """The betli announcer's lead: the card most others can go over, the lowest first."""
    rank = table.t.betli_rank
    return min(cards, key=lambda c: (-_higher_outside(table, c), rank[c], c))


def _contract_estimate(table: _Table, suit: int) -> tuple[float, bool]:
    """Rule 4: ``(points, sure of every trick)`` with ``suit`` as trump."""
    hand = table.hand
    tricks, points = table.sure_points(hand, suit, draw_all=True)
    if tricks == hand.bit_count():
        return points, True
    outside = table.t.pack & ~hand
    if _top_sequence(hand, outside, suit).bit_count() < (outside & _suit_mask(suit)).bit_count():
        plain = 0  # trumps stay out: the plain top cards win at a discount
        for other in range(4):
            if other != suit:
                plain |= _top_sequence(hand, outside, other)
        points += PLAIN_ACE_SURE * sum(table.t.points[card] for card in _cards(plain))
    pairs = table.pairs(hand)
    if suit in pairs:
        points += 2 * table.rules.marriage_points
    if tricks or suit in pairs:
        points += table.rules.marriage_points * len([s for s in pairs if s != suit])
    if table.n == 4:
        points += PARTNER_SHARE * table.rules.bid_unit / 33
    return points, False


def _best_contract(table: _Table) -> tuple[int, int]:
    """``(trump suit, level)`` of the best contract the hand supports."""
    best_suit, best_level, best_points = -1, 0, -1.0
    for suit in range(4):
        if not table.hand & _suit_mask(suit):
            continue
        points, everything = _contract_estimate(table, suit)
        level = mc.MOON if everything else min(mc.MOON - 1, int(points // table.rules.bid_unit))
        if (level, points) > (best_level, best_points):
            best_suit, best_level, best_points = suit, level, points
    return best_suit, best_level


def _bid(table: _Table, legal: list[str]) -> str:
    """Rule 4."""
    bids = sorted((int(a.split()[1]), a) for a in legal if a.startswith("bid"))
    if "pass" not in legal:
        return bids[0][1]
    _, level = _best_contract(table)
    high_seat, high = table.bids[-1] if table.bids else (-1, 0)
    if high_seat >= 0 and table.team[high_seat] == table.team[table.me] and level <= high + 1:
        return "pass"
    for bid, action in bids:
        if bid == level:
            return action
    return "pass"


def _first_contract_lead(table: _Table, legal: list[str]) -> str:
    """Rule 4: the declarer's first lead sets trump."""
    suit, _ = _best_contract(table)
    marry = [a for a in legal if a.startswith("marry ") and _action_card(a) >> 3 == suit]
    if marry:
        return max(marry, key=lambda a: _action_card(a))
    cards = _cards(table.hand & _suit_mask(suit))
    outside = table.t.pack & ~table.hand
    top = cards[-1]
    card = top if _top_sequence(table.hand, outside, suit) >> top & 1 else cards[0]
    return f"play {RANKS[card & 7]}{SUITS[card >> 3]}"


def _play(table: _Table, legal: list[str]) -> str:
    """Rules 1 and 5-9 at a lead or a follow."""
    rules = table.rules
    if "claim" in legal and (
        rules.claim_mode == "optional_verified" or _claim_total(table) >= rules.target
    ):
        return "claim"
    for action in legal:
        if action.startswith("marry-claim"):
            suit = SUITS.index(action[-1])
            total = table.side_total(table.claim_side(table.me), with_trick=True)
            if total + table.marriage_value(suit) >= rules.target:
                return action
    if "exchange" in legal and table.view.face_up:
        if parse_card(table.view.face_up) & 7 > table.t.exchange_rank:
            return "exchange"
    if "close" in legal and _should_close(table):
        return "close"
    if table.view.phase == "lead" and table.trump < 0 and rules.trump_source == "first_lead":
        return _first_contract_lead(table, legal)
    if table.announced and table.announced[0] == mc.A_BETLI:
        return _betli_play(table, legal)
    marry = [a for a in legal if a.startswith("marry ")]
    if marry:
        biggest = max(table.marriage_value(_action_card(a) >> 3) for a in marry)
        marry = [a for a in marry if table.marriage_value(_action_card(a) >> 3) == biggest]
        return max(marry, key=lambda a: table.card_value(_action_card(a)))
    plays = [a for a in legal if a.startswith("play")]
    return max(plays, key=lambda a: table.card_value(_action_card(a)))


def _should_close(table: _Table) -> bool:
    """Rule 5."""
    _, points = table.sure_points(table.hand, table.trump, draw_all=True)
    marriages = sum(table.marriage_value(s) for s in table.pairs(table.hand))
    total = table.side_total(table.side_of(table.me), with_trick=True)
    return total + points + marriages >= table.rules.target


def _betli_play(table: _Table, legal: list[str]) -> str:
    """Rule 9, betli."""
    rank = table.t.betli_rank
    cards = {_action_card(a): a for a in legal if a.startswith("play")}
    announcer = table.announced[1]
    me = table.me
    lowest = min(cards, key=lambda c: (rank[c], c))
    highest = max(cards, key=lambda c: (rank[c], c))
    if me != announcer and table.team[me] == table.team[announcer]:
        return cards[highest]
    if not table.trick:
        if me == announcer:
            return cards[_betli_lead(table, list(cards))]
        void = table.excluded[announcer]
        open_suits = [c for c in cards if not void >> c & 1] or list(cards)
        return cards[min(open_suits, key=lambda c: (rank[c], c))]
    under = [c for c in cards if not table.beats(c, table.best)]
    if me == announcer:
        if under:
            return cards[max(under, key=lambda c: (rank[c], c))]
        return cards[lowest]
    if table.best_seat == announcer or announcer in table.after:
        if under:
            return cards[max(under, key=lambda c: (rank[c], c))]
        return cards[lowest]
    return cards[highest]
