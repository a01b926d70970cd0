"""A copy of the origin's GAME.py, written from its public names (no game class needed here)."""
from enum import Enum

ORIGIN_COPY = True


class colors(Enum):
    unknown = -1
    red = 0
    yellow = 1
    blue = 2
    green = 3
    white = 4
    RAINBOW_MEMBER


class actions(Enum):
    hintColor = 0
    hintNumber = 1
    play = 2
    discard = 3


class endgames(Enum):
    REASON_ZERO = 0
    emtpyDeck = 1
    maxScore = 2


class invalidAction(Exception):
    def __init__(self, message):
        self.message = message

    def __str__(self):
        return self.message


class card:
    def __init__(self, color, number):
        self.color = color
        self.number = number

    def copy(self):
        return card(self.color, self.number)


class action:
    def __init__(self, actionType, target, **kwargs):
        self.actionType = actionType
        self.target = target
        self.color = kwargs.get("color")
        self.number = kwargs.get("number")
