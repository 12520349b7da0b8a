/* gmon_priv.h -- shared by the gmon importer's files only: the raw records
 * of one or more gmon.out files (gmon_in.c), the executable's symbols and
 * line table (gmon_syms.c), and the step that turns both into a profile
 * (gmon_model.c).  Nothing here is part of the public API.
 */
#ifndef PH_GMON_PRIV_H
#define PH_GMON_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "ir/format.h"

/* ------------------------------------------------------------------ */
/* Raw records (gmon_in.c)                                             */

enum { PH_GMON_TAGGED = 1, PH_GMON_BSD = 2, PH_GMON_BSD44 = 3 };

/* One histogram range.  Records with an identical range (in one file or
 * across merged files) add bin-wise, as gprof -s does. */
typedef struct ph_gmon_hist {
    uint64_t low, high;     /* [low, high) in link-time addresses */
    uint32_t nbins;
    uint32_t rate;          /* ticks per second */
    char dimen[16];         /* NUL-terminated unit name, "seconds" */
    char abbrev;
    uint64_t *bins;         /* nbins counters (sums of u16 per file) */
    uint64_t off;           /* offset of the first record, for messages */
} ph_gmon_hist;

typedef struct ph_gmon_arc {
    uint64_t from, self, count;
    uint64_t off;           /* offset of the record in its file */
} ph_gmon_arc;

typedef struct ph_gmon_bb {
    uint64_t addr, count;
} ph_gmon_bb;

typedef struct ph_gmon_data {
    int ptr_size;           /* 4 or 8, from the executable (host default) */
    int big_endian;
    int kind;               /* PH_GMON_* of the first file */
    uint32_t version;
    ph_gmon_hist *hists;
    size_t nhists;
    ph_gmon_arc *arcs;
    size_t narcs, carcs;
    ph_gmon_bb *bbs;
    size_t nbbs, cbbs;
    unsigned nfiles;
} ph_gmon_data;

/* Parse the records of in and add them to d (several files of one run
 * merge).  0, or -1 with the error (and its offset) recorded in in. */
int ph_gmon_parse(ph_input *in, ph_gmon_data *d);
void ph_gmon_data_free(ph_gmon_data *d);
/* Several files of one run as one profile (also in importers.h). */
int ph_gmon_read_many(ph_input **ins, size_t n, ph_profile *p);

/* ------------------------------------------------------------------ */
/* The executable (gmon_syms.c)                                        */

/* A text symbol as gprof keeps it: [addr, end) runs to the next symbol
 * (whatever section lies between, as the PLT after .init), the last one to
 * the end of its section. */
typedef struct ph_gmon_sym {
    uint64_t addr, end;
    char *name;             /* demangled when possible (malloc) */
    char *mangled;          /* linkage name when it differs, else NULL */
    int is_static, is_func;
    uint32_t line;          /* line at the entry address, 0 unknown */
    uint32_t file;          /* index + 1 into files, 0 unknown */
} ph_gmon_sym;

typedef struct ph_gmon_line {
    uint64_t addr;
    uint32_t line;          /* 0: end of a sequence (no line here) */
    uint32_t file;          /* index + 1 into files */
    uint32_t seq;           /* order in the line program */
} ph_gmon_line;

typedef struct ph_gmon_range {
    uint64_t lo, hi;
} ph_gmon_range;

typedef struct ph_gmon_syms {
    const char *path;
    int ptr_size;           /* 4 or 8 */
    int big_endian;
    int has_symtab;         /* 0: stripped */
    int has_etext;
    uint64_t etext;         /* the "etext" symbol glibc passes to monstartup */
    ph_gmon_range *exec;    /* executable sections */
    size_t nexec;
    ph_gmon_sym *syms;      /* sorted by addr, one per address */
    size_t nsyms;
    ph_gmon_line *lines;    /* sorted by addr */
    size_t nlines;
    char **files;
    size_t nfiles;
    int demangled;          /* 1 when __cxa_demangle was available */
} ph_gmon_syms;

/* Read the symbols (libelf) and line table (libdwarf) of path.  0, or -1
 * with a message (no file name) in err. */
int ph_gmon_syms_load(ph_gmon_syms *s, const char *path, char *err,
                      size_t errsize);
void ph_gmon_syms_free(ph_gmon_syms *s);
/* Index of the first symbol starting above addr (nsyms if none). */
size_t ph_gmon_syms_next(const ph_gmon_syms *s, uint64_t addr);
uint64_t ph_gmon_syms_line_next(const ph_gmon_syms *s, uint64_t addr);
/* Index of the symbol whose range holds addr, or -1. */
long ph_gmon_syms_find(const ph_gmon_syms *s, uint64_t addr);
/* Index of the first line-table row above addr (rows sorted by address;
 * nlines if none). */
size_t ph_gmon_syms_row_after(const ph_gmon_syms *s, uint64_t addr);
/* Line at addr (0 unknown) and its file index + 1 in *file. */
uint32_t ph_gmon_syms_line(const ph_gmon_syms *s, uint64_t addr,
                           uint32_t *file);
/* Whether addr lies in an executable section. */
int ph_gmon_syms_in_text(const ph_gmon_syms *s, uint64_t addr);

/* ------------------------------------------------------------------ */
/* Building the profile (gmon_model.c)                                 */

/* Check that d belongs to the executable s (s NULL: none given), then add
 * the event, functions, rows and calls to p.  0, or -1 with the error
 * recorded in in. */
int ph_gmon_model(ph_input *in, ph_profile *p, const ph_gmon_data *d,
                  const ph_gmon_syms *s);

#endif /* PH_GMON_PRIV_H */
