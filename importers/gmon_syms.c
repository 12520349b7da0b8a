/* gmon_syms.c -- the executable behind a gmon.out: its text symbols as gprof
 * chooses them (libelf: .symtab entries in executable sections, global or
 * weak, or local without '$' and without '.' except GCC's numbered clone
 * suffixes; one symbol per address, a global preferred), their ranges (to the
 * next symbol, the last one to its section end), the DWARF line table
 * (libdwarf), and C++ names demangled through the C++ runtime's
 * __cxa_demangle when it can be loaded at run time (no link-time
 * dependency on libstdc++).  The ELF file, its symbol tables and the
 * demangler are elf_syms.c's.
 */
#include "config.h"

#include <ctype.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <libdwarf.h>

#include "importers/elf_syms.h"
#include "importers/gmon_priv.h"

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = ph_xmalloc(n);
    memcpy(d, s, n);
    return d;
}

/* ------------------------------------------------------------------ */
/* Symbol choice (gprof's core_sym_class and symtab_finalize)          */

/* Local names: no '$'; a '.' only as GCC's ".clone.N", ".constprop.N" or
 * nested ".N" suffixes.  The walk runs over the string table bytes exactly
 * as gprof's core_sym_class does: when a name ends in such a numbered
 * suffix, gprof steps past its NUL and goes on judging the next string of
 * the table, so "f.constprop.0" followed by "main.cold" is dropped.  We
 * follow it (bounded by the table) to keep gprof's choice of symbols. */
static int accept_local_name(const char *tab, size_t size, size_t off)
{
    const char *name = tab + off;

    if (off >= size || !name[0] || strncmp(name, "__gnu_compiled", 14) == 0)
        return 0;
    for (size_t p = off; p < size && tab[p]; p++) {
        if (tab[p] == '$')
            return 0;
        while (p < size && tab[p] == '.') {
            int digit = 0;
            size_t left = strnlen(tab + p, size - p);
            if (left > 7 && strncmp(tab + p, ".clone.", 7) == 0)
                p += 6;
            else if (left > 11 && strncmp(tab + p, ".constprop.", 11) == 0)
                p += 10;
            for (p++; p < size && tab[p]; p++) {
                if (digit && tab[p] == '.')
                    break;
                if (isdigit((unsigned char)tab[p]))
                    digit = 1;
                else
                    return 0;
            }
        }
        if (p >= size)
            break;
    }
    return 1;
}

/* Whether a should replace b at the same address. */
static int prefer(const ph_gmon_sym *a, const ph_gmon_sym *b)
{
    const char *an = a->mangled ? a->mangled : a->name;
    const char *bn = b->mangled ? b->mangled : b->name;
    if (a->is_static != b->is_static)
        return !a->is_static;
    if (a->is_func != b->is_func)
        return a->is_func;
    if (an[0] != '_' && bn[0] == '_')
        return 1;
    return an[0] && an[1] != '_' && bn[0] && bn[1] == '_';
}

