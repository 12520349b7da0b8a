/* version.c -- profhub --version: the release (configure.ac's AC_INIT) and
 * the version of each versioned format profhub writes, so a bug report
 * says which files a build makes.  The writers own the facts: keep these
 * lines in step with exporters/callgrind_out.c ("version:" header),
 * importers/pprof.proto and importers/drcctprof.proto
 * (tests/pkg/version.sh checks the callgrind line against a written file). */
#include "config.h"

#include <stdio.h>

#include "cgview/cli.h"

void ph_cli_print_version(FILE *f)
{
    fprintf(f,
            "%s %s\n"
            "Formats written:\n"
            "  callgrind  format version 1\n"
            "  pprof      profile.proto (perftools.profiles, proto3), gzipped\n"
            "  drcctprof  drcctprof.profile schema of DrCCTProf 7ccd5081 "
            "(2021-03-24)\n",
            PACKAGE_NAME, PACKAGE_VERSION);
}
