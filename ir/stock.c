/* stock.c -- huge blocks whose pages another thread has written (stock.h).
 * A few slots, each empty or holding one block, filled and emptied with
 * atomic exchanges: the filler and the taker never wait for each other. */
#include "config.h"

#include <stdlib.h>

#include "ir_priv.h"
#include "stock.h"

/* One block: the reader fills one in milliseconds, the filler makes one
 * in a fraction of that; and a block made but not taken is memory the
 * peak counts. */
#define STOCK_SLOTS 1

struct ph_stock {
    void *slot[STOCK_SLOTS];    /* read and written atomically */
    size_t asked;               /* blocks asked for, atomic */
};

ph_stock *ph_stock_new(void)
{
    return ph_xcalloc(1, sizeof(ph_stock));
}

void ph_stock_free(ph_stock *s)
{
    if (!s)
        return;
    for (int i = 0; i < STOCK_SLOTS; i++)
        free(s->slot[i]);
    free(s);
}

int ph_stock_fill(ph_stock *s)
{
    for (int i = 0; i < STOCK_SLOTS; i++) {
        if (__atomic_load_n(&s->slot[i], __ATOMIC_ACQUIRE))
            continue;
        /* counted now, as the arena would count it */
        void *q = NULL;
        if (!ph_mem_allows(PH_ARENA_MAX_BLOCK) ||
            posix_memalign(&q, PH_HUGE_PAGE, PH_ARENA_MAX_BLOCK) != 0)
            return 0;
        ph_advise_huge(q, PH_ARENA_MAX_BLOCK);
        /* a write per small page: the fault of a huge page, or of each
         * small one where the system gives no huge pages */
        for (size_t at = 0; at < PH_ARENA_MAX_BLOCK; at += 4096)
            ((volatile char *)q)[at] = 0;
        void *none = NULL;
        if (__atomic_compare_exchange_n(&s->slot[i], &none, q, 0,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED))
            return 1;
        free(q);    /* another filler was quicker */
    }
    return 0;
}

void *ph_stock_take(ph_stock *s)
{
    __atomic_add_fetch(&s->asked, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < STOCK_SLOTS; i++) {
        if (!__atomic_load_n(&s->slot[i], __ATOMIC_RELAXED))
            continue;
        void *q = __atomic_exchange_n(&s->slot[i], NULL, __ATOMIC_ACQUIRE);
        if (q)
            return q;
    }
    return NULL;
}

void ph_profile_set_stock(ph_profile *p, ph_stock *s)
{
    p->arena.stock = s;
    p->row_arena.stock = s;
    p->rec_arena.stock = s;
}

size_t ph_stock_asked(const ph_stock *s)
{
    return __atomic_load_n(&s->asked, __ATOMIC_RELAXED);
}
