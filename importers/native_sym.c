/* native_sym.c -- symbolisation for the native importer: recorded
 * addresses -> (object, function, file, line, inlined frames).
 * Functions come from ELF symbol tables through libelf (.symtab, and
 * .dynsym so stripped shared objects still name their exports); files and
 * lines from the DWARF line table and inlined frames from
 * DW_TAG_inlined_subroutine entries with a low/high pc, both through
 * libdwarf (low/high pc, DWARF 5 range lists and DWARF 2-4 .debug_ranges).
 * C++ names are
 * demangled with __cxa_demangle from libstdc++, loaded with dlopen on
 * first use (the mangled name is kept in ph_func.mangled).  Objects are
 * read from the paths recorded in the map; a file that changed since the
 * run gives wrong names (no build-id check yet). */
#include "config.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libdwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/native.h"

/* ------------------------------------------------------------------ */
/* Per-object tables                                                  */

typedef struct sym {
    uint64_t addr, size;
    char *name;
} sym;

typedef struct lrow {
    uint64_t addr;
    uint32_t line;      /* 0: end of a sequence (a gap) */
    ph_file *file;
} lrow;

typedef struct inl {
    uint64_t lo, hi;
    uint32_t depth;
    ph_str name;
    ph_file *call_file;
    uint32_t call_line;
} inl;

typedef struct seg {
    uint64_t off, vaddr, filesz;
} seg;

typedef struct elfobj {
    char *path;
    ph_object *obj;
    sym *syms;
    size_t nsyms;
    lrow *rows;
    size_t nrows, caprows;
    inl *inls;
    size_t ninls, capinls;
    seg *segs;
    size_t nsegs;
    struct elfobj *next;
} elfobj;

typedef struct map {
    uint64_t instance, start, end, off;
    elfobj *eo;
} map;

typedef struct centry {
    uint64_t instance, addr;
    int used;
    size_t n;
    ph_nframe f[PH_NSYM_MAX_FRAMES];
} centry;

struct ph_nsym {
    ph_profile *p;
    elfobj *objs;
    map *maps;
    size_t nmaps, capmaps;
    centry *cache;
    size_t ccap, cused;
};

/* ------------------------------------------------------------------ */
/* Demangling                                                          */

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

char *ph_nsym_demangle(const char *name)
{
    static demangle_fn fn;
    static int tried;
    int status = 0;
    char *out;

    if (strncmp(name, "_Z", 2) != 0)
        return NULL;
    if (!tried) {
        void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);

        tried = 1;
        if (h)
            *(void **)&fn = dlsym(h, "__cxa_demangle");
    }
    if (!fn)
        return NULL;
    out = fn(name, NULL, NULL, &status);
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------------ */
/* ELF                                                                 */

static int cmp_sym(const void *a, const void *b)
{
    const sym *x = a, *y = b;

    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return (y->size > 0) - (x->size > 0);   /* sized first */
}

static void read_symtab(elfobj *eo, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh,
                        size_t *cap)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    size_t n;

    if (!data || sh->sh_entsize == 0)
        return;
    n = sh->sh_size / sh->sh_entsize;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym s;
        const char *name;
        int type;

        if (!gelf_getsym(data, (int)i, &s))
            break;
        type = GELF_ST_TYPE(s.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
            s.st_shndx == SHN_UNDEF || s.st_value == 0)
            continue;
        name = elf_strptr(elf, sh->sh_link, s.st_name);
        if (!name || !*name)
            continue;
        if (eo->nsyms == *cap) {
            *cap = *cap ? *cap * 2 : 256;
            eo->syms = ph_xrealloc(eo->syms, *cap * sizeof *eo->syms);
        }
        eo->syms[eo->nsyms].addr = s.st_value;
        eo->syms[eo->nsyms].size = s.st_size;
        eo->syms[eo->nsyms].name = strdup(name);
        if (!eo->syms[eo->nsyms].name)
            ph_oom();
        eo->nsyms++;
    }
}

