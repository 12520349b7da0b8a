/* emit.h -- structured output for the reports (summary, diff, info,
 * formats): one sequence of calls (maps, lists, keys, scalars) written as
 * JSON, as YAML through libyaml's emitter, or as CSV rows "key,value" (a
 * header line, then one row per scalar named by its path of keys and
 * 0-based list indexes: "events.0.name,Ir"; null is an empty field); and
 * CSV fields for the reports that are tables (grid.h writes the tables
 * built on it).  Only cgview/ uses it.
 *
 * Usage: e = ph_emit_new(stdout, PH_REPORT_JSON); ph_emit_map(e, 0);
 * ph_emit_key(e, "name"); ph_emit_str(e, "main"); ... ph_emit_end(e);
 * rc = ph_emit_free(e);  (0, or -1 when the output failed). */
#ifndef PH_EMIT_H
#define PH_EMIT_H

#include <stdint.h>
#include <stdio.h>

#include "cgview/cli.h"

typedef struct ph_emit ph_emit;

/* fmt is PH_REPORT_JSON, PH_REPORT_YAML or PH_REPORT_CSV.  Never NULL. */
ph_emit *ph_emit_new(FILE *out, ph_report_format fmt);
/* Finish the document and free; 0, or -1 when writing failed. */
int ph_emit_free(ph_emit *e);

/* Open a map or a list; flow = 1 keeps it on one line ({"a": 1} / {a: 1}).
 * Close with ph_emit_end. */
void ph_emit_map(ph_emit *e, int flow);
void ph_emit_list(ph_emit *e, int flow);
void ph_emit_end(ph_emit *e);

/* Inside a map: the key of the next value. */
void ph_emit_key(ph_emit *e, const char *key);

/* Scalars.  ph_emit_str(NULL) writes null.  ph_emit_num writes integral
 * values without a fraction and others with the fewest digits that read
 * back to the same double; NaN and infinities are written as null. */
void ph_emit_str(ph_emit *e, const char *s);
void ph_emit_null(ph_emit *e);
void ph_emit_int(ph_emit *e, int64_t v);
void ph_emit_uint(ph_emit *e, uint64_t v);
void ph_emit_num(ph_emit *e, double v);
void ph_emit_bool(ph_emit *e, int v);
/* A number already formatted by the caller ("0.3443"), written as is. */
void ph_emit_number_text(ph_emit *e, const char *text);

/* Shortest text of v that reads back as v ("12", "0.25"); buf >= 40. */
const char *ph_emit_format_num(char *buf, double v);

/* CSV: one field, preceded by a comma unless first. */
void ph_csv_str(FILE *out, const char *s, int first);

#endif /* PH_EMIT_H */
