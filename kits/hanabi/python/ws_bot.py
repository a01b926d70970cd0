#!/usr/bin/env python3
"""Hanabi starter bot for Croupier, speaking 《控制论合作者》's websocket protocol directly.

It connects to ws://127.0.0.1:9999 (the match server; any path), keeps track of the table from
the server's messages and answers every `turn` with one action:
  1. play a card it knows to be playable (colour and number hinted, or a hinted number every
     stack needs next);
  2. else, with a hint token, point out another player's playable card (number first, then
     colour);
  3. else discard the first card (by slot) it knows nothing about (never with all 8 tokens: then any
     legal hint).
Frames arrive as binary UTF-8 JSON; answers go back as text (both are accepted).

Usage: python3 ws_bot.py [--rainbow] [ws://127.0.0.1:9999/]
Needs websocket-client (installed on Croupier; `pip install websocket-client` locally).
"""
import json
import sys

import websocket

PLAY, DISCARD, HINT_COLOR, HINT_NUMBER = 2, 3, 0, 1


class Table:
    def __init__(self, rainbow):
        self.colors = 6 if rainbow else 5
        self.stacks = [0] * self.colors
        self.hints = 8
        self.hands = []  # [player][slot] = [colour, number]; own row all -1
        self.known = []  # [player][slot] = [colour, number] hinted so far, -1 unknown
        self.me = -1
        self.deck = 0

    def start(self, msg):
        self.hands = [[[c, n] for c, n in zip(rc, rn)] for rc, rn in zip(msg["handColor"], msg["handNumber"])]
        self.known = [[[-1, -1] for _ in row] for row in self.hands]
        self.me = next(i for i, row in enumerate(self.hands) if all(c[0] == -1 for c in row))
        self.deck = 10 * self.colors - sum(len(row) for row in self.hands)
        for row in self.hands:
            for c, _ in row:
                self.saw(c)

    def saw(self, c):
        """A rainbow card means the rainbow deck: 10 more cards, a sixth stack."""
        if c == 5 and self.colors == 5:
            self.colors, self.deck = 6, self.deck + 10
            self.stacks.append(0)

    def playable(self, c, n):
        return 0 <= c < self.colors and self.stacks[c] == n - 1

    def hinted(self, target, color=None, number=None):
        for slot, (c, n) in enumerate(self.hands[target]):
            if color is not None and (c == color or c == 5):
                self.known[target][slot][0] = color if c != 5 else 5
            if number is not None and n == number:
                self.known[target][slot][1] = number

    def own_hint(self, msg):
        for slot, (c, n) in enumerate(zip(msg["hintColor"], msg["hintNumber"])):
            if c >= 0:
                self.known[self.me][slot][0] = c
            if n >= 0:
                self.known[self.me][slot][1] = n

    def action(self, msg):
        who, kind, target = msg["index"], msg["actionType"], msg["target"]
        if kind == HINT_COLOR:
            self.hints -= 1
            if target != self.me:
                self.hinted(target, color=msg["color"])
            return
        if kind == HINT_NUMBER:
            self.hints -= 1
            if target != self.me:
                self.hinted(target, number=msg["number"])
            return
        c, n = msg["play"] if kind == PLAY else msg["discard"]
        self.saw(c)
        self.saw(msg["draw"][0])
        if kind == PLAY and self.playable(c, n):
            self.stacks[c] += 1
            if n == 5 and (self.hints < 8 or self.colors == 6):  # rainbow: a 5 always returns one
                self.hints += 1
        elif kind == DISCARD:
            self.hints += 1
        # The drawn card takes the played slot; with the deck empty the slot goes. (The actor's
        # own draw is [-1,-1]; others see [-1,0] once the deck is empty.)
        if self.deck > 0:
            self.deck -= 1
            self.hands[who][target] = list(msg["draw"])
            self.known[who][target] = [-1, -1]
        else:
            del self.hands[who][target]
            del self.known[who][target]

    def choose(self):
        mine = self.known[self.me]
        for slot, (c, n) in enumerate(mine):
            if n > 0 and (self.playable(c, n) or (c < 0 and all(s == n - 1 for s in self.stacks))):
                return {"actionType": PLAY, "target": slot}
        players = len(self.hands)
        if self.hints > 0:
            for step in range(1, players):
                p = (self.me + step) % players
                for slot, (c, n) in enumerate(self.hands[p]):
                    if not self.playable(c, n):
                        continue
                    kc, kn = self.known[p][slot]
                    if kn < 0:
                        return {"actionType": HINT_NUMBER, "target": p, "number": n}
                    if kc < 0 and c != 5:
                        return {"actionType": HINT_COLOR, "target": p, "color": c}
        if self.hints < 8:
            fresh = [s for s, k in enumerate(mine) if k == [-1, -1]]
            return {"actionType": DISCARD, "target": fresh[0] if fresh else 0}
        p = (self.me + 1) % players
        return {"actionType": HINT_NUMBER, "target": p, "number": self.hands[p][0][1]}


def main(argv):
    rainbow = "--rainbow" in argv
    urls = [a for a in argv if a.startswith("ws")]
    conn = websocket.create_connection(urls[0] if urls else "ws://127.0.0.1:9999/")
    table = Table(rainbow)
    while True:
        msg = json.loads(conn.recv())
        event = msg["event"]
        if event == "onStart":
            table.start(msg)
        elif event in ("onHintColor", "onHintNumber"):
            table.own_hint(msg)
        elif event == "onPlayerAction":
            table.action(msg)
        elif event == "turn":
            conn.send(json.dumps(table.choose()))
        elif event == "onGameEnd":
            print("game over: reason %s, score %s" % (msg["reason"], msg["score"]), file=sys.stderr)
            conn.close()
            return


if __name__ == "__main__":
    main(sys.argv[1:])
