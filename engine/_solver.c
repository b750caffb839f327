/* The exact open-card solver's inner loop (see engine/solver.py and, for the method,
 * engine/solver_reference.py, the pure-Python specification this file must equal).
 *
 * Cards are suit * 8 + rank (ranks 7 8 9 T J Q K A), hands 32-bit masks.  Two searches:
 *   search1: fail-soft alpha-beta on the playing team's future margin (points, last 10,
 *            roem always taken, pit bonus), transposition table of bounds keyed on
 *            (remaining cards, leader, which teams may still take every trick); one search
 *            both answers "can the playing team reach a margin of 1?" (its window never
 *            opens below that) and finds the exact margin when it can;
 *   search2: alpha-beta on the final value g (m if m > 0 else -(162 + r)) with the
 *            accumulated margin m and roem r in the state and the table key, used where
 *            the opponents can force nat (a search1 test decides that at every trick
 *            start), by zero-window steps down from "no more roem", above a bound on the
 *            roem the remaining cards can still form.
 * Reductions: equivalent zero-point cards of one hand are merged (same suit, no card of
 * another hand or of the trick between them, and no possible run through either card);
 * the last trick is scored directly; a trick start whose points, roem and pit left
 * cannot reach the window returns at once (the points of trumps above every trump of
 * the other team are surely their holders' team's); the fourth hand looks up every
 * trick it can close in the table first (a stored bound may settle the node or rule a
 * card out); the root's actions after the first are searched in a narrow window around
 * its value; the table's move is tried first, then leads by the killer (the last lead
 * that cut off after as many tricks) and the history, follows by a cheap trick
 * heuristic.
 * A solve may be given a limit of nodes: past it every search returns at once and the
 * solve answers None (what it found is dropped; the next solve starts afresh).
 * The state is module-global: the GIL is held throughout a solve.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#define INF 30000
#define DEAL_POINTS 162
#define LAST_TRICK 10
#define PIT_BONUS 100
#define NOMOVE 255

/* -- tables (for the trump of the current solve) ---------------------------------- */

static const int PLAIN_POINTS[8] = {0, 0, 0, 10, 2, 3, 4, 11};
static const int TRUMP_POINTS[8] = {0, 0, 14, 10, 20, 3, 4, 11};
static const int PLAIN_ORDER[8] = {0, 1, 2, 6, 3, 4, 5, 7};
static const int TRUMP_ORDER[8] = {0, 1, 6, 4, 7, 2, 3, 5};
static const int FOUR_ROEM[8] = {0, 0, 0, 100, 200, 100, 100, 100};
static int RUN_ROEM[256];
static int TOP_PLAIN[256], TOP_TRUMP[256]; /* the highest order among a suit's cards */
static uint8_t RUN_FREE[256][8]; /* [other cards' ranks][rank]: no run of 3 through rank */
/* [trump suit][the 7 8 9 held][the suit's cards outside the hand]: the zero-point cards
 * that another card of the hand stands for.  Cards merge when they are adjacent (no card
 * outside between them), worth 0 points (7 8 9; in trump 7 8) and no run can go through
 * either; the lowest of a group stays. */
static uint8_t MERGED[2][8][256];
static int SUIT_POINTS[2][256]; /* [trump][a suit's cards]: their points */
static uint8_t ABOVE_ORDER[9]; /* [trump order + 1]: the ranks above it in trump */

static int tables_ready = 0;

static void init_tables(void) {
    for (int b = 0; b < 256; b++) {
        int best = 0, run = 0;
        for (int r = 0; r < 8; r++) {
            run = (b >> r & 1) ? run + 1 : 0;
            if (run > best) best = run;
        }
        RUN_ROEM[b] = best >= 4 ? 50 : best == 3 ? 20 : 0;
        SUIT_POINTS[0][b] = SUIT_POINTS[1][b] = 0;
        for (int r = 0; r < 8; r++)
            if (b >> r & 1) {
                SUIT_POINTS[0][b] += PLAIN_POINTS[r];
                SUIT_POINTS[1][b] += TRUMP_POINTS[r];
            }
        TOP_PLAIN[b] = TOP_TRUMP[b] = -1;
        for (int r = 0; r < 8; r++) {
            if (!(b >> r & 1)) continue;
            if (PLAIN_ORDER[r] > TOP_PLAIN[b]) TOP_PLAIN[b] = PLAIN_ORDER[r];
            if (TRUMP_ORDER[r] > TOP_TRUMP[b]) TOP_TRUMP[b] = TRUMP_ORDER[r];
        }
        for (int x = 0; x < 8; x++) {
            int free = 1;
            for (int w = x - 2; w <= x; w++) {
                if (w < 0 || w + 2 > 7) continue;
                int others = 0;
                for (int k = w; k <= w + 2; k++)
                    if (k != x && (b >> k & 1)) others++;
                if (others == 2) free = 0;
            }
            RUN_FREE[b][x] = (uint8_t)free;
        }
    }
    for (int t = 0; t < 2; t++)
        for (int held = 0; held < 8; held++)
            for (int out = 0; out < 256; out++) {
                int top = t ? 1 : 2, last = -1, drop = 0;
                for (int x = 0; x <= top; x++) {
                    if (!(held >> x & 1)) {
                        if (out >> x & 1) last = -1;
                        continue;
                    }
                    if (!RUN_FREE[out][x]) {
                        last = -1;
                        continue;
                    }
                    if (last >= 0)
                        drop |= 1 << x; /* same group as the card kept before */
                    else
                        last = x;
                }
                MERGED[t][held][out] = (uint8_t)drop;
            }
    for (int o = -1; o < 8; o++) {
        ABOVE_ORDER[o + 1] = 0;
        for (int r = 0; r < 8; r++)
            if (TRUMP_ORDER[r] > o) ABOVE_ORDER[o + 1] |= (uint8_t)(1 << r);
    }
    tables_ready = 1;
}

