/* importers/callgrind_par.c -- the callgrind reader's look-ahead threads.
 * Worker threads cut the input into chunks at line ends, find the lines of
 * each chunk, parse the numbers of its cost lines, make its runs of cost
 * lines into rows (PH_CGPIPE_ROWS) and hash the functions' names, or, for
 * cachegrind's reader, pack its count lines as the rows keep them (with
 * one thread, the reader does it chunk by chunk); the reading
 * thread takes the chunks in order and builds the IR from them with the
 * same code as the serial scanner's, so the profile is the same whatever
 * the number of threads.  A line the workers cannot parse plainly (a
 * range, a fraction, an overflow, anything odd) goes to the ordinary
 * parser, which also gives its exact error; a chunk with a NUL byte hands
 * the rest of the input back to the serial scanner.  A mapped file's
 * chunks are copied with pread() into the chunks' own buffers: here
 * mapping a file's pages in (and giving them back behind the reader) cost
 * the look-ahead thread a fifth of its time, a copy a tenth of that. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/callgrind_priv.h"
#include "ir/costs_pack.h"
#include "ir/jobs.h"
#include "ir/stock.h"

/* Inputs from MIN_SIZE up are read with threads, in chunks of a 16th of
 * the input between CHUNK_MIN and CHUNK_MAX bytes (the samples of the
 * tests, from 64 KiB, then cross a dozen chunk boundaries).  A ring of
 * 64 KiB chunks with their tokens and copies is about 0.85 MiB: chunks of
 * 256 KiB held 2.5 MiB more at the peak and read no faster; a ring of
 * eight held 0.9 MiB more (a 43 MB file's summary then peaked above its
 * size) and read no faster. */
#define MIN_SIZE ((size_t)64 << 10)
#define CHUNK_MIN ((size_t)4 << 10)
#define CHUNK_MAX ((size_t)64 << 10)
/* From this size up, the threads make the profile's blocks ready: a
 * smaller input's profile takes a few blocks at most. */
#define STOCK_MIN_SIZE ((size_t)16 << 20)
/* Tokens of one cost line (ntok is a byte, below the marks). */
#define MAX_TOKENS (PH_CGTOK_PACKED - 1)
/* Names from this length up are hashed ahead of the reader: with
 * --separate-callers=16, 153,000 names of 640 bytes are 44% of cc1's
 * file, and hashing them a tenth of the reading thread's work. */
#define HASHED_NAME_MIN 32

/* A function's name hashed ahead: its line in the chunk, its bytes from
 * the chunk's start, its hash and its parts' (from the chunk's first). */
typedef struct hashed_name {
    uint32_t line, off, len;
    uint32_t whole, nparts, first;
} hashed_name;

/* A run of packed count lines in a chunk (they follow one another: no
 * other line between them, so a reader stores them in one function) and
 * their counts' sums (wrapping; exact when every count is below 2^48:
 * a chunk's lines cannot then add up past 2^63). */
typedef struct segment {
    uint32_t first, nlines;     /* its lines in the chunk */
    uint32_t at;                /* its sums: the chunk's ssum[at..] */
    uint8_t width;              /* counts of its longest line */
    uint8_t exact;
} segment;

typedef struct chunk {
    size_t index;           /* chunk number held, valid when ready */
    int ready;
    int busy;               /* a worker is filling it */
    int has_nul;
    int too_big;            /* longer than 32-bit offsets: read serially */
    size_t start, end;      /* bytes of the input */
    const char *base;       /* where they are: the input's, or buf */
    char *buf;              /* a copy of them (pipe's fd) */
    size_t bufcap;
    uint32_t *lend;         /* per line: offset of its '\n' (or the end) */
    uint8_t *ntok;          /* per line: tokens, or PH_CGTOK_NONE */
    size_t nlines, caplines;
    uint64_t *val;
    uint8_t *kind;
    size_t ntoks, captoks;
    hashed_name *names;
    size_t nnames, capnames;
    uint32_t (*parts)[2];   /* the names' parts: length, hash */
    size_t nparts, capparts;
    unsigned char *pk;      /* packed count lines (PH_CGPIPE_PACK) */
    size_t npk, cappk;
    segment *segs;          /* their runs, the last one open while */
    size_t nsegs, capsegs;  /* fill packs */
    uint64_t *ssum;
    size_t nssum, capssum;
    ph_cgrows *runs;        /* runs of rows (PH_CGPIPE_ROWS), in order */
    size_t nruns, capruns;
    uint32_t *run_at;       /* per run while filling: where its bytes
                               start in rb (its first line's costs, then
                               its rows) */
    unsigned char *rb;      /* the runs' bytes */
    size_t nrb, caprb;
    uint64_t *rsum;         /* the runs' sums, PH_CGPACK_MAX each */
} chunk;

