/* fail_rule.c -- parse one --fail-if rule (see fail_rule.h). */
#include "config.h"

#include <string.h>

#include "cgview/fail_rule.h"
#include "ir/io.h"

int ph_fail_rule_parse(ph_fail_rule *r, const char *s)
{
    const char *p = s;
    r->text = s;
    r->fn[0] = '\0';
    while (*p == ' ')
        p++;
    if (strncmp(p, "fn:", 3) == 0) {
        const char *sp = strchr(p + 3, ' ');
        if (!sp || (size_t)(sp - p - 3) >= sizeof r->fn)
            return -1;
        memcpy(r->fn, p + 3, (size_t)(sp - p - 3));
        r->fn[sp - p - 3] = '\0';
        p = sp;
        while (*p == ' ')
            p++;
    }
    size_t n = strcspn(p, " <>");
    if (n == 0 || n >= sizeof r->event)
        return -1;
    memcpy(r->event, p, n);
    r->event[n] = '\0';
    p += n;
    while (*p == ' ')
        p++;
    if (*p != '>' && *p != '<')
        return -1;
    r->op = *p++;
    while (*p == ' ')
        p++;
    size_t used = ph_parse_decimal(p, strlen(p), &r->bound);
    if (used == 0)
        return -1;   /* also "nan" and "inf": such a gate could never fire */
    const char *end = p + used;
    r->percent = *end == '%';
    if (r->percent)
        end++;
    while (*end == ' ')
        end++;
    return *end ? -1 : 0;
}
