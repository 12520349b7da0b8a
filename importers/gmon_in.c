/* gmon_in.c -- read gprof's gmon.out (glibc -pg runtime, GNU gprof).
 * Spec: ../shared/formats/gprof.md.  Reads the tagged GNU format (cookie
 * "gmon", versions 1 and 0: histogram, call-arc and version-1 basic-block
 * records) and, when asked for by name (-t gmon), the old BSD and 4.4BSD
 * layouts.  Pointer size and byte order come from the executable (--exe),
 * else the host's.  Several files of one program merge (gprof -s).
 * Not supported: version-0 basic-block records, the GMON_SHOBJ variant.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/gmon_priv.h"
#include "importers/importers.h"

#define GMON_COOKIE "gmon"
#define BSD44_MAGIC 0x00051879u

enum { TAG_HIST = 0, TAG_ARC = 1, TAG_BB = 2 };

/* A bounds-checked view of the file: every get fails past the end. */
typedef struct cursor {
    ph_input *in;
    const unsigned char *b;
    size_t len, pos;
    int ptr, big;
} cursor;

static int fail_short(cursor *c, const char *what)
{
    return ph_input_error_off(c->in, c->len,
                              "truncated %s: file ends at offset 0x%zx",
                              what, c->len);
}

static uint64_t decode(const cursor *c, size_t at, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) {
        int k = c->big ? i : n - 1 - i;
        v = (v << 8) | c->b[at + (size_t)k];
    }
    return v;
}

/* Read an n-byte unsigned value; -1 (error recorded, *v 0) when short. */
static int get_uint(cursor *c, int n, uint64_t *v, const char *what)
{
    *v = 0;
    if (c->len - c->pos < (size_t)n)
        return fail_short(c, what);
    *v = decode(c, c->pos, n);
    c->pos += (size_t)n;
    return 0;
}

static int get_ptr(cursor *c, uint64_t *v, const char *what)
{
    return get_uint(c, c->ptr, v, what);
}

/* ------------------------------------------------------------------ */
/* Histograms                                                          */

/* Add the nbins u16 counters at c's position to the record with the same
 * range, or a new one; a range that overlaps another is refused. */
static int add_hist(cursor *c, ph_gmon_data *d, uint64_t off, uint64_t low,
                    uint64_t high, uint32_t nbins, uint32_t rate,
                    const char *dimen, char abbrev)
{
    ph_gmon_hist *h = NULL;

    if (high < low)
        return ph_input_error_off(c->in, off,
                                  "histogram range is inverted: low_pc 0x%llx "
                                  "> high_pc 0x%llx", (unsigned long long)low,
                                  (unsigned long long)high);
    if (nbins == 0 && high > low)
        return ph_input_error_off(c->in, off,
                                  "histogram of range [0x%llx, 0x%llx) has "
                                  "no bins", (unsigned long long)low,
                                  (unsigned long long)high);
    if ((c->len - c->pos) / 2 < nbins)
        return ph_input_error_off(c->in, off,
                                  "truncated histogram record: %u bins need "
                                  "%llu bytes, %zu left", nbins,
                                  (unsigned long long)nbins * 2,
                                  c->len - c->pos);
    for (size_t i = 0; i < d->nhists; i++) {
        ph_gmon_hist *o = &d->hists[i];
        if (o->low == low && o->high == high) {
            if (o->nbins != nbins)
                return ph_input_error_off(c->in, off,
                                          "histogram of range [0x%llx, 0x%llx)"
                                          " has %u bins, an earlier one %u",
                                          (unsigned long long)low,
                                          (unsigned long long)high, nbins,
                                          o->nbins);
            h = o;
            break;
        }
        if (low < o->high && o->low < high)
            return ph_input_error_off(c->in, off,
                                      "histogram range [0x%llx, 0x%llx) "
                                      "overlaps an earlier one [0x%llx, "
                                      "0x%llx)", (unsigned long long)low,
                                      (unsigned long long)high,
                                      (unsigned long long)o->low,
                                      (unsigned long long)o->high);
    }
    if (d->nhists > 0) {
        const ph_gmon_hist *f = &d->hists[0];
        if (strcmp(f->dimen, dimen) != 0 || f->abbrev != abbrev)
            return ph_input_error_off(c->in, off,
                                      "histogram unit \"%s\" differs from an "
                                      "earlier one \"%s\"", dimen, f->dimen);
    }
    if (!h) {
        d->hists = ph_xrealloc(d->hists, (d->nhists + 1) * sizeof *d->hists);
        h = &d->hists[d->nhists++];
        memset(h, 0, sizeof *h);
        h->low = low;
        h->high = high;
        h->nbins = nbins;
        h->rate = rate;
        snprintf(h->dimen, sizeof h->dimen, "%s", dimen);
        h->abbrev = abbrev;
        h->bins = ph_xcalloc(nbins ? nbins : 1, sizeof *h->bins);
        h->off = off;
    }
    for (uint32_t i = 0; i < nbins; i++)
        h->bins[i] += decode(c, c->pos + 2 * (size_t)i, 2);
    c->pos += 2 * (size_t)nbins;
    return 0;
}

