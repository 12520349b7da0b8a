/* save.c -- write a profile to a path in the format of -t or of the path's
 * extension, through a temporary file renamed into place, saying what the
 * format could not hold.  Shared by convert, diff -o, merge and record. */
#include "config.h"

#include <stdlib.h>
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

/* The -O keys each writer reads (exporters/NAME_out.c): "event" picks the
 * event of the stack writers, the thresholds prune the dot graph.  A key
 * kind is EVENT (an event of the profile) or PCT (a number 0..100). */
enum { OPT_EVENT, OPT_PCT };
static const struct writer_option {
    const char *format, *key;
    int kind;
} writer_options[] = {
    { "folded", "event", OPT_EVENT },
    { "speedscope", "event", OPT_EVENT },
    { "dot", "event", OPT_EVENT },
    { "dot", "node_threshold", OPT_PCT },
    { "dot", "edge_threshold", OPT_PCT },
};
#define NWOPT (sizeof writer_options / sizeof writer_options[0])

/* Usage error unless "key=value" is a key the writer reads, with a value
 * it can use.  cmd names the subcommand for the message. */
static int check_option(const char *cmd, ph_profile *p,
                        const ph_format *writer, const char *kv)
{
    const char *eq = strchr(kv, '=');
    size_t n = (size_t)(eq - kv), i;
    char keys[256] = "";

    for (i = 0; i < NWOPT; i++) {
        const struct writer_option *o = &writer_options[i];
        if (strcmp(o->format, writer->name) != 0)
            continue;
        if (strlen(o->key) == n && strncmp(o->key, kv, n) == 0) {
            const char *v = eq + 1;
            char *end;
            double d;
            if (o->kind == OPT_EVENT) {
                if (ph_event_find(p, v))
                    return 0;
                return ph_cli_usage_error(cmd, "-O %s: the profile has no "
                                          "event \"%s\" (profhub info lists "
                                          "its events)", o->key, v);
            }
            d = strtod(v, &end);
            if (end != v && *end == '\0' && d >= 0 && d <= 100)
                return 0;
            return ph_cli_usage_error(cmd, "-O %s: expected a percentage "
                                      "0..100, got \"%s\"", o->key, v);
        }
        if (strlen(keys) + strlen(o->key) + 3 < sizeof keys) {
            if (keys[0])
                strcat(keys, ", ");
            strcat(keys, o->key);
        }
    }
    if (!keys[0])
        return ph_cli_usage_error(cmd, "-O %.*s: the %s writer takes no "
                                  "options", (int)n, kv, writer->name);
    return ph_cli_usage_error(cmd, "-O %.*s: unknown option of the %s "
                              "writer (valid: %s)", (int)n, kv,
                              writer->name, keys);
}

int ph_cli_check_options(const char *cmd, ph_profile *p,
                         const ph_format *writer, char *const *kv, size_t nkv)
{
    for (size_t i = 0; i < nkv; i++)
        if (check_option(cmd, p, writer, kv[i]) != 0)
            return PH_EXIT_USAGE;
    return PH_EXIT_OK;
}

int ph_cli_finish_output(const char *path, const char *format,
                         ph_output *out, int rc)
{
    char msg[1024];

    /* A writer records its error on out; commit below reports it.  One
     * that failed without a word still leaves nothing behind. */
    if (rc < 0 && !ph_output_error(out))
        ph_output_error_set(out, "cannot be written");
    if (rc == 0) {
        ph_cli_print_drops(format, out);
        if (strcmp(path, "-") == 0)
            fflush(stdout);   /* anything printed before goes first */
    }
    if (ph_output_commit(out, msg, sizeof msg) < 0) {
        ph_cli_file_error(path, "%s", msg);
        return PH_EXIT_BAD;
    }
    return PH_EXIT_OK;
}

int ph_cli_save(ph_profile *p, const ph_format *writer, const char *path,
                char *const *kv, size_t nkv)
{
    char err[1024];
    ph_output *out = ph_output_open(path, err, sizeof err);

    if (!out) {
        ph_cli_file_error(path, "%s", err);
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
    return ph_cli_finish_output(path, writer->name, out,
                                writer->write(p, out));
}
