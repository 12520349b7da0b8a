/* elf_syms.h -- what the importers that read executables share (gmon,
 * native): opening an ELF file with libelf, walking its symbol tables, and
 * demangling C++ names with the C++ runtime's __cxa_demangle, loaded at
 * run time (no link-time dependency on libstdc++), once per process and
 * thread-safe.  For importers/ only. */
#ifndef PH_ELF_SYMS_H
#define PH_ELF_SYMS_H

#include <gelf.h>
#include <libelf.h>
#include <stddef.h>

/* Open path as an ELF file.  Returns the handle and *fd, or NULL with a
 * message in err ("No such file...", "not an ELF file"). */
Elf *ph_elf_open(const char *path, int *fd, char *err, size_t errsize);
void ph_elf_close(Elf *elf, int fd);

/* The symbols of every section of type sh_type (SHT_SYMTAB, SHT_DYNSYM,
 * or 0 for both), in file order; symbols without a name string are left
 * out.  it->strtab/strsize are the current symbol's string table (gprof's
 * rules read the bytes around a name); it->sections counts the sections
 * of that type met so far.
 *   ph_elf_symiter it; ph_elf_syms_begin(&it, elf, SHT_SYMTAB);
 *   while (ph_elf_syms_next(&it, &sym, &name)) ... */
typedef struct ph_elf_symiter {
    Elf *elf;
    Elf_Scn *scn;
    Elf_Data *data;
    GElf_Shdr sh;
    int sh_type;
    size_t i, count, sections;
    const char *strtab;
    size_t strsize;
} ph_elf_symiter;
void ph_elf_syms_begin(ph_elf_symiter *it, Elf *elf, int sh_type);
int ph_elf_syms_next(ph_elf_symiter *it, GElf_Sym *sym, const char **name);

/* The demangled form of a C++ ("_Z") name, malloc'ed, or NULL (not
 * mangled, not demangled, or no C++ runtime).  *available (may be NULL)
 * says whether the runtime's demangler could be loaded. */
char *ph_elf_demangle(const char *name, int *available);

#endif /* PH_ELF_SYMS_H */
