/* exporter_registry.c -- the table of every format profhub writes and
 * the lookups over it, including the choice of a format from an output
 * path.  To add a format: one PH_DECLARE_EXPORTER line in exporters.h and
 * one PH_EXPORTER row below. */
#include "config.h"

#include <fnmatch.h>
#include <string.h>
#include <strings.h>

#include "exporters/exporters.h"

#define PH_EXPORTER(n, desc, exts, caps)                                   \
    { #n, desc, exts, NULL, NULL, ph_##n##_write, caps }

/* extensions: space separated, without the dot ("pb.gz pprof"); a word with
 * a '*' is a pattern on the whole file name ("callgrind.out.*"). */
static const ph_format exporters[] = {
    /* PH_EXPORTER(name, "one-line description", "ext ext", PH_CAP_...), */
    PH_EXPORTER(callgrind, "Callgrind out-file, for KCachegrind and callgrind_annotate",
                "callgrind out callgrind.out.*", PH_CAP_LINES | PH_CAP_ADDRS |
                PH_CAP_CALLS | PH_CAP_PARTS | PH_CAP_FORMULAS | PH_CAP_NEGATIVE),
    PH_EXPORTER(cachegrind, "Cachegrind out-file, for cg_annotate",
                "cachegrind cachegrind.out.*", PH_CAP_LINES | PH_CAP_NEGATIVE),
    PH_EXPORTER(pprof, "pprof profile.proto, gzipped, for go tool pprof",
                "pb.gz pprof pb", PH_CAP_CONTEXTS | PH_CAP_INLINE | PH_CAP_ADDRS |
                PH_CAP_LINES | PH_CAP_NEGATIVE),
    PH_EXPORTER(drcctprof, "DrCCTProf / EasyView profile (raw protobuf)",
                "drcctprof ezview", PH_CAP_CONTEXTS | PH_CAP_LINES | PH_CAP_NEGATIVE),
    PH_EXPORTER(folded, "folded stacks for flame graphs (one event)",
                "folded collapsed", PH_CAP_CONTEXTS | PH_CAP_INLINE | PH_CAP_NEGATIVE),
    PH_EXPORTER(speedscope, "speedscope JSON (sampled profiles, one per event)",
                "speedscope.json", PH_CAP_CONTEXTS),
    PH_EXPORTER(dot, "Graphviz call graph coloured by cost (-O node_threshold=PCT, -O edge_threshold=PCT)",
                "dot", PH_CAP_CALLS | PH_CAP_NEGATIVE),
    PH_EXPORTER(svg, "SVG picture: flame graph (-O kind=treemap|callgraph; profhub draw)",
                "svg", PH_CAP_CONTEXTS | PH_CAP_INLINE),
    { NULL, NULL, NULL, NULL, NULL, NULL, 0 }   /* end of table */
};

#define NEXPORTERS (sizeof exporters / sizeof exporters[0] - 1)

size_t ph_exporter_count(void)
{
    return NEXPORTERS;
}

const ph_format *ph_exporter_at(size_t i)
{
    return i < ph_exporter_count() ? &exporters[i] : NULL;
}

const ph_format *ph_exporter_find(const char *name)
{
    const ph_format *f;

    for (f = exporters; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

/* How well one extension word (len n) fits the file name base: the length
 * matched, or 0. */
static size_t match_word(const char *word, size_t n, const char *base)
{
    size_t blen = strlen(base);
    char pat[128];

    if (n == 0 || n >= sizeof pat)
        return 0;
    if (memchr(word, '*', n)) {
        memcpy(pat, word, n);
        pat[n] = '\0';
        return fnmatch(pat, base, FNM_PERIOD) == 0 ? n : 0;
    }
    if (blen <= n + 1 || base[blen - n - 1] != '.')
        return 0;
    return strncasecmp(base + blen - n, word, n) == 0 ? n + 1 : 0;
}

const ph_format *ph_exporter_for_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const ph_format *best = NULL, *f;
    size_t best_len = 0;

    for (f = exporters; f->name; f++) {
        const char *w = f->extensions;
        while (w && *w) {
            size_t n = strcspn(w, " ");
            size_t m = match_word(w, n, base);
            if (m > best_len) {   /* longest wins; ties keep the earlier */
                best_len = m;
                best = f;
            }
            w += n;
            w += strspn(w, " ");
        }
    }
    return best;
}
