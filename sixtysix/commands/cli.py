"""The ``sixtysix`` command line: ``demo``, ``presets``, the ``bench`` commands,
``tournament``, ``replay`` and ``agents``, and ``play`` (a match against an agent).

Every bad argument is refused by argparse (exit code 2, a message naming the bad value and
what is valid), through the shared checks of :mod:`sixtysix.engine.checks`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from sixtysix.agents.human import HumanAgent, PlayerLeft
from sixtysix.experiments import closing_study, exploitability
from sixtysix.experiments.store import ResultsConflict
from sixtysix.experiments.tournament import (
    DEFAULT_AGENTS,
    DEFAULT_DEALS,
    TournamentConfig,
    TournamentError,
    TournamentInterrupted,
    check_scheduler,
    check_time_limit,
    read_results,
    replay_row,
    run_tournament,
)
from sixtysix.experiments.tournament_plots import save_plots
from sixtysix.experiments.tournament_summary import summarize

from .. import agents
from ..engine.checks import check_integer, check_seed
from ..engine.rules import BOOL_OPTIONS, MINI_PRESETS, OPTION_NAMES, PRESETS, make_rules
from ..game import Game
from ..theory import cfr, closing_values, mccfr
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

ALL_PRESETS = [*PRESETS, *MINI_PRESETS]
DESCRIPTION = (
    "Sixty-Six and Schnapsen for game-AI research: play random demo deals, list the rule "
    "presets, run the benchmarks, and play, replay and list agents in tournaments."
)
EPILOG = "Run 'sixtysix COMMAND --help' for the options of a command."


def _checked_type(check: Callable[[object], object], convert: type = int) -> Callable:
    """An argparse ``type``: the argument converted by ``convert`` (an int by default),
    accepted by ``check`` or refused with its message."""

    def parse(text: str):
        try:
            value = convert(text)
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


def _valid_spec(spec: str) -> str:
    """``spec``, if ``agents.parse_spec`` accepts it."""
    agents.parse_spec(spec)
    return spec


_agent_spec = _checked_type(_valid_spec, str)
_time_limit = _checked_type(check_time_limit, float)  # seconds per decision: positive


def _rule_override(text: str) -> tuple[str, object]:
    """An argparse ``type`` for ``OPTION=VALUE``: the value typed as the option's default
    (``true``/``false`` for on/off options, ``none`` for an unset number)."""
    name, equals, value = text.partition("=")
    if not equals or name not in OPTION_NAMES:
        raise argparse.ArgumentTypeError(
            f"invalid rule option {text!r}: write OPTION=VALUE with OPTION one of "
            f"{', '.join(OPTION_NAMES)}"
        )
    default = getattr(make_rules(), name)
    if name in BOOL_OPTIONS:
        if value.lower() not in ("true", "false", "1", "0"):
            raise argparse.ArgumentTypeError(f"invalid value {value!r} for {name}: true or false")
        return name, value.lower() in ("true", "1")
    if isinstance(default, int) or name == "match_target":
        if value.lower() == "none" and name == "match_target":
            return name, None
        try:
            return name, int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"invalid value {value!r} for {name}: an integer"
            ) from None
    return name, value


_scheduler = _checked_type(check_scheduler, str)  # a Dask scheduler address


def _results_path(path: str) -> str:
    """An argparse ``type`` for a results file: a ``.parquet`` path that is not a folder."""
    if not path.endswith(".parquet") or os.path.isdir(path):
        raise argparse.ArgumentTypeError(
            f"invalid results file {path!r}: give a file name ending in .parquet, "
            "e.g. results/NAME.parquet"
        )
    return path


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


def _add_seed(command: argparse.ArgumentParser, meaning: str, default: int = 1) -> None:
    """``--seed``, with its ``meaning`` for this command."""
    command.add_argument(
        "--seed",
        type=_seed_type,
        default=default,
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
    if os.getcwd() not in sys.path:  # agent modules beside the user import, as with python -m
        sys.path.insert(0, os.getcwd())
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
        "probabilities; every chance and player step counted.",
        "sixty_six",
        ("games", 2000, "games to play"),
        "seed of the random actions and chance outcomes",
    )
    _add_bench(
        kinds,
        "tree",
        "walk the whole OpenSpiel game tree of a mini preset",
        "Walk the whole OpenSpiel game tree of a mini preset: histories, deals and the "
        "information sets of each player.",
        "mini_2x3",
        presets=list(MINI_PRESETS),
    )
    tournament_bench = _add_bench(
        kinds,
        "tournament",
        "heuristic vs heuristic on the numba path and the Python path, 1 and 2 workers",
        "Heuristic vs heuristic deals: on the numba path (whole deals inside numba; also "
        "random vs random, with random playouts beside them as the yardstick), and on the "
        "Python path (a view and an act() call per decision) in one process, in a pool of 2 "
        "processes and on a local Dask cluster of 2 workers (start-up excluded; the best "
        "of three rounds each).",
        "sixty_six",
        ("deals", 200_000, "deals on the numba path", PLAYOUT_DEALS_LIMIT),
        "seed of the first deal (the next use seed + 1, seed + 2, ...)",
    )
    _add_count(tournament_bench, "python-deals", 2000, "deals on the Python path")
    agent_bench = _add_bench(
        kinds,
        "agent",
        "seconds per decision of an agent against heuristic",
        "Seconds per decision of one agent against an opponent (heuristic by default) over "
        "seeded deals, the agent in alternate seats: median and 90th percentile, overall and "
        "split into talon-open and strict-phase decisions (a warm-up decision first).",
        "schnapsen",
        ("deals", 20, "deals to play"),
        "seed of the first deal (the next use seed + 1, seed + 2, ...)",
    )
    agent_bench.add_argument("spec", type=_agent_spec, help="the agent spec to time")
    agent_bench.add_argument(
        "--opponent",
        type=_agent_spec,
        default="heuristic",
        help="the opponent's agent spec (default: %(default)s)",
    )

    tournament = _add_command(
        commands,
        "tournament",
        "play a duplicate tournament between agents into a Parquet file",
        "Every pair of distinct agents plays the same seeded deals twice, seats swapped "
        "(duplicate format), on local worker processes or a Dask cluster. One row per deal "
        "goes to a Parquet file as batches finish: rerun an interrupted command to complete it.",
    )
    tournament.add_argument(
        "--agents",
        nargs="+",
        type=_agent_spec,
        default=list(DEFAULT_AGENTS),
        metavar="SPEC",
        help="two or more agent specs: a built-in name (see 'sixtysix agents'), "
        "name:key=value,... or module.path:ClassName[:key=value,...] "
        f"(default: {' '.join(DEFAULT_AGENTS)})",
    )
    units = tournament.add_mutually_exclusive_group()
    _add_count(units, "deals", DEFAULT_DEALS, "deals per pairing, each played in both seatings")
    units.add_argument(
        "--matches",
        type=_count_type("matches"),
        help="play this many matches per pairing (each in both seatings) instead of deals "
        "(default: none, play deals)",
    )
    _add_preset(tournament, "sixty_six")
    _add_seed(tournament, "seed of the tournament, from which every deal seed derives", 0)
    tournament.add_argument(
        "--workers",
        type=_count_type("workers"),
        help="local worker processes; 1 plays in this process "
        f"(default: one per CPU, {os.cpu_count()})",
    )
    tournament.add_argument(
        "--scheduler",
        type=_scheduler,
        metavar="tcp://HOST:PORT",
        help="run the batches on the Dask cluster of this scheduler instead of local workers "
        "(default: none, local workers)",
    )
    tournament.add_argument(
        "--out",
        type=_results_path,
        default="results/tournament.parquet",
        help="the results file (default: %(default)s)",
    )
    tournament.add_argument(
        "--force",
        action="store_true",
        help="delete the results already at --out (say of another configuration) and start afresh",
    )
    tournament.add_argument(
        "--quiet", action="store_true", help="no progress bar (shown only on a terminal anyway)"
    )
    tournament.add_argument(
        "--time-limit",
        type=_time_limit,
        metavar="SECONDS",
        help="seconds an agent may take for one decision, else it forfeits the deal "
        "(default: no limit; the numba path of two built-in agents is not timed)",
    )
    tournament.add_argument(
        "--allow-cheating",
        action="store_true",
        help="let agents that see hidden cards play (references such as openspiel-mcts; "
        "'sixtysix agents' marks them)",
    )
    tournament.add_argument(
        "--rule",
        action="append",
        type=_rule_override,
        default=[],
        metavar="OPTION=VALUE",
        help="a rule option over the preset's, e.g. claim_mode=manual (repeatable; "
        "'sixtysix presets NAME' lists the options)",
    )

    replay = _add_command(
        commands,
        "replay",
        "re-play one deal of a tournament results file, move by move",
        "Re-play one row of a results file of 'sixtysix tournament' from the configuration "
        "stored in it, print the deal move by move with both hands, and check that it ends "
        "as the row says (exit code 1 if not).",
    )
    replay.add_argument("results", metavar="RESULTS", help="a results file (.parquet)")
    replay.add_argument(
        "--row",
        type=_checked_type(lambda value: check_integer(value, "row", 0)),
        default=0,
        help="the row to replay, 0 for the first (default: %(default)s)",
    )

    report = _add_command(
        commands,
        "report",
        "print the summary of a tournament results file",
        "Win rates and game points per deal for every pairing and agent, with 95%% intervals "
        "over duplicate pairs, Bradley-Terry ratings with bootstrap intervals, and how much "
        "variance the duplicate format removed.",
    )
    report.add_argument("results", metavar="RESULTS", help="a results file (.parquet)")
    report.add_argument("--markdown", action="store_true", help="print Markdown tables")
    report.add_argument(
        "--plots",
        action="store_true",
        help="also save the win-rate heatmap and the ratings plot beside the results file",
    )

    agent_list = _add_command(
        commands,
        "agents",
        "list the built-in agents and their parameters",
        "The built-in agents with their parameters (type and default) and a description; "
        "give one to 'sixtysix tournament --agents' as NAME or NAME:key=value,...",
    )
    _add_json(agent_list)
    play = _add_play_command(commands)
    cfr_commands = _add_cfr_command(commands)
    closing_commands = _add_closing_command(commands)
    cfr_bench = _add_bench(
        kinds,
        "cfr",
        "seconds per iteration of our exact CFR and CFR+ beside OpenSpiel's",
        "Seconds per iteration of our exact CFR and CFR+ (numba, over a tree built once) and "
        "of OpenSpiel's over python_sixty_six: its C++ solvers through the binding "
        "(pyspiel.CFRSolver, CFRPlusSolver) and its Python ones (the same update order as "
        "ours), measured side by side on a mini preset, and the ratios (set-up and compile "
        "times apart).",
        "mini_2x3",
        ("iterations", 1000, "iterations of ours per variant"),
        presets=list(MINI_PRESETS),
    )
    _add_count(cfr_bench, "openspiel-iterations", 3, "iterations of OpenSpiel's per variant")

    args = parser.parse_args(argv)
    if args.command == "cfr":
        return _cfr(cfr_commands, args)
    if args.command == "closing":
        return _closing(closing_commands, args)
    if args.command == "demo":
        _check_deal_seeds(demo, args.seed, args.deals)
        return _demo(args.preset, args.deals, args.seed)
    if args.command == "presets":
        return _presets(args.names, args.json)
    if args.command == "tournament":
        return _tournament(tournament, args)
    if args.command == "replay":
        return _replay(replay, args.results, args.row)
    if args.command == "report":
        return _report_results(report, args)
    if args.command == "agents":
        return _agents(args.json)
    if args.command == "play":
        return _play_at_terminal(play, args)
    if args.kind == "solver":
        _check_deal_seeds(solver_bench, args.seed, args.deals)
        return _report(lambda: bench_solver(args.preset, args.deals, args.seed), args.json)
    if args.kind == "api":
        return _report(lambda: bench_api(args.preset, args.deals, args.seed), args.json)
    if args.kind == "openspiel":
        return _report(lambda: bench_openspiel(args.preset, args.games, args.seed), args.json)
    if args.kind == "tree":
        return _report(lambda: bench_tree(args.preset), args.json)
    if args.kind == "cfr":
        return _report(
            lambda: bench_cfr(args.preset, args.iterations, args.openspiel_iterations), args.json
        )
    if args.kind == "agent":
        _check_deal_seeds(agent_bench, args.seed, args.deals)
        return _report(
            lambda: bench_agent(args.spec, args.preset, args.deals, args.seed, args.opponent),
            args.json,
        )
    if args.kind == "tournament":
        _check_deal_seeds(tournament_bench, args.seed, max(args.deals, args.python_deals))
        return _report(
            lambda: bench_tournament(args.preset, args.deals, args.python_deals, args.seed),
            args.json,
        )
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


def _tournament(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.scheduler is not None and args.workers is not None:
        command.error(
            "argument --workers: not allowed with --scheduler: the Dask cluster's workers "
            "run the batches"
        )
    try:
        config = TournamentConfig(
            agents=tuple(args.agents),
            deals=None if args.matches else args.deals,
            matches=args.matches,
            preset=args.preset,
            overrides=dict(args.rule),
            seed=args.seed,
            time_limit=args.time_limit,
            allow_cheating=args.allow_cheating,
        )
    except ValueError as error:
        command.error(str(error))
    try:
        run_tournament(config, args.out, args.workers, args.scheduler, args.force, args.quiet)
    except ResultsConflict as error:
        return _failed(command, error, 2)
    except TournamentError as error:
        return _failed(command, error, 1)
    except TournamentInterrupted as error:
        return _failed(command, error, 130)
    _print_summary(args.out)
    return 0


def _print_summary(path: str, markdown: bool = False, plots: bool = True) -> None:
    """Print the summary tables of a results file and save its plots beside it."""
    results = read_results(path)  # the rows alone: no agent module needs to be importable
    summary = summarize(results)
    figures = save_plots(path, summary) if plots else ()  # saved first: output may be cut
    print(f"tournament {results['tournament_id'].iloc[0]}: {len(results)} deals in {path}\n")
    print(summary.to_markdown() if markdown else summary.to_text())
    if figures:
        print("\nplots: " + ", ".join(map(str, figures)))


def _report_results(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if not os.path.isfile(args.results):
        command.error(f"argument RESULTS: no such file: {args.results!r}")
    try:
        _print_summary(args.results, args.markdown, args.plots)
    except ValueError as error:
        command.error(str(error))
    return 0


def _failed(command: argparse.ArgumentParser, error: BaseException, code: int) -> int:
    """Print ``error`` as the command's error; ``code``."""
    print(f"{command.prog}: error: {error}", file=sys.stderr)
    return code


