# Accounts, teams, uploads and submissions: the home page, sign-up and log-in, passwords and
# reset links, the teams and team pages (members, invite codes, API tokens), the upload form
# and a submission's page. Pieces around a link or a <code> keep their spaces inside the
# value ({" "}), so that a language that needs none can leave them out.

## The home page
home-title = Home
home-hero = Bring your bot to the table.
home-intro-before = Croupier runs tournaments between game-playing programs. Upload a bot written for one of the five original platforms — it runs here{" "}
home-intro-unchanged = unchanged
home-intro-after = , in a sandbox, against everyone else's. Organisers schedule round-robins; everyone can follow the leaderboards and replays.
home-leaderboards = Leaderboards
home-games = Games
home-seats = { $n ->
    [one] { $n } seat
   *[other] { $n } seats
}
home-how = How it works
home-step-team = Form a team.
home-step-team-text = Sign up, create a team and share its invite code.
home-step-upload = Upload a bot.
home-step-upload-before = A single file or a .zip / .tar.gz: Python 3, C, C++ or a Linux binary. Or use{" "}
home-step-upload-after = {" "}from your terminal.
home-step-compete = Compete.
home-step-compete-text = Every version is kept; your bot is compiled, checked in a test game, and entered in the organisers' round-robins.

## Sign up, log in
account-create = Create an account
account-username = Username
account-password = Password
account-end = {"."}
account-busy = the server is busy; try again in a few seconds
login-title = Log in
login-new-here = New here?{" "}
login-wrong = wrong username or password
login-too-many = too many failed logins; wait { $minutes } minutes and try again
signup-title = Sign up
signup-username-hint = 3–32 letters, digits, “_”, “.” or “-”.
signup-email = Email
signup-optional = (optional)
signup-password-again = Password again
signup-have-account = Already have an account?{" "}
signup-username-rule = a username has 3 to 32 characters: letters, digits, '_', '.' or '-'
signup-email-rule = that email address does not look right
signup-username-taken = the username { $name } is already taken
signup-passwords-differ = the two passwords differ
signup-welcome = Welcome, { $user }! Create a team or join one with an invite code.

## Passwords: changing one's own, the strength rules, reset links
password-title = Change your password
password-current = Current password
password-new = New password
password-new-again = New password again
password-change = Change password
password-new-differ = the two new passwords differ
password-not-current = That is not your current password.
password-changed = Your password is changed. { $sessions ->
        [0] No other browser was signed in
        [one] 1 other browser is signed out
       *[other] { $sessions } other browsers are signed out
    }; { $tokens ->
        [0] no API token was revoked
        [one] 1 API token is revoked
       *[other] { $tokens } API tokens are revoked
    }.
password-too-short = the password must have at least { $n } characters
password-too-long = the password must have at most { $n } characters
password-too-easy = this password is too easy to guess
password-add-words = add a few uncommon words
# The reasons a password is refused, joined: “too easy to guess: add a few uncommon words.”
password-why-sep = :{" "}
password-why = { $why }.
password-keep-tokens = Keep my API tokens working ({ $n } live)
password-keep-tokens-help = Left unticked, the new password revokes them: scripts and the command line then need a new token from a team page.
account-title = Your account
account-sessions = Signed-in browsers
account-sessions-help = Every browser signed in as you. Sign out one you do not recognise, then change your password.
account-col-browser = Browser
account-col-address = Address
account-col-signed-in = Signed in
account-col-last-seen = Last seen
account-col-action = Action
account-this-browser = this browser
account-sign-out = Sign out
account-sign-out-label = Sign out the browser last seen { $when }
account-sign-out-others = Sign out everywhere else
account-session-ended = That browser is signed out.
account-others-ended = { $sessions ->
        [one] 1 other browser is signed out.
       *[other] { $sessions } other browsers are signed out.
    }
account-browser-on = { $browser } on { $system }
account-browser-unknown = unknown browser
reset-title = Set a new password
reset-for-before = This link sets a new password for{" "}
reset-for-after = . It works once.
reset-set = Set the password
reset-expired = This link has expired or was already used.
reset-ask-before = Ask an administrator for a new one, or{" "}
reset-log-in = log in
reset-ask-after = {" "}if you know your password.
reset-done = The password of { $user } is set: log in with it. Every browser signed in as { $user } was signed out.

