# Checks every input it gets against docs/protocols.md#splendor and reports on stderr; exits 3 on a
# violation (the seat then shows `crashed`). Reserves a level-1 card blind on its first call,
# then passes with {}.
import json
import sys

text = sys.argv[1]
stdin = sys.stdin.read()
problems = []
if stdin != text:
    problems.append("stdin differs from argv[1]")
state = json.loads(text)


def walk(value, path):
    if isinstance(value, dict):
        if not value and path != "$":
            problems.append("empty object at " + path)
        for k, v in value.items():
            if "_" in k:
                problems.append("snake_case key " + k)
            walk(v, path + "." + k)
    elif isinstance(value, list):
        if not value:
            problems.append("empty list at " + path)
        for i, v in enumerate(value):
            walk(v, "%s[%d]" % (path, i))
    elif value == 0 or value == "" or value is None or value is False:
        problems.append("zero value at " + path)


walk(state, "$")
if set(state) != {"round", "playerName", "table", "players"}:
    problems.append("top-level keys %s" % sorted(state))
for g in state["table"]["gems"]:
    if g["color"] not in ["green", "white", "blue", "black", "red", "gold"]:
        problems.append("colour " + g["color"])
me = next(p for p in state["players"] if p["name"] == state["playerName"])
reserved = [len(p.get("reservedCards", [])) for p in state["players"]]
print("round %d %s sees reserved %s" % (state["round"], me["name"], reserved), file=sys.stderr)
if problems:
    print("PROTOCOL VIOLATION: " + "; ".join(problems), file=sys.stderr)
    sys.exit(3)
print("PROTOCOL OK", file=sys.stderr)
if state["round"] == 1:
    print(json.dumps({"reserve_card": {"level": 1}}))
else:
    print("{}")
