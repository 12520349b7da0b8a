/* elf_syms.c -- ELF files, their symbol tables and C++ demangling for the
 * importers that read executables (see elf_syms.h). */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/elf_syms.h"

/* ------------------------------------------------------------------ */
/* Files                                                               */

Elf *ph_elf_open(const char *path, int *fd, char *err, size_t errsize)
{
    Elf *elf;

    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0) {
        snprintf(err, errsize, "%s", strerror(errno));
        return NULL;
    }
    elf_version(EV_CURRENT);
    elf = elf_begin(*fd, ELF_C_READ, NULL);
    if (!elf) {
        snprintf(err, errsize, "not an ELF file (%s)", elf_errmsg(-1));
    } else if (elf_kind(elf) != ELF_K_ELF) {
        snprintf(err, errsize, "not an ELF file");
        elf_end(elf);
        elf = NULL;
    }
    if (!elf) {
        close(*fd);
        *fd = -1;
    }
    return elf;
}

void ph_elf_close(Elf *elf, int fd)
{
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
}

/* ------------------------------------------------------------------ */
/* Symbol tables                                                       */

void ph_elf_syms_begin(ph_elf_symiter *it, Elf *elf, int sh_type)
{
    memset(it, 0, sizeof *it);
    it->elf = elf;
    it->sh_type = sh_type;
}

/* The next symbol table with readable symbols and strings; 0 at the end. */
static int next_table(ph_elf_symiter *it)
{
    while ((it->scn = elf_nextscn(it->elf, it->scn)) != NULL) {
        Elf_Scn *strscn;
        Elf_Data *strdata;
        if (!gelf_getshdr(it->scn, &it->sh) || it->sh.sh_entsize == 0)
            continue;
        if (it->sh_type ? it->sh.sh_type != (GElf_Word)it->sh_type
                        : it->sh.sh_type != SHT_SYMTAB &&
                              it->sh.sh_type != SHT_DYNSYM)
            continue;
        it->sections++;
        it->data = elf_getdata(it->scn, NULL);
        strscn = elf_getscn(it->elf, it->sh.sh_link);
        strdata = strscn ? elf_getdata(strscn, NULL) : NULL;
        if (!it->data || !strdata || !strdata->d_buf)
            continue;
        it->strtab = strdata->d_buf;
        it->strsize = strdata->d_size;
        it->count = it->sh.sh_size / it->sh.sh_entsize;
        it->i = 0;
        return 1;
    }
    return 0;
}

int ph_elf_syms_next(ph_elf_symiter *it, GElf_Sym *sym, const char **name)
{
    for (;;) {
        if (it->i >= it->count || !it->data) {
            if (!next_table(it))
                return 0;
            continue;
        }
        if (!gelf_getsym(it->data, (int)it->i, sym)) {
            it->count = 0;   /* a broken table ends here */
            continue;
        }
        it->i++;
        *name = elf_strptr(it->elf, it->sh.sh_link, sym->st_name);
        if (*name)
            return 1;
    }
}

/* ------------------------------------------------------------------ */
/* Demangling                                                          */

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

static demangle_fn demangler;
static pthread_once_t demangler_once = PTHREAD_ONCE_INIT;

static void load_demangler(void)
{
    void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (!sym) {
        void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (h)
            sym = dlsym(h, "__cxa_demangle");
        /* h stays open for the life of the process */
    }
    if (sym)
        memcpy(&demangler, &sym, sizeof demangler);
}

char *ph_elf_demangle(const char *name, int *available)
{
    int status = -1;
    char *out;

    pthread_once(&demangler_once, load_demangler);
    if (available)
        *available = demangler != NULL;
    if (!demangler || strncmp(name, "_Z", 2) != 0)
        return NULL;
    out = demangler(name, NULL, NULL, &status);
    if (status != 0 || !out) {
        free(out);
        return NULL;
    }
    return out;
}
