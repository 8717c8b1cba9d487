/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_FUZZ_FUZZ_H
#define IOLITE_FUZZ_FUZZ_H

/*
 * libFuzzer harnesses for what iolite reads from its user: job files, the
 * command line, the number grammar and I/O logs. Each harness drives the
 * same code as the binary, up to (not including) files and I/O but for
 * the log's replay on the null engine, and releases everything, so that
 * LeakSanitizer checks the modules too. Built with
 * clang by `make fuzz`, run by fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * Builds every job of jl as main does (job_build, then plan_build per
 * numjobs clone, capped), and the --parse-only dump into dump when not
 * NULL. Errors are expected; only crashes, leaks and undefined behaviour
 * are findings. Returns 0 when every job built.
 */
int fuzz_build_jobs(const struct job_list *jl, struct strbuf *dump);

/*
 * With FUZZ_WRITE_DICT=path in the environment, writes a libFuzzer
 * dictionary of option names (as "name=" with prefix and suffix) and
 * the value words of enum options to path. fuzz/run.sh calls it once.
 */
void fuzz_write_dict(const char *prefix, const char *suffix);

/* The same for a harness whose input is no job file: n words. */
void fuzz_write_words(const char *const *words, size_t n);

/*
 * A finding on demand: with IOLITE_FUZZ_SELFTEST set in the environment,
 * an input starting "iolite-fuzz-selftest" aborts, so that t0910 can
 * check that a finding stops the run and is saved. Every harness calls
 * it first.
 */
void fuzz_selftest(const uint8_t *data, size_t size);

#endif
