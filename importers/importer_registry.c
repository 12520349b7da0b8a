/* importer_registry.c -- the table of every format profhub reads, the
 * lookups over it, content sniffing, and ph_load: open, recognise, read.
 * To add a format: one PH_DECLARE_IMPORTER line in importers.h and one
 * PH_IMPORTER row below, in the same order (ties in sniffing go to the
 * earlier row). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "importers/importers.h"

#define PH_IMPORTER(n, desc, exts, caps)                                   \
    { #n, desc, exts, ph_##n##_sniff, ph_##n##_read, NULL, caps }

static const ph_format importers[] = {
    /* PH_IMPORTER(name, "one-line description", "ext ext", PH_CAP_...), */
    PH_IMPORTER(callgrind, "Callgrind out-file (valgrind --tool=callgrind), "
                "with the run's thread and dump files",
                "callgrind callgrind.out.*", PH_CAP_LINES | PH_CAP_ADDRS |
                PH_CAP_CALLS | PH_CAP_PARTS | PH_CAP_FORMULAS | PH_CAP_NEGATIVE),
    PH_IMPORTER(cachegrind, "Cachegrind out-file (valgrind --tool=cachegrind)",
                "cachegrind cachegrind.out.*", PH_CAP_LINES),
    PH_IMPORTER(gmon, "gprof gmon.out (gcc -pg), mapped with the executable given by --exe",
                "gmon.out gmon.sum gmon", PH_CAP_LINES | PH_CAP_ADDRS | PH_CAP_CALLS),
    PH_IMPORTER(pprof, "pprof profile.proto (go tool pprof, gperftools, perf_to_profile), raw or gzipped",
                "pb.gz pprof pb", PH_CAP_CONTEXTS | PH_CAP_INLINE | PH_CAP_ADDRS |
                PH_CAP_LINES | PH_CAP_NEGATIVE | PH_CAP_PARTS),
    PH_IMPORTER(drcctprof, "DrCCTProf / EasyView profile (drcctprof.profile protobuf)",
                "drcctprof ezview", PH_CAP_CONTEXTS | PH_CAP_INLINE | PH_CAP_LINES |
                PH_CAP_NEGATIVE),
    PH_IMPORTER(folded, "folded stacks (\"a;b;c 123\" lines, root first; flame-graph tools)",
                "folded collapsed", PH_CAP_CONTEXTS | PH_CAP_INLINE | PH_CAP_NEGATIVE),
    PH_IMPORTER(native, "profhub experiment (profhub record: pcsamp, usertime, hwc), symbolised with libelf/libdwarf",
                "phx", PH_CAP_CONTEXTS | PH_CAP_INLINE | PH_CAP_ADDRS | PH_CAP_LINES |
                PH_CAP_PARTS),
    { NULL, NULL, NULL, NULL, NULL, NULL, 0 }   /* end of table */
};

#define NIMPORTERS (sizeof importers / sizeof importers[0] - 1)

size_t ph_importer_count(void)
{
    return NIMPORTERS;
}

const ph_format *ph_importer_at(size_t i)
{
    return i < ph_importer_count() ? &importers[i] : NULL;
}

const ph_format *ph_importer_find(const char *name)
{
    const ph_format *f;

    for (f = importers; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

const ph_format *ph_importer_sniff(const unsigned char *data, size_t len)
{
    const ph_format *best = NULL, *f;
    int best_score = 0;

    if (len > PH_SNIFF_BYTES)
        len = PH_SNIFF_BYTES;
    for (f = importers; f->name; f++) {
        int score;
        if (!f->sniff)
            continue;
        score = f->sniff(data, len);
        if (score > best_score) {   /* strictly: ties keep the earlier */
            best_score = score;
            best = f;
        }
    }
    return best;
}

ph_profile *ph_load_input(ph_input *in, const char *forced, char *err,
                          size_t errsize)
{
    const ph_format *f;
    const char *msg;
    ph_profile *p;
    int rc;

    if ((msg = ph_input_error(in)) != NULL) {   /* e.g. corrupt gzip */
        snprintf(err, errsize, "%s", msg);
        return NULL;
    }
    if (forced) {
        f = ph_importer_find(forced);
        if (!f) {
            snprintf(err, errsize,
                     "%s: unknown input format \"%s\" (profhub formats "
                     "lists them)", ph_input_name(in), forced);
            return NULL;
        }
    } else if (ph_input_size(in) == 0) {
        /* callgrind --separate-threads=yes leaves a 0-byte FILE beside
         * FILE-01, FILE-02...: the callgrind reader loads those, or says
         * "no data" when there are none. */
        f = ph_input_path(in) ? ph_importer_find("callgrind") : NULL;
        if (!f) {
            snprintf(err, errsize, "%s: empty input", ph_input_name(in));
            return NULL;
        }
    } else {
        f = ph_importer_sniff(ph_input_data(in), ph_input_size(in));
        if (!f) {
            snprintf(err, errsize,
                     "%s: not a profile in any format profhub reads "
                     "(-F FORMAT forces one)", ph_input_name(in));
            return NULL;
        }
    }
    p = ph_profile_new();
    rc = f->read(in, p);
    msg = ph_input_error(in);
    if (rc != 0 || msg) {
        if (msg)
            snprintf(err, errsize, "%s", msg);
        else
            snprintf(err, errsize, "%s: cannot be read as %s",
                     ph_input_name(in), f->name);
        ph_profile_free(p);
        return NULL;
    }
    if (!ph_profile_format(p))
        ph_profile_set_format(p, f->name);
    ph_profile_trim(p);
    return p;
}

ph_profile *ph_load(const char *path, const char *forced, const char *exe,
                    ph_input **in_out, char *err, size_t errsize)
{
    char why[256];
    ph_input *in;
    ph_profile *p;

    if (in_out)
        *in_out = NULL;
    in = ph_input_open(path, why, sizeof why);
    if (!in) {
        snprintf(err, errsize, "%s: %s", path, why);
        return NULL;
    }
    if (exe)
        ph_input_set_exe(in, exe);
    p = ph_load_input(in, forced, err, errsize);
    if (in_out)
        *in_out = in;
    else
        ph_input_close(in);
    return p;
}
