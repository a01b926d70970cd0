#!/usr/bin/env python3
"""Croupier's runner for class-based Hanabi bots (the seed's `basePlayer` subclass form).

Usage: python3 hanabi_runner.py [BOT_DIR] [--entry FILE[:CLASS[(ARGS)]]] [--rainbow]
                                [--url ws://127.0.0.1:9999/]

It imports FILE (default `player.py`) from BOT_DIR (default: the current directory; helper
modules beside it are importable, numpy is available), creates the player, connects to the
match server and plays one game: every server message becomes the listener calls of the seed
(§2.3), and each `turn` is answered with what `turn()` returns.

The player is CLASS called with ARGS (Python literals only: `cautious(0.3)`,
`tuned(depth=2, name="x")`); without CLASS, the class named `player`, else the only
`basePlayer` subclass the file defines. Croupier's own `game`, `gameRainbow` and `basePlayer`
modules (next to this file) come first on `sys.path`; a bot that loads its own copy of the
origin's `game.py` instead gets the cards, actions and enums of that copy, since the runner
takes them from whichever `game` / `gameRainbow` module is loaded once the bot is imported.
An exception in your code (loading the file, the constructor, a listener, `turn()`, or a
`turn()` that returns no action) ends the bot: the runner prints its traceback to stderr first
(flushed, with whatever the bot printed), then exits with status 1 without closing anything
else first, so the seat is recorded as crashed with the traceback in its log, even when the
game had already ended (a listener of `onGameEnd`, or several bots failing at once).
`sys.exit(n)` in your code exits with n. Exit status 0 means the bot played to `onGameEnd`.
"""
import ast
import importlib
import importlib.util
import inspect
import json
import os
import sys
import traceback

import websocket  # websocket-client, installed for the bot runtime's /usr/bin/python3

import _hanabi_core as core


def options(argv):
    bot_dir, url, rainbow, entry = os.getcwd(), "ws://127.0.0.1:9999/", False, "player.py"
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--rainbow":
            rainbow = True
        elif arg == "--url" and args:
            url = args.pop(0)
        elif arg == "--entry" and args:
            entry = args.pop(0)
        else:
            bot_dir = arg
    return bot_dir, url, rainbow, entry


def parse_call(text):
    """`Name` or `Name(literal, ..., key=literal)` → (name, args, kwargs). Arguments are Python
    literals, read with `ast.literal_eval`: nothing in the entry is ever executed."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as e:
        raise ValueError("the class in the entry is not `Name` or `Name(args)`: %r (%s)" % (text, e.msg))
    if isinstance(node, ast.Name):
        return node.id, [], {}
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        raise ValueError("the class in the entry is not `Name` or `Name(args)`: %r" % text)
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                raise ValueError("**")
            kwargs[k.arg] = ast.literal_eval(k.value)
    except ValueError:
        raise ValueError("the arguments of %s in the entry must be Python literals (numbers, strings, "
                         "lists, dicts, True/False/None): %r" % (node.func.id, text))
    return node.func.id, args, kwargs


def load(bot_dir, file):
    """Imports FILE of BOT_DIR under its own name (`player.py` → module `player`)."""
    path = os.path.join(bot_dir, file)
    name = os.path.splitext(os.path.basename(file))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def player_classes(module):
    """The classes `module` defines (not imports) that derive from a `basePlayer`."""
    found = []
    for name, obj in vars(module).items():
        if inspect.isclass(obj) and obj.__module__ == module.__name__:
            if any(b.__name__ == "basePlayer" for b in obj.__mro__[1:]):
                found.append(name)
    return found


def choose(module, file, call):
    """The class that plays and its arguments, from the entry's CLASS part (or None)."""
    subclasses = player_classes(module)
    if call is not None:
        name, args, kwargs = parse_call(call)
        cls = getattr(module, name, None)
        if not inspect.isclass(cls):
            sys.exit("the entry names class %s, but %s has no class %s (its basePlayer classes: %s)"
                     % (name, file, name, ", ".join(subclasses) or "none"))
        return cls, args, kwargs
    cls = getattr(module, "player", None)
    if inspect.isclass(cls):
        others = [c for c in subclasses if c != "player"]
        if others:
            print("playing class player of %s; it also defines %s: choose one with the entry %s:%s"
                  % (file, ", ".join(others), file, others[0]), file=sys.stderr)
        return cls, [], {}
    if len(subclasses) == 1:
        return getattr(module, subclasses[0]), [], {}
    sys.exit("cannot tell which class of %s plays: it defines %s and none named player; choose one "
             "with the entry, e.g. %s:%s" % (file, ", ".join(subclasses) or "no basePlayer class",
                                            file, subclasses[0] if subclasses else "MyPlayer"))


