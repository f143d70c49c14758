"""``cfr solve``, ``cfr exploitability`` and ``cfr train``: exact CFR on the mini presets,
the exploitability of any agent, and MCCFR over an abstraction of a full preset."""

from __future__ import annotations

import argparse
import json
import time
from functools import partial
from pathlib import Path

import numpy as np

from sixtysix.experiments import exploitability

from ..engine.rules import MINI_PRESETS
from ..theory import cfr, mccfr
from .arguments import (
    add_command,
    add_count,
    add_json,
    add_preset,
    add_seed,
    buildable_agent_spec,
    check_default_output,
    integer_type,
    run_folder,
    strategy_file,
)
from .failures import failed


def add_cfr(commands) -> None:
    """``cfr`` and its subcommands."""
    group = add_command(
        commands,
        "cfr",
        "counterfactual regret minimization: solve, exploitability, MCCFR training",
        "Counterfactual regret minimization: exact CFR and CFR+ over the whole game tree of a "
        "mini preset with exact best responses (solve), the exploitability of any agent on "
        "a mini preset (exploitability), and MCCFR over an abstraction of a full preset "
        "(train).",
    )
    cfr_commands = group.add_subparsers(dest="cfr_command", required=True, metavar="COMMAND")
    add_solve(cfr_commands)
    add_exploitability(cfr_commands)
    add_train(cfr_commands)


# ---- solve -----------------------------------------------------------------------------------


def add_solve(cfr_commands) -> None:
    """``cfr solve``: exact CFR or CFR+ on a mini preset into a strategy file."""
    solve = add_command(
        cfr_commands,
        "solve",
        "solve a mini preset with exact CFR or CFR+ into a strategy file",
        "Build the whole game tree of a mini preset (every deal, dealer 1) and run exact CFR+ "
        "or CFR on it, measuring the average strategy's exploitability as it goes (a progress "
        "bar); write the strategy and the curve to an .npz file (for the cfr:strategy=PATH "
        "agent) and the curve, log-log, to a .png beside it.",
    )
    add_preset(solve, "mini_2x3")
    add_count(solve, "iterations", 1000, "CFR iterations")
    solve.add_argument(
        "--variant",
        choices=cfr.VARIANTS,
        default="cfr+",
        help="cfr+ (regret matching+, linear averaging) or cfr (OpenSpiel's CFRSolver); both "
        "update the players alternately (default: %(default)s)",
    )
    solve.add_argument(
        "--eval-every",
        type=integer_type("eval-every"),
        help="measure the exploitability every K iterations, and after the last "
        "(default: iterations // 20)",
        metavar="K",
    )
    solve.add_argument(
        "--out",
        type=strategy_file,
        help="the strategy file (default: results/cfr_PRESET.npz)",
    )
    add_json(solve)
    solve.set_defaults(run=partial(run_solve, solve))


