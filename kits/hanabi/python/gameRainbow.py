"""The seed's `gameRainbow` module: `game` with the rainbow variant (a sixth colour, 10 cards,
touched by every colour hint, never named in a hint, built on its own stack)."""
from enum import IntEnum

from _hanabi_core import actions, endgames, invalidAction, card, action, baseGame

__all__ = ["colors", "actions", "endgames", "invalidAction", "card", "action", "game"]


class colors(IntEnum):
    unknown = -1
    red = 0
    yellow = 1
    blue = 2
    green = 3
    white = 4
    rainbow = 5


class game(baseGame):
    """Six colours, 60 cards."""

    colors = colors
    rainbow = True
