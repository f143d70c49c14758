"""``bench KIND``: the benchmarks of :mod:`sixtysix.commands.benchmarks`, each printed as
aligned lines or as one JSON object."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import partial

from ..engine.rules import MINI_PRESETS
from ..table_game import TABLE_PRESET_NAMES
from .arguments import (
    ALL_PRESETS,
    add_command,
    add_count,
    add_json,
    add_preset,
    add_seed,
    buildable_agent_spec,
    check_deal_seeds,
)
from .benchmarks import (
    PLAYOUT_DEALS_LIMIT,
    bench_agent,
    bench_api,
    bench_cfr,
    bench_core,
    bench_openspiel,
    bench_solver,
    bench_tournament,
    bench_tree,
    compare_with_c,
)

FIRST_DEAL_SEED = "seed of the first deal (the next use seed + 1, seed + 2, ...)"
Handler = Callable[[argparse.ArgumentParser, argparse.Namespace], int]


def add_bench(commands) -> None:
    """``bench`` and its kinds."""
    bench = add_command(
        commands,
        "bench",
        "run a benchmark",
        "Benchmarks of the engine: random playouts (against C), exact solves, the Python "
        "API and its views and worlds, and OpenSpiel.",
    )
    kinds = bench.add_subparsers(dest="kind", required=True, metavar="KIND")
    for add_kind in (
        add_core,
        add_solver,
        add_api,
        add_openspiel,
        add_tree,
        add_tournament_bench,
        add_agent,
        add_cfr_bench,
    ):
        add_kind(kinds)


def add_kind(
    kinds,
    name: str,
    summary: str,
    description: str,
    run: Handler,
    preset: str,
    count: tuple | None = None,
    seed: str | None = None,
    presets=ALL_PRESETS,
) -> argparse.ArgumentParser:
    """A ``bench`` kind run by ``run``: ``--preset``, ``--NAME`` for ``count`` (name,
    default, meaning and optionally a bound), ``--seed`` with its meaning, and ``--json``."""
    command = add_command(kinds, name, summary, description)
    add_preset(command, preset, presets)
    if count:
        add_count(command, *count)
    if seed:
        add_seed(command, seed)
    add_json(command)
    command.set_defaults(run=partial(run, command))
    return command


def print_result(measure: Callable[[], dict], as_json: bool) -> int:
    """Run a benchmark and print its result as JSON or as aligned lines."""
    try:
        result = measure()
    except RuntimeError as error:  # no C compiler, or an agent that forfeits
        print(f"error: {error}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")
    return 0


# ---- the kinds -------------------------------------------------------------------------------


def add_core(kinds) -> None:
    core = add_kind(
        kinds,
        "core",
        "uniformly random playouts inside numba",
        "Uniformly random playouts inside numba, in one process; compile time excluded.",
        run_core,
        "sixty_six",
        ("deals", 1_000_000, "deals to play", PLAYOUT_DEALS_LIMIT),
        "seed of the random stream",
        presets=[*ALL_PRESETS, *TABLE_PRESET_NAMES],
    )
    core.add_argument(
        "--reference-c",
        action="store_true",
        help="also compile and run the hand-written C playout (sixty_six) and report the ratio",
    )


def run_core(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if not args.reference_c:
        return print_result(lambda: bench_core(args.preset, args.deals, args.seed), args.json)
    if args.preset != "sixty_six":
        command.error(
            f"argument --reference-c: not allowed with --preset {args.preset}: "
            "the C playout plays sixty_six only"
        )
    return print_result(lambda: compare_with_c(args.deals, args.seed), args.json)


def add_solver(kinds) -> None:
    solver = add_kind(
        kinds,
        "solver",
        "exact open-hand solves of whole deals from the first lead",
        "Exact open-hand solves of whole deals from the first lead, each timed; nodes searched "
        "and the mean value reported.",
        run_solver,
        "schnapsen",
        ("deals", 100, "deals to solve"),
        FIRST_DEAL_SEED,
        presets=[*ALL_PRESETS, *TABLE_PRESET_NAMES],
    )
    solver.add_argument(
        "--multi-core",
        action="store_true",
        help="solve a two-player preset's deals with the search for 2-4 seats "
        "(engine.table_search) instead of the two-player solver: the same deals, to compare "
        "the two searches",
    )


def run_solver(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.multi_core and args.preset in TABLE_PRESET_NAMES:
        command.error(
            f"argument --multi-core: not allowed with --preset {args.preset}: "
            "it is solved by the search for 2-4 seats anyway; give a two-player preset"
        )
    check_deal_seeds(command, args.seed, args.deals)
    return print_result(
        lambda: bench_solver(args.preset, args.deals, args.seed, args.multi_core), args.json
    )


def add_api(kinds) -> None:
    add_kind(
        kinds,
        "api",
        "random play through the Python State API, and the cost of a view",
        "Uniformly random deals through the Python State API, choosing among legal action ids "
        "and then among action strings (actions per second of each); at the states of "
        "deals // 20 more deals the time of the mover's view, its key and its tensor, and at "
        "those after three tricks world sampling (per second, as records in batches of 1000 "
        "and as replayed State worlds in batches of 64).",
        run_api,
        "sixty_six",
        ("deals", 2000, "deals to play"),
        "seed of the deals and the random actions",
    )


def run_api(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    return print_result(lambda: bench_api(args.preset, args.deals, args.seed), args.json)


def add_openspiel(kinds) -> None:
    add_kind(
        kinds,
        "openspiel",
        "uniformly random play through OpenSpiel's API",
        "Uniformly random games of python_sixty_six through OpenSpiel's API, chance by its "
        "probabilities; every chance and player step counted.",
        run_openspiel,
        "sixty_six",
        ("games", 2000, "games to play"),
        "seed of the random actions and chance outcomes",
    )


def run_openspiel(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    return print_result(lambda: bench_openspiel(args.preset, args.games, args.seed), args.json)


def add_tree(kinds) -> None:
    add_kind(
        kinds,
        "tree",
        "walk the whole OpenSpiel game tree of a mini preset",
        "Walk the whole OpenSpiel game tree of a mini preset: histories, deals and the "
        "information sets of each player.",
        run_tree,
        "mini_2x3",
        presets=list(MINI_PRESETS),
    )


def run_tree(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    return print_result(lambda: bench_tree(args.preset), args.json)


def add_tournament_bench(kinds) -> None:
    tournament = add_kind(
        kinds,
        "tournament",
        "the heuristic's rules (heuristic:worlds=0) against themselves on the numba path and "
        "the Python path, 1 and 2 workers",
        "Deals of the heuristic's rules against themselves (heuristic:worlds=0 in every "
        "seat): on the numba path (whole deals inside numba; also random vs random, with "
        "random playouts beside them as the yardstick; two-player presets only), and on the "
        "Python path (a view and an act() call per decision; also random in every seat) in "
        "one process, in a pool of 2 processes and on a local Dask cluster of 2 workers "
        "(start-up excluded; the best of three rounds each).",
        run_tournament_bench,
        "sixty_six",
        ("deals", 200_000, "deals on the numba path", PLAYOUT_DEALS_LIMIT),
        FIRST_DEAL_SEED,
        presets=[*ALL_PRESETS, *TABLE_PRESET_NAMES],
    )
    add_count(tournament, "python-deals", 2000, "deals on the Python path")


def run_tournament_bench(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    check_deal_seeds(command, args.seed, max(args.deals, args.python_deals))
    return print_result(
        lambda: bench_tournament(args.preset, args.deals, args.python_deals, args.seed),
        args.json,
    )


def add_agent(kinds) -> None:
    agent = add_kind(
        kinds,
        "agent",
        "seconds per decision of an agent against heuristic",
        "Seconds per decision of one agent against an opponent (heuristic by default) over "
        "seeded deals, the agent in each seat in turn and the opponent in every other seat "
        "(at a table its partner's too): median and 90th percentile, overall and split into "
        "talon-open and strict-phase decisions (a warm-up decision first), and the agent's "
        "payoff per deal.",
        run_agent,
        "schnapsen",
        ("deals", 20, "deals to play"),
        FIRST_DEAL_SEED,
        presets=[*ALL_PRESETS, *TABLE_PRESET_NAMES],
    )
    agent.add_argument("spec", type=buildable_agent_spec, help="the agent spec to time")
    agent.add_argument(
        "--opponent",
        type=buildable_agent_spec,
        default="heuristic",
        help="the opponent's agent spec (default: %(default)s)",
    )


def run_agent(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    check_deal_seeds(command, args.seed, args.deals)
    return print_result(
        lambda: bench_agent(args.spec, args.preset, args.deals, args.seed, args.opponent),
        args.json,
    )


def add_cfr_bench(kinds) -> None:
    cfr = add_kind(
        kinds,
        "cfr",
        "seconds per iteration of our exact CFR and CFR+ beside OpenSpiel's",
        "Seconds per iteration of our exact CFR and CFR+ (numba, over a tree built once) and "
        "of OpenSpiel's over python_sixty_six: its C++ solvers through the binding "
        "(pyspiel.CFRSolver, CFRPlusSolver) and its Python ones (the same update order as "
        "ours), measured side by side on a mini preset, and the ratios (set-up and compile "
        "times apart).",
        run_cfr_bench,
        "mini_2x3",
        ("iterations", 1000, "iterations of ours per variant"),
        presets=list(MINI_PRESETS),
    )
    add_count(cfr, "openspiel-iterations", 3, "iterations of OpenSpiel's per variant")


def run_cfr_bench(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    return print_result(
        lambda: bench_cfr(args.preset, args.iterations, args.openspiel_iterations), args.json
    )
