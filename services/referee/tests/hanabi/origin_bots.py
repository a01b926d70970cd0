"""Class bots written for the original 《控制论合作者》 platform, using only the origin's public
names: `colors.red`, `actions.play`, `endgames.emtpyDeck`, `card(...).copy()`, listener
keywords `play=` / `discard=` / `draw=`. `GAME` is replaced by `game` or `gameRainbow`.

Every listener checks the types and call shapes the origin's game class uses and raises if
one is off (the seat then crashes); at the end the bot prints `ORIGIN OK <class> ...`.

The bots model every hand the origin's way (`game.py`: the drawn card takes the played slot,
`hands[i][target] = draw`; with the deck empty the slot is popped) and check the model on every
move they see: the card another player plays or discards must be the one the model holds in
that slot, and a hint to another player must touch a card of the model. A mismatch raises.
"""
import sys

from basePlayer import basePlayer
from GAME import action, actions, card, colors, endgames, invalidAction

RAINBOW = next((c for c in colors if c.value == 5), None)


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
        self.checks, self.deck, self.rainbow = 0, 0, any(c.value == 5 for c in colors)

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
        kinds = len([c for c in colors if c.value >= 0])
        self.deck = 10 * kinds - sum(len(row) for row in handStatus)

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
                touched = [c for c in self.hands[playerAction.target]
                           if (kind == actions.hintColor and c.color in (playerAction.color, RAINBOW))
                           or (kind == actions.hintNumber and c.number == playerAction.number)]
                self.checks += 1
                check(touched, "player %d's hint to %d touches nothing in my model of the hand: %r"
                      % (index, playerAction.target, self.hands[playerAction.target]))
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
        slot = playerAction.target
        if index != self.me:
            held = self.hands[index][slot]
            self.checks += 1
            check(held.color == c.color and held.number == c.number,
                  "player %d's %s from slot %d was %r; my model of the hand holds %r there: %r"
                  % (index, moved, slot, c, held, self.hands[index]))
        if kind == actions.play and self.stacks.get(c.color, 0) == c.number - 1:
            self.stacks[c.color] = c.number
            # gameRainbow.py returns a token for a 5 even at 8; game.py only below 8.
            if c.number == 5 and (self.hints < 8 or self.rainbow):
                self.hints += 1
        elif kind == actions.discard:
            self.hints += 1
        drew = kwargs["draw"]
        if index == self.me:
            check(drew.color == colors.unknown and drew.number == -1, "own draw %r" % drew)
        else:
            check((drew.number == 0) == (self.deck == 0), "draw %r with %d cards left" % (drew, self.deck))
        if self.deck > 0:
            self.deck -= 1
            self.hands[index][slot] = drew.copy()
            self.known[index][slot] = [None, None]
        else:
            del self.hands[index][slot]
            del self.known[index][slot]

    def ended(self, reason, score):
        check(isinstance(reason, endgames), "reason %r" % reason)
        check(reason in (endgames.emtpyDeck, endgames.maxScore) or reason.value == 0, "reason")
        print("ORIGIN OK %s %s reason=%s score=%d checks=%d"
              % (type(self).__name__, self.describe(), reason.name, score, self.checks), file=sys.stderr)

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


class selfhinter(careful):
    """Once a hint told it a card's colour, hints itself that colour (the origin never checks a
    hint's target) and checks that its own hint touches that slot."""

    def __init__(self):
        super().__init__()
        self.asked = None

    def turn(self):
        if self.asked is None and self.hints > 0:
            for slot, (c, _) in enumerate(self.known[self.me]):
                if c is not None and c != colors.unknown and c != RAINBOW:
                    self.asked = (slot, c)
                    return action(actions.hintColor, self.me, color=c)
        return super().turn()

    def hinted(self, hintInfo):
        if self.asked is not None and self.asked[0] is not None:
            slot, c = self.asked
            check(hintInfo[slot].color == c, "my own hint of %r missed slot %d: %r" % (c, slot, hintInfo))
            print("SELF HINT OK %s slot %d" % (c.name, slot), file=sys.stderr)
            self.asked = (None, c)
        super().hinted(hintInfo)
