/* cli.h -- what the profhub subcommands share: the command table entry,
 * option parsing around getopt_long, messages in the forms of STYLE.md
 * (only cgview/ prints), loading a profile with a progress line, and small
 * printers for numbers and JSON.  Exit status: 0 ok, 1 bad input or failed
 * output, 2 usage. */
#ifndef PH_CLI_H
#define PH_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/format.h"
#include "ir/io.h"
#include "ir/ir.h"

enum { PH_EXIT_OK = 0, PH_EXIT_BAD = 1, PH_EXIT_USAGE = 2, PH_EXIT_GATE = 3 };

/* One subcommand.  run gets argv[0] = the subcommand's name. */
typedef struct ph_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;   /* one line for "profhub --help" */
} ph_command;

/* Subcommands, one file each (cgview/<name>.c). */
int ph_cmd_summary(int argc, char **argv);
int ph_cmd_info(int argc, char **argv);
int ph_cmd_convert(int argc, char **argv);
int ph_cmd_formats(int argc, char **argv);
int ph_cmd_record(int argc, char **argv);      /* cgview/record.c */
int ph_cmd_collectors(int argc, char **argv);  /* cgview/collectors.c */
int ph_cmd_diff(int argc, char **argv);        /* cgview/diff.c */
int ph_cmd_merge(int argc, char **argv);       /* cgview/merge.c */
int ph_cmd_draw(int argc, char **argv);        /* cgview/draw.c */
int ph_cmd_report(int argc, char **argv);      /* cgview/report_html.c */

/* profhub --version: release and written formats' versions (version.c). */
void ph_cli_print_version(FILE *f);

/* Program name for messages: "profhub" or "cgview" (set by main). */
extern const char *ph_cli_prog;

/* ------------------------------------------------------------------ */
/* Messages (stderr)                                                   */

/* "profhub: MESSAGE" */
void ph_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "FILE: MESSAGE": a message about one file starts with the file, as a
 * reader's "FILE:LINE:COL: MESSAGE" does (fmt may begin with ":L:C"). */
