/* out_strings.h -- the string table of the protobuf writers (pprof,
 * drcctprof): the profile's strings by handle (each text has one handle),
 * written from the profile without keeping their text (a compound name's
 * text is made in a buffer), and the writer's own texts (units,
 * metadata), each once.  Index 0 is "".  Exporters only. */
#ifndef PH_OUT_STRINGS_H
#define PH_OUT_STRINGS_H

#include "analysis/analysis.h"
#include "ir/ir.h"
#include "proto/pb_out.h"

typedef struct ph_out_strings {
    const ph_profile *p;
    ph_str *str;          /* per index: the profile's string, or 0 */
    const char **own;     /* per index: the writer's text, when str is 0 */
    size_t n, cap;
    uint32_t *by_str;     /* ph_str -> index + 1 (0 = not yet) */
    size_t written;       /* entries already written */
} ph_out_strings;

void ph_out_strings_init(ph_out_strings *t, const ph_profile *p);
/* The index of a profile's string (0 for 0). */
int64_t ph_out_str(ph_out_strings *t, ph_str s);
/* The index of a text of the writer's own, kept by pointer until the
 * table is written (0 for NULL and ""). */
int64_t ph_out_text(ph_out_strings *t, const char *text);
/* The entries not written yet, in index order, as occurrences of field
 * `field` (a repeated field's occurrences add up in the order they come,
 * wherever they are in the message). */
void ph_out_strings_write(ph_out_strings *t, ph_pb_out *ob, unsigned field);
void ph_out_strings_free(ph_out_strings *t);

/* The table's next entries are the names of the functions with rows or
 * calls (a tree's functions are named as a writer meets them), written as
 * above by a second thread while this one builds the stack view
 * (ph_stacks_of), which it returns: the names' text (a compound name is
 * made from its parts: --separate-callers names are 40% of a callgrind
 * file) and a gzip output's compression then take the processor the view
 * leaves idle. */
const ph_stacks *ph_out_names_and_view(ph_out_strings *t, ph_pb_out *ob,
                                       unsigned field);

#endif /* PH_OUT_STRINGS_H */
