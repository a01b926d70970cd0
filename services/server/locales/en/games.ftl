# The games' pages: /games and /games/{id}, and the games' names everywhere.

## The five games' names (`game-name-<id>`) and how their bots connect (`game-protocol-<id>`).
game-name-nothanks = No Thanks!
game-name-splendor = Splendor
game-name-hanabi = Hanabi
game-name-guandan = Guandan 掼蛋
game-name-bridge = Contract Bridge
game-protocol-nothanks = TCP lobby on 127.0.0.1:1000 / 2004, one JSON object per line
game-protocol-splendor = one process per move: state JSON in argv[1] and on stdin, action JSON on stdout
game-protocol-hanabi = websocket on 127.0.0.1:9999, one process per seat; or a Python `player` class
game-protocol-guandan = websocket on 127.0.0.1:23456/game/…, one process per seat (platform v1006)
game-protocol-bridge = one process per move: `bot Board.txt StepLog.txt`, appends one line

## /games
games-title = Games
games-intro =
    Each game comes from a bot platform of its own; bots written for it run here unchanged. A
    game's page has its rules as played here, its protocol with example messages, the limits, how
    its leaderboard ranks, and starter kits to download.
games-seats-protocol = { $n } seats · { $protocol }

## /games/{id}
game-quick-start = Quick start
game-step-download = Download a starter kit below and unpack it.
game-step-play-before = Play it on your machine against the built-in bots with the
game-step-play-middle =
    command
          (one file, no Rust needed:
game-step-play-link = download the runner
game-step-play-after = )
game-step-play-colon = :
game-step-play-stop = .
game-step-upload-before = Make it better, then upload it from your team's page (or with
game-step-upload-after =
    ).
          It is checked in a short game against built-in bots before it enters competitions.
game-kits = Starter kits
game-no-kit = No kit yet.
game-kit-files = { $n ->
    [one] { $n } file
   *[other] { $n } files
}
game-on-this-platform = On this platform
game-settings = Settings
game-what = What
game-here = Here
game-rules = Rules
game-protocol = Protocol

## The facts table
game-fact-seats = Seats
game-fact-rule-sets = Rule sets
game-fact-connect = How bots connect
game-fact-move-time = Time per move
game-fact-move-time-value = { $secs } s wall clock, start-up included (a competition may change it)
game-fact-games = Games per match
game-fact-games-value = { $n } by default
game-fact-games-value-max = { $n } by default (a competition may set up to { $max })
game-fact-limits = Memory, CPU, disk per seat
game-fact-limits-value = 512 MiB for the whole process tree, one core, 64 MiB of disk beyond the bot's files (the defaults; a competition may change them)
game-fact-bots = Built-in bots

## The rules and protocol come from docs/ (docs/zh-CN/ in Chinese): a table's label for screen readers.
game-doc-table = Table { $n } of the docs