static void load_elf(elfobj *eo)
{
    int fd = open(eo->path, O_RDONLY | O_CLOEXEC);
    Elf *elf;
    Elf_Scn *scn = NULL;
    size_t cap = 0, nph = 0, w = 0;

    if (fd < 0)
        return;
    elf_version(EV_CURRENT);
    elf = elf_begin(fd, ELF_C_READ, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        if (elf)
            elf_end(elf);
        close(fd);
        return;
    }
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
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;

        if (gelf_getshdr(scn, &sh) &&
            (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
            read_symtab(eo, elf, scn, &sh, &cap);
    }
    elf_end(elf);
    close(fd);
    if (eo->nsyms == 0)
        return;
    qsort(eo->syms, eo->nsyms, sizeof *eo->syms, cmp_sym);
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
/* DWARF                                                               */

static ph_file *intern_file(ph_profile *p, const char *name)
{
    return ph_file_get(p, ph_str_intern0(p, name));
}

static void add_row(elfobj *eo, uint64_t addr, uint32_t line, ph_file *f)
{
    if (eo->nrows == eo->caprows) {
        eo->caprows = eo->caprows ? eo->caprows * 2 : 1024;
        eo->rows = ph_xrealloc(eo->rows, eo->caprows * sizeof *eo->rows);
    }
    eo->rows[eo->nrows].addr = addr;
    eo->rows[eo->nrows].line = line;
    eo->rows[eo->nrows].file = f;
    eo->nrows++;
}

static void read_lines(ph_profile *p, Dwarf_Debug dbg, elfobj *eo,
                       Dwarf_Die cu)
{
    Dwarf_Unsigned version;
    Dwarf_Small count;
    Dwarf_Line_Context ctx;
    Dwarf_Line *lines;
    Dwarf_Signed n;
    Dwarf_Error err = NULL;

    if (dwarf_srclines_b(cu, &version, &count, &ctx, &err) != DW_DLV_OK)
        return;
    if (dwarf_srclines_from_linecontext(ctx, &lines, &n, &err) ==
        DW_DLV_OK) {
        ph_file *last = NULL;
        Dwarf_Unsigned lastno = (Dwarf_Unsigned)-1;

        for (Dwarf_Signed i = 0; i < n; i++) {
            Dwarf_Addr addr;
            Dwarf_Unsigned lineno, fileno;
            Dwarf_Bool end = 0;
            char *src;

            if (dwarf_lineaddr(lines[i], &addr, &err) != DW_DLV_OK ||
                dwarf_lineno(lines[i], &lineno, &err) != DW_DLV_OK)
                continue;
            dwarf_lineendsequence(lines[i], &end, &err);
            if (end) {
                add_row(eo, addr, 0, NULL);
                continue;
            }
            if (dwarf_line_srcfileno(lines[i], &fileno, &err) != DW_DLV_OK)
                fileno = (Dwarf_Unsigned)-2;
            if (fileno != lastno || !last) {
                if (dwarf_linesrc(lines[i], &src, &err) == DW_DLV_OK) {
                    last = intern_file(p, src);
                    dwarf_dealloc(dbg, src, DW_DLA_STRING);
                } else {
                    last = NULL;
                }
                lastno = fileno;
            }
            add_row(eo, addr, (uint32_t)lineno, last);
        }
    }
    dwarf_srclines_dealloc_b(ctx);
}

typedef struct cuinfo {
    Dwarf_Debug dbg;
    char **files;
    Dwarf_Signed nfiles;
    int version;
    uint64_t base;          /* the CU's low pc (DWARF 2-4 ranges) */
} cuinfo;

static uint64_t attr_udata(Dwarf_Die die, Dwarf_Half at, int *ok)
{
    Dwarf_Attribute a;
    Dwarf_Unsigned v = 0;
    Dwarf_Error err = NULL;

    *ok = 0;
    if (dwarf_attr(die, at, &a, &err) != DW_DLV_OK)
        return 0;
    if (dwarf_formudata(a, &v, &err) == DW_DLV_OK)
        *ok = 1;
    dwarf_dealloc_attribute(a);
    return v;
}

/* Name of an inlined subroutine: its abstract origin's name (or that
 * origin's specification's). */
static char *origin_name(Dwarf_Debug dbg, Dwarf_Die die, int hops)
{
    static const Dwarf_Half refs[] = { DW_AT_abstract_origin,
                                       DW_AT_specification };
    Dwarf_Error err = NULL;
    char *name = NULL;

    if (dwarf_diename(die, &name, &err) == DW_DLV_OK)
        return name;
    for (size_t k = 0; hops < 4 && k < 2; k++) {
        Dwarf_Attribute a;
        Dwarf_Off off;
        Dwarf_Die other;

        if (dwarf_attr(die, refs[k], &a, &err) != DW_DLV_OK)
            continue;
        if (dwarf_global_formref(a, &off, &err) == DW_DLV_OK &&
            dwarf_offdie_b(dbg, off, 1, &other, &err) == DW_DLV_OK) {
            name = origin_name(dbg, other, hops + 1);
            dwarf_dealloc_die(other);
        }
        dwarf_dealloc_attribute(a);
        if (name)
            return name;
    }
    return NULL;
}

static void push_inline(elfobj *eo, uint64_t lo, uint64_t hi,
                        const inl *tmpl)
{
    if (hi <= lo)
        return;
    if (eo->ninls == eo->capinls) {
        eo->capinls = eo->capinls ? eo->capinls * 2 : 64;
        eo->inls = ph_xrealloc(eo->inls, eo->capinls * sizeof *eo->inls);
    }
    eo->inls[eo->ninls] = *tmpl;
    eo->inls[eo->ninls].lo = lo;
    eo->inls[eo->ninls].hi = hi;
    eo->ninls++;
}

/* The address ranges of a DIE with DW_AT_ranges: DWARF 5 range lists
 * (cooked addresses) or DWARF 2-4 .debug_ranges from the CU's base. */
static void push_ranges(elfobj *eo, const cuinfo *cu, Dwarf_Die die,
                        const inl *tmpl)
{
    Dwarf_Attribute a;
    Dwarf_Error err = NULL;
    Dwarf_Half form = 0;
    Dwarf_Unsigned val = 0;
    Dwarf_Off off = 0;

    if (dwarf_attr(die, DW_AT_ranges, &a, &err) != DW_DLV_OK)
        return;
    dwarf_whatform(a, &form, &err);
    /* rnglistx and data forms are numbers; sec_offset is a reference */
    if (dwarf_formudata(a, &val, &err) != DW_DLV_OK) {
        err = NULL;
        if (dwarf_global_formref(a, &off, &err) == DW_DLV_OK)
            val = off;
    }
    if (cu->version >= 5) {
        Dwarf_Rnglists_Head head;
        Dwarf_Unsigned count = 0, goff;

        if (dwarf_rnglists_get_rle_head(a, form, val, &head, &count, &goff,
                                        &err) == DW_DLV_OK) {
            for (Dwarf_Unsigned i = 0; i < count; i++) {
                unsigned elen, code;
                Dwarf_Unsigned r1, r2, c1, c2;
                Dwarf_Bool unavailable = 0;

                if (dwarf_get_rnglists_entry_fields_a(head, i, &elen, &code,
                                                      &r1, &r2, &unavailable,
                                                      &c1, &c2, &err) !=
                        DW_DLV_OK ||
                    code == DW_RLE_end_of_list)
                    break;
                if (code == DW_RLE_base_address ||
                    code == DW_RLE_base_addressx || unavailable)
                    continue;
                push_inline(eo, c1, c2, tmpl);
            }
            dwarf_dealloc_rnglists_head(head);
        }
    } else {
        Dwarf_Ranges *r;
        Dwarf_Signed n = 0;
        Dwarf_Unsigned bytes;
        Dwarf_Off real;
        uint64_t base = cu->base;

        if (dwarf_get_ranges_b(cu->dbg, val, die, &real, &r, &n, &bytes,
                               &err) == DW_DLV_OK) {
            for (Dwarf_Signed i = 0; i < n; i++) {
                if (r[i].dwr_type == DW_RANGES_END)
                    break;
                if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
                    base = r[i].dwr_addr2;
                else
                    push_inline(eo, base + r[i].dwr_addr1,
                                base + r[i].dwr_addr2, tmpl);
            }
            dwarf_ranges_dealloc(cu->dbg, r, n);
        }
    }
    dwarf_dealloc_attribute(a);
}

static void add_inline(ph_profile *p, elfobj *eo, const cuinfo *cu,
                       Dwarf_Die die, uint32_t depth)
{
    Dwarf_Addr lo, hi;
    Dwarf_Half form;
    enum Dwarf_Form_Class cls;
    Dwarf_Error err = NULL;
    uint64_t fileno, line;
    int okf, okl;
    char *name = origin_name(cu->dbg, die, 0);
    inl t;

    if (!name)
        return;
    memset(&t, 0, sizeof t);
    t.depth = depth;
    t.name = ph_str_intern0(p, name);
    fileno = attr_udata(die, DW_AT_call_file, &okf);
    line = attr_udata(die, DW_AT_call_line, &okl);
    if (okf && cu->version < 5)
        fileno--;   /* DWARF 2-4 count files from 1 */
    t.call_file = okf && (Dwarf_Signed)fileno < cu->nfiles
                      ? intern_file(p, cu->files[fileno]) : NULL;
    t.call_line = okl ? (uint32_t)line : 0;
    if (dwarf_lowpc(die, &lo, &err) == DW_DLV_OK &&
        dwarf_highpc_b(die, &hi, &form, &cls, &err) == DW_DLV_OK) {
        if (cls == DW_FORM_CLASS_CONSTANT)
            hi += lo;
        push_inline(eo, lo, hi, &t);
    } else {
        push_ranges(eo, cu, die, &t);
    }
}

static void walk_dies(ph_profile *p, elfobj *eo, const cuinfo *cu,
                      Dwarf_Die die, uint32_t depth, int level)
{
    Dwarf_Error err = NULL;
    Dwarf_Die child, next;

    if (level > 64 || dwarf_child(die, &child, &err) != DW_DLV_OK)
        return;
    for (;;) {
        Dwarf_Half tag = 0;
        uint32_t d = depth;

        dwarf_tag(child, &tag, &err);
        if (tag == DW_TAG_inlined_subroutine) {
            add_inline(p, eo, cu, child, depth + 1);
            d = depth + 1;
        }
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
            tag == DW_TAG_lexical_block || tag == DW_TAG_namespace ||
            tag == DW_TAG_class_type || tag == DW_TAG_structure_type)
            walk_dies(p, eo, cu, child, d, level + 1);
        if (dwarf_siblingof_b(cu->dbg, child, 1, &next, &err) !=
            DW_DLV_OK) {
            dwarf_dealloc_die(child);
            break;
        }
        dwarf_dealloc_die(child);
        child = next;
    }
}

static int cmp_row(const void *a, const void *b)
{
    const lrow *x = a, *y = b;

    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return (x->line != 0) - (y->line != 0);   /* end markers first */
}

static void load_dwarf(ph_profile *p, elfobj *eo)
{
    Dwarf_Debug dbg = NULL;
    Dwarf_Error err = NULL;

    if (dwarf_init_path(eo->path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY,
                        NULL, NULL, &dbg, NULL, 0, NULL, &err) !=
        DW_DLV_OK)
        return;
    for (;;) {
        Dwarf_Unsigned hlen, abbrev, typeoff, next;
        Dwarf_Half version, asize, lsize, esize, cutype;
        Dwarf_Off aoff;
        Dwarf_Sig8 sig;
        Dwarf_Die cu = NULL;
        cuinfo ci;

        (void)abbrev;
        if (dwarf_next_cu_header_d(dbg, 1, &hlen, &version, &aoff, &asize,
                                   &lsize, &esize, &sig, &typeoff, &next,
                                   &cutype, &err) != DW_DLV_OK)
            break;
        if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &err) != DW_DLV_OK)
            continue;
        read_lines(p, dbg, eo, cu);
        memset(&ci, 0, sizeof ci);
        ci.dbg = dbg;
        ci.version = version;
        {
            Dwarf_Addr base;

            if (dwarf_lowpc(cu, &base, &err) == DW_DLV_OK)
                ci.base = base;
        }
        if (dwarf_srcfiles(cu, &ci.files, &ci.nfiles, &err) != DW_DLV_OK) {
            ci.files = NULL;
            ci.nfiles = 0;
        }
        walk_dies(p, eo, &ci, cu, 0, 0);
        for (Dwarf_Signed i = 0; i < ci.nfiles; i++)
            dwarf_dealloc(dbg, ci.files[i], DW_DLA_STRING);
        if (ci.files)
            dwarf_dealloc(dbg, ci.files, DW_DLA_LIST);
        dwarf_dealloc_die(cu);
    }
    dwarf_finish(dbg, &err);
    if (eo->nrows)
        qsort(eo->rows, eo->nrows, sizeof *eo->rows, cmp_row);
}

