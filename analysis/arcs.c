/* arcs.c -- callers and callees of one function, summed per other
 * function, from the records of the flat view (the profile's calls and the
 * context tree's edges under the view's one recursion rule). */
#include "config.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"

/* Find or add the arc for function g (linear: a function has few). */
static ph_arc *arc_for(ph_arcs *a, const ph_func *g, size_t w, size_t *cap)
{
    for (size_t i = 0; i < a->count; i++)
        if (a->arcs[i].func == g)
            return &a->arcs[i];
    if (a->count == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        a->arcs = ph_xrealloc(a->arcs, *cap * sizeof *a->arcs);
    }
    ph_arc *arc = &a->arcs[a->count++];
    arc->func = g;
    arc->count = 0;
    arc->recursive = 0;
    arc->incl = ph_xcalloc(w + 1, sizeof *arc->incl);
    return arc;
}

static ph_arcs *collect(const ph_profile *p, const ph_func *f, int part,
                        int callers)
{
    ph_arcs *a = ph_xcalloc(1, sizeof *a);
    size_t cap = 0, w = ph_event_nreal(p);
    const ph_flat *v = ph_flat_of(p);
    ph_flat_calls it;
    const ph_call *c = callers ? ph_flat_calls_in(&it, v, p, f)
                               : ph_flat_calls_out(&it, v, p, f);
    for (; c; c = ph_flat_calls_next(&it)) {
        if (!ph_part_selected(c->part, part))
            continue;
        /* a tree's self edges are not arcs (pprof -peek shows none) */
        if (c->caller == c->callee && ph_flat_is_tree(v, c))
            continue;
        ph_arc *arc = arc_for(a, callers ? c->caller : c->callee, w, &cap);
        arc->count += c->count;
        if (ph_flat_recursive(v, p, c))
            arc->recursive = 1;
        else
            ph_vec_add_call(arc->incl, c, w);
    }
    return a;
}

ph_arcs *ph_callers(const ph_profile *p, const ph_func *f, int part)
{
    return collect(p, f, part, 1);
}

ph_arcs *ph_callees(const ph_profile *p, const ph_func *f, int part)
{
    return collect(p, f, part, 0);
}

void ph_arcs_free(ph_arcs *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->count; i++)
        free(a->arcs[i].incl);
    free(a->arcs);
    free(a);
}

size_t ph_funcs_matching(const ph_profile *p, const char *name,
                         const ph_func ***out)
{
    size_t n = 0, nf = ph_func_count(p), cap = 0;
    const ph_func **v = ph_xmalloc((nf + 1) * sizeof *v);
    char *text = NULL;   /* each name's, not kept (compound names) */
    size_t len = strlen(name);
    for (size_t i = 0; i < nf; i++)   /* compound names joined only when
                                       * their length is the name's */
        if (ph_str_len(p, ph_func_at(p, i)->name) == len &&
            strcmp(ph_str_text(p, ph_func_at(p, i)->name, &text, &cap),
                   name) == 0)
            v[n++] = ph_func_at(p, i);
    regex_t re;
    if (n == 0 && regcomp(&re, name, REG_EXTENDED | REG_NOSUB) == 0) {
        for (size_t i = 0; i < nf; i++)
            if (regexec(&re, ph_str_text(p, ph_func_at(p, i)->name, &text,
                                         &cap), 0, NULL, 0) == 0)
                v[n++] = ph_func_at(p, i);
        regfree(&re);
    }
    free(text);
    *out = v;
    return n;
}
