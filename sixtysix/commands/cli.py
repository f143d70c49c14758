"""The ``sixtysix`` command line: the top parser and ``main``, the console entry point.

Each command group registers its own subcommands and their handlers (``run``): ``demo``,
``presets``, ``agents`` and ``play`` in :mod:`.play_commands`, ``bench`` in
:mod:`.bench_commands`, ``tournament``, ``replay`` and ``report`` in
:mod:`.tournament_commands`, ``cfr`` in :mod:`.cfr_commands`, ``closing`` in
:mod:`.closing_commands` and ``vu-match`` in :mod:`.vu_commands`. Every bad argument is
refused by argparse (exit code 2, a message naming the bad value and what is valid), through
the checked types of :mod:`.arguments`.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import (
    bench_commands,
    cfr_commands,
    closing_commands,
    play_commands,
    tournament_commands,
    vu_commands,
)

DESCRIPTION = (
    "Sixty-Six and Schnapsen for game-AI research: play random demo deals, list the rule "
    "presets, run the benchmarks, and play, replay and list agents in tournaments."
)
EPILOG = "Run 'sixtysix COMMAND --help' for the options of a command."
#: The commands, in the order of the help.
COMMANDS = (
    play_commands.add_demo,
    play_commands.add_presets,
    bench_commands.add_bench,
    tournament_commands.add_tournament,
    tournament_commands.add_replay,
    tournament_commands.add_report,
    play_commands.add_agents,
    play_commands.add_play,
    cfr_commands.add_cfr,
    closing_commands.add_closing,
    vu_commands.add_vu_match,
)


def parser() -> argparse.ArgumentParser:
    """The ``sixtysix`` parser: every command, each with its handler as ``run``."""
    top = argparse.ArgumentParser(prog="sixtysix", description=DESCRIPTION, epilog=EPILOG)
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(commands)
    return top


def main(argv: list[str] | None = None) -> int:
    """Run the ``sixtysix`` command; its exit code."""
    if os.getcwd() not in sys.path:  # agent modules beside the user import, as with python -m
        sys.path.insert(0, os.getcwd())
    try:
        args = parser().parse_args(argv)
        return args.run(args)
    except BrokenPipeError:  # the reader closed the pipe (``sixtysix presets | head``)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return 1


if __name__ == "__main__":
    sys.exit(main())
