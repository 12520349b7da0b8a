/* tag_filter.c -- pprof's sample filters on labels (-tagfocus,
 * -tagignore): "[KEY=]VALUE[,VALUE...]".  A VALUE that reads as a number
 * with an optional unit ("256B", "1kb:", ":64B", "48B:64B") is a range on
 * numeric labels; anything else is a list of regular expressions on string
 * labels, matched against "key:value" when no KEY is given (every
 * expression must match some label) and against KEY's values otherwise
 * (one expression matching one value is enough).  These are the rules of
 * pprof's driver (compileTagFilter, parseTagFilterRange), checked against
 * go tool pprof by tests/e2e/pprof_filters.sh. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"

enum { FAM_NONE = 0, FAM_MEMORY, FAM_TIME };

struct ph_tag_filter {
    char *key;              /* NULL: any key */
    int numeric;
    /* range: lo <= v <= hi in base units of family fam */
    int fam, has_lo, has_hi;
    double lo, hi;
    regex_t *res;
    size_t nres;
};

typedef struct unit {
    const char *alias;
    int fam;
    double factor;
} unit;

/* pprof's measurement tables (memory in powers of 1024, time in ns). */
static const unit units[] = {
    { "b", FAM_MEMORY, 1 }, { "byte", FAM_MEMORY, 1 },
    { "bytes", FAM_MEMORY, 1 },
    { "kb", FAM_MEMORY, 1024.0 }, { "kbyte", FAM_MEMORY, 1024.0 },
    { "kilobyte", FAM_MEMORY, 1024.0 },
    { "mb", FAM_MEMORY, 1048576.0 }, { "mbyte", FAM_MEMORY, 1048576.0 },
    { "megabyte", FAM_MEMORY, 1048576.0 },
    { "gb", FAM_MEMORY, 1073741824.0 }, { "gbyte", FAM_MEMORY, 1073741824.0 },
    { "gigabyte", FAM_MEMORY, 1073741824.0 },
    { "tb", FAM_MEMORY, 1099511627776.0 },
    { "pb", FAM_MEMORY, 1125899906842624.0 },
    { "ns", FAM_TIME, 1 }, { "nanosecond", FAM_TIME, 1 },
    { "nanoseconds", FAM_TIME, 1 },
    { "us", FAM_TIME, 1e3 }, { "microsecond", FAM_TIME, 1e3 },
    { "microseconds", FAM_TIME, 1e3 },
    { "ms", FAM_TIME, 1e6 }, { "millisecond", FAM_TIME, 1e6 },
    { "milliseconds", FAM_TIME, 1e6 },
    { "s", FAM_TIME, 1e9 }, { "sec", FAM_TIME, 1e9 },
    { "second", FAM_TIME, 1e9 }, { "seconds", FAM_TIME, 1e9 },
    { "m", FAM_TIME, 60e9 }, { "min", FAM_TIME, 60e9 },
    { "minute", FAM_TIME, 60e9 }, { "minutes", FAM_TIME, 60e9 },
    { "h", FAM_TIME, 3600e9 }, { "hour", FAM_TIME, 3600e9 },
    { "hours", FAM_TIME, 3600e9 },
};

/* Family and factor of a unit name (case ignored); FAM_NONE, 1 when it
 * is no unit pprof knows. */
static int find_unit(const char *s, size_t n, double *factor)
{
    *factor = 1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strlen(units[i].alias) == n &&
            strncasecmp(units[i].alias, s, n) == 0) {
            *factor = units[i].factor;
            return units[i].fam;
        }
    }
    return FAM_NONE;
}

/* One "[+-]DIGITS[LETTERS]" at s: its length, 0 when there is none. */
static size_t scan_amount(const char *s, double *v, int *fam, int *known,
                          double *factor)
{
    size_t i = 0, d, u;
    double f = 1;
    if (s[i] == '+' || s[i] == '-')
        i++;
    d = i;
    while (isdigit((unsigned char)s[i]))
        i++;
    if (i == d)
        return 0;
    u = i;
    while (isalpha((unsigned char)s[i]))
        i++;
    *v = strtod(s, NULL);
    *fam = FAM_NONE;
    *known = 1;
    if (i > u) {
        *fam = find_unit(s + u, i - u, &f);
        *known = *fam != FAM_NONE;
        *v *= f;
    }
    *factor = f;
    return i;
}

/* "A", "A:", ":A" or "A:B" over the whole of s; 0 when s is none of
 * them (then it is a regular expression). */
