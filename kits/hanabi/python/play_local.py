#!/usr/bin/env python3
"""Plays games between four copies of `player` locally, with the seed's `game` class (no
server): `python3 play_local.py [games] [--rainbow]`."""
import sys

from player import player

rainbow = "--rainbow" in sys.argv
if rainbow:
    from gameRainbow import game
else:
    from game import game

games = int(next((a for a in sys.argv[1:] if a.isdigit()), "20"))
scores = [game([player() for _ in range(4)]).start() for _ in range(games)]
print("%d games, mean score %.2f (min %d, max %d)" % (games, sum(scores) / games, min(scores), max(scores)))
