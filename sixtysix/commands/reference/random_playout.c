/*
 * random_playout.c -- hand-written C speed yardstick for the sixtysix engine.
 *
 * Plays uniformly random deals of the `sixty_six` preset (automatic claims)
 * as specified in docs/rules.md, single-threaded, and prints one JSON line:
 *   {"deals": N, "seconds": S, "deals_per_s": X, "plies": T, "plies_per_deal": P, "checksum": C}
 * plies = actions applied (every decision, forced or not, draws one random
 * number); checksum = sum of game points awarded.
 *
 * Build: cc -O3 -march=native -o random_playout random_playout.c
 *        (add -DCHECK to verify state invariants while playing; much slower)
 * Usage: ./random_playout DEALS SEED
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

/* ---- cards: index = suit*6 + rank, rank 0..5 = 9 J Q K T A ------------- */
#define BIT(c)      (1u << (c))
#define SUIT_BITS(s) (0x3Fu << (6 * (s)))
#define QUEENS      (BIT(2) | BIT(8) | BIT(14) | BIT(20))   /* Q of each suit */

static const uint8_t SUIT[24] = {0,0,0,0,0,0, 1,1,1,1,1,1, 2,2,2,2,2,2, 3,3,3,3,3,3};
static const uint8_t PTS[24]  = {0,2,3,4,10,11, 0,2,3,4,10,11,
                                 0,2,3,4,10,11, 0,2,3,4,10,11};

/* ---- actions: bit positions in a 64-bit legal-action mask ------------- */
enum {
    A_PLAY = 0,          /* 0..23  play/lead card c                     */
    A_MARRY = 24,        /* 24..47 declare marriage, lead card c-24      */
    A_EXCHANGE = 48,     /* trump-nine exchange (leader)                 */
    A_CLOSE = 49,        /* close the talon                              */
    A_EXCH_CLOSE = 51,   /* non-closer's exchange on close               */
    A_DRAW = 52,         /* pre-draw point: do not close, draw           */
    A_PASS = 53          /* exchange-on-close point: decline             */
};

/* ---- xoshiro256** PRNG, seeded by splitmix64 -------------------------- */
typedef struct { uint64_t s[4]; } rng_t;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return out;
}

static void rng_seed(rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {          /* splitmix64 */
        uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        r->s[i] = z ^ (z >> 31);
    }
}

/* Uniform integer in [0, n): multiply-shift on the top 32 bits (bias < n / 2^32,
 * negligible for n <= 24). The numba engine draws exactly the same way, so with
 * equal seeds both play the very same deals: equal plies and checksums. */
static inline uint32_t rng_below(rng_t *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * n) >> 32);
}

/* Uniformly choose one set bit of a non-empty action mask. */
static inline int pick(rng_t *r, uint64_t mask)
{
    uint32_t k = rng_below(r, (uint32_t)__builtin_popcountll(mask));
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64(1ull << k, mask));
#else
    while (k--) mask &= mask - 1;          /* drop the k lowest set bits */
    return __builtin_ctzll(mask);
#endif
}

/* ---- deal state -------------------------------------------------------- */
typedef struct {
    uint32_t hand[2];
    int pts[2];        /* card points from tricks (+ last-trick bonus)     */
    int tricks[2];     /* tricks won                                       */
    int mar[2];        /* declared marriage points (valid once tricks > 0) */
    int trump;         /* trump suit                                       */
    int top;           /* talon = deck[top..24], deck[24] = face-up card   */
    int closer;        /* -1 = never closed                                */
    int snap_tricks;   /* non-closer's tricks at the close                 */
    int just_closed;   /* leader closed this turn: may still marry         */
    long plies;
    uint32_t won;      /* all cards taken in tricks                        */
} deal_t;

static inline int total(const deal_t *d, int p)
{
    return d->pts[p] + (d->tricks[p] ? d->mar[p] : 0);
}

/* Standard scale on the loser: schwarz (no tricks) 3, schneider (<33) 2, else 1. */
static inline int scale(const deal_t *d, int loser)
{
    return d->tricks[loser] == 0 ? 3 : total(d, loser) < 33 ? 2 : 1;
}