class Names:
    """The origin's `colors`, `actions`, `endgames`, `card` and `action`, from the `game`
    module the bot loaded (gameRainbow first in a rainbow game), else Croupier's."""

    def __init__(self, rainbow):
        order = ("gameRainbow", "game") if rainbow else ("game", "gameRainbow")
        module = next((sys.modules[n] for n in order if n in sys.modules), None)
        if module is None:
            module = importlib.import_module(order[0])
        spare = importlib.import_module("gameRainbow")  # a colour the bot's enum lacks
        self.colors = getattr(module, "colors", spare.colors)
        self.spare_colors = spare.colors
        self.actions = getattr(module, "actions", core.actions)
        self.endgames = getattr(module, "endgames", None)
        self.card = getattr(module, "card", core.card)
        self.action = getattr(module, "action", core.action)

    def colour(self, v):
        for enum in (self.colors, self.spare_colors):
            try:
                return enum(v)
            except ValueError:
                pass
        return v

    def reason(self, v):
        try:
            return self.endgames(v)
        except (TypeError, ValueError):
            return v  # -1: a bot's fault ended the game


class Bridge:
    """Turns server messages into listener calls of one player object."""

    def __init__(self, me, names):
        self.me, self.names = me, names

    def call(self, name, *args, **kwargs):
        for listener in list(getattr(self.me, name, None) or []):
            listener(*args, **kwargs)

    def card(self, pair):
        return self.names.card(self.names.colour(pair[0]), pair[1])

    def cards(self, row_color, row_number):
        return [self.card(pair) for pair in zip(row_color, row_number)]

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
            extra = {}
            if "color" in msg:
                extra["color"] = self.names.colour(msg["color"])
            if "number" in msg:
                extra["number"] = msg["number"]
            played = self.names.action(self.names.actions(msg["actionType"]), msg["target"], **extra)
            cards = {k: self.card(msg[k]) for k in ("play", "discard", "draw") if k in msg}
            self.call("onPlayerAction", msg["index"], played, **cards)
        elif event == "onGameEnd":
            self.call("onGameEnd", self.names.reason(msg["reason"]), msg["score"])
        return None

    @staticmethod
    def encode(a):
        if a is None:
            raise TypeError("turn() returned None instead of an action")
        as_int = lambda v: None if v is None else int(core.value(v))
        return {
            "actionType": as_int(a.actionType),
            "target": as_int(a.target),
            "color": as_int(getattr(a, "color", None)),
            "number": as_int(getattr(a, "number", None)),
        }


def main(argv):
    bot_dir, url, rainbow, entry = options(argv)
    bot_dir = os.path.abspath(bot_dir)
    file, _, call = entry.partition(":")
    sys.path.insert(1, os.path.join(bot_dir, os.path.dirname(file)))  # after Croupier's modules
    module = load(bot_dir, file)
    try:
        cls, args, kwargs = choose(module, file, call or None)
    except ValueError as e:
        sys.exit(str(e))
    me = cls(*args, **kwargs)
    bridge = Bridge(me, Names(rainbow))
    conn = websocket.create_connection(url)
    while True:
        frame = talk(conn.recv)
        if not frame:
            sys.exit(CLOSED)
        msg = json.loads(frame)
        answer = bridge.handle(msg)
        if answer is not None:
            talk(conn.send, json.dumps(answer))
        if msg.get("event") == "onGameEnd":
            conn.close()
            return


CLOSED = "the match server closed the connection before onGameEnd"


def talk(io, *args):
    """`io(*args)` on the connection; a connection the server closed ends the bot with a
    message (the seat's verdict says why the server closed it), not a traceback."""
    try:
        return io(*args)
    except (websocket.WebSocketConnectionClosedException, OSError):
        sys.exit(CLOSED)


def exit_now(status):
    """Ends the process with `status` at once: what the bot printed is flushed, nothing runs
    after it (threads the bot started, its `atexit` handlers), and the exit itself closes the
    connection, so the referee sees the exit status, and the log holds the traceback."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(status)


def run(argv):
    """`main`, with every failure turned into a flushed message and a non-zero exit (see the
    module docs)."""
    try:
        main(argv)
    except SystemExit as e:
        status = e.code
        if status is None:
            status = 0
        elif not isinstance(status, int):
            print(status, file=sys.stderr)
            status = 1
        exit_now(status)
    except BaseException:
        traceback.print_exc()
        exit_now(1)


if __name__ == "__main__":
    run(sys.argv[1:])
