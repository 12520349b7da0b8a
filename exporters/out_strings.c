/* out_strings.c -- the protobuf writers' string table (out_strings.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exporters/out_strings.h"
#include "ir/jobs.h"

static int64_t add_entry(ph_out_strings *t, ph_str s, const char *own)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->str = ph_xrealloc(t->str, t->cap * sizeof *t->str);
        t->own = ph_xrealloc(t->own, t->cap * sizeof *t->own);
    }
    t->str[t->n] = s;
    t->own[t->n] = own;
    return (int64_t)t->n++;
}

void ph_out_strings_init(ph_out_strings *t, const ph_profile *p)
{
    memset(t, 0, sizeof *t);
    t->p = p;
    t->by_str = ph_xcalloc_written((size_t)ph_str_count(p) + 1,
                                   sizeof *t->by_str);
    add_entry(t, 0, "");
}

int64_t ph_out_str(ph_out_strings *t, ph_str s)
{
    if (!s)
        return 0;
    if (!t->by_str[s])
        t->by_str[s] = (uint32_t)add_entry(t, s, NULL) + 1;
    return (int64_t)t->by_str[s] - 1;
}

/* A writer has a few texts of its own: they are searched in turn. */
int64_t ph_out_text(ph_out_strings *t, const char *text)
{
    if (!text || !*text)
        return 0;
    for (size_t i = 1; i < t->n; i++)
        if (!t->str[i] && !strcmp(t->own[i], text))
            return (int64_t)i;
    return add_entry(t, 0, text);
}

void ph_out_strings_write(ph_out_strings *t, ph_pb_out *ob, unsigned field)
{
    char *buf = NULL;
    size_t cap = 0;
    for (size_t i = t->written; i < t->n; i++) {
        const char *s = t->str[i] ? ph_str_text(t->p, t->str[i], &buf, &cap)
                                  : t->own[i];
        ph_pb_out_bytes(ob, field, s, strlen(s));
    }
    t->written = t->n;
    free(buf);
}

typedef struct names_or_view {
    ph_out_strings *t;
    ph_pb_out *ob;
    unsigned field;         /* the names' side; 0: the view's */
    const ph_stacks *st;
} names_or_view;

static void names_or_view_run(void *arg)
{
    names_or_view *s = arg;
    if (s->field)
        ph_out_strings_write(s->t, s->ob, s->field);
    else
        s->st = ph_stacks_of(s->t->p);
}

/* Whether f has rows or makes calls: a function of flat data that the
 * stack view shows (gprof's symbols without samples or arcs are not). */
static int shown_flat(const ph_profile *p, const ph_func *f)
{
    ph_call_iter calls;
    return ph_func_has_rows(p, f) || ph_calls_out(&calls, p, f) != NULL;
}

const ph_stacks *ph_out_names_and_view(ph_out_strings *t, ph_pb_out *ob,
                                       unsigned field)
{
    for (size_t i = 0; i < ph_func_count(t->p); i++) {
        const ph_func *f = ph_func_at(t->p, i);
        if (shown_flat(t->p, f))
            ph_out_str(t, f->name);
    }
    names_or_view names = { t, ob, field, NULL }, view = { t, ob, 0, NULL };
    ph_run_beside(names_or_view_run, &names, &view);
    return view.st;
}

void ph_out_strings_free(ph_out_strings *t)
{
    free(t->str);
    free(t->own);
    free(t->by_str);
}
