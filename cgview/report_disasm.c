/* report_disasm.c -- "summary --disasm FN": FN's instruction addresses
 * (callgrind --dump-instr=yes) with their costs in every event, the calls
 * made at each, the jumps from each (--collect-jumps=yes: target, count,
 * for a conditional one taken of executed, as KCachegrind's machine-code
 * view shows them), and the instruction text from objdump when the object
 * file is on this machine (KCachegrind's machine-code view).  The rows
 * come from analysis/instr_costs.c, the text from cgview/objdump.c. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/instr_costs.h"
#include "cgview/objdump.h"
#include "cgview/report.h"

static int shown(const ph_event *ev)
{
    return !(ev->flags & PH_EV_NONADDITIVE);
}

/* Text columns: every event, or the chosen one alone when they do not
 * fit the width with 40 columns left for the instruction (as --annotate
 * does). */
static int column(const ph_report *r, const ph_event *ev)
{
    size_t n = 0;

    if (!shown(ev))
        return 0;
    for (size_t k = 0; k < ph_event_count(r->p); k++)
        n += shown(ph_event_at(r->p, k));
    return 24 * n + 40 <= PH_REPORT_WIDTH || ev == r->ev;
}

static const char *object_name(const ph_report *r, const ph_func *f)
{
    return f->object && f->object->name ? ph_str_get(r->p, f->object->name)
                                        : NULL;
}

/* objdump's text of the range, or a note in d->why. */
static void disassemble(const ph_report *r, const ph_func *f,
                        const ph_instr_costs *ic, ph_disasm *d)
{
    const char *obj = object_name(r, f);

    memset(d, 0, sizeof *d);
    if (ic->n == 0) {
        snprintf(d->why, sizeof d->why, "no instruction addresses (record "
                 "with valgrind --dump-instr=yes)");
        return;
    }
    if (!obj) {
        snprintf(d->why, sizeof d->why, "the object file is unknown");
        return;
    }
    /* 16: past the longest x86 instruction at the last address. */
    ph_disasm_run(obj, ic->rows[0].addr, ic->rows[ic->n - 1].addr + 16, d);
}

/* One event's cost as the text shows it: 23 columns, the number and
 * its percentage of the total. */
static const char *cost_text(const ph_report *r, const ph_event *ev,
                             const int64_t *v, char *buf, size_t size)
{
    char num[40];
    double x = ph_event_eval(r->p, ev, v);
    double pc = ph_report_percent(r, ev, x);

    if (isnan(pc))
        snprintf(buf, size, "%14s %8s", ph_report_number(r, ev, x, num), "");
    else
        snprintf(buf, size, "%14s (%5.2f%%)",
                 ph_report_number(r, ev, x, num), pc);
    return buf;
}

/* "jump to 0x1234 (fn:12): 5 times" or "jcnd to ...: taken 3 of 4". */
static void jump_text(const ph_report *r, const ph_func *f,
                      const ph_instr_jump *j, char *buf, size_t size)
{
    char a[32], b[32], where[PH_REPORT_MAXW + 1] = "", target[32] = "???";
    size_t n;

    if (j->to && j->to != f)
        snprintf(where, sizeof where, " %s", ph_str_get(r->p, j->to->name));
    if (j->target_line)
        snprintf(where + strlen(where), sizeof where - strlen(where),
                 "%sline %u", where[0] ? ":" : " ", j->target_line);
    if (j->target)
        snprintf(target, sizeof target, "0x%llx",
                 (unsigned long long)j->target);
    n = (size_t)snprintf(buf, size, "%11s%s to %s%s: ", "",
                         j->conditional ? "jcnd" : "jump", target, where);
    if (n >= size)
        return;
    if (j->conditional)
        snprintf(buf + n, size - n, "taken %s of %s (%.2f%%)",
                 ph_cli_commas(a, (int64_t)j->followed),
                 ph_cli_commas(b, (int64_t)j->executed),
                 j->executed ? 100.0 * (double)j->followed /
                                   (double)j->executed : 0.0);
    else
        snprintf(buf + n, size - n, "%s time%s",
                 ph_cli_commas(a, (int64_t)j->followed),
                 j->followed == 1 ? "" : "s");
}

