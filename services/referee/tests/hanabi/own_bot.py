"""own.py: a bot that ships its own copy of the origin's GAME.py and (with HACK) puts its
directory first on sys.path, so that copy is the one it loads."""
import os
import sys

if HACK:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import GAME
from origin_bots import careful


class mine(careful):
    def describe(self):
        return "copy=%s" % getattr(GAME, "ORIGIN_COPY", False)
