/* SPDX-License-Identifier: MIT */
/*
 * The mmap engines' parts: copy routines (every size and alignment,
 * nothing written outside the destination), flush modes, the choices
 * auto makes, device DAX sizing from a fake sysfs tree, and the mmap
 * engine driven directly on a scratch file and on /dev/zero standing in
 * for a DAX device.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/pmem.h"
#include "opt/opt.h"
#include "util/cpu.h"
#include "tap.h"

#define FSIZE (1u << 20)
#define BS 4096u

static char scratch[4096];
static char path[4200];

static const enum mmap_copy all_copies[] = {
	MMAP_COPY_LIBC, MMAP_COPY_MOVSB, MMAP_COPY_AVX2, MMAP_COPY_AVX2_NT,
	MMAP_COPY_AVX512, MMAP_COPY_AVX512_NT, MMAP_COPY_SSE2_NT,
};

static const enum pmem_flush all_flushes[] = {
	PMEM_FLUSH_NONE, PMEM_FLUSH_CLWB, PMEM_FLUSH_CLFLUSHOPT,
	PMEM_FLUSH_CLFLUSH, PMEM_FLUSH_NT,
};

static bool cpuinfo_has(const char *flag)
{
	char line[8192];
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p;

		if (strncmp(line, "flags", 5))
			continue;
		for (p = strtok(strchr(line, ':') + 1, " \n"); p;
		     p = strtok(NULL, " \n"))
			if (!strcmp(p, flag))
				found = true;
		break;
	}
	fclose(f);
	return found;
}

static void test_cpu(void)
{
	static const struct { unsigned int bit; const char *flag; } map[] = {
		{ CPU_SSE2, "sse2" }, { CPU_CLFLUSH, "clflush" },
		{ CPU_CLFLUSHOPT, "clflushopt" }, { CPU_CLWB, "clwb" },
		{ CPU_ERMS, "erms" }, { CPU_FSRM, "fsrm" },
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		ok(cpu_has(map[i].bit) == cpuinfo_has(map[i].flag),
		   "cpu: %s as /proc/cpuinfo says (%d)", map[i].flag,
		   cpu_has(map[i].bit));
	/* the kernel may not save the vector state: present implies listed */
	ok(!cpu_has(CPU_AVX2) || cpuinfo_has("avx2"), "cpu: avx2 only if listed");
	ok(!cpu_has(CPU_AVX512F) || cpuinfo_has("avx512f"),
	   "cpu: avx512f only if listed");
	ok(cpu_require(0, "x", &sb) == 0 && !sb.len, "cpu: nothing needed");
	cpu_describe(&sb);
	diag("cpu: %s", strbuf_str(&sb));
	strbuf_release(&sb);
}

/* Every length 0..300 and some large ones, every alignment mod 64. */
static void test_copy(enum mmap_copy c)
{
	static const size_t big[] = { 4096, 4096 + 13, 65536, 65536 + 63,
				      1000003 };
	pmem_copy_fn fn = pmem_copy_routine(c);
	size_t cap = 1000003 + 256;
	unsigned char *src = aligned_alloc(4096, (cap + 8191) / 4096 * 4096);
	unsigned char *dst = aligned_alloc(4096, (cap + 8191) / 4096 * 4096);
	size_t n, i, k, bad = 0, cases = 0;
	unsigned int sa, da;

	for (i = 0; i < cap; i++)
		src[i] = (unsigned char)(i * 131 + 7);
	for (n = 0; n <= 300 + sizeof(big) / sizeof(big[0]); n++) {
		size_t len = n <= 300 ? n : big[n - 301];

		for (sa = 0; sa < 64; sa += (len > 4096 ? 21 : 1))
			for (da = 0; da < 64; da += (len > 300 ? 13 : 3)) {
				memset(dst, 0xee, len + da + 128);
				fn(dst + da + 64, src + sa, len);
				cases++;
				for (k = 0; k < 64 + da; k++)
					bad += dst[k] != 0xee;
				for (k = 0; k < 64; k++)
					bad += dst[da + 64 + len + k] != 0xee;
				if (memcmp(dst + da + 64, src + sa, len))
					bad++;
			}
	}
	ok(!bad, "copy %s: %zu cases exact, nothing outside touched (%zu bad)",
	   pmem_copy_name(c), cases, bad);
	free(src);
	free(dst);
}