def run_solve(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Solve, write the strategy and its plot, and print the exploitability curve."""
    try:
        cfr.check_mini_preset(args.preset)
    except ValueError as error:
        command.error(f"argument --preset: {error}")
    out = args.out or f"results/cfr_{args.preset}.npz"
    if args.out is None:
        check_default_output(command, "--out", "strategy file", out)
    solution = cfr.solve(
        args.preset, args.iterations, args.variant, args.eval_every, progress=not args.json
    )
    try:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        path = solution.save(out)
        figure = solution.plot(path.with_suffix(".png"))
    except OSError as error:
        return failed(command, error, 1)
    if args.json:
        print(json.dumps(solution_summary(args, solution, path, figure)))
    else:
        print_solution(args, solution, path, figure)
    return 0


def solution_summary(args: argparse.Namespace, solution, path: Path, figure: Path) -> dict:
    """What ``cfr solve --json`` prints."""
    return {
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


def print_solution(args: argparse.Namespace, solution, path: Path, figure: Path) -> None:
    """The tree, a dozen points of the exploitability curve, and where it all went."""
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
        f"in {solution.seconds:.2f} s; strategy {path} ({path.stat().st_size:,} bytes), "
        f"plot {figure}"
    )


# ---- exploitability --------------------------------------------------------------------------


def add_exploitability(cfr_commands) -> None:
    """``cfr exploitability``: how much a best response wins against an agent."""
    command = add_command(
        cfr_commands,
        "exploitability",
        "the exploitability of any agent on a mini preset",
        "Tabulate the policy an agent plays at every information set of a mini preset's "
        "whole game tree (exactly from its policy(view) where it has one, else from the "
        "frequencies of --samples act() calls with different seeds) and compute the exact "
        "best response against it. The exploitability is the mean of the two best "
        "responses' values, in game points a deal (OpenSpiel's definition).",
    )
    add_preset(command, "mini_2x3", choices=tuple(MINI_PRESETS))
    command.add_argument(
        "--agent",
        type=buildable_agent_spec,
        required=True,
        metavar="SPEC",
        help="the agent, e.g. pimc, heuristic or cfr:strategy=results/cfr_mini_2x3.npz",
    )
    add_count(
        command,
        "samples",
        exploitability.DEFAULT_SAMPLES,
        "act() calls per decision of an agent without policy(view)",
    )
    add_seed(command, "the seed of the agent's seeds")
    add_json(command)
    command.set_defaults(run=partial(run_exploitability, command))


def run_exploitability(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print the agent's exploitability and the best responses' values."""
    try:
        result = exploitability.agent_exploitability(
            args.preset, args.agent, args.samples, args.seed, progress=not args.json
        )
    except ValueError as error:  # an agent that cannot be tabulated, or not for these rules
        return failed(command, error, 2)
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


# ---- train -----------------------------------------------------------------------------------


def capacity(text: str) -> int:
    """An argparse ``type`` for ``--capacity``: a power of two accepted by ``mccfr``."""
    try:
        value = int(text)
        mccfr.run_config("sixty_six", 0, value, 0)
    except ValueError as error:
        message = str(error) if text.lstrip("-").isdigit() else f"invalid capacity {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    return value


def add_train(cfr_commands) -> None:
    """``cfr train``: external-sampling MCCFR on a full preset, resumable."""
    train = add_command(
        cfr_commands,
        "train",
        "train an MCCFR strategy for a full preset over the abstraction of docs/abstraction.md",
        "External-sampling MCCFR (linear weighting, negative-regret pruning) over the "
        "information and action abstraction of docs/abstraction.md, with a progress bar. "
        "Checkpoints go to FOLDER/checkpoint.npz; running the same command again resumes "
        "there and continues to --iterations (another configuration is refused). The average "
        "strategy goes to FOLDER/strategy.npz, for the cfr:strategy=PATH agent.",
    )
    add_preset(train, "sixty_six")
    train.add_argument(
        "--iterations",
        type=integer_type("iterations"),
        required=True,
        help="iterations in all, counting those of a checkpoint (each deals one deck and "
        "traverses it once per player)",
    )
    train.add_argument(
        "--out", type=run_folder, required=True, metavar="FOLDER", help="the run folder"
    )
    add_seed(train, "seed of the run's random stream", 0)
    add_count(train, "checkpoint-every", 10_000, "iterations between checkpoints")
    train.add_argument(
        "--capacity",
        type=capacity,
        default=mccfr.DEFAULT_CAPACITY,
        help="slots of the regret table, a power of two (default: %(default)s)",
    )
    train.add_argument(
        "--prune-after",
        type=integer_type("prune-after", 0),
        default=1000,
        help="the iteration from which negative-regret pruning starts (default: %(default)s)",
    )
    add_json(train)
    train.set_defaults(run=partial(run_train, train))


def run_train(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Train (or resume) into ``args.out``; print what was trained."""
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
        return failed(command, error, 1)
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