static int cmp_sym(const void *x, const void *y)
{
    const ph_gmon_sym *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static void free_sym(ph_gmon_sym *s)
{
    free(s->name);
    free(s->mangled);
}

/* Section end of the executable section holding addr (0 if none). */
static uint64_t section_end(const ph_gmon_syms *s, uint64_t addr)
{
    for (size_t i = 0; i < s->nexec; i++)
        if (addr >= s->exec[i].lo && addr < s->exec[i].hi)
            return s->exec[i].hi;
    return 0;
}

static void finish_symbols(ph_gmon_syms *s)
{
    size_t n = 0;

    ph_qsort(s->syms, s->nsyms, sizeof *s->syms, cmp_sym);
    for (size_t i = 0; i < s->nsyms; i++) {
        if (n > 0 && s->syms[n - 1].addr == s->syms[i].addr) {
            if (prefer(&s->syms[i], &s->syms[n - 1])) {
                free_sym(&s->syms[n - 1]);
                s->syms[n - 1] = s->syms[i];
            } else {
                free_sym(&s->syms[i]);
            }
            continue;
        }
        s->syms[n++] = s->syms[i];
    }
    s->nsyms = n;
    /* gprof's symtab_finalize: a symbol reaches the next one, across
     * section bounds, so ticks in the PLT after .init go to _init; the
     * last one ends with its section. */
    for (size_t i = 0; i < n; i++) {
        uint64_t end = i + 1 < n ? s->syms[i + 1].addr
                                 : section_end(s, s->syms[i].addr);
        if (end <= s->syms[i].addr)
            end = s->syms[i].addr + 1;
        s->syms[i].end = end;
    }
}

/* ------------------------------------------------------------------ */
/* ELF                                                                 */

static int read_elf(ph_gmon_syms *s, Elf *elf, char *err, size_t errsize)
{
    GElf_Ehdr eh;
    Elf_Scn *scn = NULL;
    size_t nsec = 0, cap = 0;
    unsigned char *exec_sec;
    ph_elf_symiter it;
    GElf_Sym sym;
    const char *name;

    if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
        snprintf(err, errsize, "not an ELF file");
        return -1;
    }
    s->ptr_size = eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
    s->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    if (elf_getshdrnum(elf, &nsec) != 0) {
        snprintf(err, errsize, "cannot read the section headers: %s",
                 elf_errmsg(-1));
        return -1;
    }
    exec_sec = ph_xcalloc(nsec ? nsec : 1, 1);
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        size_t idx = elf_ndxscn(scn);
        if (!gelf_getshdr(scn, &sh) || idx >= nsec)
            continue;
        if ((sh.sh_flags & SHF_EXECINSTR) && (sh.sh_flags & SHF_ALLOC) &&
            sh.sh_size > 0) {
            exec_sec[idx] = 1;
            s->exec = ph_xrealloc(s->exec, (s->nexec + 1) * sizeof *s->exec);
            s->exec[s->nexec++] = (ph_gmon_range){sh.sh_addr,
                                                  sh.sh_addr + sh.sh_size};
        }
    }
    ph_elf_syms_begin(&it, elf, SHT_SYMTAB);
    while (ph_elf_syms_next(&it, &sym, &name)) {
        int type, bind;
        type = GELF_ST_TYPE(sym.st_info);
        bind = GELF_ST_BIND(sym.st_info);
        if (strcmp(name, "etext") == 0 && sym.st_shndx != SHN_UNDEF) {
            s->has_etext = 1;
            s->etext = sym.st_value;
        }
        if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= nsec ||
            !exec_sec[sym.st_shndx] || type == STT_SECTION ||
            type == STT_FILE)
            continue;
        if (bind == STB_LOCAL &&
            !accept_local_name(it.strtab, it.strsize, sym.st_name))
            continue;
        if (bind != STB_LOCAL && !name[0])
            continue;
        if (s->nsyms == cap) {
            cap = cap ? 2 * cap : 256;
            s->syms = ph_xrealloc(s->syms, cap * sizeof *s->syms);
        }
        ph_gmon_sym *g = &s->syms[s->nsyms++];
        memset(g, 0, sizeof *g);
        g->addr = sym.st_value;
        g->is_static = bind == STB_LOCAL;
        g->is_func = type == STT_FUNC || type == STT_GNU_IFUNC;
        g->name = ph_elf_demangle(name, &s->demangled);
        if (g->name)
            g->mangled = dup_string(name);
        else
            g->name = dup_string(name);
    }
    s->has_symtab = it.sections > 0;
    free(exec_sec);
    finish_symbols(s);
    return 0;
}

/* ------------------------------------------------------------------ */
/* DWARF line table                                                    */

static uint32_t intern_file(ph_gmon_syms *s, const char *name)
{
    /* Files repeat in runs; look at the recent ones first. */
    for (size_t i = s->nfiles; i > 0; i--)
        if (strcmp(s->files[i - 1], name) == 0)
            return (uint32_t)i;
    s->files = ph_xrealloc(s->files, (s->nfiles + 1) * sizeof *s->files);
    s->files[s->nfiles++] = dup_string(name);
    return (uint32_t)s->nfiles;
}

static void add_line(ph_gmon_syms *s, size_t *cap, uint64_t addr,
                     uint32_t line, uint32_t file)
{
    if (s->nlines == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        s->lines = ph_xrealloc(s->lines, *cap * sizeof *s->lines);
    }
    s->lines[s->nlines] = (ph_gmon_line){addr, line, file,
                                         (uint32_t)s->nlines};
    s->nlines++;
}

static void read_cu_lines(ph_gmon_syms *s, Dwarf_Debug dbg, Dwarf_Die cu,
                          size_t *cap)
{
    Dwarf_Unsigned version;
    Dwarf_Small count;
    Dwarf_Line_Context ctx;
    Dwarf_Line *lines;
    Dwarf_Signed n;
    Dwarf_Error e = NULL;
    uint32_t last_file = 0;
    char *last_name = NULL;

    if (dwarf_srclines_b(cu, &version, &count, &ctx, &e) != DW_DLV_OK)
        return;
    if (dwarf_srclines_from_linecontext(ctx, &lines, &n, &e) == DW_DLV_OK) {
        for (Dwarf_Signed i = 0; i < n; i++) {
            Dwarf_Addr a;
            Dwarf_Unsigned ln;
            Dwarf_Bool end = 0;
            char *src = NULL;
            uint32_t file = last_file;
            if (dwarf_lineaddr(lines[i], &a, &e) != DW_DLV_OK ||
                dwarf_lineno(lines[i], &ln, &e) != DW_DLV_OK)
                continue;
            dwarf_lineendsequence(lines[i], &end, &e);
            if (dwarf_linesrc(lines[i], &src, &e) == DW_DLV_OK && src) {
                if (!last_name || strcmp(last_name, src) != 0) {
                    file = intern_file(s, src);
                    last_name = s->files[file - 1];
                    last_file = file;
                }
                dwarf_dealloc(dbg, src, DW_DLA_STRING);
            }
            add_line(s, cap, a, end ? 0 : (uint32_t)ln, end ? 0 : file);
        }
    }
    dwarf_srclines_dealloc_b(ctx);
}