static void test_copies(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(all_copies) / sizeof(all_copies[0]); i++) {
		enum mmap_copy c = all_copies[i];

		strbuf_reset(&sb);
		if (pmem_copy_check(c, &sb)) {
			ok(strstr(sb.buf, "which this CPU does not have") != NULL,
			   "copy %s: refused: %s", pmem_copy_name(c), sb.buf);
			continue;
		}
		test_copy(c);
	}
	ok(pmem_copy_resolve(MMAP_COPY_AUTO) ==
	   (cpu_has(CPU_ERMS) ? MMAP_COPY_MOVSB : MMAP_COPY_LIBC),
	   "copy auto: %s",
	   pmem_copy_name(pmem_copy_resolve(MMAP_COPY_AUTO)));
	ok(pmem_copy_resolve(MMAP_COPY_LIBC) == MMAP_COPY_LIBC,
	   "copy: explicit modes are kept");
	ok(pmem_copy_nt(MMAP_COPY_AVX2) == MMAP_COPY_AVX2_NT &&
	   pmem_copy_nt(MMAP_COPY_AVX512) == MMAP_COPY_AVX512_NT &&
	   pmem_copy_nt(MMAP_COPY_AVX2_NT) == MMAP_COPY_AVX2_NT,
	   "copy: nt siblings of the vector copies");
	ok(pmem_copy_nt(MMAP_COPY_LIBC) ==
	   (cpu_has(CPU_AVX512F) ? MMAP_COPY_AVX512_NT : cpu_has(CPU_AVX2) ?
	    MMAP_COPY_AVX2_NT : MMAP_COPY_SSE2_NT),
	   "copy: nt for libc is the best streaming copy (%s)",
	   pmem_copy_name(pmem_copy_nt(MMAP_COPY_LIBC)));
	strbuf_release(&sb);
}

static void test_flushes(void)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char *buf = aligned_alloc(64, 8192);
	size_t i;

	memset(buf, 0x11, 8192);
	for (i = 0; i < sizeof(all_flushes) / sizeof(all_flushes[0]); i++) {
		enum pmem_flush f = all_flushes[i];
		pmem_persist_fn fn = pmem_persist_routine(f);

		strbuf_reset(&sb);
		if (pmem_flush_check(f, &sb)) {
			ok(strstr(sb.buf, "which this CPU does not have") != NULL,
			   "flush %s: refused: %s", pmem_flush_name(f), sb.buf);
			continue;
		}
		if (fn) {
			fn(buf + 3, 5000);
			fn(buf, 4096);
			fn(buf + 100, 1);
		}
		ok((f == PMEM_FLUSH_NONE) == !fn && buf[3] == 0x11 &&
		   buf[5002] == 0x11, "flush %s: runs, data intact",
		   pmem_flush_name(f));
	}
	pmem_flush_range(buf, 8192);
	pmem_fence();
	ok(pmem_flush_resolve(PMEM_FLUSH_AUTO) ==
	   (cpu_has(CPU_CLWB) ? PMEM_FLUSH_CLWB :
	    cpu_has(CPU_CLFLUSHOPT) ? PMEM_FLUSH_CLFLUSHOPT :
	    cpu_has(CPU_CLFLUSH) ? PMEM_FLUSH_CLFLUSH : PMEM_FLUSH_NONE),
	   "flush auto: %s", pmem_flush_name(pmem_flush_resolve(PMEM_FLUSH_AUTO)));
	ok(pmem_flush_resolve(PMEM_FLUSH_NT) == PMEM_FLUSH_NT,
	   "flush: explicit modes are kept");
	free(buf);
	strbuf_release(&sb);
}

