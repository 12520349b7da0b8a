/* run_unit.c -- the one CUnit runner: registers every suite listed in
 * suites.h, runs them (or only those named on the command line) and exits
 * non-zero when any assertion fails.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "suites.h"

static void register_all(void)
{
#define PH_SUITE(m) ph_test_register_##m();
#include "suites.h"
}

int main(int argc, char **argv)
{
    unsigned failed;
    int i;
    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "run_unit: %s\n", CU_get_error_msg());
        return 1;
    }
    register_all();
    if (CU_get_error() != CUE_SUCCESS) {
        fprintf(stderr, "run_unit: %s\n", CU_get_error_msg());
        CU_cleanup_registry();
        return 1;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    if (argc > 1) {
        for (i = 1; i < argc; i++) {
            CU_pSuite s = CU_get_suite(argv[i]);
            if (!s) {
                fprintf(stderr, "run_unit: no suite named \"%s\"\n",
                        argv[i]);
                CU_cleanup_registry();
                return 2;
            }
            CU_basic_run_suite(s);
        }
    } else {
        CU_basic_run_tests();
    }
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed() +
             CU_get_number_of_suites_failed();
    if (CU_get_error() != CUE_SUCCESS) {
        fprintf(stderr, "run_unit: %s\n", CU_get_error_msg());
        failed++;
    }
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
