/* calls.c -- call records and jumps.  Call records live in the arena and
 * are linked, in the order they were added, into the caller's calls_out
 * and the callee's calls_in lists (tails kept in the per-function side
 * table); a vector gives them by index.
 */
#include "config.h"

#include <stdalign.h>
#include <string.h>

#include "ir_priv.h"

void ph_calls_free(ph_profile *p)
{
    ph_vec_free(&p->calls);
    ph_vec_free(&p->jumps);
}

ph_call *ph_call_add(ph_profile *p, ph_func *caller, ph_part *part,
                     uint64_t addr, uint32_t line, ph_file *file,
                     ph_func *callee, uint64_t target_addr,
                     uint32_t target_line, uint64_t count,
                     const int64_t *incl, size_t n)
{
    ph_call *c = ph_arena_alloc(&p->arena, sizeof *c, alignof(ph_call));
    ph_funcx *xo, *xi;
    if (!part)
        part = ph_profile_default_part(p);
    if (n > p->reals.n)
        n = p->reals.n;
    c->caller = caller;
    c->callee = callee;
    c->part = part;
    c->addr = addr;
    c->line = line;
    c->file = file;
    c->target_addr = target_addr;
    c->target_line = target_line;
    c->count = count;
    if (incl) {
        c->incl = ph_arena_alloc_raw(&p->arena, (n ? n : 1) * sizeof *incl,
                                     alignof(int64_t));
        if (n)
            memcpy(c->incl, incl, n * sizeof *incl);
        c->width = (uint32_t)n;
    }
    xo = &p->fx[caller->id - 1];
    if (xo->out_tail)
        xo->out_tail->next_out = c;
    else
        caller->calls_out = c;
    xo->out_tail = c;
    xi = &p->fx[callee->id - 1];
    if (xi->in_tail)
        xi->in_tail->next_in = c;
    else
        callee->calls_in = c;
    xi->in_tail = c;
    ph_vec_push(&p->calls, c);
    ph_profile_invalidate(p);
    return c;
}

size_t ph_call_count(const ph_profile *p)
{
    return p->calls.n;
}

ph_call *ph_call_at(const ph_profile *p, size_t i)
{
    return i < p->calls.n ? p->calls.v[i] : NULL;
}

ph_jump *ph_jump_add(ph_profile *p, const ph_jump *j)
{
    ph_jump *c = ph_arena_alloc_raw(&p->arena, sizeof *c, alignof(ph_jump));
    *c = *j;
    if (!c->part)
        c->part = ph_profile_default_part(p);
    ph_vec_push(&p->jumps, c);
    ph_profile_invalidate(p);
    return c;
}

size_t ph_jump_count(const ph_profile *p)
{
    return p->jumps.n;
}

ph_jump *ph_jump_at(const ph_profile *p, size_t i)
{
    return i < p->jumps.n ? p->jumps.v[i] : NULL;
}
