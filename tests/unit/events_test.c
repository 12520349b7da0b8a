/* events_test.c -- CUnit suite for ir/events.c: the event table, formula
 * parsing (values, the "10 Bm" shorthand, error columns and messages),
 * cycles, redefinition, and the ratio-of-sums rule.
 */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "suites.h"

static ph_profile *make_profile(void)
{
    ph_profile *p = ph_profile_new();
    ph_event_add(p, "Ir");
    ph_event_add(p, "Dr");
    ph_event_add(p, "Bm");
    return p;
}

/* Value of FORMULA over Ir=100, Dr=20, Bm=3. */
static double value_of(const char *formula)
{
    ph_profile *p = make_profile();
    int64_t v[3] = { 100, 20, 3 };
    char err[128] = "";
    int col = 0;
    ph_event *ev = ph_event_define(p, "X", formula, &col, err, sizeof err);
    double r = ev ? ph_event_eval(p, ev, v) : -12345;
    CU_ASSERT_PTR_NOT_NULL(ev);
    ph_profile_free(p);
    return r;
}

static void test_table(void)
{
    ph_profile *p = make_profile();
    ph_event *ir = ph_event_find(p, "Ir");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ir);
    CU_ASSERT_PTR_EQUAL(ph_event_add(p, "Ir"), ir);
    CU_ASSERT_EQUAL(ph_event_nreal(p), 3);
    CU_ASSERT_EQUAL(ph_event_count(p), 3);
    CU_ASSERT_EQUAL(ph_event_real(p, 2)->slot, 2);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, ph_event_real(p, 1)->name), "Dr");
    CU_ASSERT_DOUBLE_EQUAL(ir->scale, 1.0, 0);
    CU_ASSERT_PTR_NULL(ph_event_find(p, "Nope"));
    CU_ASSERT_PTR_NOT_NULL(ph_event_define(p, "D", "Ir", NULL, NULL, 0));
    CU_ASSERT_EQUAL(ph_event_count(p), 4);
    CU_ASSERT_EQUAL(ph_event_nreal(p), 3);
    CU_ASSERT_EQUAL(ph_event_at(p, 3)->slot, -1);
    CU_ASSERT(ph_event_at(p, 3)->flags & PH_EV_DERIVED);
    CU_ASSERT_EQUAL(ph_event_add(p, "L")->slot, 3);
    CU_ASSERT_EQUAL(ph_event_at(p, 4)->index, 4);
    ph_profile_free(p);
}

