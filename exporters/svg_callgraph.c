/* svg_callgraph.c -- the call graph around one function as SVG: callers
 * and callees (default: of main, else of the costliest function) to a
 * depth (default 2), one box per function with its
 * inclusive and self cost, coloured from blue (cold) to red (hot), edges
 * labelled with calls and the inclusive cost through them.  Long C++
 * names are folded in the boxes; the full name is the node's tooltip.
 * We write the graph as DOT and let Graphviz's dot lay it out (the
 * program is $PROFHUB_DOT, else "dot" on the PATH); without it the
 * picture fails with a message saying so.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "exporters/svg_priv.h"

#define DEFAULT_DEPTH 2
#define MAX_NODES 150

extern char **environ;

typedef struct cgraph {
    const ph_profile *p;
    const ph_svg_opts *o;
    ph_svg_funcs funcs;       /* the numbers of profhub summary */
    int *level;               /* func id -> BFS level + 1, 0 = not in */
    const ph_func **nodes;
    size_t nnodes;
    double total;
    FILE *dot;
} cgraph;

static double entry_value(const cgraph *g, const ph_func *f, int incl)
{
    double v = ph_svg_funcs_value(&g->funcs, f, g->o->ev, incl);
    return isnan(v) ? 0 : v;
}

/* A DOT string body: quotes and backslashes escaped. */
static void dot_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

static void add_node(cgraph *g, const ph_func *f, int level)
{
    if (g->level[f->id] || g->nnodes >= MAX_NODES)
        return;
    g->level[f->id] = level + 1;
    g->nodes[g->nnodes++] = f;
}

/* Breadth first from the root, one direction, keeping arcs that carry at
 * least minwidth of the total; edges are written as they are found. */
static void walk(cgraph *g, const ph_func *root, int callers, int depth)
{
    const ph_func **queue = ph_xmalloc((ph_func_count(g->p) + 1) *
                                       sizeof *queue);
    int *qlevel = ph_xcalloc(ph_func_count(g->p) + 1, sizeof *qlevel);
    uint8_t *done = ph_xcalloc(ph_func_count(g->p) + 2, 1);
    size_t head = 0, tail = 0;
    queue[tail++] = root;
    done[root->id] = 1;
    const char *ev = ph_str_get(g->p, g->o->ev->name);
    while (head < tail) {
        const ph_func *f = queue[head];
        int lv = qlevel[head++];
        if (lv >= depth)
            continue;
        ph_arcs *a = callers ? ph_callers(g->p, f, PH_ALL_PARTS)
                             : ph_callees(g->p, f, PH_ALL_PARTS);
        for (size_t i = 0; i < a->count; i++) {
            const ph_arc *arc = &a->arcs[i];
            double v = ph_frames_value(g->p, g->o->ev, arc->incl);
            if (v < g->o->minwidth * g->total || arc->func == f)
                continue;
            add_node(g, arc->func, lv + 1);
            if (!g->level[arc->func->id])
                continue;          /* over MAX_NODES */
            const ph_func *from = callers ? arc->func : f;
            const ph_func *to = callers ? f : arc->func;
            char a1[48], a2[48], pc[32];
            double w = 1 + 5 * (v / g->total);
            fputs("  \"", g->dot);
            dot_str(g->dot, ph_str_get(g->p, from->name));
            fputs("\" -> \"", g->dot);
            dot_str(g->dot, ph_str_get(g->p, to->name));
            fprintf(g->dot, "\" [label=\"%s calls\\n%s (%s)\", "
                    "penwidth=%.2f, tooltip=\"", ph_svg_num(a1,
                    (double)arc->count), ph_svg_num(a2, v),
                    ph_svg_pct(pc, v, g->total), w);
            dot_str(g->dot, ph_str_get(g->p, from->name));
            fputs(" -> ", g->dot);
            dot_str(g->dot, ph_str_get(g->p, to->name));
            fprintf(g->dot, ": %s calls, %s %s\"];\n", a1, ev, a2);
            if (!done[arc->func->id]) {
                done[arc->func->id] = 1;
                qlevel[tail] = lv + 1;
                queue[tail++] = arc->func;
            }
        }
        ph_arcs_free(a);
    }
    free(queue);
    free(qlevel);
    free(done);
}

