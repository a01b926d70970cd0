"""Croupier's shared core of `game` and `gameRainbow` (the seed's 《控制论合作者》 modules).

Do not import this module yourself: import `game` (or `gameRainbow`) as the seed describes.
The enums are plain `enum.Enum`s with the origin's names and values, as in the original files:
compare members with members (`c.color == colors.red`) or use `.value` (`colors.red.value == 0`).
`actions`, `card`, `action` and `invalidAction` are the same objects in both modules;
`colors` and `endgames` differ (gameRainbow adds `colors.rainbow` and names reason 0
`blackFuse`), so each module defines its own.
"""
import random
from enum import Enum


class actions(Enum):
    hintColor = 0
    hintNumber = 1
    play = 2
    discard = 3


class invalidAction(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message

    def __str__(self):
        return self.message


class card:
    def __init__(self, color, number):
        self.color = color
        self.number = number

    def copy(self):
        return card(self.color, self.number)

    def __repr__(self):
        return "card(%s, %s)" % (getattr(self.color, "name", self.color), self.number)


class action:
    """A turn: `actionType` (actions), `target` (a player for hints, a slot of one's own hand
    otherwise), `color` (hints of colour only) and `number` (hints of number only)."""

    def __init__(self, actionType, target, **kwargs):
        self.actionType = actionType
        self.target = target
        self.color = kwargs.get("color")
        self.number = kwargs.get("number")

    def __repr__(self):
        return "action(%s, %s, color=%s, number=%s)" % (
            getattr(self.actionType, "name", self.actionType), self.target,
            getattr(self.color, "name", self.color), self.number)


def value(x):
    """The plain value of an enum member (of any module's copy of the enum), or `x` itself."""
    return getattr(x, "value", x)


RAINBOW = 5


class baseGame:
    """The seed's `game` class: plays one local game between `players` (basePlayer objects),
    calling their listeners in the order the Croupier match server sends its messages."""

    colors = None  # set by game / gameRainbow
    endgames = None
    rainbow = False

    def __init__(self, players=None, **kwargs):
        self.players = list(players if players is not None else kwargs.get("players", []))
        if not 2 <= len(self.players) <= 5:
            raise ValueError("Hanabi is played by 2 to 5 players")
        kinds = [c for c in self.colors if c.value >= 0]
        self.deck = [card(c, n) for c in kinds for n in (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)]
        random.shuffle(self.deck)
        self.discard = []
        self.field = [[] for _ in kinds]
        self.maxScore = 5 * len(kinds)
        self.hints = 8
        self.error = 0
        self.hands = [[] for _ in self.players]
        self.score = 0

    def _listeners(self, p, name):
        return getattr(p, name, [])

    def openingHands(self):
        size = 5 if len(self.players) <= 3 else 4
        for hand in self.hands:
            for _ in range(size):
                hand.append(self.deck.pop())
        for i, p in enumerate(self.players):
            status = [[c.copy() if j != i else card(self.colors.unknown, -1) for c in hand]
                      for j, hand in enumerate(self.hands)]
            for f in self._listeners(p, "onStart"):
                f(status)

    def _touches(self, c, colour):
        return value(c.color) in (value(colour), RAINBOW)

    def _check(self, index, a):
        hand = self.hands[index]
        kind = actions(value(a.actionType))
        if kind in (actions.play, actions.discard):
            if not 0 <= a.target < len(hand):
                raise invalidAction("no card %s in your hand" % a.target)
            if kind == actions.discard and self.hints == 8:
                raise invalidAction("cannot discard with 8 hint tokens")
            return
        if self.hints <= 0:
            raise invalidAction("no hint token left")
        # A hint to oneself is legal, as in the origin (it never checks the target).
        if not 0 <= a.target < len(self.players):
            raise invalidAction("there is no player %s" % a.target)
        if kind == actions.hintColor:
            if a.color is None or not 0 <= value(a.color) <= 4:
                raise invalidAction("that colour cannot be named")
            touched = [c for c in self.hands[a.target] if self._touches(c, a.color)]
        else:
            touched = [c for c in self.hands[a.target] if c.number == a.number]
        if not touched:
            raise invalidAction("a hint must touch at least one card")

    def resolveTurn(self, index, player):
        a = player.turn()
        self._check(index, a)
        kind = actions(value(a.actionType))
        kwargs = {}
        drawn = None
        if kind in (actions.hintColor, actions.hintNumber):
            self.hints -= 1
            target = self.players[a.target]
            if kind == actions.hintColor:
                a.color = self.colors(value(a.color))
                info = [card(a.color if self._touches(c, a.color) else self.colors.unknown, -1)
                        for c in self.hands[a.target]]
                name = "onHintColor"
            else:
                info = [card(self.colors.unknown, a.number if c.number == a.number else -1)
                        for c in self.hands[a.target]]
                name = "onHintNumber"
            for f in self._listeners(target, name):
                f(info)
        else:
            c = self.hands[index][a.target]
            if kind == actions.play:
                stack = self.field[value(c.color)]
                if len(stack) == c.number - 1:
                    stack.append(c)
                    self.score += 1
                    # gameRainbow: a 5 always returns a token, even at 8.
                    if c.number == 5 and (self.rainbow or self.hints < 8):
                        self.hints += 1
                else:
                    self.error += 1
                    self.discard.append(c)
                kwargs["play"] = c
            else:
                self.discard.append(c)
                self.hints += 1
                kwargs["discard"] = c
            # The drawn card takes the played slot; with the deck empty the slot goes.
            drawn = self.deck.pop() if self.deck else None
            if drawn is not None:
                self.hands[index][a.target] = drawn
            else:
                self.hands[index].pop(a.target)
        for i, p in enumerate(self.players):
            extra = dict(kwargs)
            if "play" in kwargs or "discard" in kwargs:
                if i == index:
                    extra["draw"] = card(self.colors.unknown, -1)
                elif drawn is None:
                    extra["draw"] = card(self.colors.unknown, 0)
                else:
                    extra["draw"] = drawn.copy()
            for f in self._listeners(p, "onPlayerAction"):
                f(index, a, **extra)

    def _end(self, reason):
        for p in self.players:
            for f in self._listeners(p, "onGameEnd"):
                f(reason, self.score)
        return self.score

    def _turn(self, index):
        for p in self.players:
            for f in self._listeners(p, "onTurnStart"):
                f(index)
        self.resolveTurn(index, self.players[index])

    def checkEndgame(self, index):
        """The score if the game is over (after telling every player), else -1. As the origin:
        a third error ends the game (reason 0); once the deck is empty every player, the one
        who drew the last card last, takes one more turn, nothing checked in between, and the
        game ends with reason 1; otherwise every stack done ends it (reason 2)."""
        if self.error >= 3:
            return self._end(self.endgames(0))
        if not self.deck:
            for k in range(1, len(self.players) + 1):
                self._turn((index + k) % len(self.players))
            return self._end(self.endgames(1))
        if self.score >= self.maxScore:
            return self._end(self.endgames(2))
        return -1

    def start(self):
        self.openingHands()
        index = 0
        while True:
            self._turn(index)
            if self.checkEndgame(index) >= 0:
                return self.score
            index = (index + 1) % len(self.players)
