/* native_in.c -- reads profhub's own experiment files (runtime/FORMAT.md,
 * version 1; written by profhub record through libprofhub-rt).
 * Pass 1 checks every chunk (length, CRC) and collects the processes
 * (PROC) and their memory maps (MAPS); pass 2 inflates each BLOB and turns
 * its records into the context tree: one part per thread of each process
 * image; usertime stacks become paths from main down to the leaf (a
 * placeholder record repeats the thread's last full stack, the modelling
 * Instruments does for idle threads); pcsamp and hwc PCs become one-frame
 * stacks (plus the inlined frames at that PC), so flattening gives exact
 * flat rows.  Counts are summed per (node, part) and added as one sample
 * each: [samples, samples x interval].  Unknown chunk types are skipped
 * with a warning; a truncated last chunk is ignored with a warning (a
 * killed writer); anything else malformed is an error at its offset. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "importers/importers.h"
#include "importers/native.h"
#include "ir/hash.h"
#include "runtime/expfmt.h"

typedef struct proc {
    uint64_t instance;
    uint32_t pid, ppid;
    uint64_t interval;
    uint32_t encoding;
    char exe[128];
} proc;

typedef struct tstate {
    const proc *pr;
    uint32_t tid;
    ph_part *part;
    ph_node *last_leaf;
} tstate;

typedef struct agg {
    ph_node *node;
    tstate *ts;
    uint64_t count;
    size_t seq;            /* order of first sight: the samples' order */
} agg;

typedef struct reader {
    ph_input *in;
    ph_profile *p;
    ph_nsym *sym;
    const unsigned char *d;
    size_t size;
    proc *procs;
    size_t nprocs;
    tstate **threads;      /* each allocated alone: aggs point at them */
    size_t nthreads;
    agg *aggs;
    size_t acap, aused;
    size_t *blobs;
    size_t nblobs;
    uint64_t *words;       /* inflated blob */
    uint64_t placeholders_lost;
} reader;

/* The magic and our version: ours.  The magic and another version: still
 * ours (the reader names the version) unless a text format claims the
 * bytes, as folded does "PROFHUBXhot_loop 15" (a frame named so). */
int ph_native_sniff(const unsigned char *data, size_t len)
{
    if (len < PH_EXP_MAGIC_LEN ||
        memcmp(data, PH_EXP_MAGIC, PH_EXP_MAGIC_LEN) != 0)
        return 0;
    if (len >= PH_EXP_MAGIC_LEN + 2 &&
        (data[8] | (unsigned)data[9] << 8) == PH_EXP_VERSION)
        return 100;
    return 5;
}

/* ------------------------------------------------------------------ */
/* Aggregation of samples per (node, part)                             */

static size_t hash_agg(const ph_node *n, const tstate *t, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)n ^ (uint64_t)(uintptr_t)t * 31u;

    return (size_t)ph_hash64(h) & (cap - 1);
}

static void add_count(reader *r, ph_node *node, tstate *ts, uint64_t n)
{
    size_t h;

    if ((r->aused + 1) * 2 > r->acap) {
        size_t ncap = r->acap ? r->acap * 2 : 1024;
        agg *na = ph_xcalloc(ncap, sizeof *na);

        for (size_t i = 0; i < r->acap; i++) {
            if (!r->aggs[i].node)
                continue;
            h = hash_agg(r->aggs[i].node, r->aggs[i].ts, ncap);
            while (na[h].node)
                h = (h + 1) & (ncap - 1);
            na[h] = r->aggs[i];
        }
        free(r->aggs);
        r->aggs = na;
        r->acap = ncap;
    }
    h = hash_agg(node, ts, r->acap);
    while (r->aggs[h].node) {
        if (r->aggs[h].node == node && r->aggs[h].ts == ts) {
            r->aggs[h].count += n;
            return;
        }
        h = (h + 1) & (r->acap - 1);
    }
    r->aggs[h].node = node;
    r->aggs[h].ts = ts;
    r->aggs[h].count = n;
    r->aggs[h].seq = r->aused++;
}

