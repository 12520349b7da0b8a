/* ir.h -- the in-memory profile every importer builds and every exporter,
 * analysis and report reads.  This is the one public header of ir/.
 *
 * Ownership, once for the whole API: a ph_profile owns everything made for
 * it (strings, events, objects, files, functions, parts, cost rows, calls,
 * context nodes, samples).  Getters return pointers that live as long as the
 * profile; nothing returned is freed by the caller; ph_profile_free() is the
 * only free.  Out of memory calls ph_oom(), which prints and exits 1, so no
 * function here returns NULL for lack of memory.
 *
 * Costs come in two shapes, both first class:
 *   flat    cost rows at positions inside a function (per part), and call
 *           records (caller, call site, callee, count, inclusive cost);
 *           callgrind, cachegrind and gprof carry this.
 *   tree    context nodes (parent, frame) with samples attached; each sample
 *           holds an exclusive cost vector and labels; pprof, drcctprof and
 *           sampled call stacks carry this.
 * A profile may hold both.  Aggregates (self, inclusive, totals) are computed
 * on first request and cached; adding data afterwards drops the caches.
 *
 * What is stable, once for every installed header (ir.h, io.h, format.h,
 * analysis.h, gprof.h): each PH_API declaration and the types, fields and
 * constants it uses, under libprofhub.so.0; LIBRARY.md says which changes
 * bump the soname.  Nothing else the library holds is an interface.
 */
#ifndef PH_IR_H
#define PH_IR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(PH_STATIC_BUILD)
#define PH_API __attribute__((visibility("default")))
#else
#define PH_API
#endif

/* ------------------------------------------------------------------ */
/* Basics                                                             */

/* Interned string handle, unique per profile; 0 means "none".  Two handles
 * of one profile are equal iff the strings are equal. */
typedef uint32_t ph_str;

typedef struct ph_profile ph_profile;

/* The memory limit: the library's allocations (and protobuf-c's, and the
 * gzip buffer) fail through ph_oom once the heap in use would pass it;
 * ph_oom then names the file set by ph_mem_set_context (ph_input_open
 * sets it; one per thread, ph_mem_context gives this thread's) and the
 * limit.  0 = no limit (the default of the library; the front end sets
 * one).  ph_mem_allows(n): whether n more bytes fit. */
PH_API void ph_mem_set_limit(size_t bytes);
PH_API size_t ph_mem_limit(void);
PH_API void ph_mem_set_context(const char *name);
PH_API const char *ph_mem_context(void);
PH_API int ph_mem_allows(size_t n);
/* Print "profhub: FILE: out of memory" (with the limit when it was the
 * limit that refused) and exit 1. */
PH_API void ph_oom(void) __attribute__((noreturn));

/* malloc/calloc/realloc that call ph_oom() instead of returning NULL. */
PH_API void *ph_xmalloc(size_t n);
/* Zeros whose pages are mapped when first touched: a table sized by a
 * bound its use may stay far below touches only what it uses. */
PH_API void *ph_xcalloc(size_t n, size_t size);
/* Zeros written at once, for a block read before it is written (a hash
 * table's slots, sums): a page then faults once, not twice (alloc.c). */
PH_API void *ph_xcalloc_written(size_t n, size_t size);
/* n bytes the caller is about to write whole (an array filled at once):
 * their pages mapped in one call, not a fault at a time (alloc.c). */
PH_API void *ph_xmalloc_written(size_t n);
PH_API void *ph_xrealloc(void *p, size_t n);
/* For memory of cap bytes filled in order, called before bytes [at, at +
 * n) are written: when they start the memory or reach a multiple of
 * PH_AHEAD_BYTES, the memory up to the next multiple is mapped in one
 * call (ph_map_stretch: bytes [from, to) within cap, alloc.c), where its
 * fresh pages would fault one at a time.  ph_map_ahead: item i of an
 * array of cap items of size bytes. */
#define PH_AHEAD_BYTES ((size_t)256 << 10)
PH_API void ph_map_stretch(void *base, size_t from, size_t to, size_t cap);
static inline void ph_map_ahead_bytes(void *base, size_t at, size_t n,
                                      size_t cap)
{
    size_t last = (at + n - 1) / PH_AHEAD_BYTES;
    if (n && (at == 0 || (at - 1) / PH_AHEAD_BYTES != last))
        ph_map_stretch(base, at, (last + 1) * PH_AHEAD_BYTES, cap);
}
static inline void ph_map_ahead(void *array, size_t size, size_t i,
                                size_t cap)
{
    ph_map_ahead_bytes(array, i * size, size, cap * size);
}
/* p grown from old to n bytes, the new ones zero.  A big one grows by
 * realloc (glibc moves its mapping, copying nothing) and its new pages
 * are handed back to the kernel, not written: they stay out of the
 * resident set until used (alloc.c). */
PH_API void *ph_xrecalloc(void *p, size_t old, size_t n);