static void write_nodes(cgraph *g)
{
    const char *ev = ph_str_get(g->p, g->o->ev->name);
    for (size_t i = 0; i < g->nnodes; i++) {
        const ph_func *f = g->nodes[i];
        const char *name = ph_str_get(g->p, f->name);
        double in = entry_value(g, f, 1), self = entry_value(g, f, 0);
        double frac = g->total > 0 ? in / g->total : 0;
        frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
        char shortn[256], a[48], b[48], pa[32], pb[32];
        ph_svg_short_name(shortn, sizeof shortn, name);
        fputs("  \"", g->dot);
        dot_str(g->dot, name);
        fputs("\" [label=\"", g->dot);
        dot_str(g->dot, shortn);
        fprintf(g->dot, "\\ninclusive %s (%s)\\nself %s (%s)\", "
                "fillcolor=\"%.3f %.3f 1.000\", tooltip=\"",
                ph_svg_num(a, in), ph_svg_pct(pa, in, g->total),
                ph_svg_num(b, self), ph_svg_pct(pb, self, g->total),
                0.66 * (1 - frac), 0.15 + 0.6 * frac);
        dot_str(g->dot, name);
        fprintf(g->dot, "\\n%s inclusive: %s (%s), self: %s (%s)\"%s];\n",
                ev, a, pa, b, pb, g->level[f->id] == 1 ?
                ", penwidth=2.5" : "");
    }
}

/* Run dot on the DOT file, its SVG into svg_path.  -1 with the error
 * recorded on out. */
static int run_dot(const char *dot_path, const char *svg_path,
                   ph_output *out)
{
    const char *prog = getenv("PROFHUB_DOT");
    if (!prog || !*prog)
        prog = "dot";
    char *argv[] = { (char *)prog, (char *)"-Tsvg", (char *)"-o",
                     (char *)svg_path, (char *)dot_path, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        ph_output_error_set(out, "cannot run Graphviz's \"%s\" (%s): the "
                            "callgraph picture needs Graphviz (Debian: "
                            "apt-get install graphviz)", prog, strerror(rc));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            ph_output_error_set(out, "waiting for \"%s\": %s", prog,
                                strerror(errno));
            return -1;
        }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        ph_output_error_set(out, "Graphviz's \"%s\" failed (%s %d): the "
                            "callgraph picture needs Graphviz (Debian: "
                            "apt-get install graphviz)", prog,
                            WIFEXITED(status) ? "exit status" : "signal",
                            WIFEXITED(status) ? WEXITSTATUS(status)
                                              : WTERMSIG(status));
        return -1;
    }
    return 0;
}

/* Copy dot's SVG from its <svg> on (our own prolog unless embedded). */
static int copy_svg(const char *path, const ph_svg_opts *o, ph_output *out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ph_output_error_set(out, "cannot read dot's output: %s",
                            strerror(errno));
        return -1;
    }
    char buf[65536];
    size_t n;
    int started = 0;
    if (!o->embed)
        ph_output_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" "
                       "standalone=\"no\"?>\n");
    while ((n = fread(buf, 1, sizeof buf - 1, f)) > 0) {
        char *s = buf;
        buf[n] = '\0';
        if (!started) {
            s = strstr(buf, "<svg");
            if (!s)
                continue;   /* the prolog is far shorter than a block */
            started = 1;
        }
        ph_output_write(out, s, n - (size_t)(s - buf));
    }
    fclose(f);
    if (!started) {
        ph_output_error_set(out, "dot wrote no SVG");
        return -1;
    }
    return 0;
}

