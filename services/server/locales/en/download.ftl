# /download: the runner for bot authors (the static `croupier` binary and its wheel).
download-title = Download the runner
download-intro =
    The croupier command plays your bot on your own machine against the built-in bots, with the
    same referee, protocol and rules as this platform, and talks to this platform from a terminal.
    It is one file: no Rust, no compiler, nothing else to install.
download-binary = Linux x86-64: one static binary
download-binary-how = It runs on any Linux on x86-64 (it needs no library, not even the C library). Check it, make it executable and put it on your PATH:
download-not-built = The runner has not been built on this platform yet: ask its organiser to run, in the platform's repository,
download-not-configured = This platform does not serve the runner yet: its organiser builds it and names the directory with CROUPIER_DOWNLOADS_DIR (or --downloads-dir), in the platform's repository:
download-from-source = Until then, with the Rust toolchain, install it from the platform's repository:
download-wheel = With pip: the same binary in a Python wheel
download-wheel-how = Installing the wheel puts croupier on the PATH of the Python environment (Python 3.8 or newer, Linux x86-64):
download-wheel-missing = No wheel has been built on this platform yet (scripts/build-runner makes it with the binary).
download-play = Play a starter kit
download-play-how = Download a game's starter kit, unpack it and play it against the built-in bots:
download-sandbox =
    Run as root (with bubblewrap installed), croupier play runs every bot in the same sandbox as
    this platform. As any other user it runs them as plain processes, with --sandbox none, and
    says so: they are not isolated, so run only code you trust. The kits:
download-client = Use this platform from a terminal
download-client-how = Log in once (the token is kept in your configuration directory, ~/.config/croupier), then upload bots, follow your matches, download replays and your bot's logs, read a leaderboard and start a challenge:
