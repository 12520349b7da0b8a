/* native_sym.c -- symbolisation for the native importer: recorded
 * addresses -> (object, function, file, line, inlined frames), cached per
 * address.  Functions come from ELF symbol tables through libelf (.symtab,
 * and .dynsym so stripped shared objects still name their exports); lines
 * and inlined frames come from native_dwarf.c.  C++ names are demangled
 * by elf_syms.c (the mangled name is kept in ph_func.mangled), which also
 * opens the file and walks its symbol tables.  Objects are read from the
 * paths recorded in the map; a file rebuilt since the run gives wrong
 * names (no build-id check yet). */
#include "config.h"

#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/elf_syms.h"
#include "importers/native.h"
#include "ir/hash.h"

/* ------------------------------------------------------------------ */
/* Per-object tables                                                  */

typedef struct map {
    uint64_t instance, start, end, off;
    ph_nobj *eo;
} map;

typedef struct centry {
    uint64_t instance, addr;
    int used;
    size_t n;
    ph_nframe f[PH_NSYM_MAX_FRAMES];
} centry;

struct ph_nsym {
    ph_profile *p;
    ph_nobj *objs;
    map *maps;
    size_t nmaps, capmaps;
    centry *cache;
    size_t ccap, cused;
};

/* ------------------------------------------------------------------ */
/* ELF                                                                 */

static int cmp_sym(const void *a, const void *b)
{
    const ph_nfsym *x = a, *y = b;

    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return (y->size > 0) - (x->size > 0);   /* sized first */
}

/* Function symbols of .symtab and .dynsym. */
static void read_symtabs(ph_nobj *eo, Elf *elf)
{
    ph_elf_symiter it;
    GElf_Sym s;
    const char *name;
    size_t cap = 0;

    ph_elf_syms_begin(&it, elf, 0);
    while (ph_elf_syms_next(&it, &s, &name)) {
        int type = GELF_ST_TYPE(s.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
            s.st_shndx == SHN_UNDEF || s.st_value == 0)
            continue;
        if (!*name)
            continue;
        if (eo->nsyms == cap) {
            cap = cap ? cap * 2 : 256;
            eo->syms = ph_xrealloc(eo->syms, cap * sizeof *eo->syms);
        }
        eo->syms[eo->nsyms].addr = s.st_value;
        eo->syms[eo->nsyms].size = s.st_size;
        eo->syms[eo->nsyms].name = strdup(name);
        if (!eo->syms[eo->nsyms].name)
            ph_oom();
        eo->nsyms++;
    }
}

static void load_elf(ph_nobj *eo)
{
    char err[256];
    int fd;
    Elf *elf = ph_elf_open(eo->path, &fd, err, sizeof err);
    size_t nph = 0, w = 0;

    if (!elf)
        return;   /* no symbols: functions are named by address */
    if (elf_getphdrnum(elf, &nph) == 0 && nph > 0) {
        eo->segs = ph_xcalloc(nph, sizeof *eo->segs);
        for (size_t i = 0; i < nph; i++) {
            GElf_Phdr ph;

            if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
                eo->segs[eo->nsegs].off = ph.p_offset;
                eo->segs[eo->nsegs].vaddr = ph.p_vaddr;
                eo->segs[eo->nsegs].filesz = ph.p_filesz;
                eo->nsegs++;
            }
        }
    }
    read_symtabs(eo, elf);
    ph_elf_close(elf, fd);
    if (eo->nsyms == 0)
        return;
    ph_qsort(eo->syms, eo->nsyms, sizeof *eo->syms, cmp_sym);
    /* one symbol per address: .symtab and .dynsym repeat each other */
    for (size_t i = 0; i < eo->nsyms; i++) {
        if (w > 0 && eo->syms[w - 1].addr == eo->syms[i].addr) {
            free(eo->syms[i].name);
            continue;
        }
        eo->syms[w++] = eo->syms[i];
    }
    eo->nsyms = w;
}

/* ------------------------------------------------------------------ */
/* Lookups                                                             */