static int read_hist_record(cursor *c, ph_gmon_data *d, uint64_t off)
{
    uint64_t low, high, nbins, rate;
    char dimen[16];

    if (get_ptr(c, &low, "histogram record") ||
        get_ptr(c, &high, "histogram record") ||
        get_uint(c, 4, &nbins, "histogram record") ||
        get_uint(c, 4, &rate, "histogram record"))
        return -1;
    if (c->len - c->pos < 16)
        return fail_short(c, "histogram record");
    memcpy(dimen, c->b + c->pos, 15);
    dimen[15] = '\0';
    for (int i = 0; dimen[i]; i++)
        if ((unsigned char)dimen[i] < 0x20 || (unsigned char)dimen[i] > 0x7e)
            return ph_input_error_off(c->in, c->pos + (size_t)i,
                                      "histogram unit name has a non-printable"
                                      " byte 0x%02x", (unsigned char)dimen[i]);
    char abbrev = (char)c->b[c->pos + 15];
    c->pos += 16;
    if (rate == 0)
        return ph_input_error_off(c->in, off + 1 + 2 * (uint64_t)c->ptr + 4,
                                  "histogram record has a profiling rate of 0");
    return add_hist(c, d, off, low, high, (uint32_t)nbins, (uint32_t)rate,
                    dimen, abbrev);
}

/* ------------------------------------------------------------------ */
/* Arcs and basic blocks                                               */

static void push_arc(ph_gmon_data *d, uint64_t from, uint64_t self,
                     uint64_t count, uint64_t off)
{
    if (d->narcs == d->carcs) {
        d->carcs = d->carcs ? 2 * d->carcs : 64;
        d->arcs = ph_xrealloc(d->arcs, d->carcs * sizeof *d->arcs);
    }
    d->arcs[d->narcs++] = (ph_gmon_arc){from, self, count, off};
}

