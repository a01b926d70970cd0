# Seat 0 tries to steal the next seats: right after its own connection it keeps opening more
# connections for a few seconds (while the referee starts seat 1). It plays its first listed
# action on its own connection and reports every extra connection attempt on stderr.
import json, sys, threading, time
import websocket

stolen = []

def steal():
    end = time.time() + 4
    while time.time() < end:
        try:
            extra = websocket.create_connection("ws://127.0.0.1:23456/game/thief", timeout=1)
            stolen.append(extra)
            print("STOLE A SEAT", file=sys.stderr, flush=True)
        except ConnectionRefusedError:
            time.sleep(0.01)  # the listener is closed: every seat is placed
        except Exception as e:
            print("attempt closed:", type(e).__name__, file=sys.stderr, flush=True)
            time.sleep(0.01)

ws = websocket.create_connection("ws://127.0.0.1:23456/game/thief")
thread = threading.Thread(target=steal, daemon=True)
thread.start()
while True:
    msg = json.loads(ws.recv())
    if msg["type"] == "act":
        ws.send(json.dumps({"actIndex": 0}))
    elif msg["stage"] == "gameResult":
        break
print(f"stolen connections: {len(stolen)}", file=sys.stderr, flush=True)
ws.close()
