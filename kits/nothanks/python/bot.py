#!/usr/bin/env python3
"""No Thanks (Geschenkt) starter bot for Croupier, speaking the BoardCoder server protocol.

Standard library only. The platform writes the room name and your player name on stdin, one per
line; the bot connects to the match server on 127.0.0.1:2004 (or 1000), joins the room and
answers every request_action with "pick" or "pass". Change `wants_card` to make it smarter.

Usage: python3 bot.py [port]      (reads "<room>\\n<player name>\\n" from stdin)
"""
import json
import socket
import sys

HOST = "127.0.0.1"
PORTS = [2004, 1000]


def connect():
    ports = [int(sys.argv[1])] if len(sys.argv) > 1 else PORTS
    last = None
    for port in ports:
        try:
            return socket.create_connection((HOST, port), timeout=None)
        except OSError as e:
            last = e
    raise SystemExit("cannot connect to the match server: %s" % last)


class Lines:
    """Newline-delimited JSON over a socket; copes with partial and joined packets."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def recv(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        line = line.strip()
        return json.loads(line.decode("utf-8")) if line else self.recv()

    def send(self, kind, payload):
        data = json.dumps({"type": kind, "payload": payload}) + "\n"
        self.sock.sendall(data.encode("utf-8"))


def card_points(cards):
    """Sum of the lowest card of each run of consecutive cards."""
    total, previous = 0, None
    for card in sorted(cards):
        if previous is None or card != previous + 1:
            total += card
        previous = card
    return total


def wants_card(status, me):
    """Take the card when it costs us little: what it adds to our points minus the coins on it."""
    mine = status["playerinfo"][me]
    card = status["fieldinfo"]["fieldcard"]
    coins_on_card = status["fieldinfo"]["fieldcoins"]
    if mine["coins"] == 0:
        return True
    cost = card_points(mine["cards"] + [card]) - card_points(mine["cards"]) - coins_on_card
    limit = 3 + 2 * max(0, 10 - mine["coins"])
    if status["deckinfo"]["decknum"] < 6:
        limit += 4  # coins are worth less near the end
    return cost <= limit


def main():
    room = input().strip()
    me = input().strip()
    conn = Lines(connect())
    games = 0
    while True:
        msg = conn.recv()
        if msg is None:
            return
        kind, payload = msg.get("type"), msg.get("payload") or {}
        if kind == "request_room_name_and_role":
            if games > 0:
                return  # back in the lobby after the match: we are done
            conn.send("reply_room_name_and_role", {"room_name": room, "role": "player", "player_name": me})
        elif kind == "result_room_name_and_role" and payload.get("result") != "accepted":
            print("declined:", payload.get("reason"), file=sys.stderr)
        elif kind == "request_action":
            status = payload["game_status"]
            action = "pick" if wants_card(status, me) else "pass"
            if action not in payload["action_types"]:
                action = payload["action_types"][0]
            conn.send("reply_action", {"action_type": action})
        elif kind == "notice_end":
            games += 1
            status = payload["game_status"]
            print("game %d over: ranking %s" % (games, status["rankingorder"]), file=sys.stderr)


if __name__ == "__main__":
    main()
