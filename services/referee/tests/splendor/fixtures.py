# Misbehaving Splendor bots for the referee's tests. The test prepends `MODE = "<mode>"`.
# Each reads the state from argv[1] like a judge bot and misbehaves in one way.
import json
import sys
import time

state = json.loads(sys.argv[1])
me = next(p for p in state["players"] if p["name"] == state["playerName"])
table = {g["color"]: g.get("count", 0) for g in state["table"]["gems"]}
cards = state["table"].get("cards", [])


def first_three():
    return [c for c in ["green", "white", "blue", "black", "red"] if table.get(c, 0) > 0][:3]


def dearest():
    return max(cards, key=lambda c: sum(x.get("count", 0) for x in c.get("costs", [])))


print("mode %s, round %d" % (MODE, state["round"]), file=sys.stderr)
if MODE == "silent":
    pass
elif MODE == "exit1":
    print(json.dumps({"get_different_color_gems": first_three()}))
    sys.exit(1)
elif MODE == "garbage":
    print("I would like some red gems please")
elif MODE == "two_objects":
    print(json.dumps({"get_different_color_gems": first_three()}))
    print(json.dumps({"get_different_color_gems": first_three()}))
elif MODE == "two_actions":
    # get_different_color_gems comes first in the documented order: it is the one executed.
    print(json.dumps({"purchase_card": dearest(), "get_different_color_gems": first_three()}, indent=2))
elif MODE == "overspend":
    print(json.dumps({"purchase_card": dearest()}))
elif MODE == "sleeper":
    time.sleep(5)
    print("{}")
elif MODE == "taker":
    print(json.dumps({"get_different_color_gems": first_three()}))
elif MODE == "flood":
    sys.stdout.write("x" * (2 << 20))
elif MODE == "hog":
    hoard = bytearray(256 << 20)
    print(json.dumps({"get_different_color_gems": first_three()}))
elif MODE == "segv":
    import os
    import signal
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGSEGV)
else:
    raise SystemExit("unknown mode " + MODE)