/* ------------------------------------------------------------------ */
/* Header and pass 1                                                   */

static void read_header_text(reader *r, const unsigned char *s, size_t len)
{
    size_t i = 0;

    while (i < len) {
        const unsigned char *nl = memchr(s + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - s) : len;
        const unsigned char *eq = memchr(s + i, '=', end - i);

        if (eq) {
            char key[64], val[1024];
            size_t kl = (size_t)(eq - (s + i)), vl = end - kl - i - 1;

            if (kl < sizeof key && vl < sizeof val) {
                memcpy(key, s + i, kl);
                key[kl] = '\0';
                memcpy(val, eq + 1, vl);
                val[vl] = '\0';
                ph_meta_add(r->p, key, val);
            }
        }
        i = end + 1;
    }
}

static const proc *find_proc(const reader *r, uint64_t instance)
{
    for (size_t i = 0; i < r->nprocs; i++)
        if (r->procs[i].instance == instance)
            return &r->procs[i];
    return NULL;
}

static int read_proc(reader *r, size_t off, const unsigned char *c,
                     size_t len)
{
    proc *pr;
    size_t pos = PH_PROC_FIXED, exe_at = 0;
    uint32_t exe_len = 0;

    if (len < PH_PROC_FIXED)
        return ph_input_error_off(r->in, off, "PROC chunk of %zu bytes, "
                                  "needs at least %d", len, PH_PROC_FIXED);
    for (int k = 0; k < 3; k++) {   /* collector, exe, cmdline */
        uint32_t sl;

        if (len - pos < 4)
            return ph_input_error_off(r->in, off + pos, "PROC chunk ends "
                                      "inside its strings");
        sl = ph_get32(c + pos);
        if (sl > len - pos - 4)
            return ph_input_error_off(r->in, off + pos, "string of %u "
                                      "bytes overruns the PROC chunk", sl);
        if (k == 1) {
            exe_at = pos + 4;
            exe_len = sl;
        }
        pos += 4 + (size_t)sl;
    }
    r->procs = ph_xrealloc(r->procs, (r->nprocs + 1) * sizeof *r->procs);
    pr = &r->procs[r->nprocs++];
    memset(pr, 0, sizeof *pr);
    pr->instance = ph_get64(c);
    pr->pid = ph_get32(c + 8);
    pr->ppid = ph_get32(c + 12);
    pr->interval = ph_get64(c + 24);
    pr->encoding = ph_get32(c + 32);
    for (uint32_t i = exe_len; i-- > 0;)   /* basename */
        if (c[exe_at + i] == '/') {
            exe_at += i + 1;
            exe_len -= i + 1;
            break;
        }
    if (exe_len >= sizeof pr->exe)
        exe_len = sizeof pr->exe - 1;
    memcpy(pr->exe, c + exe_at, exe_len);
    if (pr->encoding != PH_REC_PC_ENC && pr->encoding != PH_REC_STACK_ENC)
        return ph_input_error_off(r->in, off + 32, "unknown record encoding "
                                  "%u (1 = PCs, 2 = stacks)", pr->encoding);
    return 0;
}

static int read_maps(reader *r, size_t off, const unsigned char *c,
                     size_t len)
{
    uint64_t instance;
    uint32_t count;
    size_t pos = PH_MAPS_FIXED;

    if (len < PH_MAPS_FIXED)
        return ph_input_error_off(r->in, off, "MAPS chunk of %zu bytes, "
                                  "needs at least %d", len, PH_MAPS_FIXED);
    instance = ph_get64(c);
    count = ph_get32(c + 20);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t pl;
        uint64_t start, end;

        if (len - pos < PH_MAPS_ENTRY_FIXED)
            return ph_input_error_off(r->in, off + pos, "MAPS chunk ends at "
                                      "entry %u of %u", i, count);
        pl = ph_get32(c + pos + 24);
        if (pl > len - pos - PH_MAPS_ENTRY_FIXED)
            return ph_input_error_off(r->in, off + pos + 24, "path of %u "
                                      "bytes overruns the MAPS chunk", pl);
        start = ph_get64(c + pos);
        end = ph_get64(c + pos + 8);
        if (end < start)
            return ph_input_error_off(r->in, off + pos, "mapping ends "
                                      "before it starts");
        ph_nsym_add_map(r->sym, instance, start, end, ph_get64(c + pos + 16),
                        (const char *)c + pos + PH_MAPS_ENTRY_FIXED, pl);
        pos += PH_MAPS_ENTRY_FIXED + pl;
    }
    return 0;
}

