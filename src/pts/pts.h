/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PTS_PTS_H
#define IOLITE_PTS_PTS_H

/*
 * `iolite pts TEST TARGET`: SNIA's Solid State Storage Performance Test
 * Specification (PTS) as one command (doc/pts.md).
 *
 * Contract. The tool sits above main: it never sees the runner's or the
 * results' internals beyond the results model. It runs each phase
 * (preconditioning, each round of the test loop) as an ordinary iolite
 * run of command-line jobs through the run function main hands it
 * (iolite_main), with main_hooks that keep that run quiet and hand its
 * results model back (main.h); every check a job gets (device safety,
 * option checks) holds for pts's jobs too. What pts does on its own:
 *
 *  - its command line, checked whole before anything is written;
 *  - the target's safety (target/safety.h's checks, before the purge,
 *    which comes before any run) and the explicit --destroy-data a
 *    block device needs;
 *  - the purge (device.c): BLKDISCARD over the whole device, else a
 *    plain "not purged" in the report;
 *  - the loop and its steady-state rule (steady.h, pure);
 *  - the report (report.c: text and JSON; html.c: the page).
 *
 * A scaled run (--round-time, --capacity-limit, --max-rounds, a subset
 * of the matrix, a file, an unpurged device) is marked as no PTS result
 * in every report, with the reasons.
 */

struct main_hooks;

typedef int (*pts_run_fn)(int argc, char **argv, const struct main_hooks *h);

#endif
