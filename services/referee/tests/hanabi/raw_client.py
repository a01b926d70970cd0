"""A websocket client written against docs/protocols.md#hanabi only: it checks every frame it gets (binary,
`event` last, the event order and every field) while playing a plain game, and prints
PROTOCOL OK at the end. Any deviation raises, so the bot crashes with the reason on stderr.

Usage: python3 raw_client.py [--rainbow]
"""
import json
import sys

import websocket
from websocket import ABNF

RAINBOW = "--rainbow" in sys.argv
COLORS = 6 if RAINBOW else 5
conn = websocket.create_connection("ws://127.0.0.1:9999/any/path")


def receive():
    opcode, data = conn.recv_data()
    assert opcode == ABNF.OPCODE_BINARY, "frame opcode %s is not binary" % opcode
    pairs = json.loads(data.decode("utf-8"), object_pairs_hook=list)
    assert pairs[-1][0] == "event", "the event key is not last: %s" % data
    return dict(pairs), data


def expect(event, keys):
    msg, data = receive()
    assert msg["event"] == event, "expected %s, got %s" % (event, data)
    assert sorted(msg) == sorted(keys + ["event"]), "%s has keys %s" % (event, sorted(msg))
    return msg


start = expect("onStart", ["handColor", "handNumber"])
players = len(start["handColor"])
size = 5 if players <= 3 else 4
me = [i for i, row in enumerate(start["handColor"]) if row == [-1] * size]
assert len(me) == 1, "exactly one row is mine: %s" % start
me = me[0]
assert start["handNumber"][me] == [-1] * size
hands = [[[c, n] for c, n in zip(rc, rn)] for rc, rn in zip(start["handColor"], start["handNumber"])]
for i, row in enumerate(hands):
    assert len(row) == size
    if i != me:
        assert all(0 <= c < COLORS and 1 <= n <= 5 for c, n in row), row
deck = 10 * COLORS - players * size
stacks, hints, errors, turn, final_left, expected = [0] * 6, 8, 0, 0, None, None

while True:
    msg, data = receive()
    if msg["event"] == "onGameEnd":
        break
    assert expected is None, "the game should have ended (reason %s): %s" % (expected, data)
    assert msg == {"index": turn % players, "event": "onTurnStart"}, data
    actor = turn % players
    if actor == me:
        expect("turn", [])
        if hints > 0 and turn % 3 == 0:
            p = (me + 1) % players
            answer = {"actionType": 1, "target": p, "number": hands[p][0][1]}
        elif hints < 8:
            answer = {"actionType": 3, "target": 0}
        else:
            answer = {"actionType": 2, "target": 0, "color": -1, "number": -1}
        conn.send(json.dumps(answer))  # a text frame: accepted too
    msg, data = receive()
    if msg["event"] in ("onHintColor", "onHintNumber"):
        assert msg["event"] == "onHintColor" or all(c == -1 for c in msg["hintColor"]), data
        assert msg["event"] == "onHintNumber" or all(n == -1 for n in msg["hintNumber"]), data
        assert len(msg["hintColor"]) == len(hands[me]) == len(msg["hintNumber"]), data
        hinted_me = True
        msg, data = receive()
    else:
        hinted_me = False
    assert msg["event"] == "onPlayerAction" and msg["index"] == actor, data
    kind, target = msg["actionType"], msg["target"]
    if kind in (0, 1):
        key = "color" if kind == 0 else "number"
        assert sorted(msg) == sorted(["index", "actionType", "target", key, "event"]), data
        assert hinted_me == (target == me), data  # a hint to oneself is legal
        hints -= 1
    else:
        key = "play" if kind == 2 else "discard"
        assert kind in (2, 3), data
        assert sorted(msg) == sorted(["index", "actionType", "target", key, "draw", "event"]), data
        c, n = msg[key]
        assert 0 <= c < COLORS and 1 <= n <= 5, data
        if actor != me:
            assert hands[actor][target] == [c, n], "the %s card is not the one in hand: %s" % (key, data)
        if kind == 2 and stacks[c] == n - 1:
            stacks[c] += 1
            hints += n == 5 and (hints < 8 or RAINBOW)  # gameRainbow: even at 8
        elif kind == 2:
            errors += 1
        else:
            hints += 1
        if actor == me:
            assert msg["draw"] == [-1, -1], data
        elif deck == 0:
            assert msg["draw"] == [-1, 0], "no card left, yet %s" % data
        else:
            assert 0 <= msg["draw"][0] < COLORS and 1 <= msg["draw"][1] <= 5, data
        # The origin's game.py: the drawn card takes the played slot; none left, the slot goes.
        if deck > 0:
            deck -= 1
            hands[actor][target] = list(msg["draw"])
        else:
            del hands[actor][target]
    turn += 1
    # The origin's checkEndgame: a third error; once the deck is empty, one more turn each with
    # nothing checked, then reason 1; every stack complete.
    if final_left is None:
        if errors >= 3:
            expected = 0
        elif deck == 0:
            final_left = players
        elif sum(stacks) == 5 * COLORS:
            expected = 2
    else:
        final_left -= 1
        if final_left == 0:
            expected = 1

assert sorted(msg) == ["event", "reason", "score"], data
assert msg["reason"] == expected, "reason %s, expected %s: %s" % (msg["reason"], expected, data)
assert msg["score"] == sum(stacks), data
print("PROTOCOL OK after %d turns, score %d" % (turn, msg["score"]), file=sys.stderr)
conn.close()