/* Walk the chunks, check them, read PROC and MAPS, note the BLOBs. */
static int scan_chunks(reader *r, size_t off)
{
    while (off < r->size) {
        uint32_t type, len, crc;
        const unsigned char *c;

        if (r->size - off < PH_CHUNK_HEADER ||
            ph_get32(r->d + off + 4) > r->size - off - PH_CHUNK_HEADER) {
            if (r->size - off >= PH_CHUNK_HEADER &&
                ph_get32(r->d + off + 4) > PH_CHUNK_MAX)
                return ph_input_error_off(r->in, off + 4, "chunk length %u "
                                          "exceeds the limit of %u",
                                          ph_get32(r->d + off + 4),
                                          PH_CHUNK_MAX);
            ph_input_warn(r->in, "truncated", 0, "offset 0x%zx: ignored a "
                          "truncated last chunk (%zu bytes)", off,
                          r->size - off);
            return 0;
        }
        type = ph_get32(r->d + off);
        len = ph_get32(r->d + off + 4);
        crc = ph_get32(r->d + off + 8);
        c = r->d + off + PH_CHUNK_HEADER;
        if (len > PH_CHUNK_MAX)
            return ph_input_error_off(r->in, off + 4, "chunk length %u "
                                      "exceeds the limit of %u", len,
                                      PH_CHUNK_MAX);
        if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), c, len) != crc)
            return ph_input_error_off(r->in, off + 8, "chunk checksum "
                                      "mismatch (type %u, %u bytes)", type,
                                      len);
        switch (type) {
        case PH_CHUNK_PROC:
            if (read_proc(r, off + PH_CHUNK_HEADER, c, len) < 0)
                return -1;
            break;
        case PH_CHUNK_MAPS:
            if (read_maps(r, off + PH_CHUNK_HEADER, c, len) < 0)
                return -1;
            break;
        case PH_CHUNK_BLOB:
            r->blobs = ph_xrealloc(r->blobs, (r->nblobs + 1) *
                                                 sizeof *r->blobs);
            r->blobs[r->nblobs++] = off;
            break;
        case PH_CHUNK_END:
            break;
        default:
            ph_input_warn(r->in, "chunk-type", 0, "offset 0x%zx: skipped a "
                          "chunk of unknown type %u", off, type);
        }
        off += PH_CHUNK_HEADER + len;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Pass 2: blobs                                                       */

static tstate *get_thread(reader *r, const proc *pr, uint32_t tid)
{
    tstate *t;
    char name[200];
    unsigned image = 0;

    for (size_t i = 0; i < r->nthreads; i++)
        if (r->threads[i]->pr == pr && r->threads[i]->tid == tid)
            return r->threads[i];
    r->threads = ph_xrealloc(r->threads,
                             (r->nthreads + 1) * sizeof *r->threads);
    t = r->threads[r->nthreads++] = ph_xcalloc(1, sizeof *t);
    t->pr = pr;
    t->tid = tid;
    t->last_leaf = NULL;
    t->part = ph_part_add(r->p, PH_PART_THREAD);
    t->part->pid = pr->pid;
    t->part->tid = tid;
    t->part->number = (int64_t)t->part->index;
    for (const proc *q = r->procs; q < pr; q++)   /* earlier exec images */
        image += q->pid == pr->pid && q->ppid == pr->ppid;
    if (image)
        snprintf(name, sizeof name, "%s pid %u tid %u (after exec %u)",
                 pr->exe, pr->pid, tid, image);
    else
        snprintf(name, sizeof name, "%s pid %u tid %u", pr->exe, pr->pid,
                 tid);
    t->part->name = ph_str_intern0(r->p, name);
    return t;
}

