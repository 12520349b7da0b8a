/* cachegrind_in.c -- read Cachegrind out-files (cachegrind.out.<pid>) into
 * flat rows at (file, function, line), one part.  Reads the layout written
 * by valgrind 3.19 (desc:* cmd: events: body summary:) and follows the 3.21+
 * readers where they differ: '.' counts mean 0, fl= resets the function,
 * unknown lines are errors, the summary is checked (a warning here).  No
 * call graph, so no inclusive costs.  See ../shared/formats/cachegrind.md.
 * A big input's lines are found, and its count lines packed as the rows
 * keep them, by the callgrind reader's look-ahead threads (callgrind_par.c,
 * PH_CGPIPE_PACK); whatever they do not read plainly goes through the
 * parser here.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "importers/callgrind_priv.h"
#include "importers/importers.h"
#include "ir/jobs.h"

typedef struct cg_reader {
    ph_input *in;
    ph_profile *p;
    ph_part *part;
    ph_file *file;        /* current fl=; NULL before any */
    ph_func *fn;          /* current fn=; NULL after fl= or at start */
    size_t nev;           /* events on the events: line; 0 = not seen */
    int64_t *cost;        /* scratch, nev values */
    uint64_t *sum;        /* sum of count lines (wrapping), nev values,
                             but for those the threads packed */
    ph_cgpipe *pp;        /* the look-ahead threads, while they read */
    uint32_t run_rows;    /* packed lines stored since the last other */
    int have_summary;
    uint64_t summary_line;
} cg_reader;

/* ------------------------------------------------------------------ */
/* Small helpers over line views                                       */

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

static size_t skip_spaces(const char *s, size_t len, size_t i)
{
    while (i < len && is_space(s[i]))
        i++;
    return i;
}

static size_t token_end(const char *s, size_t len, size_t i)
{
    while (i < len && !is_space(s[i]))
        i++;
    return i;
}

static int starts_with(const char *s, size_t len, const char *key)
{
    size_t n = strlen(key);
    return len >= n && memcmp(s, key, n) == 0;
}