static int parse_range(ph_tag_filter *t, const char *s)
{
    double a = 0, b = 0, xa = 1, xb = 1;
    int fa = FAM_NONE, fb = FAM_NONE, ka = 1, kb = 1;
    size_t n;

    if (s[0] == ':') {
        n = scan_amount(s + 1, &b, &fb, &kb, &xb);
        if (!n || s[1 + n])
            return 0;
        t->has_hi = 1;
        t->hi = b;
        t->fam = fb;
    } else {
        n = scan_amount(s, &a, &fa, &ka, &xa);
        if (!n)
            return 0;
        t->fam = fa;
        t->has_lo = 1;
        t->lo = a;
        if (!s[n]) {
            t->has_hi = 1;
            t->hi = a;
        } else if (s[n] == ':' && !s[n + 1]) {
            /* open above */
        } else if (s[n] == ':') {
            size_t m = scan_amount(s + n + 1, &b, &fb, &kb, &xb);
            if (!m || s[n + 1 + m])
                return 0;
            /* pprof reads a unitless bound in the first one's unit */
            if (fb == FAM_NONE && kb && s[n + m] >= '0' && s[n + m] <= '9')
                b *= xa;
            else if (fb != fa)
                return 0;
            t->has_hi = 1;
            t->hi = b;
        } else {
            return 0;
        }
    }
    /* a unit pprof does not know matches no label (its units differ) */
    if (!ka || !kb)
        t->fam = -1;
    t->numeric = 1;
    return 1;
}

ph_tag_filter *ph_tag_filter_parse(const char *spec, char *err,
                                   size_t errsize)
{
    ph_tag_filter *t = ph_xcalloc(1, sizeof *t);
    const char *eq = strchr(spec, '='), *val = spec;

    if (eq) {
        t->key = ph_xmalloc((size_t)(eq - spec) + 1);
        memcpy(t->key, spec, (size_t)(eq - spec));
        t->key[eq - spec] = '\0';
        val = eq + 1;
    }
    if (parse_range(t, val))
        return t;
    for (const char *s = val;;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        char *one = ph_xmalloc(n + 1);
        int rc;
        memcpy(one, s, n);
        one[n] = '\0';
        t->res = ph_xrealloc(t->res, (t->nres + 1) * sizeof *t->res);
        rc = regcomp(&t->res[t->nres], one, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char msg[128];
            regerror(rc, &t->res[t->nres], msg, sizeof msg);
            snprintf(err, errsize, "bad regular expression \"%s\": %s", one,
                     msg);
            free(one);
            ph_tag_filter_free(t);
            return NULL;
        }
        free(one);
        t->nres++;
        if (!comma)
            break;
        s = comma + 1;
    }
    return t;
}

void ph_tag_filter_free(ph_tag_filter *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nres; i++)
        regfree(&t->res[i]);
    free(t->res);
    free(t->key);
    free(t);
}

static int in_range(const ph_tag_filter *t, const ph_profile *p,
                    const ph_label *l)
{
    const char *u = ph_str_get(p, l->num_unit ? l->num_unit : l->key);
    double f, v;
    int fam = find_unit(u, strlen(u), &f);

    if (t->fam < 0 || fam != t->fam)
        return 0;
    v = (double)l->num * f;
    return (!t->has_lo || v >= t->lo) && (!t->has_hi || v <= t->hi);
}

static int matches_re(const regex_t *re, const char *s)
{
    return regexec(re, s, 0, NULL, 0) == 0;
}

int ph_tag_filter_match(const ph_tag_filter *t, const ph_profile *p,
                        const ph_sample *s)
{
    if (!s)
        return 0;   /* an approximated stack carries no labels */
    if (t->numeric) {
        for (uint32_t i = 0; i < s->nlabels; i++) {
            const ph_label *l = &s->labels[i];
            if (l->str || (t->key && strcmp(ph_str_get(p, l->key), t->key)))
                continue;
            if (in_range(t, p, l))
                return 1;
        }
        return 0;
    }
    if (t->key) {
        for (uint32_t i = 0; i < s->nlabels; i++) {
            const ph_label *l = &s->labels[i];
            if (!l->str || strcmp(ph_str_get(p, l->key), t->key))
                continue;
            for (size_t r = 0; r < t->nres; r++)
                if (matches_re(&t->res[r], ph_str_get(p, l->str)))
                    return 1;
        }
        return 0;
    }
    for (size_t r = 0; r < t->nres; r++) {
        int found = 0;
        for (uint32_t i = 0; i < s->nlabels && !found; i++) {
            const ph_label *l = &s->labels[i];
            char kv[1024];
            if (!l->str)
                continue;
            snprintf(kv, sizeof kv, "%s:%s", ph_str_get(p, l->key),
                     ph_str_get(p, l->str));
            found = matches_re(&t->res[r], kv);
        }
        if (!found)
            return 0;
    }
    return 1;
}
