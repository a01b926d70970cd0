# Competitions: the list, a competition's page, the new-competition form, the organiser's
# controls, leaderboards, challenges and the admin page.
# Shown unescaped (`|safe`, for their apostrophes and quotes): new-choose-note-after,
# new-rule-settings-note, new-entries-note, new-kind-ladder, board-rating-rule and
# board-trend-*: no markup in them, and no arguments.

## The list of competitions
competitions-title = Leaderboards
competitions-new = New competition
competitions-none =
    No competition has been scheduled yet. When the organisers start a round-robin, its
    leaderboard, matches and replays appear here, one board per game.
competitions-none-yet = No competition yet.
competitions-leaderboard-link = leaderboard
competitions-archived = Archived competitions ({ $n })

## A competition's page
competition-status-scheduled = scheduled
competition-status-running = running
competition-status-paused = paused
competition-status-finished = finished
competition-status-cancelled = cancelled
competition-match-queued = queued
competition-match-running = running
competition-match-finished = finished
competition-match-failed = failed
competition-match-cancelled = cancelled
competition-play = Play against bots
competition-play-note = — take a seat yourself (unrated)
competition-game = Game
competition-rules = rules
competition-schedule = Schedule
competition-entries = { $n ->
        [one] { $n } entry
       *[other] { $n } entries
    }
competition-rounds = { $n ->
        [one] { $n } round
       *[other] { $n } rounds
    }
competition-base-seed = base seed
competition-base-seed-hidden = hidden until every match has ended
competition-move-time = Time per move
competition-ms = { $ms } ms
competition-default = the game's default
competition-games-per-match = Games per match
competition-created = Created
competition-created-by = { $when } by { $who }
competition-progress = Progress
competition-cancel-queued = Cancel queued matches
competition-rerun = Re-run { $n } failed
competition-cancel-note = Cancelling stops queued matches; running ones finish and count.
competition-resume = Resume
competition-pause = Pause
competition-close-entries = Close entries
competition-open-entries = Open entries
competition-finish = Finish
competition-organise = Rename, archive or delete
competition-name-label = Name
competition-rename = Rename
competition-unarchive = Bring back from the archive
competition-archive = Archive
competition-archive-note = (out of the public list; its pages stay)
# Around the competition's name, in bold.
competition-delete-before = Type the name,
competition-delete-after = , to delete the competition and its schedule (nothing was played):
competition-delete = Delete the competition
competition-no-delete = A competition with results cannot be deleted; archive it instead.
competition-archived-note = This competition is archived: it is not in the public list.
competition-full-page = full page
competition-matches = Matches
competition-no-matches = No matches.
competition-col-status = Status
competition-col-seats = Seats (place · score)
competition-col-finished = Finished
competition-seat-title = seat
competition-previous = ← previous
competition-page = page { $page } of { $pages }
competition-next = next →
competition-cancelled = Cancelled: { $n ->
        [one] { $n } queued match
       *[other] { $n } queued matches
    } will not be played; running matches finish and count.
competition-rerun-none = No failed match to re-run.
competition-rerun-done = { $n ->
        [one] { $n } failed match is
       *[other] { $n } failed matches are
    } queued again.
competition-no-such-result = `{ $asked }` is not a result to filter by: all, wins, losses or faults
# A ladder's levers.
competition-ladder-paused = Paused: no new matches until it is resumed; those already queued play on.
competition-ladder-resumed = Resumed.
competition-ladder-finished = Finished: its queued matches are cancelled; running ones finish and count.
competition-ladder-closed = Entries closed: the entered bots play on; new submissions do not enter.
competition-ladder-open = Entries open: every team's newest ready bot enters.
competition-ladder-not-running = no running ladder with that id (a finished or cancelled one cannot change)
# Why a competition is refused (the form and the API).
competition-bad-name = a competition needs a name of 1 to 80 characters
competition-bad-rules = { $game } has the rule sets { $rule_sets }, not { $rules }
competition-not-ready = submission { $id } is not a ready { $game } bot
competition-shared-member = { $user } is in both { $first } and { $second }: a person may enter one team per competition, so leave one of the two out
competition-bad-kind = a competition is a round_robin, a ladder, swiss or adaptive
competition-too-few = { $game } needs at least { $need } ready bots from the teams, and { $got } { $got ->
        [one] was
       *[other] were
    } chosen
competition-cannot-schedule = cannot schedule this competition: { $error }
competition-bad-rounds = the number of rounds must be 1 to { $max }, not { $n }
competition-bad-move-time = the time per move must be 1 to { $max } ms, not { $n }
competition-bad-games-per-match = the games per match must be 1 to { $max }, not { $n }
competition-too-many-games = a { $game } match plays at most { $max } game(s), as on the original platform, not { $n }: ask for more rounds instead
# Before the JSON value given.
competition-bad-rule-settings = the rule-set overrides must be a JSON object, not
competition-bad-ladder-pace = a ladder makes { $lo } to { $hi } matches an hour, not { $n }