/* Quote at most 40 bytes of a token into buf, for messages. */
static const char *quote_token(char *buf, size_t size, const char *s,
                               size_t len)
{
    size_t n = len < 40 ? len : 40;
    size_t j = 0;
    for (size_t i = 0; i < n && j + 5 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        buf[j++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (n < len && j + 4 < size) {
        memcpy(buf + j, "...", 3);
        j += 3;
    }
    buf[j] = '\0';
    return buf;
}

/* Text after "key:" with the blanks after the colon removed. */
static void get_value(const ph_line *ln, size_t keylen, const char **v,
                      size_t *vlen)
{
    size_t i = skip_spaces(ln->s, ln->len, keylen);
    size_t end = ln->len;
    while (end > i && is_space(ln->s[end - 1]))
        end--;
    *v = ln->s + i;
    *vlen = end - i;
}

/* ------------------------------------------------------------------ */
/* Numbers                                                             */

/* Parse a count at s[i..]: '.' (0) or a signed decimal/hex integer that
 * ends at a blank or the end of line.  Returns the end index or 0 after
 * recording an error. */
static size_t parse_count(cg_reader *r, const ph_line *ln, size_t i,
                          int64_t *v)
{
    char q[64];
    /* Fast path: up to 18 decimal digits ended by a blank or the line end
     * (cannot overflow); anything else goes through ph_parse_i64. */
    const char *s = ln->s;
    size_t k = i, stop = ln->len - i > 18 ? i + 18 : ln->len;
    uint64_t acc = 0;
    while (k < stop && (unsigned char)(s[k] - '0') < 10)
        acc = acc * 10 + (uint64_t)(s[k++] - '0');
    if (k > i && (k == ln->len || is_space(s[k]))) {
        *v = (int64_t)acc;
        return k;
    }
    size_t end = token_end(ln->s, ln->len, i);
    if (end == i + 1 && ln->s[i] == '.') {
        *v = 0;
        return end;
    }
    size_t used = ph_parse_i64(ln->s + i, end - i, v);
    if (used == (size_t)-1) {
        ph_input_error_at(r->in, ln->lineno, i + 1,
                          "count \"%s\" does not fit in 64 bits",
                          quote_token(q, sizeof q, ln->s + i, end - i));
        return 0;
    }
    if (used == 0 || used != end - i) {
        ph_input_error_at(r->in, ln->lineno, i + 1,
                          "expected a count, got \"%s\"",
                          quote_token(q, sizeof q, ln->s + i, end - i));
        return 0;
    }
    return end;
}

/* Parse up to nev counts from s[i..] into r->cost (missing ones 0).
 * Returns the number of counts given, or -1 after an error. */
static long parse_counts(cg_reader *r, const ph_line *ln, size_t i,
                         const char *what)
{
    size_t n = 0;
    for (;;) {
        i = skip_spaces(ln->s, ln->len, i);
        if (i >= ln->len)
            break;
        if (n == r->nev) {
            char q[64];
            size_t end = token_end(ln->s, ln->len, i);
            ph_input_error_at(r->in, ln->lineno, i + 1,
                              "%s has more counts than the %zu events, "
                              "extra \"%s\"", what, r->nev,
                              quote_token(q, sizeof q, ln->s + i, end - i));
            return -1;
        }
        i = parse_count(r, ln, i, &r->cost[n]);
        if (i == 0)
            return -1;
        n++;
    }
    for (size_t k = n; k < r->nev; k++)
        r->cost[k] = 0;
    return (long)n;
}

/* ------------------------------------------------------------------ */
/* Header lines                                                        */

static int read_events(cg_reader *r, const ph_line *ln)
{
    const char *v;
    size_t vlen;
    if (r->nev)
        return ph_input_error_at(r->in, ln->lineno, 1,
                                 "second \"events:\" line");
    get_value(ln, 7, &v, &vlen);
    size_t i = 0, n = 0;
    while (i < vlen) {
        size_t end = token_end(v, vlen, i);
        char name[256];
        size_t nlen = end - i;
        if (nlen >= sizeof name)
            return ph_input_error_at(r->in, ln->lineno,
                                     (uint64_t)(v - ln->s) + i + 1,
                                     "event name longer than %zu bytes",
                                     sizeof name - 1);
        memcpy(name, v + i, nlen);
        name[nlen] = '\0';
        if (ph_event_find(r->p, name))
            return ph_input_error_at(r->in, ln->lineno,
                                     (uint64_t)(v - ln->s) + i + 1,
                                     "event \"%s\" named twice", name);
        ph_event_add(r->p, name);
        n++;
        i = skip_spaces(v, vlen, end);
    }
    if (n == 0)
        return ph_input_error_at(r->in, ln->lineno, ln->len + 1,
                                 "expected event names after \"events:\"");
    r->nev = n;
    r->cost = ph_profile_alloc(r->p, n * sizeof *r->cost);
    r->sum = ph_profile_alloc(r->p, n * sizeof *r->sum);
    return 0;
}

static void add_meta(cg_reader *r, const ph_line *ln, size_t keylen,
                     const char *key)
{
    const char *v;
    size_t vlen;
    get_value(ln, keylen, &v, &vlen);
    char *text = ph_profile_alloc(r->p, vlen + 1);
    memcpy(text, v, vlen);
    ph_meta_add(r->p, key, text);
}

/* ------------------------------------------------------------------ */
/* Body lines                                                          */

static ph_str intern_name(cg_reader *r, const ph_line *ln, size_t keylen)
{
    const char *v = ln->s + keylen;
    size_t vlen = ln->len - keylen;
    while (vlen > 0 && is_space(v[vlen - 1]))
        vlen--;
    if (vlen == 0 || (vlen == 3 && memcmp(v, "???", 3) == 0))
        return 0;
    return ph_str_intern(r->p, v, vlen);
}

static int read_count_line(cg_reader *r, const ph_line *ln)
{
    char q[64];
    size_t end = token_end(ln->s, ln->len, 0);
    uint64_t lineno;
    size_t used = ph_parse_u64(ln->s, end, &lineno);
    if (used == (size_t)-1 || (used == end && lineno > UINT32_MAX))
        return ph_input_error_at(r->in, ln->lineno, 1,
                                 "line number \"%s\" out of range",
                                 quote_token(q, sizeof q, ln->s, end));
    if (used == 0 || used != end)
        return ph_input_error_at(r->in, ln->lineno, 1,
                                 "expected a line number, got \"%s\"",
                                 quote_token(q, sizeof q, ln->s, end));
    long n = parse_counts(r, ln, end, "count line");
    if (n < 0)
        return -1;
    if (!r->fn) {
        ph_str unk = ph_str_intern(r->p, "???", 3);
        r->fn = ph_func_get(r->p, unk, r->file, NULL);
    }
    for (size_t k = 0; k < (size_t)n; k++)
        r->sum[k] += (uint64_t)r->cost[k];
    ph_row_add(r->p, r->fn, r->part, 0, (uint32_t)lineno, r->file,
               r->cost, (size_t)n);
    return 0;
}

static int read_summary(cg_reader *r, const ph_line *ln)
{
    if (r->have_summary)
        return ph_input_error_at(r->in, ln->lineno, 1,
                                 "second \"summary:\" line");
    long n = parse_counts(r, ln, 8, "\"summary:\"");
    if (n < 0)
        return -1;
    if (n == 0)
        return ph_input_error_at(r->in, ln->lineno, ln->len + 1,
                                 "expected counts after \"summary:\"");
    r->have_summary = 1;
    r->summary_line = ln->lineno;
    ph_part_set_summary(r->p, r->part, r->cost, r->nev);
    if (r->pp)
        ph_cgpipe_packed_sum(r->pp, r->sum, r->nev);
    for (size_t k = 0; k < r->nev; k++) {
        if ((uint64_t)r->cost[k] != r->sum[k]) {
            ph_event *ev = ph_event_real(r->p, k);
            ph_input_warn(r->in, "summary-mismatch", ln->lineno,
                          "\"summary:\" gives %s = %lld but the counts add "
                          "up to %lld", ph_str_get(r->p, ev->name),
                          (long long)r->cost[k], (long long)r->sum[k]);
            break;
        }
    }
    return 0;
}

static int read_body_line(cg_reader *r, const ph_line *ln)
{
    char q[64];
    char c = ln->s[0];
    if (r->have_summary)
        return ph_input_error_at(r->in, ln->lineno, 1,
                                 "data after the \"summary:\" line");
    if ((c >= '0' && c <= '9') || c == '+' || c == '-')
        return read_count_line(r, ln);
    if (starts_with(ln->s, ln->len, "fl=")) {
        r->file = ph_file_get(r->p, intern_name(r, ln, 3));
        r->fn = NULL;
        return 0;
    }
    if (starts_with(ln->s, ln->len, "fn=")) {
        ph_str name = intern_name(r, ln, 3);
        if (name == 0)   /* keep "???" as the name: a function needs one */
            name = ph_str_intern(r->p, "???", 3);
        r->fn = ph_func_get(r->p, name, r->file, NULL);
        return 0;
    }
    size_t end = token_end(ln->s, ln->len, 0);
    return ph_input_error_at(r->in, ln->lineno, 1,
                             "unexpected \"%s\", expected \"fl=\", \"fn=\", "
                             "a count line or \"summary:\"",
                             quote_token(q, sizeof q, ln->s, end));
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */

/* One line of the file (header, body or summary); -1 after an error. */
static int read_line(cg_reader *r, const ph_line *ln)
{
    size_t i = skip_spaces(ln->s, ln->len, 0);
    if (i == ln->len || ln->s[0] == '#')
        return 0;
    if (r->nev == 0) {
        if (starts_with(ln->s, ln->len, "desc:"))
            add_meta(r, ln, 5, "desc");
        else if (starts_with(ln->s, ln->len, "cmd:"))
            add_meta(r, ln, 4, "cmd");
        else if (starts_with(ln->s, ln->len, "events:"))
            return read_events(r, ln);
        else {
            char q[64];
            size_t end = token_end(ln->s, ln->len, 0);
            return ph_input_error_at(r->in, ln->lineno, 1,
                                     "expected \"desc:\", \"cmd:\" or "
                                     "\"events:\" before any data, got "
                                     "\"%s\"",
                                     quote_token(q, sizeof q, ln->s, end));
        }
        return 0;
    }
    if (starts_with(ln->s, ln->len, "summary:"))
        return read_summary(r, ln);
    if (starts_with(ln->s, ln->len, "events:"))
        return ph_input_error_at(r->in, ln->lineno, 1,
                                 "second \"events:\" line");
    if (starts_with(ln->s, ln->len, "desc:") ||
        starts_with(ln->s, ln->len, "cmd:"))
        return ph_input_error_at(r->in, ln->lineno, 1,
                                 "header line after \"events:\"");
    return read_body_line(r, ln);
}

/* A count line the look-ahead threads tokenized (in a chunk the reading
 * thread reads itself), stored as read_count_line would: 1; 0 when
 * read_line must read it (a signed line number, counts that are not
 * plain, too many counts, no function yet, not in the body: its answer,
 * or its error, is the parser's). */
static int count_tokens(cg_reader *r, unsigned ntok, const uint64_t *val,
                        const uint8_t *kind)
{
    if (!r->nev || r->have_summary || !r->fn || ntok == 0 ||
        ntok - 1 > r->nev || kind[0] != PH_CGTOK_ABS || val[0] > UINT32_MAX ||
        !ph_cg_plain_counts(kind + 1, val + 1, ntok - 1))
        return 0;
    ph_row_add_counts(r->p, r->fn, r->part, 0, (uint32_t)val[0], r->file,
                      val + 1, ntok - 1, r->sum);
    return 1;
}

/* A count line the threads packed (ph_cgpipe_store_packed), stored as
 * read_count_line would: 1; 0 when read_line must read it (as
 * count_tokens). */
static int count_packed(void *reader, const unsigned char *pk)
{
    cg_reader *r = reader;
    uint32_t line;
    unsigned n, len;
    const unsigned char *costs = ph_cgpacked_get(pk, &line, &n, &len);

    if (!r->nev || r->have_summary || !r->fn || n > r->nev)
        return 0;
    ph_row_add_packed(r->p, r->fn, r->part, 0, line, r->file, costs, len);
    return 1;
}

/* A packed count line read_line reads after all: its counts taken out of
 * the packed lines' sums (ph_cgpipe_packed_sum), as read_line adds them
 * to r->sum. */
static void unpack_sum(cg_reader *r, const unsigned char *pk)
{
    int64_t v[PH_CGPACK_MAX] = { 0 };
    uint32_t line;
    unsigned n, len;
    const unsigned char *costs = ph_cgpacked_get(pk, &line, &n, &len);

    ph_costs_get(costs, costs + len, v, PH_CGPACK_MAX);
    for (size_t k = 0; k < r->nev && k < PH_CGPACK_MAX; k++)
        r->sum[k] -= (uint64_t)v[k];
}

/* When the lines just stored ended a segment (ph_cgpipe_segment_done)
 * and every line of it was stored in the current function: its sums, so
 * that the summary need not read its rows again. */
static void segment_sums(cg_reader *r)
{
    unsigned width;
    uint32_t nlines;
    int exact;
    const uint64_t *sum = ph_cgpipe_segment_done(r->pp, &width, &nlines,
                                                 &exact);

    if (sum && exact && r->run_rows >= nlines)
        ph_rows_add_sums(r->p, r->fn, r->part, sum, width, nlines);
}

/* The last line of data (its number and length) for the messages about
 * the end of the file, when the threads read it. */
static void last_line(const ph_input *in, uint64_t lineno, uint64_t *last,
                      size_t *lastlen)
{
    const char *s = (const char *)ph_input_data(in);
    size_t end = ph_input_size(in), start;
    if (end && s[end - 1] == '\n')
        end--;
    for (start = end; start && s[start - 1] != '\n'; start--)
        ;
    if (end > start && s[end - 1] == '\r')
        end--;
    *last = lineno;
    *lastlen = end - start;
}

/* Read with the look-ahead threads when the input is big enough: each
 * line as read_line would, the count lines tokenized and stored in runs.
 * The input's line cursor is left where they stopped (the end, or a chunk
 * with a NUL byte), for ph_input_getline to go on.  -1 after an error. */
static int read_ahead(cg_reader *r, uint64_t *last, size_t *lastlen)
{
    const char *base = (const char *)ph_input_data(r->in);
    ph_cgpipe *pp = ph_cgpipe_start(r->in, r->p, base, ph_input_size(r->in),
                                    ph_jobs(), PH_CGPIPE_PACK);
    ph_cgline l;
    uint64_t lineno = 0;
    int got, rc = 0;
    if (!pp)
        return 0;
    r->pp = pp;
    ph_rows_keep_sums(r->p);
    while ((got = ph_cgpipe_next(pp, &l)) > 0) {
        ph_line ln = { l.s, (size_t)(l.e - l.s), ++lineno };
        int stored;
        size_t run;
        r->run_rows = 0;
        if (l.ntok == PH_CGTOK_PACKED) {
            stored = count_packed(r, l.packed);
            if (stored)
                r->run_rows = 1;
            else
                unpack_sum(r, l.packed);
        } else {
            stored = l.ntok != PH_CGTOK_NONE &&
                     count_tokens(r, l.ntok, l.val, l.kind);
        }
        if (!stored && read_line(r, &ln) < 0) {
            rc = -1;
            break;
        }
        /* the count lines after it, up to one read_line must read */
        run = ph_cgpipe_run_packed(pp, count_packed, r);
        lineno += run;
        r->run_rows += (uint32_t)run;
        segment_sums(r);
    }
    /* the packed lines' counts into the sums, for a summary line after */
    if (!r->have_summary && r->nev)
        ph_cgpipe_packed_sum(pp, r->sum, r->nev);
    r->pp = NULL;
    ph_cgpipe_stop(pp);
    if (rc == 0 && lineno) {
        last_line(r->in, lineno, last, lastlen);
        ph_input_resume_lines(r->in, got < 0 ? (size_t)(l.next - base)
                                             : ph_input_size(r->in), lineno);
    }
    return rc;
}

int ph_cachegrind_read(ph_input *in, ph_profile *p)
{
    cg_reader r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.p = p;
    ph_profile_set_format(p, "cachegrind");
    r.part = ph_part_add(p, PH_PART_WHOLE);
    r.file = NULL;          /* counts before any fl=: file unknown */

    ph_line ln;
    uint64_t last = 0;
    size_t lastlen = 0;
    if (read_ahead(&r, &last, &lastlen) < 0)
        return -1;
    while (ph_input_getline(in, &ln)) {
        last = ln.lineno;
        lastlen = ln.len;
        if (read_line(&r, &ln) < 0)
            return -1;
    }
    if (last == 0)
        return ph_input_error_at(in, 1, 1, "empty file, no cachegrind data");
    if (r.nev == 0)
        return ph_input_error_at(in, last, lastlen + 1,
                                 "no \"events:\" line (truncated file?)");
    if (!r.have_summary)
        return ph_input_error_at(in, last, lastlen + 1,
                                 "missing \"summary:\" line at the end "
                                 "(truncated file?)");
    return 0;
}

/* Callgrind-only keys: their presence means the file is callgrind's. */
static const char *const callgrind_keys[] = {
    "version:", "creator:", "positions:", "pid:", "thread:", "part:",
    "event:", "totals:", "ob=", "cob=", "cfi=", "cfl=", "cfn=", "calls=",
    "fi=", "fe=", "jump=", "jcnd=", "jfi=", "jfn=",
};

/* "fn=(12)": callgrind's name compression ("fn=(below main)" is a name). */
static int is_compressed(const char *t, size_t l)
{
    return (starts_with(t, l, "fn=(") || starts_with(t, l, "fl=("))
           && l > 4 && t[4] >= '0' && t[4] <= '9';
}

/* Cachegrind files start with desc: or cmd: (no "# callgrind format"
 * comment, no version:), have events: right after the header, and contain
 * none of callgrind's keys.  Scores: 90 with events: seen and the window
 * clean, 50 when the window ends inside the header. */
int ph_cachegrind_sniff(const unsigned char *data, size_t len)
{
    const char *s = (const char *)data;
    size_t n = len < 8192 ? len : 8192;
    size_t i = 0;
    int first = 1, events = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && s[e] != '\n')
            e++;
        int complete = e < n;
        size_t l = e - i;
        const char *t = s + i;
        i = e + 1;
        if (l > 0 && t[l - 1] == '\r')
            l--;
        if (l == 0)
            continue;
        if (t[0] == '#') {
            if (starts_with(t, l, "# callgrind format"))
                return 0;
            continue;
        }
        if (!complete && l < 10)
            break;  /* a cut keyword proves nothing */
        if (first) {
            if (!starts_with(t, l, "desc:") && !starts_with(t, l, "cmd:"))
                return 0;
            first = 0;
        }
        for (size_t k = 0; k < sizeof callgrind_keys / sizeof *callgrind_keys;
             k++)
            if (starts_with(t, l, callgrind_keys[k]))
                return 0;
        if (is_compressed(t, l))
            return 0;
        if (starts_with(t, l, "events:"))
            events = 1;
    }
    if (first)
        return 0;
    /* Without "events:" the bytes are ours only if no other format takes
     * them: a folded stack may begin with "desc:" (a frame named so). */
    return events ? 90 : 8;
}