/* a + b for costs, saturated at the int64 range instead of wrapping: a
 * sum that does not fit sets a process-wide flag, which
 * ph_cost_overflowed() reports (the front end warns about it).  Every sum
 * of costs goes through this or its inline twin in ir/. */
PH_API int64_t ph_cost_add(int64_t a, int64_t b);
PH_API int ph_cost_overflowed(void);
/* Whether the n costs at v are all 0. */
static inline int ph_costs_zero(const int64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i])
            return 0;
    return 1;
}

/* A cost vector of n values packed as the rows keep theirs (rows.c), for
 * code that holds many: the most bytes it may take, packing it at d
 * (returns the end of what was written), and reading it into v, zeroed
 * by the caller (columns at or beyond nreal skipped, v NULL when nreal
 * is 0: stepping over it; returns the end of what was read). */
PH_API size_t ph_costs_room_max(size_t n);
PH_API unsigned char *ph_costs_put(unsigned char *d, const int64_t *cost,
                                   size_t n);
PH_API const unsigned char *ph_costs_get(const unsigned char *s,
                                         const unsigned char *end,
                                         int64_t *v, size_t nreal);

/* qsort that accepts an empty or NULL array: qsort(NULL, 0, ...) is
 * undefined (its pointer is declared nonnull) and aborts under UBSan. */
PH_API void ph_qsort(void *base, size_t n, size_t size,
                     int (*cmp)(const void *, const void *));
/* The first top of base[0..n) in cmp's order sorted into base[0..top),
 * the others after them in no order (top 0: all sorted).  cmp must be a
 * total order, or which of equal elements come first depends on the
 * pivots. */
PH_API void ph_qsort_top(void *base, size_t n, size_t size, size_t top,
                         int (*cmp)(const void *, const void *));

/* ------------------------------------------------------------------ */
/* Profile                                                            */

PH_API ph_profile *ph_profile_new(void);
PH_API void ph_profile_free(ph_profile *p);
/* Once a profile is built: what its arenas hold in reserve goes back to
 * the system (the pages of a block's unused tail it has written). */
PH_API void ph_profile_trim(ph_profile *p);

/* Memory from the profile's arena, aligned for any type, zeroed.  Freed with
 * the profile. */
PH_API void *ph_profile_alloc(ph_profile *p, size_t n);

/* Mark the profile as approximated (for example flat data turned into a
 * context tree with gprof's proportional rule).  The reason is kept (first
 * one wins) and reports say so on stderr. */
PH_API void ph_profile_set_approx(ph_profile *p, const char *reason);
PH_API const char *ph_profile_approx(const ph_profile *p);  /* NULL if exact */

/* Name of the format the profile was read from ("callgrind"), set by the
 * reader; NULL when built by hand. */
PH_API void ph_profile_set_format(ph_profile *p, const char *name);
PH_API const char *ph_profile_format(const ph_profile *p);

/* ------------------------------------------------------------------ */
/* Strings                                                            */

/* A string of PH_STR_COMPOUND_MIN bytes or more with parts joined by
 * PH_STR_JOIN (callgrind's --separate-callers names, "f'caller'its
 * caller") is kept as the handles of its parts: 150,000 such names of a
 * profile held 95 MB of text, their 7,800 parts 0.3 MB.  Its text is made
 * the first time ph_str_get asks for it (not from two threads at once);
 * ph_str_text and ph_str_cmp read it without keeping it. */
#define PH_STR_JOIN '\''
#define PH_STR_COMPOUND_MIN 64

PH_API ph_str ph_str_intern(ph_profile *p, const char *s, size_t len);
/* Room for n more strings, for a reader that knows how many it may intern
 * (the table then grows once). */
PH_API void ph_str_reserve(ph_profile *p, size_t n);
/* A text's hashes worked out ahead, on another thread than the one that
 * interns it (a reader's look-ahead), so that interning does not read the
 * text again: the whole text's and, for a compound string, each part's
 * length and hash. */
#define PH_STR_HASHED_PARTS 64
typedef struct ph_str_hashes {
    uint32_t whole;
    uint32_t nparts;              /* 0: not compound */
    const uint32_t (*part)[2];    /* nparts pairs: length, hash */
} ph_str_hashes;
/* s's hashes in p (only p's seed is read: any thread may ask while
 * another interns), a compound string's parts' in part (room for
 * PH_STR_HASHED_PARTS pairs), where h points: 0, or -1 for a compound
 * string of more parts (h->whole is set all the same). */
PH_API int ph_str_hash_text(const ph_profile *p, const char *s, size_t len,
                            ph_str_hashes *h, uint32_t (*part)[2]);
/* ph_str_intern of s with the hashes ph_str_hash_text gave. */
PH_API ph_str ph_str_intern_hashed(ph_profile *p, const char *s, size_t len,
                                   const ph_str_hashes *h);