/* ------------------------------------------------------------------ */
/* The rows, once for every format                                     */

/* One row per instruction (CSV: the function first); text has the
 * events that fit, the address and objdump's text, and after each
 * instruction a line per call (and its inclusive cost) and per jump.
 * The calls and jumps of the data formats are grids of their own whose
 * rows are ic's calls and jumps, in order. */
typedef struct instr_rows {
    ph_grid *instrs, *calls, *jumps;
    size_t function, address, line, text, self;          /* instrs */
    size_t t_cost0, t_ncost, t_line;                     /* instrs, text */
    size_t c_name, c_calls, c_incl;                      /* calls */
    size_t j_target, j_function, j_line, j_cond, j_exec, j_taken;
    const ph_instr_costs *ic;
    size_t *instr;       /* instrs' row -> ic's row */
} instr_rows;

static void declare_rows(const ph_report *r, instr_rows *x)
{
    ph_grid *g = x->instrs = ph_grid_new(0);

    x->t_cost0 = x->t_ncost = 0;
    for (size_t k = 0; k < ph_event_count(r->p); k++) {
        const ph_event *ev = ph_event_at(r->p, k);
        size_t c;
        if (!column(r, ev))
            continue;
        c = ph_grid_add_col(g, &(ph_grid_col){
            .head = ph_str_get(r->p, ev->name), .sep = " ", .width = 23,
            .flags = PH_GRID_FIXED });
        if (x->t_ncost++ == 0)
            x->t_cost0 = c;
    }
    x->t_line = ph_grid_add_col(g, &(ph_grid_col){
        .head = "address    instruction", .sep = " ",
        .flags = PH_GRID_LEFT });
    x->function = ph_grid_add_col(g, &(ph_grid_col){ .csv = "function" });
    x->address = ph_grid_add_col(g, &(ph_grid_col){
        .key = "address", .csv = "address", .csv_pos = 1 });
    x->line = ph_grid_add_col(g, &(ph_grid_col){ .key = "line", .csv = "line",
                                                .csv_pos = 2 });
    x->text = ph_grid_add_col(g, &(ph_grid_col){
        .key = "text", .csv = "instruction", .csv_pos = 3 });
    x->self = ph_report_cost_cols(r, g,
                                  &(ph_grid_col){ .group = "self", .csv = "",
                                                  .csv_pos = 4 },
                                  NULL);
    g = x->calls = ph_grid_new(1);
    x->c_name = ph_grid_add_col(g, &(ph_grid_col){ .key = "name" });
    x->c_calls = ph_grid_add_col(g, &(ph_grid_col){ .key = "calls" });
    x->c_incl = ph_report_cost_cols(
        r, g, &(ph_grid_col){ .group = "inclusive" }, NULL);
    g = x->jumps = ph_grid_new(1);
    x->j_target = ph_grid_add_col(g, &(ph_grid_col){ .key = "target" });
    x->j_function = ph_grid_add_col(g, &(ph_grid_col){ .key = "function" });
    x->j_line = ph_grid_add_col(g, &(ph_grid_col){ .key = "line" });
    x->j_cond = ph_grid_add_col(g, &(ph_grid_col){ .key = "conditional" });
    x->j_exec = ph_grid_add_col(g, &(ph_grid_col){ .key = "executed" });
    x->j_taken = ph_grid_add_col(g, &(ph_grid_col){ .key = "taken" });
    x->instr = NULL;
}

static void free_rows(instr_rows *x)
{
    ph_grid_free(x->instrs);
    ph_grid_free(x->calls);
    ph_grid_free(x->jumps);
    free(x->instr);
}

static const char *hex(char *buf, uint64_t v)
{
    snprintf(buf, 32, "0x%llx", (unsigned long long)v);
    return buf;
}

/* The text table's cost cells of the current row from v. */
static void cost_cells(const ph_report *r, const instr_rows *x,
                       const int64_t *v)
{
    size_t col = x->t_cost0;
    char buf[80];

    for (size_t k = 0; k < ph_event_count(r->p); k++) {
        const ph_event *ev = ph_event_at(r->p, k);
        if (column(r, ev))
            ph_grid_text(x->instrs, col++, cost_text(r, ev, v, buf,
                                                     sizeof buf));
    }
}

