# Match pages, the text timeline, labels shared by the match and competition pages, live
# updates, the play-against-bots pages and the replay viewer's scripts.
# Counts say the singular for exactly 1 (`[1]`), as `croupier_games::plural::count` does.

## The match page
match-title = Match { $n }
match-heading = { $game } match
match-heading-numbered = { $game } match #{ $n }
match-live-noscript-before = The result shows here when the match has ended:{" "}
match-live-noscript-refresh = refresh
match-live-noscript-after = {" "}the page to see it.
match-your-seat = Your seat at this table
match-your-seat-play = : play your moves there.
match-competition = Competition
match-rules = Rules
match-seed = seed
match-seed-hidden = hidden until every match played on seeds drawn from the same base seed has ended
match-started = Started
match-ended = Ended
match-why = Why
match-result = Result
match-col-seat = Seat
match-col-bot = Bot
match-col-place = Place
match-col-score = Score
match-col-end = End
match-col-moves = Moves
match-col-cpu = CPU ms
match-download-replay = Download replay (JSON)
match-download-log = Download log (seat { $seat }, { $who })
match-replay = Replay
match-replay-noscript = The step-by-step board needs JavaScript; the text timeline below lists the moves.
match-text-timeline = Text timeline
match-no-replay = No replay was stored for this match.
match-replay-expired = The replay of this match and its seats' logs expired on { $when } and are no longer kept (replay retention); its results stay.
match-replay-later = The replay appears when the match is finished.
match-replay-after-others = The replay appears when every match dealt the same cards has ended: some are still to play.
match-log = Match log
match-log-summary = Every message between the referee and the bots ({ $n ->
        [1] { $n } line
       *[other] { $n } lines
    }; for Splendor the judge's log)
match-private-all = Every seat's logs
match-private-yours = Your bot's logs
match-private-note = Only a bot's own team (and the organisers) can see its stderr, move times and memory.
match-private-seat = Seat { $n }
match-move-times = Move times over { $n ->
        [1] { $n } move
       *[other] { $n } moves
    }:
match-min = min
match-median = median
match-max = max
match-every-move = Every move, in ms
match-by-move = Move by move — each move's time, memory peak and stderr:
match-step-as-seat = step through the replay as seat { $n }
match-or-download = , or download{" "}
match-its-log = its log
match-its-log-after = {" "}(every move's stderr included).
match-stderr-end = stderr (the end)
match-stderr-empty = Nothing was written to stderr.
match-stderr-of-seat = stderr of seat { $n }
match-duplicate-alone = A table's ranks decide nothing by themselves: the leaderboard compares its scores with the other table of its duplicate set, in IMPs.
match-duplicate-waiting = The other table has not finished yet.
match-duplicate-set = A table's ranks decide nothing by themselves. With match #{ $other } this table makes a duplicate set: { $a } { $imps-a ->
        [1] { $imps-a } IMP
       *[other] { $imps-a } IMPs
    }, { $b } { $imps-b ->
        [1] { $imps-b } IMP
       *[other] { $imps-b } IMPs
    }.
match-log-cut = Only the first { $shown } of { $total } lines are shown.
match-log-capped = The referee kept only the first part of this match's log (1 MiB).
match-log-seat = seat { $n }
match-log-bytes = { $n } bytes
match-replay-not-yet = the match is { $status }: its replay is published once it has finished
match-seat-logs-not-yet = the match is { $status }: its seat logs are kept once it has finished
match-deal-not-out = matches dealt the same cards are still to play: what was dealt in this one is published once they have ended

## The text timeline
timeline-entry = entry { $n }
timeline-fault = Fault:
timeline-unreadable = The replay of this match could not be read.
timeline-cut = Only the first { $n ->
        [1] { $n } entry
       *[other] { $n } entries
    } are listed here; the board above steps through all of them.
timeline-seat = seat { $seat }
timeline-plays = { $who } plays { $action }
timeline-refused = { $who } tried { $action }: refused, { $error }

## Words shared by the pages
label-seat-north = N
label-seat-east = E
label-seat-south = S
label-seat-west = W
label-game-title = Game { $n }
label-board-title = Board { $n }
label-point = { $score } point
label-points = { $score ->
        [1] { $score } point
       *[other] { $score } points
    }
label-progress-played = { $finished } of { $total ->
        [1] { $total } match
       *[other] { $total } matches
    } played
label-progress-running = { $n } running
label-progress-queued = { $n } queued
label-progress-failed = { $n } failed
label-progress-cancelled = { $n } cancelled
label-place-st = { $n }st
label-place-nd = { $n }nd
label-place-rd = { $n }rd
label-place-th = { $n }th
label-end-ok = played to the end
label-end-time-limit = too slow: went over the time allowed for a move
label-end-memory-limit = went over the memory limit
label-end-crashed = the program crashed or exited before the end
label-end-output-limit = wrote more output than allowed
label-end-invalid-output = sent a message the protocol does not allow
label-end-illegal-action = tried a move the rules forbid
label-end-setup-error = the platform could not start it (not the bot's fault)
label-status-queued = queued
label-status-running = running
label-status-finished = finished
label-status-failed = failed
label-status-cancelled = cancelled
label-status-scheduled = scheduled
label-status-paused = paused
label-builtin-suffix = {" "}(built-in)
label-person-suffix = {" "}(a person)

## The replay viewer (web/static/viewer/*.js)
viewer-bridge-north = North
viewer-bridge-east = East
viewer-bridge-south = South
viewer-bridge-west = West
viewer-bridge-pass = Pass
viewer-face-down = face down
viewer-bridge-contract-by = { $bid } by { $seat }
viewer-bridge-no-contract = no contract yet
viewer-bridge-board = Board { $board }
viewer-bridge-dealer = dealer { $seat }
viewer-bridge-vulnerable = vulnerable: { $who }
viewer-bridge-vulnerable-none = None
viewer-bridge-vulnerable-ns = NS
viewer-bridge-vulnerable-ew = EW
viewer-bridge-vulnerable-all = All
viewer-bridge-contract = contract { $contract }
viewer-bridge-trick = Trick { $n }, led by { $seat }
viewer-bridge-bidding = Bidding
viewer-bridge-no-trick = No trick yet
viewer-bridge-auction = Auction
viewer-to-play = ▶ to play
viewer-bridge-dummy-cards = ({ $seat }'s cards)
viewer-bridge-tricks = { $n ->
        [one] { $n } trick
       *[other] { $n } tricks
    }
viewer-bridge-robot = played by the Robot
viewer-bridge-result = Result: declarer took { $n ->
        [one] { $n } trick
       *[other] { $n } tricks
    }; North-South score { $score }
viewer-guandan-small-joker = small
viewer-guandan-big-joker = BIG
viewer-guandan-pass = pass
viewer-guandan-single = Single
viewer-guandan-pair = Pair
viewer-guandan-trips = Trips
viewer-guandan-three-pair = ThreePair
viewer-guandan-three-with-two = ThreeWithTwo
viewer-guandan-two-trips = TwoTrips
viewer-guandan-straight = Straight
viewer-guandan-straight-flush = StraightFlush
viewer-guandan-bomb = Bomb
viewer-guandan-tribute = tribute
viewer-guandan-back = back
viewer-guandan-passed = passed
viewer-guandan-cards-left = { $n ->
        [1] { $n } card left
       *[other] { $n } cards left
    }
viewer-guandan-stage-play = play
viewer-guandan-stage-tribute = tribute
viewer-guandan-stage-back = back
viewer-guandan-stage-over = over
viewer-guandan-deal = Deal { $deal }
viewer-guandan-level = playing level { $level }
viewer-guandan-stage = stage { $stage }
viewer-guandan-out = out: { $seats }
viewer-guandan-to-beat = To beat:
viewer-guandan-by = by { $who }
viewer-guandan-free-lead = nothing: a free lead
viewer-guandan-team-02 = team 0+2
viewer-guandan-team-13 = team 1+3
viewer-guandan-out-place = out #{ $place }
viewer-guandan-this-round = This round:
viewer-guandan-hand-hidden = hand hidden
viewer-hanabi-red = red
viewer-hanabi-letter-red = R
viewer-hanabi-letter-yellow = Y
viewer-hanabi-letter-blue = B
viewer-hanabi-letter-green = G
viewer-hanabi-letter-white = W
viewer-hanabi-letter-rainbow = M
viewer-hanabi-yellow = yellow
viewer-hanabi-blue = blue
viewer-hanabi-green = green
viewer-hanabi-white = white
viewer-hanabi-rainbow = rainbow
viewer-hanabi-not-visible = not visible to this viewer
viewer-hanabi-card = { $color } { $number }
viewer-hanabi-hinted = hinted;
viewer-hanabi-may-be = may be { $colors } / { $numbers }
viewer-hanabi-end-strikeout = strikeout
viewer-hanabi-end-deck-out = deck_out
viewer-hanabi-end-complete = complete
viewer-hanabi-end-fault = fault
viewer-hanabi-end = end
viewer-hanabi-fireworks = fireworks
viewer-hanabi-firework-at = { $color } firework at { $height }
viewer-hanabi-clues = clues { $n }/8
viewer-hanabi-fuses = fuses { $n }/3
viewer-hanabi-deck = { $n ->
        [1] { $n } card in the deck
       *[other] { $n } cards in the deck
    }
viewer-hanabi-turns-left = { $turns } turns left
viewer-score = score
viewer-hanabi-discarded = Discarded:
viewer-nothing = nothing
viewer-hanabi-game-over = Game over ({ $reason }): score { $score }
viewer-no-cards = no cards
viewer-nothanks-chips-on-it = { $n ->
        [1] { $n } chip on it
       *[other] { $n } chips on it
    }
viewer-nothanks-over = Game over: no card on offer.
viewer-nothanks-no-offer = No card on offer.
viewer-nothanks-face-down = { $n ->
        [1] { $n } card face down
       *[other] { $n } cards face down
    }
viewer-nothanks-hidden-next = Hidden (omniscient view): next
viewer-none = none
viewer-nothanks-set-aside = set aside
viewer-nothanks-counts = counts { $card }
viewer-nothanks-coins = { $n ->
        [1] { $n } coin
       *[other] { $n } coins
    }
viewer-cards = { $n ->
        [1] { $n } card
       *[other] { $n } cards
    }
viewer-splendor-white = white
viewer-splendor-blue = blue
viewer-splendor-green = green
viewer-splendor-red = red
viewer-splendor-black = black
viewer-splendor-gold = gold
viewer-splendor-level = level { $level }
viewer-splendor-card = level { $level } { $color } card, { $n ->
        [one] { $n } point
       *[other] { $n } points
    }
viewer-splendor-cost = cost
viewer-splendor-noble = noble, { $n ->
        [one] { $n } point
       *[other] { $n } points
    }
viewer-splendor-pts = { $points } pts
viewer-splendor-requires = requires
viewer-splendor-bank = Bank
viewer-splendor-bank-label = bank
viewer-splendor-nobles = Nobles
viewer-splendor-none-left = none left
viewer-splendor-deck = level { $level } deck
viewer-splendor-left = { $count } left
viewer-splendor-next = next:
viewer-splendor-points = points
viewer-splendor-gems = Gems
viewer-splendor-gems-label = gems
viewer-splendor-bonuses = Bonuses
viewer-splendor-bonuses-label = bonuses
viewer-splendor-owned = { $cards } cards · { $nobles } nobles
viewer-splendor-reserved = Reserved
viewer-step = Step { $step } of { $last }
viewer-observation-summary = The observation at this step
viewer-observation = observation
viewer-seat = seat { $seat }
viewer-this-view = this view
viewer-back-title = Back one step (←)
viewer-back = ◀ Back
viewer-play-title = Play or pause (space)
viewer-play = ▶ Play
viewer-next-title = Forward one step (→)
viewer-next = Next ▶
viewer-speed = Speed
viewer-step-label = Step
viewer-perspective = Perspective
viewer-omniscient = Everything (omniscient)
viewer-loading = Loading the replay…
viewer-seen-by = Seen by
viewer-not-finished = The replay can be watched once the match has finished.
viewer-load-failed-status = The replay could not be loaded ({ $status }).
viewer-no-steps = This replay has no steps.
viewer-load-failed = The replay could not be loaded.
viewer-view-seat = Seat { $seat }: { $name }
viewer-game-of = game { $game } of { $games }
viewer-own-hint = Your bot's moves show their time, memory and stderr here.
viewer-own-move = Your bot's move: { $ms } ms
viewer-own-peak = memory peak { $mib } MiB
viewer-own-forced = lost: the referee played for it
viewer-own-stderr = stderr of this move
viewer-own-no-stderr = Nothing on stderr during this move.
viewer-game-start = The start of game { $game }.
viewer-plays = { $who } plays { $action }
viewer-forced = (played for { $who } by the referee after a fault)
viewer-refused = { $who } tried { $action }: refused, { $note }
viewer-fault = Fault, { $who }: { $note }
viewer-no-reason = no reason given
viewer-game-over = Game over.
viewer-pause = ❚❚ Pause

## Live updates (web/static/live.js and the pages' notes)
live-noscript-before = This page shows the results as they were when it was loaded:
live-noscript-refresh = refresh
live-noscript-after = {" "}it for newer ones.
live-match-finished = The match has finished; loading its result.
live-match-ended = The match has ended: { $status }; loading its result.
live-match-is = The match is { $status }.

## A person's seat at a table (the play page)
play-your-seat = Your seat
play-seat = seat { $seat }
play-at-table = At this table:
play-list-comma = ,{" "}
play-you-suffix = {" "}(you)
play-match-page = the match page
play-board-heading = What your seat sees
play-observation-summary = As your seat's bot would be told it (JSON)
play-observation = observation
play-over = The match is over
play-over-status = {" "}({ $status }).
play-see-results = See the results and step through the replay
play-see-results-after = .
play-your-turn = Your turn
play-game = game { $n }
play-move = move { $n }
play-seconds-left = { $n } s left
play-clock-after = ;
play-time-runs-out = when the time runs out the referee plays your first listed move.
play-recent = Since your last move
play-legal-moves = Your legal moves
play-choose = { $n ->
        [1] { $n } legal move
       *[other] { $n } legal moves
    }; choose one:
play-waiting = Waiting
play-waiting-answered = your move is in; the others are playing.
play-waiting-lapsed = the time for your last move ran out and the referee played for you.
play-waiting-queued = the match waits for a worker.
play-waiting-others = the others are playing.
play-refresh = Refresh
play-refresh-after = {" "}to see whether it is your turn.
play-not-taken = The move was not taken.
play-turn-announce = Your turn: { $n } s left.
play-not-sent = The move could not be sent; choose again.
play-your-move = Your move
play-not-now = Not possible now.
play-which = Which one?
play-cancel = Cancel
play-send = Send
play-undo = Undo
play-selected = Selected:
play-nt-take = Take { $card } (and { $n ->
        [one] { $n } coin
       *[other] { $n } coins
    })
play-nt-pass = No thanks (pay a coin)
play-nt-choices = Take or pass
play-nt-cannot-take = You cannot take the card now.
play-nt-cannot-pass = You cannot pass now.
play-nt-no-coins = You have no coins left: you must take the card.
play-sp-cannot-afford = You cannot afford this card yet.
play-sp-cannot-afford-full = You cannot afford this card, and you already hold 3 reserved cards.
play-sp-reserve-full = You already hold 3 reserved cards.
play-sp-deck-empty = This deck is empty.
play-sp-take = Take these gems
play-sp-clear = Clear
play-sp-no-take = You cannot take gems now.
play-sp-take-rule = Take three gems of different colours, or two of one colour when at least four are in the bank.
play-sp-gems-chosen = Gems chosen: { $gems }
play-sp-gems-how = Click gems in the bank to take them.
play-sp-gold = Gold comes only with a reserved card.
play-sp-gem-none = You cannot take this colour now.
play-gd-give = Give this card
play-gd-play = Play the selected cards
play-gd-cannot-play = You have nothing you may play now.
play-gd-select-first = Select cards in your hand first.
play-gd-not-a-play = These cards are not a combination you may play now.
play-gd-clear = Clear
play-gd-pass = Pass
play-gd-must-play = You lead this trick: you may not pass.
play-gd-card-no-fit = No play you may make holds this card with those selected.
play-gd-card-unused = No play you may make now holds this card.
play-gd-cannot-give = The rules do not let you give this card.
play-gd-selected = Selected: { $cards }
play-gd-meanings = { $n ->
        [one] { $n } way to read them
       *[other] { $n } ways to read them (the wild card)
    }
play-gd-how = Select cards in your hand, then play them.
play-gd-how-give = Select the card to give.
play-br-bidding-box = Bidding box
play-br-too-low = A bid must be higher than the last one.
play-br-no-doubles = This game's rules have no double or redouble.
play-br-follow = You must follow suit ({ $suit }).
play-br-cannot-play = You cannot play this card now.
play-br-play-how = Click a card in your hand to play it.
play-br-play-dummy = Click a card in dummy's hand to play it.
play-hb-cannot-own = You cannot play or discard now.
play-hb-no-tokens = No hint tokens left: play or discard instead.
play-hb-cannot-hint = You cannot give this hint now.
play-hb-how = Click one of your cards to play or discard it, or another player's card to hint its colour or number.
play-refused-not-asked = That turn is not being asked any more (the page was out of date).
play-refused-too-late = Too late: the time for that move ran out and the referee played for you.
play-refused-no-such-move = That is not one of the moves you may make.
play-distinct = { $name } · seat { $seat }
play-by-referee = { $who }: { $action } (played by the referee)
play-moved = { $who }: { $action }
play-tried = { $who } tried { $action }: refused, { $note }
play-note = { $who }: { $note }
play-resign = Resign
play-resign-sure = Yes, I resign: the referee plays my first listed move at every turn until the end.
play-resign-not-sure = To resign, tick the box first: a resignation cannot be taken back.
play-resign-not-running = There is nothing to resign from: the match is not being played now.
play-resigned = You resigned
play-resigned-then = the referee plays your first listed move at every turn until the match ends.
play-list-summary = All your legal moves, as a list
play-results = The result
play-results-player = Player
play-results-place = Place
play-results-score = Score
play-you-placed = You placed { $place }, with a score of { $score }.
play-your-score = Your score: { $score }.

## Play against bots (the form that starts a table)
play-new-title = Play against bots
play-new-intro-before = Take a seat yourself at a { $game } table in{" "}
play-new-intro-after = and play in the browser: you see what your seat's bot would see and choose among the legal moves.
play-new-unrated = Unrated: nobody's rating or standing changes.
play-new-no-team-before = Tables are started for a team:{" "}
play-new-no-team-link = create or join a team
play-new-no-team-after = {" "}first.
play-new-team = Team
play-new-seats = Seats, in turn order
play-new-seats-nothanks = Seats, in turn order
play-new-seats-splendor = Seats, in turn order
play-new-seats-guandan = Seats, in turn order (partners sit opposite: seats 0 and 2, seats 1 and 3)
play-new-seats-bridge = Seats: North, East, South, West (North and South are partners, as are East and West)
play-new-seats-hanabi = Seats (the turn order is shuffled when the game starts)
play-new-seat = Seat { $seat }
play-new-move-secs = Your time per move, in seconds
play-new-submit = Sit down and play
play-new-you = You ({ $name })
play-new-builtin = { $name } (built-in)
play-new-entered = { $team } v{ $version } (entered)
play-new-your-team = { $team } v{ $version } (your team's)
play-new-choose-you = choose "You" for one seat: this form seats you at the table

## Engine events in the timeline, the viewer's captions and the play page, said from the
## events' machine form with the games' own terms and symbols.
timeline-list-sep = ,{" "}
timeline-nt-passed = seat { $seat } passes on { $card } ({ $coins ->
        [1] { $coins } coin
       *[other] { $coins } coins
    } on it)
timeline-nt-picked = seat { $seat } picks { $card } with { $coins ->
        [1] { $coins } coin
       *[other] { $coins } coins
    }
timeline-nt-revealed = { $card } is turned up ({ $left ->
        [1] { $left } card
       *[other] { $left } cards
    } left in the deck)
timeline-nt-ended = game over; points by seat: { $points }
timeline-hb-red = red
timeline-hb-yellow = yellow
timeline-hb-blue = blue
timeline-hb-green = green
timeline-hb-white = white
timeline-hb-rainbow = rainbow
timeline-hb-number = { $n }
timeline-hb-card = { $color } { $number }
timeline-hb-hinted = seat { $seat } tells seat { $target } about their { $hint }s: slots [{ $slots }] ({ $tokens ->
        [one] 1 hint token
       *[other] { $tokens } hint tokens
    } left)
timeline-hb-played = seat { $seat } plays { $card } from slot { $slot }
timeline-hb-regains = {" "}and regains a hint token
timeline-hb-misplayed = seat { $seat } misplays { $card } from slot { $slot } (error { $errors } of 3)
timeline-hb-discarded = seat { $seat } discards { $card } from slot { $slot } ({ $tokens ->
        [one] 1 hint token
       *[other] { $tokens } hint tokens
    })
timeline-hb-drew-last = seat { $seat } draws the last card: every player takes one more turn
timeline-hb-drew = seat { $seat } draws a card ({ $left } left)
timeline-hb-ended = game over ({ $why }); score { $score }
timeline-hb-why-strikeout = the third error
timeline-hb-why-deck-out = the final round is over
timeline-hb-why-complete = every stack is complete
timeline-hb-why-fault = seat { $seat } broke the protocol
timeline-gd-spades = ♠
timeline-gd-hearts = ♥
timeline-gd-clubs = ♣
timeline-gd-diamonds = ♦
timeline-gd-small-joker = small joker
timeline-gd-big-joker = big joker
timeline-gd-single = Single
timeline-gd-pair = Pair
timeline-gd-trips = Trips
timeline-gd-three-pair = Three pairs
timeline-gd-three-with-two = Full house
timeline-gd-two-trips = Two trips
timeline-gd-straight = Straight
timeline-gd-straight-flush = Straight flush
timeline-gd-bomb = Bomb
timeline-gd-tribute-word = tribute
timeline-gd-back-word = back
timeline-gd-deal = deal { $deal } at level { $level }
timeline-gd-passes = seat { $seat } passes
timeline-gd-plays = seat { $seat } plays { $play }
timeline-gd-trick-over = trick over; seat { $leader } leads
timeline-gd-out = seat { $seat } is out in place { $place }
timeline-gd-tribute-item = seat { $from } gives { $card } to seat { $to }
timeline-gd-back-item = seat { $from } gives { $card } to seat { $to }
timeline-gd-tribute = tribute: { $list }
timeline-gd-anti-tribute = anti-tribute by { $seats }
timeline-gd-back = return: { $list }
timeline-gd-deal-over = deal over, order { $order }; next level { $level }
timeline-gd-won = game over: seats { $a } and { $b } win
timeline-gd-draw = game over: a draw
timeline-gd-card = { $suit }{ $rank }
timeline-gd-combo = { $kind } { $rank } ({ $cards })
timeline-gd-jokers = jokers
timeline-br-clubs = ♣
timeline-br-diamonds = ♦
timeline-br-hearts = ♥
timeline-br-spades = ♠
timeline-br-notrump = NT
timeline-br-bid = { $level }{ $strain }
timeline-br-pass = Pass
timeline-br-card = { $suit }{ $rank }
timeline-br-called = seat { $seat } calls { $call }
timeline-br-passed-out = passed out: the deal scores 0
timeline-br-auction-ended = contract { $bid } by seat { $declarer }; seat { $leader } leads
timeline-br-played = seat { $seat } plays { $card }
timeline-br-played-dummy = seat { $by } plays { $card } from dummy (seat { $hand })
timeline-br-dummy-shown = dummy (seat { $seat }) shows { $cards }
timeline-br-trick-won = seat { $seat } wins trick { $round }
timeline-br-deal-ended = declarer took { $tricks ->
        [1] { $tricks } trick
       *[other] { $tricks } tricks
    }; N-S score { $score }
timeline-sp-white = white
timeline-sp-blue = blue
timeline-sp-green = green
timeline-sp-red = red
timeline-sp-black = black
timeline-sp-gold = gold
timeline-sp-count = { $n } { $color }
timeline-sp-card = level { $level } { $color } card ({ $points ->
        [1] { $points } point
       *[other] { $points } points
    }, cost { $cost })
timeline-sp-noble-card = noble ({ $points ->
        [1] { $points } point
       *[other] { $points } points
    }, { $needs })
timeline-sp-took = seat { $seat } takes { $colors }
timeline-sp-from-deck = {" "}from the deck
timeline-sp-got-gold = {" "}and got 1 gold
timeline-sp-reserved = seat { $seat } reserves a { $card }{ $from }{ $gold }
timeline-sp-from-reserve = {" "}from their reserve
timeline-sp-bought = seat { $seat } buys a { $card }{ $from }
timeline-sp-noble = seat { $seat } is visited by a { $noble }
timeline-sp-passed = seat { $seat } passes (turn lost)
timeline-sp-round = Round { $round }
timeline-sp-row = seat { $seat }: { $points ->
        [1] { $points } point
       *[other] { $points } points
    }, { $cards ->
        [1] { $cards } card
       *[other] { $cards } cards
    }
timeline-sp-ended = Game over after { $rounds ->
        [1] { $rounds } round
       *[other] { $rounds } rounds
    }; { $rows }

## The moves a person may choose (the play page's list and the captions).
timeline-act-nt-pick = Take the card
timeline-act-nt-pass = No thanks (pay a coin)
timeline-act-hb-hint = hint { $hint } to seat { $target }
timeline-act-hb-play = play your card { $slot }
timeline-act-hb-discard = discard your card { $slot }
timeline-act-gd-pass = Pass
timeline-act-br-call = bid { $call }
timeline-act-br-play = play { $card }
timeline-act-sp-take-different = take { $colors }
timeline-act-sp-take-two = take two { $color }
timeline-act-sp-reserve = reserve the { $card }
timeline-act-sp-reserve-blind = reserve the top card of the level { $level } deck
timeline-act-sp-buy = buy the { $card }
timeline-act-sp-buy-reserved = buy your reserved { $card }
timeline-act-sp-pass = Pass (lose the turn)
timeline-act-sp-noble = {" "}and receive the { $noble }
viewer-entry-move = seat { $seat }: { $action }