def _replay(command: argparse.ArgumentParser, path: str, row: int) -> int:
    if not os.path.isfile(path):
        command.error(f"argument RESULTS: no such file: {path!r}")
    try:
        replayed = replay_row(path, row)
    except ValueError as error:
        command.error(str(error))
    print(replayed.text)
    return 1 if replayed.differences else 0


def _add_play_command(commands) -> argparse.ArgumentParser:
    """``play``: a match against an agent at the terminal."""
    play = _add_command(
        commands,
        "play",
        "play a match against an agent at the terminal",
        "Play a whole match (deals to the preset's match target) against an agent, as "
        "player 0: each decision shows your hand, the trump card, the talon, both scores and "
        "the cards you know the opponent holds, and offers the legal actions by number. Type "
        "a number or the action (QH, marry KH, close, exchange, ...); quit, Ctrl-C or the end "
        "of input leaves the match.",
    )
    play.add_argument(
        "--opponent",
        type=_agent_spec,
        required=True,
        metavar="SPEC",
        help="the agent to play: a built-in name (see 'sixtysix agents'), name:key=value,... "
        "or module.path:ClassName[:key=value,...]",
    )
    _add_preset(play, "sixty_six", [p for p in ALL_PRESETS if make_rules(p).match_target])
    play.add_argument(
        "--seed",
        type=_seed_type,
        help="seed of the match, in [0, 2**64), to replay one (default: a fresh random seed, "
        "printed)",
    )
    play.add_argument(
        "--rule",
        action="append",
        type=_rule_override,
        default=[],
        metavar="OPTION=VALUE",
        help="a rule option over the preset's, e.g. claim_mode=manual (repeatable)",
    )
    return play