/* A line of the text table after an instruction. */
static void text_line(instr_rows *x, const char *text)
{
    ph_grid_row(x->instrs);
    ph_grid_text_only(x->instrs);
    ph_grid_text(x->instrs, x->t_line, text);
}

static void instr_row(const ph_report *r, const ph_func *f,
                      const ph_instr_row *row, const ph_disasm *d,
                      instr_rows *x)
{
    ph_grid *g = x->instrs;
    const char *text = ph_disasm_at(d, row->addr);
    char addr[32], line[PH_REPORT_MAXW + 64];

    ph_grid_row(g);
    ph_grid_str(g, x->function, ph_str_get(r->p, f->name));
    ph_grid_str(g, x->address, hex(addr, row->addr));
    ph_grid_uint(g, x->line, row->line);
    ph_grid_str(g, x->text, text);
    ph_report_cost_cells(r, g, x->self, row->cost);
    cost_cells(r, x, row->cost);
    if (text)
        snprintf(line, sizeof line, "0x%-8llx %s",
                 (unsigned long long)row->addr, text);
    else
        snprintf(line, sizeof line, "%s", addr);
    ph_grid_text(g, x->t_line, line);
    x->instr[ph_grid_rows(g) - 1] = (size_t)(row - x->ic->rows);
    for (size_t c = row->call0; c < row->call0 + row->ncalls; c++) {
        const ph_instr_call *cl = &x->ic->calls[c];
        snprintf(line, sizeof line, "%11s-> %llu call%s to %s", "",
                 (unsigned long long)cl->count, cl->count == 1 ? "" : "s",
                 ph_str_get(r->p, cl->callee->name));
        text_line(x, line);
        if (cl->incl) {
            text_line(x, "           (inclusive)");
            cost_cells(r, x, cl->incl);
        }
    }
    for (size_t j = row->jump0; j < row->jump0 + row->njumps; j++) {
        jump_text(r, f, &x->ic->jumps[j], line, sizeof line);
        text_line(x, line);
    }
}

