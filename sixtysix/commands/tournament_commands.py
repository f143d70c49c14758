"""``tournament``, ``replay`` and ``report``: play a duplicate tournament into a results
file, re-play one of its deals, and summarize it; for two players
(``experiments.tournament``) or, with a multi-player preset, for three or four seats
(``experiments.table_tournament``)."""

from __future__ import annotations

import argparse
import os
from functools import partial

from sixtysix.experiments.table_plots import save_table_plots
from sixtysix.experiments.table_summary import summarize_table_file
from sixtysix.experiments.table_tournament import (
    TABLE_DEFAULT_AGENTS,
    TableTournamentConfig,
    is_table_results,
    read_table_results,
    replay_table_row,
    run_table_tournament,
)
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

from ..table_game import TABLE_PRESET_NAMES
from .arguments import (
    ALL_PRESETS,
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
        "goes to a Parquet file as batches finish: rerun an interrupted command to complete it. "
        "With a preset for three or four seats (snapszer3, snapszer4, na66, ...) every lineup "
        "plays each deal in every seating: in the fixed-partnership games (snapszer4, na66) "
        "each pair of agents as two teams, team A in seats 0 and 2 then in seats 1 and 3 "
        "(--mixed: mixed teams too); in the others every group of agents with at least two "
        "different ones, under every rotation of the seats (--permutations: every "
        "permutation).",
    )
    tournament.add_argument(
        "--agents",
        nargs="+",
        type=agent_spec,
        metavar="SPEC",
        help="two or more agent specs: a built-in name (see 'sixtysix agents'), "
        "name:key=value,... or module.path:ClassName[:key=value,...] "
        f"(default: {' '.join(DEFAULT_AGENTS)}; with a preset for three or four seats: "
        f"{' '.join(TABLE_DEFAULT_AGENTS)})",
    )
    units = tournament.add_mutually_exclusive_group()
    add_count(
        units,
        "deals",
        DEFAULT_DEALS,
        "deals per pairing, each played in both seatings (for three or four seats: per lineup, "
        "in every arrangement)",
    )
    units.add_argument(
        "--matches",
        type=integer_type("matches"),
        help="play this many matches per pairing (each in both seatings; for three or four "
        "seats: per lineup, in every arrangement) instead of deals, one row per deal of a "
        "match (default: none, play deals)",
    )
    add_preset(tournament, "sixty_six", [*ALL_PRESETS, *TABLE_PRESET_NAMES])
    tournament.add_argument(
        "--mixed",
        action="store_true",
        help="in the fixed-partnership presets (snapszer4, na66 and their minis): every pair "
        "of agents is also a team (A with B), and every two different teams play each other, "
        "to measure what a partner is worth (default: each team is one agent twice)",
    )
    tournament.add_argument(
        "--permutations",
        action="store_true",
        help="in the presets for three or four seats without fixed partners (snapszer3, the "
        "called-card games, na66_3): play each deal under every distinct permutation of the "
        "seated agents instead of every rotation",
    )
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
    if args.preset in TABLE_PRESET_NAMES:
        configure, run = table_config, run_table_tournament
    else:
        refuse_table_seating(command, args)
        configure, run = two_player_config, run_tournament
    try:
        config = configure(args)
    except ValueError as error:
        command.error(str(error))
    try:
        run(config, args.out, args.workers, args.scheduler, args.force, args.quiet)
    except RUN_ERRORS as error:
        return run_failed(command, error)
    print_summary(args.out)
    return 0


def two_player_config(args: argparse.Namespace) -> TournamentConfig:
    """The configuration of a tournament command with a two-player preset."""
    return TournamentConfig(
        agents=tuple(args.agents or DEFAULT_AGENTS),
        deals=None if args.matches else args.deals,
        matches=args.matches,
        preset=args.preset,
        overrides=dict(args.rule),
        seed=args.seed,
        time_limit=args.time_limit,
        allow_cheating=args.allow_cheating,
    )


def table_config(args: argparse.Namespace) -> TableTournamentConfig:
    """The configuration of a tournament command with a preset for three or four seats."""
    return TableTournamentConfig(
        preset=args.preset,
        overrides=dict(args.rule),
        agents=tuple(args.agents or TABLE_DEFAULT_AGENTS),
        deals=None if args.matches else args.deals,
        matches=args.matches,
        seed=args.seed,
        mixed=args.mixed,
        permutations=args.permutations,
        time_limit=args.time_limit,
        allow_cheating=args.allow_cheating,
    )


def refuse_table_seating(command: argparse.ArgumentParser, args) -> None:
    """``--mixed`` and ``--permutations`` need a preset for three or four seats."""
    for flag in ("mixed", "permutations"):
        if getattr(args, flag):
            command.error(
                f"argument --{flag}: not allowed with --preset {args.preset}: a two-player "
                "tournament plays each pair of agents in both seatings; --mixed is for the "
                "fixed-partnership presets (snapszer4, na66), --permutations for the other "
                "presets for three or four seats (snapszer3, the called-card games, na66_3)"
            )


def print_summary(path: str, markdown: bool = False, plots: bool = True) -> None:
    """Print the summary tables of a results file (of a tournament for two seats or for
    more) and save its plots beside it."""
    # the rows alone: no agent module needs to be importable
    if is_table_results(path):
        results = read_table_results(path)
        summary = summarize_table_file(path)
        figures = save_table_plots(path, summary) if plots else ()
    else:
        results = read_results(path)
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
        "stored in it, print the deal move by move with every hand, and check that it ends "
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
    replay = replay_table_row if is_table_results(args.results) else replay_row
    try:
        replayed = replay(args.results, args.row)
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
