/* scc.c -- strongly connected components (Tarjan's algorithm without
 * recursion), the one routine behind cycles (cycles.c) and gprof's
 * propagation (gprof_prop.c).
 */
#include "config.h"

#include <stdlib.h>

#include "analysis_priv.h"

typedef struct frame {
    uint32_t v;
    size_t next;              /* next successor to try, index into to[] */
} frame;

size_t ph_scc(size_t n, const size_t *first, const uint32_t *to,
              const uint32_t *roots, uint32_t *comp, uint32_t *order,
              uint32_t *visit)
{
    /* mapped first: written at random, index read before (0: unseen) */
    uint32_t *index = ph_xcalloc_written(n + 1, sizeof *index);
    uint32_t *low = ph_xcalloc_written(n + 1, sizeof *low);
    unsigned char *on = ph_xcalloc_written(n + 1, 1);
    uint32_t *stack = ph_xmalloc((n + 1) * sizeof *stack);
    frame *fs = ph_xmalloc((n + 1) * sizeof *fs);
    size_t sp = 0, fp, norder = 0, ncomp = 0;
    uint32_t counter = 0;

    for (size_t r = 0; r < n; r++) {
        uint32_t root = roots ? roots[r] : (uint32_t)r;
        if (index[root])
            continue;
        fp = 0;
        fs[fp++] = (frame){root, first[root]};
        index[root] = low[root] = ++counter;
        stack[sp++] = root;
        on[root] = 1;
        while (fp) {
            frame *fr = &fs[fp - 1];
            uint32_t v = fr->v;
            if (fr->next < first[v + 1]) {
                uint32_t w = to[fr->next++];
                if (!index[w]) {
                    index[w] = low[w] = ++counter;
                    stack[sp++] = w;
                    on[w] = 1;
                    fs[fp++] = (frame){w, first[w]};
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            fp--;
            if (fp && low[v] < low[fs[fp - 1].v])
                low[fs[fp - 1].v] = low[v];
            if (low[v] != index[v])
                continue;
            uint32_t w;
            do {
                w = stack[--sp];
                on[w] = 0;
                comp[w] = (uint32_t)ncomp;
                if (order)
                    order[norder++] = w;
            } while (w != v);
            ncomp++;
        }
    }
    if (visit)
        for (size_t v = 0; v < n; v++)
            visit[v] = index[v] - 1;
    free(index);
    free(low);
    free(on);
    free(stack);
    free(fs);
    return ncomp;
}