/* ------------------------------------------------------------------ */
/* Lookups                                                             */

static elfobj *get_object(ph_nsym *s, const char *path, size_t len)
{
    elfobj *eo;

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
        load_dwarf(s->p, eo);
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
    elfobj *eo, *next;

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
        const seg *g = &m->eo->segs[i];

        if (foff >= g->off && foff < g->off + g->filesz)
            return foff - g->off + g->vaddr;
    }
    return 0;
}

static const sym *find_sym(const elfobj *eo, uint64_t va)
{
    size_t lo = 0, hi = eo->nsyms;
    const sym *sy;

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

static const lrow *find_row(const elfobj *eo, uint64_t va)
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

static ph_func *make_func(ph_nsym *s, const elfobj *eo, const char *name,
                          uint64_t va)
{
    ph_profile *p = s->p;
    char *dem = ph_nsym_demangle(name);
    const lrow *r = find_row(eo, va);
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
    const sym *sy = m && va ? find_sym(m->eo, va) : NULL;
    const lrow *r = m && va ? find_row(m->eo, va) : NULL;
    const inl *chain[PH_NSYM_MAX_FRAMES];
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
        const inl *best = NULL;

        for (size_t i = 0; i < m->eo->ninls; i++) {
            const inl *in = &m->eo->inls[i];

            if (in->depth == depth && va >= in->lo && va < in->hi &&
                in->lo >= sy->addr) {
                best = in;
                break;
            }
        }
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
    uint64_t h = (addr ^ (instance * 0x9e3779b97f4a7c15u)) *
                 0xff51afd7ed558ccdu;

    return (size_t)(h >> 17) & (cap - 1);
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
