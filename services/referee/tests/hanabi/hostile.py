"""Prelude of the hostile Hanabi bots: connect, follow the messages, and hand each `turn` to
`on_turn(conn, msg, seen)`; every message received is printed to stderr."""
import json
import sys
import time

import websocket

conn = websocket.create_connection("ws://127.0.0.1:9999/")


def run(on_turn):
    seen = []
    while True:
        try:
            msg = json.loads(conn.recv())
        except websocket.WebSocketConnectionClosedException:
            print("CLOSED", file=sys.stderr)
            return seen
        seen.append(msg)
        print("GOT", json.dumps(msg, sort_keys=True), file=sys.stderr)
        if msg["event"] == "turn":
            on_turn(conn, msg, seen)
        elif msg["event"] == "onGameEnd":
            return seen
