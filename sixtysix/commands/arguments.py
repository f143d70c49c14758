"""The checked argparse types and the options that several commands share.

Every type refuses a bad value with an ``ArgumentTypeError`` whose message names the value
and what is valid, so argparse answers with exit code 2 and one line, before anything runs.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from sixtysix.experiments.tournament import check_scheduler, check_time_limit

from .. import agents
from ..engine import multi_rules
from ..engine.checks import check_integer, check_seed
from ..engine.rules import MINI_PRESETS, OPTION_NAMES, PRESETS, make_rules

ALL_PRESETS = [*PRESETS, *MINI_PRESETS]
#: Every rule option, of the two-player presets and then of those for more seats, with its
#: default value (whose type a ``--rule`` value takes).
RULE_DEFAULTS = {
    **{name: getattr(multi_rules.TableRules(), name) for name in multi_rules.OPTION_NAMES},
    **{name: getattr(make_rules(), name) for name in OPTION_NAMES},
}
RULE_NAMES = list(dict.fromkeys([*OPTION_NAMES, *multi_rules.OPTION_NAMES]))
WRITABLE = "give a path in a folder you can write to"


# ---- types -----------------------------------------------------------------------------------


def checked_type(check: Callable[[object], object], convert: type = int) -> Callable:
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


seed_type = checked_type(check_seed)
time_limit_type = checked_type(check_time_limit, float)  # seconds per decision: positive
scheduler_address = checked_type(check_scheduler, str)  # a Dask scheduler address


def integer_type(name: str, least: int = 1, below: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for an integer such as ``--deals``: at least ``least`` (and below
    ``below``)."""
    return checked_type(lambda value: check_integer(value, name, least, below))


def parsed_spec(spec: str) -> str:
    """``spec``, if ``agents.parse_spec`` accepts it."""
    agents.parse_spec(spec)
    return spec


def built_spec(spec: str) -> str:
    """``spec``, if the agent it names can be built (its parameter values are checked too)."""
    agents.make(spec, 0)
    return spec


agent_spec = checked_type(parsed_spec, str)
buildable_agent_spec = checked_type(built_spec, str)


def rule_override(text: str) -> tuple[str, object]:
    """An argparse ``type`` for ``OPTION=VALUE``, an option of any preset (the game checks
    that it is one of its preset's): the value typed as the option's default (``true``/``false``
    for on/off options, ``none`` for an unset number)."""
    name, equals, value = text.partition("=")
    if not equals or name not in RULE_DEFAULTS:
        raise argparse.ArgumentTypeError(
            f"invalid rule option {text!r}: write OPTION=VALUE with OPTION one of "
            f"{', '.join(RULE_NAMES)}"
        )
    default = RULE_DEFAULTS[name]
    if isinstance(default, bool):
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


# ---- where the outputs go --------------------------------------------------------------------


def unwritable(folder: str | os.PathLike) -> str | None:
    """Why no file can be written in ``folder`` (made first if missing), or None if it can:
    the nearest existing folder on its path is a file, or refuses a write."""
    existing = os.fspath(folder) or "."
    while not os.path.exists(existing):
        parent = os.path.dirname(existing) or "."
        if parent == existing:  # not even the current folder exists
            break
        existing = parent
    if not os.path.isdir(existing):
        return f"{existing!r} is a file, not a folder"
    try:
        tempfile.TemporaryFile(dir=existing).close()
    except OSError as error:
        return f"cannot write in {existing!r} ({error.strerror})"
    return None


def writable_output(what: str, path: str, folder: str | os.PathLike | None = None) -> str:
    """``path``, if its ``folder`` (by default the one it is in) can be made and written;
    else a ValueError naming ``what`` it is, the path and why."""
    reason = unwritable(Path(path).parent if folder is None else folder)
    if reason:
        raise ValueError(f"invalid {what} {path!r}: {reason}: {WRITABLE}")
    return path


