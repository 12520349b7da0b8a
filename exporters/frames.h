/* frames.h -- the frame tree the stack writers print and the pictures are
 * drawn from (folded, svg): one frame per distinct call path of function
 * names (self and inclusive cost vectors), built from the profile's stacks
 * in one function (ph_frames_build), so those writers never walk the IR's
 * stacks themselves and stacks that differ only in lines or addresses are
 * one frame.  Internal to exporters/. */
#ifndef PH_FRAMES_H
#define PH_FRAMES_H

#include <stdint.h>

#include "ir/format.h"

/* Frame 0 is the root ("all"), with no function.  A parent's index is
 * smaller than its children's. */
typedef struct ph_path_frame {
    const ph_func *func;   /* NULL for the root */
    uint32_t parent;       /* index of the parent (0 for the root itself) */
    uint32_t child;        /* first child, 0 = none */
    uint32_t next;         /* next sibling, 0 = none */
    uint32_t depth;        /* root = 0 */
    int inlined;           /* the call path enters it inlined (a frame of
                              its own beside the function called) */
} ph_path_frame;

typedef struct ph_frames {
    ph_path_frame *f;
    size_t n, cap;
    size_t width;          /* cost vector width (ph_event_nreal) */
    int64_t *self;         /* n * width */
    int64_t *total;        /* n * width: self plus the children's totals */
    int approx;            /* the stacks were approximated from flat data */
    uint32_t *slots;       /* hash of (parent, func) -> frame + 1 */
    size_t nslots;
} ph_frames;

/* Build the frame tree of p: stacks of a context tree as they are, or
 * stacks approximated from flat data (a warning goes to out, which may be
 * NULL).  Frames of one parent calling the same function, both inlined
 * or both not, are one frame; sums are checked (a sum beyond 64 bits stays
 * at the limit, with the library's warning).  Free with ph_frames_free. */
void ph_frames_build(const ph_profile *p, ph_output *out, ph_frames *fr);
void ph_frames_free(ph_frames *fr);

static inline const int64_t *ph_frame_self(const ph_frames *fr, size_t i)
{
    return fr->self + i * fr->width;
}

static inline const int64_t *ph_frame_total(const ph_frames *fr, size_t i)
{
    return fr->total + i * fr->width;
}

/* Name of frame i: the function's name, "all" for the root. */
const char *ph_frame_name(const ph_profile *p, const ph_frames *fr,
                          size_t i);

/* Value of event ev over a cost vector (derived events evaluated on the
 * vector, so a ratio is the ratio of the sums). */
double ph_frames_value(const ph_profile *p, const ph_event *ev,
                       const int64_t *cost);

#endif /* PH_FRAMES_H */
