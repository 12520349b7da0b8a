/* plugin_file.c -- what a file on the plugin path must be before profhub
 * dlopens it: a regular file (a FIFO would block the open, a device could
 * read without end) and an ELF shared object whose dynamic symbol table
 * defines ph_collector_entry.  dlopen runs a library's constructors, so a
 * stray .so (or a hostile one without our entry) is refused from its
 * symbol table, read with libelf, and never loaded.  A file that passes
 * still runs its constructors when loaded: the plugin path is trusted
 * code, like LD_LIBRARY_PATH.  Library code: never prints. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/collector.h"
#include "collectors/loader.h"

/* 1 when the ELF's .dynsym defines PH_COLLECTOR_ENTRY as a function. */
static int defines_entry(Elf *e)
{
    Elf_Scn *scn = NULL;

    while ((scn = elf_nextscn(e, scn)) != NULL) {
        GElf_Shdr sh;
        Elf_Data *data;

        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM ||
            sh.sh_entsize == 0)
            continue;
        data = elf_getdata(scn, NULL);
        if (!data)
            continue;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym sym;
            const char *name;

            if (!gelf_getsym(data, (int)i, &sym) ||
                sym.st_shndx == SHN_UNDEF ||
                GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
                (GELF_ST_BIND(sym.st_info) != STB_GLOBAL &&
                 GELF_ST_BIND(sym.st_info) != STB_WEAK))
                continue;
            name = elf_strptr(e, sh.sh_link, sym.st_name);
            if (name && strcmp(name, PH_COLLECTOR_ENTRY) == 0)
                return 1;
        }
    }
    return 0;
}

int ph_plugin_file_check(const char *path, char *err, size_t errsize)
{
    struct stat st;
    int fd, rc = -1;
    Elf *e;
    GElf_Ehdr eh;

    if (stat(path, &st) != 0) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errsize, "%s: not a regular file", path);
        return -1;
    }
    /* O_NONBLOCK: the file may have been swapped for a FIFO since. */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errsize, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    elf_version(EV_CURRENT);
    e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh))
        snprintf(err, errsize, "%s: not an ELF file", path);
    else if (eh.e_type != ET_DYN)
        snprintf(err, errsize, "%s: not an ELF shared object", path);
    else if (!defines_entry(e))
        snprintf(err, errsize, "%s: no %s in its dynamic symbol table (not "
                 "a profhub collector)", path,
                 PH_COLLECTOR_ENTRY);
    else
        rc = 0;
    if (e)
        elf_end(e);
    close(fd);
    return rc;
}
