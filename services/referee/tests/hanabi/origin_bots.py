"""Class bots written for the original 《控制论合作者》 platform, using only the origin's public
names: `colors.red`, `actions.play`, `endgames.emtpyDeck`, `card(...).copy()`, listener
keywords `play=` / `discard=` / `draw=`. `GAME` is replaced by `game` or `gameRainbow`.

Every listener checks the types and call shapes the origin's game class uses and raises if
one is off (the seat then crashes); at the end the bot prints `ORIGIN OK <class> ...`.
"""
import sys

from basePlayer import basePlayer
from GAME import action, actions, card, colors, endgames, invalidAction


def check(ok, what):
    if not ok:
        raise AssertionError(what)


class player(basePlayer):
    """The origin's template: reads each move from the console."""

    def __init__(self):
        super().__init__()
        self.onStart.append(self.started)
        self.onHintColor.append(self.hinted)
        self.onHintNumber.append(self.hinted)
        self.onPlayerAction.append(self.acted)
        self.onGameEnd.append(self.ended)
        self.hints, self.stacks, self.hands, self.known, self.me = 8, {}, [], [], -1

    def turn(self):
        kind, target = input("action target: ").split()
        return action(actions[kind], int(target))

    def started(self, handStatus):
        for row in handStatus:
            for c in row:
                check(isinstance(c.color, colors) and isinstance(c.number, int), "card %r" % c)
        self.me = next(i for i, row in enumerate(handStatus)
                       if all(c.color == colors.unknown and c.number == -1 for c in row))
        self.hands = [[c.copy() for c in row] for row in handStatus]
        self.known = [[[None, None] for _ in row] for row in handStatus]

    def hinted(self, hintInfo):
        for slot, c in enumerate(hintInfo):
            check(isinstance(c.color, colors), "hint %r" % c)
            if c.color != colors.unknown:
                self.known[self.me][slot][0] = c.color
            if c.number != -1:
                self.known[self.me][slot][1] = c.number

    def acted(self, index, playerAction, **kwargs):
        kind = playerAction.actionType
        check(isinstance(kind, actions), "actionType %r" % kind)
        if kind in (actions.hintColor, actions.hintNumber):
            check(kwargs == {}, "a hint has no cards: %r" % kwargs)
            if kind == actions.hintColor:
                check(isinstance(playerAction.color, colors), "hint colour")
            self.hints -= 1
            if playerAction.target != self.me:
                for slot, c in enumerate(self.hands[playerAction.target]):
                    k = self.known[playerAction.target][slot]
                    if kind == actions.hintColor and c.color == playerAction.color:
                        k[0] = c.color
                    if kind == actions.hintNumber and c.number == playerAction.number:
                        k[1] = c.number
            return
        moved = "play" if kind == actions.play else "discard"
        check(kind in (actions.play, actions.discard), "kind %r" % kind)
        check(sorted(kwargs) == sorted([moved, "draw"]), "keywords %r" % sorted(kwargs))
        c = kwargs[moved]
        check(isinstance(c, card) and isinstance(c.color, colors), "moved %r" % c)
        if kind == actions.play and self.stacks.get(c.color, 0) == c.number - 1:
            self.stacks[c.color] = c.number
            if c.number == 5 and self.hints < 8:
                self.hints += 1
        elif kind == actions.discard:
            self.hints += 1
        del self.hands[index][playerAction.target]
        del self.known[index][playerAction.target]
        drew = kwargs["draw"]
        if index == self.me:
            check(drew.color == colors.unknown and drew.number == -1, "own draw %r" % drew)
        if drew.number != 0:
            self.hands[index].append(drew.copy())
            self.known[index].append([None, None])

    def ended(self, reason, score):
        check(isinstance(reason, endgames), "reason %r" % reason)
        check(reason in (endgames.emtpyDeck, endgames.maxScore) or reason.value == 0, "reason")
        print("ORIGIN OK %s %s reason=%s score=%d" % (type(self).__name__, self.describe(), reason.name, score),
              file=sys.stderr)

    def describe(self):
        return ""


class careful(player):
    """Plays what it knows is playable, hints playable cards, else discards."""

    def playable(self, c, n):
        return c is not None and c != colors.unknown and self.stacks.get(c, 0) == n - 1

    def turn(self):
        for slot, (c, n) in enumerate(self.known[self.me]):
            if n is not None and self.playable(c, n):
                return action(actions.play, slot)
        players = len(self.hands)
        if self.hints > 0:
            for step in range(1, players):
                p = (self.me + step) % players
                for slot, c in enumerate(self.hands[p]):
                    kc, kn = self.known[p][slot]
                    if self.playable(c.color, c.number):
                        if kn is None:
                            return action(actions.hintNumber, p, number=c.number)
                        if kc is None and c.color.value < 5:
                            return action(actions.hintColor, p, color=c.color)
        if self.hints < 8:
            fresh = [s for s, k in enumerate(self.known[self.me]) if k == [None, None]]
            return action(actions.discard, fresh[0] if fresh else 0)
        p = (self.me + 1) % players
        return action(actions.hintNumber, p, number=self.hands[p][0].number)


class cautious(careful):
    """A subclass with a constructor parameter, chosen by the entry `FILE:cautious(0.3)`."""

    def __init__(self, hintP):
        super().__init__()
        self.hintP = hintP

    def describe(self):
        return "hintP=%r" % (self.hintP,)
