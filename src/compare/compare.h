/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_COMPARE_COMPARE_H
#define IOLITE_COMPARE_COMPARE_H

/*
 * `iolite compare`: is B really faster than A? Reads fio's and iolite's
 * JSON reports (or runs job files itself, sides taking turns), matches
 * jobs by name, and prints per job, direction and metric both sides'
 * figures, the relative change, its confidence interval and a verdict,
 * after the job options that differ. argv[0] is "compare". Returns the
 * exit status: 0 done, 1 a regression beyond --fail-if-slower, 2 a
 * usage or input error (said on stderr).
 */
int compare_main(int argc, char **argv);

#endif