## The teams page
teams-title = Teams
teams-yours = Your teams
teams-none = You are not in a team yet. Create one, or join your teammates' with their invite code.
teams-col-team = Team
teams-col-role = Your role
teams-create-heading = Create a team
teams-name = Team name
teams-create = Create team
teams-join-heading = Join a team
teams-invite-code = Invite code
teams-join = Join
teams-created = Team { $team } created. Share its invite code with your teammates.
teams-name-rule = a team name has 2 to 48 characters
teams-name-taken = the team name { $name } is already taken
teams-joined = You joined { $team }.
teams-no-such-code = no team has this invite code
teams-already-member = you are already a member of { $team }

## A team's page
# A member's role.
team-role-owner = owner
team-role-member = member
team-upload = Upload a bot
team-admin-view = You see this team as an admin; you are not one of its members.
team-submissions = Submissions
team-no-bots = No bots yet.{" "}
team-upload-first = Upload your first one.
team-col-game = Game
team-col-version = Version
team-col-language = Language
team-col-file = File
team-col-size = Size
team-col-status = Status
team-col-uploaded = Uploaded
team-members = Members
team-make-owner = Make owner
team-remove = Remove
team-invite-before = Teammates join with this code on their{" "}
team-invite-after = {" "}page:
team-new-code = Make a new code
team-leave = Leave the team
team-delete = Delete the team
team-delete-before = Type the team's name,{" "}
team-delete-after = , to delete it with its members' access and tokens:
team-cannot-delete = A team that has uploaded bots keeps its history and cannot be deleted. To leave it, make another member the owner first.
team-owner-only-invite = only the team's owner can change the invite code
team-new-code-made = A new invite code was made; the old one no longer works.
team-owner-only-members = only the team's owner can change its members
team-nothing-changed = Nothing changed: { $reason }.
team-owner-cannot-leave = the owner cannot leave: make another member the owner first, or delete the team
team-owner-cannot-be-removed = the owner cannot be removed; to leave, make another member the owner first
team-has-history = the team has { $n ->
    [one] { $n } submission
   *[other] { $n } submissions
} and keeps its history; only a team that never uploaded a bot can be deleted
team-type-name = Nothing changed: type the team's name to delete it.
team-left = You left { $team }.
team-removed = { $user } is no longer a member.
team-new-owner = { $user } is now the team's owner; you are a member.
team-deleted = The team { $team } was deleted.

## API tokens (on the team page)
token-heading = API tokens
token-help = The command line uses a token to upload for this team:
token-new = Your new token — copy it now, it is shown only once:
token-col-name = Name
token-col-created = Created
token-col-last-used = Last used
token-col-action = Action
token-never = never
token-revoke = Revoke
token-name-placeholder = token name, e.g. laptop
token-create = Create token
token-name-too-long = a token name has at most 64 characters
token-revoked = The token was revoked.

