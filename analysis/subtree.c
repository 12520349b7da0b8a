/* subtree.c -- cost of every context-tree subtree, bottom-up in one pass
 * (node ids put parents before children). */
#include "config.h"

#include <stdlib.h>

#include "analysis_priv.h"

int64_t *ph_subtree_sums(const ph_profile *p, int part, uint64_t **counts)
{
    size_t n = ph_node_count(p), w = ph_event_nreal(p);
    if (counts)
        *counts = NULL;
    if (n == 0)
        return NULL;
    int64_t *sum = ph_xcalloc(n * (w ? w : 1), sizeof *sum);
    uint64_t *cnt = counts ? ph_xcalloc(n, sizeof *cnt) : NULL;
    unsigned char *additive = ph_xmalloc(w ? w : 1);
    for (size_t k = 0; k < w; k++)
        additive[k] = !(ph_event_real(p, k)->flags & PH_EV_NONADDITIVE);

    for (size_t i = 0; i < n; i++) {
        const ph_node *node = ph_node_at(p, i);
        int64_t *row = sum + i * w;
        for (const ph_sample *s = ph_node_samples(p, node); s; s = s->next) {
            if (!ph_part_selected(s->part, part))
                continue;
            for (size_t k = 0; k < w; k++)
                if (additive[k])
                    row[k] = ph_cost_add(row[k], ph_sample_value(s, k));
            if (cnt)
                cnt[i]++;
        }
    }
    for (size_t i = n; i-- > 0;) {
        const ph_node *node = ph_node_at(p, i);
        if (!node->parent)
            continue;
        size_t up = node->parent - 1;
        ph_vec_add(sum + up * w, sum + i * w, w);
        if (cnt)
            cnt[up] += cnt[i];
    }
    free(additive);
    if (counts)
        *counts = cnt;
    return sum;
}