/* Game points when player w goes out (automatic claim, total >= 66). */
static inline int claim_gp(const deal_t *d, int w)
{
    if (d->closer == 1 - w)                 /* non-closer out: as failed close */
        return d->snap_tricks ? 2 : 3;
    return scale(d, 1 - w);                 /* never closed, or closer (at_end) */
}

/* Game points when both hands are empty and nobody went out. */
static inline int end_gp(const deal_t *d)
{
    if (d->closer >= 0)                     /* failed close */
        return d->snap_tricks ? 2 : 3;
    int t0 = total(d, 0), t1 = total(d, 1);
    if (t0 == t1) return 0;                 /* draw */
    return scale(d, t0 < t1 ? 0 : 1);       /* higher total wins */
}

/* Player c closes; the opponent then has the L3 point while the trump nine is neither
 * under the talon nor won (R-A7): pass, or exchange it if he holds it. */
static inline void do_close(deal_t *d, uint8_t *deck, rng_t *r, int c)
{
    int o = 1 - c;
    uint32_t nine = BIT(6 * d->trump);
    d->closer = c;
    d->snap_tricks = d->tricks[o];
    d->just_closed = 1;
    if (deck[24] != 6 * d->trump && !(d->won & nine)) {
        uint64_t m = 1ull << A_PASS;
        if (d->hand[o] & nine) m |= 1ull << A_EXCH_CLOSE;
        int a = pick(r, m);
        d->plies++;
        if (a == A_EXCH_CLOSE) {            /* swap nine with talon's last card */
            d->hand[o] ^= nine | BIT(deck[24]);
            deck[24] = (uint8_t)(6 * d->trump);
        }
    }
}

#ifdef CHECK
static void check(const deal_t *d, const uint8_t *deck, int leader)
{
    uint32_t talon = 0;
    int pts = 0;
    for (int i = d->top; i < 25; i++) talon |= BIT(deck[i]);
    for (int c = 0; c < 24; c++) if (d->won & BIT(c)) pts += PTS[c];
    int ok = (d->hand[0] & d->hand[1]) == 0 && ((d->hand[0] | d->hand[1]) & d->won) == 0
          && ((d->hand[0] | d->hand[1] | d->won) & talon) == 0
          && __builtin_popcount(d->hand[0] | d->hand[1] | d->won | talon) == 24
          && __builtin_popcount(talon) == 25 - d->top
          && __builtin_popcount(d->hand[0]) == __builtin_popcount(d->hand[1])
          && d->pts[0] + d->pts[1] == pts
          && d->tricks[0] + d->tricks[1] == __builtin_popcount(d->won) / 2
          && total(d, 0) < 66 && total(d, 1) < 66 && leader >= 0 && leader < 2;
    if (!ok) { fprintf(stderr, "invariant violated\n"); abort(); }
}
#endif

