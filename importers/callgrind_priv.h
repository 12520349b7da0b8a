/* callgrind_priv.h -- the callgrind line scanner (callgrind_scan.c) shared
 * with the IR builder (callgrind_in.c).  Private to importers/callgrind_*.
 * Lines are views into the input bytes; numbers are parsed by hand here,
 * inline, because the cost lines are the hot loop of the reader. */
#ifndef PH_CALLGRIND_PRIV_H
#define PH_CALLGRIND_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "io.h"
#include "ir.h"

/* Line scanner over the whole input.  s..e is the current line without its
 * "\n" or "\r\n"; lineno is 1-based. */
typedef struct ph_cgscan {
    const char *p;       /* next unread byte */
    const char *end;     /* end of data (first NUL byte, or the size) */
    const char *clean;   /* bytes before this are known to hold no NUL */
    const char *s, *e;   /* current line */
    uint64_t lineno;
} ph_cgscan;

void ph_cgscan_init(ph_cgscan *sc, const unsigned char *data, size_t len);
/* Next line; 0 at the end of the data. */
int ph_cgscan_next(ph_cgscan *sc);

/* Look-ahead threads (callgrind_par.c): lines found and cost lines
 * tokenized ahead of the reader, handed over in input order. */
enum {
    PH_CGTOK_ABS,        /* a plain number */
    PH_CGTOK_PLUS,       /* "+N" */
    PH_CGTOK_MINUS,      /* "-N" */
    PH_CGTOK_SAME,       /* "*" */
    PH_CGTOK_PACKED = 254, /* a count line packed (PH_CGPIPE_PACK) */
    PH_CGTOK_NONE = 255, /* the line was not tokenized */
};

typedef struct ph_cgrows ph_cgrows;     /* below */

typedef struct ph_cgline {
    const char *s, *e;    /* the line without its "\n" or "\r\n" */
    const char *next;     /* first byte after it */
    unsigned ntok;        /* tokens of a cost line, or PH_CGTOK_NONE */
    const uint64_t *val;  /* their magnitudes */
    const uint8_t *kind;  /* their PH_CGTOK_* forms */
    const unsigned char *packed;  /* ntok PH_CGTOK_PACKED: the record */
    const ph_cgrows *rows;  /* the run of rows the line starts, or NULL */
    /* The name of a "fn=" or "cfn=" line, hashed by a look-ahead thread
     * (ir.h ph_str_hash_text), or NULL. */
    const char *name;
    size_t name_len;
    ph_str_hashes name_hashes;
} ph_cgline;

/* Tokens of the cost line at q (its first byte), read up to its end in
 * one pass: the line finding and the numbers together.  Stops at lim (no
 * NUL byte before it).  Returns the number of tokens (at most max), with
 * *e at the end of the line (before "\n" or "\r\n") and *next after it;
 * PH_CGTOK_NONE when the ordinary parser must read the line (anything but
 * blanks and the plain tokens above, more than max tokens, more than 19
 * digits or 16 hex digits, no line end before lim). */
unsigned ph_cg_cost_tokens(const char *q, const char *lim, unsigned max,
                           uint64_t *val, uint8_t *kind, const char **e,
                           const char **next);

/* The count line at q, a line number (32 bits) and at most PH_CGPACK_MAX
 * decimal counts of at most 18 digits, blanks between, packed at d as a
 * record (ph_cgpacked_get; room: PH_CGPACK_ROOM bytes) and its counts
 * added to sum[0..); returns the record's end, *e and *next as
 * ph_cg_cost_tokens; NULL (sum as it was) when the line is anything else,
 * for the ordinary parser. */
unsigned char *ph_cg_pack_line(const char *q, const char *lim,
                               unsigned char *d, uint64_t *sum,
                               const char **e, const char **next);

typedef struct ph_cgpipe ph_cgpipe;

/* Bytes read between two progress calls (ph_input_progress): also how
 * often the pages of a mapped file behind the reader are given back. */
#define PH_CG_PROGRESS_EVERY ((size_t)512 << 10)

