/*
 * No Thanks (Geschenkt) starter bot for Croupier, speaking the BoardCoder server protocol.
 *
 * POSIX sockets and a tiny JSON reader written here; no other library.
 * Build: gcc -O2 -o bot bot.c        Run: ./bot [port]   (stdin: "<room>\n<player name>\n")
 *
 * It connects to 127.0.0.1:2004 (or 1000), joins the room, and answers each request_action
 * with "pick" or "pass". Change wants_card() to make it smarter.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_LINE (1 << 20)

/* ---- a tiny JSON reader: walk values in place, no allocation ---- */

static const char *ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* Reads the string at p (which points at '"') into out (UTF-8); returns the end or NULL. */
static const char *str(const char *p, char *out, size_t cap) {
    size_t n = 0;
    if (*p++ != '"') return NULL;
    while (*p && *p != '"') {
        unsigned long c = (unsigned char)*p++;
        if (c == '\\') {
            char e = *p++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u':
                c = strtoul((char[5]){p[0], p[1], p[2], p[3], 0}, NULL, 16);
                p += 4;
                if (c >= 0xD800 && c < 0xDC00 && p[0] == '\\' && p[1] == 'u') { /* surrogate pair */
                    unsigned long lo = strtoul((char[5]){p[2], p[3], p[4], p[5], 0}, NULL, 16);
                    c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                }
                break;
            default: c = (unsigned char)e;
            }
        }
        char u[4];
        int len = 1;
        if (c < 0x80) u[0] = (char)c;
        else if (c < 0x800) { u[0] = (char)(0xC0 | c >> 6); u[1] = (char)(0x80 | (c & 63)); len = 2; }
        else if (c < 0x10000) { u[0] = (char)(0xE0 | c >> 12); u[1] = (char)(0x80 | (c >> 6 & 63)); u[2] = (char)(0x80 | (c & 63)); len = 3; }
        else { u[0] = (char)(0xF0 | c >> 18); u[1] = (char)(0x80 | (c >> 12 & 63)); u[2] = (char)(0x80 | (c >> 6 & 63)); u[3] = (char)(0x80 | (c & 63)); len = 4; }
        if (out && n + len < cap) { memcpy(out + n, u, len); n += len; }
    }
    if (out && cap) out[n] = 0;
    return *p == '"' ? p + 1 : NULL;
}

/* Skips the value at p; returns what follows it, or NULL on bad input. */
static const char *skip(const char *p) {
    p = ws(p);
    if (*p == '"') return str(p, NULL, 0);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = ws(p + 1);
        while (p && *p != close) {
            if (close == '}') { p = str(ws(p), NULL, 0); if (!p || *(p = ws(p)) != ':') return NULL; p++; }
            p = skip(p);
            if (!p) return NULL;
            p = ws(p);
            if (*p == ',') p = ws(p + 1);
            else if (*p != close) return NULL;
        }
        return p ? p + 1 : NULL;
    }
    if (!*p) return NULL;
    while (*p && !strchr(",}] \t\r\n", *p)) p++; /* number, true, false, null */
    return p;
}

/* The value of `key` in the object at p (which points at '{'), or NULL. */
static const char *get(const char *p, const char *key) {
    char k[256];
    if (!p || *(p = ws(p)) != '{') return NULL;
    p = ws(p + 1);
    while (*p == '"') {
        p = str(p, k, sizeof k);
        if (!p || *(p = ws(p)) != ':') return NULL;
        p = ws(p + 1);
        if (strcmp(k, key) == 0) return p;
        p = skip(p);
        if (!p) return NULL;
        p = ws(p);
        if (*p == ',') p = ws(p + 1);
    }
    return NULL;
}

static long num(const char *p, long otherwise) { return p && (*p == '-' || (*p >= '0' && *p <= '9')) ? strtol(p, NULL, 10) : otherwise; }

/* Reads the int array at p into out; returns how many. */
static int ints(const char *p, int *out, int cap) {
    int n = 0;
    if (!p || *p != '[') return 0;
    for (p = ws(p + 1); *p && *p != ']' && n < cap; p = ws(p)) {
        out[n++] = (int)strtol(p, (char **)&p, 10);
        p = ws(p);
        if (*p == ',') p++;
    }
    return n;
}

/* ---- the strategy ---- */

static int has(const int *cards, int n, int card) {
    for (int i = 0; i < n; i++) if (cards[i] == card) return 1;
    return 0;
}

/* What taking `card` adds to our card points: each run of consecutive cards counts its lowest. */
static int marginal(const int *cards, int n, int card) {
    int below = has(cards, n, card - 1), above = has(cards, n, card + 1);
    if (below) return above ? -(card + 1) : 0;
    return above ? -1 : card;
}

