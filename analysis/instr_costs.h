/* instr_costs.h -- a function's costs per instruction address (callgrind
 * --dump-instr=yes): the rows of one function summed by address, sorted,
 * with the call records made at each address and the jumps from it
 * (--collect-jumps=yes). */
#ifndef PH_INSTR_COSTS_H
#define PH_INSTR_COSTS_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"   /* installed beside it: no ir/ prefix */

typedef struct ph_instr_call {
    ph_func *callee;
    uint64_t count;
    int64_t *incl;        /* width values; NULL when the record has none */
} ph_instr_call;

/* Jumps from one address to one target, summed over parts. */
typedef struct ph_instr_jump {
    ph_func *to;          /* the target's function (NULL unknown) */
    uint64_t target;      /* target address; 0 unknown */
    uint32_t target_line;
    uint64_t executed;    /* times the jump instruction ran */
    uint64_t followed;    /* times it jumped (= executed if unconditional) */
    int conditional;      /* jcnd= (1) or jump= (0) */
} ph_instr_jump;

typedef struct ph_instr_row {
    uint64_t addr;
    uint32_t line;        /* the first row's line at this address */
    ph_file *file;
    int64_t *cost;        /* width values, summed over the rows */
    size_t call0, ncalls; /* its calls: calls[call0 .. call0 + ncalls) */
    size_t jump0, njumps; /* its jumps: jumps[jump0 .. jump0 + njumps) */
} ph_instr_row;

typedef struct ph_instr_costs {
    size_t width;         /* ph_event_nreal */
    ph_instr_row *rows;   /* by address */
    size_t n;
    ph_instr_call *calls; /* by address, then in the order added */
    size_t ncalls;
    ph_instr_jump *jumps; /* by address, then target and kind */
    size_t njumps;
    int64_t *self;        /* width values: the sum of every row */
    size_t unplaced;      /* rows, calls and jumps without an address */
} ph_instr_costs;

/* Fill *out with f's addresses in part (NULL: every part).  Rows and
 * calls at address 0 (unknown) are counted in unplaced, not listed. */
PH_API void ph_instr_costs_collect(const ph_profile *p, const ph_func *f,
                                   const ph_part *part, ph_instr_costs *out);
PH_API void ph_instr_costs_free(ph_instr_costs *c);

#endif /* PH_INSTR_COSTS_H */
