/* report_head.c -- the summary report's header: the profile, its parts,
 * its events with their totals.  The parts and the events are rows of a
 * grid built once; the text header and the data header ("profile",
 * "events" and "totals" keys) are both written from them. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "cgview/report.h"

typedef struct head {
    ph_grid *parts, *events;
    size_t ev_name, ev_total;   /* the columns "totals" comes from */
} head;

static const char *part_label(const ph_profile *p, const ph_part *pt,
                              char *buf, size_t size)
{
    if (pt->tid >= 0 && pt->name)
        snprintf(buf, size, "thread %" PRId64 " (%s)", pt->tid,
                 ph_str_get(p, pt->name));
    else if (pt->name)
        snprintf(buf, size, "%s", ph_str_get(p, pt->name));
    else if (pt->tid >= 0)
        snprintf(buf, size, "thread %" PRId64, pt->tid);
    else if (pt->number >= 0)
        snprintf(buf, size, "%s %" PRId64, ph_cli_part_kind(pt->kind),
                 pt->number);
    else
        snprintf(buf, size, "%s", ph_cli_part_kind(pt->kind));
    return buf;
}

/* Text: "parts:    N, ...", then "%8u* label" for the first 32 parts. */
static ph_grid *parts_grid(const ph_report *r)
{
    ph_profile *p = r->p;
    ph_grid *g = ph_grid_new(1);
    size_t i, n = ph_part_count(p), part, mark, kind, name, thread, sel;
    char label[256];

    part = ph_grid_add_col(g, &(ph_grid_col){ .key = "part", .head = "",
                                              .width = 8,
                                              .flags = PH_GRID_FIXED });
    mark = ph_grid_add_col(g, &(ph_grid_col){ .head = "", .sep = "",
                                              .flags = PH_GRID_LEFT });
    kind = ph_grid_add_col(g, &(ph_grid_col){ .key = "kind" });
    name = ph_grid_add_col(g, &(ph_grid_col){ .key = "name", .head = "",
                                              .sep = " ", .slack = -1,
                                              .flags = PH_GRID_FILL });
    thread = ph_grid_add_col(g, &(ph_grid_col){ .key = "thread" });
    sel = ph_grid_add_col(g, &(ph_grid_col){ .key = "selected" });
    snprintf(label, sizeof label, "parts:    %zu, ", n);
    if (r->topts.part == PH_ALL_PARTS)
        snprintf(label + strlen(label), sizeof label - strlen(label),
                 "all summed");
    else
        snprintf(label + strlen(label), sizeof label - strlen(label),
                 "showing part %d only",
                 r->topts.part + 1);
    ph_grid_line(g, label);
    for (i = 0; i < n; i++) {
        const ph_part *pt = ph_part_at(p, i);
        ph_grid_row(g);
        ph_grid_uint(g, part, i + 1);
        ph_grid_text(g, mark, (int)i == r->topts.part ? "*" : " ");
        ph_grid_str(g, kind, ph_cli_part_kind(pt->kind));
        ph_grid_str(g, name, part_label(p, pt, label, sizeof label));
        if (pt->tid >= 0)
            ph_grid_int(g, thread, pt->tid);
        else
            ph_grid_null(g, thread);
        ph_grid_bool(g, sel, r->topts.part == PH_ALL_PARTS ||
                                 r->topts.part == (int)i);
        if (i >= 32)
            ph_grid_data_only(g);
    }
    if (n > 32) {
        snprintf(label, sizeof label, "          ... %zu more", n - 32);
        ph_grid_line(g, label);
    }
    return g;
}

/* The description after an event's total: long name, unit, formula. */
static void event_desc(const ph_profile *p, const ph_event *e, char *desc,
                       size_t size)
{
    const char *unit = NULL;
    size_t l;

    desc[0] = '\0';
    if (e->long_name)
        snprintf(desc, size, "%s", ph_str_get(p, e->long_name));
    l = strlen(desc);
    if (ph_event_shown(p, e, &unit, NULL) != 1.0 && unit)
        snprintf(desc + l, size - l, "%sshown in %s", l ? ", " : "", unit);
    l = strlen(desc);
    if (e->flags & PH_EV_DERIVED)
        snprintf(desc + l, size - l, "%s= %s", l ? " " : "",
                 ph_str_get(p, e->formula));
}

static const char *str_or_null(const ph_profile *p, ph_str s)
{
    return s ? ph_str_get(p, s) : NULL;
}

/* Text: "events:  NAME TOTAL  description", names fitted into the
 * longest one's width (4 to 16). */
