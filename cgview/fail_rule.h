/* fail_rule.h -- the --fail-if rules of "profhub diff", parsed in one
 * place (diff.c evaluates them; tests/fuzz/fuzz_formula.c fuzzes the
 * parser). */
#ifndef PH_FAIL_RULE_H
#define PH_FAIL_RULE_H

typedef struct ph_fail_rule {
    const char *text;    /* the rule as given */
    char fn[512];        /* "" for the totals */
    char event[128];
    char op;             /* '>' or '<' */
    double bound;        /* finite */
    int percent;
} ph_fail_rule;

/* Parse "[fn:NAME ]EVENT OP [+|-]NUMBER[%]" (OP is > or <) into r, which
 * keeps a pointer to s.  Returns 0, or -1 when s is not such a rule (a
 * bound of nan or inf is none: that gate could never fire). */
int ph_fail_rule_parse(ph_fail_rule *r, const char *s);

#endif /* PH_FAIL_RULE_H */
