"""Differential test: the ``vu_schnapsen`` preset against the VU Amsterdam engine.

The VU teaching platform (PyPI ``schnapsen``, docs/rules.md Appendix B) is an
independent implementation of the rules the ``vu_schnapsen`` preset must
reproduce exactly.  For every seeded deal both engines play the same random
game: at every decision the sorted legal actions must agree (VU moves mapped to
our notation by ``experiments/vu_bridge.py``), one is picked with the deal's seeded
RNG and applied to both, and at the end winner, game points and reason must
agree.  Hands, talon, trump suit and scores are cross-checked along the way.

Deals: deal ``i`` of a run with base seed ``B`` uses ``deal_seed = B * 2**32 + i``;
``random.Random(deal_seed)`` shuffles VU's canonical deck (so the deck is the
one VU's own ``play_game(..., Random(deal_seed))`` would deal) and then picks
the moves.

Run (from the repository root)::

    pytest tests/test_vu_differential.py                      # 2,000 + 1,000 deals
    SIXTYSIX_VU_SEED=random SIXTYSIX_VU_DEALS=20000 pytest tests/test_vu_differential.py
    python -m tests.test_vu_differential --deals 10000 --seed 12345
    python -m tests.test_vu_differential --seed random --deals 50000
    python -m tests.test_vu_differential --deal-seed 52934 --verbose   # replay one deal
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any, NoReturn

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
for _p in (_ROOT, _HERE):
    if _p not in sys.path:
        sys.path.append(_p)

try:
    from sixtysix.experiments import vu_bridge as vb
except ImportError as _exc:  # the ``schnapsen`` package is missing
    vb = None
    _VU_IMPORT_ERROR: BaseException | None = _exc
else:
    _VU_IMPORT_ERROR = None

PRESET = "vu_schnapsen"
DEALER = 1  # player 0 leads the first trick and gets deck positions 0, 2, 4, 6, 8
DEFAULT_SEED = 20240
DEFAULT_DEALS = 2000
DEFAULT_EAGER_DEALS = 1000
SEED_ENV = "SIXTYSIX_VU_SEED"
DEALS_ENV = "SIXTYSIX_VU_DEALS"


# --------------------------------------------------------------------------
# seeds and policies
# --------------------------------------------------------------------------


def deal_seed(base_seed: int, index: int) -> int:
    """Seed of deal ``index`` of a run; runs with different base seeds never overlap."""
    return base_seed * 2**32 + index


def parse_seed(text: str | None, default: int = DEFAULT_SEED) -> int:
    """``None``/empty -> default; ``"random"`` -> a fresh seed; else an integer."""
    if text is None or text.strip() == "":
        return default
    if text.strip().lower() == "random":
        return random.SystemRandom().randrange(2**31)
    return int(text)


def uniform_policy(rng: random.Random, legal: list[str]) -> str:
    """Uniformly random legal action."""
    return rng.choice(legal)


def eager_policy(rng: random.Random, legal: list[str]) -> str:
    """Exchange or marry whenever possible (exercises those rules far more often)."""
    special = [a for a in legal if a == "exchange" or a.startswith("marry ")]
    return rng.choice(special or legal)


POLICIES: dict[str, Callable[[random.Random, list[str]], str]] = {
    "uniform": uniform_policy,
    "eager": eager_policy,
}


# --------------------------------------------------------------------------
# reading our engine's state (normalised for comparison)
# --------------------------------------------------------------------------


def _cards(seq: Any) -> list[str]:
    return [str(c).upper() for c in seq]


def _our_hands(state: Any) -> list[list[str]]:
    return [sorted(_cards(h)) for h in state.hands]


def _our_talon(state: Any) -> list[str]:
    return _cards(state.talon)


def _our_points(state: Any) -> tuple[int, int]:
    p = state.card_points
    return (int(p[0]), int(p[1]))


def _our_pending(state: Any) -> tuple[int, int] | None:
    """Declared but not yet counted marriage points, if the engine exposes them."""
    p = getattr(state, "pending_marriage_points", None)
    return None if p is None else (int(p[0]), int(p[1]))


class DealMismatch(AssertionError):
    """The two engines disagree on one deal."""


class _DealRun:
    """One deal played in both engines, VU driving and ours following."""

    def __init__(
        self, game: Any, seed: int, policy: str = "uniform", verbose: bool = False
    ) -> None:
        self.game = game
        self.seed = seed
        self.policy_name = policy
        self.policy = POLICIES[policy]
        self.deck, self.rng = vb.seeded_deck(seed)
        self.verbose = verbose
        self.history: list[str] = []
        self.events: collections.Counter = collections.Counter()
        self.state: Any = None
        self.last_vu_view: Any = None

    # -- failure reporting -------------------------------------------------
    def fail(
        self,
        what: str,
        vu_legal: list[str] | None = None,
        ours_legal: list[str] | None = None,
        view: Any = None,
    ) -> NoReturn:
        lines = [
            f"VU differential mismatch: {what}",
            f"  preset {PRESET}, dealer {DEALER}, deal seed {self.seed}, policy {self.policy_name}",
            f"  deck: {' '.join(self.deck)}",
            f"  deck (python): {self.deck!r}",
            f"  actions so far ({len(self.history)}): {self.history!r}",
        ]
        if vu_legal is not None:
            lines.append(f"  VU legal:   {vu_legal!r}")
        if ours_legal is not None:
            lines.append(f"  ours legal: {ours_legal!r}")
            if vu_legal is not None:
                lines.append(f"    only VU:   {sorted(set(vu_legal) - set(ours_legal))!r}")
                lines.append(f"    only ours: {sorted(set(ours_legal) - set(vu_legal))!r}")
        view = view if view is not None else self.last_vu_view
        if view is not None:
            lines.append(
                f"  VU state at that point: mover p{view.player} "
                f"({'leader' if view.is_leader else 'follower, lead ' + str(view.leader_move)}), "
                f"hands {view.hands}, talon {view.talon}, trump {view.trump_suit}, "
                f"scores (direct, pending) {view.scores}"
            )
        lines.append(f"  our state: {self._describe_ours()}")
        lines.append(
            f"  replay: python -m tests.test_vu_differential --deal-seed {self.seed}"
            f" --policy {self.policy_name} --verbose"
        )
        raise DealMismatch("\n".join(lines))

    def _describe_ours(self) -> str:
        st = self.state
        if st is None:
            return "(no state)"
        parts = []
        for name in (
            "current_player",
            "is_terminal",
            "outcome",
            "hands",
            "talon",
            "trump_suit",
            "card_points",
        ):
            try:
                parts.append(f"{name}={getattr(st, name)!r}")
            except Exception as exc:  # noqa: BLE001 - diagnostics only
                parts.append(f"{name}=<{type(exc).__name__}: {exc}>")
        return ", ".join(parts)

    # -- the chooser VU calls at every decision ----------------------------
    def choose(self, view: Any, vu_legal: list[str]) -> str:
        self.last_vu_view = view
        st = self.state
        try:
            terminal = st.is_terminal
        except Exception as exc:  # noqa: BLE001
            self.fail(f"our state.is_terminal raised {exc!r}", vu_legal, view=view)
        if terminal:
            self.fail(
                f"VU asks p{view.player} to move, but our deal is over (outcome {st.outcome!r})",
                vu_legal,
                view=view,
            )
        if st.current_player != view.player:
            self.fail(
                f"VU asks p{view.player} to move, ours says current_player={st.current_player!r}",
                vu_legal,
                view=view,
            )
        try:
            ours = sorted(str(a) for a in st.legal_actions())
        except Exception as exc:  # noqa: BLE001
            self.fail(f"our legal_actions() raised {exc!r}", vu_legal, view=view)
        if ours != vu_legal:
            self.fail("legal actions differ", vu_legal, ours, view)
        self._check_state(view, vu_legal)
        self._count(view, vu_legal)

        action = self.policy(self.rng, vu_legal)
        if self.verbose:
            print(
                f"  p{view.player} {'lead' if view.is_leader else 'foll'} "
                f"hand={' '.join(view.hand)} talon={view.talon_size} "
                f"trump={view.trump_card or view.trump_suit} scores={view.scores} "
                f"legal={vu_legal} -> {action}"
            )
        try:
            st.apply(action)
        except Exception as exc:  # noqa: BLE001
            self.fail(f"our apply({action!r}) raised {exc!r}", vu_legal, ours, view)
        self.history.append(action)
        return action

    def _check_state(self, view: Any, vu_legal: list[str]) -> None:
        """Hands, talon, trump suit and scores against VU's full GameState.

        At a follower's decision VU has not yet applied the lead (the led card is
        still in the leader's hand, a marriage is not yet scored), so there we only
        compare hands with the led card taken out, and skip scores.
        """
        st = self.state
        vu_hands = {p: sorted(h) for p, h in view.hands.items()}
        if not view.is_leader:
            led = view.leader_move.split()[1]
            leader = 1 - view.player
            vu_hands[leader] = sorted(c for c in vu_hands[leader] if c != led)
        ours_hands = _our_hands(st)
        if ours_hands != [vu_hands[0], vu_hands[1]]:
            self.fail(
                f"hands differ: VU {[vu_hands[0], vu_hands[1]]}, ours {ours_hands}",
                vu_legal,
                view=view,
            )
        ours_talon = _our_talon(st)
        if ours_talon != view.talon:
            self.fail(
                f"talon differs (top first): VU {view.talon}, ours {ours_talon}",
                vu_legal,
                view=view,
            )
        if str(st.trump_suit).upper() != view.trump_suit:
            self.fail(
                f"trump suit differs: VU {view.trump_suit}, ours {st.trump_suit!r}",
                vu_legal,
                view=view,
            )
        if view.is_leader:
            vu_direct = (view.scores[0][0], view.scores[1][0])
            ours_points = _our_points(st)
            if ours_points != vu_direct:
                self.fail(
                    f"card points differ: VU direct {vu_direct} (pending "
                    f"{(view.scores[0][1], view.scores[1][1])}), ours {ours_points}",
                    vu_legal,
                    view=view,
                )
            vu_pending = (view.scores[0][1], view.scores[1][1])
            ours_pending = _our_pending(st)
            if ours_pending is not None and ours_pending != vu_pending:
                self.fail(
                    f"pending marriage points differ: VU {vu_pending}, ours {ours_pending}",
                    vu_legal,
                    view=view,
                )

    def _count(self, view: Any, vu_legal: list[str]) -> None:
        """Coverage counters, so that a vacuous run is noticed."""
        ev = self.events
        ev["decisions"] += 1
        if "exchange" in vu_legal:
            ev["exchange offered"] += 1
            if view.talon_size == 2:
                ev["exchange offered, talon 2"] += 1
            if not self.history:
                ev["exchange offered, first lead"] += 1
        if any(a.startswith("marry ") for a in vu_legal):
            ev["marriage offered"] += 1
            if view.talon_size == 0:
                ev["marriage offered, talon empty"] += 1
        if not view.is_leader and view.talon_size == 0 and len(vu_legal) < len(view.hand):
            ev["strict follow restricts"] += 1
        if any(s[1] for s in view.scores.values()) and view.is_leader:
            ev["pending points outstanding"] += 1

    # -- one whole deal -------------------------------------------------------
    def run(self) -> vb.VUResult:
        try:
            self.state = self.game.new_deal(deck=list(self.deck), dealer=DEALER)
        except Exception as exc:  # noqa: BLE001
            self.fail(f"our new_deal raised {exc!r}")
        if self.verbose:
            print(f"deal seed {self.seed}: deck {' '.join(self.deck)}")
        result = vb.play_vu(self.deck, self.choose)
        st = self.state
        if not st.is_terminal:
            self.fail(
                f"VU ended the deal (p{result.winner} wins {result.game_points} GP, "
                f"{result.reason}), ours is not terminal; our legal actions "
                f"{sorted(st.legal_actions())!r}"
            )
        if st.current_player is not None:
            self.fail(f"our deal is terminal but current_player={st.current_player!r}")
        winner, game_points, reason = st.outcome
        vu = (result.winner, result.game_points, result.reason)
        if (winner, game_points, reason) != vu:
            self.fail(
                f"outcome differs: VU (winner, GP, reason) {vu} with final scores "
                f"(direct, pending) {result.scores}, ours {st.outcome!r}"
            )
        vu_direct = (result.scores[0][0], result.scores[1][0])
        if _our_points(st) != vu_direct:
            self.fail(
                f"final card points differ: VU direct {vu_direct} (pending "
                f"{(result.scores[0][1], result.scores[1][1])}), ours {_our_points(st)}"
            )
        vu_pending = (result.scores[0][1], result.scores[1][1])
        ours_pending = _our_pending(st)
        if ours_pending is not None and ours_pending != vu_pending:
            self.fail(f"final pending marriage points differ: VU {vu_pending}, ours {ours_pending}")
        self.events[f"outcome {result.game_points} GP {result.reason}"] += 1
        for a in self.history:
            if a == "exchange":
                self.events["exchange played"] += 1
            elif a.startswith("marry "):
                self.events["marriage played"] += 1
        if any(s[1] for s in result.scores.values()):
            self.events["deal ends with pending points"] += 1
        if self.verbose:
            print(
                f"  => VU: p{result.winner} {result.game_points} GP ({result.reason}), "
                f"scores {result.scores}; ours: {st.outcome!r}, points {_our_points(st)}"
            )
        return result


# --------------------------------------------------------------------------
# running many deals
# --------------------------------------------------------------------------


def make_game() -> Any:
    import sixtysix

    return sixtysix.Game(PRESET)


def run_deals(
    base_seed: int,
    n_deals: int,
    policy: str = "uniform",
    game: Any = None,
    max_failures: int = 10,
    verbose: bool = False,
    progress: bool = False,
) -> tuple[collections.Counter, list[str]]:
    """Play ``n_deals`` seeded deals in both engines; return (coverage counters,
    failure messages), stopping after ``max_failures`` mismatching deals."""
    if game is None:
        game = make_game()
    events: collections.Counter = collections.Counter()
    failures: list[str] = []
    t0 = time.time()
    for i in range(n_deals):
        run = _DealRun(game, deal_seed(base_seed, i), policy, verbose=verbose)
        try:
            run.run()
        except DealMismatch as exc:
            failures.append(str(exc))
            events["mismatching deals"] += 1
            if len(failures) >= max_failures:
                break
        events.update(run.events)
        events["deals"] += 1
        if progress and (i + 1) % 5000 == 0:
            rate = (i + 1) / (time.time() - t0)
            print(
                f"  {i + 1}/{n_deals} deals, {rate:.0f} deals/s, "
                f"{events['mismatching deals']} mismatching",
                file=sys.stderr,
            )
    return events, failures


REQUIRED_EVENTS = {
    "uniform": [
        "exchange played",
        "marriage played",
        "marriage offered, talon empty",
        "exchange offered, first lead",
        "strict follow restricts",
        "outcome 1 GP claim",
        "outcome 2 GP claim",
        "outcome 3 GP claim",
        "outcome 1 GP last_trick",
        "pending points outstanding",
    ],
    "eager": [
        "exchange played",
        "exchange offered, talon 2",
        "marriage played",
        "marriage offered, talon empty",
        "deal ends with pending points",
    ],
}


def _format_failures(
    base_seed: int, n: int, policy: str, events: collections.Counter, failures: list[str]
) -> str:
    head = (
        f"{len(failures)} mismatching deal(s) (stopped early: {events['deals']} of {n} "
        f"deals checked) with base seed {base_seed}, policy {policy}; first ones:\n\n"
    )
    return head + "\n\n".join(failures[:3])


# --------------------------------------------------------------------------
# pytest
# --------------------------------------------------------------------------

try:
    import pytest
except ImportError:  # the command line does not need pytest
    pytest = None

if pytest is not None:

    @pytest.fixture(scope="module")
    def vu_game() -> Any:
        if vb is None:
            pytest.fail(
                f"VU package 'schnapsen' not importable (install the dev extra): {_VU_IMPORT_ERROR}"
            )
        return make_game()

    @pytest.fixture(scope="module")
    def base_seed() -> int:
        seed = parse_seed(os.environ.get(SEED_ENV))
        print(f"\n{SEED_ENV}={seed}")
        return seed

    def _n_deals(default: int) -> int:
        text = os.environ.get(DEALS_ENV)
        return int(text) if text else default

    @pytest.mark.parametrize(
        "policy,default_deals",
        [
            ("uniform", DEFAULT_DEALS),
            ("eager", DEFAULT_EAGER_DEALS),
        ],
    )
    def test_vu_differential(vu_game: Any, base_seed: int, policy: str, default_deals: int) -> None:
        """Legal actions at every decision, and the outcome, match VU on seeded random deals."""
        n = _n_deals(default_deals)
        # the eager run uses its own seeds, disjoint from the uniform run's
        seed = base_seed if policy == "uniform" else base_seed + 1_000_003
        events, failures = run_deals(seed, n, policy, game=vu_game, max_failures=5)
        assert not failures, _format_failures(seed, n, policy, events, failures)
        assert events["deals"] == n
        if n >= min(DEFAULT_DEALS, DEFAULT_EAGER_DEALS):
            missing = [e for e in REQUIRED_EVENTS[policy] if not events[e]]
            assert not missing, f"coverage: never saw {missing} in {n} deals ({dict(events)})"

    def test_vu_bridge_mapping() -> None:
        """The VU half on its own: the deck for a seed is VU's own shuffle, moves map back."""
        if vb is None:
            pytest.fail(
                f"VU package 'schnapsen' not importable (install the dev extra): {_VU_IMPORT_ERROR}"
            )
        from schnapsen.game import SchnapsenDeckGenerator

        gen = SchnapsenDeckGenerator()
        for s in (0, 1, deal_seed(DEFAULT_SEED, 7)):
            vu_deck = gen.shuffle_deck(gen.get_initial_deck(), random.Random(s)).get_cards()
            assert [vb.card_to_str(c) for c in vu_deck] == vb.seeded_deck(s)[0]
        assert sorted(vb.VU_CANONICAL_DECK) == sorted(r + s for r in "JQKTA" for s in "CDHS")
        for c in vb.VU_CANONICAL_DECK:
            assert vb.card_to_str(vb.str_to_card(c)) == c
        deck, rng = vb.seeded_deck(3)
        result = vb.play_vu(deck, vb.random_chooser(rng))
        assert result.winner in (0, 1) and result.game_points in (1, 2, 3)
        assert result.history and all(
            a == "exchange" or a.split()[0] in ("play", "marry") for a in result.history
        )


