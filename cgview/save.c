/* save.c -- write a profile to a path in the format of -t or of the path's
 * extension, through a temporary file renamed into place, saying what the
 * format could not hold.  Shared by convert, diff -o, merge and record. */
#include "config.h"

#include <string.h>

#include "cgview/cli.h"

const ph_format *ph_cli_writer(const char *cmd, const char *path,
                               const char *to)
{
    const ph_format *f;

    if (to) {
        if (ph_cli_check_format(cmd, to, 0) < 0)
            return NULL;
        return ph_exporter_find(to);
    }
    if (strcmp(path, "-") == 0) {
        ph_cli_usage_error(cmd, "writing to standard output needs -t FORMAT");
        return NULL;
    }
    f = ph_exporter_for_path(path);
    if (!f)
        ph_cli_usage_error(cmd, "cannot tell the output format from \"%s\"; "
                           "give -t FORMAT", path);
    return f;
}

int ph_cli_save(ph_profile *p, const ph_format *writer, const char *path,
                char *const *kv, size_t nkv)
{
    char err[1024];
    ph_output *out = ph_output_open(path, err, sizeof err);

    if (!out) {
        ph_cli_error("%s: %s", path, err);
        return PH_EXIT_BAD;
    }
    for (size_t i = 0; i < nkv; i++) {
        const char *eq = strchr(kv[i], '=');
        char key[256];
        size_t n = (size_t)(eq - kv[i]);
        if (n >= sizeof key)
            n = sizeof key - 1;
        memcpy(key, kv[i], n);
        key[n] = '\0';
        ph_output_set_option(out, key, eq + 1);
    }
    err[0] = '\0';
    if (writer->write(p, out, err, sizeof err) < 0) {
        ph_output_abort(out);
        ph_cli_error("%s: %s", path, err[0] ? err : "cannot be written");
        return PH_EXIT_BAD;
    }
    ph_cli_print_drops(writer->name, out);
    if (strcmp(path, "-") == 0)
        fflush(stdout);   /* anything printed before goes first */
    if (ph_output_commit(out, err, sizeof err) < 0) {
        ph_cli_error("%s: %s", path, err);
        return PH_EXIT_BAD;
    }
    return PH_EXIT_OK;
}