PH_API ph_str ph_str_intern0(ph_profile *p, const char *s);  /* NUL-ended */
/* The strings of one profile interned in another (not the same), each
 * as it is asked for: a compound string from its parts, its text never
 * made (a diff's names from both sides). */
typedef struct ph_str_map ph_str_map;
PH_API ph_str_map *ph_str_map_new(ph_profile *to, const ph_profile *from);
PH_API ph_str ph_str_map_get(ph_str_map *m, ph_str s);   /* to's handle */
PH_API void ph_str_map_free(ph_str_map *m);
/* NUL-terminated text of a handle, kept while the profile lives; "" for
 * 0. */
PH_API const char *ph_str_get(const ph_profile *p, ph_str s);
/* The same text, made in *buf (grown as needed; the caller frees it)
 * when the profile does not hold it already: valid until the next call
 * with buf.  For a pass over every name that keeps none. */
PH_API const char *ph_str_text(const ph_profile *p, ph_str s, char **buf,
                               size_t *cap);
/* strcmp of the texts of a and b. */
PH_API int ph_str_cmp(const ph_profile *p, ph_str a, ph_str b);
PH_API size_t ph_str_len(const ph_profile *p, ph_str s);
PH_API uint32_t ph_str_count(const ph_profile *p);   /* handles 1..count-1 */

/* ------------------------------------------------------------------ */
/* Metadata                                                           */

/* Free-form key/value pairs in insertion order: "cmd", "creator", "pid",
 * "desc" (repeatable: "I1 cache: ..."), "comment", "time_nanos",
 * "duration_nanos", "period", "period_type", "drop_frames" ... .  A key may
 * repeat; ph_meta_get returns the first value. */
PH_API void ph_meta_add(ph_profile *p, const char *key, const char *value);
PH_API const char *ph_meta_get(const ph_profile *p, const char *key);
PH_API size_t ph_meta_count(const ph_profile *p);
PH_API void ph_meta_at(const ph_profile *p, size_t i, const char **key,
                       const char **value);

/* ------------------------------------------------------------------ */
/* Event types                                                        */

/* A real event has a slot in every cost vector (slot = its index among real
 * events, in order of creation).  A derived event has a formula over other
 * events and no slot; its value is computed from aggregated real values, so
 * a ratio is the ratio of sums. */
enum {
    PH_EV_DERIVED = 1u << 0,
    PH_EV_NONADDITIVE = 1u << 1, /* values are ids/enums: kept, never summed */
    PH_EV_BUILTIN = 1u << 2,     /* derived event added by a report, not by the file */
};

typedef struct ph_event {
    ph_str name;       /* short name: "Ir", "cpu", "D1mr" */
    ph_str long_name;  /* "Instruction Fetch"; 0 if none */
    ph_str unit;       /* "count", "nanoseconds", "bytes"; 0 if none */
    ph_str formula;    /* text of the formula for a derived event, else 0 */
    double scale;      /* value * scale = quantity in unit (1 by default) */
    unsigned flags;    /* PH_EV_* */
    int slot;          /* index in cost vectors; -1 for derived events */
    int index;         /* index in the event table */
} ph_event;

/* Add a real event or return the existing one with this name.  Adding a real
 * event after costs exist is allowed: older vectors read 0 for it. */
PH_API ph_event *ph_event_add(ph_profile *p, const char *name);
PH_API ph_event *ph_event_find(const ph_profile *p, const char *name);
PH_API size_t ph_event_count(const ph_profile *p);   /* real + derived */
PH_API size_t ph_event_nreal(const ph_profile *p);   /* width of a cost vector */
PH_API ph_event *ph_event_at(const ph_profile *p, size_t i);
/* The real event with slot i. */
PH_API ph_event *ph_event_real(const ph_profile *p, size_t slot);

/* Define (or redefine) a derived event NAME = FORMULA.  FORMULA grammar:
 * expr := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*;
 * factor := number | name | '(' expr ')' | '-' factor | number name
 * (KCachegrind's "10 Bm" means 10 * Bm).  Names are events (real or
 * derived).  On error returns NULL, and *err_col (1-based column in
 * FORMULA) and err (a message, no position) are set.  A formula that refers
 * to itself through other derived events is rejected. */
PH_API ph_event *ph_event_define(ph_profile *p, const char *name,
                                 const char *formula, int *err_col,
                                 char *err, size_t errsize);

/* The event to show when none is asked for, chosen once for every report
 * and writer: the one the reader set (pprof's default_sample_type, else
 * its last sample type), else the first additive real event, else the
 * first event; NULL with no events. */
PH_API void ph_profile_set_default_event(ph_profile *p, const ph_event *ev);
PH_API ph_event *ph_default_event(const ph_profile *p);

/* Value of event EV given a vector of real values (width ph_event_nreal).
 * Real events return their slot's value; derived events evaluate their
 * formula; a division by zero yields 0.  Returns a double because derived
 * formulas may divide. */
