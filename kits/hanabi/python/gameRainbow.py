"""The seed's `gameRainbow` module: `game` with the rainbow variant (a sixth colour, 10 cards,
touched by every colour hint, never named in a hint, built on its own stack). As in the
origin, its `colors` adds `rainbow = 5` and its `endgames` names reason 0 `blackFuse`."""
from enum import Enum

from _hanabi_core import actions, invalidAction, card, action, baseGame

__all__ = ["colors", "actions", "endgames", "invalidAction", "card", "action", "game"]


class colors(Enum):
    unknown = -1
    red = 0
    yellow = 1
    blue = 2
    green = 3
    white = 4
    rainbow = 5


class endgames(Enum):
    blackFuse = 0  # the third error token
    emtpyDeck = 1  # the deck ran out and every player took one more turn
    maxScore = 2  # every stack is complete


class game(baseGame):
    """Six colours, 60 cards."""

    colors = colors
    endgames = endgames
    rainbow = True
