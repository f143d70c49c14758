"""The base class of the built-in agents."""

from __future__ import annotations

from sixtysix.engine.checks import check_seed


class Agent:
    """A player: ``act(view)`` returns one of ``view.legal_actions()``.

    Subclasses take ``seed`` and their parameters as keyword arguments. ``fast_policy``
    is the numba policy code (``sixtysix.agents.policies``) of an agent with a fast path,
    ``None`` for others; ``spec`` is the spec string that ``agents.make`` built it from.
    A ``cheating`` agent looks at hidden cards (a reference only): the protocol calls its
    ``act_on_state(state)`` with the true state, and tournaments refuse it unless allowed.
    An ``interactive`` one asks a person (tournaments refuse it).
    """

    fast_policy: int | None = None
    spec: str = ""
    cheating = False
    interactive = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = check_seed(seed)

    def act(self, view) -> str:
        raise NotImplementedError(f"{type(self).__name__} must implement act(view)")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec or '?'} seed={self.seed}>"


def strict_phase(view) -> bool:
    """Whether the talon of a two-player view is closed or exhausted: the cards must be
    followed."""
    return view.closed_by is not None or view.talon_size == 0