/* -- the state of one solve --------------------------------------------------------- */

/* What a play changes besides a hand: one copy saves it, one restores it. */
typedef struct {
    uint32_t tmask;    /* the cards of the trick so far */
    int8_t tcards[4];  /* the trick so far (the last trick closed, at a trick start) */
    int8_t tlen, leader, led, win_seat; /* cards in the trick, ..., who holds it so far */
    int8_t win_str, high, done, flags;  /* its winning card's strength, highest trump
                                          (32: none), tricks done, teams that won one */
} Trick;

typedef struct {
    uint32_t hand[4];
    int trump, amsterdam, claim, playing, pit_any;
    int points[32];
    uint8_t strength[4][32]; /* [led suit][card] */
    uint32_t above[33];      /* trumps above a trump; [32]: every trump */
    Trick t;
    uint8_t pits[4]; /* pitstate() by flags */
    long long nodes;
} State;

static State S;
static long long LIMIT = LLONG_MAX; /* the nodes this solve may visit */
static int ABORTED = 0;             /* it visited more: every search returns at once */
/* Count a node; true once past the limit (and from then on, until the next solve). */
#define PAST_LIMIT() (++S.nodes > LIMIT && (ABORTED = 1))
static int HISTORY[4][32]; /* how often a lead caused a cut-off, by seat (move ordering) */
static int KILLER[9][4]; /* the last lead that caused a cut-off, by tricks done and seat */
/* Order scores: the table's move first, then the killer, then the history's count (kept
 * below HISTORY_MAX by halving every count when one reaches it). */
#define TT_FIRST 1000000000
#define KILLER_NEXT 100000000
#define HISTORY_MAX (1 << 26)

/* A cut-off by card c of `seat`: a lead is tried earlier from now on (the earlier in the
 * deal, the more: four times more a trick). */
static inline void cut_off(int seat, int c) {
    if (S.t.tlen) return;
    KILLER[S.t.done][seat] = c;
    if ((HISTORY[seat][c] += 1 << (2 * (8 - S.t.done))) >= HISTORY_MAX)
        for (int i = 0; i < 4 * 32; i++) HISTORY[i >> 5][i & 31] >>= 1;
}
static int STATIC_ORDER = 0; /* order leads by the heuristic alone (the root's actions) */

typedef struct {
    Trick t; /* as it was before the play */
    int closed, winner, pts, roem; /* whether the play closed the trick, and its result */
} Undo;

#define SUITM(s) (0xFFu << (8 * (s)))

/* -- transposition tables ----------------------------------------------------------- */

#define TT1_BITS 20
#define TT2_BITS 18
typedef struct { /* 16 bytes: a bucket of two is half a cache line */
    uint64_t key;
    uint16_t gen;
    int16_t lo, hi;
    uint8_t move, done;
} Entry;

static Entry *TT1;
static Entry *TT2;
static uint16_t GEN = 0; /* the solve an entry belongs to: the tables are never cleared */

