# Guandan starter bot for the offline platform v1006 protocol (runs unchanged on Croupier).
#
# Shaped like the platform's sample client: a ws4py WebSocketClient subclass whose
# received_message() parses each JSON message and, for an "act", sends {"actIndex": i}.
# Strategy: shed the cheapest cards first, keep bombs and wild cards for when they matter,
# never beat the partner, and bomb only when someone is close to going out.
import json
import sys
from collections import Counter

from ws4py.client.threadedclient import WebSocketClient

RANKS = "23456789TJQKA"
BOMBS = ("Bomb", "StraightFlush")


def power(rank, level):
    """Single-card strength of a rank letter: jokers > level > A > K > ... > 2."""
    if rank in ("R", "B"):
        return 17 if rank == "R" else 16
    if rank == level:
        return 15
    return RANKS.index(rank) + 2 if rank in RANKS else 0


class State:
    """What the bot remembers between messages."""

    def __init__(self):
        self.my_pos = None
        self.level = "2"


class Strategy:
    def __init__(self, state):
        self.state = state

    def choose(self, msg):
        actions = msg["actionList"]
        stage = msg["stage"]
        level = msg["curRank"]
        if stage == "tribute":
            return 0  # every listed card is a highest card
        if stage == "back":
            # Return the weakest card, preferably from a rank we hold only once.
            counts = Counter(card[1] for card in msg["handCards"])
            return min(range(len(actions)),
                       key=lambda i: (counts[actions[i][2][0][1]] > 1,
                                      power(actions[i][2][0][1], level)))
        hand = msg["handCards"]
        counts = Counter(card[1] for card in hand)
        wild = "H" + level
        opponents = [msg["publicInfo"][(self.state.my_pos + k) % 4]["rest"] for k in (1, 3)]
        danger = min(r for r in opponents if r > 0) if any(opponents) else 27
        leading = msg["curPos"] == -1

        def cost(action):
            kind, rank, cards = action
            c = power(rank, level) if rank not in ("JOKER",) else 20
            if kind in BOMBS:
                c += 40
            c += 12 * sum(1 for card in cards if card == wild)
            # Breaking a bomb (4+ of a rank) for an ordinary play is expensive.
            if kind not in BOMBS and any(counts[card[1]] >= 4 for card in cards):
                c += 15
            # Shedding more cards at once is good.
            c -= 2 * len(cards)
            return c

        plays = [i for i, a in enumerate(actions) if a[0] != "PASS"]
        if leading:
            return min(plays, key=lambda i: cost(actions[i]))
        partner = (self.state.my_pos + 2) % 4
        if msg["greaterPos"] == partner:
            return 0  # PASS: let the partner's play stand
        ordinary = [i for i in plays if actions[i][0] not in BOMBS]
        if ordinary:
            best = min(ordinary, key=lambda i: cost(actions[i]))
            if cost(actions[best]) < 18 or danger <= 8 or len(hand) <= 8:
                return best
        bombs = [i for i in plays if actions[i][0] in BOMBS]
        if bombs and (danger <= 6 or len(hand) <= 6):
            return min(bombs, key=lambda i: cost(actions[i]))
        return 0  # PASS


class GuandanClient(WebSocketClient):
    def __init__(self, url):
        super().__init__(url)
        self.state = State()
        self.strategy = Strategy(self.state)

    def opened(self):
        print("connected", file=sys.stderr)

    def received_message(self, message):
        msg = json.loads(str(message))
        if msg["type"] == "act":
            index = self.strategy.choose(msg)
            self.send(json.dumps({"actIndex": index}))
        elif msg["stage"] == "beginning":
            self.state.my_pos = msg["myPos"]
            self.state.level = msg["curRank"]
        elif msg["stage"] == "episodeOver":
            print("deal over, order", msg["order"], file=sys.stderr)
        elif msg["stage"] == "gameOver":
            print("game", msg["curTimes"], "of", msg["settingTimes"], "over", file=sys.stderr)
        elif msg["stage"] == "gameResult":
            print("result: wins", msg["victoryNum"], "draws", msg["draws"], file=sys.stderr)
            self.close()

    def closed(self, code, reason=None):
        print("closed", code, reason, file=sys.stderr)


if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "client1"
    client = GuandanClient("ws://127.0.0.1:23456/game/" + name)
    client.connect()
    client.run_forever()
