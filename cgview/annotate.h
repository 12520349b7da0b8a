/* annotate.h -- line costs and call lines behind --annotate (annotate.c),
 * for report_annotate.c.  Lines of one function, or of one whole source
 * file (every function's code in it, as callgrind_annotate and cg_annotate
 * annotate a file), each with the calls made from it merged per callee. */
#ifndef PH_CGVIEW_ANNOTATE_H
#define PH_CGVIEW_ANNOTATE_H

#include "cgview/report.h"
#include "ir/idmap.h"

typedef struct ph_call_line {
    const ph_func *callee;
    uint64_t count;          /* calls from this line, every record summed */
    int64_t *incl;           /* nreal values */
    int known;               /* some record had an inclusive cost */
} ph_call_line;

typedef struct ph_line_cost {
    const ph_file *file;
    uint32_t line;           /* 0: costs at no known line */
    int64_t *cost;           /* nreal values: self cost of the line */
    int64_t *cum;            /* context trees: the cost of every stack
                              * through the line, once (pprof -list's
                              * cum); NULL for flat data */
    ph_call_line *calls;
    size_t ncalls, calls_cap;
} ph_line_cost;

typedef struct ph_vec_block ph_vec_block;

typedef struct ph_lines {
    ph_line_cost *v;
    size_t n, cap, w;
    ph_vec_block *vecs;      /* the cost vectors, freed together */
    /* while collecting: (file id, line) -> entry, and (entry, callee id)
     * -> call, so that each line and call is one entry however the
     * records come (a file's every function calling one callee) */
    ph_idmap line_of, call_of;
} ph_lines;

/* The functions with rows or calls in each file, in function order, so
 * that a file's lines come from its own functions, not from a walk over
 * every function's rows for each file (a pattern that matches thousands
 * of functions annotates hundreds of files).  Every part's: a function
 * listed for a file it has code in only in another part adds nothing. */
typedef struct ph_file_funcs ph_file_funcs;
ph_file_funcs *ph_file_funcs_new(const ph_profile *p);
void ph_file_funcs_free(ph_file_funcs *ff);

/* Lines of f (in file, or in every file when file is NULL), or of every
 * function's code in file (f NULL; from r->file_funcs' functions of file
 * when set), sorted by (file, line), equal lines and calls merged. */
void ph_lines_collect(const ph_report *r, const ph_func *f,
                      const ph_file *file, ph_lines *ls);
void ph_lines_free(ph_lines *ls);

#endif /* PH_CGVIEW_ANNOTATE_H */