static Entry *tt_alloc(int bits) { /* aligned to 64 bytes, kept for the process's life */
    char *raw = PyMem_RawCalloc(((size_t)1 << bits) + 4, sizeof(Entry));
    if (!raw) return NULL;
    return (Entry *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
}

static inline int pitstate(void) { return S.pits[S.t.flags]; }

/* search1's table key at a trick start: the remaining cards `all`, the leader and which
 * teams may still take every trick (bits 34-35), given the tricks' winners `flags`. */
static inline uint64_t key_of(uint32_t all, int leader, int flags) {
    return (uint64_t)all | (uint64_t)(leader | S.pits[flags] << 2) << 32;
}

static inline uint64_t key1(uint32_t all) { return key_of(all, S.t.leader, S.t.flags); }

static inline uint32_t hash64(uint64_t k, int bits) {
    k ^= k >> 29;
    k *= 0xBF58476D1CE4E5B9ULL;
    k ^= k >> 32;
    return (uint32_t)(k >> (64 - bits));
}

/* Two entries a bucket: the first keeps the earliest position (the largest subtree), the
 * second the latest. */
static inline Entry *tt_find(Entry *tt, int bits, uint64_t key) {
    Entry *b = &tt[hash64(key, bits) & ~1u];
    if (b[0].gen == GEN && b[0].key == key) return &b[0];
    if (b[1].gen == GEN && b[1].key == key) return &b[1];
    return NULL;
}

static inline Entry *tt_store(Entry *tt, int bits, uint64_t key) {
    Entry *b = &tt[hash64(key, bits) & ~1u], *e;
    if (b[0].gen == GEN && b[0].key == key) return &b[0];
    if (b[1].gen == GEN && b[1].key == key) return &b[1];
    if (b[0].gen != GEN || S.t.done <= b[0].done) {
        b[1] = b[0];
        e = &b[0];
    } else {
        e = &b[1];
    }
    e->gen = GEN;
    e->key = key;
    e->lo = -INF;
    e->hi = INF;
    e->done = (uint8_t)S.t.done;
    return e;
}

/* A stored bound that settles this search (1, the value in *v), or narrows its window and
 * names the move to try first. */
static inline int tt_probe(Entry *tt, int bits, uint64_t key, int *alpha, int *beta,
                           int *move, int *v) {
    Entry *e = tt_find(tt, bits, key);
    if (!e) return 0;
    if (e->lo >= *beta || e->lo == e->hi) return *v = e->lo, 1;
    if (e->hi <= *alpha) return *v = e->hi, 1;
    if (e->lo > *alpha) *alpha = e->lo;
    if (e->hi < *beta) *beta = e->hi;
    *move = e->move;
    return 0;
}

/* What a search of the window [a0, b0] found: an upper bound, a lower bound or exact. */
static inline void tt_record(Entry *tt, int bits, uint64_t key, int a0, int b0, int best,
                             int move) {
    Entry *e = tt_store(tt, bits, key);
    if (best <= a0) {
        if (best < e->hi) e->hi = (int16_t)best;
    } else if (best >= b0) {
        if (best > e->lo) e->lo = (int16_t)best;
    } else {
        e->lo = e->hi = (int16_t)best;
    }
    e->move = (uint8_t)move;
}

/* -- the rules ---------------------------------------------------------------------- */

static inline uint32_t legal(int seat) {
    uint32_t hand = S.hand[seat];
    if (S.t.tlen == 0) return hand;
    int led = S.t.led, trump = S.trump;
    uint32_t follow = hand & SUITM(led);
    if (led == trump) {
        if (follow) {
            uint32_t over = follow & S.above[S.t.high];
            return over ? over : follow;
        }
        return hand;
    }
    if (follow) return follow;
    uint32_t trumps = hand & SUITM(trump);
    if (!trumps) return hand;
    uint32_t over = trumps & S.above[S.t.high];
    if (!S.amsterdam) return over ? over : trumps;
    if (((S.t.win_seat ^ seat) & 1) == 0) {
        uint32_t x = (hand ^ trumps) | over;
        return x ? x : hand;
    }
    if (over) return over;
    if (hand ^ trumps) return hand ^ trumps;
    return hand;
}

/* The roem of the four cards in S.t.tcards, whose mask is `mask`. */
static inline int trick_roem(uint32_t mask) {
    int roem = RUN_ROEM[mask & 255] + RUN_ROEM[mask >> 8 & 255] + RUN_ROEM[mask >> 16 & 255] +
               RUN_ROEM[mask >> 24 & 255];
    int r0 = S.t.tcards[0] & 7;
    if ((S.t.tcards[1] & 7) == r0 && (S.t.tcards[2] & 7) == r0 && (S.t.tcards[3] & 7) == r0)
        roem += FOUR_ROEM[r0];
    uint32_t stuk = 3u << (S.trump * 8 + 5);
    if ((mask & stuk) == stuk) roem += 20;
    return roem;
}

static inline void play(int card, Undo *u) {
    int seat = (S.t.leader + S.t.tlen) & 3;
    u->t = S.t;
    u->closed = 0;
    S.hand[seat] ^= 1u << card;
    S.t.tcards[S.t.tlen++] = (int8_t)card;
    if (S.t.tlen == 1) {
        S.t.tmask = 1u << card;
        S.t.led = (int8_t)(card >> 3);
        S.t.win_seat = (int8_t)seat;
        S.t.win_str = (int8_t)S.strength[S.t.led][card];
        S.t.high = (int8_t)((card >> 3) == S.trump ? card : 32);
        return;
    }
    S.t.tmask |= 1u << card;
    int s = S.strength[S.t.led][card];
    if (s > S.t.win_str) {
        S.t.win_str = (int8_t)s;
        S.t.win_seat = (int8_t)seat;
        if (s >= 16) S.t.high = (int8_t)card;
    }
    if (S.t.tlen < 4) return;
    u->closed = 1;
    u->winner = S.t.win_seat;
    u->pts = S.points[S.t.tcards[0]] + S.points[S.t.tcards[1]] + S.points[S.t.tcards[2]] +
             S.points[S.t.tcards[3]] + (S.t.done == 7 ? LAST_TRICK : 0);
    u->roem = trick_roem(S.t.tmask);
    S.t.leader = S.t.win_seat;
    S.t.tlen = 0;
    S.t.tmask = 0;
    S.t.done++;
    S.t.flags |= (int8_t)(1 << (S.t.win_seat & 1));
}

static inline void unplay(int card, const Undo *u) {
    S.t = u->t;
    S.hand[(S.t.leader + S.t.tlen) & 3] ^= 1u << card;
}

/* The moves worth trying, best guess first: equivalent cards merged (the lowest of a
 * group stands for it), the table's move first.  Returns the count. */
static int gen_moves(int seat, int ttmove, int *moves) {
    uint32_t lg = legal(seat);
    uint32_t all = S.hand[0] | S.hand[1] | S.hand[2] | S.hand[3];
    uint32_t z = lg & 0x07070707u; /* the 7 8 9 of each suit */
    uint32_t two = (z & (z >> 1)) | (z & (z >> 2)); /* bit 0/1 of a suit: two or more */
    two &= 0x03030303u;
    if (two) {
        uint32_t outside = (all & ~S.hand[seat]) | S.t.tmask;
        do {
            int s = __builtin_ctz(two) >> 3;
            two &= ~SUITM(s);
            uint32_t zero = lg >> (8 * s) & 7;
            lg &= ~((uint32_t)MERGED[s == S.trump][zero][outside >> (8 * s) & 255] << (8 * s));
        } while (two);
    }
    if (!(lg & (lg - 1))) { /* one move: nothing to order */
        moves[0] = __builtin_ctz(lg);
        return 1;
    }
    /* Ordering: a lead by the last lead that cut off after as many tricks (the killer),
     * then by how often it cut off before (the history heuristic; at the root, masters
     * first); a follower smears points on a trick its partner surely wins, takes
     * over one its partner may lose, beats the opponents with its lowest winner (the fourth
     * hand with its most points), or discards its least. */
    int n = 0, score[8];
    int tl = S.t.tlen;
    int partner = tl > 0 && ((S.t.win_seat ^ seat) & 1) == 0;
    uint32_t others = all & ~S.hand[seat];
    int safe = 0; /* the partner's card wins the trick whatever the others hold */
    if (partner) {
        if (tl == 3) {
            safe = 1;
        } else {
            uint32_t tr = others & SUITM(S.trump), ls = others & SUITM(S.t.led);
            int top = 0;
            if (tr)
                top = 16 + TOP_TRUMP[tr >> (8 * S.trump) & 255];
            else if (ls)
                top = 8 + TOP_PLAIN[ls >> (8 * S.t.led) & 255];
            safe = S.t.win_str > top;
        }
    }
    while (lg) {
        int c = __builtin_ctz(lg);
        lg &= lg - 1;
        int sc, pts = S.points[c];
        if (c == ttmove) {
            sc = TT_FIRST;
        } else if (tl == 0 && !STATIC_ORDER) {
            sc = HISTORY[seat][c] + (c == KILLER[S.t.done][seat] ? KILLER_NEXT : 0);
        } else if (tl == 0) {
            int su = c >> 3, str = S.strength[su][c];
            uint32_t ob = others >> (8 * su) & 255;
            int master = !ob || str > (su == S.trump ? 16 + TOP_TRUMP[ob] : 8 + TOP_PLAIN[ob]);
            if (su == S.trump)
                sc = master ? 300 + pts : 100 + str;
            else
                sc = master ? 200 + pts : 50 - pts - str;
        } else {
            int str = S.strength[S.t.led][c];
            if (partner && safe)
                sc = 100 + pts;
            else if (partner) /* take it over if it can, else stay low */
                sc = str > S.t.win_str ? 120 + str : 50 - pts - str;
            else if (str > S.t.win_str)
                sc = tl == 3 ? 200 + pts : 150 - str;
            else
                sc = -2 * pts - str;
        }
        int j = n++;
        while (j > 0 && score[j - 1] < sc) {
            score[j] = score[j - 1];
            moves[j] = moves[j - 1];
            j--;
        }
        score[j] = sc;
        moves[j] = c;
    }
    return n;
}

/* Whether `v` is better than `best` for the side to move (maximising or not): if so it
 * becomes `best` and narrows the window. */
static inline int improves(int maxing, int v, int *best, int *alpha, int *beta) {
    if (maxing ? v <= *best : v >= *best) return 0;
    *best = v;
    if (maxing && v > *alpha) *alpha = v;
    if (!maxing && v < *beta) *beta = v;
    return 1;
}

/* -- phase 1: the playing team's future margin -------------------------------------- */

static int pit_margin(void) {
    int team = S.t.flags == 1 ? 0 : S.t.flags == 2 ? 1 : -1;
    if (team < 0 || !(S.pit_any || team == S.playing)) return 0;
    return team == S.playing ? PIT_BONUS : -PIT_BONUS;
}

/* The last trick, one card in each hand: its winner, points (with the 10) and roem. */
static void last_trick(int *w, int *pts, int *roem) {
    int led = 0, best = -1;
    *pts = LAST_TRICK;
    for (int i = 0; i < 4; i++) {
        int seat = (S.t.leader + i) & 3;
        int c = __builtin_ctz(S.hand[seat]);
        S.t.tcards[i] = c;
        if (i == 0) led = c >> 3;
        int str = S.strength[led][c];
        if (str > best) {
            best = str;
            *w = seat;
        }
        *pts += S.points[c];
    }
    *roem = trick_roem(S.hand[0] | S.hand[1] | S.hand[2] | S.hand[3]);
}

static inline uint32_t two_of_three(uint32_t h) { /* bit w: h holds two of w, w+1, w+2 */
    return (h & h >> 1) | (h & h >> 2) | (h >> 1 & h >> 2);
}

/* At a trick start: the most roem the rest of the deal can add, on top of `pit` (a pit
 * bonus still possible): runs, four of a kind and stuk need their cards in different
 * hands, and a trick holds one run at most. */
static int roem_bound(int pit) {
    int left = 8 - S.t.done, bound = pit, runs = 0;
    uint32_t h0 = S.hand[0], h1 = S.hand[1], h2 = S.hand[2], h3 = S.hand[3];
    uint32_t all = h0 | h1 | h2 | h3;
    uint32_t stuk = 3u << (S.trump * 8 + 5);
    if ((all & stuk) == stuk && (h0 & stuk) != stuk && (h1 & stuk) != stuk &&
        (h2 & stuk) != stuk && (h3 & stuk) != stuk)
        bound += 20;
    /* runs of three whose cards are in three different hands (bit w of a suit: its
     * ranks w, w+1, w+2 are all out and no hand holds two of them) */
    uint32_t windows = all & all >> 1 & all >> 2 & 0x3F3F3F3Fu;
    windows &= ~(two_of_three(h0) | two_of_three(h1) | two_of_three(h2) | two_of_three(h3));
    for (int su = 0; su < 4; su++)
        if (windows >> (8 * su) & 255) runs += __builtin_popcount(all >> (8 * su) & 255) / 3;
    bound += 50 * (runs < left ? runs : left);
    /* four of a kind whose cards are in four different hands */
    uint32_t fours = all & all >> 8 & all >> 16 & all >> 24 & 0xF8u;
    while (fours) {
        int k = __builtin_ctz(fours);
        fours &= fours - 1;
        uint32_t four = 0x01010101u << k;
        if (__builtin_popcount(h0 & four) == 1 && __builtin_popcount(h1 & four) == 1 &&
            __builtin_popcount(h2 & four) == 1)
            bound += FOUR_ROEM[k];
    }
    return bound;
}

static int search1(int alpha, int beta) {
    if (PAST_LIMIT()) return alpha;
    uint64_t key = 0;
    int ttmove = NOMOVE;
    if (S.t.tlen == 0) { /* the table holds trick starts (more did not pay) */
        if (S.t.done == 8) return pit_margin();
        if (S.t.done == 7) {
            int w, pts, roem, flags = S.t.flags;
            last_trick(&w, &pts, &roem);
            S.t.flags |= 1 << (w & 1);
            int v = ((w & 1) == S.playing ? pts + roem : -pts - roem) + pit_margin();
            S.t.flags = flags;
            return v;
        }
        uint32_t all = S.hand[0] | S.hand[1] | S.hand[2] | S.hand[3];
        key = key1(all);
        int v;
        if (tt_probe(TT1, TT1_BITS, key, &alpha, &beta, &ttmove, &v)) return v;
        /* The future margin: at most the points left (and the last 10) less twice the
         * points the opponents surely take, the roem and a pit still possible; at least
         * the same for the other side.  A trump above every trump of the other team is
         * surely its team's (whatever trick it falls in, it wins it). */
        int left = LAST_TRICK;
        for (int su = 0; su < 4; su++) left += SUIT_POINTS[su == S.trump][all >> (8 * su) & 255];
        int t8 = 8 * S.trump, p = S.playing;
        int ours = (S.hand[p] | S.hand[p + 2]) >> t8 & 255;
        int theirs = (S.hand[1 - p] | S.hand[3 - p]) >> t8 & 255;
        int sure_ours = ours & ABOVE_ORDER[TOP_TRUMP[theirs] + 1];
        int sure_theirs = theirs & ABOVE_ORDER[TOP_TRUMP[ours] + 1];
        int pits = pitstate();
        int hi = left - 2 * SUIT_POINTS[1][sure_theirs] +
                 (pits >> p & 1 && !sure_theirs ? PIT_BONUS : 0);
        int lo = -left + 2 * SUIT_POINTS[1][sure_ours] -
                 (pits >> (1 - p) & 1 && !sure_ours ? PIT_BONUS : 0);
        if (hi <= alpha || lo >= beta) {
            int roem = roem_bound(0);
            if (hi + roem <= alpha) return hi + roem;
            if (lo - roem >= beta) return lo - roem;
        }
    }
    int a0 = alpha, b0 = beta;
    int seat = (S.t.leader + S.t.tlen) & 3;
    int maxing = (seat & 1) == S.playing;
    int moves[8];
    int n = gen_moves(seat, ttmove, moves);
    int skipped = maxing ? -INF : INF;
    if (S.t.tlen == 3 && S.t.done < 6) { /* a child's stored bound may settle this node */
        uint64_t keys[8];
        int gains[8];
        uint32_t all = S.hand[0] | S.hand[1] | S.hand[2] | S.hand[3];
        int base = S.points[S.t.tcards[0]] + S.points[S.t.tcards[1]] + S.points[S.t.tcards[2]];
        for (int i = 0; i < n; i++) { /* each card's trick closed without playing it */
            int c = moves[i];
            int w = S.strength[S.t.led][c] > S.t.win_str ? seat : S.t.win_seat;
            S.t.tcards[3] = c; /* for trick_roem's four of a kind; play() writes it again */
            int gain = base + S.points[c] + trick_roem(S.t.tmask | 1u << c);
            gains[i] = (w & 1) == S.playing ? gain : -gain;
            keys[i] = key_of(all & ~(1u << c), w, S.t.flags | 1 << (w & 1));
            __builtin_prefetch(&TT1[hash64(keys[i], TT1_BITS) & ~1u]);
        }
        int k = 0;
        for (int i = 0; i < n; i++) {
            Entry *e = tt_find(TT1, TT1_BITS, keys[i]);
            if (e) {
                if (maxing && gains[i] + e->lo >= beta) return gains[i] + e->lo;
                if (!maxing && gains[i] + e->hi <= alpha) return gains[i] + e->hi;
                /* a child that cannot improve on the window: its bound suffices */
                if (maxing && gains[i] + e->hi <= alpha) {
                    if (gains[i] + e->hi > skipped) skipped = gains[i] + e->hi;
                    continue;
                }
                if (!maxing && gains[i] + e->lo >= beta) {
                    if (gains[i] + e->lo < skipped) skipped = gains[i] + e->lo;
                    continue;
                }
            }
            moves[k++] = moves[i];
        }
        n = k;
    }
    int best = skipped, bestmove = n ? moves[0] : NOMOVE;
    for (int i = 0; i < n; i++) {
        Undo u;
        int c = moves[i], v;
        play(c, &u);
        if (u.closed) {
            int gain = u.pts + u.roem;
            if ((u.winner & 1) != S.playing) gain = -gain;
            v = gain + search1(alpha - gain, beta - gain);
        } else {
            v = search1(alpha, beta);
        }
        unplay(c, &u);
        if (improves(maxing, v, &best, &alpha, &beta)) bestmove = c;
        if (alpha >= beta) {
            cut_off(seat, c);
            break;
        }
    }
    if (key) tt_record(TT1, TT1_BITS, key, a0, b0, best, bestmove);
    return best;
}

/* -- phase 2: the final value ---------------------------------------------------------- */

static int search2(int alpha, int beta, int m, int r);
static int NAT_GUESS = INF; /* a first guess for the next root action's nat value */
static void last_trick(int *w, int *pts, int *roem);

static int end_value(int m, int r) {
    int team = S.t.flags == 1 ? 0 : S.t.flags == 2 ? 1 : -1;
    if (team >= 0 && (S.pit_any || team == S.playing)) {
        m += team == S.playing ? PIT_BONUS : -PIT_BONUS;
        r += PIT_BONUS;
    }
    return m > 0 ? m : -(DEAL_POINTS + r);
}

/* The last trick, one card in each hand: g with the claim decision, if any. */
static int last_value(int m, int r) {
    int w, pts, roem;
    last_trick(&w, &pts, &roem);
    int sign = (w & 1) == S.playing ? 1 : -1;
    int flags = S.t.flags;
    S.t.flags |= 1 << (w & 1);
    m += sign * pts;
    int v = end_value(m + sign * roem, r + roem);
    if (roem && S.claim && sign > 0) { /* the playing team may leave it */
        int u = end_value(m, r);
        if (u > v) v = u;
    }
    S.t.flags = flags;
    return v;
}

/* The value g once the opponents can force nat: -(162 + r) for the roem r they can add
 * (or the playing team's escape if they err), by zero-window steps down from no more roem. */
static int nat_value(int alpha, int beta, int m, int r) {
    int ub = -(DEAL_POINTS + r); /* roem only grows */
    if (ub <= alpha) return ub;
    int lower = -INF, upper = ub, g = ub;
    if (S.t.tlen == 0) {
        /* the playing team's escape only raises g; its own pit would be an escape */
        lower = ub - roem_bound(S.pit_any && !(S.t.flags & (1 << S.playing)) ? PIT_BONUS : 0);
        if (lower == ub || lower >= beta) return lower;
    }
    if (NAT_GUESS < ub && NAT_GUESS > lower) g = NAT_GUESS; /* the last root action's */
    NAT_GUESS = INF;
    while (lower < upper) {
        int b = g == lower ? g + 1 : g;
        g = search2(b - 1, b, m, r);
        if (g < b)
            upper = g;
        else
            lower = g;
        if (upper <= alpha || lower >= beta || ABORTED) break;
    }
    return g;
}

/* The value g of the current state (any point of a trick), within [alpha, beta]. */
static int value(int alpha, int beta, int m, int r) {
    if (S.t.tlen == 0) {
        if (S.t.done == 8) return end_value(m, r);
        if (S.t.done == 7) return last_value(m, r);
    }
    /* Can the playing team force a margin of at least 1 from here?  If so g is the
     * margin m + f (a bound where f falls outside the window); if not, the deal is nat. */
    int t = 1 - m, lo = alpha - m, hi = beta - m;
    if (lo < t - 1) lo = t - 1;
    if (hi < t) hi = t;
    int f = search1(lo, hi);
    if (f >= t) return m + f;
    return nat_value(alpha, beta, m, r);
}

/* The winner of the trick just closed takes or leaves its roem (claim mode). */
static int decide(int alpha, int beta, int m, int r, int roem) {
    if ((S.t.leader & 1) != S.playing) /* the opponents' take can only lower g */
        return value(alpha, beta, m - roem, r + roem);
    int v = value(alpha, beta, m + roem, r + roem);
    if (v >= beta) return v;
    if (v > alpha) alpha = v;
    int w = value(alpha, beta, m, r);
    return w > v ? w : v;
}

/* The value g once the trick `u` records has closed: its points and roem (taken, or taken
 * or left in claim mode) go to its winner's team. */
static int closed_value(const Undo *u, int alpha, int beta, int m, int r) {
    int sign = (u->winner & 1) == S.playing ? 1 : -1;
    int mm = m + sign * u->pts;
    if (u->roem && S.claim) return decide(alpha, beta, mm, r, u->roem);
    return value(alpha, beta, mm + sign * u->roem, r + u->roem);
}

static int search2(int alpha, int beta, int m, int r) {
    if (PAST_LIMIT()) return alpha;
    uint64_t key = 0;
    int ttmove = NOMOVE;
    if (S.t.tlen == 0) {
        /* search1's key and m and r: |m| and r stay below 2000 + 1100 (the root's are
         * checked; a deal's roem, pit and points add up to less than 1100), 13 bits each */
        key = key1(S.hand[0] | S.hand[1] | S.hand[2] | S.hand[3]) | (uint64_t)(m + 4096) << 36 |
              (uint64_t)r << 49;
        int v;
        if (tt_probe(TT2, TT2_BITS, key, &alpha, &beta, &ttmove, &v)) return v;
    }
    int a0 = alpha, b0 = beta;
    int seat = (S.t.leader + S.t.tlen) & 3;
    int maxing = (seat & 1) == S.playing;
    int moves[8];
    int n = gen_moves(seat, ttmove, moves);
    int best = maxing ? -INF : INF, bestmove = moves[0];
    for (int i = 0; i < n; i++) {
        Undo u;
        int c = moves[i], v;
        play(c, &u);
        if (u.closed)
            v = closed_value(&u, alpha, beta, m, r);
        else
            v = search2(alpha, beta, m, r);
        unplay(c, &u);
        if (improves(maxing, v, &best, &alpha, &beta)) bestmove = c;
        if (alpha >= beta) {
            cut_off(seat, c);
            break;
        }
    }
    if (key) tt_record(TT2, TT2_BITS, key, a0, b0, best, bestmove);
    return best;
}

/* -- the root ----------------------------------------------------------------------- */

#define TAKE_CODE 32
#define LEAVE_CODE 33
/* Root actions after the first are searched in a window this wide around its value
 * (most land near it), and again on the side they fell out of. */
#define ASPIRATION 4

/* The value of one root action within [alpha, beta] (g, the playing team's). */
static int root_child(int code, int alpha, int beta, int m, int r, int pending) {
    if (code == TAKE_CODE || code == LEAVE_CODE) {
        int sign = (S.t.leader & 1) == S.playing ? 1 : -1;
        if (code == TAKE_CODE) return value(alpha, beta, m + sign * pending, r + pending);
        return value(alpha, beta, m, r);
    }
    Undo u;
    int v;
    play(code, &u);
    if (u.closed)
        v = closed_value(&u, alpha, beta, m, r);
    else
        v = value(alpha, beta, m, r);
    unplay(code, &u);
    return v;
}

static int setup(PyObject *args, int *m, int *r, int *pending, int *want) {
    unsigned int h0, h1, h2, h3;
    PyObject *trick;
    int trump, leader, done, flags;
    long long limit = 0;
    if (!PyArg_ParseTuple(args, "IIIIO!iiiiiiiiiiii|L", &h0, &h1, &h2, &h3, &PyTuple_Type,
                          &trick, &leader, &done, &flags, &trump, &S.amsterdam, &S.claim,
                          &S.playing, &S.pit_any, m, r, pending, want, &limit))
        return -1;
    if (limit < 0) {
        PyErr_SetString(PyExc_ValueError, "a negative limit of nodes");
        return -1;
    }
    if (trump < 0 || trump > 3 || leader < 0 || leader > 3 || done < 0 || done > 8 ||
        flags < 0 || flags > 3 || S.playing < 0 || S.playing > 1 ||
        PyTuple_GET_SIZE(trick) > 3 || *m < -2000 || *m > 2000 || *r < 0 || *r > 2000) {
        PyErr_SetString(PyExc_ValueError, "position out of range");
        return -1;
    }
    S.t.leader = (int8_t)leader;
    S.t.done = (int8_t)done;
    S.t.flags = (int8_t)flags;
    if (!tables_ready) init_tables();
    if (!TT1) {
        TT1 = tt_alloc(TT1_BITS);
        TT2 = tt_alloc(TT2_BITS);
        if (!TT1 || !TT2) {
            PyErr_NoMemory();
            return -1;
        }
    }
    if (++GEN == 0) {
        memset(TT1, 0, sizeof(Entry) << TT1_BITS);
        memset(TT2, 0, sizeof(Entry) << TT2_BITS);
        GEN = 1;
    }
    S.hand[0] = h0;
    S.hand[1] = h1;
    S.hand[2] = h2;
    S.hand[3] = h3;
    S.trump = trump;
    for (int c = 0; c < 32; c++) {
        int s = c >> 3, k = c & 7;
        S.points[c] = s == trump ? TRUMP_POINTS[k] : PLAIN_POINTS[k];
        for (int led = 0; led < 4; led++)
            S.strength[led][c] =
                (uint8_t)(s == trump ? 16 + TRUMP_ORDER[k] : s == led ? 8 + PLAIN_ORDER[k] : 0);
        uint32_t above = 0;
        if (s == trump)
            for (int q = 0; q < 8; q++)
                if (TRUMP_ORDER[q] > TRUMP_ORDER[k]) above |= 1u << (trump * 8 + q);
        S.above[c] = above;
    }
    S.above[32] = SUITM(trump);
    for (int f = 0; f < 4; f++) { /* which teams may still take every trick */
        int can0 = !(f & 2) && (S.pit_any || S.playing == 0);
        int can1 = !(f & 1) && (S.pit_any || S.playing == 1);
        S.pits[f] = (uint8_t)(can0 | can1 << 1);
    }
    S.nodes = 0;
    LIMIT = limit ? limit : LLONG_MAX;
    ABORTED = 0;
    memset(HISTORY, 0, sizeof HISTORY);
    memset(KILLER, 255, sizeof KILLER);
    /* replay the trick so far (its cards are out of the hands already) */
    S.t.tlen = 0;
    S.t.tmask = 0;
    S.t.high = 32;
    S.t.win_seat = -1;
    S.t.win_str = -1;
    S.t.led = 0;
    /* the hands must be apart and hold 8 - done cards, less one for a seat that has
     * played to the trick: the search trusts them */
    Py_ssize_t k = PyTuple_GET_SIZE(trick);
    uint32_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (seen & S.hand[i]) goto bad;
        seen |= S.hand[i];
        int played = ((i - S.t.leader) & 3) < k;
        if (__builtin_popcount(S.hand[i]) != 8 - S.t.done - played) goto bad;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long card = PyLong_AsLong(PyTuple_GET_ITEM(trick, i));
        if (card < 0 || card > 31 || seen >> card & 1) {
            if (!PyErr_Occurred()) goto bad;
            return -1;
        }
        seen |= 1u << card;
        int seat = (S.t.leader + S.t.tlen) & 3;
        S.hand[seat] |= 1u << card; /* play() takes it out again */
        Undo u;
        play((int)card, &u);
    }
    if ((*pending && k) || (S.t.done == 8 && !*pending)) goto bad;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "inconsistent position: hands, trick and tricks disagree");
    return -1;
}

