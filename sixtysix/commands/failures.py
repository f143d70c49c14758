"""How a command reports a failure that argparse could not foresee: one line on stderr, as
argparse words its errors, and an exit code."""

from __future__ import annotations

import argparse
import sys

from sixtysix.experiments.batch_backends import TournamentError
from sixtysix.experiments.store import ResultsConflict
from sixtysix.experiments.tournament import TournamentInterrupted

#: What a long run (a tournament, a harvest, an evaluation) may end with; ``run_failed`` says.
RUN_ERRORS = (ResultsConflict, TournamentError, TournamentInterrupted, OSError)


def failed(command: argparse.ArgumentParser, error: BaseException, code: int) -> int:
    """Print ``error`` as the command's error; ``code``."""
    print(f"{command.prog}: error: {error}", file=sys.stderr)
    return code


def run_failed(command: argparse.ArgumentParser, error: BaseException) -> int:
    """Report one of ``RUN_ERRORS``: exit code 2 for results of another configuration, 128 +
    the signal for an interruption (130 for Ctrl-C, 143 for SIGTERM), 1 for a failed batch or
    a failed write."""
    if isinstance(error, ResultsConflict):
        return failed(command, error, 2)
    if isinstance(error, TournamentInterrupted):
        return failed(command, error, error.exit_code)
    return failed(command, error, 1)
