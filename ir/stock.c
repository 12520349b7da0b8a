/* stock.c -- big blocks whose pages another thread has written (stock.h).
 * A few slots, each empty or holding one block, filled and emptied with
 * atomic exchanges: the filler and the taker never wait for each other.
 * A stock with a thread of its own wakes it at each block asked for. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>

#include "ir_priv.h"
#include "jobs.h"
#include "stock.h"

/* One block: the reader fills one in milliseconds, the filler makes one
 * in a fraction of that; and a block made but not taken is memory the
 * peak counts. */
#define STOCK_SLOTS 1

struct ph_stock {
    void *slot[STOCK_SLOTS];    /* read and written atomically */
    size_t asked;               /* blocks asked for, atomic */
    /* the filling thread of a ph_stock_start stock */
    int threaded;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;                   /* under mu */
    size_t done, total;         /* the reader's progress; done atomic */
};

ph_stock *ph_stock_new(void)
{
    return ph_xcalloc(1, sizeof(ph_stock));
}

static void *filler(void *arg)
{
    ph_stock *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->stop) {
        size_t done = __atomic_load_n(&s->done, __ATOMIC_RELAXED);
        if (ph_stock_wanted(s, done, s->total)) {
            pthread_mutex_unlock(&s->mu);
            int more = ph_stock_fill(s);
            pthread_mutex_lock(&s->mu);
            /* a stop signalled while the lock was free was not heard:
             * waiting now would wait for ever (ph_stock_free joins) */
            if (more || s->stop)
                continue;
        }
        pthread_cond_wait(&s->cv, &s->mu);  /* until a block is asked for */
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

ph_stock *ph_stock_start(size_t total)
{
    if (ph_jobs() < 2)
        return NULL;
    ph_stock *s = ph_stock_new();
    s->total = total;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->threaded = pthread_create(&s->th, NULL, filler, s) == 0;
    if (!s->threaded) {
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv);
        ph_stock_free(s);
        return NULL;
    }
    return s;
}

void ph_stock_free(ph_stock *s)
{
    if (!s)
        return;
    if (s->threaded) {
        pthread_mutex_lock(&s->mu);
        s->stop = 1;
        pthread_cond_signal(&s->cv);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->th, NULL);
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv);
    }
    for (int i = 0; i < STOCK_SLOTS; i++)
        free(s->slot[i]);
    free(s);
}

/* A block aligned to its size (the tree cuts chunks aligned to theirs
 * from it: tree.c), or NULL. */
static void *new_block(void)
{
    void *q = NULL;
    if (!ph_mem_allows(PH_ARENA_MAX_BLOCK) ||
        posix_memalign(&q, PH_ARENA_MAX_BLOCK, PH_ARENA_MAX_BLOCK) != 0)
        return NULL;
    ph_prefault(q, PH_ARENA_MAX_BLOCK);
    return q;
}

int ph_stock_fill(ph_stock *s)
{
    for (int i = 0; i < STOCK_SLOTS; i++) {
        if (__atomic_load_n(&s->slot[i], __ATOMIC_ACQUIRE))
            continue;
        /* counted now, as the arena would count it */
        void *q = new_block();
        if (!q)
            return 0;
        /* a write per page: what is left of its fault once mapped (the
         * host backing it) taken here, not by the reader */
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
    void *q = NULL;
    __atomic_add_fetch(&s->asked, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < STOCK_SLOTS && !q; i++)
        if (__atomic_load_n(&s->slot[i], __ATOMIC_RELAXED))
            q = __atomic_exchange_n(&s->slot[i], NULL, __ATOMIC_ACQUIRE);
    if (s->threaded) {
        pthread_mutex_lock(&s->mu);
        pthread_cond_signal(&s->cv);
        pthread_mutex_unlock(&s->mu);
    }
    return q;
}

void *ph_stock_block(ph_stock *s)
{
    void *q = s ? ph_stock_take(s) : NULL;
    if (!q && !(q = new_block()))
        ph_oom();
    return q;
}

size_t ph_stock_asked(const ph_stock *s)
{
    return __atomic_load_n(&s->asked, __ATOMIC_RELAXED);
}

int ph_stock_wanted(const ph_stock *s, size_t done, size_t total)
{
    size_t per_block = done / (ph_stock_asked(s) + 1);
    return done < total && total - done > 2 * per_block;
}

void ph_stock_progress(ph_stock *s, size_t done)
{
    if (s)
        __atomic_store_n(&s->done, done, __ATOMIC_RELAXED);
}

void ph_profile_set_stock(ph_profile *p, ph_stock *s)
{
    p->stock = s;
    p->arena.stock = s;
    p->row_arena.stock = s;
    p->rec_arena.stock = s;
}
