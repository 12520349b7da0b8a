/* stock.h -- huge blocks made ready by a thread with time to spare.  On the
 * virtual machines profhub is measured on, the first write to memory new
 * to a process runs at 0.6-1 GB/s (the host backs a guest's page only when
 * it is used): a sixth of the callgrind reader's thread went to faulting in
 * its arenas' blocks.  The reader's look-ahead thread touches the pages of
 * a few blocks while it waits for the reader, and the profile's arenas
 * take their full-size blocks from the stock before asking the system. */
#ifndef PH_STOCK_H
#define PH_STOCK_H

typedef struct ph_stock ph_stock;
struct ph_profile;

/* An empty stock. */
ph_stock *ph_stock_new(void);
/* Frees the blocks still in stock. */
void ph_stock_free(ph_stock *s);
/* One more block ready, its pages written: 1, or 0 when the stock is full
 * or the memory limit or the system said no.  Any thread. */
int ph_stock_fill(ph_stock *s);
/* A ready block of PH_ARENA_MAX_BLOCK bytes, aligned to a huge page,
 * freed with free(); NULL when none is.  Any thread. */
void *ph_stock_take(ph_stock *s);
/* How many times ph_stock_take was called: the blocks the arenas made. */
size_t ph_stock_asked(const ph_stock *s);

/* The arenas of p take their full-size blocks from s while it is set; set
 * NULL before s is freed. */
void ph_profile_set_stock(struct ph_profile *p, ph_stock *s);

#endif /* PH_STOCK_H */
