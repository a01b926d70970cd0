/*
 * Contract Bridge starter strategy for Croupier, speaking the course platform's protocol.
 *
 * Build: gcc -O2 -o bot bot.c          Run: ./bot Board.txt StepLog.txt
 *
 * The platform runs this program once per decision. It reads the table (Board.txt) and the
 * history of the deal (StepLog.txt), appends ONE line to StepLog.txt and exits with 0:
 *     Player<N> call H-2      Player<N> call pass      Player<N> play S-1
 * Cards are <suit>-<rank>: suits S H D C, ranks 1 (ace, the highest) 2..10 11 (J) 12 (Q) 13 (K).
 * Bids are <strain>-<level>: strains C < D < H < S < N (no trump), levels 1..7.
 *
 * Strategy (improve choose_call() and choose_card()):
 *   auction: with 13+ high-card points, and if partner has not bid, bid the cheapest legal bid
 *            in the longest suit when it is at most at level 2; otherwise pass;
 *   play:    follow suit with the lowest card; without the suit, the lowest card.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CARDS 13
#define MAX_LINES 512

typedef struct {
    int suit; /* 0 C, 1 D, 2 H, 3 S */
    int rank; /* 2..14, 14 = ace (written 1) */
} Card;

typedef struct {
    int player;             /* 1..4: N E S W */
    int game;
    char stage[8];          /* "call" or "play" */
    Card hand[MAX_CARDS];   /* the hand to play from (dummy's when you play for dummy) */
    int hand_n;
    Card other[MAX_CARDS];  /* dummy's (or declarer's) hand, play stage only */
    int other_n;
    int round;
} Board;

static const char SUITS[] = "CDHS";
static const char STRAINS[] = "CDHSN";

static int parse_card(const char *s, Card *c) {
    const char *p = strchr(SUITS, s[0]);
    int rank;
    if (s[0] == '\0' || p == NULL || s[1] != '-') return 0;
    rank = atoi(s + 2);
    if (rank < 1 || rank > 13) return 0;
    c->suit = (int)(p - SUITS);
    c->rank = rank == 1 ? 14 : rank;
    return 1;
}

static void card_text(Card c, char *out) {
    sprintf(out, "%c-%d", SUITS[c.suit], c.rank == 14 ? 1 : c.rank);
}

/* "S-5,S-8,H-12" or "None" into cards; returns how many. */
static int parse_cards(char *list, Card *cards) {
    int n = 0;
    char *tok = strtok(list, ",");
    while (tok != NULL && n < MAX_CARDS) {
        if (parse_card(tok, &cards[n])) n++;
        tok = strtok(NULL, ",");
    }
    return n;
}

static int read_board(const char *path, Board *b) {
    char line[512], key[32], value[480];
    FILE *f = fopen(path, "r");
    if (f == NULL) return 0;
    memset(b, 0, sizeof *b);
    while (fgets(line, sizeof line, f) != NULL) {
        value[0] = '\0';
        if (sscanf(line, "%31s %479s", key, value) < 1) continue;
        if (strncmp(key, "Player", 6) == 0) b->player = atoi(key + 6);
        else if (strcmp(key, "Game") == 0) b->game = atoi(value);
        else if (strcmp(key, "Stage") == 0) snprintf(b->stage, sizeof b->stage, "%s", value);
        else if (strcmp(key, "Hand") == 0) b->hand_n = parse_cards(value, b->hand);
        else if (strcmp(key, "Other") == 0) b->other_n = parse_cards(value, b->other);
        else if (strcmp(key, "Round") == 0) b->round = atoi(value);
    }
    fclose(f);
    return b->player >= 1 && b->player <= 4;
}

/* The StepLog's lines, without their line breaks. */
static char steplog[MAX_LINES][64];
static int steplog_n;

static void read_steplog(const char *path) {
    FILE *f = fopen(path, "r");
    steplog_n = 0;
    if (f == NULL) return;
    while (steplog_n < MAX_LINES && fgets(steplog[steplog_n], sizeof steplog[0], f) != NULL) {
        steplog[steplog_n][strcspn(steplog[steplog_n], "\r\n")] = '\0';
        steplog_n++;
    }
    fclose(f);
}

static int hcp(const Board *b) {
    int i, points = 0;
    for (i = 0; i < b->hand_n; i++)
        if (b->hand[i].rank > 10) points += b->hand[i].rank - 10;
    return points;
}

/* Writes the call into out: "pass" or "H-1". */
static void choose_call(const Board *b, char *out) {
    int i, length[4] = {0, 0, 0, 0}, longest = 0, last = -1, partner_bid = 0;
    char who[32], verb[16], what[16];
    int partner = (b->player + 1) % 4 + 1;
    for (i = 0; i < steplog_n; i++) {
        if (sscanf(steplog[i], "%31s %15s %15s", who, verb, what) != 3) continue;
        if (strcmp(verb, "call") != 0 || strcmp(what, "pass") == 0) continue;
        /* a bid: remember it as level * 5 + strain, the auction's order */
        last = (atoi(what + 2) - 1) * 5 + (int)(strchr(STRAINS, what[0]) - STRAINS);
        if (strncmp(who, "Player", 6) == 0 && atoi(who + 6) == partner) partner_bid = 1;
    }
    strcpy(out, "pass");
    if (hcp(b) < 13 || partner_bid) return;
    for (i = 0; i < b->hand_n; i++) length[b->hand[i].suit]++;
    for (i = 1; i < 4; i++)
        if (length[i] >= length[longest]) longest = i;
    for (i = last + 1; i < 35; i++) {
        if (i % 5 == longest) {
            if (i / 5 + 1 <= 2) sprintf(out, "%c-%d", STRAINS[longest], i / 5 + 1);
            return;
        }
    }
}

/* The card to play from b->hand. */
static Card choose_card(const Board *b) {
    char who[32], verb[16], what[16];
    int i, led = -1, best = -1;
    Card c;
    /* the current trick: the play lines after the last "Round" line */
    for (i = steplog_n - 1; i >= 0; i--)
        if (strncmp(steplog[i], "Round", 5) == 0) break;
    if (i >= 0 && i + 1 < steplog_n &&
        sscanf(steplog[i + 1], "%31s %15s %15s", who, verb, what) == 3 && parse_card(what, &c))
        led = c.suit;
    for (i = 0; i < b->hand_n; i++) {
        int follows = b->hand[i].suit == led;
        if (best < 0) { best = i; continue; }
        int best_follows = b->hand[best].suit == led;
        if (follows != best_follows) { if (follows) best = i; continue; }
        if (b->hand[i].rank < b->hand[best].rank) best = i;
    }
    return b->hand[best < 0 ? 0 : best];
}

int main(int argc, char **argv) {
    Board b;
    char move[64], text[16];
    FILE *f;
    if (argc < 3) {
        fprintf(stderr, "usage: %s Board.txt StepLog.txt\n", argv[0]);
        return 2;
    }
    if (!read_board(argv[1], &b) || b.hand_n == 0) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    read_steplog(argv[2]);
    if (strcmp(b.stage, "call") == 0) {
        choose_call(&b, text);
        sprintf(move, "Player%d call %s\n", b.player, text);
    } else {
        card_text(choose_card(&b), text);
        sprintf(move, "Player%d play %s\n", b.player, text);
    }
    f = fopen(argv[2], "a");
    if (f == NULL) {
        perror(argv[2]);
        return 1;
    }
    fputs(move, f);
    fclose(f);
    return 0;
}
