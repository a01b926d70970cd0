"""The seed's `game` module (《控制论合作者》), as shipped by Croupier: the enums and classes a
player class imports, and a local `game` to try players against each other offline.

    from game import colors, actions, action, card, endgames, invalidAction

The names and values are the origin's, enums included (plain `enum.Enum`s; `emtpyDeck` is the
origin's spelling). On Croupier your player plays over the match server's websocket (the
runner calls your listeners and `turn`); `game(players).start()` plays the same rules on your
own machine.
"""
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


class endgames(Enum):
    error = 0  # the third error token
    emtpyDeck = 1  # the deck ran out and every player took one more turn
    maxScore = 2  # every stack is complete


class game(baseGame):
    """Five colours, 50 cards."""

    colors = colors
    endgames = endgames
    rainbow = False