/* The root's actions, lowest first, equivalent cards mapped to the group's lowest. */
static int root_actions(int pending, int *codes, int *rep) {
    if (pending) {
        codes[0] = rep[0] = TAKE_CODE;
        codes[1] = rep[1] = LEAVE_CODE;
        return 2;
    }
    int seat = (S.t.leader + S.t.tlen) & 3;
    uint32_t lg = legal(seat);
    int kept[8];
    int nk = gen_moves(seat, NOMOVE, kept);
    uint32_t keptmask = 0;
    for (int i = 0; i < nk; i++) keptmask |= 1u << kept[i];
    int n = 0;
    while (lg) {
        int c = __builtin_ctz(lg);
        lg &= lg - 1;
        codes[n] = c;
        /* a merged card's group: the kept card of its suit just below it */
        int g = c;
        while (!(keptmask >> g & 1)) g--;
        rep[n++] = g;
    }
    return n;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    int m, r, pending, want;
    if (setup(args, &m, &r, &pending, &want) < 0) return NULL;
    int codes[8], rep[8], vals[8];
    int n = root_actions(pending, codes, rep);
    int mover = pending ? S.t.leader & 1 : ((S.t.leader + S.t.tlen) & 3) & 1;
    int maxing = mover == S.playing;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "no legal action");
        return NULL;
    }
    if (want == 0) { /* every action's exact value */
        int guess = INF, order[8], k = 0;
        if (pending) {
            order[k++] = 0;
            order[k++] = 1;
        } else { /* in the order of the move heuristic, merged cards once */
            int kept[8], seat = (S.t.leader + S.t.tlen) & 3;
            STATIC_ORDER = 1;
            int nk = gen_moves(seat, NOMOVE, kept);
            STATIC_ORDER = 0;
            for (int j = 0; j < nk; j++)
                for (int i = 0; i < n; i++)
                    if (codes[i] == kept[j]) order[k++] = i;
        }
        for (int j = 0; j < k; j++) {
            int i = order[j];
            NAT_GUESS = guess;
            int lo = j ? vals[order[0]] - ASPIRATION : -INF;
            int hi = j ? vals[order[0]] + ASPIRATION : INF;
            int v = root_child(codes[i], lo, hi, m, r, pending);
            if (v <= lo)
                v = root_child(codes[i], -INF, v + 1, m, r, pending);
            else if (v >= hi)
                v = root_child(codes[i], v - 1, INF, m, r, pending);
            vals[i] = v;
            if (vals[i] < 0) guess = vals[i];
            if (ABORTED) break;
        }
        NAT_GUESS = INF;
        if (ABORTED) Py_RETURN_NONE;
        for (int i = 0; i < n; i++)
            if (rep[i] != codes[i])
                for (int j = 0; j < n; j++)
                    if (codes[j] == rep[i]) vals[i] = vals[j];
        PyObject *out = PyList_New(n);
        if (!out) return NULL;
        for (int i = 0; i < n; i++) {
            PyObject *item = Py_BuildValue("(ii)", codes[i], vals[i]);
            if (!item) {
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(out, i, item);
        }
        return out;
    }
    /* the best action (the lowest on a tie) and its exact value */
    int bestcode = -1, bestval = 0;
    for (int i = 0; i < n; i++) {
        if (rep[i] != codes[i]) continue;
        int v;
        if (bestcode < 0) {
            v = root_child(codes[i], -INF, INF, m, r, pending);
        } else if (maxing) {
            v = root_child(codes[i], bestval, INF, m, r, pending);
            if (v <= bestval) continue;
        } else {
            v = root_child(codes[i], -INF, bestval, m, r, pending);
            if (v >= bestval) continue;
        }
        if (ABORTED) Py_RETURN_NONE;
        bestcode = codes[i];
        bestval = v;
    }
    if (ABORTED) Py_RETURN_NONE;
    return Py_BuildValue("[(ii)]", bestcode, bestval);
}

static PyObject *py_nodes(PyObject *self, PyObject *noargs) {
    return PyLong_FromLongLong(S.nodes);
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(h0, h1, h2, h3, trick, leader, done, flags, trump, amsterdam, claim, playing, "
     "pit_any, m, r, pending, want[, limit]) -> [(code, g), ...] | None\n\n"
     "The playing team's final value g of each root action (want=0) or of the best one "
     "(want=1); code 0-31 is a card, 32 take, 33 leave; None past limit nodes (if not 0).  "
     "See engine/solver.py."},
    {"nodes", py_nodes, METH_NOARGS, "nodes() -> the number of nodes the last solve visited"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "engine._solver",
                                    "The exact open-card solver's compiled inner loop.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__solver(void) { return PyModule_Create(&module); }
