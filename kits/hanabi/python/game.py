"""The seed's `game` module (《控制论合作者》), as shipped by Croupier: the enums and classes a
`player` class imports, and a local `game` to try players against each other offline.

    from game import colors, actions, action, card, endgames, invalidAction

On Croupier your `player` plays over the match server's websocket (the runner calls your
listeners and `turn`); `game(players).start()` plays the same rules on your own machine.
"""
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


class game(baseGame):
    """Five colours, 50 cards."""

    colors = colors
    rainbow = False