## The organiser's controls
manage-nothing-changed = Nothing changed: { $reason }.
# The store's refusals, in its own words.
manage-refused-ladder-pause = a ladder is paused with its own Pause (it stops making matches)
manage-refused-ladder-resume = a ladder is resumed with its own Resume
manage-refused-cancelled = the competition is cancelled
manage-refused-finished = the competition has finished: every match is played
manage-refused-not-paused = the competition is not paused
manage-refused-played = { $n } of its matches { $n ->
        [one] was
       *[other] were
    } played or being played; a competition with results is archived, not deleted
manage-renamed = Renamed to { $name }.
manage-paused = Paused: { $n ->
        [one] { $n } queued match
       *[other] { $n } queued matches
    } wait; running matches finish and count.
manage-resumed = Resumed: { $n ->
        [one] { $n } match
       *[other] { $n } matches
    } queued again.
manage-delete-unconfirmed = Nothing changed: type the competition's name to delete it.
manage-deleted = The competition { $name } was deleted.
manage-archived = Archived: the competition is no longer listed; its pages stay at their addresses.
manage-unarchived = Brought back from the archive: the competition is listed again.

## The new-competition form
new-create-short = Create
new-choose-game = Choose game
# Around the game's name.
new-choose-note-before = The rule sets and entries below are
new-choose-note-after =
    's: after changing the game, press
    “Choose game” to see the new game's.
new-name-placeholder = e.g. { $game } spring round-robin
new-rule-set = Rule set
new-format = Format
new-rule-settings = Rule settings
new-rule-settings-note = (optional JSON overrides of the rule set, e.g. {"{"}"players": 5{"}"})
new-entries = Entries: ready { $game } bots
new-no-bots = No team has a ready { $game } bot yet.
new-col-entered = Entered
new-col-team = Team
new-col-version = Version
new-col-language = Language
new-col-uploaded = Uploaded
new-latest = latest
new-entries-note =
    Each team's latest ready version is ticked. Every group of entrants plays every seat
    rotation on the same deal (duplicate), once per round.
new-kind = Kind
new-kind-round-robin = Round-robin: every match scheduled now, the rounds below
new-kind-ladder = Ladder: runs continuously; every team's newest ready bot enters and replaces its previous one; matches are chosen by rating and uncertainty, new bots play placement games first
new-matches-per-hour = Ladder matches per hour
new-optional = (optional)
new-rounds = Rounds
new-base-seed = Base seed
new-random = random
new-move-time = Time per move, ms
new-game-default = game default
new-limits-note =
    At most { $max } rounds. The same seed and entries give the same schedule.
    Time per move by default: as the original platform (Splendor 2 s, Bridge 5 s, the others 10 s).
    Games per match: Guandan games from level 2 to A, Bridge boards per table (default 4, else 1).
new-create = Create and queue the matches
new-created = Competition created: { $entries ->
        [one] { $entries } entry
       *[other] { $entries } entries
    }, { $matches ->
        [one] { $matches } match
       *[other] { $matches } matches
    } queued.
new-unknown-game = { $game } is not a game hosted here
new-game-changed = The game was changed to { $game } without “Choose game”, so nothing was created: below are { $game }'s rule sets and ready bots. Check them and create again.
new-not-number = { $what } must be a whole number, not { $value }
new-what-rounds = the number of rounds
new-what-base-seed = the base seed
new-what-move-time = the time per move
new-what-games-per-match = the games per match
new-what-matches-per-hour = the ladder's matches per hour
new-bad-submission-id = { $id } is no submission id
new-bad-kind = { $kind } is not a kind of competition
new-bad-format = { $format } is not a competition format
new-settings-not-json = the rule settings are not JSON: { $error }

## A challenge or A/B test
challenge-title = Challenge
challenge-ab-title = A/B test
challenge-done = done
challenge-running = running
# "In <its competition>, unrated:"
challenge-in = In
challenge-its-competition = its competition
challenge-unrated = , unrated:
challenge-groups = { $n } duplicate group(s) at most
challenge-counts =
    { $finished } finished, { $running } running, { $queued } queued,
    { $failed } failed, { $cancelled } cancelled
