/* symbols.c -- objects and files (found or created by name) and functions
 * (found or created by name, file and object), each with a dense 1-based id
 * and a per-function side table for rows and call-list tails.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ir_priv.h"

void ph_symbols_free(ph_profile *p)
{
    size_t i;
    for (i = 0; i < p->funcs.n && p->fx; i++)
        if (p->fx[i].nblocks > 1)
            free(p->fx[i].blocks.many);
    free(p->fx);
    p->fx = NULL;
    p->fxcap = 0;
    ph_vec_free(&p->objects);
    ph_vec_free(&p->files);
    ph_vec_free(&p->funcs);
    ph_htab_free(&p->objmap);
    ph_htab_free(&p->filemap);
    ph_htab_free(&p->funcmap);
}

void ph_funcx_reserve(ph_profile *p, uint32_t id)
{
    void *arr = p->fx;
    ph_array_reserve(&arr, &p->fxcap, id, sizeof *p->fx);
    p->fx = arr;
    ph_map_ahead(p->fx, sizeof *p->fx, id - 1, p->fxcap);
    /* written now (it reads as zeros already): read first, a fresh page
     * maps the zero page and the reader's first write faults again
     * (ph_xcalloc_written) */
    memset(&p->fx[id - 1], 0, sizeof *p->fx);
}

ph_object *ph_object_get(ph_profile *p, ph_str name)
{
    uint64_t h = ph_hash_mix(p->seed, name);
    ph_htab *t = &p->objmap;
    ph_object *o;
    size_t i;
    for (i = h & t->mask; t->v[i]; i = (i + 1) & t->mask) {
        o = t->v[i];
        if (o->name == name)
            return o;
    }
    o = ph_profile_alloc(p, sizeof *o);
    o->name = name;
    ph_vec_push(&p->objects, o);
    o->id = (uint32_t)p->objects.n;
    ph_htab_insert(t, h, o);
    return o;
}

ph_file *ph_file_get(ph_profile *p, ph_str name)
{
    uint64_t h = ph_hash_mix(p->seed, name);
    ph_htab *t = &p->filemap;
    ph_file *f;
    size_t i;
    for (i = h & t->mask; t->v[i]; i = (i + 1) & t->mask) {
        f = t->v[i];
        if (f->name == name)
            return f;
    }
    f = ph_profile_alloc(p, sizeof *f);
    f->name = name;
    ph_vec_push(&p->files, f);
    f->id = (uint32_t)p->files.n;
    ph_htab_insert(t, h, f);
    return f;
}

size_t ph_object_count(const ph_profile *p)
{
    return p->objects.n;
}

ph_object *ph_object_at(const ph_profile *p, size_t i)
{
    return i < p->objects.n ? p->objects.v[i] : NULL;
}

size_t ph_file_count(const ph_profile *p)
{
    return p->files.n;
}

ph_file *ph_file_at(const ph_profile *p, size_t i)
{
    return i < p->files.n ? p->files.v[i] : NULL;
}

static uint64_t hash_func_key(const ph_profile *p, ph_str name,
                              const ph_file *file, const ph_object *obj)
{
    uint64_t h = ph_hash_mix(p->seed, name);
    h = ph_hash_mix(h, file ? file->id : 0);
    return ph_hash_mix(h, obj ? obj->id : 0);
}

ph_func *ph_func_find(const ph_profile *p, ph_str name, const ph_file *file,
                      const ph_object *obj)
{
    uint64_t h = hash_func_key(p, name, file, obj);
    const ph_htab *t = &p->funcmap;
    size_t i;
    for (i = h & t->mask; t->v[i]; i = (i + 1) & t->mask) {
        ph_func *f = t->v[i];
        if (t->h[i] == h && f->name == name && f->file == file &&
            f->object == obj)
            return f;
    }
    return NULL;
}

ph_func *ph_func_get(ph_profile *p, ph_str name, ph_file *file,
                     ph_object *obj)
{
    ph_func *f = ph_func_find(p, name, file, obj);
    if (f)
        return f;
    if (p->funcs.n >= UINT32_MAX - 1)
        ph_oom();
    f = ph_profile_alloc(p, sizeof *f);
    f->name = name;
    f->file = file;
    f->object = obj;
    ph_vec_push(&p->funcs, f);
    f->id = (uint32_t)p->funcs.n;
    ph_funcx_reserve(p, f->id);
    ph_htab_insert(&p->funcmap, hash_func_key(p, name, file, obj), f);
    ph_profile_invalidate(p);
    return f;
}

void ph_funcs_reserve(ph_profile *p, size_t n)
{
    void *arr = p->fx;
    ph_array_reserve(&arr, &p->fxcap, p->funcs.n + n, sizeof *p->fx);
    p->fx = arr;
    ph_htab_reserve(&p->funcmap, n);
}

size_t ph_func_count(const ph_profile *p)
{
    return p->funcs.n;
}

ph_func *ph_func_at(const ph_profile *p, size_t i)
{
    return i < p->funcs.n ? p->funcs.v[i] : NULL;
}
