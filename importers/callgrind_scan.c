/* importers/callgrind_scan.c -- the token layer of the callgrind reader:
 * line views over the input bytes (LF or CRLF, a NUL byte ends the data),
 * compressed names "(id) name", token lengths for messages, and the content
 * sniffer.  No allocation; the IR is built in callgrind_in.c. */
#include "config.h"

#include <string.h>

#include "importers/callgrind_priv.h"
#include "importers/importers.h"

void ph_cgscan_init(ph_cgscan *sc, const unsigned char *data, size_t len)
{
    const char *d = (const char *)data;
    const char *nul = len ? memchr(d, 0, len) : NULL;

    sc->p = d;
    sc->end = nul ? nul : d + len;
    sc->s = sc->e = d;
    sc->lineno = 0;
}

int ph_cgscan_next(ph_cgscan *sc)
{
    const char *s = sc->p, *nl;

    if (s >= sc->end)
        return 0;
    nl = memchr(s, '\n', (size_t)(sc->end - s));
    if (nl) {
        sc->p = nl + 1;
    } else {
        nl = sc->end;
        sc->p = sc->end;
    }
    if (nl > s && nl[-1] == '\r')
        nl--;
    sc->s = s;
    sc->e = nl;
    sc->lineno++;
    return 1;
}

int ph_cg_toklen(const char *q, const char *e)
{
    const char *t = q;

    while (t < e && !ph_cg_isspace(*t) && t - q < 40)
        t++;
    return (int)(t - q);
}

int ph_cg_name(const char *s, const char *e, int *compressed, uint64_t *id,
               const char **name, size_t *len, size_t *errcol)
{
    const char *q = ph_cg_skipws(s, e), *close;

    while (e > q && ph_cg_isspace(e[-1]))
        e--;
    *id = 0;
    *compressed = 0;
    if (e - q >= 2 && q[0] == '(' && (unsigned char)(q[1] - '0') < 10) {
        const char *num = q + 1;
        close = memchr(num, ')', (size_t)(e - num));
        if (!close) {
            *errcol = (size_t)(q - s);
            return -1;
        }
        if (ph_cg_u64(&num, close, id) != PH_CGN_OK || num != close ||
            *id > UINT32_MAX) {
            *errcol = (size_t)(q + 1 - s);
            return -1;
        }
        q = ph_cg_skipws(close + 1, e);
        *compressed = 1;
    }
    *name = q;
    *len = (size_t)(e - q);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Sniffing                                                           */

/* A line starting at l (within data) begins with word. */
static int starts_line(const unsigned char *l, const unsigned char *end,
                       const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - l) >= n && memcmp(l, word, n) == 0;
}

/* KCachegrind's rule, stricter on "events:" so that cachegrind files (which
 * also have "events:") go to their own reader: "# callgrind format" at the
 * start scores 100; otherwise a header with "events:" and a callgrind-only
 * line ("positions:", "fn=(", "ob=", "calls=", "creator: callgrind",
 * "part:", "thread:")
 * scores 80; "events:" alone scores 20. */
int ph_callgrind_sniff(const unsigned char *data, size_t len)
{
    const unsigned char *end = data + (len < 8192 ? len : 8192), *l;
    int events = 0, specific = 0;

    if (starts_line(data, end, "# callgrind format"))
        return 100;
    for (l = data; l < end;) {
        const unsigned char *nl = memchr(l, '\n', (size_t)(end - l));
        if (starts_line(l, end, "events:"))
            events = 1;
        else if (starts_line(l, end, "positions:") ||
                 starts_line(l, end, "calls=") ||
                 starts_line(l, end, "cfn=") ||
                 starts_line(l, end, "fn=(") ||
                 starts_line(l, end, "ob=") ||
                 starts_line(l, end, "creator: callgrind") ||
                 starts_line(l, end, "part:") ||
                 starts_line(l, end, "thread:"))
            specific = 1;
        if (!nl)
            break;
        l = nl + 1;
    }
    if (events && specific)
        return 80;
    return events ? 20 : 0;
}