/* How the threads serve a reader (ph_cgpipe_start's flags). */
enum {
    /* A big input's threads write the pages of the profile's next blocks
     * when they are ahead (ph_cgpipe_stock): worth it where the reader is
     * much the slower (callgrind's, 1.06x without); a reader that keeps
     * pace (cachegrind's: 0.95x without) would be left to read chunks
     * itself meanwhile. */
    PH_CGPIPE_STOCK = 1,
    /* Count lines (a line number and plain counts, cachegrind's) packed
     * as the rows keep them (ph_cgpacked_get), names not hashed: what the
     * reading thread reads of a line shrinks from 8 bytes a token to a
     * byte or two a count. */
    PH_CGPIPE_PACK = 2,
    /* Runs of callgrind's cost lines (consecutive lines with plain counts,
     * no line between them) also made into rows as the profile keeps
     * them (ph_cgrows), their positions delta-encoded from one line to
     * the next: the reading thread copies the run's bytes and reads only
     * its first line's tokens.  Storing a row was half its work. */
    PH_CGPIPE_ROWS = 4,
};

/* A run of cost lines made into rows ahead (PH_CGPIPE_ROWS).  Its first
 * line is given with its tokens as any cost line: the reader resolves its
 * positions; the later lines' rows, encoded after it with positions
 * relative to the line before, are `rows`.  A position (dimension 0 the
 * address, 1 the line number) that an absolute number set after the
 * first line is known: `end` is then the last line's; until then the
 * positions are offsets from the first line's, between lo and hi, and
 * `end` is the last line's offset.  `sum` holds the counts of every line
 * of the run added up (wrapping), `width` of them. */
struct ph_cgrows {
    uint32_t first, nlines;         /* its lines in the chunk */
    uint8_t pos;                    /* positions: 1 instr, 2 line */
    uint8_t width;                  /* counts of its widest line */
    uint8_t known[2];
    int64_t end[2], lo[2], hi[2];
    const unsigned char *costs;     /* the first line's counts, packed */
    const unsigned char *rows;      /* the later lines' rows */
    uint32_t costs_len, rows_len;
    const uint64_t *sum;
};

/* The np position tokens of the cost line at q (its first byte), read as
 * ph_cg_cost_tokens reads them, into kind and val: where the last ends;
 * NULL when they are not such tokens with blanks between them. */
const char *ph_cg_row_positions(const char *q, const char *lim, unsigned np,
                                uint8_t *kind, uint64_t *val);
/* The counts of a cost line from q (where its positions end) to its end,
 * packed at d (costs_pack.h) and added to sum: where the packing ends,
 * their number in *n, *e and *next as ph_cg_cost_tokens; NULL (sum as it
 * was) for anything but at most PH_CGPACK_MAX decimal counts of at most
 * 18 digits with blanks between them. */
unsigned char *ph_cg_row_counts(const char *q, const char *lim,
                                unsigned char *d, uint64_t *sum, unsigned *n,
                                const char **e, const char **next);

/* A packed count line: the number of counts (at most PH_CGPACK_MAX, with
 * PH_CGPACK_BIG when one has 15 digits or more), the bytes of their
 * packing (ph_costs_put), the line number (first token, 32 bits), then
 * those bytes. */
#define PH_CGPACK_MAX 24
#define PH_CGPACK_NCOUNTS 0x7f
#define PH_CGPACK_BIG 0x80
#define PH_CGPACK_HEAD 6
/* The most bytes a record takes: its head and ph_costs_room_max of
 * PH_CGPACK_MAX counts (245, within its length byte). */
#define PH_CGPACK_ROOM (PH_CGPACK_HEAD + 1 + (PH_CGPACK_MAX + 6) / 7 + \
                        10 * PH_CGPACK_MAX)
static inline const unsigned char *ph_cgpacked_get(const unsigned char *pk,
                                                   uint32_t *first,
                                                   unsigned *ncounts,
                                                   unsigned *len)
{
    *ncounts = pk[0] & PH_CGPACK_NCOUNTS;
    *len = pk[1];
    memcpy(first, pk + 2, 4);
    return pk + PH_CGPACK_HEAD;
}

