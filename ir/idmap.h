/* idmap.h -- uint64 key -> uint32 index, open addressing: the pprof
 * reader's ids and --annotate's (file, line) and (line, callee) keys.
 * Internal: not installed. */
#ifndef PH_IDMAP_H
#define PH_IDMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct ph_idmap {
    uint64_t *keys;   /* NULL while the keys index vals directly */
    uint32_t *vals;   /* index + 1; 0 = empty slot */
    size_t mask;      /* slots - 1 */
    size_t count;
} ph_idmap;

/* Room for n keys without growing (the map grows past them). */
void ph_idmap_init(ph_idmap *m, size_t n);
void ph_idmap_free(ph_idmap *m);
/* Insert id -> idx; returns 0, or -1 when id is already present. */
int ph_idmap_put(ph_idmap *m, uint64_t id, uint32_t idx);
/* Index for id, or -1 when absent. */
int64_t ph_idmap_get(const ph_idmap *m, uint64_t id);

#endif /* PH_IDMAP_H */