/* Node path for the frames of one address under parent. */
static ph_node *add_frames(reader *r, ph_node *parent, const proc *pr,
                           uint64_t addr)
{
    const ph_nframe *f;
    size_t n = ph_nsym_resolve(r->sym, pr->instance, addr, &f);

    for (size_t i = 0; i < n; i++)
        parent = ph_node_child(r->p, parent, f[i].func, f[i].obj, addr,
                               f[i].line, f[i].flags);
    return parent;
}

static int read_records(reader *r, size_t off, tstate *ts, uint32_t enc,
                        uint32_t nwords)
{
    const proc *pr = ts->pr;

    for (uint32_t i = 0; i < nwords;) {
        uint64_t n, w = r->words[i];
        ph_node *node = NULL;

        if (enc == PH_REC_PC_ENC) {
            add_count(r, add_frames(r, NULL, pr, w), ts, 1);
            i++;
            continue;
        }
        n = w;
        if (n > PH_STACK_MAX_DEPTH || n > nwords - i - 1)
            return ph_input_error_off(r->in, off, "blob word %u: stack of "
                                      "%llu frames (limit %d, %u words "
                                      "left)", i, (unsigned long long)n,
                                      PH_STACK_MAX_DEPTH, nwords - i - 1);
        if (n == 0) {
            /* placeholder: the thread did not run; repeat its last stack */
            if (ts->last_leaf)
                add_count(r, ts->last_leaf, ts, 1);
            else
                r->placeholders_lost++;
            i++;
            continue;
        }
        for (uint64_t k = n; k-- > 0;) {
            uint64_t a = r->words[i + 1 + k];

            /* callers' PCs are return addresses: look up the call */
            node = add_frames(r, node, pr, k > 0 && a > 0 ? a - 1 : a);
        }
        ts->last_leaf = node;
        add_count(r, node, ts, 1);
        i += 1 + (uint32_t)n;
    }
    return 0;
}

static int read_blob(reader *r, size_t coff)
{
    const unsigned char *c = r->d + coff + PH_CHUNK_HEADER;
    size_t off = coff + PH_CHUNK_HEADER;
    uint32_t len = ph_get32(r->d + coff + 4);
    uint32_t enc, nwords, zlen, tid;
    const proc *pr;
    uLongf rawlen;

    if (len < PH_BLOB_FIXED)
        return ph_input_error_off(r->in, off, "BLOB chunk of %u bytes, needs "
                                  "at least %d", len, PH_BLOB_FIXED);
    pr = find_proc(r, ph_get64(c));
    if (!pr)
        return ph_input_error_off(r->in, off, "blob of an unknown process "
                                  "(no PROC chunk before it)");
    tid = ph_get32(c + 20);
    enc = ph_get32(c + 64);
    nwords = ph_get32(c + 68);
    zlen = ph_get32(c + 76);
    if (enc != pr->encoding)
        return ph_input_error_off(r->in, off + 64, "blob encoding %u differs "
                                  "from its process's (%u)", enc,
                                  pr->encoding);
    if (nwords > PH_BLOB_MAX_WORDS)
        return ph_input_error_off(r->in, off + 68, "blob of %u words "
                                  "(limit %d)", nwords, PH_BLOB_MAX_WORDS);
    if (zlen != len - PH_BLOB_FIXED)
        return ph_input_error_off(r->in, off + 76, "compressed size %u does "
                                  "not match the chunk (%u bytes of data)",
                                  zlen, len - PH_BLOB_FIXED);
    rawlen = (uLongf)nwords * 8;
    if (nwords && (uncompress((Bytef *)r->words, &rawlen,
                              c + PH_BLOB_FIXED, zlen) != Z_OK ||
                   rawlen != (uLongf)nwords * 8))
        return ph_input_error_off(r->in, off + PH_BLOB_FIXED, "blob data "
                                  "does not inflate to %u words", nwords);
    return read_records(r, off, get_thread(r, pr, tid), enc, nwords);
}

/* ------------------------------------------------------------------ */
/* Entry                                                               */