PH_API double ph_event_eval(const ph_profile *p, const ph_event *ev,
                            const int64_t *costs);

/* Marks in reads (ph_event_nreal bytes) the real events whose values
 * ph_event_eval of ev reads. */
PH_API void ph_event_reads(const ph_profile *p, const ph_event *ev,
                           unsigned char *reads);

/* How reports show ev's values: returns the factor to multiply them by
 * (1: shown as the raw count).  Ticks of a time unit (gmon's cpu_time,
 * unit "seconds", scale 1/rate) are shown in that unit, as gprof prints
 * seconds: then *unit names it and *decimals is what one tick needs.
 * Otherwise *unit is NULL and *decimals 0.  Either pointer may be NULL. */
PH_API double ph_event_shown(const ph_profile *p, const ph_event *ev,
                             const char **unit, int *decimals);

/* ------------------------------------------------------------------ */
/* Symbols: objects, files, functions                                 */

typedef struct ph_object {
    ph_str name;        /* path of the ELF object or mapping; 0 = unknown */
    uint32_t id;        /* 1-based, dense */
    /* Mapping facts (pprof, native collectors); 0 when unknown. */
    uint64_t start, limit, offset;
    ph_str build_id;
} ph_object;

typedef struct ph_file {
    ph_str name;        /* 0 = unknown ("???") */
    uint32_t id;        /* 1-based, dense */
} ph_file;

typedef struct ph_part ph_part;
typedef struct ph_call ph_call;
typedef struct ph_jump ph_jump;

typedef struct ph_func {
    ph_str name;        /* demangled, human-readable */
    ph_str mangled;     /* system/linkage name; 0 if same or unknown */
    ph_object *object;  /* may be NULL */
    ph_file *file;      /* file of the function (callgrind fl=); may be NULL */
    uint32_t line;      /* first line, 0 if unknown */
    uint32_t id;        /* 1-based, dense; index into per-function tables */
    uint64_t addr;      /* entry address, 0 if unknown */
} ph_func;

/* Objects and files are found or created by name (0 = unknown). */
PH_API ph_object *ph_object_get(ph_profile *p, ph_str name);
PH_API ph_file *ph_file_get(ph_profile *p, ph_str name);
PH_API size_t ph_object_count(const ph_profile *p);
PH_API ph_object *ph_object_at(const ph_profile *p, size_t i);  /* 0-based */
PH_API size_t ph_file_count(const ph_profile *p);
PH_API ph_file *ph_file_at(const ph_profile *p, size_t i);

/* Find or create the function identified by (name, file, object): two
 * static functions of one name in different files stay distinct.  file and
 * object may be NULL. */
PH_API ph_func *ph_func_get(ph_profile *p, ph_str name, ph_file *file,
                            ph_object *obj);
/* Room for n more functions, for a reader that knows how many it may make
 * (the function table and per-function arrays then grow once). */
PH_API void ph_funcs_reserve(ph_profile *p, size_t n);
/* Self cost of f in event ev in fractions of a unit, when the source
 * attributed finer than the integer rows (gprof credits a symbol its share
 * of a histogram bin; the rows keep whole ticks).  One event per profile
 * carries credits; ph_has_credits says whether ev is it, and then a
 * function without a credit has none (0). */
PH_API void ph_func_set_credit(ph_profile *p, const ph_func *f,
                               const ph_event *ev, double credit);
PH_API int ph_has_credits(const ph_profile *p, const ph_event *ev);
PH_API double ph_func_credit(const ph_profile *p, const ph_func *f);

/* gprof -l's line symbols: one starts at each function entry and wherever
 * the source line of the code changes, and is credited its share of the
 * histogram bins it overlaps, in fractions of a unit of the credit event
 * (the one ph_func_set_credit names; add refuses another event).  The
 * array lives as long as the profile, in the order added. */
typedef struct ph_line_credit {
    const ph_func *func;
    const ph_file *file;   /* NULL when unknown */
    uint32_t line;         /* 0 when unknown */
    uint64_t addr, end;    /* where the line symbol starts and ends */
    double credit;
} ph_line_credit;
PH_API void ph_line_credit_add(ph_profile *p, const ph_event *ev,
                               const ph_line_credit *c);
PH_API const ph_line_credit *ph_line_credits(const ph_profile *p,
                                             size_t *n);

/* Find only; NULL when absent. */
PH_API ph_func *ph_func_find(const ph_profile *p, ph_str name,
                             const ph_file *file, const ph_object *obj);
PH_API size_t ph_func_count(const ph_profile *p);
PH_API ph_func *ph_func_at(const ph_profile *p, size_t i);  /* 0-based */

/* ------------------------------------------------------------------ */
/* Parts                                                              */

/* A part is one thread, process, dump or rank.  Every cost belongs to one
 * part.  Profiles read from a single-part source have exactly one part. */