static void fill_rows(const ph_report *r, const ph_func *f,
                      const ph_instr_costs *ic, const ph_disasm *d,
                      instr_rows *x)
{
    char addr[32];
    size_t nrows = ic->n + 2 * ic->ncalls + ic->njumps;

    x->ic = ic;
    x->instr = ph_xrealloc(x->instr, (nrows + 1) * sizeof *x->instr);
    ph_grid_clear(x->instrs);
    ph_grid_clear(x->calls);
    ph_grid_clear(x->jumps);
    for (size_t i = 0; i < ic->n; i++)
        instr_row(r, f, &ic->rows[i], d, x);
    for (size_t c = 0; c < ic->ncalls; c++) {
        const ph_instr_call *cl = &ic->calls[c];
        ph_grid_row(x->calls);
        ph_grid_str(x->calls, x->c_name, ph_str_get(r->p, cl->callee->name));
        ph_grid_uint(x->calls, x->c_calls, cl->count);
        if (cl->incl)
            ph_report_cost_cells(r, x->calls, x->c_incl, cl->incl);
    }
    for (size_t k = 0; k < ic->njumps; k++) {
        const ph_instr_jump *j = &ic->jumps[k];
        ph_grid_row(x->jumps);
        ph_grid_str(x->jumps, x->j_target,
                    j->target ? hex(addr, j->target) : NULL);
        ph_grid_str(x->jumps, x->j_function,
                    j->to ? ph_str_get(r->p, j->to->name) : NULL);
        ph_grid_uint(x->jumps, x->j_line, j->target_line);
        ph_grid_bool(x->jumps, x->j_cond, j->conditional);
        ph_grid_uint(x->jumps, x->j_exec, j->executed);
        ph_grid_uint(x->jumps, x->j_taken, j->followed);
    }
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

static void print_func(const ph_report *r, const ph_func *f,
                       const ph_instr_costs *ic, const ph_disasm *d,
                       const instr_rows *x, FILE *out)
{
    const char *obj = object_name(r, f);
    char fit[PH_REPORT_MAXW + 1], buf[80];

    fprintf(out, "\n-- Machine code of %s", ph_report_fit(fit, sizeof fit,
                 ph_str_get(r->p, f->name), 60));
    fprintf(out, " (%s): %zu address%s\n", obj ? obj : "???", ic->n,
            ic->n == 1 ? "" : "es");
    if (d->why[0] && ic->n == 0)
        fprintf(out, "   (%s)\n", d->why);
    else if (d->why[0])
        fprintf(out, "   (no disassembly: %s; addresses and costs only)\n",
                d->why);
    if (ic->unplaced)
        fprintf(out, "   (%zu record%s without an address not listed)\n",
                ic->unplaced, ic->unplaced == 1 ? "" : "s");
    ph_grid_print_text(x->instrs, out);
    fputs("-- Self cost summed: ", out);
    for (size_t k = 0; k < ph_event_count(r->p); k++)
        if (column(r, ph_event_at(r->p, k)))
            fprintf(out, "%s ", cost_text(r, ph_event_at(r->p, k), ic->self,
                                          buf, sizeof buf));
    fputc('\n', out);
}

/* ------------------------------------------------------------------ */
/* Data                                                                */

/* An instruction's calls, and its jumps when it has some (only with
 * jump data: the shape grows). */
static void emit_calls_jumps(ph_emit *em, size_t i, void *ctx)
{
    const instr_rows *x = ctx;
    const ph_instr_row *row = &x->ic->rows[x->instr[i]];

    ph_emit_key(em, "calls");
    ph_grid_emit_rows(x->calls, em, row->call0, row->call0 + row->ncalls,
                      NULL, NULL);
    if (row->njumps) {
        ph_emit_key(em, "jumps");
        ph_grid_emit_rows(x->jumps, em, row->jump0,
                          row->jump0 + row->njumps, NULL, NULL);
    }
}

static void emit_func(ph_report *r, ph_emit *em, const ph_func *f,
                      const ph_instr_costs *ic, const ph_disasm *d,
                      instr_rows *x)
{
    ph_emit_map(em, 0);
    ph_emit_key(em, "name");
    ph_emit_str(em, ph_str_get(r->p, f->name));
    ph_emit_key(em, "object");
    ph_emit_str(em, object_name(r, f));
    ph_emit_key(em, "self");
    ph_report_emit_costs(r, em, ic->self);
    ph_emit_key(em, "disassembly");
    ph_emit_str(em, d->why[0] ? NULL : "objdump -d -C -w");
    ph_emit_key(em, "note");
    ph_emit_str(em, d->why[0] ? d->why : NULL);
    ph_emit_key(em, "instructions");
    ph_grid_emit_rows(x->instrs, em, 0, ph_grid_rows(x->instrs),
                      emit_calls_jumps, x);
    ph_emit_end(em);
}

int ph_report_disasm(ph_report *r)
{
    const ph_func **fs = NULL;
    ph_emit *em = NULL;
    size_t i, n;
    instr_rows x;

    if ((n = ph_report_matching(r, &fs)) == 0)
        return PH_EXIT_BAD;
    declare_rows(r, &x);
    em = ph_report_funcs_begin(r, x.instrs);
    for (i = 0; i < n; i++) {
        ph_instr_costs ic;
        ph_disasm d;
        ph_instr_costs_collect(r->p, fs[i], ph_report_part(r), &ic);
        disassemble(r, fs[i], &ic, &d);
        if (d.why[0] && ic.n && r->fmt != PH_REPORT_TEXT)
            ph_cli_warning("%s: no disassembly: %s",
                           ph_str_get(r->p, fs[i]->name), d.why);
        fill_rows(r, fs[i], &ic, &d, &x);
        if (r->fmt == PH_REPORT_TEXT)
            print_func(r, fs[i], &ic, &d, &x, stdout);
        else if (r->fmt == PH_REPORT_CSV)
            ph_grid_print_csv_rows(x.instrs, stdout);
        else
            emit_func(r, em, fs[i], &ic, &d, &x);
        ph_disasm_free(&d);
        ph_instr_costs_free(&ic);
    }
    free_rows(&x);
    free(fs);
    return ph_report_funcs_end(em, PH_EXIT_OK);
}
