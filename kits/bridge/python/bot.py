"""Contract Bridge starter strategy for Croupier, speaking the course platform's protocol.

Run: python3 bot.py Board.txt StepLog.txt

The platform runs this program once per decision. It reads the table (Board.txt) and the
history of the deal (StepLog.txt), appends ONE line to StepLog.txt and exits with 0:
    Player<N> call H-2      Player<N> call pass      Player<N> play S-1
Cards are <suit>-<rank>: suits S H D C, ranks 1 (ace, the highest) 2..10 11 (J) 12 (Q) 13 (K).
Bids are <strain>-<level>: strains C < D < H < S < N (no trump), levels 1..7.

Strategy (improve choose_call() and choose_card()):
  auction: with 13+ high-card points, and if partner has not bid, bid the cheapest legal bid in
           the longest suit when it is at most at level 2; otherwise pass;
  play:    follow suit with the lowest card; without the suit, the lowest card.
"""
import sys

SUITS = "CDHS"
STRAINS = "CDHSN"


def parse_card(text):
    """'S-1' -> ('S', 14): the ace is written 1 and is the highest card."""
    suit, rank = text.split("-")
    rank = int(rank)
    return suit, 14 if rank == 1 else rank


def card_text(card):
    suit, rank = card
    return f"{suit}-{1 if rank == 14 else rank}"


def read_board(path):
    board = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0].startswith("Player"):
                board["player"] = int(words[0][6:])
            elif len(words) == 2:
                board[words[0]] = words[1]
    for key in ("Hand", "Other"):
        value = board.get(key, "None")
        board[key] = [] if value == "None" else [parse_card(c) for c in value.split(",")]
    return board


def hcp(hand):
    return sum(max(0, rank - 10) for _, rank in hand)


def choose_call(board, log):
    """'pass' or a bid such as 'H-1'."""
    partner = (board["player"] + 1) % 4 + 1
    last, partner_bid = -1, False
    for line in log:
        words = line.split()
        if len(words) != 3 or words[1] != "call" or words[2] == "pass":
            continue
        strain, level = words[2].split("-")
        last = (int(level) - 1) * 5 + STRAINS.index(strain)  # the auction's order
        partner_bid |= words[0] == f"Player{partner}"
    hand = board["Hand"]
    if hcp(hand) < 13 or partner_bid:
        return "pass"
    longest = max(range(4), key=lambda s: (sum(1 for c in hand if c[0] == SUITS[s]), s))
    for bid in range(last + 1, 35):
        if bid % 5 == longest:
            level = bid // 5 + 1
            return f"{STRAINS[longest]}-{level}" if level <= 2 else "pass"
    return "pass"


def choose_card(board, log):
    """The lowest card that follows the suit led, else the lowest card."""
    rounds = [i for i, line in enumerate(log) if line.startswith("Round")]
    trick = log[rounds[-1] + 1:] if rounds else []
    led = parse_card(trick[0].split()[2])[0] if trick else None
    hand = board["Hand"]
    return min(hand, key=lambda c: (c[0] != led, c[1]))


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: bot.py Board.txt StepLog.txt")
    board_path, log_path = sys.argv[1], sys.argv[2]
    board = read_board(board_path)
    with open(log_path) as f:
        log = [line.strip() for line in f if line.strip()]
    me = f"Player{board['player']}"
    if board["Stage"] == "call":
        line = f"{me} call {choose_call(board, log)}"
    else:
        line = f"{me} play {card_text(choose_card(board, log))}"
    with open(log_path, "a") as f:
        f.write(line + "\n")


if __name__ == "__main__":
    main()