typedef enum ph_part_kind {
    PH_PART_WHOLE = 0,   /* the only part of the run */
    PH_PART_THREAD,
    PH_PART_PROCESS,
    PH_PART_DUMP,
    PH_PART_RANK,
} ph_part_kind;

struct ph_part {
    uint32_t index;      /* 0-based position in the part table */
    ph_part_kind kind;
    int64_t number;      /* callgrind part: N, or rank number; -1 unknown */
    int64_t pid;         /* -1 unknown */
    int64_t tid;         /* thread number; -1 unknown */
    ph_str name;         /* free label: "thread 2", trigger, file name */
    ph_str trigger;      /* callgrind "desc: Trigger:" */
    /* Totals written in the file (callgrind summary:/totals:, cachegrind
     * summary:), kept for checks; NULL when absent.  Width = nreal at the
     * time they were set (shorter vectors read 0 for later events). */
    int64_t *file_summary;
    int64_t *file_totals;
    uint32_t file_width;
};

PH_API ph_part *ph_part_add(ph_profile *p, ph_part_kind kind);
PH_API size_t ph_part_count(const ph_profile *p);
PH_API ph_part *ph_part_at(const ph_profile *p, size_t i);
/* Keep a vector of n values as the part's written summary/totals. */
PH_API void ph_part_set_summary(ph_profile *p, ph_part *part,
                                const int64_t *v, size_t n);
PH_API void ph_part_set_totals(ph_profile *p, ph_part *part,
                               const int64_t *v, size_t n);

/* ------------------------------------------------------------------ */
/* Flat costs: rows                                                   */

/* One cost row: self cost at a position inside a function.  file is the
 * source file of the code at that position: the function's file, or the
 * file of code inlined into it (callgrind fi=/fe=).  Costs of several rows
 * at one position add up. */
typedef struct ph_row {
    uint64_t addr;       /* 0 = unknown */
    uint32_t line;       /* 0 = unknown */
    ph_file *file;       /* never NULL in rows returned by the iterator when
                          * the function has a file; may be NULL otherwise */
    const int64_t *cost; /* ph_event_nreal values, valid until next step */
} ph_row;

/* Append a row of n costs (n <= nreal; missing trailing values are 0) to
 * function f in part. Rows are stored compactly (delta-encoded positions,
 * varint costs, zeros omitted), not as one struct each. */
PH_API void ph_row_add(ph_profile *p, ph_func *f, ph_part *part,
                       uint64_t addr, uint32_t line, ph_file *file,
                       const int64_t *cost, size_t n);
/* The same for n counts (each at most INT64_MAX), each also added to
 * sum[i]: a reader that checks its file's totals. */
PH_API void ph_row_add_counts(ph_profile *p, ph_func *f, ph_part *part,
                              uint64_t addr, uint32_t line, ph_file *file,
                              const uint64_t *count, size_t n,
                              uint64_t *sum);
/* The same for costs already packed by ph_costs_put (len bytes, at most
 * nreal columns): a reader whose threads packed them. */
PH_API void ph_row_add_packed(ph_profile *p, ph_func *f, ph_part *part,
                              uint64_t addr, uint32_t line, ph_file *file,
                              const unsigned char *costs, size_t len);
/* A run of rows made beforehand: the first at (addr, line, file) with its
 * costs packed (ph_costs_put, len bytes), then nrows more as the block
 * keeps them after it (rows.c: positions relative to the row before, the
 * same file), rows_len bytes, the last at (last_addr, last_line): a
 * reader whose threads encoded them. */
PH_API void ph_row_add_run(ph_profile *p, ph_func *f, ph_part *part,
                           uint64_t addr, uint32_t line, ph_file *file,
                           const unsigned char *costs, size_t len,
                           const unsigned char *rows, size_t rows_len,
                           size_t nrows, uint64_t last_addr,
                           uint32_t last_line);
/* A reader that adds up its rows' counts as it reads (its threads do):
 * the blocks of rows made from now on keep room for those sums, and
 * ph_rows_add_sums gives the sums of the last nrows rows added to f in
 * part, all of them counts (at least 0), n columns (at most nreal).  When
 * every row of a block has its sums so given, ph_rows_sum and the
 * summaries add those instead of reading the rows again. */
PH_API void ph_rows_keep_sums(ph_profile *p);
PH_API void ph_rows_add_sums(ph_profile *p, ph_func *f, ph_part *part,
                             const uint64_t *sum, size_t n, uint32_t nrows);

/* Iterate the rows of f in part (part NULL: every part in turn).
 *   ph_row_iter it; ph_row r;
 *   ph_row_iter_init(&it, p, f, part);
 *   while (ph_row_next(&it, &r)) ...;
 * The iterator holds no heap memory.  Over a profile of at most
 * PH_ROW_INLINE events it uses nothing of the profile's but its rows:
 * another thread may read p meanwhile (its call iterators too). */