static const ph_func *pick_root(cgraph *g, ph_output *out)
{
    const ph_func *best = NULL;
    double bv = 0;
    const ph_func **list;
    size_t n = ph_funcs_matching(g->p, g->o->root ? g->o->root : "^main$",
                                 &list);
    if (n || g->o->root) {
        for (size_t i = 0; i < n; i++) {
            double v = entry_value(g, list[i], 1);
            if (!best || v > bv) {
                best = list[i];
                bv = v;
            }
        }
        free(list);
        if (!best)
            ph_output_error_set(out, "no function \"%s\" in the profile",
                                g->o->root);
        return best;
    }
    free(list);
    const ph_table *t = g->funcs.table;
    for (size_t i = 0; i < t->count; i++) {
        const ph_entry *e = &t->entries[i];
        double v = e->func && e->has_incl && !e->is_cycle
                   ? ph_entry_value(t, e, g->o->ev, 1) : 0;
        if (e->func && !e->is_cycle && (!best || v > bv)) {
            best = e->func;
            bv = v;
        }
    }
    if (!best)
        ph_output_error_set(out, "the profile has no functions");
    return best;
}

int ph_svg_callgraph(const ph_profile *p, const ph_svg_opts *o, ph_output *out)
{
    cgraph g;
    int rc = -1, depth = o->depth ? o->depth : DEFAULT_DEPTH;
    char dot_path[4096] = "";
    char svg_path[sizeof dot_path + sizeof ".svg"] = "";  /* dot_path.svg */
    const char *tmp = getenv("TMPDIR");
    memset(&g, 0, sizeof g);
    g.p = p;
    g.o = o;
    ph_svg_funcs_build(p, &g.funcs);
    g.level = ph_xcalloc(ph_func_count(p) + 2, sizeof *g.level);
    g.nodes = ph_xcalloc(MAX_NODES + 1, sizeof *g.nodes);
    g.total = ph_frames_value(p, o->ev, ph_totals(p, PH_ALL_PARTS));
    const ph_func *root = pick_root(&g, out);
    if (!root)
        goto done;
    snprintf(dot_path, sizeof dot_path, "%s/profhub-dot-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(dot_path);
    if (fd < 0 || !(g.dot = fdopen(fd, "w"))) {
        ph_output_error_set(out, "cannot make a temporary file: %s",
                            strerror(errno));
        dot_path[0] = '\0';
        goto done;
    }
    char a[48];
    const char *ev = ph_str_get(p, o->ev->name);
    /* size: at most about 1150 px wide, scaled down when larger. */
    fputs("digraph callgraph {\n  graph [labelloc=t, fontname=\"Helvetica\""
          ", fontsize=16, size=\"16,40\", label=\"", g.dot);
    if (o->title)
        dot_str(g.dot, o->title);
    else {
        char shortn[256];
        fputs("Call graph around ", g.dot);
        dot_str(g.dot, ph_svg_short_name(shortn, sizeof shortn,
                                          ph_str_get(p, root->name)));
        fprintf(g.dot, ": %s", ev);
    }
    fprintf(g.dot, "\\n%d levels of callers and callees; total %s; arcs "
            "under %g%% of the total left out%s\"];\n", depth,
            ph_svg_num(a, g.total), 100 * o->minwidth,
            ph_profile_approx(p) ? "; costs of calls approximated" : "");
    fputs("  node [shape=box, style=\"rounded,filled\", fontname="
          "\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", "
          "fontsize=9, color=\"#555555\"];\n", g.dot);
    add_node(&g, root, 0);
    walk(&g, root, 0, depth);
    walk(&g, root, 1, depth);
    write_nodes(&g);
    fputs("}\n", g.dot);
    if (fclose(g.dot) != 0) {
        g.dot = NULL;
        ph_output_error_set(out, "cannot write a temporary file: %s",
                            strerror(errno));
        goto done;
    }
    g.dot = NULL;
    snprintf(svg_path, sizeof svg_path, "%s.svg", dot_path);
    if (run_dot(dot_path, svg_path, out) < 0)
        goto done;
    rc = copy_svg(svg_path, o, out);
done:
    if (dot_path[0])
        unlink(dot_path);
    if (svg_path[0])
        unlink(svg_path);
    free(g.level);
    free(g.nodes);
    ph_svg_funcs_free(&g.funcs);
    return rc;
}