static int read_bb_record(cursor *c, ph_gmon_data *d, uint64_t off)
{
    uint64_t n;

    if (d->version == 0)
        return ph_input_error_off(c->in, off,
                                  "version-0 basic-block records are not "
                                  "supported");
    if (get_uint(c, 4, &n, "basic-block record"))
        return -1;
    if ((c->len - c->pos) / (2 * (size_t)c->ptr) < n)
        return ph_input_error_off(c->in, off,
                                  "truncated basic-block record: %llu blocks "
                                  "need %llu bytes, %zu left",
                                  (unsigned long long)n,
                                  (unsigned long long)n * 2 * (uint64_t)c->ptr,
                                  c->len - c->pos);
    if (d->nbbs + n > d->cbbs) {
        d->cbbs = d->nbbs + (size_t)n + 16;
        d->bbs = ph_xrealloc(d->bbs, d->cbbs * sizeof *d->bbs);
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t a, k;
        get_ptr(c, &a, "basic-block record");
        get_ptr(c, &k, "basic-block record");
        d->bbs[d->nbbs++] = (ph_gmon_bb){a, k};
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* The two containers                                                  */

static int parse_tagged(cursor *c, ph_gmon_data *d)
{
    uint64_t version;

    c->pos = 4;
    if (get_uint(c, 4, &version, "file header"))
        return -1;
    if (version != 0 && version != 1)
        return ph_input_error_off(c->in, 4,
                                  "unsupported gmon version %llu (expected 1 "
                                  "or 0)", (unsigned long long)version);
    if (c->len < 20)
        return fail_short(c, "file header");
    if (d->nfiles > 0 && d->version != version)
        return ph_input_error_off(c->in, 4,
                                  "gmon version %llu differs from an earlier "
                                  "file's %u", (unsigned long long)version,
                                  d->version);
    d->version = (uint32_t)version;
    c->pos = 20;
    while (c->pos < c->len) {
        uint64_t off = c->pos;
        unsigned tag = c->b[c->pos++];
        uint64_t from, self, count;

        switch (tag) {
        case TAG_HIST:
            if (read_hist_record(c, d, off))
                return -1;
            break;
        case TAG_ARC:
            if (get_ptr(c, &from, "call-arc record") ||
                get_ptr(c, &self, "call-arc record") ||
                get_uint(c, 4, &count, "call-arc record"))
                return -1;
            push_arc(d, from, self, count, off);
            break;
        case TAG_BB:
            if (read_bb_record(c, d, off))
                return -1;
            break;
        default:
            return ph_input_error_off(c->in, off,
                                      "unknown record tag %u (expected 0 "
                                      "histogram, 1 call arc or 2 basic "
                                      "blocks)", tag);
        }
        ph_input_progress(c->in, c->pos);
    }
    return 0;
}

/* BSD layouts: a header (old: low, high, ncnt; 4.4BSD adds version, rate
 * and spare words), ncnt - header bytes of u16 bins, then arcs of three
 * pointer-sized words to the end. */
static int parse_bsd(cursor *c, ph_gmon_data *d, int *kind)
{
    uint64_t low, high, ncnt, ver = 0, rate = 100;
    size_t hdr;

    c->pos = 0;
    if (get_ptr(c, &low, "BSD header") || get_ptr(c, &high, "BSD header") ||
        get_uint(c, 4, &ncnt, "BSD header"))
        return -1;
    if (c->len - c->pos >= 4)
        ver = decode(c, c->pos, 4);
    if (ver == BSD44_MAGIC) {
        *kind = PH_GMON_BSD44;
        c->pos += 4;
        if (get_uint(c, 4, &rate, "4.4BSD header"))
            return -1;
        if (c->len - c->pos < 12)
            return fail_short(c, "4.4BSD header");
        c->pos += 12;
    } else {
        *kind = PH_GMON_BSD;
    }
    hdr = c->pos;
    if (high < low || ncnt < hdr || (ncnt - hdr) % 2 != 0 ||
        ncnt - hdr > c->len - hdr || rate == 0)
        return ph_input_error_off(c->in, 0,
                                  "not a gmon.out file: no \"gmon\" cookie "
                                  "and the BSD header is not consistent "
                                  "(low 0x%llx, high 0x%llx, ncnt %llu, size "
                                  "%zu)", (unsigned long long)low,
                                  (unsigned long long)high,
                                  (unsigned long long)ncnt, c->len);
    if (add_hist(c, d, 0, low, high, (uint32_t)((ncnt - hdr) / 2),
                 (uint32_t)rate, "seconds", 's'))
        return -1;
    while (c->pos < c->len) {
        uint64_t off = c->pos, from, self, count;
        if (get_ptr(c, &from, "BSD call-arc record") ||
            get_ptr(c, &self, "BSD call-arc record") ||
            get_ptr(c, &count, "BSD call-arc record"))
            return -1;
        push_arc(d, from, self, count, off);
    }
    return 0;
}

int ph_gmon_parse(ph_input *in, ph_gmon_data *d)
{
    cursor c = {in, ph_input_data(in), ph_input_size(in), 0, d->ptr_size,
                d->big_endian};
    int kind, rc;

    if (c.ptr != 4 && c.ptr != 8)
        c.ptr = d->ptr_size = 8;
    if (c.len >= 4 && memcmp(c.b, GMON_COOKIE, 4) == 0) {
        kind = PH_GMON_TAGGED;
        rc = parse_tagged(&c, d);
    } else {
        rc = parse_bsd(&c, d, &kind);
    }
    if (rc == 0 && d->nfiles == 0)
        d->kind = kind;
    d->nfiles++;
    return rc;
}

void ph_gmon_data_free(ph_gmon_data *d)
{
    for (size_t i = 0; i < d->nhists; i++)
        free(d->hists[i].bins);
    free(d->hists);
    free(d->arcs);
    free(d->bbs);
    memset(d, 0, sizeof *d);
}

/* ------------------------------------------------------------------ */
/* Descriptor entry points                                             */

int ph_gmon_sniff(const unsigned char *data, size_t len)
{
    if (len >= 8 && memcmp(data, GMON_COOKIE, 4) == 0) {
        /* version 1 or 0 in either byte order */
        uint32_t le = (uint32_t)data[4] | (uint32_t)data[5] << 8 |
                      (uint32_t)data[6] << 16 | (uint32_t)data[7] << 24;
        uint32_t be = (uint32_t)data[7] | (uint32_t)data[6] << 8 |
                      (uint32_t)data[5] << 16 | (uint32_t)data[4] << 24;
        /* another version, or a text that starts with "gmon" (a folded
         * stack "gmon(1) main 20"): ours only when no other reader
         * claims it, to say which version we met */
        return (le <= 1 || be <= 1) ? 100 : 5;
    }
    if (len >= 4 && memcmp(data, GMON_COOKIE, 4) == 0)
        return 5;   /* too short for a header: the same */
    return 0;  /* BSD files have no magic: only with -t gmon */
}

/* Read every input into one data set (gprof -s: equal histogram ranges add
 * bin-wise, arcs add by (from, self)), map it onto the executable (the
 * first input's --exe) and fill p.  On failure the error is recorded in the
 * input that caused it (the first one for executable and mapping errors). */
int ph_gmon_read_many(ph_input **ins, size_t n, ph_profile *p)
{
    ph_gmon_data d;
    ph_gmon_syms syms;
    const char *exe = n ? ph_input_exe(ins[0]) : NULL;
    int have_syms = 0, rc = -1;

    if (n == 0)
        return -1;
    memset(&d, 0, sizeof d);
    memset(&syms, 0, sizeof syms);
    d.ptr_size = (int)sizeof(void *);
    d.big_endian = 0;
    {
        const uint16_t one = 1;
        d.big_endian = *(const unsigned char *)&one == 0;
    }
    if (exe) {
        char err[512];
        if (ph_gmon_syms_load(&syms, exe, err, sizeof err) != 0) {
            ph_input_error_off(ins[0], 0, "executable %s: %s", exe, err);
            goto out;
        }
        have_syms = 1;
        d.ptr_size = syms.ptr_size;
        d.big_endian = syms.big_endian;
    }
    for (size_t i = 0; i < n; i++)
        if (ph_gmon_parse(ins[i], &d) != 0)
            goto out;
    /* Histogram bins are not functions: without the program, refuse
     * unless the user asked for code named by address. */
    if (!exe && !ph_input_raw_addresses(ins[0])) {
        ph_input_error_off(ins[0], 0, "no executable given: gmon.out holds "
                           "addresses, gprof maps them onto the program "
                           "that wrote it (--exe PROG), or --raw-addresses "
                           "to name code by address");
        goto out;
    }
    ph_profile_set_format(p, "gmon");
    rc = ph_gmon_model(ins[0], p, &d, have_syms ? &syms : NULL);
out:
    if (have_syms)
        ph_gmon_syms_free(&syms);
    ph_gmon_data_free(&d);
    return rc;
}

int ph_gmon_read(ph_input *in, ph_profile *p)
{
    return ph_gmon_read_many(&in, 1, p);
}