/* The option table refuses exactly what pmem_*_check() refuses. */
static void test_options_agree(void)
{
	static const char *const copies[] = { "auto", "libc", "movsb", "avx2",
		"avx2-nt", "avx512", "avx512-nt" };
	static const char *const flushes[] = { "default", "auto", "none",
		"clwb", "clflushopt", "clflush", "nt" };
	struct job_options o;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t i, bad = 0;

	opt_defaults(&o);
	ok(o.mmap_copy == MMAP_COPY_AUTO && o.pmem_flush == PMEM_FLUSH_DEFAULT &&
	   o.mmap_advise == MMAP_ADVISE_AUTO && !o.mmap_populate,
	   "options: defaults auto, default, auto, no populate");
	for (i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		int r1 = opt_set(&o, "mmap_copy", copies[i], 1024, &a);
		int r2 = r1 ? -1 : pmem_copy_check(o.mmap_copy, &b);

		if (!r1 && strcmp(pmem_copy_name(o.mmap_copy), copies[i]))
			bad++;
		if (r1 && pmem_copy_check((enum mmap_copy)i, &b) == 0)
			bad++;
		if (!r1 && r2)
			bad++;
	}
	for (i = 0; i < sizeof(flushes) / sizeof(flushes[0]); i++) {
		int r1 = opt_set(&o, "pmem_flush", flushes[i], 1024, &a);

		if (!r1 && (strcmp(pmem_flush_name(o.pmem_flush), flushes[i]) ||
			    pmem_flush_check(o.pmem_flush, &b)))
			bad++;
		if (r1 && pmem_flush_check((enum pmem_flush)i, &b) == 0)
			bad++;
	}
	ok(!bad, "options: the table and pmem.c agree on names and needs");
	strbuf_reset(&a);
	ok(opt_set(&o, "mmap_copy", "avx3", 1024, &a) == -1 &&
	   strstr(a.buf, "invalid value 'avx3'") && strstr(a.buf, "avx512-nt"),
	   "options: unknown copy lists the valid ones: %s", a.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	job_options_release(&o);
}

/* ---- device DAX from a fake sysfs ---- */

static void put(const char *dir, const char *name, const char *val)
{
	char p[8192];
	FILE *f;

	snprintf(p, sizeof(p), "mkdir -p '%s'", dir);
	if (system(p))
		return;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(val, f);
		fclose(f);
	}
}

static char sysroot[4200];

