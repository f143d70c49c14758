"""``tournament``, ``replay`` and ``report``: play a duplicate tournament into a results
file, re-play one of its deals, and summarize it."""

from __future__ import annotations

import argparse
import os
from functools import partial

from sixtysix.experiments.tournament import (
    DEFAULT_AGENTS,
    DEFAULT_DEALS,
    TournamentConfig,
    read_results,
    replay_row,
    run_tournament,
)
from sixtysix.experiments.tournament_plots import save_plots
from sixtysix.experiments.tournament_summary import summarize

from .arguments import (
    add_command,
    add_count,
    add_preset,
    add_rules,
    add_seed,
    agent_spec,
    integer_type,
    refuse_workers_with_scheduler,
    results_file,
    scheduler_address,
    time_limit_type,
    unwritable,
)
from .failures import RUN_ERRORS, run_failed

# ---- tournament ------------------------------------------------------------------------------


def add_tournament(commands) -> None:
    """``tournament``: every pair of agents plays the same deals, seats swapped."""
    tournament = add_command(
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
        type=agent_spec,
        default=list(DEFAULT_AGENTS),
        metavar="SPEC",
        help="two or more agent specs: a built-in name (see 'sixtysix agents'), "
        "name:key=value,... or module.path:ClassName[:key=value,...] "
        f"(default: {' '.join(DEFAULT_AGENTS)})",
    )
    units = tournament.add_mutually_exclusive_group()
    add_count(units, "deals", DEFAULT_DEALS, "deals per pairing, each played in both seatings")
    units.add_argument(
        "--matches",
        type=integer_type("matches"),
        help="play this many matches per pairing (each in both seatings) instead of deals "
        "(default: none, play deals)",
    )
    add_preset(tournament, "sixty_six")
    add_seed(tournament, "seed of the tournament, from which every deal seed derives", 0)
    add_tournament_run_options(tournament)
    tournament.add_argument(
        "--time-limit",
        type=time_limit_type,
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
    add_rules(tournament, "claim_mode=manual", "; 'sixtysix presets NAME' lists the options")
    tournament.set_defaults(run=partial(run_tournament_command, tournament))


def add_tournament_run_options(tournament: argparse.ArgumentParser) -> None:
    """Where the tournament runs and where its results go: ``--workers``, ``--scheduler``,
    ``--out``, ``--force`` and ``--quiet``."""
    tournament.add_argument(
        "--workers",
        type=integer_type("workers"),
        help="local worker processes; 1 plays in this process "
        f"(default: one per CPU, {os.cpu_count()})",
    )
    tournament.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="tcp://HOST:PORT",
        help="run the batches on the Dask cluster of this scheduler instead of local workers "
        "(default: none, local workers)",
    )
    tournament.add_argument(
        "--out",
        type=results_file,
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


def run_tournament_command(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Play the tournament into ``args.out``; print its summary."""
    refuse_workers_with_scheduler(command, args)
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
    except RUN_ERRORS as error:
        return run_failed(command, error)
    print_summary(args.out)
    return 0


def print_summary(path: str, markdown: bool = False, plots: bool = True) -> None:
    """Print the summary tables of a results file and save its plots beside it."""
    results = read_results(path)  # the rows alone: no agent module needs to be importable
    summary = summarize(results)
    figures = save_plots(path, summary) if plots else ()  # saved first: output may be cut
    print(f"tournament {results['tournament_id'].iloc[0]}: {len(results)} deals in {path}\n")
    print(summary.to_markdown() if markdown else summary.to_text())
    if figures:
        print("\nplots: " + ", ".join(map(str, figures)))


# ---- replay and report -----------------------------------------------------------------------


def add_replay(commands) -> None:
    """``replay``: one deal of a results file, move by move."""
    replay = add_command(
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
        type=integer_type("row", 0),
        default=0,
        help="the row to replay, 0 for the first (default: %(default)s)",
    )
    replay.set_defaults(run=partial(run_replay, replay))


def run_replay(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print the replayed deal; exit code 1 if it ends otherwise than its row says."""
    refuse_missing_results(command, args.results)
    try:
        replayed = replay_row(args.results, args.row)
    except ValueError as error:
        command.error(str(error))
    print(replayed.text)
    return 1 if replayed.differences else 0


def add_report(commands) -> None:
    """``report``: the summary of a results file."""
    report = add_command(
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
    report.set_defaults(run=partial(run_report, report))


def run_report(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print the summary of ``args.results`` (and save its plots beside it)."""
    refuse_missing_results(command, args.results)
    reason = unwritable(os.path.dirname(args.results)) if args.plots else None
    if reason:
        command.error(
            f"argument --plots: cannot save the plots beside {args.results!r}: {reason}: "
            "leave out --plots, or copy the results into a folder you can write to"
        )
    try:
        print_summary(args.results, args.markdown, args.plots)
    except ValueError as error:
        command.error(str(error))
    return 0


def refuse_missing_results(command: argparse.ArgumentParser, path: str) -> None:
    """Refuse a results file that does not exist."""
    if not os.path.isfile(path):
        command.error(f"argument RESULTS: no such file: {path!r}")
