/* objdump.h -- the disassembly of an address range of an object file,
 * from binutils' objdump (the machine-code view of "summary --disasm"). */
#ifndef PH_OBJDUMP_H
#define PH_OBJDUMP_H

#include <stddef.h>
#include <stdint.h>

typedef struct ph_disasm_line {
    uint64_t addr;
    char *text;           /* the instruction, as objdump prints it */
} ph_disasm_line;

typedef struct ph_disasm {
    ph_disasm_line *v;    /* by address, as objdump printed them */
    size_t n;
    char why[256];        /* when empty after ph_disasm_run: the reason */
} ph_disasm;

/* Run "objdump -d -C -w --start-address=START --stop-address=STOP OBJECT"
 * and keep its instruction lines.  0, or -1 with d->why set (no object
 * file, no objdump, objdump failed). */
int ph_disasm_run(const char *object, uint64_t start, uint64_t stop,
                  ph_disasm *d);
/* The instruction at addr, or NULL. */
const char *ph_disasm_at(const ph_disasm *d, uint64_t addr);
void ph_disasm_free(ph_disasm *d);

#endif /* PH_OBJDUMP_H */
