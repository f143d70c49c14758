"""Checks of user input shared by every layer: integers, seeds, counts, players.

Each check accepts Python and numpy integers alike (never a bool), returns a
plain ``int`` and raises a ``ValueError`` that names the bad value and what
is valid.
"""

from __future__ import annotations

import dataclasses
import numbers

import numpy as np


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to."""


SEED_LIMIT = 2**64  # seeds feed the 64-bit xoshiro256** stream: [0, 2**64)


def is_integer(value) -> bool:
    """A Python or numpy integer, but not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_integer(value, name: str, least: int | None = None, below: int | None = None) -> int:
    """``value`` as an int, if it is an integer in ``[least, below)`` (either end optional)."""
    in_range = is_integer(value) and (least is None or value >= least)
    in_range = in_range and (below is None or value < below)
    if not in_range:
        if least is not None and below is not None:
            valid = f"an integer in [{least}, {_power(below)})"
        elif least is not None:
            valid = f"an integer >= {least}"
        elif below is not None:
            valid = f"an integer < {_power(below)}"
        else:
            valid = "an integer"
        raise ValueError(f"invalid {name} {value!r}: {name} must be {valid}")
    return int(value)


def check_bool(value, name: str) -> bool:
    """``value`` as a bool, or a ValueError naming it: only True and False are valid."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"invalid {name} {value!r}: {name} must be true or false")
    return bool(value)


def check_seed(seed, name: str = "seed", span: int = 1) -> int:
    """A seed in ``[0, 2**64)``; with ``span`` n, seeds ``seed .. seed + n - 1`` must all fit."""
    return check_integer(seed, name, 0, SEED_LIMIT - span + 1)


def check_player(player, name: str = "player") -> int:
    """Player 0 or 1."""
    if not is_integer(player) or player not in (0, 1):
        raise ValueError(f"invalid {name} {player!r}: {name} must be player 0 or 1")
    return int(player)


def _power(limit: int) -> str:
    """``2**64`` rather than twenty digits, where a limit is near a power of two."""
    for exponent in (32, 63, 64):
        offset = limit - 2**exponent
        if -1000 < offset <= 0:
            return f"2**{exponent}" + (f" - {-offset}" if offset else "")
    return str(limit)


def normalize_numbers(frozen) -> None:
    """Turn a frozen dataclass's numpy integers and bools into Python ones, so equal rule
    sets compare and print alike."""
    for field in dataclasses.fields(frozen):
        value = getattr(frozen, field.name)
        if isinstance(value, np.bool_):
            object.__setattr__(frozen, field.name, bool(value))
        elif is_integer(value) and not isinstance(value, int):
            object.__setattr__(frozen, field.name, int(value))