challenge-verdict = Verdict
challenge-results = Results
challenge-col-participant = Participant
challenge-col-score = Score per match (95% CI)
challenge-none-finished = No finished match yet.
challenge-match = Match { $n }
challenge-at-table = at the table:
challenge-your-seat = your seat
# Before the id's first 8 hex digits.
challenge-builtin = built-in { $name }
challenge-person = { $name } (a person)
challenge-verdict-continue = Still playing: { $n } groups so far.
challenge-verdict-a = A is better (decided after { $n } groups).
challenge-verdict-b = B is better (decided after { $n } groups).
challenge-verdict-same = No meaningful difference (after { $n } groups).
challenge-verdict-inconclusive = Inconclusive: { $n } groups played without a decision.
# The A/B numbers: "Mean difference A − B per group 0.42 (positive: A better); 95% CI 0.10 to
# 0.74; anytime-valid -0.20 to 1.04."
challenge-mean-diff = Mean difference A − B per group
challenge-positive = (positive: A better)
challenge-sep = ;{" "}
challenge-end = {"."}
challenge-ci = 95% CI
challenge-to = to
challenge-no-interval = no interval yet
challenge-anytime = anytime-valid
challenge-anytime-infinite = anytime-valid interval not yet finite

## The admin page
admin-title = Admin
admin-heading = Administration
# "Competitions and their progress are listed on the <Leaderboards> page."
admin-competitions-before = Competitions and their progress are listed on the
admin-competitions-after = page.
admin-reset-heading = Password reset link for { $user }
admin-reset-note = Give this link to { $user } yourself; it works once, until { $expires }, and is shown only now:
admin-users = Users ({ $n })
admin-col-username = Username
admin-col-email = Email
admin-col-joined = Joined
admin-col-role = Role
admin-col-action = Action
admin-role-admin = admin
admin-role-user = user
admin-remove-admin = Remove admin
admin-make-admin = Make admin
admin-reset-label = Make a password reset link for { $user }
admin-reset-link = Reset link
admin-teams = Teams ({ $n })
admin-col-members = Members
admin-col-submissions = Submissions
admin-workers = Workers ({ $n })
admin-workers-label = Workers
# "No worker has been heard of in the last day. Start one with <croupier work> (or <croupier up>)."
admin-no-workers = No worker has been heard of in the last day. Start one with
admin-no-workers-or = (or
admin-no-workers-end = ).
admin-col-worker = Worker
admin-col-host = Host
admin-col-started = Started
admin-col-last-heard = Last heard
admin-col-state = State
admin-col-doing = Doing
admin-state-stopped = stopped
admin-state-alive = alive
admin-state-silent-s = silent for { $n } s
admin-state-silent-min = silent for { $n } min
admin-state-silent-h = silent for { $n } h
admin-doing-match = a match
admin-doing-build = a build
admin-idle = idle
admin-own-role = you cannot remove your own admin role
admin-now-admin = { $user } is now an administrator.
admin-no-longer-admin = { $user } is no longer an administrator.

## Leaderboards (the table is kept in memory; see leaderboard.rs)
board-title = Leaderboard
board-heading-suffix = leaderboard
board-progress-link = progress and matches
board-no-entries = No entries.
board-col-bot = Bot
board-col-games = Games
board-col-mean = Mean score
board-col-wins = Wins
board-col-best = Best score
board-col-faults = Faults
board-col-ci = Per game, 95% CI
board-col-rating = Rating
board-col-trend = Trend
board-lower-better = lower is better in this game
board-best-title = the best score in one game
board-ci-title = the { $metric } per game, with its 95% confidence interval
board-rating-title = Weng-Lin rating: μ − 3σ
board-rating-shown = shown is μ − 3σ
board-trend-title-rated = the rating after each match
board-trend-title-mean = the mean score after each match
# What decides the position, in each game's own terms.
board-metric-rank-points = rank points
board-metric-games-won = games won
board-metric-imps = IMPs
board-metric-mean-score = mean score
board-extra-splendor-heading = Battle score
board-extra-splendor = battle score { $score }
board-extra-guandan-heading = Draws
board-extra-guandan = { $n } drawn
board-extra-bridge-heading = Per board
# After the IMPs per board, e.g. "1.50 IMPs/board over 4 boards, 120 points".
board-extra-bridge = IMPs/board over { $boards ->
        [one] { $boards } board
       *[other] { $boards } boards
    }, { $points ->
        [one] { $points } point
       *[other] { $points } points
    }
# The small print under the table, in pieces.
board-from = From { $n ->
        [one] { $n } finished match
       *[other] { $n } finished matches
    }.
board-ranked-by = Ranked by { $metric }
board-rank-points-rule = {" "}(4 for 1st, 2 for 2nd, 1 for 3rd)
board-ties =
    ;
    equal values share a place, then the better mean score goes first. The interval is the 95% confidence interval of the
    { $metric } per game
board-rating-rule = ; the rating is Weng-Lin's μ − 3σ
board-trend-rated =
    {"."} The trend is the rating after each
    of the bot's matches (its team sees it plotted in full on the submission page).
    Failed and cancelled matches never count.