/* Chunks of in's data (len bytes, no NUL in the first ones the scanner
 * checked) made ready by jobs - 1 threads, or by the reading thread itself
 * for one job when in is a file (copied, not mapped in); NULL for a small
 * input, or one job over bytes in memory.  The functions' names are hashed
 * for p (ph_str_hash_text).  The threads report the reader's progress to
 * in: work the reading thread is spared.  flags: PH_CGPIPE_*. */
ph_cgpipe *ph_cgpipe_start(ph_input *in, const ph_profile *p,
                           const char *data, size_t len, int jobs,
                           int flags);
/* The next line: 1; 0 at the end of the data; -1 when the serial scanner
 * must read the rest from l->next (a NUL byte is ahead). */
int ph_cgpipe_next(ph_cgpipe *pp, ph_cgline *l);
/* What the threads made of the lines of the current chunk after the one
 * ph_cgpipe_next gave: per line its tokens' count (PH_CGTOK_NONE: not a
 * cost line the threads read; PH_CGTOK_PACKED: a packed count line),
 * their tokens end to end, the packed lines' records end to end. */
typedef struct ph_cgahead {
    const uint8_t *ntok;
    const uint64_t *val;
    const uint8_t *kind;
    const unsigned char *pk;
    /* the runs of rows (PH_CGPIPE_ROWS) from the first line ahead on, and
     * that line's number in the chunk */
    const ph_cgrows *runs;
    size_t nruns;
    uint32_t line;
} ph_cgahead;

/* The lines ahead in the current chunk: how many, and what is known of
 * them in *a; 0 when the reader reads the chunk itself.  ph_cgpipe_skip
 * then moves past the first `lines` of them, with `toks` tokens and
 * `bytes` of packed records. */
size_t ph_cgpipe_ahead(const ph_cgpipe *pp, ph_cgahead *a);
void ph_cgpipe_skip(ph_cgpipe *pp, size_t lines, size_t toks, size_t bytes);

/* A reader's store of one tokenized cost line: 1 when stored, 0 when the
 * ordinary parser must read it (nothing has changed then). */
typedef int (*ph_cgpipe_store)(void *reader, unsigned ntok,
                               const uint64_t *val, const uint8_t *kind);

/* A reader's store of a run of rows whose first line's tokens are val
 * and kind: 1 when stored whole, 0 when its lines must be stored one by
 * one (nothing has changed then). */
typedef int (*ph_cgpipe_store_rows)(void *reader, const ph_cgrows *run,
                                    const uint64_t *val, const uint8_t *kind);

/* The tokenized cost lines after the one ph_cgpipe_next gave, stored in
 * one loop up to one that store refuses or the threads did not tokenize
 * (ph_cgpipe_next then gives it with its text); a run of rows that starts
 * there goes to rows first (NULL: none).  Inline, so that a reader's
 * stores are called directly. */
static inline void ph_cgpipe_run(ph_cgpipe *pp, ph_cgpipe_store store,
                                 ph_cgpipe_store_rows rows, void *reader)
{
    ph_cgahead a;
    size_t n = ph_cgpipe_ahead(pp, &a), i = 0, t = 0, r = 0;

    while (i < n && a.ntok[i] != PH_CGTOK_NONE) {
        while (r < a.nruns && a.runs[r].first < a.line + i)
            r++;
        if (rows && r < a.nruns && a.runs[r].first == a.line + i &&
            rows(reader, &a.runs[r], a.val + t, a.kind + t)) {
            t += a.ntok[i];     /* the later lines keep no tokens */
            i += a.runs[r++].nlines;
            continue;
        }
        if (!store(reader, a.ntok[i], a.val + t, a.kind + t))
            break;
        t += a.ntok[i++];
    }
    ph_cgpipe_skip(pp, i, t, 0);
}

