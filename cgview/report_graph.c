/* report_graph.c -- around one function: callers, callees, both
 * (butterfly), and the call tree of every function shown. */
#include "config.h"

#include "cgview/report.h"

int ph_report_graph(ph_report *r)
{
    (void)r;
    ph_cli_error("this view is not written yet");
    return PH_EXIT_BAD;
}
