/* profile_merge.c -- copy one profile into another, scaled: the engine behind
 * merge (scale +1, many inputs streamed into one profile) and behind the
 * diff as a profile (NEW at +1, BASE at -1).  Functions are matched by
 * (name, file, object) after rename rules; events by name. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"

/* Apply "s/OLD/NEW/" rules in order: NEW may hold & (the match) and \1..\9;
 * a trailing g replaces every match. */
const char *ph_rename_apply(const ph_rename *rules, size_t n, const char *s,
                            char *buf, size_t size)
{
    if (n == 0)
        return s;
    char tmp[4096];
    snprintf(buf, size, "%s", s);
    for (size_t r = 0; r < n; r++) {
        const ph_rename *rule = &rules[r];
        size_t o = 0, off = 0, len = strlen(buf);
        regmatch_t m[10];
        while (off <= len && regexec(&rule->re, buf + off, 10, m,
                                     off ? REG_NOTBOL : 0) == 0) {
            size_t so = off + (size_t)m[0].rm_so, eo = off + (size_t)m[0].rm_eo;
            for (size_t i = off; i < so && o + 1 < sizeof tmp; i++)
                tmp[o++] = buf[i];
            for (const char *q = rule->repl; *q && o + 1 < sizeof tmp; q++) {
                int g = -1;
                if (*q == '&')
                    g = 0;
                else if (*q == '\\' && q[1] >= '0' && q[1] <= '9')
                    g = *++q - '0';
                else if (*q == '\\' && q[1])
                    q++;
                if (g < 0) {
                    tmp[o++] = *q;
                    continue;
                }
                if (m[g].rm_so < 0)
                    continue;
                for (regoff_t i = m[g].rm_so; i < m[g].rm_eo && o + 1 < sizeof tmp; i++)
                    tmp[o++] = buf[off + (size_t)i];
            }
            off = eo > so ? eo : eo + 1;
            if (eo == so && so < len && o + 1 < sizeof tmp)
                tmp[o++] = buf[so];
            if (!rule->global)
                break;
        }
        for (size_t i = off; i < len && o + 1 < sizeof tmp; i++)
            tmp[o++] = buf[i];
        tmp[o] = '\0';
        snprintf(buf, size, "%s", tmp);
    }
    return buf;
}

int ph_rename_parse(ph_rename *r, const char *spec, char *err, size_t errsize)
{
    /* s<d>OLD<d>NEW<d>[g] with any delimiter d. */
    if (spec[0] != 's' || !spec[1]) {
        snprintf(err, errsize, "expected s/OLD/NEW/, got \"%s\"", spec);
        return -1;
    }
    char d = spec[1];
    const char *a = spec + 2, *b = strchr(a, d);
    const char *c = b ? strchr(b + 1, d) : NULL;
    if (!b || !c || (c[1] && strcmp(c + 1, "g") != 0)) {
        snprintf(err, errsize, "expected s/OLD/NEW/, got \"%s\"", spec);
        return -1;
    }
    char *pat = ph_xmalloc((size_t)(b - a) + 1);
    memcpy(pat, a, (size_t)(b - a));
    pat[b - a] = '\0';
    int rc = regcomp(&r->re, pat, REG_EXTENDED);
    free(pat);
    if (rc != 0) {
        char msg[128];
        regerror(rc, &r->re, msg, sizeof msg);
        snprintf(err, errsize, "bad regular expression in \"%s\": %s", spec,
                 msg);
        return -1;
    }
    r->repl = ph_xmalloc((size_t)(c - b));
    memcpy(r->repl, b + 1, (size_t)(c - b - 1));
    r->repl[c - b - 1] = '\0';
    r->global = c[1] == 'g';
    return 0;
}

void ph_rename_free(ph_rename *r)
{
    regfree(&r->re);
    free(r->repl);
}

/* Per-source maps, indexed by source ids. */
typedef struct merger {
    ph_profile *dst, *src;
    const ph_merge_opts *o;
    size_t *slot;         /* src slot -> dst slot */
    size_t sw, dw;
    ph_func **func;       /* src func id - 1 -> dst func */
    ph_part **part;       /* src part index -> dst part */
    int64_t *vec;         /* dw scratch */
} merger;

static ph_str copy_str(merger *m, ph_str s)
{
    return s ? ph_str_intern0(m->dst, ph_str_get(m->src, s)) : 0;
}

static ph_str renamed(merger *m, ph_str s, const ph_rename *r, size_t n)
{
    char buf[4096];
    if (!s)
        return 0;
    return ph_str_intern0(m->dst, ph_rename_apply(r, n, ph_str_get(m->src, s),
                                                  buf, sizeof buf));
}