/* A reader's store of one packed count line (the record): 1, or 0 as
 * ph_cgpipe_store. */
typedef int (*ph_cgpipe_store_packed)(void *reader, const unsigned char *pk);

/* ph_cgpipe_run for the packed count lines. */
static inline size_t ph_cgpipe_run_packed(ph_cgpipe *pp,
                                          ph_cgpipe_store_packed store,
                                          void *reader)
{
    ph_cgahead a;
    const unsigned char *at;
    size_t n = ph_cgpipe_ahead(pp, &a), i;

    for (i = 0, at = a.pk; i < n && a.ntok[i] == PH_CGTOK_PACKED; i++) {
        if (!store(reader, at))
            break;
        at += PH_CGPACK_HEAD + at[1];
    }
    ph_cgpipe_skip(pp, i, 0, (size_t)(at - a.pk));
    return i;
}

/* The counts of the packed lines given so far added to sum[0..n)
 * (wrapping, as a reader adds the counts it parses itself). */
void ph_cgpipe_packed_sum(const ph_cgpipe *pp, uint64_t *sum, size_t n);
/* When the last line given ended a run of packed count lines, a
 * segment: the sums of its lines' counts (*width of them, *exact when
 * every count was below 2^48: no sum wrapped), and *nlines; else NULL. */
const uint64_t *ph_cgpipe_segment_done(ph_cgpipe *pp, unsigned *width,
                                       uint32_t *nlines, int *exact);

void ph_cgpipe_stop(ph_cgpipe *pp);
/* Blocks its threads make ready for the profile's arenas (ir/stock.h), or
 * NULL. */
struct ph_stock *ph_cgpipe_stock(const ph_cgpipe *pp);

/* Results of the number helpers below. */
enum {
    PH_CGN_OK = 0,
    PH_CGN_NOTNUM,       /* not a number (or trailing garbage) */
    PH_CGN_RANGE,        /* does not fit in 64 bits */
    PH_CGN_NEGATIVE,     /* a relative position below 0 */
    PH_CGN_SRANGE,       /* a cost beyond the signed 64-bit range */
};

static inline int ph_cg_isspace(char c)
{
    return c == ' ' || c == '\t';
}

/* Whether n cost tokens are plain counts, the same values to both
 * readers' parsers: no "-" or "*" ("+N" is N), at most INT64_MAX. */
static inline int ph_cg_plain_counts(const uint8_t *kind, const uint64_t *val,
                                     unsigned n)
{
    unsigned odd = 0;
    uint64_t all = 0;
    for (unsigned k = 0; k < n; k++) {
        odd |= kind[k] != PH_CGTOK_ABS && kind[k] != PH_CGTOK_PLUS;
        all |= val[k];
    }
    return !odd && all <= (uint64_t)INT64_MAX;
}

/* Whether a line starting with c may be a cost line ph_cg_cost_tokens
 * reads (a digit, a sign or "*"; not a blank: see callgrind_par.c). */
static inline int ph_cg_token_start(char c)
{
    return (unsigned char)(c - '0') < 10 || c == '+' || c == '-' || c == '*';
}

static inline const char *ph_cg_skipws(const char *q, const char *e)
{
    while (q < e && ph_cg_isspace(*q))
        q++;
    return q;
}

/* Unsigned number at *pq (decimal or 0x hex), ended by a blank or the end
 * of the line.  Advances *pq past it. */
