"""The ``sixtysix`` command line: ``demo``, ``presets`` and the ``bench`` commands.

Every bad argument is refused by argparse (exit code 2, a message naming the bad value and
what is valid), through the shared checks of :mod:`sixtysix.checks`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable

from .bench import (
    PLAYOUT_DEALS_LIMIT,
    bench_api,
    bench_core,
    bench_openspiel,
    bench_solver,
    bench_tree,
    compare_with_c,
)
from .checks import check_integer, check_seed
from .game import Game
from .rules import MINI_PRESETS, OPTION_NAMES, PRESETS, make_rules

ALL_PRESETS = [*PRESETS, *MINI_PRESETS]
DESCRIPTION = (
    "Sixty-Six and Schnapsen for game-AI research: play random demo deals, list the rule "
    "presets and run the benchmarks."
)
EPILOG = "Run 'sixtysix COMMAND --help' for the options of a command."


def _checked_type(check: Callable[[object], int]) -> Callable[[str], int]:
    """An argparse ``type``: the argument as an int, accepted by ``check`` or refused."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = text  # not a number: the check refuses it by name
        try:
            return check(value)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


_seed_type = _checked_type(check_seed)


def _count_type(name: str, below: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for a count such as ``--deals``: at least 1 (and below ``below``)."""
    return _checked_type(lambda value: check_integer(value, name, 1, below))


def _preset_name(name: str) -> str:
    """An argparse ``type`` for a preset name; an unknown one is refused with the valid ones."""
    if name not in ALL_PRESETS:
        valid = ", ".join(map(repr, ALL_PRESETS))
        raise argparse.ArgumentTypeError(f"invalid choice: {name!r} (choose from {valid})")
    return name


def _add_command(commands, name: str, summary: str, description: str) -> argparse.ArgumentParser:
    """A subcommand with a one-line ``summary`` in its parent's help and a ``description``."""
    return commands.add_parser(name, help=summary, description=description)


def _add_preset(command: argparse.ArgumentParser, default: str, choices=ALL_PRESETS) -> None:
    """``--preset``, one of ``choices``."""
    command.add_argument(
        "--preset",
        default=default,
        choices=choices,
        metavar="PRESET",
        help="rule preset, one of %(choices)s (default: %(default)s)",
    )


def _add_count(
    command: argparse.ArgumentParser, name: str, default: int, meaning: str, below=None
) -> None:
    """``--NAME``, a count of at least 1 (and below ``below``), e.g. ``--deals``."""
    command.add_argument(
        f"--{name}",
        type=_count_type(name, below),
        default=default,
        help=f"{meaning} (default: %(default)s)",
    )


def _add_seed(command: argparse.ArgumentParser, meaning: str) -> None:
    """``--seed``, with its ``meaning`` for this command."""
    command.add_argument(
        "--seed",
        type=_seed_type,
        default=1,
        help=f"{meaning}, in [0, 2**64) (default: %(default)s)",
    )


def _add_bench(
    kinds,
    name: str,
    summary: str,
    description: str,
    preset: str,
    count: tuple | None = None,
    seed: str | None = None,
    presets=ALL_PRESETS,
) -> argparse.ArgumentParser:
    """A ``bench`` subcommand: ``--preset``, ``--NAME`` for ``count`` (name, default, meaning
    and optionally a bound), ``--seed`` with its meaning, and ``--json``."""
    command = _add_command(kinds, name, summary, description)
    _add_preset(command, preset, presets)
    if count:
        _add_count(command, *count)
    if seed:
        _add_seed(command, seed)
    _add_json(command)
    return command


def _add_json(command: argparse.ArgumentParser) -> None:
    """``--json``: the result as one JSON object."""
    command.add_argument("--json", action="store_true", help="print one JSON object")


def _check_deal_seeds(command: argparse.ArgumentParser, seed: int, deals: int) -> None:
    """Deal seeds run from ``seed`` to ``seed + deals - 1``: all must be below 2**64."""
    try:
        check_seed(seed, span=deals)
    except ValueError:
        command.error(
            f"argument --seed: invalid seed {seed} for --deals {deals}: "
            "the deal seeds seed .. seed + deals - 1 must all be below 2**64"
        )


def main(argv: list[str] | None = None) -> int:
    """Run the ``sixtysix`` command; its exit code."""
    try:
        return _run(argv)
    except BrokenPipeError:  # the reader closed the pipe (``sixtysix presets | head``)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return 1


def _run(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="sixtysix", description=DESCRIPTION, epilog=EPILOG)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = _add_command(
        commands,
        "demo",
        "play random deals and print them as readable logs",
        "Play random deals with uniformly random legal actions and print every action with "
        "the running card points and the outcome of each deal.",
    )
    _add_preset(demo, "sixty_six")
    _add_count(demo, "deals", 2, "deals to play")
    _add_seed(
        demo, "seed of the actions and of the first deal (the next use seed + 1, seed + 2, ...)"
    )

    presets = _add_command(
        commands,
        "presets",
        "list the rule presets and their options",
        "Without NAME: how each preset (the mini presets after them) differs from sixty_six. "
        "With NAME: every option of the named presets, one column per preset.",
    )
    presets.add_argument(
        "names", nargs="*", type=_preset_name, metavar="NAME", help="preset to show in full"
    )
    presets.add_argument(
        "--json",
        action="store_true",
        help="print every option value as JSON: of the named presets, or of all presets",
    )

    bench = _add_command(
        commands,
        "bench",
        "run a benchmark",
        "Benchmarks of the engine: random playouts (against C), exact solves, the Python "
        "API and its views and worlds, and OpenSpiel.",
    )
    kinds = bench.add_subparsers(dest="kind", required=True, metavar="KIND")
    core_bench = _add_bench(
        kinds,
        "core",
        "uniformly random playouts inside numba",
        "Uniformly random playouts inside numba, in one process; compile time excluded.",
        "sixty_six",
        ("deals", 1_000_000, "deals to play", PLAYOUT_DEALS_LIMIT),
        "seed of the random stream",
    )
    core_bench.add_argument(
        "--reference-c",
        action="store_true",
        help="also compile and run the hand-written C playout (sixty_six) and report the ratio",
    )
    solver_bench = _add_bench(
        kinds,
        "solver",
        "exact open-hand solves of whole deals from the first lead",
        "Exact open-hand solves of whole deals from the first lead, each timed; nodes searched "
        "and the mean value reported.",
        "schnapsen",
        ("deals", 100, "deals to solve"),
        "seed of the first deal (the next use seed + 1, seed + 2, ...)",
    )
    _add_bench(
        kinds,
        "api",
        "random play through the Python State API, and the cost of a view",
        "Uniformly random deals through the Python State API, choosing among legal action ids "
        "and then among action strings (actions per second of each); at the states of "
        "deals // 20 more deals the time of the mover's view, its key and its tensor, and at "
        "those after three tricks world sampling (per second, as records in batches of 1000 "
        "and as replayed State worlds in batches of 64).",
        "sixty_six",
        ("deals", 2000, "deals to play"),
        "seed of the deals and the random actions",
    )
    _add_bench(
        kinds,
        "openspiel",
        "uniformly random play through OpenSpiel's API",
        "Uniformly random games of python_sixty_six through OpenSpiel's API, chance by its "
        "probabilities; every chance and player step counted. Needs open_spiel.",
        "sixty_six",
        ("games", 2000, "games to play"),
        "seed of the random actions and chance outcomes",
    )
    _add_bench(
        kinds,
        "tree",
        "walk the whole OpenSpiel game tree of a mini preset",
        "Walk the whole OpenSpiel game tree of a mini preset: histories, deals and the "
        "information sets of each player. Needs open_spiel.",
        "mini_2x3",
        presets=list(MINI_PRESETS),
    )

    args = parser.parse_args(argv)
    if args.command == "demo":
        _check_deal_seeds(demo, args.seed, args.deals)
        return _demo(args.preset, args.deals, args.seed)
    if args.command == "presets":
        return _presets(args.names, args.json)
    if args.kind == "solver":
        _check_deal_seeds(solver_bench, args.seed, args.deals)
        return _report(lambda: bench_solver(args.preset, args.deals, args.seed), args.json)
    if args.kind == "api":
        return _report(lambda: bench_api(args.preset, args.deals, args.seed), args.json)
    if args.kind == "openspiel":
        return _report(lambda: bench_openspiel(args.preset, args.games, args.seed), args.json)
    if args.kind == "tree":
        return _report(lambda: bench_tree(args.preset), args.json)
    if args.reference_c and args.preset != "sixty_six":
        core_bench.error(
            f"argument --reference-c: not allowed with --preset {args.preset}: "
            "the C playout plays sixty_six only"
        )
    if args.reference_c:
        return _report(lambda: compare_with_c(args.deals, args.seed), args.json)
    return _report(lambda: bench_core(args.preset, args.deals, args.seed), args.json)


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


def _option_values(preset: str) -> dict:
    """Every rule option of ``preset`` with its value."""
    rules = make_rules(preset)
    return {option: getattr(rules, option) for option in OPTION_NAMES}


def _presets(names: list[str], as_json: bool) -> int:
    if as_json:
        print(json.dumps({name: _option_values(name) for name in names or ALL_PRESETS}, indent=2))
    elif names:
        _print_option_table(names)
    else:
        _print_differences()
    return 0


def _print_differences() -> None:
    """Each preset's options that differ from ``sixty_six``, then how to see every value."""
    for name, changed in {**PRESETS, **MINI_PRESETS}.items():
        values = _option_values(name)
        listed = ", ".join(f"{option}={values[option]!r}" for option in values if option in changed)
        print(f"{name}: {listed or '(defaults)'}")
    print("Every value: sixtysix presets NAME [NAME ...], or sixtysix presets --json")


def _print_option_table(names: list[str]) -> None:
    """Every option of the presets ``names``: one row per option, one column per preset."""
    columns = [["option", *OPTION_NAMES]]
    for name in names:
        values = _option_values(name)
        columns.append([name, *(repr(values[option]) for option in OPTION_NAMES)])
    widths = [max(map(len, column)) for column in columns]
    for row in zip(*columns, strict=True):
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=True)]
        print("  ".join(cells).rstrip())


def _report(run, as_json: bool) -> int:
    """Run a benchmark and print its result as JSON or as aligned lines."""
    try:
        result = run()
    except RuntimeError as error:  # open_spiel or a C compiler missing
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
