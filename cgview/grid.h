/* grid.h -- the rows of a report, built once and written in every format:
 * columns are declared once (where each goes in the text table, the CSV
 * header and the JSON/YAML row map), rows are added once, and the grid
 * writes them as an aligned text table, CSV rows, or a list of maps
 * through the report emitter (emit.h).  Only cgview/ uses it.
 *
 * Usage: g = ph_grid_new(); name = ph_grid_add_col(g, &(ph_grid_col){ .key =
 * "name", .csv = "name", .head = "function", .flags = PH_GRID_FILL });
 * ph_grid_row(g); ph_grid_str(g, name, "main"); ...
 * ph_grid_print_csv(g, stdout); ph_grid_free(g); */
#ifndef PH_GRID_H
#define PH_GRID_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cgview/emit.h"

typedef struct ph_grid ph_grid;

enum {
    /* Text: the width is printf's "%*s" (longer cells overflow, and
     * what overflows comes off the room of the row's PH_GRID_FILL cell),
     * not measured from the cells. */
    PH_GRID_FIXED = 1u << 0,
    /* Text: the last column, left-aligned, fitted (ph_report_fit) into
     * max(width of the line - columns before it + slack, width); a cell's
     * note follows it after two spaces while both fit. */
    PH_GRID_FILL = 1u << 1,
    /* Data: a string of space-separated words written as a flow list
     * (CSV keeps the string). */
    PH_GRID_WORDS = 1u << 2,
    /* Text: left-aligned; the last column is not padded. */
    PH_GRID_LEFT = 1u << 3,
    /* Data: a row whose cell is unset leaves the key out (no null); on
     * a group's first column, a row whose group is all unset leaves the
     * group out. */
    PH_GRID_OPTIONAL = 1u << 4,
    /* Data: the rows are a map keyed by this column's cell ("Ir": {base:
     * 1, new: 2}), each row a map of its other keys, instead of a list
     * of row maps. */
    PH_GRID_KEY = 1u << 5,
    /* Text: an empty cell is left out with the text before it; with
     * PH_GRID_FILL, so is every cell when the room is under the width. */
    PH_GRID_ELIDE = 1u << 6,
};

typedef struct ph_grid_col {
    /* JSON/YAML: the key in the row's map, or in the flow map named
     * group (consecutive columns of one group share the map; a row whose
     * cells of a group are all unset writes the group as null; a group
     * column without a key writes nothing, and setting its cell writes
     * an empty group as {}).  NULL: not in the data formats.  The grid
     * copies the strings of a column. */
    const char *key;
    const char *group;
    /* CSV: the header; NULL: not in CSV.  csv_pos orders the CSV columns
     * (ascending; equal ones in declaration order). */
    const char *csv;
    int csv_pos;
    /* Text: the heading (NULL: not in text), the text before the column
     * (NULL: two spaces; nothing before the first), the least width. */
    const char *head;
    const char *sep;
    int width;
    int slack;        /* PH_GRID_FILL: see above */
    unsigned flags;   /* PH_GRID_* */
} ph_grid_col;

/* A new grid; row maps are written in flow style when flow is 1, and
 * the list of them too when flow is 2. */
ph_grid *ph_grid_new(int flow);
void ph_grid_free(ph_grid *g);
/* Drop the rows, keep the columns (a report that prints in blocks). */
void ph_grid_clear(ph_grid *g);
/* Declare a column (before the first row); returns its index. */
size_t ph_grid_add_col(ph_grid *g, const ph_grid_col *c);
size_t ph_grid_rows(const ph_grid *g);

/* Start the next row: every cell unset (data: null; CSV and text: empty). */
void ph_grid_row(ph_grid *g);
/* The cells of the current row.  A value is what the data formats and
 * CSV write, and the text table too unless ph_grid_text gave the cell
 * its own text.  Strings are copied; ph_grid_str(NULL) is null. */
void ph_grid_str(ph_grid *g, size_t col, const char *s);
void ph_grid_int(ph_grid *g, size_t col, int64_t v);
void ph_grid_uint(ph_grid *g, size_t col, uint64_t v);
void ph_grid_num(ph_grid *g, size_t col, double v);
void ph_grid_bool(ph_grid *g, size_t col, int v);
/* A number already formatted ("0.3443"), written as a number. */
void ph_grid_number_text(ph_grid *g, size_t col, const char *text);
void ph_grid_null(ph_grid *g, size_t col);
/* The cell's text in the text table; note: a PH_GRID_FILL cell's note. */
void ph_grid_text(ph_grid *g, size_t col, const char *text);
void ph_grid_note(ph_grid *g, size_t col, const char *note);
/* The current row is in CSV, JSON and YAML but not in the text table;
 * or in the text table only ("(no callers)"). */
void ph_grid_data_only(ph_grid *g);
void ph_grid_text_only(ph_grid *g);
/* A row that is a line of its own in the text table (a rule, a note),
 * printed as text; not in the other formats.  The grid needs a column. */
void ph_grid_line(ph_grid *g, const char *text);

/* The heading line and the rows, aligned.  The heading ends at the
 * last column with a non-empty heading. */
void ph_grid_print_text(const ph_grid *g, FILE *out);
/* The rows without the heading, each line after indent. */
void ph_grid_print_rows(const ph_grid *g, FILE *out, const char *indent);
/* The header line and the rows; or only the header, or only the rows
 * (a report that prints its rows in blocks). */
void ph_grid_print_csv(const ph_grid *g, FILE *out);
void ph_grid_print_csv_head(const ph_grid *g, FILE *out);
void ph_grid_print_csv_rows(const ph_grid *g, FILE *out);
/* A list of the row maps into em (a map of them with PH_GRID_KEY). */
void ph_grid_emit(const ph_grid *g, ph_emit *em);
/* The same for the rows from..to-1; more, when not NULL, adds keys of
 * its own to row i's map after the grid's (a nested list). */
typedef void (*ph_grid_more)(ph_emit *em, size_t row, void *ctx);
void ph_grid_emit_rows(const ph_grid *g, ph_emit *em, size_t from,
                       size_t to, ph_grid_more more, void *ctx);
/* One flow map of column val's cells keyed by column key's ("totals":
 * {Ir: 1, Dr: 2}), the rows in the data formats. */
void ph_grid_emit_pairs(const ph_grid *g, ph_emit *em, size_t key,
                        size_t val);
/* The keys of row i into a map the caller opened (and closes). */
void ph_grid_emit_row(const ph_grid *g, ph_emit *em, size_t i);

#endif /* PH_GRID_H */