def _play_at_terminal(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if getattr(agents.parse_spec(args.opponent).factory, "interactive", False):
        command.error(f"argument --opponent: {args.opponent!r} is not an agent that plays itself")
    try:
        game = Game(args.preset, **dict(args.rule))
    except ValueError as error:
        command.error(str(error))
    if game.rules.match_target is None:
        command.error("argument --rule: match_target=none plays no match; give a target")
    seed = random.SystemRandom().randrange(2**32) if args.seed is None else args.seed
    print(f"{args.preset} against {args.opponent}, match seed {seed} (replay: --seed {seed})")
    try:
        human = HumanAgent()
        result = agents.play_match(game, (human, args.opponent), seed, observer=human)
        human.end_match(result.scores)
    except KeyboardInterrupt:
        print("\nInterrupted: you left the match.")
        return 130
    except PlayerLeft:
        print("\nYou left the match.")
    return 0


def _strategy_path(path: str) -> str:
    """An argparse ``type`` for a strategy file: a ``.npz`` path that is not a folder."""
    if not path.endswith(".npz") or os.path.isdir(path):
        raise argparse.ArgumentTypeError(
            f"invalid strategy file {path!r}: give a file name ending in .npz, "
            "e.g. results/NAME.npz"
        )
    return path


def _add_cfr_command(commands):
    """``cfr``: exact CFR on the mini presets; returns its subcommands (``cfr_command``)."""
    cfr_group = _add_command(
        commands,
        "cfr",
        "counterfactual regret minimization: solve, exploitability, MCCFR training",
        "Counterfactual regret minimization: exact CFR and CFR+ over the whole game tree of a "
        "mini preset with exact best responses (solve), the exploitability of any agent on "
        "a mini preset (exploitability), and MCCFR over an abstraction of a full preset "
        "(train).",
    )
    cfr_commands = cfr_group.add_subparsers(dest="cfr_command", required=True, metavar="COMMAND")
    solve = _add_command(
        cfr_commands,
        "solve",
        "solve a mini preset with exact CFR or CFR+ into a strategy file",
        "Build the whole game tree of a mini preset (every deal, dealer 1) and run exact CFR+ "
        "or CFR on it, measuring the average strategy's exploitability as it goes (a progress "
        "bar); write the strategy and the curve to an .npz file (for the cfr:strategy=PATH "
        "agent) and the curve, log-log, to a .png beside it.",
    )
    _add_preset(solve, "mini_2x3")
    _add_count(solve, "iterations", 1000, "CFR iterations")
    solve.add_argument(
        "--variant",
        choices=cfr.VARIANTS,
        default="cfr+",
        help="cfr+ (regret matching+, linear averaging) or cfr (OpenSpiel's CFRSolver); both "
        "update the players alternately (default: %(default)s)",
    )
    solve.add_argument(
        "--eval-every",
        type=_count_type("eval-every"),
        help="measure the exploitability every K iterations, and after the last "
        "(default: iterations // 20)",
        metavar="K",
    )
    solve.add_argument(
        "--out",
        type=_strategy_path,
        help="the strategy file (default: results/cfr_PRESET.npz)",
    )
    _add_json(solve)
    _add_cfr_exploitability_command(cfr_commands)
    _add_cfr_train_command(cfr_commands)
    return cfr_commands


def _add_cfr_exploitability_command(cfr_commands) -> argparse.ArgumentParser:
    """``cfr exploitability``: how much a best response wins against an agent."""
    command = _add_command(
        cfr_commands,
        "exploitability",
        "the exploitability of any agent on a mini preset",
        "Tabulate the policy an agent plays at every information set of a mini preset's "
        "whole game tree (exactly from its policy(view) where it has one, else from the "
        "frequencies of --samples act() calls with different seeds) and compute the exact "
        "best response against it. The exploitability is the mean of the two best "
        "responses' values, in game points a deal (OpenSpiel's definition).",
    )
    _add_preset(command, "mini_2x3", choices=tuple(MINI_PRESETS))
    command.add_argument(
        "--agent",
        required=True,
        metavar="SPEC",
        help="the agent, e.g. pimc, heuristic or cfr:strategy=results/cfr_mini_2x3.npz",
    )
    _add_count(
        command,
        "samples",
        exploitability.DEFAULT_SAMPLES,
        "act() calls per decision of an agent without policy(view)",
    )
    _add_seed(command, "the seed of the agent's seeds")
    _add_json(command)
    return command


def _cfr_exploitability(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:
        agents.make(args.agent, 0)
    except ValueError as error:
        command.error(f"argument --agent: {error}")
    try:
        result = exploitability.agent_exploitability(
            args.preset, args.agent, args.samples, args.seed, progress=not args.json
        )
    except ValueError as error:  # an agent that cannot be tabulated, or not for these rules
        return _failed(command, error, 2)
    if args.json:
        print(json.dumps(result.as_dict()))
        return 0
    how = "its policy(view)" if result.exact else f"{result.samples} act() calls a decision"
    print(
        f"{result.agent} on {result.preset}: exploitability {result.exploitability:.6g} game "
        f"points a deal\n  best responses win {result.best_response_values[0]:.6g} as player 0 "
        f"and {result.best_response_values[1]:.6g} as player 1\n  {result.decisions:,} "
        f"decisions of {result.information_sets:,} information sets, tabulated from {how} "
        f"in {result.seconds:.1f} s"
    )
    return 0


def _cfr(commands, args: argparse.Namespace) -> int:
    """Run a ``cfr`` subcommand."""
    if args.cfr_command == "solve":
        return _cfr_solve(commands.choices["solve"], args)
    if args.cfr_command == "exploitability":
        return _cfr_exploitability(commands.choices["exploitability"], args)
    if args.cfr_command == "train":
        return _cfr_train(commands.choices["train"], args)
    raise AssertionError(f"unhandled cfr command {args.cfr_command!r}")


def _cfr_solve(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:
        cfr.check_mini_preset(args.preset)
    except ValueError as error:
        command.error(f"argument --preset: {error}")
    out = args.out or f"results/cfr_{args.preset}.npz"
    try:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        command.error(f"argument --out: cannot make the folder of {out!r}: {error}")
    solution = cfr.solve(
        args.preset, args.iterations, args.variant, args.eval_every, progress=not args.json
    )
    path = solution.save(out)
    figure = solution.plot(path.with_suffix(".png"))
    result = {
        "preset": args.preset,
        "variant": args.variant,
        "iterations": args.iterations,
        "exploitability": solution.exploitability,
        "seconds": round(solution.seconds, 3),
        "build_seconds": round(solution.build_seconds, 3),
        "information_sets": solution.tree.infosets,
        "histories": solution.tree.nodes,
        "curve": [[int(i), float(e), round(float(s), 3)] for i, e, s in solution.curve],
        "out": str(path),
        "plot": str(figure),
        "bytes": path.stat().st_size,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"{args.variant} on {args.preset}: {solution.tree.nodes:,} histories, "
        f"{solution.tree.infosets:,} information sets (tree built in "
        f"{solution.build_seconds:.2f} s)\n"
    )
    print(f"{'iteration':>10}  {'exploitability':>14}  {'seconds':>8}")
    rows = solution.curve
    shown = sorted({*np.unique(np.geomspace(1, len(rows), 12).astype(int) - 1)})
    for iteration, value, seconds in rows[shown]:
        print(f"{int(iteration):>10}  {value:>14.6g}  {seconds:>8.2f}")
    print(
        f"\nexploitability {solution.exploitability:.6g} after {args.iterations} iterations "
        f"in {solution.seconds:.2f} s; strategy {path} ({result['bytes']:,} bytes), plot {figure}"
    )
    return 0


def _agents(as_json: bool) -> int:
    listed = agents.available()
    if as_json:
        print(json.dumps(listed, indent=2))
        return 0
    rows = [("name", "parameters", "description")]
    for agent in listed:
        parameters = ", ".join(
            f"{parameter['name']}={parameter['default']!r} ({parameter['type']})"
            for parameter in agent["parameters"]
        )
        notes = [
            note
            for note, on in [
                ("numba fast path", agent["fast_path"]),
                ("cheats: sees hidden cards", agent["cheating"]),
                ("interactive: not for tournaments", agent["interactive"]),
            ]
            if on
        ]
        description = agent["description"] + (f" [{'; '.join(notes)}]" if notes else "")
        rows.append((agent["name"], parameters or "-", description))
    widths = [max(len(row[column]) for row in rows) for column in range(2)]
    for name, parameters, description in rows:
        print(f"{name:<{widths[0]}}  {parameters:<{widths[1]}}  {description}")
    print(
        "Your own: module.path:ClassName[:key=value,...], built as ClassName(seed=..., key=value)"
    )
    return 0


def _report(run, as_json: bool) -> int:
    """Run a benchmark and print its result as JSON or as aligned lines."""
    try:
        result = run()
    except RuntimeError as error:  # no C compiler, or an agent that forfeits
        print(f"error: {error}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")
    return 0


def _add_closing_command(commands):
    """``closing``: the close-the-talon study; returns its subcommands."""
    group = _add_command(
        commands,
        "closing",
        "the close-the-talon study: harvest positions, score agents, analyze one position",
        "The close-the-talon study: harvest the positions where closing is legal from play, "
        "score agents' closing decisions against reference values, and analyze one position.",
    )
    closing_commands = group.add_subparsers(
        dest="closing_command", required=True, metavar="COMMAND"
    )
    harvest = _add_command(
        closing_commands,
        "harvest",
        "play deals and record every decision where closing is legal",
        "Every ordered seating of two of the agents (each agent against itself included) "
        "plays the same seeded deals; every decision where closing is legal (the leader's, "
        "or the trick winner's before drawing) becomes one row of a Parquet file: the deal "
        "seed, deck, dealer and history, the leader's view, the score and what the agent "
        "did. Rerun an interrupted command to complete it.",
    )
    harvest.add_argument(
        "--agents",
        nargs="+",
        type=_agent_spec,
        required=True,
        metavar="SPEC",
        help="one or more agent specs (see 'sixtysix agents')",
    )
    _add_count(harvest, "deals", closing_study.DEFAULT_HARVEST_DEALS, "deals per seating")
    _add_preset(harvest, "sixty_six")
    _add_seed(harvest, "seed of the harvest, from which every deal seed derives", 0)
    harvest.add_argument(
        "--rule",
        action="append",
        type=_rule_override,
        default=[],
        metavar="OPTION=VALUE",
        help="a rule option over the preset's, e.g. close_min_talon=4 (repeatable)",
    )
    harvest.add_argument(
        "--out",
        type=_results_path,
        help="the positions file (default: results/closing_PRESET.parquet)",
    )
    _add_run_options(harvest, "the positions already at --out")
    evaluate = _add_command(
        closing_commands,
        "evaluate",
        "score agents' closing decisions at harvested positions",
        "Value every position once with the PIMC reference (cached beside the positions "
        "as NAME.reference.parquet), ask every agent at every position (a fresh agent per "
        "position; cached per agent as NAME.decisions.parquet), and report agreement with "
        "the reference, game points lost per decision with 95% intervals, false and missed "
        "closes, by talon size and score: a Markdown table (printed and written to OUT.md), "
        "the scored decisions (OUT.parquet) and plots (OUT-loss.png, OUT-close-errors.png, "
        "OUT-references.png).",
    )
    evaluate.add_argument(
        "--positions",
        required=True,
        metavar="FILE",
        help="a positions file of 'sixtysix closing harvest' (.parquet)",
    )
    evaluate.add_argument(
        "--agents",
        nargs="+",
        type=_agent_spec,
        default=["heuristic", "pimc", "dmcts", "ismcts"],
        metavar="SPEC",
        help="one or more agent specs (default: %(default)s)",
    )
    evaluate.add_argument(
        "--out",
        metavar="STEM",
        help="where the outputs go, without an ending: STEM.md, STEM.parquet, STEM-*.png "
        "(default: NAME-quality beside the positions NAME.parquet)",
    )
    evaluate.add_argument(
        "--limit",
        type=_count_type("limit"),
        metavar="N",
        help="evaluate only the first N positions (default: all)",
    )
    evaluate.add_argument(
        "--max-talon",
        type=_checked_type(lambda value: check_integer(value, "max-talon", 2)),
        metavar="N",
        help="evaluate only the positions with at most N talon cards (default: any)",
    )
    _add_reference_options(evaluate)
    _add_seed(evaluate, "seed of the agents and of the sampled worlds", 0)
    _add_run_options(evaluate, "the cached reference values and decisions")
    analyze = _add_command(
        closing_commands,
        "analyze",
        "analyze one closing position given as JSON",
        "Value closing and every alternative at one position, described from the leader's "
        "side in a JSON file (see docs/closing_positions.md), with both references, the "
        "number of worlds and a verdict.",
    )
    analyze.add_argument("position", metavar="POSITION.json", help="the position file")
    _add_reference_options(analyze)
    _add_seed(analyze, "seed of the sampled worlds", 0)
    _add_json(analyze)
    return closing_commands


def _add_reference_options(command: argparse.ArgumentParser) -> None:
    """``--samples`` and ``--worlds-limit`` of the PIMC reference."""
    command.add_argument(
        "--samples",
        type=_count_type("samples"),
        default=closing_study.PIMC_SAMPLES,
        help="worlds the PIMC reference samples where the worlds are more than "
        "--worlds-limit (default: %(default)s)",
    )
    command.add_argument(
        "--worlds-limit",
        type=_checked_type(lambda value: check_integer(value, "worlds-limit", 0)),
        default=closing_study.PIMC_LIMIT,
        metavar="N",
        help="the PIMC reference values every world where there are at most N "
        "(default: %(default)s)",
    )
    command.add_argument(
        "--defense-worlds",
        type=_checked_type(lambda value: check_integer(value, "defense-worlds", 0)),
        default=closing_study.BEST_DEFENSE_WORLDS,
        metavar="N",
        help="solve the best-defense reference where there are at most N worlds (0: never; "
        "default: %(default)s)",
    )
    command.add_argument(
        "--defense-nodes",
        type=_count_type("defense-nodes"),
        default=closing_study.BEST_DEFENSE_NODES,
        metavar="N",
        help="... and only for options whose game tree has at most N nodes (default: %(default)s)",
    )


def _add_run_options(command: argparse.ArgumentParser, kept: str) -> None:
    """``--workers``, ``--scheduler``, ``--force`` (deletes ``kept``) and ``--quiet``."""
    command.add_argument(
        "--workers",
        type=_count_type("workers"),
        help=f"local worker processes; 1 works in this process (default: {os.cpu_count()})",
    )
    command.add_argument(
        "--scheduler",
        type=_scheduler,
        metavar="tcp://HOST:PORT",
        help="run the batches on the Dask cluster of this scheduler instead of local workers",
    )
    command.add_argument("--force", action="store_true", help=f"delete {kept} and start afresh")
    command.add_argument("--quiet", action="store_true", help="no progress bar")


def _closing(commands, args: argparse.Namespace) -> int:
    """Run a ``closing`` subcommand."""
    command = commands.choices[args.closing_command]
    if args.closing_command == "analyze":
        return _closing_analyze(command, args)
    if args.scheduler is not None and args.workers is not None:
        command.error("argument --workers: not allowed with --scheduler")
    try:
        if args.closing_command == "harvest":
            config = closing_study.HarvestConfig(
                tuple(args.agents), args.deals, args.preset, dict(args.rule), args.seed
            )
        else:
            config = closing_study.EvaluationConfig(
                args.positions,
                tuple(args.agents),
                args.limit,
                args.max_talon,
                args.samples,
                args.worlds_limit,
                args.defense_worlds,
                args.defense_nodes,
                args.seed,
            )
            closing_study.read_positions(args.positions)
    except ValueError as error:
        command.error(str(error))
    started = time.perf_counter()
    try:
        if args.closing_command == "harvest":
            out = args.out or f"results/closing_{args.preset}.parquet"
            table = closing_study.run_harvest(
                config, out, args.workers, args.scheduler, args.force, args.quiet
            )
        else:
            evaluation = closing_study.run_evaluation(
                config, args.out, args.workers, args.scheduler, args.force, args.quiet
            )
    except ResultsConflict as error:
        return _failed(command, error, 2)
    except TournamentError as error:
        return _failed(command, error, 1)
    except TournamentInterrupted as error:
        return _failed(command, error, 130)
    except OSError as error:
        return _failed(command, error, 1)
    seconds = time.perf_counter() - started
    if args.closing_command == "harvest":
        closes = sum(table["closed"].to_pylist())
        print(
            f"harvest {config.harvest_id}: {table.num_rows} positions ({closes} closed by the "
            f"agent) from {config.deals} deals x {len(config.pairings)} seatings in {out} "
            f"({seconds:.1f} s)"
        )
    else:
        print(evaluation.to_markdown())
        print(f"\n({seconds:.1f} s) written: {', '.join(map(str, evaluation.files))}")
    return 0


def _closing_analyze(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:
        position = closing_values.ClosingPosition.from_json(Path(args.position))
        result = closing_values.analyze(
            position,
            limit=args.worlds_limit,
            samples=args.samples,
            seed=args.seed,
            best_defense=args.defense_worlds > 0,
            max_worlds=max(args.defense_worlds, 1),
            max_nodes=args.defense_nodes,
        )
    except ValueError as error:
        command.error(f"argument POSITION.json: {error}")
    print(json.dumps(result) if args.json else closing_values.render(result))
    return 0


def _run_folder(path: str) -> str:
    """An argparse ``type`` for an MCCFR run folder: not a file, not a file name."""
    if os.path.isfile(path) or path.endswith(".npz"):
        raise argparse.ArgumentTypeError(
            f"invalid run folder {path!r}: give a folder for the checkpoint and the "
            "strategy, e.g. results/NAME"
        )
    return path


def _capacity(text: str) -> int:
    """An argparse ``type`` for ``--capacity``: a power of two accepted by ``mccfr``."""
    try:
        value = int(text)
        mccfr.run_config("sixty_six", 0, value, 0)
    except ValueError as error:
        message = str(error) if text.lstrip("-").isdigit() else f"invalid capacity {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    return value


def _add_cfr_train_command(cfr_commands) -> argparse.ArgumentParser:
    """``cfr train``: external-sampling MCCFR on a full preset, resumable."""
    train = _add_command(
        cfr_commands,
        "train",
        "train an MCCFR strategy for a full preset over the abstraction of docs/abstraction.md",
        "External-sampling MCCFR (linear weighting, negative-regret pruning) over the "
        "information and action abstraction of docs/abstraction.md, with a progress bar. "
        "Checkpoints go to FOLDER/checkpoint.npz; running the same command again resumes "
        "there and continues to --iterations (another configuration is refused). The average "
        "strategy goes to FOLDER/strategy.npz, for the cfr:strategy=PATH agent.",
    )
    _add_preset(train, "sixty_six")
    train.add_argument(
        "--iterations",
        type=_count_type("iterations"),
        required=True,
        help="iterations in all, counting those of a checkpoint (each deals one deck and "
        "traverses it once per player)",
    )
    train.add_argument(
        "--out", type=_run_folder, required=True, metavar="FOLDER", help="the run folder"
    )
    _add_seed(train, "seed of the run's random stream", 0)
    _add_count(train, "checkpoint-every", 10_000, "iterations between checkpoints")
    train.add_argument(
        "--capacity",
        type=_capacity,
        default=mccfr.DEFAULT_CAPACITY,
        help="slots of the regret table, a power of two (default: %(default)s)",
    )
    train.add_argument(
        "--prune-after",
        type=_checked_type(lambda value: check_integer(value, "prune-after", 0)),
        default=1000,
        help="the iteration from which negative-regret pruning starts (default: %(default)s)",
    )
    _add_json(train)
    return train


def _cfr_train(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run ``cfr train``; print what was trained."""
    start = time.perf_counter()
    try:
        path = mccfr.train(
            args.preset,
            iterations=args.iterations,
            out=args.out,
            seed=args.seed,
            checkpoint_every=args.checkpoint_every,
            capacity=args.capacity,
            prune_after=args.prune_after,
            progress=not args.json,
        )
    except ValueError as error:
        command.error(str(error))
    except (mccfr.TableFullError, OSError) as error:
        return _failed(command, error, 1)
    strategy = mccfr.AbstractStrategy.load(path)
    result = {
        "preset": args.preset,
        "iterations": strategy.iterations,
        "keys": len(strategy.keys),
        "seconds": round(time.perf_counter() - start, 3),
        "out": str(path),
        "bytes": path.stat().st_size,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{args.preset}: {result['iterations']} iterations, {result['keys']} information "
            f"sets in {path} ({result['bytes'] / 1e6:.2f} MB)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
