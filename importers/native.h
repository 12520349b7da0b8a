/* native.h -- private to importers/native_in.c and native_sym.c: the
 * symboliser that turns recorded addresses into functions, files, lines
 * and inlined frames, against the memory map the runtime recorded. */
#ifndef PH_NATIVE_H
#define PH_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

typedef struct ph_nsym ph_nsym;

/* One frame of a resolved address, outermost first: the function the
 * ELF symbol names, then each function inlined into it (PH_FRAME_INLINED)
 * down to the innermost.  line/file: the position in that frame. */
typedef struct ph_nframe {
    ph_func *func;
    ph_object *obj;
    ph_file *file;
    uint32_t line;
    uint32_t flags;
} ph_nframe;

#define PH_NSYM_MAX_FRAMES 8

/* ------------------------------------------------------------------ */
/* Per-object tables, shared by native_sym.c (ELF, lookups) and        */
/* native_dwarf.c (lines, inlined subroutines).                        */

typedef struct ph_nfsym {
    uint64_t addr, size;
    char *name;
} ph_nfsym;

typedef struct ph_nrow {
    uint64_t addr;
    uint32_t line;      /* 0: end of a sequence (a gap) */
    ph_file *file;
} ph_nrow;

typedef struct ph_ninl {
    uint64_t lo, hi;
    uint32_t depth;
    ph_str name;
    ph_file *call_file;
    uint32_t call_line;
} ph_ninl;

typedef struct ph_nseg {
    uint64_t off, vaddr, filesz;
} ph_nseg;

typedef struct ph_nobj {
    char *path;
    ph_object *obj;
    ph_nfsym *syms;
    size_t nsyms;
    ph_nrow *rows;
    size_t nrows, caprows;
    ph_ninl *inls;
    size_t ninls, capinls;
    ph_nseg *segs;
    size_t nsegs;
    struct ph_nobj *next;
} ph_nobj;

/* Read the DWARF line table and inlined subroutines of eo->path into
 * eo->rows (sorted) and eo->inls; nothing when the file has no DWARF. */
void ph_nsym_load_dwarf(ph_profile *p, ph_nobj *eo);

/* The inlined subroutine at nesting depth (1 = inlined into a real
 * function) whose range holds va, or NULL.  eo->inls is sorted by (depth,
 * lo): a binary search per depth. */
const ph_ninl *ph_nsym_find_inline(const ph_nobj *eo, uint32_t depth,
                                   uint64_t va);

ph_nsym *ph_nsym_new(ph_profile *p);
void ph_nsym_free(ph_nsym *s);

/* Mappings of one process image (instance); later ones win on overlap. */
void ph_nsym_add_map(ph_nsym *s, uint64_t instance, uint64_t start,
                     uint64_t end, uint64_t offset, const char *path,
                     size_t pathlen);

/* Resolve addr in instance into at most PH_NSYM_MAX_FRAMES frames
 * (returns the count, at least 1).  An address outside every mapping or
 * without a symbol becomes a function named by its hex address, kept in
 * its object when it has one.  Results are cached per address. */
size_t ph_nsym_resolve(ph_nsym *s, uint64_t instance, uint64_t addr,
                       const ph_nframe **frames);

#endif /* PH_NATIVE_H */