static ph_object *map_object(merger *m, const ph_object *o)
{
    if (!o)
        return NULL;
    ph_object *d = ph_object_get(m->dst, copy_str(m, o->name));
    if (!d->start && !d->limit) {
        d->start = o->start;
        d->limit = o->limit;
        d->offset = o->offset;
        d->build_id = copy_str(m, o->build_id);
    }
    return d;
}

static ph_file *map_file(merger *m, const ph_file *f)
{
    if (!f)
        return NULL;
    return ph_file_get(m->dst, renamed(m, f->name, m->o->rename_file,
                                       m->o->nrename_file));
}

static ph_func *map_func(merger *m, const ph_func *f)
{
    if (!f)
        return NULL;
    ph_func **slot = &m->func[f->id - 1];
    if (*slot)
        return *slot;
    ph_func *d = ph_func_get(m->dst,
                             renamed(m, f->name, m->o->rename_fn,
                                     m->o->nrename_fn),
                             map_file(m, f->file), map_object(m, f->object));
    if (!d->mangled)
        d->mangled = copy_str(m, f->mangled);
    if (!d->line)
        d->line = f->line;
    if (!d->addr)
        d->addr = f->addr;
    return *slot = d;
}

/* Scale and remap a vector of n source values into m->vec. */
static const int64_t *map_vec(merger *m, const int64_t *v, size_t n)
{
    memset(m->vec, 0, (m->dw + 1) * sizeof *m->vec);
    for (size_t k = 0; k < n && k < m->sw; k++)
        m->vec[m->slot[k]] += v[k] * m->o->scale;
    return m->vec;
}

static void map_events(merger *m)
{
    ph_profile *src = m->src, *dst = m->dst;
    m->sw = ph_event_nreal(src);
    m->slot = ph_xcalloc(m->sw + 1, sizeof *m->slot);
    for (size_t k = 0; k < m->sw; k++) {
        const ph_event *se = ph_event_real(src, k);
        ph_event *de = ph_event_add(dst, ph_str_get(src, se->name));
        if (!de->long_name)
            de->long_name = copy_str(m, se->long_name);
        if (!de->unit)
            de->unit = copy_str(m, se->unit);
        de->scale = se->scale;
        de->flags |= se->flags & PH_EV_NONADDITIVE;
        m->slot[k] = (size_t)de->slot;
    }
    for (size_t i = 0; i < ph_event_count(src); i++) {
        const ph_event *se = ph_event_at(src, i);
        if (!(se->flags & PH_EV_DERIVED) || (se->flags & PH_EV_BUILTIN))
            continue;
        if (ph_event_find(dst, ph_str_get(src, se->name)))
            continue;
        int col;
        char err[128];
        ph_event *de = ph_event_define(dst, ph_str_get(src, se->name),
                                       ph_str_get(src, se->formula), &col,
                                       err, sizeof err);
        if (de && !de->long_name)
            de->long_name = copy_str(m, se->long_name);
    }
    m->dw = ph_event_nreal(dst);
    m->vec = ph_xcalloc(m->dw + 1, sizeof *m->vec);
}

static void map_parts(merger *m)
{
    size_t n = ph_part_count(m->src);
    m->part = ph_xcalloc(n + 1, sizeof *m->part);
    for (size_t i = 0; i < n; i++) {
        const ph_part *sp = ph_part_at(m->src, i);
        if (m->o->into) {
            m->part[i] = m->o->into;
            continue;
        }
        ph_part *dp = ph_part_add(m->dst, sp->kind);
        dp->number = sp->number;
        dp->pid = sp->pid;
        dp->tid = sp->tid;
        dp->name = copy_str(m, sp->name);
        dp->trigger = copy_str(m, sp->trigger);
        m->part[i] = m->o->fold_parts ? ph_part_at(m->dst, 0) : dp;
    }
}

static ph_part *part_of(merger *m, const ph_part *sp)
{
    if (!sp)
        return m->o->into ? m->o->into : (ph_part_count(m->dst)
                                              ? ph_part_at(m->dst, 0)
                                              : NULL);
    return m->part[sp->index];
}

/* The dst part of a part index key (0: none). */
static uint64_t part_key(const ph_part *dp)
{
    return dp ? dp->index + 1 : 0;
}

static ph_part *key_part(const merger *m, uint64_t k)
{
    return k ? ph_part_at(m->dst, k - 1) : NULL;
}

