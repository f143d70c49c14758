"""Independent pure-Python reference for the multi-player rules (shared/RULES_MULTI.md).

Written from the specification only (RULES_MULTI.md, and the parts of RULES.md it
cites); it does not import or read the ``sixtysix`` package.  It mirrors the public
API of the engine's deal state so that a test can drive both in lockstep:

    g = RefGame("snapszer4", {"announcements": "durchmars_betli"})
    st = g.new_deal(deck=[...], dealer=3)
    st.current_player, st.legal_actions(), st.apply("play QH"), st.hands, st.talon,
    st.trump_suit, st.card_points, st.is_terminal, st.scores, st.reason

Section references (1.7.3, M13, MP-A9, ...) are those of RULES_MULTI.md; "R-Ax" and
"RULES a.b" refer to RULES.md.

Decisions taken where the text leaves room (each is also listed in ``NOTES``):

* N1  A talonless game (snapszer4_called, na66, talonless minis) is in the strict
      phase from trick 1 (RULES 6: "strict phase: the talon is exhausted"), so
      ``marriage_in_strict_phase = False`` forbids marriages there entirely.
* N2  The partner's meld (M12) is offered under the same phase condition as a
      leader's marriage (talon open, or ``marriage_in_strict_phase``).
* N3  In ``sides = none`` the temporary two-sidedness of a close or announcement
      (1.1.4) is used for scoring only; marriage validity stays per seat.
* N4  ``defender_units`` applies to every na66 outcome, the moon included.
* N5  Under ``all_pass = dealer_forced`` with N < 4 the dealer is forced once the
      N-1 seats before him have passed ("the first three pass" generalised).
* N6  Betli checks are not delayed by the reveal (the call is void, 6.4 / 4C.6).
"""

from __future__ import annotations

NOTES = __doc__