#define PH_ROW_INLINE 64
typedef struct ph_row_iter {
    const ph_profile *p;
    const ph_func *f;
    const ph_part *part;
    const void *block;   /* current per-(function, part) block */
    size_t pos;
    uint64_t addr;
    uint32_t line;
    ph_file *file;
    int64_t buf[PH_ROW_INLINE];  /* decoded costs, nreal <= PH_ROW_INLINE */
    int64_t *wide;       /* else, profile-owned scratch */
} ph_row_iter;

PH_API void ph_row_iter_init(ph_row_iter *it, const ph_profile *p,
                             const ph_func *f, const ph_part *part);
PH_API int ph_row_next(ph_row_iter *it, ph_row *out);
/* ph_row_next, with the rows that follow at the same (file, line) added
 * into the row's costs (addr: the first's): a line's cost without a step
 * per instruction.  A line may still come as more than one row. */
PH_API int ph_row_next_line(ph_row_iter *it, ph_row *out);
/* The part of the row ph_row_next gave last (of use when iterating every
 * part). */
PH_API ph_part *ph_row_iter_part(const ph_row_iter *it);
/* 1 when a row of f lies in another file than f->file (inlined code:
 * callgrind's fi=, fe=); 0 when every row is in f->file, so that the
 * files f has code in are known without decoding its rows. */
PH_API int ph_func_rows_elsewhere(const ph_profile *p, const ph_func *f);
/* Whether f has any rows, in any part (none decoded). */
PH_API int ph_func_has_rows(const ph_profile *p, const ph_func *f);

/* ------------------------------------------------------------------ */
/* Flat costs: calls and jumps                                        */

/* Calls and jumps are stored compactly per calling function (no struct
 * per record) and read through iterators that decode one record at a
 * time into a ph_call (ph_jump) held by the iterator: the pointer an
 * iterator returns, and c->incl, stay valid until its next step.
 *   ph_call_iter it;
 *   for (const ph_call *c = ph_calls_out(&it, p, f); c;
 *        c = ph_call_next(&it))
 *       ...;
 * The iterators hold no heap memory; any number may be live at once. */
struct ph_call {
    ph_func *caller;
    ph_func *callee;
    ph_part *part;
    uint64_t addr;        /* call site in the caller; 0 unknown */
    uint32_t line;        /* call site line; 0 unknown */
    ph_file *file;        /* call site file (inlined code); may be NULL */
    uint64_t target_addr; /* callee position as written (callgrind calls=) */
    uint32_t target_line;
    uint64_t count;       /* number of calls */
    const int64_t *incl;  /* inclusive cost of these calls, width values;
                           * NULL when unknown (gprof arcs) */
    uint32_t width;       /* values in incl (<= nreal) */
};

/* Add a call record; incl may be NULL (cost unknown). Calls from one site to
 * one callee may be given several times; they are kept as given. */
PH_API void ph_call_add(ph_profile *p, ph_func *caller, ph_part *part,
                        uint64_t addr, uint32_t line, ph_file *file,
                        ph_func *callee, uint64_t target_addr,
                        uint32_t target_line, uint64_t count,
                        const int64_t *incl, size_t n);
PH_API size_t ph_call_count(const ph_profile *p);

#define PH_CALL_INLINE 16   /* incl widths decoded into the iterator */
/* Whether p's row and call iterators take none of its scratch (at most
 * PH_CALL_INLINE events): then threads may iterate it side by side. */
#define ph_iters_apart(p) (ph_event_nreal(p) <= PH_CALL_INLINE)
typedef struct ph_call_iter {
    const ph_profile *p;
    uint32_t mode;
    uint32_t fid;        /* caller whose block is read */
    size_t pos, end;     /* offset in the block, or in the calls-in index */
    ph_call call;        /* the current record */
    int64_t buf[PH_CALL_INLINE];
} ph_call_iter;

/* First call made by f, in the order added (NULL: none). */
PH_API const ph_call *ph_calls_out(ph_call_iter *it, const ph_profile *p,
                                   const ph_func *f);
/* First call into f: by caller id, then in the order added.  The first use
 * builds an index (8 bytes per call) kept until a call is added. */
PH_API const ph_call *ph_calls_in(ph_call_iter *it, const ph_profile *p,
                                  const ph_func *f);
/* First of every call: by caller id, then in the order added. */
PH_API const ph_call *ph_calls_all(ph_call_iter *it, const ph_profile *p);
/* Next record of the same walk; NULL at the end. */
PH_API const ph_call *ph_call_next(ph_call_iter *it);

/* Inclusive value in slot (0 beyond width or when unknown). */
static inline int64_t ph_call_incl(const ph_call *c, size_t slot)
{
    return (c->incl && slot < c->width) ? c->incl[slot] : 0;
}

