"""``vu-match``: agents against VU's RdeepBot (or another VU bot) inside the VU engine
(:mod:`sixtysix.experiments.vu_match`)."""

from __future__ import annotations

import argparse
import time
from functools import partial
from pathlib import Path

from sixtysix.experiments import vu_match

from .arguments import add_command, add_count, add_seed, agent_spec, integer_type, results_file
from .failures import RUN_ERRORS, run_failed

DEFAULT_OUT = "results/vu_match.parquet"


def add_vu_match(commands) -> None:
    """``vu-match``: each agent against a VU bot on the same duplicate deals."""
    command = add_command(
        commands,
        "vu-match",
        "play agents against VU's RdeepBot (or another VU bot) inside VU's own engine "
        "(vu_schnapsen rules)",
        "Each agent plays the same seeded deals against a bot of the VU platform (PyPI "
        "schnapsen, installed by pip install -e '.[dev]'), by default RdeepBot(samples, depth) "
        "(see --rival), once as VU's first "
        "leader and once as the other player, in VU's unmodified engine. Prints each agent's "
        "share of deals won and game points with 95% intervals over the duplicate pairs and "
        "both sides' time per decision; writes the rows to --out and a plot beside it. Rerun "
        "an interrupted command to complete it.",
    )
    command.add_argument(
        "--agents",
        nargs="+",
        type=agent_spec,
        default=["ismcts"],
        metavar="SPEC",
        help="agent specs (see 'sixtysix agents'; default: ismcts)",
    )
    add_count(command, "deals", 100, "duplicate pairs of deals per agent")
    add_seed(command, "seed of the match, from which every deal seed derives", 0)
    add_count(command, "samples", vu_match.DEFAULT_SAMPLES, "RdeepBot's samples per move")
    add_count(command, "depth", vu_match.DEFAULT_DEPTH, "RdeepBot's rollout depth in tricks")
    command.add_argument(
        "--rival",
        choices=vu_match.RIVALS,
        default=vu_match.RIVALS[0],
        help="the VU bot: rdeep is RdeepBot(samples, depth); rdeep-alphabeta is RdeepBot while "
        "the talon is open and the exact AlphaBetaBot after; bully is BullyBot; rand is RandBot "
        "(default: %(default)s)",
    )
    command.add_argument(
        "--out",
        type=results_file,
        default=DEFAULT_OUT,
        help="the results file (default: %(default)s)",
    )
    command.add_argument(
        "--workers",
        type=integer_type("workers"),
        default=1,
        help="local worker processes; 1 plays in this process (default: %(default)s)",
    )
    command.add_argument(
        "--allow-cheating",
        action="store_true",
        help="admit agents that see hidden cards (such as open-hand), as references",
    )
    command.add_argument("--force", action="store_true", help="delete --out and start afresh")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.set_defaults(run=partial(run_vu_match, command))


def run_vu_match(command: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Play the match into ``args.out``; print its table and write its plot."""
    try:
        config = vu_match.VUMatchConfig(
            tuple(args.agents),
            args.deals,
            args.seed,
            args.samples,
            args.depth,
            args.rival,
            args.allow_cheating,
        )
    except ValueError as error:
        command.error(str(error))
    started = time.perf_counter()
    try:
        results = vu_match.run_vu_match(config, args.out, args.workers, args.force, args.quiet)
    except RUN_ERRORS as error:
        return run_failed(command, error)
    table = vu_match.summary(results)
    rival = config.rival_name
    seconds = time.perf_counter() - started
    print(f"{len(results)} deals against {rival} in {args.out} ({seconds:.1f} s)\n")
    print(vu_match.shown(table, rival).to_string())
    plot = Path(args.out).with_name(Path(args.out).stem + "-win-shares.png")
    vu_match.plot_win_shares(table, f"against {rival} in VU's engine", plot)
    print(f"\nplot: {plot}")
    return 0
