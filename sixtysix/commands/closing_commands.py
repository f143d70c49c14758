"""``closing harvest``, ``closing evaluate`` and ``closing analyze``: the close-the-talon
study (:mod:`sixtysix.experiments.closing_harvest`, :mod:`.closing_evaluation`)."""

from __future__ import annotations

import argparse
import json
import os
import time
from functools import partial
from pathlib import Path

from sixtysix.experiments import closing_evaluation, closing_harvest

from ..theory import closing_values
from .arguments import (
    add_command,
    add_count,
    add_json,
    add_preset,
    add_rules,
    add_seed,
    agent_spec,
    check_default_output,
    checked_type,
    integer_type,
    output_stem,
    positions_file,
    refuse_workers_with_scheduler,
    scheduler_address,
    unwritable,
)
from .failures import RUN_ERRORS, run_failed


def add_closing(commands) -> None:
    """``closing`` and its subcommands."""
    group = add_command(
        commands,
        "closing",
        "the close-the-talon study: harvest positions, score agents, analyze one position",
        "The close-the-talon study: harvest the positions where closing is legal from play, "
        "score agents' closing decisions against reference values, and analyze one position.",
    )
    closing_commands = group.add_subparsers(
        dest="closing_command", required=True, metavar="COMMAND"
    )
    add_harvest(closing_commands)
    add_evaluate(closing_commands)
    add_analyze(closing_commands)


def add_run_options(command: argparse.ArgumentParser, kept: str) -> None:
    """``--workers``, ``--scheduler``, ``--force`` (deletes ``kept``) and ``--quiet``."""
    command.add_argument(
        "--workers",
        type=integer_type("workers"),
        help=f"local worker processes; 1 works in this process (default: {os.cpu_count()})",
    )
    command.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="tcp://HOST:PORT",
        help="run the batches on the Dask cluster of this scheduler instead of local workers",
    )
    command.add_argument("--force", action="store_true", help=f"delete {kept} and start afresh")
    command.add_argument("--quiet", action="store_true", help="no progress bar")


def add_reference_options(command: argparse.ArgumentParser) -> None:
    """``--samples``, ``--worlds-limit``, ``--defense-worlds``, ``--defense-groups`` and
    ``--defense-nodes``: how the references value a position."""
    command.add_argument(
        "--samples",
        type=integer_type("samples"),
        default=closing_values.PIMC_SAMPLES,
        help="worlds the PIMC reference samples where the worlds are more than "
        "--worlds-limit (default: %(default)s)",
    )
    command.add_argument(
        "--worlds-limit",
        type=integer_type("worlds-limit", 0),
        default=closing_values.PIMC_LIMIT,
        metavar="N",
        help="the PIMC reference values every world where there are at most N "
        "(default: %(default)s)",
    )
    command.add_argument(
        "--defense-worlds",
        type=integer_type("defense-worlds", 0),
        default=closing_values.BEST_DEFENSE_WORLDS,
        metavar="N",
        help="solve the best-defense reference where there are at most N worlds (0: never; "
        "default: %(default)s)",
    )
    command.add_argument(
        "--defense-groups",
        type=checked_type(partial(closing_values.check_groups, name="defense-groups")),
        default=closing_values.BEST_DEFENSE_GROUPS,
        metavar="G",
        help="where there are more worlds than --defense-worlds, solve best defense on G "
        "uniform samples of that many worlds and report the mean with a 95%% interval (0: "
        "not at all; default: %(default)s)",
    )
    command.add_argument(
        "--defense-nodes",
        type=checked_type(partial(closing_values.check_max_nodes, name="defense-nodes")),
        default=closing_values.BEST_DEFENSE_NODES,
        metavar="N",
        help="... and only for options whose game tree has at most N nodes (default: %(default)s)",
    )


# ---- harvest ---------------------------------------------------------------------------------


def add_harvest(closing_commands) -> None:
    """``closing harvest``: the positions where closing is legal, from play."""
    harvest = add_command(
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
        type=agent_spec,
        required=True,
        metavar="SPEC",
        help="one or more agent specs (see 'sixtysix agents')",
    )
    add_count(harvest, "deals", closing_harvest.DEFAULT_HARVEST_DEALS, "deals per seating")
    add_preset(harvest, "sixty_six")
    add_seed(harvest, "seed of the harvest, from which every deal seed derives", 0)
    add_rules(harvest, "close_min_talon=4")
    harvest.add_argument(
        "--out",
        type=positions_file,
        help="the positions file (default: results/closing_PRESET.parquet)",
    )
    add_run_options(harvest, "the positions already at --out")
    harvest.set_defaults(run=partial(run_harvest, harvest))