def output_file(what: str, ending: str) -> Callable[[str], str]:
    """An argparse ``type`` for a file a command writes: a name ending in ``ending``, not a
    folder, in a folder that can be made and written."""

    def check(path: str) -> str:
        if not path.endswith(ending) or os.path.isdir(path):
            raise ValueError(
                f"invalid {what} {path!r}: give a file name ending in {ending}, "
                f"e.g. results/NAME{ending}"
            )
        return writable_output(what, path)

    return checked_type(check, str)


def check_run_folder(path: str) -> str:
    """A run folder (an MCCFR run's checkpoint and strategy): not a file, not a file name,
    and one that can be made and written."""
    if os.path.isfile(path) or path.endswith(".npz"):
        raise ValueError(
            f"invalid run folder {path!r}: give a folder for the checkpoint and the "
            "strategy, e.g. results/NAME"
        )
    return writable_output("run folder", path, path)


results_file = output_file("results file", ".parquet")
positions_file = output_file("positions file", ".parquet")
strategy_file = output_file("strategy file", ".npz")
output_stem = checked_type(lambda path: writable_output("output stem", path), str)
run_folder = checked_type(check_run_folder, str)


def check_default_output(command: argparse.ArgumentParser, option: str, what: str, path) -> None:
    """Refuse, as an error of ``option``, a default output ``path`` that cannot be written
    (for the outputs whose default depends on other arguments)."""
    try:
        writable_output(what, str(path))
    except ValueError as error:
        command.error(f"argument {option}: {error}")


# ---- options ---------------------------------------------------------------------------------


def add_command(commands, name: str, summary: str, description: str) -> argparse.ArgumentParser:
    """A subcommand with a one-line ``summary`` in its parent's help and a ``description``."""
    return commands.add_parser(name, help=summary, description=description)


def add_preset(command: argparse.ArgumentParser, default: str, choices=ALL_PRESETS) -> None:
    """``--preset``, one of ``choices``."""
    command.add_argument(
        "--preset",
        default=default,
        choices=choices,
        metavar="PRESET",
        help="rule preset, one of %(choices)s (default: %(default)s)",
    )


def add_count(
    command: argparse.ArgumentParser, name: str, default: int, meaning: str, below=None
) -> None:
    """``--NAME``, a count of at least 1 (and below ``below``), e.g. ``--deals``."""
    command.add_argument(
        f"--{name}",
        type=integer_type(name, 1, below),
        default=default,
        help=f"{meaning} (default: %(default)s)",
    )


def add_seed(command: argparse.ArgumentParser, meaning: str, default: int = 1) -> None:
    """``--seed``, with its ``meaning`` for this command."""
    command.add_argument(
        "--seed",
        type=seed_type,
        default=default,
        help=f"{meaning}, in [0, 2**64) (default: %(default)s)",
    )


def add_json(command: argparse.ArgumentParser) -> None:
    """``--json``: the result as one JSON object."""
    command.add_argument("--json", action="store_true", help="print one JSON object")


def add_rules(command: argparse.ArgumentParser, example: str, note: str = "") -> None:
    """``--rule OPTION=VALUE`` (repeatable), with an ``example`` and a ``note`` in its help."""
    command.add_argument(
        "--rule",
        action="append",
        type=rule_override,
        default=[],
        metavar="OPTION=VALUE",
        help=f"a rule option over the preset's, e.g. {example} (repeatable{note})",
    )


# ---- checks of several arguments together ----------------------------------------------------


def check_deal_seeds(command: argparse.ArgumentParser, seed: int, deals: int) -> None:
    """Deal seeds run from ``seed`` to ``seed + deals - 1``: all must be below 2**64."""
    try:
        check_seed(seed, span=deals)
    except ValueError:
        command.error(
            f"argument --seed: invalid seed {seed} for --deals {deals}: "
            "the deal seeds seed .. seed + deals - 1 must all be below 2**64"
        )


def refuse_workers_with_scheduler(command: argparse.ArgumentParser, args) -> None:
    """``--workers`` and ``--scheduler`` exclude each other."""
    if args.scheduler is not None and args.workers is not None:
        command.error(
            "argument --workers: not allowed with --scheduler: the Dask cluster's workers "
            "run the batches"
        )
