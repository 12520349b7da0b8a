/* jobs.h -- how many threads the library may use, two independent
 * pieces of work run side by side, and pieces made side by side and given
 * in order.  The count is set once by the front end from --jobs or
 * PROFHUB_JOBS: the callgrind reader's look-ahead threads
 * (importers/callgrind_par.c), the protobuf readers' check of their
 * records (proto/pb_records.c) and their string tables' hashes
 * (proto/pb_read.c), the pprof reader's frames beside its tree
 * and its tables beside its names (importers/pprof_in.c), the functions'
 * sums of rows (aggregate.c), the stack view's split of self costs
 * (analysis/view_stacks.c), diff's two inputs and two tables, the gzip
 * thread of an output (output.c) and the callgrind writer's pieces
 * (exporters/callgrind_out.c) use it.  Every result is the same whatever
 * the number.  A thread started here names the file of the thread that
 * started it in an out-of-memory message (ph_mem_context). */
#ifndef PH_JOBS_H
#define PH_JOBS_H

/* n threads; 0 (the default) means every online processor.  ph_jobs():
 * the threads the calling thread's work may use (half inside each side of
 * a ph_run_pair, at least 1). */
void ph_set_jobs(int n);
int ph_jobs(void);

/* fn(first) on a thread of its own and fn(second) on this one, both done
 * on return; each may use half of ph_jobs().  One after the other when
 * ph_jobs() is 1 or no thread can be started.  The two must share nothing
 * they write. */
void ph_run_pair(void (*fn)(void *), void *first, void *second);
/* As ph_run_pair for light work beside heavy: fn(light) on a thread of
 * its own, fn(heavy) on this one with all of this thread's threads (the
 * light side takes the other core only for a short time). */
void ph_run_beside(void (*fn)(void *), void *light, void *heavy);

/* Pieces 0..n-1 made side by side and given in order: make(arg, i, side)
 * on this thread (side 0) and, when `sides` is 2 and there are two jobs
 * or more, on one other (side 1: each side may keep scratch of its own);
 * give(arg, i) one piece at a time in the order of i, by whichever side is
 * free, with at most `ahead` (at least 1) pieces made or being made and
 * not given.  Alone, this thread makes and gives each piece in turn.
 * make runs beside make and give: it must write nothing they read. */
void ph_run_ordered(size_t n, size_t ahead, int sides,
                    void (*make)(void *arg, size_t i, int side),
                    void (*give)(void *arg, size_t i), void *arg);

#endif /* PH_JOBS_H */
