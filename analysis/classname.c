/* classname.c -- the C++ class or namespace of a demangled function name,
 * for grouping by class: the qualifier before the last "::" outside
 * template arguments and parameter lists. */
#include "config.h"

#include <string.h>

#include "analysis.h"

const char *ph_class_of(const char *name, char *buf, size_t size)
{
    size_t n = strlen(name), end = n, last = 0;
    int depth = 0, found = 0;
    /* The parameter list starts at the first '(' at depth 0 that is not
     * part of "(anonymous namespace)". */
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (c == '<')
            depth++;
        else if (c == '>' && depth > 0)
            depth--;
        else if (c == '(' && depth == 0) {
            if (strncmp(name + i, "(anonymous namespace)", 21) == 0) {
                i += 20;
                continue;
            }
            end = i;
            break;
        } else if (c == ':' && depth == 0 && i + 1 < n && name[i + 1] == ':') {
            last = i;
            found = 1;
            i++;
        }
    }
    (void)end;
    if (!found || size == 0) {
        if (size)
            buf[0] = '\0';
        return buf;
    }
    size_t len = last < size - 1 ? last : size - 1;
    memcpy(buf, name, len);
    buf[len] = '\0';
    return buf;
}