static ph_file *key_file(const merger *m, uint64_t k)
{
    return k ? ph_file_at(m->dst, k - 1) : NULL;
}

static ph_func *key_func(const merger *m, uint64_t k)
{
    return k ? ph_func_at(m->dst, k - 1) : NULL;
}

/* Rows of f with equal (part, line, addr, file) summed into one. */
static void copy_rows_summed(merger *m, const ph_func *f, ph_func *df,
                             ph_sumbuf *b)
{
    ph_row_iter it;
    ph_row r;
    ph_sumbuf_reset(b, 4, m->dw);
    ph_row_iter_init(&it, m->src, f, NULL);
    while (ph_row_next(&it, &r)) {
        const ph_file *file = map_file(m, r.file);
        uint64_t key[4] = {part_key(part_of(m, ph_row_iter_part(&it))),
                           r.line, r.addr, file ? file->id : 0};
        memcpy(ph_sumbuf_push(b, key), map_vec(m, r.cost, m->sw),
               m->dw * sizeof *m->vec);
    }
    for (size_t i = 0, n = ph_sumbuf_fold(b); i < n; i++) {
        const uint64_t *k = ph_sumbuf_key(b, i);
        ph_row_add(m->dst, df, key_part(m, k[0]), k[2], (uint32_t)k[1],
                   key_file(m, k[3]), ph_sumbuf_vals(b, i), m->dw);
    }
}

/* Calls of f with equal site, callee and target summed (count and
 * inclusive cost; calls of unknown cost apart from the others). */
static void copy_calls_summed(merger *m, const ph_func *f, ph_sumbuf *b)
{
    ph_call_iter ci;
    ph_sumbuf_reset(b, 8, m->dw + 1);
    for (const ph_call *c = ph_calls_out(&ci, m->src, f); c;
         c = ph_call_next(&ci)) {
        const ph_file *file = map_file(m, c->file);
        uint64_t key[8] = {part_key(part_of(m, c->part)), c->line, c->addr,
                           file ? file->id : 0, map_func(m, c->callee)->id,
                           c->target_line, c->target_addr, c->incl != NULL};
        int64_t *v = ph_sumbuf_push(b, key);
        v[0] = (int64_t)c->count;
        if (c->incl)
            memcpy(v + 1, map_vec(m, c->incl, c->width),
                   m->dw * sizeof *m->vec);
    }
    ph_func *df = map_func(m, f);
    for (size_t i = 0, n = ph_sumbuf_fold(b); i < n; i++) {
        const uint64_t *k = ph_sumbuf_key(b, i);
        const int64_t *v = ph_sumbuf_vals(b, i);
        ph_call_add(m->dst, df, key_part(m, k[0]), k[2], (uint32_t)k[1],
                    key_file(m, k[3]), key_func(m, k[4]), k[6],
                    (uint32_t)k[5], (uint64_t)v[0], k[7] ? v + 1 : NULL,
                    k[7] ? m->dw : 0);
    }
}

/* Jumps of f with equal source, target and kind summed. */
static void copy_jumps_summed(merger *m, const ph_func *f, ph_sumbuf *b)
{
    ph_jump_iter ji;
    ph_sumbuf_reset(b, 9, 2);
    for (const ph_jump *j = ph_jumps_from(&ji, m->src, f); j;
         j = ph_jump_next(&ji)) {
        const ph_file *file = map_file(m, j->file);
        const ph_file *to_file = map_file(m, j->to_file);
        const ph_func *to = map_func(m, j->to);
        uint64_t key[9] = {part_key(part_of(m, j->part)), j->line, j->addr,
                           file ? file->id : 0, to ? to->id : 0,
                           to_file ? to_file->id : 0, j->target_line,
                           j->target_addr, (uint64_t)j->conditional};
        int64_t *v = ph_sumbuf_push(b, key);
        v[0] = (int64_t)j->executed;
        v[1] = (int64_t)j->followed;
    }
    for (size_t i = 0, n = ph_sumbuf_fold(b); i < n; i++) {
        const uint64_t *k = ph_sumbuf_key(b, i);
        const int64_t *v = ph_sumbuf_vals(b, i);
        ph_jump j = {.from = map_func(m, f), .part = key_part(m, k[0]),
                     .addr = k[2], .line = (uint32_t)k[1],
                     .file = key_file(m, k[3]), .to = key_func(m, k[4]),
                     .to_file = key_file(m, k[5]),
                     .target_addr = k[7], .target_line = (uint32_t)k[6],
                     .executed = (uint64_t)v[0], .followed = (uint64_t)v[1],
                     .conditional = (int)k[8]};
        ph_jump_add(m->dst, &j);
    }
}