static int cmp_line(const void *x, const void *y)
{
    const ph_gmon_line *a = x, *b = y;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    /* at one address a real line wins over an end of sequence */
    if ((a->line == 0) != (b->line == 0))
        return (a->line == 0) - (b->line == 0);
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void read_dwarf(ph_gmon_syms *s, int fd)
{
    Dwarf_Debug dbg = NULL;
    Dwarf_Error e = NULL;
    size_t cap = 0;

    if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg,
                     &e) != DW_DLV_OK) {
        /* An error made without a Dwarf_Debug is ours to free (a section
         * name index out of range gives one). */
        dwarf_dealloc_error(NULL, e);
        return;  /* no debug info: functions only */
    }
    for (;;) {
        Dwarf_Unsigned hlen, abbrev_off, typeoff, next;
        Dwarf_Half ver, asize, lsize, esize, cutype;
        Dwarf_Sig8 sig;
        Dwarf_Die cu = NULL;
        if (dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbrev_off, &asize,
                                   &lsize, &esize, &sig, &typeoff, &next,
                                   &cutype, &e) != DW_DLV_OK)
            break;
        if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &e) != DW_DLV_OK)
            continue;
        read_cu_lines(s, dbg, cu, &cap);
        dwarf_dealloc(dbg, cu, DW_DLA_DIE);
    }
    dwarf_finish(dbg, &e);
    ph_qsort(s->lines, s->nlines, sizeof *s->lines, cmp_line);
}

/* ------------------------------------------------------------------ */
/* Public (to the importer)                                            */

int ph_gmon_syms_load(ph_gmon_syms *s, const char *path, char *err,
                      size_t errsize)
{
    int fd, rc;
    Elf *elf;

    memset(s, 0, sizeof *s);
    s->path = path;
    elf = ph_elf_open(path, &fd, err, errsize);
    if (!elf)
        return -1;
    rc = read_elf(s, elf, err, errsize);
    elf_end(elf);
    if (rc == 0) {
        read_dwarf(s, fd);
        for (size_t i = 0; i < s->nsyms; i++)
            s->syms[i].line = ph_gmon_syms_line(s, s->syms[i].addr,
                                                &s->syms[i].file);
    }
    close(fd);
    if (rc != 0)
        ph_gmon_syms_free(s);
    return rc;
}

void ph_gmon_syms_free(ph_gmon_syms *s)
{
    for (size_t i = 0; i < s->nsyms; i++)
        free_sym(&s->syms[i]);
    for (size_t i = 0; i < s->nfiles; i++)
        free(s->files[i]);
    free(s->syms);
    free(s->files);
    free(s->lines);
    free(s->exec);
    memset(s, 0, sizeof *s);
}

size_t ph_gmon_syms_next(const ph_gmon_syms *s, uint64_t addr)
{
    size_t lo = 0, hi = s->nsyms;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

long ph_gmon_syms_find(const ph_gmon_syms *s, uint64_t addr)
{
    size_t lo = ph_gmon_syms_next(s, addr);
    if (lo == 0 || addr >= s->syms[lo - 1].end)
        return -1;
    return (long)(lo - 1);
}

size_t ph_gmon_syms_row_after(const ph_gmon_syms *s, uint64_t addr)
{
    size_t lo = 0, hi = s->nlines;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->lines[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint32_t ph_gmon_syms_line(const ph_gmon_syms *s, uint64_t addr,
                           uint32_t *file)
{
    size_t lo = ph_gmon_syms_row_after(s, addr);
    *file = 0;
    if (lo == 0)
        return 0;
    /* several rows at one address: the last real one, as binutils reads
     * them (recursion-pie's mix at 0x12c6: lines 20, 20, 20, 19 and gprof
     * -l says 19) */
    size_t i = lo - 1;
    while (i > 0 && s->lines[i].line == 0 &&
           s->lines[i - 1].addr == s->lines[i].addr)
        i--;
    *file = s->lines[i].file;
    return s->lines[i].line;
}

/* The first address after addr whose line differs from addr's: where
 * gprof -l, which asks the line of every address, starts a line symbol. */
uint64_t ph_gmon_syms_line_next(const ph_gmon_syms *s, uint64_t addr)
{
    uint32_t file, f2, line = ph_gmon_syms_line(s, addr, &file);
    for (size_t lo = ph_gmon_syms_row_after(s, addr); lo < s->nlines; lo++) {
        uint64_t a = s->lines[lo].addr;
        if (ph_gmon_syms_line(s, a, &f2) != line || f2 != file)
            return a;
    }
    return UINT64_MAX;
}

int ph_gmon_syms_in_text(const ph_gmon_syms *s, uint64_t addr)
{
    return section_end(s, addr) != 0;
}
