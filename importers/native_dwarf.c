/* native_dwarf.c -- DWARF for the native importer's symboliser, through
 * libdwarf: the line table of every compilation unit (address -> file,
 * line) and the inlined subroutines (address ranges from low/high pc,
 * DWARF 5 range lists or DWARF 2-4 .debug_ranges; the inlined function's
 * name through its abstract origin; the call site's file and line), so an
 * address expands to the chain of frames inlined at it. */
#include "config.h"

#include <dwarf.h>
#include <libdwarf.h>
#include <stdlib.h>
#include <string.h>

#include "importers/native.h"

static ph_file *intern_file(ph_profile *p, const char *name)
{
    return ph_file_get(p, ph_str_intern0(p, name));
}

static void add_row(ph_nobj *eo, uint64_t addr, uint32_t line, ph_file *f)
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

static void read_lines(ph_profile *p, Dwarf_Debug dbg, ph_nobj *eo,
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

static void push_inline(ph_nobj *eo, uint64_t lo, uint64_t hi,
                        const ph_ninl *tmpl)
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
static void push_ranges(ph_nobj *eo, const cuinfo *cu, Dwarf_Die die,
                        const ph_ninl *tmpl)
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

static void add_inline(ph_profile *p, ph_nobj *eo, const cuinfo *cu,
                       Dwarf_Die die, uint32_t depth)
{
    Dwarf_Addr lo, hi;
    Dwarf_Half form;
    enum Dwarf_Form_Class cls;
    Dwarf_Error err = NULL;
    uint64_t fileno, line;
    int okf, okl;
    char *name = origin_name(cu->dbg, die, 0);
    ph_ninl t;

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

static void walk_dies(ph_profile *p, ph_nobj *eo, const cuinfo *cu,
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

static int cmp_inl(const void *a, const void *b)
{
    const ph_ninl *x = a, *y = b;

    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return 0;
}

const ph_ninl *ph_nsym_find_inline(const ph_nobj *eo, uint32_t depth,
                                   uint64_t va)
{
    size_t lo = 0, hi = eo->ninls;

    while (lo < hi) {   /* first entry not before (depth, va] */
        size_t mid = lo + (hi - lo) / 2;
        const ph_ninl *m = &eo->inls[mid];

        if (m->depth < depth || (m->depth == depth && m->lo <= va))
            lo = mid + 1;
        else
            hi = mid;
    }
    /* ranges of one depth rarely overlap; look back a few for safety */
    for (size_t k = lo; k-- > 0 && lo - k <= 4;) {
        const ph_ninl *in = &eo->inls[k];

        if (in->depth != depth)
            break;
        if (va >= in->lo && va < in->hi)
            return in;
    }
    return NULL;
}

static int cmp_row(const void *a, const void *b)
{
    const ph_nrow *x = a, *y = b;

    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return (x->line != 0) - (y->line != 0);   /* end markers first */
}

void ph_nsym_load_dwarf(ph_profile *p, ph_nobj *eo)
{
    Dwarf_Debug dbg = NULL;
    Dwarf_Error err = NULL;

    if (dwarf_init_path(eo->path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY,
                        NULL, NULL, &dbg, NULL, 0, NULL, &err) !=
        DW_DLV_OK) {
        dwarf_dealloc_error(NULL, err);   /* made without a Dwarf_Debug */
        return;
    }
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
        ph_qsort(eo->rows, eo->nrows, sizeof *eo->rows, cmp_row);
    if (eo->ninls)
        ph_qsort(eo->inls, eo->ninls, sizeof *eo->inls, cmp_inl);
}