static void test_dax_probe(void)
{
	struct pmem_dax_info d;
	struct strbuf err = STRBUF_INIT;
	char dir[8192];
	int r;

	snprintf(sysroot, sizeof(sysroot), "%s/sys", scratch);
	setenv("IOLITE_SYSFS_ROOT", sysroot, 1);
	ok(!strcmp(pmem_sysfs_root(), sysroot), "dax: sysfs root from env");

	snprintf(dir, sizeof(dir), "%s/dev/char/240:1", sysroot);
	put(dir, "size", "33554432\n");
	put(dir, "align", "1073741824\n");
	r = pmem_dax_probe("/nonexistent/dax0.0", makedev(240, 1), &d, &err);
	ok(r == 1 && d.size == 32u << 20 && d.align == 1u << 30,
	   "dax: dev/char layout, size and align (%d %llu %llu)", r,
	   (unsigned long long)d.size, (unsigned long long)d.align);

	snprintf(dir, sizeof(dir), "%s/class/dax/dax1.0", sysroot);
	put(dir, "size", "0x800000\n");
	r = pmem_dax_probe("/nonexistent/dax1.0", makedev(240, 2), &d, &err);
	ok(r == 1 && d.size == 8u << 20 && d.align == 2u << 20,
	   "dax: class/dax layout, default 2MiB align");

	snprintf(dir, sizeof(dir), "%s/bus/dax/devices/dax2.0", sysroot);
	put(dir, "size", "4194304");
	snprintf(dir, sizeof(dir), "%s/bus/dax/devices/dax2.0/dax_region",
		 sysroot);
	put(dir, "align", "4096");
	r = pmem_dax_probe("/nonexistent/dax2.0", makedev(240, 3), &d, &err);
	ok(r == 1 && d.size == 4u << 20 && d.align == 4096,
	   "dax: bus/dax layout, region align");

	snprintf(dir, sizeof(dir), "%s/dev/char/1:3", sysroot);
	put(dir, "size", "4096");
	r = pmem_dax_probe("/dev/null", makedev(1, 3), &d, &err);
	ok(r == 0, "dax: a size alone does not make /dev/null a DAX device");

	strbuf_reset(&err);
	r = pmem_dax_probe("/nonexistent/dax9.9", makedev(240, 9), &d, &err);
	ok(r == -1 && strstr(err.buf, "cannot size DAX device "
			     "'/nonexistent/dax9.9'"),
	   "dax: a dax node without a size: %s", err.buf);

	snprintf(dir, sizeof(dir), "%s/class/dax/dax3.0", sysroot);
	put(dir, "size", "4194304");
	put(dir, "align", "3000");
	strbuf_reset(&err);
	r = pmem_dax_probe("/nonexistent/dax3.0", makedev(240, 4), &d, &err);
	ok(r == -1 && strstr(err.buf, "invalid align 3000"),
	   "dax: invalid align refused: %s", err.buf);
	strbuf_release(&err);
}

/* ---- the engine ---- */

struct rig {
	const struct engine_ops *ops;
	struct engine *e;
	struct job_plan plan;
	struct engine_file f;
	struct strbuf err;
};

static int rig_open(struct rig *r, const char *engine, const char *file,
		    unsigned int flags, uint64_t off, uint64_t len,
		    const char *opts)
{
	memset(r, 0, sizeof(*r));
	opt_defaults(&r->plan.o);
	if (opts) {
		char *copy = strdup(opts), *save = NULL, *tok;

		for (tok = strtok_r(copy, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(tok, '=');

			*eq = '\0';
			if (opt_set(&r->plan.o, tok, eq + 1, 1024, &r->err)) {
				free(copy);
				return -1;
			}
		}
		free(copy);
	}
	r->plan.o.name = strdup("unit");
	free(r->plan.o.ioengine);
	r->plan.o.ioengine = strdup(engine);
	r->plan.ddir_mask = 1u << DDIR_READ | 1u << DDIR_WRITE;
	r->plan.writes = true;
	r->plan.random = true;
	r->plan.min_bs = r->plan.max_bs = BS;
	r->ops = engine_find(engine);
	r->f.path = (char *)file;
	r->f.fd = -1;
	r->f.flags = flags;
	r->f.io_offset = off;
	r->f.io_size = len;
	r->f.real_size = off + len;
	if (!r->ops || r->ops->init(&r->plan, 1, &r->e, &r->err))
		return -1;
	r->e->files = &r->f;
	r->e->nr_files = 1;
	return r->ops->open_file(r->e, &r->f, &r->err);
}

static void rig_close(struct rig *r)
{
	if (r->e) {
		if (r->f.engine_data)
			r->ops->close_file(r->e, &r->f);
		r->ops->cleanup(r->e);
	}
	job_options_release(&r->plan.o);
	strbuf_release(&r->err);
}

static int io(struct rig *r, enum ddir d, void *buf, uint64_t off,
	      uint32_t len)
{
	struct io_u u;

	memset(&u, 0, sizeof(u));
	u.buf = buf;
	u.ddir = (uint8_t)d;
	u.offset = off;
	u.len = len;
	u.error = -1;
	if (r->ops->queue(r->e, &u) != ENGINE_Q_DONE)
		return -1000;
	return u.error ? -u.error : (int)(u.len - u.resid);
}

static void make_file(void)
{
	unsigned char *buf = malloc(FSIZE);
	size_t i;
	int fd;

	for (i = 0; i < FSIZE; i++)
		buf[i] = (unsigned char)(i ^ 0x5a);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0 || write(fd, buf, FSIZE) != FSIZE)
		perror(path);
	close(fd);
	free(buf);
}