def run_harvest(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Harvest into ``args.out``; print how many positions."""
    refuse_workers_with_scheduler(command, args)
    try:
        config = closing_harvest.HarvestConfig(
            tuple(args.agents), args.deals, args.preset, dict(args.rule), args.seed
        )
    except ValueError as error:
        command.error(str(error))
    out = args.out or f"results/closing_{args.preset}.parquet"
    if args.out is None:
        check_default_output(command, "--out", "positions file", out)
    started = time.perf_counter()
    try:
        table = closing_harvest.run_harvest(
            config, out, args.workers, args.scheduler, args.force, args.quiet
        )
    except RUN_ERRORS as error:
        return run_failed(command, error)
    closes = sum(table["closed"].to_pylist())
    print(
        f"harvest {config.harvest_id}: {table.num_rows} positions ({closes} closed by the "
        f"agent) from {config.deals} deals x {len(config.pairings)} seatings in {out} "
        f"({time.perf_counter() - started:.1f} s)"
    )
    return 0


# ---- evaluate --------------------------------------------------------------------------------


def add_evaluate(closing_commands) -> None:
    """``closing evaluate``: score agents' closing decisions at harvested positions."""
    evaluate = add_command(
        closing_commands,
        "evaluate",
        "score agents' closing decisions at harvested positions",
        "Value every position once with the PIMC reference (cached beside the positions "
        "as NAME.reference.parquet), ask every agent at every position (a fresh agent per "
        "position; cached per agent as NAME.decisions.parquet), and report agreement with "
        "the reference, game points lost per decision with 95% intervals, false and missed "
        "closes, by talon size and score: a Markdown table (printed and written to OUT.md), "
        "the scored decisions (OUT.parquet) and plots (OUT-loss.png, OUT-close-errors.png, "
        "OUT-references.png). On a mini preset, --equilibrium adds the CFR equilibrium of a "
        "'sixtysix cfr solve' strategy as a third reference.",
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
        type=agent_spec,
        default=["heuristic", "pimc", "dmcts", "ismcts"],
        metavar="SPEC",
        help="one or more agent specs (default: %(default)s)",
    )
    evaluate.add_argument(
        "--out",
        type=output_stem,
        metavar="STEM",
        help="where the outputs go, without an ending: STEM.md, STEM.parquet, STEM-*.png "
        "(default: NAME-quality beside the positions NAME.parquet)",
    )
    evaluate.add_argument(
        "--limit",
        type=integer_type("limit"),
        metavar="N",
        help="evaluate only the first N positions (default: all)",
    )
    evaluate.add_argument(
        "--max-talon",
        type=integer_type("max-talon", 2),
        metavar="N",
        help="evaluate only the positions with at most N talon cards (default: any)",
    )
    evaluate.add_argument(
        "--min-talon",
        type=integer_type("min-talon", 2),
        metavar="N",
        help="evaluate only the positions with at least N talon cards (default: any)",
    )
    add_reference_options(evaluate)
    evaluate.add_argument(
        "--equilibrium",
        metavar="STRATEGY.npz",
        help="a strategy file of 'sixtysix cfr solve' on the positions' mini preset: its "
        "equilibrium becomes a third reference (default: none)",
    )
    add_seed(evaluate, "seed of the agents and of the sampled worlds", 0)
    add_run_options(evaluate, "the cached reference values and decisions")
    evaluate.set_defaults(run=partial(run_evaluate, evaluate))


def run_evaluate(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Evaluate the agents at the positions; print the quality tables and the files."""
    refuse_workers_with_scheduler(command, args)
    try:
        config = closing_evaluation.EvaluationConfig(
            args.positions,
            tuple(args.agents),
            args.limit,
            args.max_talon,
            args.samples,
            args.worlds_limit,
            args.defense_worlds,
            args.defense_nodes,
            args.seed,
            args.equilibrium,
            args.min_talon,
            args.defense_groups,
        )
        positions = closing_harvest.read_positions(args.positions)
        closing_evaluation.check_equilibrium(args.equilibrium, positions)
    except ValueError as error:
        command.error(str(error))
    reason = unwritable(os.path.dirname(args.positions))
    if reason:  # the caches (and by default the outputs) go beside the positions
        command.error(
            f"argument --positions: cannot write the cached values beside {args.positions!r}: "
            f"{reason}: copy the positions into a folder you can write to"
        )
    started = time.perf_counter()
    try:
        evaluation = closing_evaluation.run_evaluation(
            config, args.out, args.workers, args.scheduler, args.force, args.quiet
        )
    except RUN_ERRORS as error:
        return run_failed(command, error)
    print(evaluation.to_markdown())
    seconds = time.perf_counter() - started
    print(f"\n({seconds:.1f} s) written: {', '.join(map(str, evaluation.files))}")
    return 0


# ---- analyze ---------------------------------------------------------------------------------


def add_analyze(closing_commands) -> None:
    """``closing analyze``: one position given as JSON."""
    analyze = add_command(
        closing_commands,
        "analyze",
        "analyze one closing position given as JSON",
        "Value closing and every alternative at one position, described from the leader's "
        "side in a JSON file (see docs/closing_positions.md), with both references, the "
        "number of worlds and a verdict.",
    )
    analyze.add_argument("position", metavar="POSITION.json", help="the position file")
    add_reference_options(analyze)
    add_seed(analyze, "seed of the sampled worlds", 0)
    add_json(analyze)
    analyze.set_defaults(run=partial(run_analyze, analyze))


def run_analyze(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print the analysis of the position, as text or as JSON."""
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
            groups=args.defense_groups,
        )
    except ValueError as error:
        command.error(f"argument POSITION.json: {error}")
    print(json.dumps(result) if args.json else closing_values.render(result))
    return 0
