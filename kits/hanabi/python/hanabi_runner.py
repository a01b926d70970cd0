#!/usr/bin/env python3
"""Croupier's runner for class-based Hanabi bots (the seed's `player(basePlayer)` form).

Usage: python3 hanabi_runner.py [BOT_DIR] [--rainbow] [--url ws://127.0.0.1:9999/]

It imports `player` from BOT_DIR (default: the current directory; helper modules beside it
are importable, numpy is available), creates `player()` with no arguments, connects to the
match server and plays one game: every server message becomes the listener calls of the seed
(§2.3), and each `turn` is answered with what `turn()` returns. Croupier's own `game`,
`gameRainbow` and `basePlayer` modules (next to this file) come first on `sys.path`, so a copy
of the original modules in BOT_DIR is not used. An exception in your code ends the bot (its
traceback is on stderr): the seat is recorded as crashed.
"""
import importlib
import json
import os
import sys

import websocket  # websocket-client, installed for the bot runtime's /usr/bin/python3

import _hanabi_core as core


def options(argv):
    bot_dir, url, rainbow = os.getcwd(), "ws://127.0.0.1:9999/", False
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--rainbow":
            rainbow = True
        elif arg == "--url" and args:
            url = args.pop(0)
        else:
            bot_dir = arg
    return bot_dir, url, rainbow


def colour_enum(rainbow):
    """The `colors` the player compares against: gameRainbow's in a rainbow game, else the one
    module it imported (IntEnums: members of both compare equal by value)."""
    if rainbow or ("gameRainbow" in sys.modules and "game" not in sys.modules):
        return importlib.import_module("gameRainbow").colors
    return importlib.import_module("game").colors


class Bridge:
    """Turns server messages into listener calls of one player object."""

    def __init__(self, me, colors):
        self.me, self.colors = me, colors

    def call(self, name, *args, **kwargs):
        for listener in list(getattr(self.me, name, None) or []):
            listener(*args, **kwargs)

    def card(self, pair):
        return core.card(self.colors(pair[0]), pair[1])

    def cards(self, row_color, row_number):
        return [core.card(self.colors(c), n) for c, n in zip(row_color, row_number)]

    def handle(self, msg):
        """Handles one message; returns the answer to send, if any."""
        event = msg.get("event")
        if event == "onStart":
            hands = [self.cards(c, n) for c, n in zip(msg["handColor"], msg["handNumber"])]
            self.call("onStart", hands)
        elif event == "onTurnStart":
            self.call("onTurnStart", msg["index"])
        elif event == "turn":
            return self.encode(self.me.turn())
        elif event in ("onHintColor", "onHintNumber"):
            self.call(event, self.cards(msg["hintColor"], msg["hintNumber"]))
        elif event == "onPlayerAction":
            kind = core.actions(msg["actionType"])
            extra = {}
            if "color" in msg:
                extra["color"] = self.colors(msg["color"])
            if "number" in msg:
                extra["number"] = msg["number"]
            played = core.action(kind, msg["target"], **extra)
            cards = {k: self.card(msg[k]) for k in ("play", "discard", "draw") if k in msg}
            self.call("onPlayerAction", msg["index"], played, **cards)
        elif event == "onGameEnd":
            reason = msg["reason"]
            if reason in set(e.value for e in core.endgames):
                reason = core.endgames(reason)
            self.call("onGameEnd", reason, msg["score"])
        return None

    @staticmethod
    def encode(a):
        if a is None:
            raise TypeError("turn() returned None instead of an action")
        as_int = lambda v: None if v is None else int(getattr(v, "value", v))
        return {
            "actionType": as_int(a.actionType),
            "target": as_int(a.target),
            "color": as_int(getattr(a, "color", None)),
            "number": as_int(getattr(a, "number", None)),
        }


def main(argv):
    bot_dir, url, rainbow = options(argv)
    bot_dir = os.path.abspath(bot_dir)
    sys.path.insert(1, bot_dir)  # after this file's directory: Croupier's game modules win
    submitted = importlib.import_module("player")
    me = submitted.player()
    bridge = Bridge(me, colour_enum(rainbow))
    conn = websocket.create_connection(url)
    try:
        while True:
            frame = conn.recv()
            if not frame:
                sys.exit("the match server closed the connection before onGameEnd")
            msg = json.loads(frame)
            answer = bridge.handle(msg)
            if answer is not None:
                conn.send(json.dumps(answer))
            if msg.get("event") == "onGameEnd":
                return
    finally:
        conn.close()


if __name__ == "__main__":
    main(sys.argv[1:])