# --------------------------------------------------------------------------
# command line
# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.test_vu_differential",
        description="Differential test of the vu_schnapsen preset against VU's 'schnapsen'.",
    )
    ap.add_argument(
        "--deals",
        type=int,
        default=None,
        help=f"number of deals (default ${DEALS_ENV} or {DEFAULT_DEALS})",
    )
    ap.add_argument(
        "--seed",
        default=None,
        help=f"base seed, an integer or 'random' (default ${SEED_ENV} or {DEFAULT_SEED})",
    )
    ap.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="uniform",
        help="move choice: uniform random, or eager (always exchange/marry if possible)",
    )
    ap.add_argument(
        "--deal-seed",
        type=int,
        default=None,
        help="replay only this one deal seed (as printed in a failure)",
    )
    ap.add_argument("--max-failures", type=int, default=10)
    ap.add_argument("--verbose", action="store_true", help="print every decision")
    args = ap.parse_args(argv)
    if vb is None:
        print(f"cannot import the VU package 'schnapsen': {_VU_IMPORT_ERROR}", file=sys.stderr)
        return 2

    t0 = time.time()
    game = make_game()
    t_setup = time.time() - t0
    if args.deal_seed is not None:
        run = _DealRun(game, args.deal_seed, args.policy, verbose=True)
        try:
            run.run()
        except DealMismatch as exc:
            print(exc)
            return 1
        print(f"deal seed {args.deal_seed}: engines agree")
        return 0

    seed = parse_seed(args.seed if args.seed is not None else os.environ.get(SEED_ENV))
    n = args.deals if args.deals is not None else int(os.environ.get(DEALS_ENV) or DEFAULT_DEALS)
    print(f"{n} deals, base seed {seed}, policy {args.policy} (setup {t_setup:.1f} s)")
    t0 = time.time()
    events, failures = run_deals(
        seed,
        n,
        args.policy,
        game=game,
        max_failures=args.max_failures,
        verbose=args.verbose,
        progress=True,
    )
    dt = time.time() - t0
    print(
        f"checked {events['deals']} deals, {events['decisions']} decisions in {dt:.1f} s "
        f"({events['deals'] / max(dt, 1e-9):.0f} deals/s); mismatching deals: "
        f"{events['mismatching deals']}"
    )
    for k in sorted(events):
        print(f"  {k}: {events[k]}")
    for f in failures:
        print()
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
