# Hostile v1006 bots. The test prepends `MODE = "..."`:
#   bad_index: always answers indexRange + 5 (out of range), so the referee re-sends and
#              finally plays for it; it stays connected until gameResult.
#   garbage:   first tries a path outside /game/ (refused), then answers its first act with
#              text that is not JSON.
#   hang:      never answers an act.
#   exit:      exits with code 3 at its first act.
import json, sys, time
import websocket

if MODE == "garbage":
    try:
        websocket.create_connection("ws://127.0.0.1:23456/other/x")
        sys.exit("a path outside /game/ was accepted")
    except websocket.WebSocketBadStatusException as e:
        print("refused:", e.status_code, file=sys.stderr)
ws = websocket.create_connection("ws://127.0.0.1:23456/game/" + MODE)
while True:
    try:
        msg = json.loads(ws.recv())
    except Exception:
        break
    if msg["type"] != "act":
        if msg["stage"] == "gameResult":
            print("saw gameResult", file=sys.stderr)
            break
        continue
    if MODE == "bad_index":
        ws.send(json.dumps({"actIndex": msg["indexRange"] + 5}))
    elif MODE == "garbage":
        ws.send("this is not json")
    elif MODE == "hang":
        time.sleep(3600)
    elif MODE == "exit":
        sys.exit(3)
