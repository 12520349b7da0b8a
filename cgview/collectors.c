/* collectors.c -- "profhub collectors": the collectors found on the
 * plugin path (PROFHUB_PLUGIN_PATH, the build tree, the install's
 * pkglibdir) with their parameters, defaults and metrics; files that fail
 * to load are named with the reason; built-in collectors without a plugin
 * file are listed as such (they cannot record). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cgview/cli.h"

#ifdef PH_HAVE_COLLECTORS
#include "collectors/loader.h"

#define MAX_SEEN 64

typedef struct seen {
    const char *names[MAX_SEEN];
    size_t n;
    int failures;
} seen;

static int was_seen(const seen *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0)
            return 1;
    return 0;
}

static void print_collector(const ph_collector *c, const char *where)
{
    printf("%s\n  %s\n  %s\n", c->name, c->description, where);
    printf("  parameters:\n");
    for (size_t i = 0; i < c->nparams; i++)
        printf("    %s=%-12s %s\n", c->params[i].name, c->params[i].def,
               c->params[i].help);
    if (c->nparams == 0)
        printf("    (none)\n");
    printf("  metrics:\n");
    for (size_t i = 0; i < c->nmetrics; i++)
        printf("    %-10s %-12s %s\n", c->metrics[i].name,
               c->metrics[i].unit, c->metrics[i].help);
}

static void visit(void *ctx, const char *path, const ph_collector *c,
                  const char *error)
{
    seen *s = ctx;
    char where[4200];

    if (!c) {
        ph_cli_warning("%s; skipped", error);   /* error names path */
        s->failures++;
        return;
    }
    if (was_seen(s, c->name))
        return;   /* an earlier folder on the path wins */
    if (s->n < MAX_SEEN)
        s->names[s->n++] = c->name;
    snprintf(where, sizeof where, "plugin: %s", path);
    if (s->n > 1)
        printf("\n");
    print_collector(c, where);
}

int ph_cmd_collectors(int argc, char **argv)
{
    seen s;
    char path[8192];

    if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
                     strcmp(argv[1], "--help") == 0)) {
        printf("Usage: profhub collectors\n"
               "List the collectors 'profhub record -c NAME' can use, with\n"
               "their parameters (-p NAME=VALUE, default shown) and metrics.\n"
               "Plugins are searched in $PROFHUB_PLUGIN_PATH, then in the\n"
               "install's plugin folder.\n");
        return PH_EXIT_OK;
    }
    if (argc > 1)
        return ph_cli_usage_error("collectors", "unexpected argument \"%s\"",
                                  argv[1]);
    memset(&s, 0, sizeof s);
    ph_collector_path(path, sizeof path);
    ph_collector_scan(visit, &s);
    for (size_t i = 0; i < ph_collector_builtin_count(); i++) {
        const ph_collector *c = ph_collector_builtin_at(i);

        if (was_seen(&s, c->name))
            continue;
        if (s.n > 0)
            printf("\n");
        if (s.n < MAX_SEEN)
            s.names[s.n++] = c->name;
        print_collector(c, "built in (no plugin file found: cannot record)");
    }
    printf("\nplugin path: %s\n", path);
    return s.failures ? PH_EXIT_BAD : PH_EXIT_OK;
}

#else

int ph_cmd_collectors(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ph_cli_error("collectors: this profhub was built without collectors "
                 "(configure --disable-collectors)");
    return PH_EXIT_USAGE;
}

#endif /* PH_HAVE_COLLECTORS */
