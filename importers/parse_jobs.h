/* parse_jobs.h -- how many threads a reader may use to parse one input
 * (the callgrind reader's look-ahead threads, callgrind_par.c).  Set once
 * by the front end from --jobs or PROFHUB_JOBS; the profile read is the
 * same whatever the number. */
#ifndef PH_PARSE_JOBS_H
#define PH_PARSE_JOBS_H

/* n threads; 0 (the default) means every online processor. */
void ph_set_parse_jobs(int n);
int ph_parse_jobs(void);

#endif /* PH_PARSE_JOBS_H */
