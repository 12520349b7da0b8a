/* main_object.c -- which object of a profile is the program itself, the
 * one question that pprof's first mapping, diff's pairing of two builds
 * and reports ask alike.
 */
#include "config.h"

#include <string.h>

#include "analysis_priv.h"

const ph_object *ph_main_object(const ph_profile *p)
{
    const char *cmd = ph_meta_get(p, "cmd");
    size_t n = ph_object_count(p);

    if (cmd) {          /* the object named like the command's program */
        cmd += strspn(cmd, " \t");
        size_t len = strcspn(cmd, " \t");
        for (size_t i = 0; i < n; i++) {
            const ph_object *ob = ph_object_at(p, i);
            const char *nm = ph_base_name(ph_str_get(p, ob->name));
            const char *want = cmd;
            for (size_t k = 0; k < len; k++)
                if (cmd[k] == '/')
                    want = cmd + k + 1;
            size_t wl = len - (size_t)(want - cmd);
            if (ob->name && wl && strlen(nm) == wl &&
                memcmp(nm, want, wl) == 0)
                return ob;
        }
    }
    for (size_t i = 0; i < ph_func_count(p); i++) {   /* the one of main */
        const ph_func *f = ph_func_at(p, i);
        const char *fn = ph_str_get(p, f->name);
        if ((strcmp(fn, "main") == 0 || strcmp(fn, "main.main") == 0) &&
            f->object && f->object->name)
            return f->object;
    }
    return NULL;
}
