# A No Thanks bot that checks, message by message, that the server speaks docs/protocols.md#no-thanks
# (and the original server's wire format). It prints "PROTOCOL OK" to stderr at the end, or
# fails with a traceback (the seat then ends "crashed" and the test shows the traceback).
import json
import socket
import sys

room, me = input().strip(), input().strip()
conn = socket.create_connection(("127.0.0.1", 1000))
f = conn.makefile("rb")


def recv():
    raw = f.readline()
    assert raw.endswith(b"\n"), "every message ends with a newline: %r" % raw
    text = raw.decode("ascii")  # the original writes json.dumps' ASCII
    msg = json.loads(text)
    assert text.rstrip("\n") == json.dumps(msg), "written as json.dumps writes it: %r" % text
    assert list(msg) == ["type", "payload"], msg
    return msg["type"], msg["payload"]


def send(kind, payload):
    conn.sendall((json.dumps({"type": kind, "payload": payload}) + "\n").encode())


def run_points(cards):
    return sum(c for c in cards if c - 1 not in cards)


def check_status(s, players):
    assert list(s) == ["turnnum", "turnorder", "rankingorder", "playerinfo", "deckinfo", "fieldinfo", "end_flg"], list(s)
    assert isinstance(s["turnnum"], int)
    assert s["end_flg"] in ("True", "False"), "end_flg is the string True/False: %r" % s["end_flg"]
    assert sorted(s["turnorder"]) == sorted(players) and len(s["turnorder"]) == 3
    ranking = s["rankingorder"]
    assert sorted(ranking) == sorted(players)
    points = [s["playerinfo"][p]["point"] for p in ranking]
    assert points == sorted(points), "rankingorder by point ascending"
    for name, info in s["playerinfo"].items():
        assert list(info) == ["coins", "cards", "point"], info
        assert info["cards"] == sorted(info["cards"])
        assert info["point"] == run_points(info["cards"]) - info["coins"], info
    assert isinstance(s["deckinfo"]["decknum"], int)
    field = s["fieldinfo"]
    if s["end_flg"] == "True":
        assert field["fieldcard"] is None, "fieldcard is null after the end"
    else:
        assert isinstance(field["fieldcard"], int) and 3 <= field["fieldcard"] <= 35
    assert isinstance(field["fieldcoins"], int)


def rotation(order):
    # turnorder is a rotation of the seat order starting with the player on turn
    i = order.index(seat_order[0])
    return order[i:] + order[:i]


assert recv() == ("notice_connection_ok", {})
kind, payload = recv()
assert kind == "request_room_name_and_role" and payload == {"roomlist": [room]}, (kind, payload)
send("reply_room_name_and_role", {"room_name": room, "role": "player", "player_name": me})
assert recv() == ("result_room_name_and_role", {"result": "accepted"})

kind, payload = recv()
assert kind == "notice_start", "notice_start comes before any request_action: %s" % kind
status = payload["game_status"]
players = list(status["playerinfo"])
assert me in players and len(players) == 3
check_status(status, players)
assert status["turnnum"] == 0 and status["end_flg"] == "False"
seat_order = status["turnorder"]
asked = 0
while True:
    kind, payload = recv()
    if kind == "notice_end":
        break
    assert kind == "request_action", "only request_action or notice_end during the game: %s" % kind
    status = payload["game_status"]
    check_status(status, players)
    assert status["turnorder"][0] == me, "request_action goes to the player on turn only"
    assert rotation(status["turnorder"]) == seat_order
    coins = status["playerinfo"][me]["coins"]
    assert payload["action_types"] == (["pick", "pass"] if coins > 0 else ["pick"]), payload["action_types"]
    before = status["turnnum"]
    action = "pass" if coins > 0 and asked % 2 == 0 else "pick"
    send("reply_action", {"action_type": action})
    kind, payload = recv()
    assert kind == "result_action", "result_action follows each reply: %s" % kind
    assert list(payload) == ["result", "reason", "game_status"], payload
    assert payload["result"] == "accepted" and payload["reason"] == ""
    check_status(payload["game_status"], players)
    assert payload["game_status"]["turnnum"] == before + 1
    asked += 1

status = payload["game_status"]
check_status(status, players)
assert status["end_flg"] == "True" and status["deckinfo"]["decknum"] == 0
assert asked > 5, asked
kind, payload = recv()
assert kind == "request_room_name_and_role", "notice_end is the last game message, then the lobby"
print("PROTOCOL OK after %d requests" % asked, file=sys.stderr)