static int wants_card(const char *status, const char *me) {
    const char *mine = get(get(status, "playerinfo"), me);
    const char *field = get(status, "fieldinfo");
    int cards[64];
    int n = ints(get(mine, "cards"), cards, 64);
    long coins = num(get(mine, "coins"), 0);
    long card = num(get(field, "fieldcard"), 0), on_card = num(get(field, "fieldcoins"), 0);
    long left = num(get(get(status, "deckinfo"), "decknum"), 99);
    if (coins == 0) return 1;
    long cost = marginal(cards, n, (int)card) - on_card;
    long limit = 3 + 2 * (coins < 10 ? 10 - coins : 0) + (left < 6 ? 4 : 0);
    return cost <= limit;
}

/* ---- the connection ---- */

static int sock = -1;

static void send_line(const char *line) {
    size_t len = strlen(line), off = 0;
    while (off < len) {
        ssize_t w = write(sock, line + off, len - off);
        if (w <= 0) exit(1);
        off += (size_t)w;
    }
}

/* Reads one line (without '\n') into a static buffer; NULL when the server closed. */
static char *recv_line(void) {
    static char buf[MAX_LINE + 1];
    static size_t have = 0, skip_next = 0;
    if (skip_next) { memmove(buf, buf + skip_next, have - skip_next); have -= skip_next; skip_next = 0; }
    for (;;) {
        char *nl = memchr(buf, '\n', have);
        if (nl) { *nl = 0; skip_next = (size_t)(nl - buf) + 1; return buf; }
        if (have == MAX_LINE) { fprintf(stderr, "line too long\n"); exit(1); }
        ssize_t r = read(sock, buf + have, MAX_LINE - have);
        if (r <= 0) return NULL;
        have += (size_t)r;
    }
}

/* Writes s as a JSON string (quotes and escapes) into out. */
static void json_string(char *out, size_t cap, const char *s) {
    size_t n = 0;
    out[n++] = '"';
    for (; *s && n + 8 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') { out[n++] = '\\'; out[n++] = (char)c; }
        else if (c < 0x20) n += (size_t)snprintf(out + n, cap - n, "\\u%04x", c);
        else out[n++] = (char)c;
    }
    out[n++] = '"';
    out[n] = 0;
}

static void chomp(char *s) { s[strcspn(s, "\r\n")] = 0; }

int main(int argc, char **argv) {
    char room[256] = "", me[256] = "", qroom[1600], qme[1600], out[4096], type[64];
    if (!fgets(room, sizeof room, stdin) || !fgets(me, sizeof me, stdin)) { fprintf(stderr, "need room and name on stdin\n"); return 1; }
    chomp(room);
    chomp(me);
    int ports[2] = {2004, 1000}, nports = 2;
    if (argc > 1) { ports[0] = atoi(argv[1]); nports = 1; }
    for (int i = 0; i < nports && sock < 0; i++) {
        struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((unsigned short)ports[i])};
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
        sock = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(sock, (struct sockaddr *)&addr, sizeof addr) != 0) { close(sock); sock = -1; }
    }
    if (sock < 0) { perror("connect"); return 1; }
    json_string(qroom, sizeof qroom, room);
    json_string(qme, sizeof qme, me);
    int games = 0;
    for (char *line; (line = recv_line());) {
        const char *msg = ws(line), *payload = get(msg, "payload"), *t = get(msg, "type");
        if (!t || !str(t, type, sizeof type)) continue;
        if (strcmp(type, "request_room_name_and_role") == 0) {
            if (games > 0) break; /* back in the lobby after the match: done */
            snprintf(out, sizeof out, "{\"type\": \"reply_room_name_and_role\", \"payload\": {\"room_name\": %s, \"role\": \"player\", \"player_name\": %s}}\n", qroom, qme);
            send_line(out);
        } else if (strcmp(type, "request_action") == 0) {
            const char *status = get(payload, "game_status"), *types = get(payload, "action_types");
            int can_pass = types && strstr(types, "\"pass\"") && strstr(types, "\"pass\"") < skip(types);
            const char *action = (!can_pass || wants_card(status, me)) ? "pick" : "pass";
            snprintf(out, sizeof out, "{\"type\": \"reply_action\", \"payload\": {\"action_type\": \"%s\"}}\n", action);
            send_line(out);
        } else if (strcmp(type, "notice_end") == 0) {
            games++;
            fprintf(stderr, "game %d over\n", games);
        }
    }
    close(sock);
    return 0;
}