/* Play one random deal; returns the game points awarded. */
static inline int play_deal(rng_t *r, uint8_t *deck, long *plies)
{
    deal_t d;

    /* Fisher-Yates on deck[0..23] (any prior permutation is fine). */
    for (int i = 23; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)i + 1);
        uint8_t tmp = deck[i]; deck[i] = deck[j]; deck[j] = tmp;
    }
    int dealer = (int)(rng_next(r) >> 63), nd = 1 - dealer;

    /* Pattern N3 D3 N3 D3 T; talon = deck[13..23] then the face-up deck[12]. */
    d.hand[nd]     = BIT(deck[0]) | BIT(deck[1]) | BIT(deck[2])
                   | BIT(deck[6]) | BIT(deck[7]) | BIT(deck[8]);
    d.hand[dealer] = BIT(deck[3]) | BIT(deck[4]) | BIT(deck[5])
                   | BIT(deck[9]) | BIT(deck[10]) | BIT(deck[11]);
    deck[24] = deck[12];
    d.trump = SUIT[deck[12]];
    d.top = 13;
    d.pts[0] = d.pts[1] = d.tricks[0] = d.tricks[1] = d.mar[0] = d.mar[1] = 0;
    d.closer = -1; d.snap_tricks = 0; d.just_closed = 0; d.plies = 0;
    d.won = 0;
    const uint32_t nine = BIT(6 * d.trump), trumps = SUIT_BITS(d.trump);
    int leader = nd, gp;

    for (;;) {
        const int L = leader, F = 1 - L;
        int led;
#ifdef CHECK
        check(&d, deck, leader);
#endif
        /* ---- leader: exchange / close (repeatable steps), then lead ---- */
        for (;;) {
            const int open = d.closer < 0 && d.top < 25;
            const uint32_t h = d.hand[L];
            uint64_t m = h;                                  /* play c */
            if (open || d.just_closed) {                     /* marry c */
                uint32_t q = h & (h >> 1) & QUEENS;          /* Q with K */
                m |= (uint64_t)(q | (q << 1)) << A_MARRY;
            }
            if (open) {                                      /* size >= 2 */
                m |= 1ull << A_CLOSE;
                if (d.tricks[L] && (h & nine)) m |= 1ull << A_EXCHANGE;
            }
            const int a = pick(r, m);
            d.plies++;
            if (a < A_MARRY) { led = a; break; }
            if (a < A_EXCHANGE) {
                led = a - A_MARRY;
                d.mar[L] += SUIT[led] == d.trump ? 40 : 20;
                if (d.tricks[L] && d.pts[L] + d.mar[L] >= 66) {
                    gp = claim_gp(&d, L);                    /* out, no lead */
                    goto done;
                }
                break;
            }
            if (a == A_EXCHANGE) {                           /* nine <-> face-up */
                d.hand[L] ^= nine | BIT(deck[24]);
                deck[24] = (uint8_t)(6 * d.trump);
                continue;
            }
            do_close(&d, deck, r, L);                        /* A_CLOSE */
        }
        d.just_closed = 0;
        d.hand[L] &= ~BIT(led);

        /* ---- follower: anything while open, else strict rules ---- */
        const uint32_t fh = d.hand[F];
        uint32_t fm = fh;
        if (d.closer >= 0 || d.top == 25) {
            const uint32_t suit = fh & SUIT_BITS(SUIT[led]);
            const uint32_t higher = suit & ~((BIT(led) << 1) - 1);
            if (higher)                        fm = higher;
            else if (suit)                     fm = suit;
            else if (SUIT[led] != d.trump && (fh & trumps)) fm = fh & trumps;
        }
        const int f = pick(r, fm);
        d.plies++;
        d.hand[F] &= ~BIT(f);

        /* ---- resolve trick ---- */
        const int w = SUIT[f] == SUIT[led] ? (f > led ? F : L)
                                           : (SUIT[f] == d.trump ? F : L);
        d.pts[w] += PTS[led] + PTS[f];
        d.tricks[w]++;
        d.won |= BIT(led) | BIT(f);
        const int empty = (d.hand[0] | d.hand[1]) == 0;
        if (empty && d.closer < 0) d.pts[w] += 10;           /* last trick */
        if (d.pts[w] + d.mar[w] >= 66) { gp = claim_gp(&d, w); goto done; }
        if (empty) { gp = end_gp(&d); goto done; }

        /* ---- pre-draw close point, then draw ---- */
        if (d.closer < 0 && d.top < 25) {
            int a = A_DRAW;
            if (25 - d.top >= 4) {                           /* close_min_talon + 2 */
                a = pick(r, (1ull << A_CLOSE) | (1ull << A_DRAW));
                d.plies++;
            }
            if (a == A_CLOSE) {
                do_close(&d, deck, r, w);                    /* no draw */
            } else {                                         /* winner first */
                d.hand[w]     |= BIT(deck[d.top]);
                d.hand[1 - w] |= BIT(deck[d.top + 1]);
                d.top += 2;
            }
        }
        leader = w;
    }
done:
    *plies += d.plies;
    return gp;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s DEALS SEED\n", argv[0]);
        return 2;
    }
    const long deals = strtol(argv[1], NULL, 10);
    rng_t r;
    rng_seed(&r, strtoull(argv[2], NULL, 10));
    uint8_t deck[25];
    for (int c = 0; c < 24; c++) deck[c] = (uint8_t)c;

    long plies = 0, checksum = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < deals; i++)
        checksum += play_deal(&r, deck, &plies);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    const double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("{\"deals\": %ld, \"seconds\": %.6f, \"deals_per_s\": %.1f, \"plies\": %ld, "
           "\"plies_per_deal\": %.4f, \"checksum\": %ld}\n",
           deals, secs, secs > 0 ? (double)deals / secs : 0.0, plies,
           deals > 0 ? (double)plies / (double)deals : 0.0, checksum);
    return 0;
}