static void copy_flat_summed(merger *m)
{
    ph_profile *src = m->src;
    ph_sumbuf b;
    ph_sumbuf_init(&b, 1, 1);
    b.first_seen = m->o->fold_parts;
    /* Functions first, in order, so that ids stay as they were. */
    for (size_t i = 0; i < ph_func_count(src); i++)
        map_func(m, ph_func_at(src, i));
    for (size_t i = 0; i < ph_func_count(src); i++) {
        const ph_func *f = ph_func_at(src, i);
        copy_rows_summed(m, f, map_func(m, f), &b);
        copy_calls_summed(m, f, &b);
        copy_jumps_summed(m, f, &b);
    }
    ph_sumbuf_free(&b);
}

static void copy_flat(merger *m)
{
    ph_profile *src = m->src;
    for (size_t i = 0; i < ph_func_count(src); i++) {
        const ph_func *f = ph_func_at(src, i);
        ph_func *df = map_func(m, f);
        ph_row_iter it;
        ph_row r;
        /* Every part in turn, in part order, skipping those without rows:
         * one pass whatever the number of parts. */
        ph_row_iter_init(&it, src, f, NULL);
        while (ph_row_next(&it, &r))
            ph_row_add(m->dst, df, part_of(m, ph_row_iter_part(&it)), r.addr,
                       r.line, map_file(m, r.file), map_vec(m, r.cost, m->sw),
                       m->dw);
    }
    ph_call_iter ci;
    for (const ph_call *c = ph_calls_all(&ci, src); c; c = ph_call_next(&ci)) {
        const int64_t *incl = c->incl ? map_vec(m, c->incl, c->width) : NULL;
        ph_call_add(m->dst, map_func(m, c->caller), part_of(m, c->part),
                    c->addr, c->line, map_file(m, c->file),
                    map_func(m, c->callee), c->target_addr, c->target_line,
                    c->count, incl, incl ? m->dw : 0);
    }
    ph_jump_iter ji;
    for (const ph_jump *jp = ph_jumps_all(&ji, src); jp;
         jp = ph_jump_next(&ji)) {
        ph_jump j = *jp;
        j.from = map_func(m, j.from);
        j.to = map_func(m, j.to);
        j.part = part_of(m, j.part);
        j.file = map_file(m, j.file);
        j.to_file = map_file(m, j.to_file);
        ph_jump_add(m->dst, &j);
    }
}

/* The samples of one source node, on dst node dn, those with equal part
 * and labels summed (samples with string values are copied as they are). */
static void copy_samples_summed(merger *m, const ph_node *sn, ph_node *dn,
                                ph_sumbuf *b)
{
    size_t maxl = 0;
    const ph_sample *first = ph_node_samples(m->src, sn);
    for (const ph_sample *s = first; s; s = s->next)
        if (s->nlabels > maxl)
            maxl = s->nlabels;
    size_t nkey = 2 + 4 * maxl;
    uint64_t *key = ph_xcalloc(nkey, sizeof *key);
    ph_sumbuf_reset(b, nkey, m->dw);
    for (const ph_sample *s = first; s; s = s->next) {
        const int64_t *v = map_vec(m, s->cost, s->width);
        if (s->strs) {
            ph_sample_add(m->dst, dn, part_of(m, s->part), v, m->dw,
                          s->labels, 0);
            continue;
        }
        memset(key, 0, nkey * sizeof *key);
        key[0] = part_key(part_of(m, s->part));
        key[1] = s->nlabels;
        for (uint32_t l = 0; l < s->nlabels; l++) {
            key[2 + 4 * l] = copy_str(m, s->labels[l].key);
            key[3 + 4 * l] = copy_str(m, s->labels[l].str);
            key[4 + 4 * l] = (uint64_t)s->labels[l].num;
            key[5 + 4 * l] = copy_str(m, s->labels[l].num_unit);
        }
        memcpy(ph_sumbuf_push(b, key), v, m->dw * sizeof *v);
    }
    ph_label *labels = ph_xcalloc(maxl + 1, sizeof *labels);
    for (size_t i = 0, n = ph_sumbuf_fold(b); i < n; i++) {
        const uint64_t *k = ph_sumbuf_key(b, i);
        for (uint64_t l = 0; l < k[1]; l++)
            labels[l] = (ph_label){.key = (ph_str)k[2 + 4 * l],
                                   .str = (ph_str)k[3 + 4 * l],
                                   .num = (int64_t)k[4 + 4 * l],
                                   .num_unit = (ph_str)k[5 + 4 * l]};
        ph_sample_add(m->dst, dn, key_part(m, k[0]), ph_sumbuf_vals(b, i),
                      m->dw, labels, (size_t)k[1]);
    }
    free(labels);
    free(key);
}