/* A jump (callgrind --collect-jumps): conditional when followed != count. */
struct ph_jump {
    ph_func *from;
    ph_part *part;
    uint64_t addr;
    uint32_t line;
    ph_file *file;
    ph_func *to;
    ph_file *to_file;
    uint64_t target_addr;
    uint32_t target_line;
    uint64_t executed;    /* times the jump instruction executed */
    uint64_t followed;    /* times it was taken */
    int conditional;      /* jcnd= (1) or jump= (0) */
};
/* Copy *j into the profile (j->from must be set). */
PH_API void ph_jump_add(ph_profile *p, const ph_jump *j);
PH_API size_t ph_jump_count(const ph_profile *p);

typedef struct ph_jump_iter {
    const ph_profile *p;
    uint32_t fid;
    int all;
    size_t pos;
    ph_jump jump;        /* the current record */
} ph_jump_iter;
/* Jumps from f in the order added, or of every function (by id, then the
 * order added), like the call iterators. */
PH_API const ph_jump *ph_jumps_from(ph_jump_iter *it, const ph_profile *p,
                                    const ph_func *f);
PH_API const ph_jump *ph_jumps_all(ph_jump_iter *it, const ph_profile *p);
PH_API const ph_jump *ph_jump_next(ph_jump_iter *it);

/* ------------------------------------------------------------------ */
/* Context tree                                                       */

/* A frame is one function activation on a stack.  PH_FRAME_INLINED marks a
 * frame that was inlined into its parent's frame at the same address (pprof
 * Location.line[k>0] chains, DWARF inlined subroutines). */
enum { PH_FRAME_INLINED = 1u << 0 };

typedef struct ph_node ph_node;
typedef struct ph_sample ph_sample;

typedef struct ph_label {
    ph_str key;
    ph_str str;           /* 0 for a numeric label */
    int64_t num;
    ph_str num_unit;
} ph_label;

struct ph_sample {
    ph_node *node;
    ph_part *part;
    uint32_t width;
    uint32_t nlabels;
    ph_label *labels;
    ph_str *strs;         /* per-event string values (drcctprof str metrics);
                             NULL if none; indexed by slot */
    ph_sample *next;      /* next sample on the same node */
    int64_t cost[];       /* width values, right after the rest */
};

/* What a node stands for; nodes with equal frames share one entry of the
 * profile's frame table. */
typedef struct ph_frame {
    ph_func *func;        /* NULL for a synthetic root */
    ph_object *object;    /* mapping of the address; may be NULL */
    uint64_t addr;        /* 0 unknown */
    uint32_t line;        /* 0 unknown */
    uint32_t flags;       /* PH_FRAME_* */
} ph_frame;

/* A context node: 16 bytes, its links given as node ids (1-based, dense,
 * parents before children; ph_node_at(p, id - 1) is the node).  The roots
 * are node 1 and its siblings.  A node stays at its address for the
 * profile's life.  The rest is read through the functions below. */
struct ph_node {
    uint32_t parent;      /* id of the parent; 0 for a root */
    uint32_t child;       /* id of the first child; 0 none */
    uint32_t sibling;     /* id of the next sibling; 0 none */
    uint32_t frame;       /* index in the frame table (ph_node_frame) */
};

/* Find or create the child of parent (NULL: a root) with this frame.
 * Children are found by (parent, frame) through a hash, so building a
 * tree from N stacks of depth D costs O(N*D). */
PH_API ph_node *ph_node_child(ph_profile *p, ph_node *parent, ph_func *f,
                              ph_object *obj, uint64_t addr, uint32_t line,
                              uint32_t flags);
/* The same in two steps, for a reader that makes millions of nodes of a
 * few frames: the frame's index in the profile's frame table (interned on
 * first use), then the child of parent with the frame of that index.
 * ph_frame_index writes only the frame table: one thread may make frames'
 * indices while another makes nodes and samples with indices it has
 * been given (ph_node_child, which makes both, excepted). */
PH_API uint32_t ph_frame_index(ph_profile *p, ph_func *f, ph_object *obj,
                               uint64_t addr, uint32_t line, uint32_t flags);
PH_API ph_node *ph_node_child_at(ph_profile *p, ph_node *parent,
                                 uint32_t frame);
/* Room in the frame table for n more frames, for a reader that knows how
 * many it may make (its table then does not grow step by step). */
PH_API void ph_frames_reserve(ph_profile *p, size_t n);
/* Create a new child even if an equal one exists (drcctprof files may hold
 * distinct contexts with equal frames; round trips keep them). */
PH_API ph_node *ph_node_new(ph_profile *p, ph_node *parent, ph_func *f,
                            ph_object *obj, uint64_t addr, uint32_t line,
                            uint32_t flags);
PH_API size_t ph_node_count(const ph_profile *p);
PH_API ph_node *ph_node_at(const ph_profile *p, size_t i);  /* id - 1 */
/* The node's id, frame, function (NULL for a synthetic root), depth
 * (roots 0, found by walking up) and first sample (NULL if none; the rest
 * follow through ->next). */
