"""The ``sixtysix`` command line: ``demo``, ``presets``, the ``bench`` commands,
``tournament``, ``replay`` and ``agents``, and ``play`` (a match against an agent).

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

from . import agents
from .agents.human import HumanAgent, PlayerLeft
from .bench import (
    PLAYOUT_DEALS_LIMIT,
    bench_agent,
    bench_api,
    bench_core,
    bench_openspiel,
    bench_solver,
    bench_tournament,
    bench_tree,
    compare_with_c,
)
from .checks import check_integer, check_seed
from .experiments.plots import save_plots
from .experiments.store import ResultsConflict
from .experiments.summary import summarize
from .experiments.tournament import (
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
from .game import Game
from .rules import BOOL_OPTIONS, MINI_PRESETS, OPTION_NAMES, PRESETS, make_rules

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

    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