static ph_nobj *get_object(ph_nsym *s, const char *path, size_t len)
{
    ph_nobj *eo;

    for (eo = s->objs; eo; eo = eo->next)
        if (strlen(eo->path) == len && memcmp(eo->path, path, len) == 0)
            return eo;
    eo = ph_xcalloc(1, sizeof *eo);
    eo->path = ph_xmalloc(len + 1);
    memcpy(eo->path, path, len);
    eo->path[len] = '\0';
    eo->obj = ph_object_get(s->p, ph_str_intern(s->p, path, len));
    if (path[0] == '/') {
        load_elf(eo);
        ph_nsym_load_dwarf(s->p, eo);
    }
    eo->next = s->objs;
    s->objs = eo;
    return eo;
}

ph_nsym *ph_nsym_new(ph_profile *p)
{
    ph_nsym *s = ph_xcalloc(1, sizeof *s);

    s->p = p;
    return s;
}

void ph_nsym_free(ph_nsym *s)
{
    ph_nobj *eo, *next;

    if (!s)
        return;
    for (eo = s->objs; eo; eo = next) {
        next = eo->next;
        for (size_t i = 0; i < eo->nsyms; i++)
            free(eo->syms[i].name);
        free(eo->syms);
        free(eo->rows);
        free(eo->inls);
        free(eo->segs);
        free(eo->path);
        free(eo);
    }
    free(s->maps);
    free(s->cache);
    free(s);
}

void ph_nsym_add_map(ph_nsym *s, uint64_t instance, uint64_t start,
                     uint64_t end, uint64_t offset, const char *path,
                     size_t pathlen)
{
    map *m;

    if (s->nmaps == s->capmaps) {
        s->capmaps = s->capmaps ? s->capmaps * 2 : 32;
        s->maps = ph_xrealloc(s->maps, s->capmaps * sizeof *s->maps);
    }
    m = &s->maps[s->nmaps++];
    m->instance = instance;
    m->start = start;
    m->end = end;
    m->off = offset;
    m->eo = get_object(s, path, pathlen);
}

static const map *find_map(const ph_nsym *s, uint64_t instance,
                           uint64_t addr)
{
    for (size_t i = s->nmaps; i-- > 0;)   /* later maps win */
        if (s->maps[i].instance == instance && addr >= s->maps[i].start &&
            addr < s->maps[i].end)
            return &s->maps[i];
    return NULL;
}

/* Link-time address of a run-time address through the PT_LOAD segment
 * that holds its file offset; 0 when none does. */
static uint64_t to_vaddr(const map *m, uint64_t addr)
{
    uint64_t foff = addr - m->start + m->off;

    for (size_t i = 0; i < m->eo->nsegs; i++) {
        const ph_nseg *g = &m->eo->segs[i];

        if (foff >= g->off && foff < g->off + g->filesz)
            return foff - g->off + g->vaddr;
    }
    return 0;
}

static const ph_nfsym *find_sym(const ph_nobj *eo, uint64_t va)
{
    size_t lo = 0, hi = eo->nsyms;
    const ph_nfsym *sy;

    while (lo < hi) {   /* last symbol with addr <= va */
        size_t mid = lo + (hi - lo) / 2;

        if (eo->syms[mid].addr <= va)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    sy = &eo->syms[lo - 1];
    if (sy->size ? va < sy->addr + sy->size
                 : (lo == eo->nsyms || va < eo->syms[lo].addr))
        return sy;
    return NULL;
}

static const ph_nrow *find_row(const ph_nobj *eo, uint64_t va)
{
    size_t lo = 0, hi = eo->nrows;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (eo->rows[mid].addr <= va)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || eo->rows[lo - 1].line == 0)
        return NULL;
    return &eo->rows[lo - 1];
}

static ph_func *make_func(ph_nsym *s, const ph_nobj *eo, const char *name,
                          uint64_t va)
{
    ph_profile *p = s->p;
    char *dem = ph_elf_demangle(name, NULL);
    const ph_nrow *r = find_row(eo, va);
    ph_func *f = ph_func_get(p, ph_str_intern0(p, dem ? dem : name),
                             r ? r->file : NULL, eo->obj);

    if (!f->addr) {
        f->addr = va;
        if (dem)
            f->mangled = ph_str_intern0(p, name);
        if (r)
            f->line = r->line;
    }
    free(dem);
    return f;
}