static void pread_file(void *buf, size_t len, off_t off)
{
	int fd = open(path, O_RDONLY);

	memset(buf, 0, len);
	if (fd < 0 || pread(fd, buf, len, off) != (ssize_t)len)
		perror(path);
	close(fd);
}

static void test_engine_file(const char *engine, const char *opts)
{
	struct rig r;
	unsigned char w[BS], rd[BS], disk[BS];
	uint64_t off = 64 * 1024, len = 256 * 1024;
	int i, ret;

	make_file();
	/* opened first: the message reads what the open left in r.err */
	ret = rig_open(&r, engine, path, EF_REGULAR, off, len, opts);
	if (!ok(ret == 0, "%s %s: open (%s)", engine, opts ? opts : "",
		strbuf_str(&r.err))) {
		rig_close(&r);
		return;
	}
	for (i = 0; i < (int)BS; i++)
		w[i] = (unsigned char)(i * 7 + 1);
	ret = io(&r, DDIR_WRITE, w, off + 3 * BS, BS);
	pread_file(disk, BS, (off_t)(off + 3 * BS));
	ok(ret == BS && !memcmp(disk, w, BS),
	   "%s %s: a write through the mapping reads back through pread",
	   engine, opts ? opts : "");
	ret = io(&r, DDIR_READ, rd, off + 3 * BS, BS);
	ok(ret == BS && !memcmp(rd, w, BS), "%s: and through the mapping",
	   engine);
	ret = io(&r, DDIR_READ, rd, off, BS);
	ok(ret == BS && rd[0] == (unsigned char)(off ^ 0x5a) &&
	   rd[1] == (unsigned char)((off + 1) ^ 0x5a),
	   "%s: a read at offset= gets the file's bytes there", engine);
	ret = io(&r, DDIR_WRITE, w, off + 5 * BS + 100, 1000);
	pread_file(disk, 1000, (off_t)(off + 5 * BS + 100));
	ok(ret == 1000 && !memcmp(disk, w, 1000),
	   "%s: an unaligned write of 1000 bytes", engine);
	ok(io(&r, DDIR_READ, rd, off - BS, BS) == -EINVAL,
	   "%s: before the region: EINVAL", engine);
	ok(io(&r, DDIR_READ, rd, off + len - 100, BS) == -EINVAL,
	   "%s: across the region's end: EINVAL", engine);
	ok(io(&r, DDIR_SYNC, NULL, 0, 0) == 0 &&
	   io(&r, DDIR_DATASYNC, NULL, 0, 0) == 0, "%s: fsync, fdatasync",
	   engine);
	if (r.ops->describe) {
		struct strbuf d = STRBUF_INIT;

		r.ops->describe(r.e, &d);
		ok(!strncmp(d.buf, engine, strlen(engine)) &&
		   strstr(d.buf, ": 256KiB mapped in 1 file, ") &&
		   strstr(d.buf, "KiB pages") && strstr(d.buf, ", copy=") &&
		   strstr(d.buf, ", flush="), "%s: describe: %s", engine,
		   d.buf);
		strbuf_release(&d);
	}
	rig_close(&r);
}

