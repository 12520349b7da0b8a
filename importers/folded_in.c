/* folded_in.c -- read folded stacks ("a;b;c 123" per line, root first,
 * as made by FlameGraph's stackcollapse-* scripts and read by every
 * flame-graph tool) into the context tree.  One event, "samples" (count).
 * A frame ending in "_[i]" is an inlined frame (FlameGraph's annotation);
 * other annotations ("_[k]", "_[j]") stay part of the name.
 */
#include "config.h"

#include <string.h>

#include "importers/importers.h"

PH_DECLARE_IMPORTER(folded);

/* Split a line into its stack and its count: the count is the last
 * blank-separated word.  Returns 0, or -1 after recording an error. */
static int split_line(ph_input *in, const ph_line *ln, size_t *stack_len,
                      int64_t *count)
{
    size_t n = ln->len;
    while (n && (ln->s[n - 1] == ' ' || ln->s[n - 1] == '\t' ||
                 ln->s[n - 1] == '\r'))
        n--;
    size_t sp = n;
    while (sp && ln->s[sp - 1] != ' ' && ln->s[sp - 1] != '\t')
        sp--;
    if (sp == 0)
        return ph_input_error_at(in, ln->lineno, 1, "expected \"frame;frame;"
                                 "... COUNT\", got \"%.*s\"",
                                 (int)(n > 40 ? 40 : n), ln->s);
    size_t used = ph_parse_i64(ln->s + sp, n - sp, count);
    if (used != n - sp)
        return ph_input_error_at(in, ln->lineno, sp + 1, "expected a count "
                                 "at the end of the line, got \"%.*s\"",
                                 (int)(n - sp > 40 ? 40 : n - sp),
                                 ln->s + sp);
    while (sp && (ln->s[sp - 1] == ' ' || ln->s[sp - 1] == '\t'))
        sp--;
    *stack_len = sp;
    return 0;
}

int ph_folded_read(ph_input *in, ph_profile *p)
{
    ph_line ln;
    ph_event *ev;
    ph_part *part;
    ph_profile_set_format(p, "folded");
    ev = ph_event_add(p, "samples");
    ev->unit = ph_str_intern0(p, "count");
    part = ph_part_add(p, PH_PART_WHOLE);
    while (ph_input_getline(in, &ln)) {
        size_t len = 0;
        int64_t count = 0;
        if (ln.len == 0 || (ln.len == 1 && ln.s[0] == '\r'))
            continue;
        if (split_line(in, &ln, &len, &count) < 0)
            return -1;
        ph_node *node = NULL;
        size_t start = 0;
        while (start <= len) {
            size_t end = start;
            while (end < len && ln.s[end] != ';')
                end++;
            size_t flen = end - start;
            uint32_t flags = 0;
            if (flen == 0)
                return ph_input_error_at(in, ln.lineno, start + 1,
                                         "empty frame name in the stack");
            if (flen > 4 && !memcmp(ln.s + end - 4, "_[i]", 4)) {
                flen -= 4;
                flags = PH_FRAME_INLINED;
            }
            ph_func *f = ph_func_get(p, ph_str_intern(p, ln.s + start, flen),
                                     NULL, NULL);
            node = ph_node_child(p, node, f, NULL, 0, 0, node ? flags : 0);
            start = end + 1;
        }
        ph_sample_add(p, node, part, &count, 1, NULL, 0);
        if ((ln.lineno & 4095) == 0)
            ph_input_progress(in, ph_input_offset(in));
    }
    return ph_input_error(in) ? -1 : 0;
}

/* Folded stacks: every line of the window (but a last, cut one) is "text
 * COUNT", not indented, with no tab before the count's word and at least
 * one ';'.  A line may begin with '#': a frame's name may. */
int ph_folded_sniff(const unsigned char *data, size_t len)
{
    size_t pos = 0, lines = 0, semis = 0;
    while (pos < len && lines < 50) {
        size_t end = pos;
        while (end < len && data[end] != '\n') {
            if (data[end] == 0 || (data[end] < 0x20 && data[end] != '\t' &&
                                   data[end] != '\r'))
                return 0;
            end++;
        }
        if (end == len && len > 256 && lines > 0)
            break;                       /* a line cut by the window */
        size_t n = end;
        while (n > pos && (data[n - 1] == '\r' || data[n - 1] == ' '))
            n--;
        if (n > pos) {
            size_t d = n;
            while (d > pos && data[d - 1] >= '0' && data[d - 1] <= '9')
                d--;
            if (d > pos && data[d - 1] == '-')
                d--;
            if (d == n || d == pos || data[d - 1] != ' ' || data[pos] == ' ')
                return 0;
            if (memchr(data + pos, ';', d - pos))
                semis++;
            /* "key: value" headers, inside the frames: the blank before
             * the count is no part of a name, and a frame may end in ':' */
            for (size_t i = pos; i + 2 < d; i++)
                if (data[i] == ':' && data[i + 1] == ' ')
                    return 0;
            lines++;
        }
        pos = end + 1;
    }
    if (lines == 0)
        return 0;
    return semis ? 40 : 10;
}
