/* report_annotate.c -- one function's source lines with their costs. */
#include "config.h"

#include "cgview/report.h"

int ph_report_annotate(ph_report *r)
{
    (void)r;
    ph_cli_error("this view is not written yet");
    return PH_EXIT_BAD;
}
