/*
 * Test bots for the Bridge adapter: the C starter kit (included below), plus
 *   -DSPY        on stderr: both files when StepLog is just "Stage call" (the dealer's first
 *                call of each board), and every StepLog line written by the Robot;
 *   -DVIOLATION=k  on its first call of board 1 ("Game 1") in the play stage from round 2 on
 *                (or on its first call of board 1 if VIOLATE_IN_AUCTION is defined; REVOKE: on
 *                its first call of board 1 that can revoke), commits
 *                violation k instead of a good move; every other call plays like the kit;
 *   -DALWAYS_PASS  passes in every auction.
 * Build: gcc -O2 -I kits/bridge/c [-DSPY] [-DVIOLATION=k] -o bot testbot.c
 */
#define main kit_main
#include "bot.c"
#undef main

#include <unistd.h>

enum {
    NO_LINE = 1,
    TWO_LINES,
    MALFORMED,
    ILLEGAL_CARD,
    REWRITES_STEPLOG,
    EDITS_BOARD,
    TIMEOUT,
    CRASH,
    REVOKE,
};

/* The suit led to the current trick (from the StepLog the kit read), or -1. */
static int led_suit(void) {
    char who[32], verb[16], what[16];
    int i;
    Card c;
    for (i = steplog_n - 1; i >= 0; i--)
        if (strncmp(steplog[i], "Round", 5) == 0) break;
    if (i >= 0 && i + 1 < steplog_n &&
        sscanf(steplog[i + 1], "%31s %15s %15s", who, verb, what) == 3 && parse_card(what, &c))
        return c.suit;
    return -1;
}

/* A card of another suit while holding the suit led, if there is one (index), else -1. */
static int revoke_card(const Board *b) {
    int i, led = led_suit(), holds = 0, other = -1;
    for (i = 0; i < b->hand_n; i++) {
        if (b->hand[i].suit == led) holds = 1;
        else other = i;
    }
    return led >= 0 && holds ? other : -1;
}

__attribute__((unused)) static char *slurp(const char *path, char *buf, size_t cap) {
    size_t n;
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    if (f == NULL) return buf;
    n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

__attribute__((unused)) static void append(const char *path, const char *text) {
    FILE *f = fopen(path, "a");
    if (f == NULL) return;
    fputs(text, f);
    fclose(f);
}

/* argv[2] of this call */
static const char *steplog_path;

#ifdef VIOLATION
static int triggered(const Board *b) {
    if (VIOLATION == REVOKE) {
        read_steplog(steplog_path);
        return b->game == 1 && strcmp(b->stage, "play") == 0 && revoke_card(b) >= 0;
    }
#ifdef VIOLATE_IN_AUCTION
    return b->game == 1;
#else
    return b->game == 1 && strcmp(b->stage, "play") == 0 && b->round >= 2;
#endif
}

/* A card of the deck that is not in the hand to play from. */
static Card absent_card(const Board *b) {
    Card c;
    int i, in_hand;
    for (c.suit = 0; c.suit < 4; c.suit++)
        for (c.rank = 2; c.rank <= 14; c.rank++) {
            for (in_hand = 0, i = 0; i < b->hand_n; i++)
                if (b->hand[i].suit == c.suit && b->hand[i].rank == c.rank) in_hand = 1;
            if (!in_hand) return c;
        }
    return c;
}

static int violate(const Board *b, char **argv) {
    char line[128], text[16], *log;
    switch (VIOLATION) {
    case NO_LINE:
        return 0;
    case TWO_LINES:
        kit_main(3, argv);
        kit_main(3, argv);
        return 0;
    case MALFORMED:
        sprintf(line, "Player%d play the-best-card\n", b->player);
        append(argv[2], line);
        return 0;
    case ILLEGAL_CARD:
        card_text(absent_card(b), text);
        sprintf(line, "Player%d play %s\n", b->player, text);
        append(argv[2], line);
        return 0;
    case REWRITES_STEPLOG: {
        FILE *f;
        static char buf[1 << 16];
        log = slurp(argv[2], buf, sizeof buf);
        log[7] = 'X'; /* "Stage call" -> "Stage cXll" */
        f = fopen(argv[2], "w");
        if (f != NULL) { fputs(log, f); fclose(f); }
        return kit_main(3, argv);
    }
    case EDITS_BOARD:
        append(argv[1], "Declarer Player1\n");
        return kit_main(3, argv);
    case TIMEOUT:
        sleep(30);
        return kit_main(3, argv);
    case CRASH:
        kit_main(3, argv);
        abort();
    case REVOKE:
        card_text(b->hand[revoke_card(b)], text);
        sprintf(line, "Player%d play %s\n", b->player, text);
        append(argv[2], line);
        return 0;
    }
    return 0;
}
#endif

int main(int argc, char **argv) {
    Board b;
    if (argc < 3 || !read_board(argv[1], &b)) return 2;
    steplog_path = argv[2];
#ifdef SPY
    {
        static char log_buf[1 << 16], board_buf[1 << 12];
        char *log = slurp(argv[2], log_buf, sizeof log_buf), *p;
        if (strcmp(log, "Stage call\n") == 0)
            fprintf(stderr, "BOARD<<%s>>STEPLOG<<%s>>\n",
                    slurp(argv[1], board_buf, sizeof board_buf), log);
        for (p = log; (p = strstr(p, "Robot ")) != NULL; p++) {
            if (p == log || p[-1] == '\n') fprintf(stderr, "SEEN %.*s\n", (int)strcspn(p, "\n"), p);
        }
    }
#endif
#ifdef ALWAYS_PASS
    if (strcmp(b.stage, "call") == 0) {
        char line[64];
        sprintf(line, "Player%d call pass\n", b.player);
        append(argv[2], line);
        return 0;
    }
#endif
#ifdef VIOLATION
    {
        /* one violation per match: remember it in the seat's own directory (the cwd), which
           keeps its files from call to call */
        const char *mark = "violated";
        if (triggered(&b) && access(mark, F_OK) != 0) {
            FILE *m = fopen(mark, "w");
            if (m != NULL) fclose(m);
            return violate(&b, argv);
        }
    }
#endif
    return kit_main(argc, argv);
}
