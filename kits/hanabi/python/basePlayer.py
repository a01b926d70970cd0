"""The seed's `basePlayer` module: the abstract player every submitted `player` class inherits.

Listener lists (append your functions; the game calls every one, in order):
  onStart(handStatus)                 handStatus[i][j]: card; your own row is card(unknown, -1)
  onGameEnd(reason, score)            reason: endgames (a plain -1 if a bot's fault ended the game)
  onTurnStart(index)                  the player whose turn starts
  onHintColor(hintInfo)               only for the hinted player; hintInfo[i]: card(colour or unknown, -1)
  onHintNumber(hintInfo)              only for the hinted player; hintInfo[i]: card(unknown, number or -1)
  onPlayerAction(index, playerAction, **kwargs)
                                      play=card (actions.play), discard=card (actions.discard),
                                      draw=card (2 and 3; card(unknown, -1) for the actor,
                                      card(unknown, 0) for the others once the deck is empty)
`turn()` returns an `action` synchronously.
"""
from abc import ABC, abstractmethod


class basePlayer(ABC):
    def __init__(self, *args, **kwargs):
        self.onStart = []
        self.onGameEnd = []
        self.onTurnStart = []
        self.onHintColor = []
        self.onHintNumber = []
        self.onPlayerAction = []

    @abstractmethod
    def turn(self):
        """Returns this turn's `action`."""
