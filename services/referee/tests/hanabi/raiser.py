"""A class bot that raises where it is told, for the fault tests: `raiser.py:Raiser("onHintColor",
"tag")` raises `RuntimeError("tag raised in onHintColor")` the first time that listener (or
`turn`) is called; `Raiser()` never raises. `Raiser(..., linger=True)` also keeps a thread
running (not a daemon), as bots with a background worker do: a crash must not wait for it.

Every listener gets called within the first two rounds: on its own turns it hints the next
player's first card, its colour (red for a rainbow card, which is never named) and then its
number, then plays its first card. Nobody plays or discards during the first two rounds, so
those hints always touch the cards dealt in `onStart`, wherever drawn cards go later.
"""
import threading
import time

from basePlayer import basePlayer
from game import action, actions, colors

LISTENERS = ("onStart", "onGameEnd", "onTurnStart", "onHintColor", "onHintNumber", "onPlayerAction")


class Raiser(basePlayer):
    def __init__(self, where=None, tag="raiser", linger=False):
        super().__init__()
        if linger:
            threading.Thread(target=time.sleep, args=(600,)).start()
        self.where, self.tag, self.turns = where, tag, 0
        for name in LISTENERS:
            getattr(self, name).append(lambda *args, name=name, **kwargs: self.reached(name))
        self.onStart.append(self.start)

    def reached(self, name):
        if name == self.where:
            raise RuntimeError("%s raised in %s" % (self.tag, name))

    def start(self, handStatus):
        self.hands = handStatus
        self.me = next(i for i, row in enumerate(handStatus) if all(c.number == -1 for c in row))

    def turn(self):
        self.reached("turn")
        self.turns += 1
        target = (self.me + 1) % len(self.hands)
        first = self.hands[target][0]
        if self.turns == 1:
            color = first.color.value
            return action(actions.hintColor, target, color=colors(color if color < 5 else 0))
        if self.turns == 2:
            return action(actions.hintNumber, target, number=first.number)
        return action(actions.play, 0)
