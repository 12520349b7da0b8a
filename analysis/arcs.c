/* arcs.c -- callers and callees of one function, summed per other
 * function, from flat call records and from context-tree edges. */
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
    arc->incl = ph_xcalloc(w + 1, sizeof *arc->incl);
    return arc;
}

/* Whether f appears on the path strictly above node n. */
static int above(const ph_node *n, const ph_func *f)
{
    for (const ph_node *u = n->parent; u; u = u->parent)
        if (u->func == f)
            return 1;
    return 0;
}

static ph_arcs *collect(ph_profile *p, const ph_func *f, int part,
                        int callers)
{
    ph_arcs *a = ph_xcalloc(1, sizeof *a);
    size_t cap = 0, w = ph_event_nreal(p);
    if (callers) {
        ph_call_iter it;
        for (const ph_call *c = ph_calls_in(&it, p, f); c;
             c = ph_call_next(&it)) {
            if (!ph_part_selected(c->part, part) || c->caller == f)
                continue;
            ph_arc *arc = arc_for(a, c->caller, w, &cap);
            arc->count += c->count;
            ph_vec_add_call(arc->incl, c, w);
        }
    } else {
        ph_call_iter it;
        for (const ph_call *c = ph_calls_out(&it, p, f); c;
             c = ph_call_next(&it)) {
            if (!ph_part_selected(c->part, part) || c->callee == f)
                continue;
            ph_arc *arc = arc_for(a, c->callee, w, &cap);
            arc->count += c->count;
            ph_vec_add_call(arc->incl, c, w);
        }
    }
    uint64_t *cnt = NULL;
    int64_t *sub = ph_subtree_sums(p, part, &cnt);
    /* Tree edges: the outermost activation of f on each stack only, so
     * recursion does not count a stack twice. */
    for (size_t i = 0; sub && i < ph_node_count(p); i++) {
        const ph_node *n = ph_node_at(p, i);
        if (n->func != f || above(n, f))
            continue;
        if (callers) {
            if (!n->parent || !n->parent->func)
                continue;
            ph_arc *arc = arc_for(a, n->parent->func, w, &cap);
            arc->count += cnt[i];
            ph_vec_add(arc->incl, sub + i * w, w);
        } else {
            for (const ph_node *ch = n->child; ch; ch = ch->sibling) {
                if (!ch->func || ch->func == f)
                    continue;
                ph_arc *arc = arc_for(a, ch->func, w, &cap);
                arc->count += cnt[ch->id - 1];
                ph_vec_add(arc->incl, sub + (ch->id - 1) * w, w);
            }
        }
    }
    free(sub);
    free(cnt);
    return a;
}

ph_arcs *ph_callers(ph_profile *p, const ph_func *f, int part)
{
    return collect(p, f, part, 1);
}

ph_arcs *ph_callees(ph_profile *p, const ph_func *f, int part)
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

size_t ph_funcs_matching(ph_profile *p, const char *name,
                         const ph_func ***out)
{
    size_t n = 0, nf = ph_func_count(p);
    const ph_func **v = ph_xmalloc((nf + 1) * sizeof *v);
    for (size_t i = 0; i < nf; i++)
        if (strcmp(ph_str_get(p, ph_func_at(p, i)->name), name) == 0)
            v[n++] = ph_func_at(p, i);
    regex_t re;
    if (n == 0 && regcomp(&re, name, REG_EXTENDED | REG_NOSUB) == 0) {
        for (size_t i = 0; i < nf; i++)
            if (regexec(&re, ph_str_get(p, ph_func_at(p, i)->name), 0, NULL,
                        0) == 0)
                v[n++] = ph_func_at(p, i);
        regfree(&re);
    }
    *out = v;
    return n;
}
