"""The ``sixtysix`` command line: ``demo``, ``presets`` and the ``bench`` commands."""

from __future__ import annotations

import argparse
import json
import random
import sys

from .bench import bench_core, bench_openspiel, bench_solver, bench_tree, compare_with_c
from .game import Game
from .rules import MINI_PRESETS, PRESETS, make_rules

ALL_PRESETS = [*PRESETS, *MINI_PRESETS]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sixtysix", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    demo = commands.add_parser("demo", help="play random deals and print them as readable logs")
    demo.add_argument("--preset", default="sixty_six", choices=ALL_PRESETS)
    demo.add_argument("--deals", type=int, default=2)
    demo.add_argument("--seed", type=int, default=1)

    presets = commands.add_parser(
        "presets", help="list the rule presets, the mini presets after them, and their options"
    )
    presets.add_argument("--json", action="store_true")

    bench = commands.add_parser("bench", help="benchmarks")
    bench_kinds = bench.add_subparsers(dest="kind", required=True)
    core_bench = bench_kinds.add_parser("core", help="uniformly random playouts inside numba")
    core_bench.add_argument("--preset", default="sixty_six", choices=ALL_PRESETS)
    core_bench.add_argument("--deals", type=int, default=1_000_000)
    core_bench.add_argument("--seed", type=int, default=1)
    core_bench.add_argument("--json", action="store_true", help="print one JSON object")
    core_bench.add_argument(
        "--reference-c",
        action="store_true",
        help="also compile and run the hand-written C playout (sixty_six) and report the ratio",
    )

    solver_bench = bench_kinds.add_parser(
        "solver", help="exact open-hand solves of whole deals from the first lead"
    )
    solver_bench.add_argument("--preset", default="schnapsen", choices=ALL_PRESETS)
    solver_bench.add_argument("--deals", type=int, default=100)
    solver_bench.add_argument("--seed", type=int, default=1)
    solver_bench.add_argument("--json", action="store_true", help="print one JSON object")

    openspiel_bench = bench_kinds.add_parser(
        "openspiel", help="uniformly random play through OpenSpiel's API (python_sixty_six)"
    )
    openspiel_bench.add_argument("--preset", default="sixty_six", choices=ALL_PRESETS)
    openspiel_bench.add_argument("--games", type=int, default=2000)
    openspiel_bench.add_argument("--seed", type=int, default=1)
    openspiel_bench.add_argument("--json", action="store_true", help="print one JSON object")

    tree_bench = bench_kinds.add_parser(
        "tree", help="walk the whole OpenSpiel game tree: histories and information sets"
    )
    tree_bench.add_argument("--preset", default="mini_2x3", choices=list(MINI_PRESETS))
    tree_bench.add_argument("--json", action="store_true", help="print one JSON object")

    args = parser.parse_args(argv)
    if args.command == "demo":
        return _demo(args.preset, args.deals, args.seed)
    if args.command == "presets":
        return _presets(args.json)
    if args.kind == "solver":
        return _report(lambda: bench_solver(args.preset, args.deals, args.seed), args.json)
    if args.kind == "openspiel":
        return _report(lambda: bench_openspiel(args.preset, args.games, args.seed), args.json)
    if args.kind == "tree":
        return _report(lambda: bench_tree(args.preset), args.json)
    return _bench_core(args)


def _demo(preset: str, deals: int, seed: int) -> int:
    game = Game(preset)
    chooser = random.Random(seed)
    print(f"{deals} random deal(s) of {preset}, seed {seed}\n")
    for number in range(deals):
        state = game.new_deal(seed=seed + number)
        print(
            f"deal {number + 1}: dealer {state.dealer}, trump {state.trump_suit}, "
            f"face-up {state.trump_card}"
        )
        for player, hand in enumerate(state.hands):
            print(f"  player {player}: {' '.join(hand)}")
        while not state.is_terminal:
            player = state.current_player
            action = chooser.choice(state.legal_actions())
            state.apply(action)
            print(f"  {player}: {action:<20} points {state.card_points}")
        winner, points, reason = state.outcome
        result = "no winner" if winner is None else f"player {winner} wins {points} game point(s)"
        print(f"  -> {result} ({reason})\n")
    return 0


def _presets(as_json: bool) -> int:
    differences = {**PRESETS, **MINI_PRESETS}
    table = {name: vars(make_rules(name)) for name in differences}
    if as_json:
        print(json.dumps(table, indent=2))
        return 0
    for name, options in table.items():
        changed = {key: value for key, value in options.items() if key in differences[name]}
        print(f"{name}: " + (", ".join(f"{k}={v!r}" for k, v in changed.items()) or "(defaults)"))
    return 0


def _bench_core(args: argparse.Namespace) -> int:
    if args.reference_c and args.preset != "sixty_six":
        print("error: --reference-c compares the sixty_six preset only", file=sys.stderr)
        return 2
    if args.reference_c:
        return _report(lambda: compare_with_c(args.deals, args.seed), args.json)
    return _report(lambda: bench_core(args.preset, args.deals, args.seed), args.json)


def _report(run, as_json: bool) -> int:
    """Run a benchmark and print its result as JSON or as aligned lines."""
    try:
        result = run()
    except (ValueError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
