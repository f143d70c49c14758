"""The player's view: what one player may know of a deal (to be written)."""

from __future__ import annotations


class PlayerView:
    """Placeholder until the view lands."""

    def __init__(self, state, player: int) -> None:
        raise NotImplementedError("PlayerView is being written")