static ph_grid *events_grid(const ph_report *r, head *h)
{
    ph_profile *p = r->p;
    ph_grid *g = ph_grid_new(1);
    size_t i, n = ph_event_count(p), wn = 4, label, lname, formula, unit;
    size_t scale, desc_col, row = 0;
    char fit[PH_REPORT_MAXW + 1], num[40], desc[512];

    for (i = 0; i < n; i++) {
        const ph_event *e = ph_event_at(p, i);
        size_t len = ph_report_shown_len(ph_str_get(p, e->name));
        if (ph_report_event_shown(e) && len > wn)
            wn = len;
    }
    if (wn > 16)
        wn = 16;
    label = ph_grid_add_col(g, &(ph_grid_col){ .head = "", .width = 9,
                                               .flags = PH_GRID_LEFT });
    h->ev_name = ph_grid_add_col(g, &(ph_grid_col){
        .key = "name", .head = "", .sep = " ", .width = (int)wn,
        .flags = PH_GRID_FIXED | PH_GRID_LEFT });
    h->ev_total = ph_grid_add_col(g, &(ph_grid_col){ .head = "", .sep = " ",
                                                     .width = 5 });
    lname = ph_grid_add_col(g, &(ph_grid_col){ .key = "long_name" });
    formula = ph_grid_add_col(g, &(ph_grid_col){ .key = "formula" });
    unit = ph_grid_add_col(g, &(ph_grid_col){ .key = "unit" });
    scale = ph_grid_add_col(g, &(ph_grid_col){ .key = "scale" });
    /* the description when 8 columns are left for it */
    desc_col = ph_grid_add_col(g, &(ph_grid_col){
        .head = "", .width = 8, .flags = PH_GRID_FILL | PH_GRID_ELIDE });
    for (i = 0; i < n; i++) {
        const ph_event *e = ph_event_at(p, i);
        double total = ph_event_eval(p, e, r->table->totals);
        if (!ph_report_event_shown(e))
            continue;
        ph_grid_row(g);
        ph_grid_text(g, label, row++ ? "" : "events:");
        ph_grid_str(g, h->ev_name, ph_str_get(p, e->name));
        ph_grid_text(g, h->ev_name, ph_report_fit(fit, sizeof fit,
                                                  ph_str_get(p, e->name), wn));
        if (e->flags & PH_EV_DERIVED)
            ph_grid_num(g, h->ev_total, total);
        else
            ph_grid_int(g, h->ev_total, r->table->totals[e->slot]);
        ph_grid_text(g, h->ev_total, ph_report_number(r, e, total, num));
        ph_grid_str(g, lname, str_or_null(p, e->long_name));
        ph_grid_str(g, formula, str_or_null(p, e->formula));
        /* Values stay the raw counts; value * scale is in unit (gmon's
         * ticks: scale 1/rate, unit seconds), as info says it too. */
        ph_grid_str(g, unit, str_or_null(p, e->unit));
        ph_grid_num(g, scale, e->scale != 0 ? e->scale : 1.0);
        event_desc(p, e, desc, sizeof desc);
        ph_grid_text(g, desc_col, desc);
    }
    return g;
}

static void head_build(const ph_report *r, head *h)
{
    h->parts = parts_grid(r);
    h->events = events_grid(r, h);
}

static void head_free(head *h)
{
    ph_grid_free(h->parts);
    ph_grid_free(h->events);
}

void ph_report_print_head(ph_report *r, FILE *out)
{
    ph_profile *p = r->p;
    const char *fmt = ph_profile_format(p) ? ph_profile_format(p) : "?";
    const char *cmd = ph_meta_get(p, "cmd");
    const char *approx = r->approx ? r->approx : ph_profile_approx(p);
    char fit[PH_REPORT_MAXW + 1];
    head h;

    head_build(r, &h);
    fprintf(out, "profile:  %s (%s)\n",
            ph_report_fit(fit, sizeof fit, r->path,
                          PH_REPORT_WIDTH - 13 - strlen(fmt)),
            fmt);
    if (cmd)
        fprintf(out, "command:  %s\n",
                ph_report_fit(fit, sizeof fit, cmd, PH_REPORT_WIDTH - 10));
    if (ph_part_count(p) > 1)
        ph_grid_print_rows(h.parts, out, "");
    ph_grid_print_rows(h.events, out, "");
    if (approx)
        fprintf(out, "note:     %s\n",
                ph_report_fit(fit, sizeof fit, approx, PH_REPORT_WIDTH - 10));
    head_free(&h);
}

void ph_report_emit_head(ph_report *r, ph_emit *e)
{
    head h;

    head_build(r, &h);
    ph_emit_key(e, "profile");
    ph_emit_map(e, 0);
    ph_emit_key(e, "format");
    ph_emit_str(e, ph_profile_format(r->p));
    ph_emit_key(e, "command");
    ph_emit_str(e, ph_meta_get(r->p, "cmd"));
    ph_emit_key(e, "parts");
    ph_grid_emit(h.parts, e);
    ph_emit_end(e);
    ph_emit_key(e, "events");
    ph_grid_emit(h.events, e);
    ph_emit_key(e, "totals");
    ph_grid_emit_pairs(h.events, e, h.ev_name, h.ev_total);
    head_free(&h);
}