PH_API uint32_t ph_node_id(const ph_profile *p, const ph_node *n);
PH_API const ph_frame *ph_node_frame(const ph_profile *p, const ph_node *n);
PH_API ph_func *ph_node_func(const ph_profile *p, const ph_node *n);
PH_API uint32_t ph_node_depth(const ph_profile *p, const ph_node *n);
PH_API ph_sample *ph_node_samples(const ph_profile *p, const ph_node *n);
/* The node's id in the source file (drcctprof context id); 0 if none. */
PH_API uint64_t ph_node_ext_id(const ph_profile *p, const ph_node *n);
PH_API void ph_node_set_ext_id(ph_profile *p, const ph_node *n,
                               uint64_t ext_id);

/* Attach a sample of n values (n <= nreal) to node, with labels copied.
 * Its trailing zeros are not kept: s->width counts the values up to the
 * last that is not 0 (ph_sample_value reads the rest as 0). */
PH_API ph_sample *ph_sample_add(ph_profile *p, ph_node *node, ph_part *part,
                                const int64_t *cost, size_t n,
                                const ph_label *labels, size_t nlabels);
PH_API size_t ph_sample_count(const ph_profile *p);
PH_API ph_sample *ph_sample_at(const ph_profile *p, size_t i);
static inline int64_t ph_sample_value(const ph_sample *s, size_t slot)
{
    return slot < s->width ? s->cost[slot] : 0;
}

/* ------------------------------------------------------------------ */
/* Aggregation (lazy, cached)                                          */

/* Selection of parts for aggregates: PH_ALL_PARTS sums every part. */
#define PH_ALL_PARTS ((int)-1)

/* Totals of real events over the selected part(s): sum of every flat row
 * and every sample (non-additive events read 0).  Returns a vector of
 * ph_event_nreal values owned by the profile. */
PH_API const int64_t *ph_totals(const ph_profile *p, int part);

/* Self cost of function f (flat rows plus samples whose node's frame is f;
 * an inlined frame's samples count for the inlined function). */
PH_API const int64_t *ph_func_self(const ph_profile *p, const ph_func *f,
                                   int part);

/* Adds ph_func_self of f to acc, without the cache of every function
 * when the profile has no samples (a few functions' sums). */
PH_API void ph_func_self_add(const ph_profile *p, const ph_func *f, int part,
                             int64_t *acc);

/* Inclusive cost of f, without cycle handling:
 *   tree data: the cost of every stack through f, each stack counted once
 *     even when f recurses (so it never exceeds the total);
 *   flat data: KCachegrind's rule: the sum of the inclusive costs of the
 *     calls into f from other functions when it has callers, else self +
 *     the calls f makes to other functions.
 * The sum of both shapes when a profile holds both.  Cycle-aware inclusive
 * (strongly connected components) is in analysis/. */
PH_API const int64_t *ph_func_incl(const ph_profile *p, const ph_func *f,
                                   int part);

/* ph_func_self and ph_func_incl of every function, in the k real events
 * of slots only: k values a function, by id, into self and incl (room
 * for ph_func_count x k each).  A report of one event reads a few values
 * a function, not two vectors of every event; nothing is cached.  When
 * beside is not NULL, beside(arg) runs on another thread during the pass
 * over the calls (ph_run_pair): work that only reads the profile and
 * takes none of its scratch (a profile without samples: cycles). */
PH_API void ph_func_sums_of(const ph_profile *p, int part,
                            const size_t *slots, size_t k, int64_t *self,
                            int64_t *incl, void (*beside)(void *),
                            void *arg);

/* Number of calls into f from other functions (flat call records, self calls
 * excluded) and number of self calls. */
PH_API uint64_t ph_func_calls(const ph_profile *p, const ph_func *f, int part);
PH_API uint64_t ph_func_self_calls(const ph_profile *p, const ph_func *f,
                                   int part);

/* Drop every cached aggregate and view (called by every add function). */
PH_API void ph_profile_invalidate(ph_profile *p);

/* ------------------------------------------------------------------ */
/* Caches beside a loaded profile                                     */

/* A loaded profile is read-only: writers, reports and analyses take a
 * const profile.  What they derive from it (aggregates above, the views of
 * analysis/) is cached beside the data, filled on first request through the
 * const handle and freed with the profile or when data is added.  KEY is
 * any address unique to the kind of cache (a static of its module).
 * ph_profile_cache returns NULL when nothing (or nothing current) is
 * cached; ph_profile_cache_put takes ownership of data, freed with
 * free_fn. */
typedef void (*ph_cache_free_fn)(void *data);
PH_API void *ph_profile_cache(const ph_profile *p, const void *key);
PH_API void ph_profile_cache_put(const ph_profile *p, const void *key,
                                 void *data, ph_cache_free_fn free_fn);

#ifdef __cplusplus
}
#endif
#endif /* PH_IR_H */