static void test_describe_modes(void)
{
	struct rig r;
	struct strbuf d = STRBUF_INIT;

	make_file();
	if (rig_open(&r, "libpmem", path, EF_REGULAR, 0, FSIZE,
		     "direct=1 mmap_copy=libc") == 0) {
		r.ops->describe(r.e, &d);
		ok(strstr(d.buf, "copy=libc (writes ") && strstr(d.buf,
		   "-nt), flush=nt"), "libpmem direct=1: nt stores: %s", d.buf);
	} else {
		ok(0, "libpmem direct=1: open: %s", strbuf_str(&r.err));
	}
	rig_close(&r);
	strbuf_reset(&d);
	if (rig_open(&r, "dev-dax", path, EF_REGULAR, 0, FSIZE,
		     "mmap_populate=1 mmap_advise=sequential") == 0) {
		r.ops->describe(r.e, &d);
		ok(strstr(d.buf, "dev-dax: 1MiB mapped") &&
		   strstr(d.buf, "flush=") && !strstr(d.buf, "flush=none") &&
		   strstr(d.buf, ", populated, advice=sequential"),
		   "dev-dax: persistence on, options shown: %s", d.buf);
	} else {
		ok(0, "dev-dax: open: %s", strbuf_str(&r.err));
	}
	rig_close(&r);
	strbuf_reset(&d);
	if (rig_open(&r, "mmap", path, EF_REGULAR, 0, FSIZE, NULL) == 0) {
		r.ops->describe(r.e, &d);
		ok(strstr(d.buf, "flush=none") && strstr(d.buf,
		   "advice=random"), "mmap: no flush, random advice: %s",
		   d.buf);
	} else {
		ok(0, "mmap: open: %s", strbuf_str(&r.err));
	}
	rig_close(&r);
	strbuf_release(&d);
}

/* Where is the mapping of path? 0 when not found. */
static unsigned long long mapping_of(const char *file)
{
	char line[1024];
	unsigned long long a = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	/* a shared mapping of /dev/zero shows as "/dev/zero (deleted)" */
	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, file) && strstr(line, " rw-s ")) {
			sscanf(line, "%llx", &a);
			break;
		}
	}
	if (f)
		fclose(f);
	return a;
}

/*
 * /dev/zero as a DAX device: the fake sysfs says it is one, with an
 * alignment; a shared mapping of it is memory, so I/O works.
 */
static void test_dax_zero(void)
{
	struct rig r;
	struct pmem_dax_info d;
	struct strbuf err = STRBUF_INIT, desc = STRBUF_INIT;
	unsigned char w[BS], rd[BS];
	unsigned long long a;
	char dir[8192];
	int i, ret;

	snprintf(dir, sizeof(dir), "%s/class/dax/zero", sysroot);
	put(dir, "size", "16777216");
	put(dir, "align", "1073741824");
	ok(pmem_dax_probe("/dev/zero", makedev(1, 5), &d, &err) == 1 &&
	   d.align == 1u << 30, "dax zero: the fake tree makes it a DAX device");
	ret = rig_open(&r, "dev-dax", "/dev/zero", EF_CHARDEV, 3 * BS, 8u << 20,
		       NULL);
	if (!ok(ret == 0, "dax zero: open (%s)", strbuf_str(&r.err))) {
		rig_close(&r);
		return;
	}
	a = mapping_of("/dev/zero");
	ok(a && a % (1ull << 30) == 0,
	   "dax zero: mapped at a 1GiB-aligned address (%#llx)", a);
	for (i = 0; i < (int)BS; i++)
		w[i] = (unsigned char)(i * 3 + 5);
	ok(io(&r, DDIR_WRITE, w, 5 * BS, BS) == BS &&
	   io(&r, DDIR_READ, rd, 5 * BS, BS) == BS && !memcmp(rd, w, BS),
	   "dax zero: write and read back");
	ok(io(&r, DDIR_TRIM, NULL, 5 * BS, BS) == -EOPNOTSUPP,
	   "dax zero: no trim on a character device");
	ok(io(&r, DDIR_SYNC, NULL, 0, 0) == 0, "dax zero: sync fences");
	r.ops->describe(r.e, &desc);
	/* the region [12k, 8M+12k) in 1GiB units, capped at the 16MiB */
	ok(strstr(desc.buf, "dev-dax: 16MiB mapped in 1 file at 1GiB "
		  "alignment, device DAX, ") != NULL, "dax zero: describe: %s",
	   desc.buf);
	rig_close(&r);
	strbuf_release(&err);
	strbuf_release(&desc);
}