static void copy_tree(merger *m)
{
    ph_profile *src = m->src;
    size_t n = ph_node_count(src);
    if (!n)
        return;
    ph_node **map = ph_xcalloc(n, sizeof *map);
    ph_label *labels = NULL;
    size_t lcap = 0, extra = m->o->label_key ? 1 : 0;
    ph_sumbuf b;
    ph_sumbuf_init(&b, 1, 1);
    for (size_t i = 0; i < n; i++) {
        const ph_node *sn = ph_node_at(src, i);
        const ph_frame *fr = ph_node_frame(src, sn);
        ph_node *parent = sn->parent ? map[sn->parent - 1] : NULL;
        map[i] = ph_node_child(m->dst, parent, map_func(m, fr->func),
                               map_object(m, fr->object), fr->addr, fr->line,
                               fr->flags);
        if (m->o->coalesce && !m->o->fold_parts && !extra) {
            copy_samples_summed(m, sn, map[i], &b);
            continue;
        }
        for (const ph_sample *s = ph_node_samples(src, sn); s; s = s->next) {
            if (s->nlabels + extra > lcap) {
                lcap = s->nlabels + extra;
                labels = ph_xrealloc(labels, lcap * sizeof *labels);
            }
            for (uint32_t l = 0; l < s->nlabels; l++) {
                labels[l] = s->labels[l];
                labels[l].key = copy_str(m, s->labels[l].key);
                labels[l].str = copy_str(m, s->labels[l].str);
                labels[l].num_unit = copy_str(m, s->labels[l].num_unit);
            }
            if (extra)
                labels[s->nlabels] = (ph_label){
                    .key = ph_str_intern0(m->dst, m->o->label_key),
                    .str = ph_str_intern0(m->dst, m->o->label_value)};
            ph_sample_add(m->dst, map[i], part_of(m, s->part),
                          map_vec(m, s->cost, s->width), m->dw, labels,
                          s->nlabels + extra);
        }
    }
    ph_sumbuf_free(&b);
    free(labels);
    free(map);
}

/* gprof's fractional self costs follow their functions, scaled. */
static void copy_credits(merger *m)
{
    for (size_t k = 0; k < ph_event_nreal(m->src); k++) {
        const ph_event *se = ph_event_real(m->src, k);
        if (!ph_has_credits(m->src, se))
            continue;
        const ph_event *de = ph_event_find(m->dst, ph_str_get(m->src, se->name));
        for (size_t i = 0; i < ph_func_count(m->src); i++) {
            const ph_func *f = ph_func_at(m->src, i);
            ph_func *df = map_func(m, f);
            double had = ph_has_credits(m->dst, de) ? ph_func_credit(m->dst, df)
                                                    : 0;
            ph_func_set_credit(m->dst, df, de,
                               had + (double)m->o->scale *
                                         ph_func_credit(m->src, f));
        }
    }
}

void ph_merge_into(ph_profile *dst, ph_profile *src, const ph_merge_opts *o)
{
    merger m = {.dst = dst, .src = src, .o = o};
    int first = ph_event_count(dst) == 0;
    map_events(&m);
    const ph_event *def = ph_default_event(src);
    if (first && def)
        ph_profile_set_default_event(
            dst, ph_event_find(dst, ph_str_get(src, def->name)));
    map_parts(&m);
    m.func = ph_xcalloc(ph_func_count(src) + 1, sizeof *m.func);
    for (size_t i = 0; i < ph_meta_count(src); i++) {
        const char *k, *v;
        ph_meta_at(src, i, &k, &v);
        if (!ph_meta_get(dst, k))
            ph_meta_add(dst, k, v);
    }
    if (ph_profile_approx(src))
        ph_profile_set_approx(dst, ph_profile_approx(src));
    if (o->coalesce)
        copy_flat_summed(&m);
    else
        copy_flat(&m);
    copy_tree(&m);
    copy_credits(&m);
    if (o->func_map)
        for (size_t i = 0; i < ph_func_count(src); i++)
            o->func_map[i] = map_func(&m, ph_func_at(src, i));
    free(m.slot);
    free(m.part);
    free(m.func);
    free(m.vec);
}
