"""A class-based Hanabi bot for Croupier, in the seed's submission form (《控制论合作者》 §2.4).

Upload this file alone (plus any helper modules; numpy is available): Croupier finds
`class player` in `player.py`, supplies `game`, `gameRainbow` and `basePlayer`, and plays it
over the match server. Locally, try it against itself with `python3 play_local.py`.

Strategy: play a card known to be playable; else hint another player's playable card (number
first, then colour); else discard the first card (by slot) nothing is known about (with all 8 tokens,
give any hint).
"""
from basePlayer import basePlayer
from game import action, actions, colors


class player(basePlayer):
    def __init__(self):
        super().__init__()
        self.onStart.append(self.start)
        self.onHintColor.append(self.hinted_me)
        self.onHintNumber.append(self.hinted_me)
        self.onPlayerAction.append(self.acted)
        self.hints, self.stacks, self.hands, self.known, self.me = 8, {}, [], [], -1

    # -- listeners -------------------------------------------------------------------------
    def start(self, handStatus):
        self.hands = [[(c.color.value, c.number) for c in row] for row in handStatus]
        self.known = [[[-1, -1] for _ in row] for row in handStatus]
        self.me = next(i for i, row in enumerate(self.hands) if all(n == -1 for _, n in row))
        self.deck = 50 - sum(len(row) for row in self.hands)
        for row in self.hands:
            for c, _ in row:
                self.saw(c)

    def saw(self, c):
        """A rainbow card means the rainbow deck: 10 more cards."""
        if c == 5 and not getattr(self, "rainbow", False):
            self.rainbow, self.deck = True, self.deck + 10

    def hinted_me(self, hintInfo):
        for slot, c in enumerate(hintInfo):
            if c.color.value >= 0:
                self.known[self.me][slot][0] = c.color.value
            if c.number > 0:
                self.known[self.me][slot][1] = c.number

    def acted(self, index, playerAction, **kwargs):
        kind = playerAction.actionType
        target = playerAction.target
        if kind in (actions.hintColor, actions.hintNumber):
            self.hints -= 1
            if target != self.me:
                for slot, (c, n) in enumerate(self.hands[target]):
                    if kind == actions.hintColor and c in (playerAction.color.value, 5):
                        self.known[target][slot][0] = c
                    if kind == actions.hintNumber and n == playerAction.number:
                        self.known[target][slot][1] = n
            return
        moved = kwargs.get("play") or kwargs.get("discard")
        c, n = moved.color.value, moved.number
        self.saw(c)
        if kind == actions.play and self.playable(c, n):
            self.stacks[c] = n
            if n == 5 and (self.hints < 8 or getattr(self, "rainbow", False)):
                self.hints += 1  # in the rainbow variant a 5 returns a token even at 8
        elif kind == actions.discard:
            self.hints += 1
        drew = kwargs.get("draw")
        # The drawn card takes the played slot; with the deck empty the slot goes. Others see
        # card(unknown, 0) once the deck is empty; our own draw is always unknown.
        if drew is not None and drew.number != 0 and self.deck > 0:
            self.deck -= 1
            self.saw(drew.color.value)
            self.hands[index][target] = (drew.color.value, drew.number)
            self.known[index][target] = [-1, -1]
        else:
            del self.hands[index][target]
            del self.known[index][target]

    # -- the turn ------------------------------------------------------------------------
    def playable(self, c, n):
        return c >= 0 and self.stacks.get(c, 0) == n - 1

    def turn(self):
        for slot, (c, n) in enumerate(self.known[self.me]):
            if n > 0 and self.playable(c, n):
                return action(actions.play, slot)
        players = len(self.hands)
        if self.hints > 0:
            for step in range(1, players):
                p = (self.me + step) % players
                for slot, (c, n) in enumerate(self.hands[p]):
                    kc, kn = self.known[p][slot]
                    if self.playable(c, n) and kn < 0:
                        return action(actions.hintNumber, p, number=n)
                    if self.playable(c, n) and kc < 0 and c != 5:
                        return action(actions.hintColor, p, color=colors(c))
        if self.hints < 8:
            fresh = [s for s, k in enumerate(self.known[self.me]) if k == [-1, -1]]
            return action(actions.discard, fresh[0] if fresh else 0)
        p = (self.me + 1) % players
        return action(actions.hintNumber, p, number=self.hands[p][0][1])