static size_t resolve_uncached(ph_nsym *s, uint64_t instance,
                               uint64_t addr, ph_nframe *out)
{
    ph_profile *p = s->p;
    const map *m = find_map(s, instance, addr);
    uint64_t va = m ? to_vaddr(m, addr) : 0;
    const ph_nfsym *sy = m && va ? find_sym(m->eo, va) : NULL;
    const ph_nrow *r = m && va ? find_row(m->eo, va) : NULL;
    const ph_ninl *chain[PH_NSYM_MAX_FRAMES];
    size_t nchain = 0, n = 0;
    char hex[32];

    memset(out, 0, sizeof *out * PH_NSYM_MAX_FRAMES);
    if (!sy) {
        /* unresolved: its hex address (link-time within its object) */
        snprintf(hex, sizeof hex, "0x%llx",
                 (unsigned long long)(m && va ? va : addr));
        out[0].obj = m ? m->eo->obj : NULL;
        out[0].func = ph_func_get(p, ph_str_intern0(p, hex), NULL,
                                  out[0].obj);
        if (!out[0].func->addr)
            out[0].func->addr = m && va ? va : addr;
        out[0].file = r ? r->file : NULL;
        out[0].line = r ? r->line : 0;
        return 1;
    }
    /* inlined subroutines covering va, outermost first */
    for (uint32_t depth = 1; nchain + 1 < PH_NSYM_MAX_FRAMES; depth++) {
        const ph_ninl *best = NULL;

        const ph_ninl *in = ph_nsym_find_inline(m->eo, depth, va);

        if (in && in->lo >= sy->addr)
            best = in;
        if (!best)
            break;
        chain[nchain++] = best;
    }
    out[n].func = make_func(s, m->eo, sy->name, sy->addr);
    out[n].obj = m->eo->obj;
    n++;
    for (size_t k = 0; k < nchain; k++) {
        /* the position in the frame above is the call site */
        out[n - 1].file = chain[k]->call_file;
        out[n - 1].line = chain[k]->call_line;
        out[n].func = ph_func_get(p, chain[k]->name, r ? r->file : NULL,
                                  m->eo->obj);
        out[n].obj = m->eo->obj;
        out[n].flags = PH_FRAME_INLINED;
        n++;
    }
    out[n - 1].file = r ? r->file : NULL;
    out[n - 1].line = r ? r->line : 0;
    return n;
}

static size_t hash_addr(uint64_t instance, uint64_t addr, size_t cap)
{
    return (size_t)ph_hash64(addr ^ ph_hash64(instance)) & (cap - 1);
}

static void grow_cache(ph_nsym *s)
{
    size_t ncap = s->ccap ? s->ccap * 2 : 1024;
    centry *nc = ph_xcalloc(ncap, sizeof *nc);

    for (size_t i = 0; i < s->ccap; i++) {
        size_t h;

        if (!s->cache[i].used)
            continue;
        h = hash_addr(s->cache[i].instance, s->cache[i].addr, ncap);
        while (nc[h].used)
            h = (h + 1) & (ncap - 1);
        nc[h] = s->cache[i];
    }
    free(s->cache);
    s->cache = nc;
    s->ccap = ncap;
}

size_t ph_nsym_resolve(ph_nsym *s, uint64_t instance, uint64_t addr,
                       const ph_nframe **frames)
{
    size_t h;

    if ((s->cused + 1) * 2 > s->ccap)
        grow_cache(s);
    h = hash_addr(instance, addr, s->ccap);
    while (s->cache[h].used) {
        if (s->cache[h].instance == instance && s->cache[h].addr == addr) {
            *frames = s->cache[h].f;
            return s->cache[h].n;
        }
        h = (h + 1) & (s->ccap - 1);
    }
    s->cache[h].used = 1;
    s->cache[h].instance = instance;
    s->cache[h].addr = addr;
    s->cache[h].n = resolve_uncached(s, instance, addr, s->cache[h].f);
    s->cused++;
    *frames = s->cache[h].f;
    return s->cache[h].n;
}