void ph_cli_file_error(const char *path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "profhub: warning: MESSAGE" */
void ph_cli_warning(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* "profhub CMD: MESSAGE" and a hint to --help; returns PH_EXIT_USAGE. */
int ph_cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------------ */
/* Options                                                             */

/* Start a getopt_long loop over a subcommand's argv (resets getopt's
 * state; getopt itself stays silent so messages keep our form). Use a
 * shortopts string that starts with ':'. */
void ph_cli_opt_begin(void);
/* After getopt_long returned '?' or ':': print what was wrong with the
 * option and return PH_EXIT_USAGE. */
int ph_cli_bad_option(const char *cmd, char **argv, int c);

/* Report formats of --format. */
typedef enum ph_report_format {
    PH_REPORT_TEXT = 1u << 0,
    PH_REPORT_CSV = 1u << 1,
    PH_REPORT_JSON = 1u << 2,
    PH_REPORT_YAML = 1u << 3,
} ph_report_format;
/* Parse a --format value among the allowed ones (PH_REPORT_* bits).
 * Returns 0, or prints a usage message and returns -1. */
int ph_cli_report_format(const char *cmd, const char *arg, unsigned allowed,
                         ph_report_format *out);
/* Parse a non-negative count for an option; 0 or -1 (usage printed). */
int ph_cli_count(const char *cmd, const char *opt, const char *arg,
                 uint64_t *out);
/* Check that a -t/--from format name is known in the given direction
 * (read: 1, write: 0); prints a usage message and returns -1 if not. */
int ph_cli_check_format(const char *cmd, const char *name, int read);

/* ------------------------------------------------------------------ */
/* Loading                                                             */

/* Load path (forced format and companion exe may be NULL) with a progress
 * line on a terminal.  On success prints the input's warnings (once per
 * kind, with counts) and, when the profile is approximated, says so; on
 * failure prints the error and returns NULL (exit PH_EXIT_BAD). */
ph_profile *ph_cli_load(const char *path, const char *forced,
                        const char *exe);
/* Load a and b side by side (ph_run_pair), then report as ph_cli_load
 * would one after the other: 0 with both, or -1 with neither (only a's
 * error when both fail). */
int ph_cli_load_pair(const char *a, const char *b, const char *forced,
                     const char *exe, ph_profile **pa, ph_profile **pb);
/* Many files loaded one after the other (merge, the parts of a summary,
 * a picture of their sum): each reported as ph_cli_load does, under one
 * progress line for them all on a terminal, drawn once they have taken a
 * second.  ph_cli_loads_next loads the next of paths (NULL after an
 * error, or after the last). */
typedef struct ph_cli_loads ph_cli_loads;
ph_cli_loads *ph_cli_loads_start(const char *const *paths, size_t n);
ph_profile *ph_cli_loads_next(ph_cli_loads *ls, const char *forced,
                              const char *exe);
void ph_cli_loads_end(ph_cli_loads *ls);
/* --raw-addresses, shared by every command that takes --exe: a gmon.out
 * without its program is read with code named by address (otherwise
 * refused).  Set by the option; ph_cli_load hands it to the input. */
extern int ph_cli_raw_addresses;
enum { PH_OPT_RAW_ADDRESSES = 1000 };
#define PH_CLI_RAW_ADDRESSES_OPTION \
    { "raw-addresses", no_argument, NULL, PH_OPT_RAW_ADDRESSES }
/* The writer for -t TO, or for PATH's extension; NULL after printing a
 * usage message (cgview/save.c). */
const ph_format *ph_cli_writer(const char *cmd, const char *path,
                               const char *to);
/* Write p to path with writer (kv: nkv "KEY=VALUE" writer options): a
 * temporary file renamed into place, drop warnings printed.  Returns
 * PH_EXIT_OK or PH_EXIT_BAD (message printed; nothing left behind). */
/* Exit 2 (with a usage message listing the valid keys) unless every
 * "key=value" in kv is an option the writer reads with a usable value. */
int ph_cli_check_options(const char *cmd, ph_profile *p,
                         const ph_format *writer, char *const *kv,
                         size_t nkv);
int ph_cli_save(ph_profile *p, const ph_format *writer, const char *path,
                char *const *kv, size_t nkv);
/* After a writer ran on out (rc its result, its error recorded on out):
 * print the drop warnings and commit, or print the writer's error as
 * "PATH: message" and leave nothing behind.
 * Consumes out; returns PH_EXIT_OK or PH_EXIT_BAD.  ph_cli_save and draw
 * report through it alike. */
int ph_cli_finish_output(const char *path, const char *format,
                         ph_output *out, int rc);
/* Print a writer's drop warnings: "profhub: warning: FMT: dropped N WHAT". */
void ph_cli_print_drops(const char *format, const ph_output *out);

/* ------------------------------------------------------------------ */
/* Derived events (cgview/derived.c)                                   */

/* --define and --config, the same for every command that reads profiles:
 * add PH_CLI_DERIVED_OPTIONS to the longopts, pass each getopt result to
 * ph_cli_derived_option (1 when it took it), then ph_cli_derive each
 * loaded profile: the built-ins, the config file, the definitions.  On a
 * bad file or formula it prints the error and returns -1 (exit 2). */
enum { PH_OPT_DEFINE = 0x1000, PH_OPT_CONFIG };
#define PH_CLI_DERIVED_OPTIONS                                          \
    { "define", required_argument, NULL, PH_OPT_DEFINE },              \
    { "config", required_argument, NULL, PH_OPT_CONFIG }
#define PH_CLI_DERIVED_HELP                                             \
    "      --define 'N = F'   define derived event N by formula F (repeatable)\n" \
    "      --config FILE      read derived events from FILE (YAML; default\n" \
    "                         $XDG_CONFIG_HOME/profhub/config.yaml)\n"
typedef struct ph_cli_derived {
    const char *config;      /* NULL: the default file, if it exists */
    const char **defines;    /* "NAME = FORMULA" */
    size_t ndefines;
} ph_cli_derived;
int ph_cli_derived_option(ph_cli_derived *d, int c, const char *arg);
int ph_cli_derive(ph_profile *p, const ph_cli_derived *d);
void ph_cli_derived_free(ph_cli_derived *d);

/* ------------------------------------------------------------------ */
/* Printing                                                            */

/* v with thousands separators ("12,345,678") into buf (>= 32 bytes). */
const char *ph_cli_commas(char *buf, int64_t v);
/* A double as an integer when it is one or is 1000 or more (rounded),
 * else with 4 significant digits
 * ("12.35"); buf >= 40 bytes. */
const char *ph_cli_number(char *buf, double v, int commas);
/* s as a JSON string literal, with quotes. */
void ph_cli_json_string(FILE *f, const char *s);
/* s as a CSV field (quoted when needed). */
void ph_cli_csv_field(FILE *f, const char *s);
/* "thread", "process", ... for a part kind. */
const char *ph_cli_part_kind(ph_part_kind k);

#endif /* PH_CLI_H */
