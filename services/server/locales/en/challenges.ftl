# Starting challenges and A/B tests on the site, a team's list of them, and the live parts
# of the challenge and submission pages.

challenge-new-title = Challenges and A/B tests
challenge-new-intro-before = Unrated { $game } matches in the setting of{" "}
challenge-new-intro-after = : its rules and limits, never its leaderboard.
challenge-new-budget = A team may start { $n } challenges or A/B tests an hour. Tables where you play yourself do not count.
challenge-new-spent-hour = Your team has started { $n } challenges in the last hour: the next may start at { $time } UTC.
challenge-new-spent-pending = Your team has { $n } challenge matches waiting or running: the next challenge may start once some of them have been played.
challenge-new-no-team-before = You need a team first:{" "}
challenge-new-no-team-link = create or join one
challenge-new-no-team-after = .
challenge-new-challenge = Challenge
challenge-new-challenge-help = Choose who sits in each seat: the competition's entries, your team's ready versions or built-in bots. Each duplicate group plays the seating and its rotations on one deal.
challenge-new-team = Team
challenge-new-seats = Seats
challenge-new-seat = Seat { $seat }
challenge-new-games = Duplicate groups
challenge-new-submit = Start the challenge
challenge-new-ab = A/B test
challenge-new-ab-help = Two of your team's versions play each other on the same deals until one is better, or the groups run out.
challenge-new-ab-needs-two = An A/B test needs two ready versions of this game.
challenge-new-a = Version A
challenge-new-b = Version B
challenge-new-max-games = At most this many groups
challenge-new-ab-submit = Start the A/B test
challenge-new-entered = { $name } (entered)
challenge-new-yours = { $name } (your team)
challenge-new-bad-seat = Unknown choice { $value }.
challenge-version = { $team } v{ $version }

challenge-list-title = Challenges
challenge-list-help = The team's challenges, A/B tests and tables, newest first. None of them counts on a leaderboard.
challenge-list-none = No challenge yet.
challenge-list-all = All of the team's challenges
challenge-list-page = The team's challenges
challenge-list-start-in = Start a challenge or an A/B test in:
challenge-list-region = The team's challenges
challenge-list-col-what = What
challenge-list-col-competition = Competition
challenge-list-col-who = At the table
challenge-list-col-status = Status
challenge-list-col-started = Started
challenge-list-table = Table
challenge-list-a-person = a person
challenge-list-ab = A: { $a } · B: { $b }

challenge-results-table = Results of the participants
challenge-noscript-before = This page refreshes itself while the challenge runs;{" "}
challenge-noscript-reload = reload it
challenge-noscript-after = {" "}for the latest.

# The upload form's languages whose label has words to translate.
upload-language-binary = Linux x86-64 binary