static inline int ph_cg_u64(const char **pq, const char *e, uint64_t *v)
{
    const char *q = *pq;
    uint64_t x = 0;

    if (q >= e || (unsigned char)(*q - '0') >= 10)
        return PH_CGN_NOTNUM;
    if (q[0] == '0' && e - q > 2 && (q[1] | 0x20) == 'x') {
        const char *h = q + 2, *start = h;
        for (; h < e; h++) {
            unsigned c = (unsigned char)*h, d;
            if (c - '0' < 10)
                d = c - '0';
            else if ((c | 0x20) - 'a' < 6)
                d = (c | 0x20) - 'a' + 10;
            else
                break;
            if (x >> 60)
                return PH_CGN_RANGE;
            x = (x << 4) | d;
        }
        if (h == start)
            return PH_CGN_NOTNUM;
        q = h;
    } else {
        const char *d0 = q;
        while (q < e && (unsigned char)(*q - '0') < 10) {
            unsigned d = (unsigned)(*q - '0');
            if (q - d0 >= 19 && x > (UINT64_MAX - d) / 10)
                return PH_CGN_RANGE;
            x = x * 10 + d;
            q++;
        }
    }
    if (q < e && !ph_cg_isspace(*q))
        return PH_CGN_NOTNUM;
    *v = x;
    *pq = q;
    return PH_CGN_OK;
}

/* Signed cost: optional '-' or '+', then a number that fits in int64. */
static inline int ph_cg_i64(const char **pq, const char *e, int64_t *v)
{
    const char *q = *pq;
    int neg = 0, r;
    uint64_t u;

    if (q < e && (*q == '-' || *q == '+')) {
        neg = *q == '-';
        q++;
    }
    r = ph_cg_u64(&q, e, &u);
    if (r != PH_CGN_OK)
        return r;
    if (neg ? u > (uint64_t)INT64_MAX + 1 : u > (uint64_t)INT64_MAX)
        return PH_CGN_SRANGE;
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    *pq = q;
    return PH_CGN_OK;
}

/* One subposition: "*" (same as last), "+N" / "-N" (relative to last) or
 * an absolute number; KCachegrind's ranges "A+len", "A-B", "A:B" are read
 * as their start A. */
static inline int ph_cg_subpos(const char **pq, const char *e,
                               uint64_t last, uint64_t *out)
{
    const char *q = *pq;
    uint64_t v;
    int r;
    char c = *q;

    if (c == '*') {
        q++;
        if (q < e && !ph_cg_isspace(*q))
            return PH_CGN_NOTNUM;
        *out = last;
        *pq = q;
        return PH_CGN_OK;
    }
    if (c == '+' || c == '-') {
        q++;
        r = ph_cg_u64(&q, e, &v);
        if (r != PH_CGN_OK)
            return r;
        if (c == '+') {
            if (v > UINT64_MAX - last)
                return PH_CGN_RANGE;
            *out = last + v;
        } else {
            if (v > last)
                return PH_CGN_NEGATIVE;
            *out = last - v;
        }
        *pq = q;
        return PH_CGN_OK;
    }
    {
        /* Absolute, maybe a KCachegrind range: parse up to the separator. */
        const char *t = q;
        while (t < e && !ph_cg_isspace(*t) && (t == q || (*t != '+' &&
               *t != '-' && *t != ':')))
            t++;
        r = ph_cg_u64(&q, t, &v);
        if (r != PH_CGN_OK)
            return r;
        if (q < e && !ph_cg_isspace(*q)) {
            uint64_t end;
            q++;
            r = ph_cg_u64(&q, e, &end);
            if (r != PH_CGN_OK)
                return r;
        }
        *out = v;
        *pq = q;
        return PH_CGN_OK;
    }
}

/* A position spec value: "(ID) name", "(ID)" or "name".  Sets *compressed
 * and *id (ids start at 0) and the name view (len 0 when only the id is
 * given).
 * Returns 0, or -1 when "(" + digit is not closed by ")" or the id is not a
 * number, -2 when the id is beyond 32 bits; *errcol then gets the 0-based
 * offset of the problem. */
int ph_cg_name(const char *s, const char *e, int *compressed, uint64_t *id,
               const char **name, size_t *len, size_t *errcol);

/* Length of the token at q (up to a blank), capped for messages. */
int ph_cg_toklen(const char *q, const char *e);


/* ------------------------------------------------------------------ */
/* Reader state, shared by callgrind_in.c (body lines) and
 * callgrind_head.c (header lines, parts, event: formulas).            */

/* Compressed-name tables. */