RANK_ORDER = "789JQKTA"  # low to high, 1.2.1
ULTI_ORDER = "789TJQKA"  # betli 'ulti' ranking, low to high (MP-A15)
SUITS = "CDHS"
BASE_POINTS = {"J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
DECK_RANKS = {20: "JQKTA", 24: "9JQKTA", 32: "789JQKTA"}

# ---------------------------------------------------------------------------
# Presets (section 8 option table; sections 2-7; section 10 / M1 for the minis)
# ---------------------------------------------------------------------------

COMMON = dict(
    low_card_points=0,
    strict_must_follow=True,
    strict_must_head=False,
    strict_must_trump=True,
    trump_duty="always",
    must_overtrump=False,
    exchange_rank="J",
    exchange_min_talon=4,
    closing_allowed=False,
    close_min_talon=2,
    failed_close_penalty="always_3",
    closer_win_basis="at_close",
    marriage_declarers="leader",
    marriage_validation_scope="side",
    marriage_requires_trick=True,
    marriage_in_strict_phase=True,
    claim_mode="automatic",
    false_claim_penalty="two_or_three",
    exhausted_no_claim_rule="last_trick_winner",
    last_trick_bonus=0,
    loser_basis="combined",
    announcements="none",
    durchmars_points=6,
    betli_points=5,
    betli_partner="sits_out",
    betli_ranking="ulti",
    betli_must_head=False,
    match_target=7,
    match_scoring="individual",
    next_dealer="rotate",
    call_timing="full_hand",
    call_own_card=True,
    claims_before_reveal=False,
    open_phase_rule="strict",
    bid_unit=33,
    bid_levels=5,
    all_pass="dealer_forced",
    moon_rule="partner_out_all_tricks",
    defender_units=False,
    ranks="",
    suits=4,
    target=66,
    marriage_points=20,
)

PRESETS = {
    "snapszer3": dict(
        num_players=3,
        sides="none",
        deck=24,
        hand_size=5,
        deal_pattern="P3 P2 T",
        trump_source="turn_up",
        open_phase_rule="free",
        closing_allowed=True,
    ),
    "snapszer3_called": dict(
        num_players=3,
        sides="called_card",
        deck=24,
        hand_size=5,
        deal_pattern="P3 P2",
        trump_source="called_card",
        open_phase_rule="strict",
        closing_allowed=False,
    ),
    "snapszer4": dict(
        num_players=4,
        sides="fixed_opposite",
        deck=32,
        hand_size=5,
        deal_pattern="P3 P2 T",
        trump_source="turn_up",
        open_phase_rule="strict",
        closing_allowed=True,
        match_scoring="team",
    ),
    "snapszer4_called": dict(
        num_players=4,
        sides="called_card",
        deck=32,
        hand_size=8,
        deal_pattern="P3 P2 P3",
        trump_source="called_card",
        closing_allowed=False,
    ),
    "na66": dict(
        num_players=4,
        sides="contract",
        deck=24,
        hand_size=6,
        deal_pattern="P3 P3",
        trump_source="first_lead",
        strict_must_head=True,
        marriage_requires_trick=False,
        claim_mode="none",
        match_target=10,
        match_scoring="team",
    ),
}
PRESETS["na66_3"] = dict(
    PRESETS["na66"], num_players=3, hand_size=8, deal_pattern="P3 P2 P3", match_scoring="individual"
)
PRESETS["na66_2"] = dict(
    PRESETS["na66"], num_players=2, hand_size=12, deal_pattern="P6 P6", match_scoring="individual"
)

_MINIS = {
    # name: (parent, ranks, suits, hand, pattern, target, marriage)
    "mini3_3x3": ("snapszer3", "JQK", 3, 2, "P2 T", 15, 4),
    "mini3_called_3x3": ("snapszer3_called", "JQK", 3, 3, "P3", 15, 4),
    "mini3_called_3x4": ("snapszer3_called", "JQKA", 3, 3, "P3", 33, 10),
    "mini4_4x3": ("snapszer4", "JQK", 4, 2, "P2 T", 20, 6),
    "mini4_called_2x4": ("snapszer4_called", "JQKA", 2, 2, "P2", 22, 7),
    "mini_na66_4x3": ("na66", "JQK", 4, 3, "P3", 66, 6),
    "mini_na66_2": ("na66_2", "JQK", 4, 6, "P3 P3", 66, 6),
}
for _name, (_par, _r, _s, _h, _p, _t, _m) in _MINIS.items():
    _d = dict(
        PRESETS[_par],
        ranks=_r,
        suits=_s,
        deck=len(_r) * _s,
        hand_size=_h,
        deal_pattern=_p,
        target=_t,
        marriage_points=_m,
        exchange_min_talon=2,
    )
    if _par.startswith("na66"):
        _d["bid_unit"] = 10
    PRESETS[_name] = _d

# Option value sets (section 8 table, M19).
VALUES = dict(
    num_players=(2, 3, 4),
    sides=("none", "fixed_opposite", "called_card", "contract"),
    deck=None,
    low_card_points=(0, 1),
    hand_size=None,
    deal_pattern=None,
    trump_source=("turn_up", "called_card", "first_lead", "none"),
    call_timing=("full_hand", "first_batch"),
    call_own_card=(True, False),
    claims_before_reveal=(True, False),
    open_phase_rule=("free", "strict"),
    strict_must_follow=(True, False),
    strict_must_head=(True, False),
    strict_must_trump=(True, False),
    trump_duty=("always", "if_winning"),
    must_overtrump=(True, False),
    exchange_rank=("J", "9", "lowest"),
    exchange_min_talon=None,
    closing_allowed=(True, False),
    close_min_talon=None,
    failed_close_penalty=("always_3", "two_or_three_by_tricks_at_close"),
    closer_win_basis=("at_close", "at_end"),
    marriage_declarers=("leader", "leader_and_partner"),
    marriage_validation_scope=("side", "own"),
    marriage_requires_trick=(True, False),
    marriage_in_strict_phase=(True, False),
    claim_mode=("automatic", "manual", "optional_verified", "none"),
    false_claim_penalty=("fixed_2", "two_or_three"),
    exhausted_no_claim_rule=("last_trick_winner",),
    last_trick_bonus=(0, 10),
    loser_basis=("combined", "per_opponent"),
    announcements=("none", "durchmars", "durchmars_betli"),
    durchmars_points=None,
    betli_points=None,
    betli_partner=("sits_out", "plays"),
    betli_ranking=("ulti", "normal"),
    betli_must_head=(True, False),
    match_target=None,
    match_scoring=("team", "individual"),
    next_dealer=("rotate",),
    bid_unit=None,
    bid_levels=(5,),
    all_pass=("dealer_forced", "redeal"),
    moon_rule=("partner_out_all_tricks",),
    defender_units=(True, False),
    ranks=None,
    suits=(2, 3, 4),
    target=None,
    marriage_points=None,
)


def parse_pattern(pattern):
    toks = pattern.split()
    out = []
    for t in toks:
        if t == "T":
            out.append(("T", 1))
        elif t.startswith("P") and t[1:].isdigit():
            out.append(("P", int(t[1:])))
        else:
            raise ValueError(f"bad deal_pattern token {t!r}")
    return out


def resolve_options(preset, overrides):
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    o = dict(COMMON)
    o.update(PRESETS[preset])
    ov = dict(overrides or {})
    if "nine_points" in ov:
        ov["low_card_points"] = ov.pop("nine_points")
    for k, v in ov.items():
        if k not in o:
            raise ValueError(f"unknown option {k!r}")
        o[k] = v
    validate(o)
    return o


def pack_ranks(o):
    if o["ranks"]:
        return o["ranks"]
    if o["deck"] not in DECK_RANKS:
        raise ValueError("deck must be 20, 24 or 32")
    return DECK_RANKS[o["deck"]]


def pack_of(o):
    ranks = pack_ranks(o)
    return [r + s for s in SUITS[: o["suits"]] for r in ranks]


def validate(o):
    """M19's refusals (plus bad values)."""
    for k, vals in VALUES.items():
        if vals is not None and o[k] not in vals:
            raise ValueError(f"{k}={o[k]!r} not in {vals!r}")
    N = o["num_players"]
    ranks = pack_ranks(o)
    if o["ranks"] and o["deck"] != len(ranks) * o["suits"]:
        raise ValueError("deck does not match ranks x suits")
    if not o["ranks"] and o["suits"] != 4:
        raise ValueError("suits needs ranks")
    ncards = len(ranks) * o["suits"]
    pat = parse_pattern(o["deal_pattern"])
    per_seat = sum(k for t, k in pat if t == "P")
    nT = sum(1 for t, _ in pat if t == "T")
    if per_seat != o["hand_size"]:
        raise ValueError("pattern deals another hand size")
    if per_seat * N + nT > ncards:
        raise ValueError("pattern deals more cards than the pack")
    if nT > 1:
        raise ValueError("more than one T")
    talon = ncards - per_seat * N
    if talon % N:
        raise ValueError("talon not a multiple of N (1.3.2)")
    if (o["trump_source"] == "turn_up") != (nT == 1):
        raise ValueError("turn_up needs exactly one T and T needs turn_up")
    if (o["sides"] == "called_card") != (o["trump_source"] == "called_card"):
        raise ValueError("called_card sides <-> called_card trump")
    if o["sides"] == "contract":
        if (
            o["trump_source"] != "first_lead"
            or talon
            or o["announcements"] != "none"
            or o["claim_mode"] != "none"
        ):
            raise ValueError(
                "contract sides need first_lead, no talon, no announcements, claim none"
            )
    elif o["claim_mode"] == "none":
        raise ValueError("claim_mode none outside contract games")
    if o["sides"] == "fixed_opposite" and N != 4:
        raise ValueError("fixed_opposite needs 4 players")
    if o["closing_allowed"] and o["trump_source"] != "turn_up":
        raise ValueError("closing only in turn-up games")
    er = o["exchange_rank"]
    if er != "lowest" and er not in ranks:
        raise ValueError("exchange_rank not in pack")
    if o["low_card_points"] == 1 and not any(r in ranks for r in "789"):
        raise ValueError("low_card_points=1 without low cards")
    if o["loser_basis"] == "per_opponent" and not (N == 3 and o["sides"] == "none"):
        raise ValueError("per_opponent needs N=3, sides none")
    if o["marriage_declarers"] == "leader_and_partner" and o["sides"] != "fixed_opposite":
        raise ValueError("leader_and_partner needs fixed partners")
    if o["announcements"] == "durchmars_betli":
        if N != 4:
            raise ValueError("betli needs 4 players (M9)")
        if o["sides"] == "fixed_opposite" and o["betli_partner"] == "sits_out" and talon % (N - 1):
            raise ValueError("betli with sits_out: talon not shared by 3 (M9)")


class RefGame:
    def __init__(self, preset, options=None):
        self.preset = preset
        self.options = resolve_options(preset, options)
        self.num_players = self.options["num_players"]

    def pack(self):
        return pack_of(self.options)

    def new_deal(self, deck, dealer):
        return RefState(self.options, list(deck), dealer)


class RefState:
    # ------------------------------------------------------------------ setup
    def __init__(self, o, deck, dealer):
        self.o = o
        self.N = N = o["num_players"]
        self.num_players = N
        if sorted(deck) != sorted(pack_of(o)):
            raise ValueError("deck is not the pack")
        self.dealer = dealer
        self.fl = (dealer + 1) % N
        self.hands = [[] for _ in range(N)]
        self.first_batch = [[] for _ in range(N)]
        pos = 0
        face = None
        first_p = True
        for t, k in parse_pattern(o["deal_pattern"]):
            if t == "P":
                for i in range(N):
                    s = (self.fl + i) % N
                    cards = deck[pos : pos + k]
                    self.hands[s] += cards
                    if first_p:
                        self.first_batch[s] = list(cards)
                    pos += k
                first_p = False
            else:
                face = deck[pos]
                pos += 1
        self._talon = deck[pos:] + ([face] if face else [])
        self.turn_up = face is not None
        self.trump = face[1] if face else None
        self.closed_by = None
        self.closed_this_turn = False
        self.snapshot = None  # (tricks_others, total_others, per-seat dict)
        self.trick_pts = [0] * N
        self.tricks = [0] * N
        self.bonus = [0] * N
        self.marriages = []  # (seat, suit, value)
        self.declared = set()
        self.trick = []  # [(seat, card)]
        self.leader = self.fl
        self.cur = None
        self.won_prev = False
        self.turn_acted = False
        self.last_winner = None
        self.sitting_out = set()
        self.called = None
        self.caller = self.fl
        self.holder = None
        self.revealed = False
        self.reveal_checked = False
        self.announce = None  # (kind, seat)
        self.ann_order = []
        self.ann_idx = 0
        self.declarer = None
        self.level = None
        self.passed = set()
        self.high = 0
        self.bidder = None
        self.scores = None
        self.reason = None
        self.phase = None
        self.meld_seat = None
        if o["trump_source"] == "called_card":
            self.phase = "call"
            self.cur = self.caller
        elif o["sides"] == "contract":
            self.phase = "auction"
            self.cur = self.fl
        else:
            self._start_announcements()

    # ------------------------------------------------------------- public api
    @property
    def current_player(self):
        return None if self.phase == "over" else self.cur

    @property
    def is_terminal(self):
        return self.phase == "over"

    @property
    def trump_suit(self):
        return self.trump

    @property
    def talon(self):
        return list(self._talon)

    def sorted_hands(self):
        return tuple(sorted(h) for h in self.hands)

    @property
    def card_points(self):
        return tuple(self._cp(s) for s in range(self.N))

    # ------------------------------------------------------------- basics
    def _pts(self, c):
        r = c[0]
        if r in "789":
            return self.o["low_card_points"]
        return BASE_POINTS[r]

    def _betli(self):
        return self.announce is not None and self.announce[0] == "betli"

    def _durch(self):
        return self.announce is not None and self.announce[0] == "durchmars"

    def _order(self):
        if self._betli() and self.o["betli_ranking"] == "ulti":
            return ULTI_ORDER
        return RANK_ORDER

    def _playing(self):
        return [s for s in range(self.N) if s not in self.sitting_out]

    def _next_playing(self, s):
        for i in range(1, self.N + 1):
            t = (s + i) % self.N
            if t not in self.sitting_out:
                return t
        raise AssertionError

    def _talon_open(self):
        return self.closed_by is None and len(self._talon) > 0

    def sides(self):
        N, o = self.N, self.o
        allseats = set(range(N))
        alone = [{s} for s in range(N)]
        sd = o["sides"]
        if sd == "none":
            return alone
        if sd == "fixed_opposite":
            return [{0, 2}, {1, 3}]
        if sd == "called_card":
            if self._betli():
                a = self.announce[1]
                return [{a}, allseats - {a}]
            if self.called is None or self.holder is None:
                return alone  # M17, M3
            if self.holder == self.caller:
                return [{self.caller}, allseats - {self.caller}]
            side = {self.caller, self.holder}
            return [side, allseats - side]
        # contract (M17)
        if self.declarer is None:
            return [{0, 2}, {1, 3}] if N == 4 else alone
        if N == 4:
            return [{0, 2}, {1, 3}]
        return [{self.declarer}, allseats - {self.declarer}]

    def side_of(self, s):
        for sd in self.sides():
            if s in sd:
                return sd
        raise AssertionError

    def _marriage_valid(self, seat):
        o = self.o
        if not o["marriage_requires_trick"]:
            return True
        if o["marriage_validation_scope"] == "own":
            return self.tricks[seat] > 0
        return any(self.tricks[t] > 0 for t in self.side_of(seat))

    def _cp(self, s):
        m = 0
        if self._marriage_valid(s):
            m = sum(v for (ms, _, v) in self.marriages if ms == s)
        return self.trick_pts[s] + m + self.bonus[s]

    def _total(self, seats):
        return sum(self._cp(s) for s in seats)

    def _tricks_of(self, seats):
        return sum(self.tricks[s] for s in seats)

    def _scale(self, tricks, total):
        if tricks == 0:
            return 3
        if total < self.o["target"] // 2:
            return 2
        return 1

    # ------------------------------------------------------------- endings
    def _end(self, scores, reason):
        self.scores = tuple(scores)
        self.reason = reason
        self.phase = "over"
        self.cur = None

    def _score_seats(self, seats, value, reason):
        sc = [0] * self.N
        for s in seats:
            sc[s] = value
        self._end(sc, reason)

    def _closing_side(self):
        return self.side_of(self.closed_by)

    def _fail_close_value(self):
        if self.o["failed_close_penalty"] == "always_3":
            return 3
        return 3 if self.snapshot[0] == 0 else 2

    def _win_scale(self, side, use_snapshot):
        others = [s for s in range(self.N) if s not in side]
        if use_snapshot:
            t_all, tot_all, per = self.snapshot
        else:
            t_all, tot_all = self._tricks_of(others), self._total(others)
            per = {s: (self.tricks[s], self._cp(s)) for s in others}
        if self.o["loser_basis"] == "per_opponent":
            return sum(self._scale(*per[s]) for s in others)
        return self._scale(t_all, tot_all)

    def _correct_claim(self, side):
        if self.closed_by is not None:
            cs = self._closing_side()
            if side == cs:
                g = self._win_scale(side, self.o["closer_win_basis"] == "at_close")
                self._score_seats(side, g, "closer_claim")
            else:
                self._score_seats(
                    [s for s in range(self.N) if s not in cs],
                    self._fail_close_value(),
                    "opponent_claim_after_close",
                )
            return
        self._score_seats(side, self._win_scale(side, False), "claim")

    def _false_claim(self, claimant):
        side = self.side_of(claimant)
        others = [s for s in range(self.N) if s not in side]
        if self.closed_by is not None and side == self._closing_side():
            self._score_seats(others, self._fail_close_value(), "closer_false_claim")
            return
        if self.o["false_claim_penalty"] == "fixed_2":
            v = 2
        else:
            v = 3 if self._tricks_of(others) == 0 else 2
        self._score_seats(others, v, "false_claim")

    def _claim(self, claimant):
        side = self.side_of(claimant)
        if self._total(side) >= self.o["target"]:
            self._correct_claim(side)
        else:
            self._false_claim(claimant)

    def _claims_gated(self):
        """True while the called card is unrevealed and checks must wait (1.11.4)."""
        return (
            self.o["sides"] == "called_card"
            and not self._betli()
            and not self.o["claims_before_reveal"]
            and not self.revealed
        )

    def _manual_claims(self):
        return (
            self.o["claim_mode"] in ("manual", "optional_verified")
            and self.announce is None
            and not self._claims_gated()
        )

    def _claim_point(self, entitled):
        """Automatic claim check / durchmars check; returns True if the deal ended."""
        if self._betli():
            return False
        if self._claims_gated():
            return False
        if self._durch():
            a = self.announce[1]
            aside = self.side_of(a)
            others = [s for s in range(self.N) if s not in aside]
            if any(self.tricks[s] > 0 for s in others):
                self._score_seats(others, self.o["durchmars_points"], "durchmars_failed")
                return True
            if self._total(aside) >= self.o["target"]:
                self._score_seats(aside, self.o["durchmars_points"], "durchmars_made")
                return True
            return False
        if self.o["claim_mode"] != "automatic":
            return False
        side = self.side_of(entitled)
        target = self.o["target"]
        if (
            self.o["sides"] == "called_card"
            and not self.o["claims_before_reveal"]
            and not self.reveal_checked
        ):
            self.reveal_checked = True  # MP-A9 / M5: all sides, entitled first
            rest = [sd for sd in sorted(self.sides(), key=min) if sd != side]
            for sd in [side] + rest:
                if self._total(sd) >= target:
                    self._correct_claim(sd)
                    return True
            return False
        if self._total(side) >= target:
            self._correct_claim(side)
            return True
        return False

    def _no_claim_end(self):
        """All cards played, nobody out (1.12)."""
        if self.closed_by is not None:
            cs = self._closing_side()
            self._score_seats(
                [s for s in range(self.N) if s not in cs], self._fail_close_value(), "failed_close"
            )
        else:
            self._score_seats(self.side_of(self.last_winner), 1, "last_trick")

    def _na66_end(self, moon_ok=None):
        o = self.o
        team = self.side_of(self.declarer)
        defs = [s for s in range(self.N) if s not in team]
        sc = [0] * self.N
        if self.level == 5:
            made = moon_ok
            v = 5
            reason = "moon_made" if made else "moon_failed"
        else:
            made = self._total(team) >= o["bid_unit"] * self.level
            v = self.level
            reason = "contract_made" if made else "contract_set"
        for s in team:
            sc[s] = v if made else -v
        if o["defender_units"]:
            u = self._total(defs) // o["bid_unit"]
            for s in defs:
                sc[s] = u
        self._end(sc, reason)

    # ------------------------------------------------------------- pre-play
    def _start_announcements(self):
        o = self.o
        if o["announcements"] == "none":
            self._start_play(self.fl)
            return
        N = self.N
        if o["sides"] == "called_card" and N == 3:
            self.ann_order = [self.caller]
        else:
            self.ann_order = [(self.fl + i) % N for i in range(N)]
        self.ann_idx = 0
        self.phase = "announce"
        self.cur = self.ann_order[0]

    def _ann_actions(self, s):
        o = self.o
        acts = ["pass"]
        if o["sides"] == "called_card":
            if s == self.caller or s == self.holder:
                acts.append("announce durchmars")
        else:
            acts.append("announce durchmars")
        if o["announcements"] == "durchmars_betli" and self.N == 4:
            acts.append("announce betli")
        return acts

    def _start_play(self, leader):
        self.phase = "play"
        self.leader = leader
        self.cur = leader
        self.won_prev = False
        self.turn_acted = False
        self.closed_this_turn = False
        self.trick = []

    def _find_holder(self):
        for s in range(self.N):
            if self.called in self.hands[s]:
                self.holder = s

    # ------------------------------------------------------------- legal
    def legal_actions(self):
        if self.phase == "over":
            return []
        return sorted(self._legal())

    def _legal(self):
        ph = self.phase
        o = self.o
        s = self.cur
        if ph == "call":
            cards = pack_of(o)
            if not o["call_own_card"]:
                own = self.first_batch[s] if o["call_timing"] == "first_batch" else self.hands[s]
                cards = [c for c in cards if c not in own]
            return ["call " + c for c in cards]
        if ph == "announce":
            return self._ann_actions(s)
        if ph == "auction":
            bids = [f"bid {k}" for k in range(self.high + 1, o["bid_levels"] + 1)]
            forced = (
                o["all_pass"] == "dealer_forced"
                and self.bidder is None
                and s == self.dealer
                and len(self.passed) == self.N - 1
            )
            return bids if forced else bids + ["pass"]
        if ph == "meld":
            return ["pass"] + ["meld " + su for su in self._meld_suits(s)]
        if ph == "last_claim":
            return ["claim", "pass"]
        if ph == "play":
            if not self.trick:
                return self._leader_actions(s)
            return ["play " + c for c in self._follow_set(s)]
        raise AssertionError(ph)

    def _marriage_phase_ok(self, s, leader=True):
        o = self.o
        if self._betli():
            return False
        if self._talon_open() or o["marriage_in_strict_phase"]:
            return True
        # marriage_on_closing_turn (fixed true): the closer's lead right after closing
        return leader and self.closed_by == s and self.closed_this_turn

    def _marriage_suits(self, s):
        h = self.hands[s]
        return [su for su in SUITS if su not in self.declared and "K" + su in h and "Q" + su in h]

    def _meld_suits(self, s):
        if not self._marriage_phase_ok(s, leader=False):
            return []
        return self._marriage_suits(s)

    def _marriage_value(self, su):
        mp = self.o["marriage_points"]
        return 2 * mp if su == self.trump else mp

    def _exchange_card(self):
        er = self.o["exchange_rank"]
        if er == "lowest":
            er = pack_ranks(self.o)[0]
        return er + self.trump

    def _can_exchange(self, s):
        o = self.o
        if not self.turn_up or self.announce and self._betli():
            return False
        if not self._talon_open() or len(self._talon) < o["exchange_min_talon"]:
            return False
        ex = self._exchange_card()
        return ex in self.hands[s] and self._talon[-1] != ex

    def _can_close(self, s):
        o = self.o
        return (
            o["closing_allowed"]
            and self.turn_up
            and self.announce is None
            and self._talon_open()
            and len(self._talon) >= o["close_min_talon"]
        )

    def _leader_actions(self, s):
        o = self.o
        acts = []
        manual = self._manual_claims()
        verified = o["claim_mode"] == "optional_verified"
        if manual and self.won_prev and not self.turn_acted:
            if not verified or self._total(self.side_of(s)) >= o["target"]:
                acts.append("claim")
        if self._can_exchange(s):
            acts.append("exchange")
        if self._can_close(s):
            acts.append("close")
        acts += ["play " + c for c in self.hands[s]]
        if self._marriage_phase_ok(s):
            for su in self._marriage_suits(s):
                acts += ["marry K" + su, "marry Q" + su]
                if manual:
                    if not verified or self._marriage_claim_correct(s, su):
                        acts.append("marry-claim " + su)
        return acts

    def _marriage_claim_correct(self, s, su):
        side = self.side_of(s)
        extra = self._marriage_value(su) if self._marriage_valid(s) else 0
        return self._total(side) + extra >= self.o["target"]

    def _winning(self, trick):
        """(seat, card) winning the cards played so far (1.5)."""
        order = self._order()
        led = trick[0][1][1]
        tr = self.trump
        best = trick[0]
        for sc in trick[1:]:
            c, b = sc[1], best[1]
            if c[1] == b[1]:
                if order.index(c[0]) > order.index(b[0]):
                    best = sc
            elif tr is not None and c[1] == tr:
                best = sc
        assert best[1][1] in (led, tr)
        return best

    def _follow_set(self, s):
        o = self.o
        h = self.hands[s]
        led = self.trick[0][1][1]
        w = self._winning(self.trick)[1]
        order = self._order()

        def beats(c):
            return c[1] == w[1] and order.index(c[0]) > order.index(w[0])

        if self._betli():
            suit = [c for c in h if c[1] == led]
            if o["betli_must_head"]:
                up = [c for c in suit if beats(c)]
                if up:
                    return up
            return suit or list(h)
        if self._talon_open() and o["open_phase_rule"] == "free":
            return list(h)
        tr = self.trump
        suit = [c for c in h if c[1] == led]
        if o["strict_must_follow"]:
            if o["strict_must_head"] and w[1] == led:
                up = [c for c in suit if beats(c)]
                if up:
                    return up
            if suit:
                return suit
        if not suit and o["strict_must_trump"] and tr is not None:
            trumps = [c for c in h if c[1] == tr]
            if trumps:
                if o["trump_duty"] == "always":
                    if o["must_overtrump"] and w[1] == tr:
                        over = [c for c in trumps if beats(c)]
                        return over or trumps  # M13
                    return trumps
                # if_winning
                if w[1] == tr:
                    over = [c for c in trumps if beats(c)]
                else:
                    over = trumps
                if over:
                    return over
        return list(h)

    # ------------------------------------------------------------- apply
    def apply(self, action):
        if action not in self._legal():
            raise ValueError(f"illegal action {action!r}; legal {self.legal_actions()!r}")
        ph = self.phase
        s = self.cur
        o = self.o
        if ph == "call":
            self.called = action.split()[1]
            self.trump = self.called[1]
            self._find_holder()
            self._start_announcements()
            return
        if ph == "announce":
            if action == "pass":
                self.ann_idx += 1
                if self.ann_idx >= len(self.ann_order):
                    self._start_play(self.fl)
                else:
                    self.cur = self.ann_order[self.ann_idx]
                return
            kind = action.split()[1]
            self.announce = (kind, s)
            if kind == "durchmars":
                # 4C.3 / binding decision 6: "its holder has announced durchmars";
                # read literally, a caller holding his own card is its holder too.
                if o["sides"] == "called_card" and s == self.holder:
                    self.revealed = True
            else:
                self.trump = None  # M8 (a)
                if o["sides"] == "fixed_opposite" and o["betli_partner"] == "sits_out":
                    self.sitting_out = {(s + 2) % 4}
            self._start_play(s)
            return
        if ph == "auction":
            return self._apply_auction(s, action)
        if ph == "meld":
            if action != "pass":
                su = action.split()[1]
                self.marriages.append((s, su, self._marriage_value(su)))
                self.declared.add(su)
                if self._claim_point(s):
                    return
            self._next_follower(self.meld_seat_prev)
            return
        if ph == "last_claim":
            if action == "claim":
                self._claim(s)
            else:
                self._no_claim_end()
            return
        # play phase
        if not self.trick:
            if action == "claim":
                self._claim(s)
                return
            if action == "exchange":
                ex = self._exchange_card()
                self.hands[s].remove(ex)
                self.hands[s].append(self._talon[-1])
                self._talon[-1] = ex
                self.turn_acted = True
                return
            if action == "close":
                self.closed_by = s
                self.closed_this_turn = True
                self.turn_acted = True
                cs = self.side_of(s)
                others = [t for t in range(self.N) if t not in cs]
                self.snapshot = (
                    self._tricks_of(others),
                    self._total(others),
                    {t: (self.tricks[t], self._cp(t)) for t in others},
                )
                return
            if action.startswith("marry-claim"):
                su = action.split()[1]
                self.marriages.append((s, su, self._marriage_value(su)))
                self.declared.add(su)
                self._claim(s)
                return
            if action.startswith("marry"):
                c = action.split()[1]
                su = c[1]
                if self.trump is None and o["trump_source"] == "first_lead":
                    self.trump = su
                self.marriages.append((s, su, self._marriage_value(su)))
                self.declared.add(su)
                if self._claim_point(s):
                    return
                self._lead(s, c)
                return
            self._lead(s, action.split()[1])
            return
        c = action.split()[1]
        self._play_card(s, c)
        self._after_card(s)

    def _apply_auction(self, s, action):
        o = self.o
        if action == "pass":
            self.passed.add(s)
        else:
            self.high = int(action.split()[1])
            self.bidder = s
        active = [t for t in range(self.N) if t not in self.passed]
        if self.bidder is None and not active:
            self._end([0] * self.N, "redeal")  # M20
            return
        if self.high == o["bid_levels"] or (self.bidder is not None and active == [self.bidder]):
            self.declarer = self.bidder
            self.level = self.high
            if self.level == 5 and self.N == 4:
                self.sitting_out = {(self.declarer + 2) % 4}
            self._start_play(self.declarer)
            return
        t = s
        for _ in range(self.N):
            t = (t + 1) % self.N
            if t not in self.passed:
                break
        self.cur = t

    def _play_card(self, s, c):
        self.hands[s].remove(c)
        self.trick.append((s, c))
        if self.called is not None and c == self.called and not self._betli():
            self.revealed = True

    def _lead(self, s, c):
        if self.trump is None and self.o["trump_source"] == "first_lead" and not self._betli():
            self.trump = c[1]
        self._play_card(s, c)
        self.turn_acted = True
        self.closed_this_turn = False
        o = self.o
        if o["marriage_declarers"] == "leader_and_partner" and o["sides"] == "fixed_opposite":
            p = (s + 2) % 4
            if p not in self.sitting_out and self._meld_suits(p):
                self.phase = "meld"
                self.cur = p
                self.meld_seat_prev = s
                return
        self._after_card(s)

    def _next_follower(self, last):
        self.phase = "play"
        self.cur = self._next_playing(last)

    def _after_card(self, s):
        if len(self.trick) < len(self._playing()):
            self._next_follower(s)
            return
        self._finish_trick()

    def _finish_trick(self):
        o = self.o
        w, _ = self._winning(self.trick)
        self.trick_pts[w] += sum(self._pts(c) for _, c in self.trick)
        self.tricks[w] += 1
        self.last_winner = w
        self.trick = []
        playing = self._playing()
        all_empty = all(not self.hands[t] for t in playing)
        if all_empty and self.closed_by is None and not self._talon:
            self.bonus[w] += o["last_trick_bonus"]
        if o["sides"] == "contract":
            if self.level == 5 and w != self.declarer:
                self._na66_end(moon_ok=False)
                return
        elif self._betli():
            a = self.announce[1]
            if w == a:
                aside = self.side_of(a)
                self._score_seats(
                    [t for t in range(self.N) if t not in aside], o["betli_points"], "betli_failed"
                )
                return
        elif self._claim_point(w):
            return
        # draw (1.6)
        if self._talon_open():
            order = [w]
            t = w
            for _ in range(len(playing) - 1):
                t = self._next_playing(t)
                order.append(t)
            for t in order:
                if self._talon:
                    self.hands[t].append(self._talon.pop(0))
            if self.called is not None and self.holder is None:
                self._find_holder()
        if all(not self.hands[t] for t in playing):
            if o["sides"] == "contract":
                self._na66_end(moon_ok=True)
            elif self._betli():
                aside = self.side_of(self.announce[1])
                self._score_seats(aside, o["betli_points"], "betli_made")
            elif self._durch():
                aside = self.side_of(self.announce[1])
                self._score_seats(
                    [t for t in range(self.N) if t not in aside],
                    o["durchmars_points"],
                    "durchmars_failed",
                )  # M10
            elif self._manual_claims() and (
                o["claim_mode"] == "manual" or self._total(self.side_of(w)) >= o["target"]
            ):
                self.phase = "last_claim"  # R-A2 / M24
                self.cur = w
            else:
                self._no_claim_end()
            return
        self.leader = w
        self.cur = w
        self.won_prev = True
        self.turn_acted = False
        self.closed_this_turn = False
