# A v1006 client that checks every message against docs/protocols.md#guandan. The test prepends
# `EXPECT_POS = n`, `PATH` and `STYLE`: "shed" plays a random index, mostly among the plays
# with the most cards; "weak" passes whenever it may and leads its first listed play. A shed
# team against a weak one wins every deal 1-2, so a game to A takes about five deals.
# Prints "PROTOCOL OK <messages>" on stderr after gameResult; any violation raises.
import json, random, sys
import websocket

PAIRS = {("notify", s) for s in ["beginning", "play", "tribute", "anti-tribute", "back",
                                  "episodeOver", "gameOver", "gameResult"]}
PAIRS |= {("act", s) for s in ["play", "tribute", "back"]}
RANKS = "23456789TJQKA"
NONE3 = [None, None, None]
PASS = ["PASS", "PASS", "PASS"]
TYPES = {"Single", "Pair", "Trips", "ThreePair", "ThreeWithTwo", "TwoTrips", "Straight",
         "StraightFlush", "Bomb"}

def need(cond, what, msg):
    if not cond:
        raise AssertionError(f"{what}: {json.dumps(msg)[:600]}")

def power(card, level):
    r = card[1]
    if r == "R": return 17
    if r == "B": return 16
    if r == level: return 15
    return RANKS.index(r) + 2

def check_hand(cards, level, msg):
    need(all(isinstance(c, str) and len(c) == 2 for c in cards), "card strings", msg)
    powers = [power(c, level) for c in cards]
    need(powers == sorted(powers), "handCards sorted with the level after A", msg)

def check_action(a, msg):
    need(isinstance(a, list) and len(a) == 3, "an action is [type, rank, cards]", msg)
    if a[0] == "PASS":
        need(a == PASS, "PASS", msg)
    else:
        need(a[0] in TYPES or a[0] in ("tribute", "back"), "action type", msg)
        need(isinstance(a[2], list) and a[2], "action cards", msg)

ws = websocket.create_connection("ws://127.0.0.1:23456" + PATH)
state = "start"          # start -> dealt -> ... ; "over" after gameResult
my_pos = None
level = None
count = 0
games = 0
deals = 0
while True:
    try:
        text = ws.recv()
    except websocket.WebSocketConnectionClosedException:
        break
    need(isinstance(text, str), "text frames only", text)
    need("'" not in text.replace("\\'", ""), "standard JSON (no single quotes)", text)
    msg = json.loads(text)
    count += 1
    kind = (msg.get("type"), msg.get("stage"))
    need(kind in PAIRS, "one of the 11 (type, stage) pairs", msg)
    need(state != "over", "nothing after gameResult", msg)
    if kind == ("notify", "beginning"):
        need(len(msg["handCards"]) == 27, "27 cards", msg)
        for k in ("selfRank", "oppoRank", "curRank"):
            need(msg[k] in RANKS, k, msg)
        need(msg["myPos"] == EXPECT_POS, "seat = connection order", msg)
        my_pos, level = msg["myPos"], msg["curRank"]
        check_hand(msg["handCards"], level, msg)
        state = "dealt"
        deals += 1
        continue
    need(state in ("dealt", "between"), "beginning comes first", msg)
    if kind[0] == "act":
        for k in ("handCards", "publicInfo", "selfRank", "oppoRank", "curRank", "stage",
                  "curPos", "curAction", "greaterPos", "greaterAction", "actionList",
                  "indexRange"):
            need(k in msg, "act has " + k, msg)
        need(state == "dealt", "act only during a deal", msg)
        need(msg["curRank"] == level, "curRank as in beginning", msg)
        check_hand(msg["handCards"], level, msg)
        lst = msg["actionList"]
        need(len(lst) >= 1 and msg["indexRange"] == len(lst) - 1, "indexRange", msg)
        need(len(msg["publicInfo"]) == 4, "publicInfo x4", msg)
        for p in msg["publicInfo"]:
            need(set(p) == {"rest", "playArea"}, "rest and playArea", msg)
            area = p["playArea"]
            need(area is None or area == NONE3 or area == PASS or (isinstance(area, list) and area[0] in TYPES),
                 "playArea", msg)
        need(msg["publicInfo"][my_pos]["rest"] == len(msg["handCards"]), "rest = hand size", msg)
        for a in lst:
            check_action(a, msg)
        if msg["stage"] == "play":
            if msg["curPos"] == -1:
                need(msg["greaterPos"] == -1 and msg["curAction"] == NONE3
                     and msg["greaterAction"] == NONE3, "a lead: -1 and [null,null,null]", msg)
                need(PASS not in lst, "no PASS when leading", msg)
            else:
                need(lst[0] == PASS and PASS not in lst[1:], "PASS first when following", msg)
                need(0 <= msg["greaterPos"] <= 3, "greaterPos", msg)
                check_action(msg["greaterAction"], msg)
            plays = [a for a in lst if a[0] != "PASS"]
            biggest = max((len(a[2]) for a in plays), default=0)
            pick = [i for i, a in enumerate(lst) if a[0] != "PASS" and len(a[2]) == biggest]
            if STYLE == "weak":
                i = 0
            elif pick and random.random() < 0.8:
                i = random.choice(pick)
            else:
                i = random.randrange(len(lst))
        else:
            need(msg["curPos"] == -1 and msg["curAction"] == NONE3, "tribute/back: no action", msg)
            need(all(a[0] == msg["stage"] for a in lst), "tribute/back actions", msg)
            i = random.randrange(len(lst))
        ws.send(json.dumps({"actIndex": i}))
    elif kind == ("notify", "play"):
        for k in ("curPos", "curAction", "greaterPos", "greaterAction"):
            need(k in msg, "play has " + k, msg)
        check_action(msg["curAction"], msg)
        check_action(msg["greaterAction"], msg)
        need(msg["greaterAction"] != PASS, "the greater action is a play", msg)
    elif kind in (("notify", "tribute"), ("notify", "back")):
        need(all(len(r) == 3 and r[0] != r[1] for r in msg["result"]), "result", msg)
    elif kind == ("notify", "anti-tribute"):
        need(msg["antiNums"] == len(msg["antiPos"]), "antiNums", msg)
    elif kind == ("notify", "episodeOver"):
        need(sorted(msg["order"]) == [0, 1, 2, 3], "order", msg)
        need(msg["curRank"] == level, "curRank: the deal's level", msg)
        need(all(c for _, c in msg["restCards"]), "restCards", msg)
        state = "between"
    elif kind == ("notify", "gameOver"):
        games += 1
        need(msg["curTimes"] == games and msg["settingTimes"] >= games, "gameOver times", msg)
        need(state == "between", "gameOver after episodeOver", msg)
    elif kind == ("notify", "gameResult"):
        need(games == msg.get("settingTimes", games), "gameResult after the last game", msg)
        need(len(msg["victoryNum"]) == 4 and len(msg["draws"]) == 4, "victoryNum/draws", msg)
        v = msg["victoryNum"]
        need(v[0] == v[2] and v[1] == v[3] and v[0] + v[1] + msg["draws"][0] == games, "wins", msg)
        state = "over"
        print(f"PROTOCOL OK {count} messages, {deals} deals, {games} games", file=sys.stderr)
        ws.close()
        break
need(state == "over", "the connection stayed open until gameResult", {"state": state})