## The upload form
upload-title = Upload · { $team }
upload-heading = Upload a bot for { $team }
upload-game = Game
upload-language = Language
upload-label = Label
upload-label-hint = (optional, e.g. “greedy v2”)
upload-file = File
upload-choose-again = Browsers do not keep a chosen file: choose it again.
# How each language is built, around the commands and file names it shows as code.
upload-build-1 = How each language is built (Debian 12, in the upload's folder): Python 3.11 with numpy, checked with{" "}
upload-build-2 = ; C with{" "}
upload-build-3 = ; C++ with{" "}
upload-build-4 = {" "}(jsoncpp 1.9.5 and the nlohmann-json 3.11.2 headers). A C++ upload that brings its own jsoncpp (a{" "}
upload-build-5 = {" "}with{" "}
upload-build-6 = {" "}or{" "}
upload-build-7 = ) is built with its copy: the folder holding its json/ on the include path instead of the system's, its sources compiled in, no -ljsoncpp. A binary runs as it is.
upload-entry = Entry point
upload-optional = (optional)
upload-entry-placeholder = client0.py  or  player.py:cautious(0.3)
# The entry point's help, around the file names it shows as code.
upload-entry-help-1 = Which file starts your bot, when the upload has several (a folder with{" "}
upload-entry-help-2 = : give one, as a path inside the upload). A Hanabi class bot may also name its class and constructor arguments (Python literals):{" "}
upload-entry-help-3 = . Empty:{" "}
upload-entry-help-4 = {" "}or the only source file; for Hanabi the class{" "}
upload-entry-help-5 = , else the only{" "}
upload-entry-help-6 = {" "}subclass.
upload-list-sep = ,{" "}
upload-limits = A single source file or binary, or a .zip / .tar.gz archive: at most { $size }, { $files ->
    [one] { $files } file
   *[other] { $files } files
} and { $unpacked } unpacked; no absolute paths, “..” or links.
upload-button = Upload
upload-kept = Every upload is kept as a new version; nothing is overwritten.
upload-done = Uploaded version { $version } of your { $game } bot; it is queued for compilation.
upload-choose-file = choose a file to upload
upload-empty-file = the file { $file } is empty
upload-field-too-long = a form field is too long
upload-unreadable = the upload could not be read: { $why }
upload-too-large = the upload is larger than the { $limit } limit
upload-label-too-long = the label may have at most 80 characters
upload-needs-source = a { $language } bot needs a { $endings } file, and the upload has none
upload-class-entry = the entry names a class ({ $class }): { $game } bots are programs, give just the file (class bots are for Python bots of games whose framework loads a class, like Hanabi)
upload-entry-not-language = the entry file { $file } is not a { $language } file ({ $endings })
upload-rules = Rule set
upload-table-usual = the usual table
upload-players = Players
upload-table-help = The validation game is played at this table: a rule set and, where the game lets it be chosen, the number of players ({ $choices }). Left empty: the table of the game's newest open competition, else the game's default.
upload-rules-unknown = { $game } has no rule set { $rules }: choose one of { $known }
upload-players-fixed = { $game } ({ $rules }) is always played by { $seats } players: leave the number of players empty
upload-players-range = { $game } ({ $rules }) takes { $least } to { $most } players

## A submission's page
# A submission's state.
submission-status-pending = pending
submission-status-compiling = compiling
submission-status-validating = validating
submission-status-ready = ready
submission-status-failed = failed
submission-heading = { $game } bot v{ $version }
submission-when-by = { $when } by { $user }
submission-team = Team
submission-language = Language
submission-upload = Upload
submission-download = download
submission-entry = Entry point
submission-unpacked = Unpacked
submission-unpacked-size = { $size } in { $files ->
    [one] { $files } file
   *[other] { $files } files
}
submission-uploaded = Uploaded
submission-failure = Failure
submission-table = Validation game
submission-table-value = { $rules }, { $players } players
submission-seed = seed
submission-warning = Warning
submission-warning-summary = { $faults ->
    [one] 1 fault
   *[other] { $faults } faults
} in its validation game, which it played on after: { $kinds }. In a competition each costs what the game makes it cost (a lost turn, a refused move, the rest of the game played for it). The build log below shows the game.
team-warned = { $faults ->
    [one] 1 fault
   *[other] { $faults } faults
}
submission-files = Files
submission-col-path = Path
submission-col-size = Size
submission-col-mode = Mode
submission-executable = executable
submission-matches = Matches
# The filters of the match list.
submission-filter-all = All
submission-filter-wins = Wins
submission-filter-losses = Losses
submission-filter-faults = Faults
submission-match-count = { $n ->
    [one] { $n } match
   *[other] { $n } matches
}
submission-no-matches-yet = This bot has not played a match yet.
submission-no-matches-here = No matches here.
submission-matches-played = Matches played
submission-col-match = Match
submission-col-competition = Competition
submission-col-seat = Seat
submission-col-opponents = Opponents
submission-col-place = Place
submission-col-score = Score
submission-col-end = End
submission-newer = ← newer
submission-page-of = page { $page } of { $pages }
submission-older = older →
submission-build-log = Build log
submission-queued = Queued: a worker will compile and test it.
submission-no-output = No output.
submission-history = History
submission-history-place = place { $place }
submission-history-omitted = { $n ->
    [one] { $n } older competition not plotted: see its leaderboard.
   *[other] { $n } older competitions not plotted: see their leaderboards.
}
