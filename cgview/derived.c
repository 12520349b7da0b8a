/* derived.c -- the one path by which every command that reads profiles
 * (summary, diff, merge, convert, draw) offers derived events: the
 * library's built-ins, the config file (--config, else the default file
 * when it exists) and --define, in that order, with errors printed in one
 * form (exit 2 is the caller's). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgview/cli.h"

int ph_cli_derived_option(ph_cli_derived *d, int c, const char *arg)
{
    switch (c) {
    case PH_OPT_DEFINE:
        d->defines = ph_xrealloc(d->defines,
                                 (d->ndefines + 1) * sizeof *d->defines);
        d->defines[d->ndefines++] = arg;
        return 1;
    case PH_OPT_CONFIG:
        d->config = arg;
        return 1;
    default:
        return 0;
    }
}

void ph_cli_derived_free(ph_cli_derived *d)
{
    free(d->defines);
    d->defines = NULL;
    d->ndefines = 0;
}

/* Read one config file into p.  The default file is optional: when it
 * cannot be reached (missing, or a folder on its way is not searchable,
 * as for a command run under another user) there is none. */
static int read_config(ph_profile *p, const char *path, int must_exist)
{
    char why[512];
    struct stat st;
    ph_input *in;
    int rc;

    if (!must_exist && stat(path, &st) < 0)
        return 0;
    in = ph_input_open(path, why, sizeof why);
    if (!in) {
        ph_cli_file_error(path, "%s", why);
        return -1;
    }
    rc = ph_events_read_config(in, p);
    if (rc < 0) {
        fflush(stdout);
        fprintf(stderr, "%s\n", ph_input_error(in));
    }
    ph_input_close(in);
    return rc;
}

int ph_cli_derive(ph_profile *p, const ph_cli_derived *d)
{
    char buf[4096], err[256];
    const char *def;
    size_t col;

    ph_events_add_builtins(p);
    if (d->config) {
        if (read_config(p, d->config, 1) < 0)
            return -1;
    } else if ((def = ph_events_config_path(buf, sizeof buf)) != NULL) {
        if (read_config(p, def, 0) < 0)
            return -1;
    }
    for (size_t i = 0; i < d->ndefines; i++)
        if (ph_event_define_arg(p, d->defines[i], &col, err, sizeof err) < 0) {
            ph_cli_error("--define: column %zu: %s", col, err);
            return -1;
        }
    return 0;
}