board-trend-mean =
    {"."} The trend is the mean score after each
    of the bot's matches (its team sees it plotted in full on the submission page).
    Failed and cancelled matches never count.
competition-settings-note = Time per move, games per match and seat limits can change until the first match starts (empty: the default); a ladder's pace at any time.
competition-setting-move-time = Time per move (ms)
competition-setting-games = Games per match
competition-setting-memory = Memory per seat (MiB)
competition-setting-disk = Disk per seat (MiB)
competition-setting-cpu = CPU per seat (thousandths of a core)
competition-setting-per-hour = Matches per hour
competition-setting-pending = Matches queued or running at once
competition-setting-default = default
competition-settings-save = Save settings
manage-not-a-number = { $field }: “{ $value }” is not a whole number
manage-settings-saved = Settings saved.
manage-refused-started = { $n } of its matches { $n ->
        [one] has
       *[other] have
    } started: time and limits stay as they were played
competition-no-budget = an adaptive competition needs a match budget: the most matches it may play
competition-bad-swiss-rounds = a Swiss competition plays 1 to { $max } rounds, not { $n }
competition-bad-budget = an adaptive competition needs a budget of at least { $group } matches (one group), not { $n }
competition-bad-decide-top = the places to decide must be 1 or more (the top k), not 0
competition-bad-final-top = a final stage takes the top { $lo } to { $hi } entrants (and at least one group of the format), not { $n }
fitted-title = Fitted ranking
fitted-intro = One model fitted over all finished matches at once (Plackett–Luce for three or more seats, Bradley–Terry for pairs, the mean score in Hanabi), with each bot's 95% interval. It does not depend on the order results came in.
fitted-col-strength = Strength [95% interval]
fitted-col-mean = Mean score [95% interval]
fitted-col-observations = Observed
fitted-col-apart = Ahead of next?
fitted-apart-yes = yes, at 95%
fitted-apart-no = not yet
fitted-all-apart = Every bot is ahead of the next at 95%: the order is decided.
fitted-ties = Not yet apart at 95%: places { $runs }.
rounds-plan-swiss = Swiss rounds: { $rounds } rounds; each groups bots of similar standing that have not met, and is planned when the round before has ended
rounds-plan-adaptive-top = Adaptive ranking: each round plays the groups whose order is least certain, until the top { $k } are apart from the rest at 95% or { $budget } matches are played
rounds-plan-adaptive-order = Adaptive ranking: each round plays the groups whose order is least certain, until the whole order is decided at 95% or { $budget } matches are played
rounds-final-stage = ; then a final round-robin of the top { $n }
rounds-round-of = Round { $round } of { $rounds }
rounds-round-budget = Round { $round }; { $played } of at most { $budget } matches played before it
rounds-byes = {" "}· { $n } sitting this round out (a bye: neither a win nor a loss)
rounds-done = Done after { $rounds ->
    [one] { $rounds } round
   *[other] { $rounds } rounds
}.
rounds-decided = The ranking is decided: every place is apart at 95%.
rounds-undecided = Not yet apart at 95%: places { $runs }.
rounds-title = Rounds
rounds-stage-of = A stage of
rounds-next-stage = Next stage
rounds-short-swiss = Swiss, { $n ->
    [one] { $n } round
   *[other] { $n } rounds
}
rounds-short-adaptive = adaptive ranking, at most { $budget } matches
new-kind-swiss = Swiss rounds: each round groups bots of similar standing that have not met yet, and is planned when the round before has ended; for a field too big for a round-robin
new-kind-adaptive = Adaptive ranking: each round plays the groups whose order is least certain, and stops when the top k (or the whole order) are apart at 95% or the budget is spent
new-count-ticked = { $n } bots ticked.
new-count-round-robin = { $n } matches (every group, every seating, each round).
new-count-swiss = { $n } matches ({ $rounds } rounds).
new-count-adaptive = At most the budget below; it says which places are still ties when it stops.
new-swiss-rounds = Swiss rounds
new-budget = Match budget (adaptive)
new-decide-top = Decide the top (adaptive)
new-decide-all = whole order
new-final-top = Final round-robin of the top
new-no-final = none
new-what-swiss-rounds = the Swiss rounds
new-what-budget = the match budget
new-what-decide-top = the places to decide
new-what-final-top = the final stage's field
board-uncounted = {" "}({ $n ->
        [one] { $n } more, with a built-in bot or a person in a seat, counts
       *[other] { $n } more, with a built-in bot or a person in a seat, count
    } on no leaderboard.)
competition-final-after-rr = a final stage follows a Swiss, adaptive or ladder competition: a round-robin already ranks everyone
