/* stock.h -- big blocks made ready by a thread with time to spare.  On the
 * virtual machines profhub is measured on, the first write to memory new
 * to a process is slow (the host backs a guest's page only when it is
 * used; 0.3-2.8 GB/s in 4 KiB pages, by the host): a sixth of the
 * callgrind reader's thread, a tenth of the pprof reader's, went to
 * faulting in the arenas' blocks.  Another thread writes the pages of the
 * next block while the reader works, and the profile's arenas take their
 * full-size blocks from the stock before asking the system. */
#ifndef PH_STOCK_H
#define PH_STOCK_H

#include <stddef.h>

typedef struct ph_stock ph_stock;
struct ph_profile;

/* An empty stock, filled by the caller's own threads (ph_stock_fill). */
ph_stock *ph_stock_new(void);
/* A stock with a thread of its own that keeps it filled while a reader
 * with total units of work to do (ph_stock_progress) will want another
 * block; NULL when only one thread may run (ph_jobs). */
ph_stock *ph_stock_start(size_t total);
/* Stops its thread and frees the blocks still in stock. */
void ph_stock_free(ph_stock *s);
/* One more block ready, its pages written: 1, or 0 when the stock is full
 * or the memory limit or the system said no.  Any thread. */
int ph_stock_fill(ph_stock *s);
/* A ready block of PH_ARENA_MAX_BLOCK bytes, aligned to its size, freed
 * with free(); NULL when none is.  Any thread. */
void *ph_stock_take(ph_stock *s);
/* A block of PH_ARENA_MAX_BLOCK bytes, aligned to its size, for a
 * profile: s's ready one, else a new one from the system (s may be
 * NULL). */
void *ph_stock_block(ph_stock *s);
/* How many times ph_stock_take was called: the blocks the arenas made. */
size_t ph_stock_asked(const ph_stock *s);
/* Whether a reader done with done of its total units will take another
 * block before the end, at the rate of units a block so far: a block made
 * and not taken is memory the peak counts for nothing. */
int ph_stock_wanted(const ph_stock *s, size_t done, size_t total);
/* The reader of a ph_stock_start stock (or NULL) is done with done
 * units. */
void ph_stock_progress(ph_stock *s, size_t done);

/* The arenas of p take their full-size blocks from s while it is set; set
 * NULL before s is freed. */
void ph_profile_set_stock(struct ph_profile *p, ph_stock *s);

#endif /* PH_STOCK_H */