/*
 * Where the target allows huge pages (tmpfs mounted huge=always), the
 * 2 MiB-aligned mapping gets them and describe() says so. Needs root to
 * mount; skipped otherwise.
 */
static void test_huge_tmpfs(void)
{
	char mnt[4200], file[4300];
	unsigned char *buf = malloc(FSIZE);
	struct strbuf d = STRBUF_INIT;
	struct rig r;
	unsigned int i;
	int fd, ret;

	snprintf(mnt, sizeof(mnt), "%s/huge", scratch);
	snprintf(file, sizeof(file), "%s/f", mnt);
	if (mkdir(mnt, 0755) ||
	    mount("none", mnt, "tmpfs", 0, "huge=always,size=32m")) {
		skip(geteuid() ? "missing ROOT: not running as root" :
		     "cannot mount a tmpfs with huge=always",
		     "huge pages: a tmpfs huge=always target (%s)",
		     strerror(errno));
		free(buf);
		return;
	}
	memset(buf, 0x33, FSIZE);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	for (i = 0; fd >= 0 && i < 8; i++)
		if (write(fd, buf, FSIZE) != FSIZE)
			break;
	if (fd >= 0)
		close(fd);
	ret = rig_open(&r, "mmap", file, EF_REGULAR, 0, 8 * FSIZE,
		       "mmap_populate=1");
	if (ok(ret == 0, "huge: open (%s)", strbuf_str(&r.err))) {
		for (i = 0; i < 8 * FSIZE / BS; i++)
			io(&r, DDIR_READ, buf, (uint64_t)i * BS, BS);
		r.ops->describe(r.e, &d);
		ok(strstr(d.buf, "8MiB mapped in 1 file at 2MiB alignment, "
			  "2MiB pages") != NULL, "huge: %s", d.buf);
	}
	rig_close(&r);
	umount2(mnt, MNT_DETACH);
	strbuf_release(&d);
	free(buf);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[8300];
	size_t i;

	unsetenv("IOLITE_CPU_DISABLE");
	snprintf(scratch, sizeof(scratch), "%s/iolite-pmem.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/data", scratch);

	test_cpu();
	test_copies();
	test_flushes();
	test_options_agree();
	test_dax_probe();
	test_engine_file("mmap", NULL);
	test_engine_file("mmap", "sync=1 mmap_populate=1");
	test_engine_file("dev-dax", NULL);
	test_engine_file("libpmem", "direct=1");
	for (i = 0; i < sizeof(all_flushes) / sizeof(all_flushes[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		char opt[64];

		if (pmem_flush_check(all_flushes[i], &sb) == 0) {
			snprintf(opt, sizeof(opt), "pmem_flush=%s",
				 pmem_flush_name(all_flushes[i]));
			test_engine_file("mmap", opt);
		}
		strbuf_release(&sb);
	}
	for (i = 0; i + 1 < sizeof(all_copies) / sizeof(all_copies[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		char opt[64];

		if (pmem_copy_check(all_copies[i], &sb) == 0) {
			snprintf(opt, sizeof(opt), "mmap_copy=%s",
				 pmem_copy_name(all_copies[i]));
			test_engine_file("mmap", opt);
		}
		strbuf_release(&sb);
	}
	test_describe_modes();
	test_dax_zero();
	test_huge_tmpfs();

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd))
		diag("cannot remove %s", scratch);
	return done_testing();
}
