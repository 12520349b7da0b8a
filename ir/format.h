/* format.h -- the descriptor of one file format.  The tables of descriptors
 * live with their dispatchers (importers/registry.c, exporters/registry.c);
 * ir/ knows no format. */
#ifndef PH_FORMAT_H
#define PH_FORMAT_H

#include <stddef.h>

#include "io.h"
#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a format can hold, so the writer and the front end can say what is
 * dropped. */
enum {
    PH_CAP_CONTEXTS = 1u << 0,  /* context trees (stacks) */
    PH_CAP_INLINE = 1u << 1,    /* inlined frames */
    PH_CAP_PARTS = 1u << 2,     /* several parts */
    PH_CAP_FORMULAS = 1u << 3,  /* derived event formulas */
    PH_CAP_CALLS = 1u << 4,     /* call records / call graph */
    PH_CAP_NEGATIVE = 1u << 5,  /* negative costs (diffs) */
    PH_CAP_LINES = 1u << 6,     /* line-level positions */
    PH_CAP_ADDRS = 1u << 7,     /* instruction addresses */
};

/* The first bytes of an input that sniffers see. */
#define PH_SNIFF_BYTES ((size_t)64 << 10)

typedef struct ph_format {
    const char *name;          /* "callgrind": files, -t, descriptor */
    const char *description;   /* one line */
    const char *extensions;    /* space separated, no dots: "pb.gz pprof" */
    /* Confidence 0..100 that data (first bytes, already unwrapped from
     * gzip) is this format.  len is at most PH_SNIFF_BYTES: a shorter
     * len is the whole input, so a record cut short there is no record
     * of the format.  NULL: never sniffed. */
    int (*sniff)(const unsigned char *data, size_t len);
    /* Fill p from in.  0 on success; -1 with the error recorded in in. */
    int (*read)(ph_input *in, ph_profile *p);
    /* Write p.  0 on success; -1 with the error recorded on out
     * (ph_output_error_set), as a reader records its error on its input.
     * Writers change nothing: what they need in the other shape comes from the views of
     * analysis/, and what the format cannot hold is said through
     * ph_output_drop. */
    int (*write)(const ph_profile *p, ph_output *out);
    unsigned caps;             /* PH_CAP_* of the written format */
} ph_format;

/* Registry (importers/registry.c, exporters/registry.c). */
PH_API size_t ph_importer_count(void);
PH_API const ph_format *ph_importer_at(size_t i);
PH_API const ph_format *ph_importer_find(const char *name);
/* Best importer for these bytes (ties: table order); NULL if none scores. */
PH_API const ph_format *ph_importer_sniff(const unsigned char *data,
                                          size_t len);
PH_API size_t ph_exporter_count(void);
PH_API const ph_format *ph_exporter_at(size_t i);
PH_API const ph_format *ph_exporter_find(const char *name);
/* Exporter for a path by its extension (longest match: "x.pb.gz"). */
PH_API const ph_format *ph_exporter_for_path(const char *path);

/* Read a profile from path: open, sniff (or use forced format name, may be
 * NULL), read.  On failure returns NULL; *in_out receives the input so the
 * caller can print its error and warnings (close it with ph_input_close).
 * exe is the companion executable (gmon) or NULL. */
PH_API ph_profile *ph_load(const char *path, const char *forced,
                           const char *exe, ph_input **in_out,
                           char *err, size_t errsize);
/* As ph_load, on an input the caller opened (memory buffers for fuzzers and
 * tests; a front end that installs a progress hook first).  The input stays
 * the caller's; on failure err holds the full message to print. */
PH_API ph_profile *ph_load_input(ph_input *in, const char *forced,
                                 char *err, size_t errsize);

/* Define KCachegrind's built-in derived events (L1m, L2m, LLm, Bm, CEst)
 * over the events p has, where the file does not define them; marked
 * PH_EV_BUILTIN, which writers leave out.  For front ends, before a
 * report or diff reads p (importers/builtin_events.c). */
PH_API void ph_events_add_builtins(ph_profile *p);

/* Derived events a user writes (importers/event_config.c), for every front
 * end alike, after the built-ins: first the config file, then each
 * "NAME = FORMULA" definition.
 * ph_events_read_config: a YAML file "derived: {NAME: FORMULA, ...}" (or a
 * list of one-entry maps) read from in; other top-level keys, and entries
 * naming an event p lacks, are skipped.
 * Returns 0, or -1 with the error recorded on in (line and column).
 * ph_events_config_path: the default file, $XDG_CONFIG_HOME/profhub/
 * config.yaml else ~/.config/profhub/config.yaml, into buf; NULL when
 * neither variable is usable.
 * ph_event_define_arg: one "NAME = FORMULA"; returns 0, or -1 with a
 * message in err and *col its 1-based column in arg.  A real event cannot
 * be redefined. */
PH_API int ph_events_read_config(ph_input *in, ph_profile *p);
PH_API const char *ph_events_config_path(char *buf, size_t size);
PH_API int ph_event_define_arg(ph_profile *p, const char *arg, size_t *col,
                               char *err, size_t errsize);

#ifdef __cplusplus
}
#endif
#endif /* PH_FORMAT_H */