struct ph_cgpipe {
    const ph_profile *p;    /* whose seed the names are hashed with */
    const char *data;
    int fd;                 /* the file data maps, read with pread; -1 */
    size_t len, nchunks, chunk;
    chunk *slots;
    size_t nslots;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next_claim;      /* next chunk a worker takes */
    size_t consumed;        /* chunks the reader is done with */
    int stop;
    /* Progress, reported by one worker at a time as the reader passes
     * chunks, so that the reading thread does not give back the pages */
    ph_input *in;
    size_t next_report;
    int reporting;
    pthread_t *th;
    int nth;
    char mem_context[256];  /* the reader's, for an out-of-memory message */
    ph_stock *stock;        /* blocks for the profile, filled while idle */
    int stock_full;         /* no more for now: wait for the reader */
    int pack;               /* PH_CGPIPE_PACK */
    int rows;               /* PH_CGPIPE_ROWS, with the header's
                               positions: 1 instr, 2 line (0: no runs) */
    unsigned npos;          /* position tokens a cost line has then */
    uint64_t psum[PH_CGPACK_MAX];   /* the packed counts of the chunks the
                                       reader is done with */

    /* The reader's position. */
    chunk *cur;
    size_t cur_index, line, tok, name, pk, seg, run;
    /* When the reader reads a chunk itself, line by line: its bytes, and
     * the tokens of its cost line */
    int serial;
    const char *sp, *send;
    uint64_t sval[MAX_TOKENS];
    uint8_t skind[MAX_TOKENS];
};

/* n bytes of the input at off into buf: 0, or -1 (then the mapping
 * serves). */