static void test_values(void)
{
    CU_ASSERT_DOUBLE_EQUAL(value_of("Ir"), 100, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("Ir + 2 * Dr"), 140, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("(Ir + 2) * Dr"), 2040, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("Ir - Dr - Bm"), 77, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("Ir / Dr / 5"), 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("-Ir + 3"), -97, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("2 * -(Ir - Dr)"), -160, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("1.5 * Ir"), 150, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("0.25"), 0.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("Ir / 0"), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(value_of("Ir / (Dr - 20)"), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(value_of("  Ir\t+ Dr  "), 120, 1e-12);
    /* KCachegrind's shorthand: "10 Bm" is 10 * Bm */
    CU_ASSERT_DOUBLE_EQUAL(value_of("Ir + 10 Bm"), 130, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("10Bm"), 30, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("Ir + 10 Bm + 100 Dr"), 2130, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(value_of("2 Bm * 2"), 12, 1e-12);
}

/* The error for FORMULA must be MSG at column COL. */
static void check_error(const char *formula, int col, const char *msg)
{
    ph_profile *p = make_profile();
    char err[128] = "";
    int c = -1;
    CU_ASSERT_PTR_NULL(ph_event_define(p, "X", formula, &c, err, sizeof err));
    CU_ASSERT_EQUAL(c, col);
    CU_ASSERT_STRING_EQUAL(err, msg);
    CU_ASSERT_PTR_NULL(ph_event_find(p, "X"));
    ph_profile_free(p);
}

static void test_errors(void)
{
    check_error("Ir + )", 6, "expected a name or number, got \")\"");
    check_error("Ir + Foo", 6, "unknown event \"Foo\"");
    check_error("(Ir + Dr", 9, "expected \")\", got end of formula");
    check_error("Ir Dr", 4, "expected an operator, got \"Dr\"");
    check_error("", 1, "expected a name or number, got end of formula");
    check_error("Ir *", 5, "expected a name or number, got end of formula");
    check_error("Ir + 2 (Dr)", 8, "expected an operator, got \"(\"");
    check_error("Ir + 1.", 8, "expected a digit after \".\"");
    check_error("Ir # 2", 4, "expected an operator, got \"#\"");
    check_error("Ir + \xc3\xa9t\xc3\xa9", 6,
                "expected a name or number, got \"\xc3\xa9\"");
    check_error("X + 1", 1, "formula of X refers to itself");
}

static void test_deep_nesting(void)
{
    ph_profile *p = make_profile();
    char f[2100], err[128];
    int col, i;
    for (i = 0; i < 1000; i++)
        f[i] = '(';
    strcpy(f + 1000, "Ir");
    for (i = 0; i < 1000; i++)
        f[1002 + i] = ')';
    f[2002] = '\0';
    CU_ASSERT_PTR_NULL(ph_event_define(p, "X", f, &col, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "formula nested too deeply");
    ph_profile_free(p);
}

/* A formula of 100000 terms would make evaluation recurse that deep. */
static void test_long_formula(void)
{
    ph_profile *p = make_profile();
    size_t n = 100000, i;
    char *f = malloc(n * 5 + 1), err[128];
    int col;
    for (i = 0; i < n; i++)
        memcpy(f + i * 5, "Ir + ", 5);
    strcpy(f + n * 5 - 3, "\0");
    CU_ASSERT_PTR_NULL(ph_event_define(p, "X", f, &col, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "formula too long");
    free(f);
    ph_profile_free(p);
}

static void test_cycles_and_redefinition(void)
{
    ph_profile *p = make_profile();
    int64_t v[3] = { 100, 20, 3 };
    char err[128] = "";
    int col = 0;
    ph_event *a = ph_event_define(p, "A", "Ir + 1", &col, err, sizeof err);
    ph_event *b = ph_event_define(p, "B", "A * 2", &col, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_DOUBLE_EQUAL(ph_event_eval(p, b, v), 202, 1e-12);
    /* A = 3 + B would make A -> B -> A */
    CU_ASSERT_PTR_NULL(ph_event_define(p, "A", "3 + B", &col, err, sizeof err));
    CU_ASSERT_EQUAL(col, 5);
    CU_ASSERT_STRING_EQUAL(err, "formula of A refers to itself through B");
    CU_ASSERT_PTR_NULL(ph_event_define(p, "A", "A + 1", &col, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "formula of A refers to itself");
    /* the old formula stands */
    CU_ASSERT_DOUBLE_EQUAL(ph_event_eval(p, a, v), 101, 1e-12);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, a->formula), "Ir + 1");
    /* redefinition replaces the formula, in place */
    CU_ASSERT_PTR_EQUAL(ph_event_define(p, "A", "Dr", &col, err, sizeof err),
                        a);
    CU_ASSERT_DOUBLE_EQUAL(ph_event_eval(p, b, v), 40, 1e-12);
    CU_ASSERT_STRING_EQUAL(ph_str_get(p, a->formula), "Dr");
    CU_ASSERT_EQUAL(ph_event_count(p), 5);
    /* a real event cannot get a formula */
    CU_ASSERT_PTR_NULL(ph_event_define(p, "Ir", "Dr", &col, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err,
                           "\"Ir\" is a real event and cannot have a formula");
    ph_profile_free(p);
}

/* MissRate = D1mr / Dr over two functions: the aggregate is the ratio of
 * the sums (14 / 100), not the sum (0.6) or mean of per-row ratios. */
static void test_ratio_of_sums(void)
{
    ph_profile *p = ph_profile_new();
    ph_func *f = ph_func_get(p, ph_str_intern0(p, "f"), NULL, NULL);
    ph_func *g = ph_func_get(p, ph_str_intern0(p, "g"), NULL, NULL);
    ph_event *rate;
    char err[128];
    int col;
    ph_event_add(p, "Dr");
    ph_event_add(p, "D1mr");
    rate = ph_event_define(p, "MissRate", "D1mr / Dr", &col, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rate);
    ph_row_add(p, f, NULL, 0, 1, NULL, (int64_t[]){ 10, 5 }, 2);
    ph_row_add(p, g, NULL, 0, 1, NULL, (int64_t[]){ 90, 9 }, 2);
    CU_ASSERT_DOUBLE_EQUAL(ph_event_eval(p, rate, ph_totals(p, PH_ALL_PARTS)),
                           0.14, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(
        ph_event_eval(p, rate, ph_func_self(p, f, PH_ALL_PARTS)), 0.5, 1e-12);
    ph_row_add(p, f, NULL, 0, 2, NULL, (int64_t[]){ 30, 1 }, 2);
    CU_ASSERT_DOUBLE_EQUAL(
        ph_event_eval(p, rate, ph_func_self(p, f, PH_ALL_PARTS)), 0.15, 1e-12);
    ph_profile_free(p);
}

/* Derived events that double at each step, or chain a thousand deep,
 * are refused once evaluating them would pass the limits. */
static void test_complexity(void)
{
    ph_profile *p = make_profile();
    int64_t v[3] = { 1, 2, 3 };
    char name[16], prev[16], formula[64], err[128], big[400];
    int col, i, failed_at = -1;
    ph_event *last = NULL;
    CU_ASSERT_PTR_NOT_NULL(ph_event_define(p, "A0", "Ir", &col, err, 128));
    for (i = 1; i < 40 && failed_at < 0; i++) {
        snprintf(prev, sizeof prev, "A%d", i - 1);
        snprintf(name, sizeof name, "A%d", i);
        snprintf(formula, sizeof formula, "%s + %s", prev, prev);
        if (!ph_event_define(p, name, formula, &col, err, sizeof err))
            failed_at = i;
    }
    CU_ASSERT(failed_at > 8 && failed_at < 20);
    snprintf(formula, sizeof formula,
             "formula of A%d is too complex to evaluate", failed_at);
    CU_ASSERT_STRING_EQUAL(err, formula);
    /* a redefinition that would make users of an event too complex */
    CU_ASSERT_PTR_NOT_NULL(ph_event_define(p, "A0", "Dr", &col, err, 128));
    strcpy(big, "Ir");
    for (i = 0; i < 60; i++)
        strcat(big, " + Ir");
    CU_ASSERT_PTR_NULL(ph_event_define(p, "A0", big, &col, err, sizeof err));
    CU_ASSERT(strncmp(err, "formula of A0 makes A", 21) == 0);
    CU_ASSERT_DOUBLE_EQUAL(ph_event_eval(p, ph_event_find(p, "A1"), v), 4,
                           1e-12);
    /* a long chain */
    CU_ASSERT_PTR_NOT_NULL(ph_event_define(p, "C0", "Ir", &col, err, 128));
    failed_at = -1;
    for (i = 1; i < 3000 && failed_at < 0; i++) {
        snprintf(prev, sizeof prev, "C%d", i - 1);
        snprintf(name, sizeof name, "C%d", i);
        snprintf(formula, sizeof formula, "%s + 1", prev);
        last = ph_event_define(p, name, formula, &col, err, sizeof err);
        if (!last)
            failed_at = i;
    }
    CU_ASSERT(failed_at > 100 && failed_at < 1000);
    snprintf(name, sizeof name, "C%d", failed_at - 1);
    CU_ASSERT_DOUBLE_EQUAL(ph_event_eval(p, ph_event_find(p, name), v),
                           failed_at, 1e-9);
    ph_profile_free(p);
}

/* Random formulas from the grammar's characters: each one parses or
 * fails with a column inside the formula (or just past its end). */
static void test_random_formulas(void)
{
    static const char alphabet[] = "IrDBm()+-*/ 0123456789.x_";
    ph_profile *p = make_profile();
    int64_t v[3] = { 7, 0, -3 };
    uint64_t state = 12345;
    char f[40], err[128];
    int i, k, ok = 0, bad = 0;
    for (i = 0; i < 20000; i++) {
        int len = (int)(state % 30), col = 0;
        ph_event *ev;
        for (k = 0; k < len; k++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            f[k] = alphabet[(state >> 33) % (sizeof alphabet - 1)];
        }
        f[len] = '\0';
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        err[0] = '\0';
        ev = ph_event_define(p, "R", f, &col, err, sizeof err);
        if (ev) {
            (void)ph_event_eval(p, ev, v);
            ok++;
        } else {
            CU_ASSERT(col >= 1 && col <= len + 1);
            CU_ASSERT(err[0] != '\0');
            bad++;
        }
    }
    CU_ASSERT(ok > 0);
    CU_ASSERT(bad > 0);
    ph_profile_free(p);
}

void ph_test_register_events(void)
{
    CU_pSuite s = CU_add_suite("events", NULL, NULL);
    CU_add_test(s, "event table", test_table);
    CU_add_test(s, "formula values", test_values);
    CU_add_test(s, "formula errors and columns", test_errors);
    CU_add_test(s, "deep nesting rejected", test_deep_nesting);
    CU_add_test(s, "long formula rejected", test_long_formula);
    CU_add_test(s, "cycles and redefinition", test_cycles_and_redefinition);
    CU_add_test(s, "ratio of sums", test_ratio_of_sums);
    CU_add_test(s, "random formulas", test_random_formulas);
    CU_add_test(s, "too complex formulas", test_complexity);
}