static int cmp_seq(const void *a, const void *b)
{
    const agg *x = *(agg *const *)a, *y = *(agg *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The samples in the order first seen: the table's order follows the
 * nodes' addresses, which change from run to run. */
static void add_samples(reader *r)
{
    const agg **order = ph_xmalloc((r->aused + 1) * sizeof *order);
    size_t n = 0;
    for (size_t i = 0; i < r->acap; i++)
        if (r->aggs[i].node)
            order[n++] = &r->aggs[i];
    ph_qsort(order, n, sizeof *order, cmp_seq);
    for (size_t i = 0; i < n; i++) {
        const agg *a = order[i];
        int64_t cost[2];
        cost[0] = (int64_t)a->count;
        cost[1] = (int64_t)(a->count * a->ts->pr->interval);
        ph_sample_add(r->p, a->node, a->ts->part, cost, 2, NULL, 0);
    }
    free(order);
}

static void add_events(reader *r)
{
    const char *coll = ph_meta_get(r->p, "collector");
    int hwc = coll && strcmp(coll, "hwc") == 0;
    ph_event *e0 = ph_event_add(r->p, hwc ? "overflows" : "samples");
    ph_event *e1 = ph_event_add(r->p, hwc ? "events" : "cpu");

    e0->unit = ph_str_intern0(r->p, "count");
    e1->unit = ph_str_intern0(r->p, hwc ? "count" : "nanoseconds");
    e1->long_name = ph_str_intern0(r->p, hwc ? "counter events "
                                   "(overflows x threshold)"
                                   : "CPU time (samples x interval)");
}

static int read_all(reader *r)
{
    uint32_t hlen, version;

    if (r->size < PH_EXP_HEADER_FIXED ||
        memcmp(r->d, PH_EXP_MAGIC, PH_EXP_MAGIC_LEN) != 0)
        return ph_input_error_off(r->in, 0, "not a profhub experiment "
                                  "(no " PH_EXP_MAGIC " magic)");
    version = r->d[8] | (uint32_t)r->d[9] << 8;
    if (version != PH_EXP_VERSION)
        return ph_input_error_off(r->in, 8, "experiment version %u is not "
                                  "supported (this reader knows %d)",
                                  version, PH_EXP_VERSION);
    hlen = ph_get32(r->d + 12);
    if (hlen < PH_EXP_HEADER_FIXED || hlen > PH_EXP_HEADER_MAX ||
        hlen > r->size)
        return ph_input_error_off(r->in, 12, "header length %u out of range "
                                  "(%d..%zu)", hlen, PH_EXP_HEADER_FIXED,
                                  r->size < PH_EXP_HEADER_MAX
                                      ? r->size : (size_t)PH_EXP_HEADER_MAX);
    read_header_text(r, r->d + PH_EXP_HEADER_FIXED,
                     hlen - PH_EXP_HEADER_FIXED);
    add_events(r);
    if (scan_chunks(r, hlen) < 0)
        return -1;
    r->words = ph_xmalloc((size_t)PH_BLOB_MAX_WORDS * 8);
    for (size_t i = 0; i < r->nblobs; i++)
        if (read_blob(r, r->blobs[i]) < 0)
            return -1;
    add_samples(r);
    if (r->placeholders_lost)
        ph_input_warn(r->in, "placeholder", 0, "%llu placeholder samples "
                      "came before any full stack of their thread and were "
                      "dropped", (unsigned long long)r->placeholders_lost);
    return 0;
}

int ph_native_read(ph_input *in, ph_profile *p)
{
    reader r;
    int rc;

    memset(&r, 0, sizeof r);
    r.in = in;
    r.p = p;
    r.d = ph_input_data(in);
    r.size = ph_input_size(in);
    r.sym = ph_nsym_new(p);
    ph_profile_set_format(p, "native");
    rc = read_all(&r);
    ph_nsym_free(r.sym);
    free(r.procs);
    for (size_t i = 0; i < r.nthreads; i++)
        free(r.threads[i]);
    free(r.threads);
    free(r.aggs);
    free(r.blobs);
    free(r.words);
    return rc;
}