static int read_at(const ph_cgpipe *pp, char *buf, size_t n, size_t off)
{
    while (n > 0) {
        ssize_t got = pread(pp->fd, buf, n, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        buf += got;
        n -= (size_t)got;
        off += (size_t)got;
    }
    return 0;
}

/* The first '\n' at or after byte from, or the input's end. */
static size_t line_end_from(const ph_cgpipe *pp, size_t from)
{
    char window[512];
    const char *nl;

    while (pp->fd >= 0 && from < pp->len) {
        size_t n = pp->len - from < sizeof window ? pp->len - from
                                                  : sizeof window;
        if (read_at(pp, window, n, from) < 0)
            break;
        if ((nl = memchr(window, '\n', n)) != NULL)
            return from + (size_t)(nl - window);
        from += n;
    }
    nl = from < pp->len ? memchr(pp->data + from, '\n', pp->len - from)
                        : NULL;
    return nl ? (size_t)(nl - pp->data) : pp->len;
}

/* Start of chunk k: just after the first '\n' at or after k * chunk - 1. */
static size_t chunk_start(const ph_cgpipe *pp, size_t k)
{
    size_t nl;

    if (k == 0)
        return 0;
    if (k >= pp->nchunks)
        return pp->len;
    nl = line_end_from(pp, k * pp->chunk - 1);
    return nl < pp->len ? nl + 1 : pp->len;
}

/* c's bytes where the lines are read: a copy when the input is a file. */
static void place_bytes(const ph_cgpipe *pp, chunk *c)
{
    size_t n = c->end - c->start;

    c->base = pp->data + c->start;
    if (pp->fd < 0 || n == 0)
        return;
    if (c->bufcap < n) {
        c->bufcap = n;
        free(c->buf);
        c->buf = ph_xmalloc(c->bufcap);
    }
    if (read_at(pp, c->buf, n, c->start) == 0)
        c->base = c->buf;
}

/* Room for need tokens (values and kinds grow together). */
static void reserve_toks(chunk *c, size_t need)
{
    if (need <= c->captoks)
        return;
    while (c->captoks < need)
        c->captoks = c->captoks ? 2 * c->captoks : 4096;
    c->val = ph_xrealloc(c->val, c->captoks * sizeof *c->val);
    c->kind = ph_xrealloc(c->kind, c->captoks);
}

/* The name of the "fn=" or "cfn=" line from q (its key) to e, hashed
 * for the reader as line nline of c, as callgrind_in.c's get_name finds
 * it in the line (the reader checks it is the same bytes). */
static void hash_name(const ph_cgpipe *pp, chunk *c, size_t nline,
                      const char *q, const char *e)
{
    const char *v, *nm;
    int compressed;
    uint64_t id;
    size_t len, errcol;
    hashed_name *n;
    ph_str_hashes h;

    if (e > q && e[-1] == '\r')
        e--;
    if (e - q > 3 && memcmp(q, "fn=", 3) == 0)
        v = q + 3;
    else if (e - q > 4 && memcmp(q, "cfn=", 4) == 0)
        v = q + 4;
    else
        return;
    if (ph_cg_name(v, e, &compressed, &id, &nm, &len, &errcol) < 0 ||
        len < HASHED_NAME_MIN)
        return;
    if (c->nnames == c->capnames) {
        c->capnames = c->capnames ? 2 * c->capnames : 64;
        c->names = ph_xrealloc(c->names, c->capnames * sizeof *c->names);
    }
    if (c->nparts + PH_STR_HASHED_PARTS > c->capparts) {
        c->capparts = 2 * c->capparts + PH_STR_HASHED_PARTS;
        c->parts = ph_xrealloc(c->parts, c->capparts * sizeof *c->parts);
    }
    if (ph_str_hash_text(pp->p, nm, len, &h, c->parts + c->nparts) < 0)
        return;
    n = &c->names[c->nnames++];
    *n = (hashed_name){ (uint32_t)nline,
                        (uint32_t)(nm - c->base),
                        (uint32_t)len, h.whole, h.nparts,
                        (uint32_t)c->nparts };
    c->nparts += h.nparts;
}

/* The segment line `line` of c starts or goes on, its sums zeroed when
 * it starts. */
static segment *open_segment(chunk *c, size_t line)
{
    segment *g = c->nsegs ? &c->segs[c->nsegs - 1] : NULL;

    if (g && g->first + g->nlines == line)
        return g;
    if (c->nsegs == c->capsegs) {
        c->capsegs = c->capsegs ? 2 * c->capsegs : 64;
        c->segs = ph_xrealloc(c->segs, c->capsegs * sizeof *c->segs);
    }
    if (c->capssum - c->nssum < PH_CGPACK_MAX) {
        c->capssum = 2 * c->capssum + PH_CGPACK_MAX;
        c->ssum = ph_xrealloc(c->ssum, c->capssum * sizeof *c->ssum);
    }
    g = &c->segs[c->nsegs++];
    *g = (segment){ (uint32_t)line, 0, (uint32_t)c->nssum, 0, 1 };
    memset(c->ssum + c->nssum, 0, PH_CGPACK_MAX * sizeof *c->ssum);
    c->nssum += PH_CGPACK_MAX;
    return g;
}

/* The count line at p (its first byte a digit, line `line` of c) packed
 * at the end of c's records, its counts added to its segment's sums:
 * PH_CGTOK_PACKED and *next after it, or PH_CGTOK_NONE. */
static unsigned pack_line(chunk *c, size_t line, const char *p,
                          const char *z, const char **next)
{
    segment *g = open_segment(c, line);
    unsigned char *d, *end;
    const char *e;

    if (c->cappk - c->npk < PH_CGPACK_ROOM) {
        c->cappk = 2 * c->cappk + PH_CGPACK_ROOM;
        c->pk = ph_xrealloc(c->pk, c->cappk);
    }
    d = c->pk + c->npk;
    end = ph_cg_pack_line(p, z, d, c->ssum + g->at, &e, next);
    if (!end) {
        if (g->nlines == 0) {       /* it opened the segment: none */
            c->nsegs--;
            c->nssum = g->at;
        }
        return PH_CGTOK_NONE;
    }
    c->npk = (size_t)(end - c->pk);
    g->nlines++;
    if ((d[0] & PH_CGPACK_NCOUNTS) > g->width)
        g->width = d[0] & PH_CGPACK_NCOUNTS;
    if (d[0] & PH_CGPACK_BIG)
        g->exact = 0;
    return PH_CGTOK_PACKED;
}

/* The segments' sums cut to their widths. */
static void close_segments(chunk *c)
{
    size_t i, at = 0;

    for (i = 0; i < c->nsegs; i++) {
        segment *g = &c->segs[i];
        memmove(c->ssum + at, c->ssum + g->at, g->width * sizeof *c->ssum);
        g->at = (uint32_t)at;
        at += g->width;
    }
    c->nssum = at;
}

/* The run of rows being made in a chunk (PH_CGPIPE_ROWS): per position
 * (0 address, 1 line number) whether an absolute number has set it, and
 * then its value, else its offset from the run's first line. */
typedef struct run_state {
    int open;
    int blocked;        /* the line before was calls=, jump= or jcnd= (its
                           cost line is no row), or is not known */
    uint8_t known[2];
    uint64_t abs[2];
    int64_t off[2], lo[2], hi[2];   /* the offsets so far, their bounds */
} run_state;

/* Offsets from a run's first position stay within this, so that no sum of
 * them overflows. */
#define RUN_OFF_MAX ((int64_t)1 << 62)

static void close_run(chunk *c, run_state *st)
{
    ph_cgrows *g;

    if (!st->open)
        return;
    st->open = 0;
    g = &c->runs[c->nruns - 1];
    if (g->nlines < 2) {        /* a line alone: the reader's as it is */
        c->nrb = c->run_at[c->nruns - 1];
        c->nruns--;
        return;
    }
    for (int d = 0; d < 2; d++) {
        g->known[d] = st->known[d];
        g->end[d] = st->known[d] ? (int64_t)st->abs[d] : st->off[d];
        g->lo[d] = st->lo[d];
        g->hi[d] = st->hi[d];
    }
}

/* Room for one more line of a run. */
static void run_room(chunk *c)
{
    /* a row's head (two varints) and the packing of PH_CGPACK_MAX counts */
    if (c->caprb - c->nrb < PH_CGPACK_ROOM + 20) {
        c->caprb = 2 * c->caprb + PH_CGPACK_ROOM + 20;
        c->rb = ph_xrealloc(c->rb, c->caprb);
    }
}

/* The sums of run i of c. */
static uint64_t *run_sum(const chunk *c, size_t i)
{
    return c->rsum + i * PH_CGPACK_MAX;
}

/* The counts v[0..n) packed at d, in c's run bytes (their end c's), and
 * added to the open run's sums. */
static void run_counts(chunk *c, unsigned char *d, const uint64_t *v,
                       unsigned n)
{
    uint64_t *sum = run_sum(c, c->nruns - 1);
    ph_costs_packer pk;
    ph_costs_pack_begin(&pk, d);
    for (unsigned i = 0; i < n; i++) {
        sum[i] += v[i];
        ph_costs_pack_count(&pk, v[i]);
    }
    c->nrb = (size_t)(ph_costs_pack_end(&pk) - c->rb);
}

/* A new run from line `line`, whose position tokens and n counts are
 * kind and v; 0 when the line cannot start one. */
static int open_run(const ph_cgpipe *pp, chunk *c, run_state *st,
                    size_t line, const uint8_t *kind, const uint64_t *v,
                    unsigned n)
{
    ph_cgrows *g;
    unsigned t = 0;

    for (int d = 0; d < 2; d++) {
        st->known[d] = 0;
        st->off[d] = st->lo[d] = st->hi[d] = 0;
        if (!(pp->rows & (1 << d)))
            continue;
        if (kind[t] == PH_CGTOK_ABS) {
            if (d == 1 && v[t] > UINT32_MAX)
                return 0;
            st->known[d] = 1;
            st->abs[d] = v[t];
        }
        t++;
    }
    if (c->nruns == c->capruns) {
        c->capruns = c->capruns ? 2 * c->capruns : 64;
        c->runs = ph_xrealloc(c->runs, c->capruns * sizeof *c->runs);
        c->run_at = ph_xrealloc(c->run_at, c->capruns * sizeof *c->run_at);
        c->rsum = ph_xrealloc(c->rsum, c->capruns * PH_CGPACK_MAX *
                                       sizeof *c->rsum);
    }
    g = &c->runs[c->nruns];
    memset(g, 0, sizeof *g);
    g->first = (uint32_t)line;
    g->nlines = 1;
    g->pos = (uint8_t)pp->rows;
    g->width = (uint8_t)n;
    c->run_at[c->nruns] = (uint32_t)c->nrb;
    memset(run_sum(c, c->nruns), 0, PH_CGPACK_MAX * sizeof *c->rsum);
    c->nruns++;
    run_room(c);
    run_counts(c, c->rb + c->nrb, v + pp->npos, n);
    g->costs_len = (uint32_t)(c->nrb - c->run_at[c->nruns - 1]);
    st->open = 1;
    return 1;
}

/* The step of position d by a token from the line before: its delta in
 * *delta (an address's modulo 2^64); 1, 0 for an absolute one the run
 * cannot say (no absolute before it: a new run starts), -1 for one the
 * parser refuses (the line is left to it). */
static int run_step(run_state *st, int d, uint8_t kind, uint64_t v,
                    int64_t *delta)
{
    uint64_t limit = d == 0 ? UINT64_MAX : UINT32_MAX;

    if (kind == PH_CGTOK_SAME) {
        *delta = 0;
        return 1;
    }
    if (kind == PH_CGTOK_ABS) {
        if (!st->known[d])
            return 0;
        if (v > limit)
            return -1;
        *delta = d == 0 ? (int64_t)(v - st->abs[d])
                        : (int64_t)v - (int64_t)st->abs[d];
        st->abs[d] = v;
        return 1;
    }
    if (st->known[d]) {
        if (kind == PH_CGTOK_PLUS ? v > limit - st->abs[d] : v > st->abs[d])
            return -1;
        st->abs[d] = kind == PH_CGTOK_PLUS ? st->abs[d] + v : st->abs[d] - v;
    } else {
        if (v > (uint64_t)RUN_OFF_MAX)
            return -1;
        st->off[d] += kind == PH_CGTOK_PLUS ? (int64_t)v : -(int64_t)v;
        if (st->off[d] > RUN_OFF_MAX || st->off[d] < -RUN_OFF_MAX)
            return -1;
        if (st->off[d] < st->lo[d])
            st->lo[d] = st->off[d];
        if (st->off[d] > st->hi[d])
            st->hi[d] = st->off[d];
    }
    *delta = kind == PH_CGTOK_PLUS ? (int64_t)v : (int64_t)(0 - v);
    return 1;
}

/* The open run's next row head, for a line whose positions are kind and
 * v, written at the end of c's run bytes: where it ends; NULL when the
 * run cannot take the line (*rc: 0 for an absolute position the run
 * cannot say, a new run may start there; -1 for one the parser refuses),
 * st as it was. */
static unsigned char *run_head(const ph_cgpipe *pp, chunk *c, run_state *st,
                               const uint8_t *kind, const uint64_t *v,
                               int *rc)
{
    int64_t delta[2] = { 0, 0 };
    run_state before = *st;
    unsigned char *h;

    *rc = 1;
    for (int d = 0, t = 0; d < 2 && *rc == 1; d++)
        if (pp->rows & (1 << d)) {
            *rc = run_step(st, d, kind[t], v[t], &delta[d]);
            t++;
        }
    if (*rc != 1) {
        *st = before;
        return NULL;
    }
    run_room(c);
    h = ph_put_varint(c->rb + c->nrb, ph_zigzag(delta[1]) << 1);
    return ph_put_varint(h, ph_zigzag(delta[0]));
}

/* The open run one line longer, of n counts. */
static void run_grows(chunk *c, unsigned n)
{
    ph_cgrows *g = &c->runs[c->nruns - 1];
    if (n > g->width)
        g->width = (uint8_t)n;
    g->nlines++;
}

/* Cost line `line` of c, tokenized (n tokens at the end of c's): the next
 * row of the open run (1: its tokens are not kept), the first of a new
 * one, or none (0). */
static int run_line(const ph_cgpipe *pp, chunk *c, run_state *st,
                    size_t line, unsigned n)
{
    const uint64_t *v = c->val + c->ntoks;
    const uint8_t *kind = c->kind + c->ntoks;
    unsigned np = pp->npos;
    int rc = 0;

    if (st->blocked || n < np || n - np > PH_CGPACK_MAX ||
        !ph_cg_plain_counts(kind + np, v + np, n - np)) {
        st->blocked = 0;    /* the line after a cost line is a row */
        close_run(c, st);
        return 0;
    }
    if (st->open) {
        unsigned char *h = run_head(pp, c, st, kind, v, &rc);
        if (h) {
            run_counts(c, h, v + np, n - np);
            run_grows(c, n - np);
            return 1;
        }
        close_run(c, st);
        if (rc < 0)
            return 0;
    }
    (void)open_run(pp, c, st, line, kind, v, n - np);
    return 0;
}

/* The cost line at p the next row of the open run, read from its text
 * straight into the row (1, *next after it); 0 when the tokens must say
 * (run_line then decides: nothing has changed). */
static int run_row(const ph_cgpipe *pp, chunk *c, run_state *st,
                   const char *p, const char *z, const char **next)
{
    uint8_t kind[2];
    uint64_t v[2];
    run_state before = *st;
    const char *q = ph_cg_row_positions(p, z, pp->npos, kind, v), *e;
    unsigned char *h, *end;
    unsigned n;
    int rc;

    if (!q || !(h = run_head(pp, c, st, kind, v, &rc)))
        return 0;
    end = ph_cg_row_counts(q, z, h, run_sum(c, c->nruns - 1), &n, &e, next);
    if (!end) {
        *st = before;
        return 0;
    }
    c->nrb = (size_t)(end - c->rb);
    run_grows(c, n);
    return 1;
}

/* The runs' bytes and sums where the reader finds them, once c is filled
 * (its buffers no longer move). */
static void place_runs(chunk *c)
{
    for (size_t i = 0; i < c->nruns; i++) {
        ph_cgrows *g = &c->runs[i];
        uint32_t end = i + 1 < c->nruns ? c->run_at[i + 1]
                                        : (uint32_t)c->nrb;
        g->costs = c->rb + c->run_at[i];
        g->rows = g->costs + g->costs_len;
        g->rows_len = end - c->run_at[i] - g->costs_len;
        g->sum = run_sum(c, i);
    }
}

static void fill(ph_cgpipe *pp, chunk *c, size_t k)
{
    run_state st = { .blocked = 1 };    /* the line before is not known */
    const char *a, *z, *p;

    c->start = chunk_start(pp, k);
    c->end = chunk_start(pp, k + 1);
    c->nlines = c->ntoks = c->nnames = c->nparts = c->npk = 0;
    c->nsegs = c->nssum = 0;
    c->nruns = c->nrb = 0;
    c->has_nul = c->too_big = 0;
    if (c->end - c->start > UINT32_MAX) {
        c->too_big = 1;
        return;
    }
    place_bytes(pp, c);
    a = c->base;
    z = a + (c->end - c->start);
    if (memchr(a, 0, (size_t)(z - a))) {
        c->has_nul = 1;
        return;
    }
    for (p = a; p < z;) {
        const char *e, *next;
        unsigned n = PH_CGTOK_NONE;
        size_t left = (size_t)(z - p);  /* here, where p < z is plain:
                                           gcc -O3 -flto saw a negative
                                           memchr bound below */

        if (c->nlines == c->caplines) {
            c->caplines = c->caplines ? 2 * c->caplines : 4096;
            c->lend = ph_xrealloc(c->lend, c->caplines * sizeof *c->lend);
            c->ntok = ph_xrealloc(c->ntok, c->caplines);
        }
        /* a cost line starts with its first token: the ordinary parsers
         * read one after blanks (callgrind's takes it, cachegrind's
         * refuses it, as cg_annotate does) */
        next = NULL;
        if (pp->pack) {
            if ((unsigned char)(*p - '0') < 10 &&
                (n = pack_line(c, c->nlines, p, z, &next)) == PH_CGTOK_NONE)
                next = NULL;
        } else if (ph_cg_token_start(*p) &&
                   /* a run's later lines keep no tokens: the reader
                    * copies their rows, or reads their text when it
                    * cannot */
                   !(st.open && run_row(pp, c, &st, p, z, &next))) {
            reserve_toks(c, c->ntoks + MAX_TOKENS);
            n = ph_cg_cost_tokens(p, z, MAX_TOKENS, c->val + c->ntoks,
                                  c->kind + c->ntoks, &e, &next);
            if (n != PH_CGTOK_NONE && pp->rows &&
                run_line(pp, c, &st, c->nlines, n))
                n = PH_CGTOK_NONE;
            else if (n != PH_CGTOK_NONE)
                c->ntoks += n;
            else
                next = NULL;
        }
        if (next) {
            p = next;
        } else {
            const char *q = ph_cg_skipws(p, z);
            const char *nl = memchr(p, '\n', left);
            if (q < z && (*q == 'f' || *q == 'c') && !pp->pack)
                hash_name(pp, c, c->nlines, q, nl ? nl : z);
            /* calls=, jump=, jcnd= (and any line like them): the next
             * line is their cost or position, no row */
            close_run(c, &st);
            st.blocked = q < z && (*q == 'c' || *q == 'j');
            p = nl ? nl + 1 : z;
        }
        /* the line's '\n', or the end of the chunk */
        c->lend[c->nlines] = (uint32_t)((p[-1] == '\n' ? p - 1 : p) - a);
        c->ntok[c->nlines++] = (uint8_t)n;
    }
    close_segments(c);
    close_run(c, &st);
    place_runs(c);
}

/* With the lock held: the bytes the reader is done with when they call
 * for a progress report, which this thread then makes; else 0.  Chunk k
 * starts at k * chunk or after, so the chunks before consumed hold all
 * the bytes before consumed * chunk. */
static size_t report_due(ph_cgpipe *pp)
{
    size_t done = pp->consumed * pp->chunk;
    if (pp->reporting || done < pp->next_report || done > pp->len)
        return 0;
    pp->reporting = 1;
    pp->next_report = done + PH_CG_PROGRESS_EVERY;
    return done;
}

/* With the lock held: the next chunk no thread has taken (its slot free)
 * filled without the lock, and made ready. */
static void fill_next(ph_cgpipe *pp)
{
    size_t k = pp->next_claim++;
    chunk *c = &pp->slots[k % pp->nslots];

    c->busy = 1;
    c->ready = 0;
    pthread_mutex_unlock(&pp->mu);
    fill(pp, c, k);
    pthread_mutex_lock(&pp->mu);
    c->index = k;
    c->ready = 1;
    c->busy = 0;
}

static void *worker(void *arg)
{
    ph_cgpipe *pp = arg;

    ph_mem_set_context(pp->mem_context);
    for (;;) {
        size_t done;

        pthread_mutex_lock(&pp->mu);
        for (;;) {
            if ((done = report_due(pp)) != 0) {
                pthread_mutex_unlock(&pp->mu);
                ph_input_progress(pp->in, done);
                pthread_mutex_lock(&pp->mu);
                pp->reporting = 0;
                continue;
            }
            if (pp->stop || pp->next_claim >= pp->nchunks ||
                (pp->next_claim < pp->consumed + pp->nslots &&
                 !pp->slots[pp->next_claim % pp->nslots].busy))
                break;
            /* Ahead of the reader: the pages of its next blocks. */
            if (pp->stock && !pp->stock_full &&
                ph_stock_wanted(pp->stock, pp->consumed * pp->chunk,
                                pp->len)) {
                pthread_mutex_unlock(&pp->mu);
                int more = ph_stock_fill(pp->stock);
                pthread_mutex_lock(&pp->mu);
                pp->stock_full = !more;
                continue;
            }
            pthread_cond_wait(&pp->cv, &pp->mu);
        }
        if (pp->stop || pp->next_claim >= pp->nchunks) {
            pthread_mutex_unlock(&pp->mu);
            return NULL;
        }
        fill_next(pp);
        pthread_cond_broadcast(&pp->cv);
        pthread_mutex_unlock(&pp->mu);
    }
}

/* The positions of the cost lines by the header ("positions:" before
 * the first "fn="; "line" without it): 1 instr, 2 line, 3 both; 0 when
 * the header says something else or is longer than the first chunk. */
static int header_positions(const char *data, size_t len)
{
    const char *p = data, *z = data + (len < CHUNK_MAX ? len : CHUNK_MAX);

    while (p < z) {
        const char *nl = memchr(p, '\n', (size_t)(z - p));
        const char *e = nl ? nl : z;
        if (e - p >= 3 && memcmp(p, "fn=", 3) == 0)
            return 2;
        if (e - p >= 10 && memcmp(p, "positions:", 10) == 0) {
            int pos = 0;
            for (const char *q = p + 10; q < e;) {
                const char *w;
                while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
                    q++;
                for (w = q; q < e && *q != ' ' && *q != '\t' && *q != '\r';)
                    q++;
                if (q - w == 5 && memcmp(w, "instr", 5) == 0)
                    pos |= 1;
                else if (q - w == 4 && memcmp(w, "line", 4) == 0)
                    pos |= 2;
                else if (q > w)
                    return 0;
            }
            return pos;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    return 0;
}

ph_cgpipe *ph_cgpipe_start(ph_input *in, const ph_profile *p,
                           const char *data, size_t len, int jobs, int flags)
{
    ph_cgpipe *pp;
    int i;
    int fd = data == (const char *)ph_input_data(in) ? ph_input_fd(in) : -1;

    /* One thread reads a file through the pipe too, filling each chunk
     * itself: the chunks are copied, the mapping never read. */
    if (len < MIN_SIZE || (jobs < 2 && fd < 0))
        return NULL;
    pp = ph_xcalloc(1, sizeof *pp);
    pp->in = in;
    pp->p = p;
    pp->next_report = PH_CG_PROGRESS_EVERY;
    pp->data = data;
    pp->fd = fd;
    pp->len = len;
    pp->chunk = len / 16 < CHUNK_MIN ? CHUNK_MIN
              : len / 16 > CHUNK_MAX ? CHUNK_MAX : len / 16;
    pp->nchunks = (len + pp->chunk - 1) / pp->chunk;
    /* the reading thread builds the profile */
    pp->nth = jobs > 1 ? jobs - 1 : 0;
    pp->nslots = 2 * (size_t)pp->nth + 2;
    pp->slots = ph_xcalloc(pp->nslots, sizeof *pp->slots);
    pp->th = ph_xcalloc((size_t)pp->nth, sizeof *pp->th);
    snprintf(pp->mem_context, sizeof pp->mem_context, "%s", ph_mem_context());
    pp->pack = (flags & PH_CGPIPE_PACK) != 0;
    if (flags & PH_CGPIPE_ROWS)
        pp->rows = header_positions(data, len);
    pp->npos = (pp->rows & 1) + (pp->rows >> 1);
    if ((flags & PH_CGPIPE_STOCK) && len >= STOCK_MIN_SIZE && pp->nth)
        pp->stock = ph_stock_new();
    pthread_mutex_init(&pp->mu, NULL);
    pthread_cond_init(&pp->cv, NULL);
    for (i = 0; i < pp->nth; i++) {
        if (pthread_create(&pp->th[i], NULL, worker, pp) != 0)
            break;
    }
    if (i == 0 && pp->nth) {
        pp->nth = 0;
        ph_cgpipe_stop(pp);
        return NULL;
    }
    pp->nth = i;
    return pp;
}

/* The sums of c's first n segments added to sum (PH_CGPACK_MAX values). */
static void add_segments(uint64_t *sum, const chunk *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < c->segs[i].width; k++)
            sum[k] += c->ssum[c->segs[i].at + k];
}

/* Done with the current chunk: its slot may take a later one. */
static void release(ph_cgpipe *pp)
{
    size_t done;

    if (!pp->serial)
        add_segments(pp->psum, pp->cur, pp->cur->nsegs);
    pthread_mutex_lock(&pp->mu);
    if (!pp->serial)
        pp->cur->ready = 0;
    pp->consumed = pp->cur_index + 1;
    pp->stock_full = 0;
    /* The look-ahead threads wait for half the ring, not a slot: a
     * wake-up is a system call, one a chunk 3% of the reading thread. */
    if (pp->consumed + pp->nslots >= pp->next_claim + pp->nslots / 2)
        pthread_cond_broadcast(&pp->cv);
    done = pp->nth ? 0 : report_due(pp);   /* else a thread reports */
    pthread_mutex_unlock(&pp->mu);
    if (done) {
        ph_input_progress(pp->in, done);
        pp->reporting = 0;
    }
    pp->cur = NULL;
    pp->serial = 0;
    pp->cur_index++;
}

/* With the lock held, while a worker fills the chunk the reader wants:
 * the next chunk no thread has taken filled here, when its slot is free
 * (1), rather than the wanted one read again line by line. */
static int help_ahead(ph_cgpipe *pp)
{
    size_t j = pp->next_claim;

    if (j >= pp->nchunks || j >= pp->consumed + pp->nslots ||
        pp->slots[j % pp->nslots].busy)
        return 0;
    fill_next(pp);
    return 1;
}

/* Take chunk cur_index: from a worker when it is ready; read here when no
 * worker has started it (on a busy machine they may not get a processor);
 * when a worker is still on it, the chunks after it that no thread has
 * taken are filled here meanwhile while their slots are free (help_ahead),
 * then it is read line by line, without waiting, if still not ready.  0,
 * or -1 for a chunk the serial scanner must read (NUL byte, too long). */
static int take(ph_cgpipe *pp)
{
    size_t k = pp->cur_index;
    chunk *c = &pp->slots[k % pp->nslots];
    int mine = 0;

    pthread_mutex_lock(&pp->mu);
    while (!(c->ready && c->index == k) && pp->next_claim != k &&
           help_ahead(pp))
        ;
    if (pp->next_claim == k) {
        pp->next_claim++;
        mine = 1;
    }
    pp->serial = !(c->ready && c->index == k) && !(mine && !c->busy);
    pthread_mutex_unlock(&pp->mu);
    pp->cur = c;
    pp->line = pp->tok = pp->name = pp->pk = pp->seg = pp->run = 0;
    if (pp->serial) {
        size_t a = chunk_start(pp, k), z = chunk_start(pp, k + 1);
        pp->sp = pp->data + a;
        pp->send = pp->data + z;
        return memchr(pp->sp, 0, z - a) ? -1 : 0;
    }
    if (mine) {
        fill(pp, c, k);
        c->index = k;
        c->ready = 1;
    }
    return c->has_nul || c->too_big ? -1 : 0;
}

/* The next line of a chunk read here, by the scanner's rules; a cost line
 * tokenized as a worker would have (fill). */
static int serial_line(ph_cgpipe *pp, ph_cgline *l)
{
    const char *s = pp->sp, *nl, *e, *next;

    l->name = NULL;
    l->rows = NULL;
    if (ph_cg_token_start(*s)) {
        l->ntok = ph_cg_cost_tokens(s, pp->send, MAX_TOKENS, pp->sval,
                                    pp->skind, &e, &next);
        if (l->ntok != PH_CGTOK_NONE) {
            l->s = s;
            l->e = e;
            l->next = pp->sp = next;
            l->val = pp->sval;
            l->kind = pp->skind;
            return 1;
        }
    }
    nl = memchr(s, '\n', (size_t)(pp->send - s));
    e = nl ? nl : pp->send;
    l->s = s;
    l->next = nl ? nl + 1 : e;
    if (e > s && e[-1] == '\r')
        e--;
    l->e = e;
    l->ntok = PH_CGTOK_NONE;
    pp->sp = l->next;
    return 1;
}

int ph_cgpipe_next(ph_cgpipe *pp, ph_cgline *l)
{
    chunk *c;
    const char *a, *e;

    for (;;) {
        if (!pp->cur) {
            if (pp->cur_index >= pp->nchunks)
                return 0;
            if (take(pp) < 0) {
                l->next = pp->serial ? pp->sp
                                     : pp->data + pp->cur->start;
                return -1;
            }
        }
        if (pp->serial) {
            if (pp->sp < pp->send)
                return serial_line(pp, l);
            release(pp);
            continue;
        }
        c = pp->cur;
        if (pp->line < c->nlines)
            break;
        release(pp);
    }
    a = c->base;
    l->s = pp->line ? a + c->lend[pp->line - 1] + 1 : a;
    e = a + c->lend[pp->line];
    l->next = e < a + (c->end - c->start) ? e + 1 : e;
    if (e > l->s && e[-1] == '\r')
        e--;
    l->e = e;
    l->ntok = c->ntok[pp->line];
    if (l->ntok == PH_CGTOK_PACKED) {
        l->packed = c->pk + pp->pk;
        pp->pk += PH_CGPACK_HEAD + l->packed[1];
    } else if (l->ntok != PH_CGTOK_NONE) {
        l->val = c->val + pp->tok;
        l->kind = c->kind + pp->tok;
        pp->tok += l->ntok;
    }
    l->rows = NULL;
    while (pp->run < c->nruns && c->runs[pp->run].first < pp->line)
        pp->run++;
    if (pp->run < c->nruns && c->runs[pp->run].first == pp->line)
        l->rows = &c->runs[pp->run];
    l->name = NULL;
    if (pp->name < c->nnames && c->names[pp->name].line == pp->line) {
        const hashed_name *n = &c->names[pp->name++];
        l->name = a + n->off;
        l->name_len = n->len;
        l->name_hashes = (ph_str_hashes){ n->whole, n->nparts,
                                          c->parts + n->first };
    }
    pp->line++;
    return 1;
}

size_t ph_cgpipe_ahead(const ph_cgpipe *pp, ph_cgahead *a)
{
    const chunk *c = pp->cur;

    if (!c || pp->serial)
        return 0;
    a->ntok = c->ntok + pp->line;
    a->val = c->val + pp->tok;
    a->kind = c->kind + pp->tok;
    a->pk = c->pk + pp->pk;
    a->runs = c->runs + pp->run;
    a->nruns = c->nruns - pp->run;
    a->line = (uint32_t)pp->line;
    return c->nlines - pp->line;
}

void ph_cgpipe_skip(ph_cgpipe *pp, size_t lines, size_t toks, size_t bytes)
{
    pp->line += lines;
    pp->tok += toks;
    pp->pk += bytes;
}

void ph_cgpipe_packed_sum(const ph_cgpipe *pp, uint64_t *sum, size_t n)
{
    uint64_t all[PH_CGPACK_MAX];
    const chunk *c = pp->cur;
    size_t k, i = 0;

    memcpy(all, pp->psum, sizeof all);
    /* the current chunk's segments up to the reader's line */
    while (c && !pp->serial && i < c->nsegs &&
           c->segs[i].first + c->segs[i].nlines <= pp->line)
        i++;
    if (c && !pp->serial)
        add_segments(all, c, i);
    for (k = 0; k < n && k < PH_CGPACK_MAX; k++)
        sum[k] += all[k];
}

const uint64_t *ph_cgpipe_segment_done(ph_cgpipe *pp, unsigned *width,
                                       uint32_t *nlines, int *exact)
{
    const chunk *c = pp->cur;
    const segment *g;
    size_t last = pp->line - 1;

    if (!c || pp->serial || pp->line == 0 ||
        c->ntok[last] != PH_CGTOK_PACKED ||
        (pp->line < c->nlines && c->ntok[pp->line] == PH_CGTOK_PACKED))
        return NULL;
    while (pp->seg < c->nsegs &&
           c->segs[pp->seg].first + c->segs[pp->seg].nlines <= last)
        pp->seg++;
    if (pp->seg == c->nsegs)
        return NULL;
    g = &c->segs[pp->seg];
    *width = g->width;
    *nlines = g->nlines;
    *exact = g->exact;
    return c->ssum + g->at;
}

void ph_cgpipe_stop(ph_cgpipe *pp)
{
    size_t i;
    int t;

    if (!pp)
        return;
    pthread_mutex_lock(&pp->mu);
    pp->stop = 1;
    pthread_cond_broadcast(&pp->cv);
    pthread_mutex_unlock(&pp->mu);
    for (t = 0; t < pp->nth; t++)
        pthread_join(pp->th[t], NULL);
    pthread_mutex_destroy(&pp->mu);
    pthread_cond_destroy(&pp->cv);
    for (i = 0; i < pp->nslots; i++) {
        free(pp->slots[i].lend);
        free(pp->slots[i].ntok);
        free(pp->slots[i].val);
        free(pp->slots[i].kind);
        free(pp->slots[i].names);
        free(pp->slots[i].parts);
        free(pp->slots[i].buf);
        free(pp->slots[i].pk);
        free(pp->slots[i].segs);
        free(pp->slots[i].ssum);
        free(pp->slots[i].runs);
        free(pp->slots[i].run_at);
        free(pp->slots[i].rb);
        free(pp->slots[i].rsum);
    }
    free(pp->slots);
    free(pp->th);
    ph_stock_free(pp->stock);
    free(pp);
}

ph_stock *ph_cgpipe_stock(const ph_cgpipe *pp)
{
    return pp->stock;
}