/* One id of one kind: its name and what it resolved to last time (an
 * object, a file, or a function, whose own file and object say what it
 * was resolved with), so that "fn=(12)" costs two array lookups. */
typedef struct ph_cgent {
    ph_str name;
    int defined;        /* part count when defined; 0 = never */
    void *cache;
} ph_cgent;

/* Small ids (the normal case) index an array; ids far beyond what the file
 * could define go to an open-addressing table, so a huge id in a small
 * file allocates nothing big.  Both hold the index + 1 of the id's entry
 * (0: none), 4 bytes an id: ids count every name valgrind met in the run,
 * and those a file uses are spread thin among them (38,000 of the first
 * 223,000 in a --separate-callers file), so the array is mostly holes. */
typedef struct ph_cgids {
    uint32_t *dense;
    size_t ndense;
    size_t limit;
    uint64_t *hkey;
    uint32_t *hval;
    size_t hcap, hused;
    ph_cgent *ents;     /* in the order the ids were first defined */
    size_t nents, capents;
    const char *kind;   /* "object", "file", "function" */
} ph_cgids;

ph_cgent *ph_cg_find_id(ph_cgids *t, uint64_t id, int create);
void ph_cg_free_ids(ph_cgids *t);

enum { PEND_NONE, PEND_CALL, PEND_JUMP, PEND_JCND };

typedef struct ph_cgevdef {
    uint64_t line;
    char *text;          /* after "event:", a copy (NUL-ended): the */
    size_t len;          /* line's own bytes do not stay */
} ph_cgevdef;

typedef struct ph_cgread {
    ph_input *in;
    ph_profile *p;
    ph_cgscan sc;
    ph_cgids obs, files, fns;
    /* The current line's name hashed ahead (ph_cgline). */
    const char *hashed_name;
    size_t hashed_len;
    const ph_str_hashes *hashes;

    /* Current part. */
    ph_part *part;
    int have_events;
    int pos_instr, pos_line;
    uint64_t last_addr, last_line;
    int ncol;             /* events in this part's "events:" */
    int *slot;            /* column -> slot */
    int identity;         /* slot[i] == i for all columns */
    int64_t *col;         /* costs of the current line, per column */
    int64_t *vec;         /* the same per slot, when not identity */
    size_t nvec;
    uint64_t *sum;        /* per column: self costs of this part */
    int64_t *fsum, *ftot; /* summary:/totals: as written, per column */
    uint64_t fsum_line, ftot_line;
    int fsum_n, ftot_n;

    /* Position context. */
    ph_object *ob, *cob;
    ph_file *fl, *fi, *cfi, *jfi;
    ph_func *fn;
    ph_str cfn_name, jfn_name;
    uint64_t cfn_id, jfn_id;
    int have_cfn, have_jfn;

    /* A calls=/jump=/jcnd= waiting for its position line. */
    int pend;
    uint64_t pend_line;
    uint64_t pend_count, pend_followed;
    uint64_t pend_taddr, pend_tline;
    ph_func *pend_to;
    ph_file *pend_tofile;

    ph_cgevdef *evs;
    size_t nevs, capevs;
    int nparts;
    int warned_nofn, warned_jumpcost;
} ph_cgread;

/* callgrind_in.c */
int ph_cg_read_file(ph_input *in, ph_profile *p);
int ph_cg_fail(ph_cgread *r, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int ph_cg_bad_number(ph_cgread *r, const char *q, const char *e, int code,
                     const char *what);
int ph_cg_fraction_cost(ph_cgread *r, const char **pq, const char *e,
                        int64_t *v);

/* callgrind_head.c */
void ph_cg_new_part(ph_cgread *r);
void ph_cg_start_part(ph_cgread *r);
void ph_cg_check_sums(ph_cgread *r, int at_eof);
int ph_cg_check_truncated(ph_cgread *r);
int ph_cg_header(ph_cgread *r, const char *k, size_t kl, const char *q,
                 const char *e);
void ph_cg_apply_events(ph_cgread *r);

#endif /* PH_CALLGRIND_PRIV_H */
