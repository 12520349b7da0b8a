/* classname.c -- the C++ class or namespace of a demangled function name,
 * for grouping by class: the qualifier before the last "::" outside
 * template arguments and parameter lists. */
#include "config.h"

#include <string.h>

#include "analysis.h"

const char *ph_class_of(const char *name, char *buf, size_t size)
{
    size_t n = strlen(name), start = 0, last = 0;
    int depth = 0, found = 0;
    /* The parameter list starts at the first '(' at depth 0 that is not
     * part of "(anonymous namespace)"; template arguments and lambda names
     * ({lambda(double)#1}) nest.  A return type ("double ns::f<T>()")
     * ends at the last space at depth 0 before the first "::". */
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (c == '<' || c == '{')
            depth++;
        else if ((c == '>' || c == '}') && depth > 0)
            depth--;
        else if (c == ' ' && depth == 0 && !found)
            start = i + 1;
        else if (c == '(' && depth == 0) {
            if (strncmp(name + i, "(anonymous namespace)", 21) == 0) {
                i += 20;
                continue;
            }
            break;
        } else if (c == ':' && depth == 0 && i + 1 < n && name[i + 1] == ':') {
            last = i;
            found = 1;
            i++;
        }
    }
    if (!found || size == 0 || last < start) {
        if (size)
            buf[0] = '\0';
        return buf;
    }
    size_t len = last - start < size - 1 ? last - start : size - 1;
    memcpy(buf, name + start, len);
    buf[len] = '\0';
    return buf;
}
