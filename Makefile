# iolite - see README.md. `make`, `make test`, `make run`, `make install`,
# `make fuzz` (clang's libFuzzer).
# Variables: V=1 (echo commands), DEVELOPER=1 (-Werror and a strict set),
# SANITIZE=address,undefined, BUILD=dir (objects and binary elsewhere),
# FUZZ_TIME=60 (make fuzz: seconds in all, shared by the harnesses),
# NO_OPTIONAL=1 (build as if no optional library were installed: liburing,
# libaio, libblkid, libcrypto, libxxhash, ISA-L, zlib, libdw, libfuse3,
# libnbd, libiscsi; use with BUILD=dir, CI runs the suite so to exercise
# the skips), PREFIX, DESTDIR.

CC ?= cc
BUILD ?= build
PREFIX ?= /usr/local
PROVE ?= prove
# Test scripts run side by side, two per CPU: much of their time is spent
# waiting on timed jobs, fio's start (a 0.1 s sleep each), sockets and
# child processes (on 2 CPUs: 351 s with 2 at a time, 310 s with 3, 266 s
# with 4 for 478 CPU-s), and each has its own scratch directory.
PROVE_OPTS ?= -j$(shell echo $$(( $$(nproc 2>/dev/null || echo 2) * 2 )))
VERSION := 0.1

CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -pthread \
	  -D_GNU_SOURCE -Isrc -DIOLITE_VERSION='"$(VERSION)"'
LDLIBS += -pthread -lm
# Frame pointers in iolite's own code: profile=cpu walks the call chains
# through them (the kernel's unwinder for perf events), so the flame
# graph has depth (a leaf function that has not set its frame up yet is
# unwound by its CFI: src/profile/unwind.c). Their cost on the null engine is in
# doc/performance.md ("The CPU profile's own cost").
CFLAGS += -fno-omit-frame-pointer $(shell $(CC) -mno-omit-leaf-frame-pointer \
	    -E -x c /dev/null >/dev/null 2>&1 && echo -mno-omit-leaf-frame-pointer)

ifeq ($(DEVELOPER),1)
CFLAGS += -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
	  -Wmissing-prototypes -Wpointer-arith -Wcast-align -Wvla \
	  -Wundef -Wwrite-strings -Wimplicit-fallthrough
endif
ifneq ($(SANITIZE),)
# A finding stops the program (and fails its test) instead of scrolling by.
CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all \
	  -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
# LD_PRELOAD shims in the tests load before the ASan runtime; see
# t/lsan.supp for the leaks suppressed and t/sanitize/ for strace. Tests
# that count page faults or time the binary skip when IOLITE_SANITIZE is
# set: the sanitizers' shadow memory and checks change both.
SANITIZE_ENV := IOLITE_SANITIZE=$(SANITIZE) \
	ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1 \
	LSAN_OPTIONS=suppressions=$(abspath t/lsan.supp):print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1 PATH=$(abspath t/sanitize):$$PATH
endif

# Optional libraries: detected, never required; NO_OPTIONAL=1 finds none.
ifeq ($(NO_OPTIONAL),1)
have =
else
have = $(shell echo 'int main(void){return 0;}' | \
	$(CC) -x c -include $(1) - -o /dev/null $(2) >/dev/null 2>&1 && echo 1)
endif
HAVE_LIBURING := $(call have,liburing.h,-luring)
HAVE_LIBAIO := $(call have,libaio.h,-laio)
ifeq ($(HAVE_LIBURING),1)
CFLAGS += -DHAVE_LIBURING=1
LDLIBS += -luring
endif
ifeq ($(HAVE_LIBAIO),1)
CFLAGS += -DHAVE_LIBAIO=1
LDLIBS += -laio
endif
# libblkid recognises every filesystem, partition table and RAID signature
# before a job overwrites a device; without it a built-in probe knows the
# common ones (ext2/3/4, xfs, btrfs, swap, md, LVM, LUKS, gpt, dos).
HAVE_LIBBLKID := $(call have,blkid/blkid.h,-lblkid)
ifeq ($(HAVE_LIBBLKID),1)
CFLAGS += -DHAVE_LIBBLKID=1
LDLIBS += -lblkid
else ifeq ($(filter clean,$(MAKECMDGOALS))$(NO_OPTIONAL),)
$(info note: libblkid not found (apt-get install libblkid-dev): device signature checks use a built-in probe of common signatures only)
endif
# Checksums for verify=: OpenSSL's libcrypto (md5, sha1, sha256, sha512),
# libxxhash (xxhash), ISA-L (crc32c; without it the CPU's crc32
# instruction or a table). A verify= mode whose library is missing is
# refused with the package to install.
HAVE_LIBCRYPTO := $(call have,openssl/evp.h,-lcrypto)
ifeq ($(HAVE_LIBCRYPTO),1)
CFLAGS += -DHAVE_LIBCRYPTO=1
LDLIBS += -lcrypto
endif
HAVE_LIBXXHASH := $(call have,xxhash.h,-lxxhash)
ifeq ($(HAVE_LIBXXHASH),1)
CFLAGS += -DHAVE_LIBXXHASH=1
LDLIBS += -lxxhash
endif
# zlib: log_compression and log_store_compressed (fio's .fz logs) and
# --inflate-log; without it those options are refused.
HAVE_ZLIB := $(call have,zlib.h,-lz)
ifeq ($(HAVE_ZLIB),1)
CFLAGS += -DHAVE_ZLIB=1
LDLIBS += -lz
endif
# jansson reads fio's and iolite's JSON back for `iolite compare`; without
# it that command says it needs libjansson-dev (exit 2).
HAVE_LIBJANSSON := $(call have,jansson.h,-ljansson)
ifeq ($(HAVE_LIBJANSSON),1)
CFLAGS += -DHAVE_LIBJANSSON=1
LDLIBS += -ljansson
endif
# elfutils' libdw names user-space functions in --profile (libdwfl);
# without it they show as module+offset.
HAVE_LIBDW := $(call have,elfutils/libdwfl.h,-ldw -lelf)
ifeq ($(HAVE_LIBDW),1)
CFLAGS += -DHAVE_LIBDW=1
LDLIBS += -ldw -lelf
endif
HAVE_LIBISAL := $(call have,isa-l/crc.h,-lisal)
ifeq ($(HAVE_LIBISAL),1)
CFLAGS += -DHAVE_LIBISAL=1
LDLIBS += -lisal
endif
# The network engines' client libraries: libnbd (ioengine=nbd), libiscsi
# (libiscsi), libnfs (nfs: NFS in user space; its header needs struct
# timeval first), libcurl (http), librados and librbd (rados, rbd; librbd
# needs librados too). Their headers decide the engines at build time;
# without them the engines are refused naming the -dev package. None is
# linked: engine/dl/ loads each (dlopen) when a job first uses it, so
# that a run without them pays nothing for them (doc/performance.md),
# by the soname of the library built against, read here from the -dev
# package's link: soname_def gives -DLIBX_SONAME='"libx.so.N"' for
# LIBX,libx (once, into the simply expanded DL_CFLAGS).
DL_CFLAGS :=
soname_def = $(foreach so,$(shell objdump -p \
	"$$($(CC) -print-file-name=$(2).so)" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }'),-D$(1)_SONAME='"$(so)"')
HAVE_LIBNBD := $(call have,libnbd.h,-lnbd)
ifeq ($(HAVE_LIBNBD),1)
DL_CFLAGS += -DHAVE_LIBNBD=1 $(call soname_def,LIBNBD,libnbd)
endif
HAVE_LIBISCSI := $(call have,iscsi/iscsi.h,-liscsi)
ifeq ($(HAVE_LIBISCSI),1)
DL_CFLAGS += -DHAVE_LIBISCSI=1 $(call soname_def,LIBISCSI,libiscsi)
endif
HAVE_LIBNFS := $(call have,sys/time.h -include nfsc/libnfs.h,-lnfs)
ifeq ($(HAVE_LIBNFS),1)
DL_CFLAGS += -DHAVE_LIBNFS=1 $(call soname_def,LIBNFS,libnfs)
endif
HAVE_LIBCURL := $(call have,curl/curl.h,-lcurl)
ifeq ($(HAVE_LIBCURL),1)
DL_CFLAGS += -DHAVE_LIBCURL=1 $(call soname_def,LIBCURL,libcurl)
endif
HAVE_LIBRADOS := $(call have,rados/librados.h,-lrados)
HAVE_LIBRBD := $(if $(HAVE_LIBRADOS),$(call have,rbd/librbd.h,-lrbd -lrados))
ifeq ($(HAVE_LIBRADOS),1)
DL_CFLAGS += -DHAVE_LIBRADOS=1 $(call soname_def,LIBRADOS,librados)
endif
ifeq ($(HAVE_LIBRBD),1)
DL_CFLAGS += -DHAVE_LIBRBD=1 $(call soname_def,LIBRBD,librbd)
endif
CFLAGS += $(DL_CFLAGS)
# engine/dl/dl.c's dlopen (in libc itself since glibc 2.34)
LDLIBS += -ldl

ifeq ($(V),1)
Q :=
else
Q := @
endif

ifeq ($(BUILD),build)
PROG := iolite
else
PROG := $(BUILD)/iolite
endif

# src/mpi/ is iolite-mpi's alone (below): the plain iolite never links MPI.
SRCS := $(sort $(filter-out src/mpi/%,$(wildcard src/*.c src/*/*.c src/*/*/*.c)))
OBJS := $(SRCS:%.c=$(BUILD)/%.o)
LIB_OBJS := $(filter-out $(BUILD)/src/main.o,$(OBJS))
UNIT_SRCS := $(sort $(wildcard t/unit/*.c))
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)
DEPS := $(OBJS:.o=.d) $(UNIT_BINS:=.d)

all: $(PROG)

$(PROG): $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# iolite-mpi: the same program run by mpirun or srun (doc/mpi.md), built
# when an MPI implementation is found (pkg-config's ompi-c, else
# `mpicc --showme`); without one (apt-get install libopenmpi-dev) it is
# left out and everything else builds and tests as before. Its main.c is
# src/main.c compiled without main() (IOLITE_NO_MAIN): src/mpi/ wraps it.
ifneq ($(NO_OPTIONAL),1)
MPI_CFLAGS := $(shell pkg-config --cflags ompi-c 2>/dev/null || \
	mpicc --showme:compile 2>/dev/null)
MPI_LIBS := $(shell pkg-config --libs ompi-c 2>/dev/null || \
	mpicc --showme:link 2>/dev/null)
HAVE_MPI := $(if $(MPI_LIBS),$(call have,mpi.h,$(MPI_CFLAGS) $(MPI_LIBS)))
endif
ifeq ($(HAVE_MPI),1)
MPI_PROG := $(if $(filter build,$(BUILD)),iolite-mpi,$(BUILD)/iolite-mpi)
MPI_SRCS := $(sort $(wildcard src/mpi/*.c))
MPI_OBJS := $(MPI_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/src/mpi-main.o
DEPS += $(MPI_OBJS:.o=.d)

all: $(MPI_PROG)

$(MPI_PROG): $(MPI_OBJS) $(LIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(MPI_LIBS) $(LDLIBS)

$(BUILD)/src/mpi/%.o: src/mpi/%.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(MPI_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/src/mpi-main.o: src/main.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (iolite-mpi)"
	$(Q)$(CC) $(CFLAGS) -DIOLITE_NO_MAIN -MMD -MP -c -o $@ $<
endif

# The flags this build was made with, in a file the objects depend on: a
# library installed (or removed) since the last build changes them, and
# everything is compiled again with the engines it brings.
FLAGS_FILE := $(BUILD)/.flags
FLAGS_TEXT := $(CC) $(CFLAGS) $(MPI_CFLAGS) $(LDFLAGS) $(LDLIBS) $(MPI_LIBS)
ifeq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(FLAGS_TEXT),$(file <$(FLAGS_FILE)))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_FILE),$(FLAGS_TEXT))
endif
endif

$(BUILD)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/t/unit/%: t/unit/%.c $(LIB_OBJS) $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -It -MMD -MP -o $@ $< $(LIB_OBJS) $(LDFLAGS) $(LDLIBS)

units: $(UNIT_BINS)

# t/fusefault: a failing FUSE file system for the fault tests, built when
# libfuse3-dev is there (the tests skip without it).
ifneq ($(NO_OPTIONAL),1)
HAVE_FUSE3 := $(shell pkg-config --exists fuse3 2>/dev/null && echo 1)
endif
ifeq ($(HAVE_FUSE3),1)
FUSEFAULT := $(BUILD)/t/fusefault/fusefault
$(FUSEFAULT): t/fusefault/fusefault.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(shell pkg-config --cflags fuse3) -MMD -MP \
		-o $@ $< $(LDFLAGS) $(shell pkg-config --libs fuse3)
DEPS += $(FUSEFAULT).d
endif
fusefault: $(FUSEFAULT)

# The whole suite, under prove. Unit tests are C programs printing TAP.
# prove starts the scripts in the order given: the longest first (the fuzz
# build, then the most CPU and waiting, measured), so that no long one
# starts last and leaves a CPU idle; the rest in order, the units last.
TESTS_FIRST := t/t0910-fuzz.sh t/t1740-fio-io.sh t/t1415-buffers-fio.sh \
	t/t1890-sbs-gen.sh t/t1000-status.sh t/t1830-sbs-queue.sh \
	t/t1970-mpi.sh t/t1810-sbs-files.sh t/t1295-fio-examples.sh \
	t/t1899-sbs-harness.sh t/t1930-pitfalls.sh t/t1750-workload-fio.sh \
	t/t1012-logs-fio.sh t/t1840-sbs-err.sh t/t1975-profile.sh \
	t/t1965-plot-json.sh t/t1031-live-metrics.sh t/t1973-mpi-live.sh \
	t/t0340-prio.sh \
	t/t1744-fio-scale.sh \
	t/t0700-async.sh t/t1010-logs.sh t/t1120-verify-modes.sh \
	t/t1410-buffers.sh t/t1960-html.sh t/t1400-trim.sh t/t1100-verify.sh
# t27NN boot a QEMU guest (about a minute of emulated CPU): make test-vm
VM_TESTS := $(sort $(wildcard t/t27[0-9][0-9]-*.sh))
# scripts named *-ceph* start a one-node Ceph cluster (t/lib-ceph.sh,
# ~20 s and ~10 CPU-s each): make test-ceph
CEPH_TESTS := $(sort $(wildcard t/t[0-9]*-ceph*.sh))
TESTS := $(filter $(wildcard t/t[0-9]*.sh),$(TESTS_FIRST)) \
	$(filter-out $(TESTS_FIRST) $(VM_TESTS) $(CEPH_TESTS),$(sort $(wildcard t/t[0-9]*.sh)))
test: $(PROG) $(MPI_PROG) $(UNIT_BINS) $(FUSEFAULT)
	$(SANITIZE_ENV) IOLITE=$(abspath $(PROG)) \
	IOLITE_MPI=$(if $(MPI_PROG),$(abspath $(MPI_PROG))) \
	IOLITE_UNIT_DIR=$(abspath $(BUILD)/t/unit) \
	IOLITE_FUSEFAULT=$(if $(FUSEFAULT),$(abspath $(FUSEFAULT))) \
	IOLITE_FUZZ_BUILD=$(abspath $(FUZZ_BUILD)) \
	IOLITE_PYTHON3="$$(python3 -c 'import sys; print(sys.executable)' \
		2>/dev/null)" \
	$(PROVE) $(PROVE_OPTS) $(TESTS) $(UNIT_BINS)

# `make test-vm`: the tests in a QEMU guest with NVMe and zoned devices
# (t/vm/, doc/vm.md), one boot for all of their jobs; they skip, saying
# why, without qemu-system-x86, busybox-static or the kernel package
test-vm: $(PROG)
	$(SANITIZE_ENV) IOLITE=$(abspath $(PROG)) $(PROVE) $(PROVE_OPTS) \
		$(VM_TESTS)

# `make test-ceph`: the rados and rbd engines (and the S3 tests that need
# radosgw) against a one-node Ceph cluster each script starts on
# 127.0.0.1 (t/lib-ceph.sh, doc/engines.md); they skip, naming the
# package, without Ceph's daemons or client libraries
test-ceph: $(PROG)
	$(SANITIZE_ENV) IOLITE=$(abspath $(PROG)) \
	IOLITE_PYTHON3="$$(python3 -c 'import sys; print(sys.executable)' \
		2>/dev/null)" \
	$(PROVE) $(PROVE_OPTS) $(CEPH_TESTS)

# ---- fuzzing: libFuzzer harnesses in fuzz/, built with clang ----
# `make fuzz` builds them (objects in $(FUZZ_BUILD), with ASan and UBSan)
# and runs each for an equal share of FUZZ_TIME seconds in total, seeded
# from examples/, t/data/ and fuzz/seeds/; the corpus grows in
# $(FUZZ_BUILD)/corpus from run to run. A finding stops the run; the input
# is saved as $(FUZZ_BUILD)/NAME-crash-... and replays with
# `$(FUZZ_BUILD)/fuzz/NAME FILE`.
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_BUILD ?= $(BUILD)/fuzz
FUZZ_NAMES := $(patsubst fuzz/%.c,%,$(sort $(wildcard fuzz/fuzz_*.c)))

fuzz: fuzz-build
	$(Q)fuzz/run.sh $(abspath $(FUZZ_BUILD)) $(FUZZ_TIME) \
		$(FUZZ_NAMES)

# `make fuzz-build`: the harnesses only (t0910 builds them when missing)
fuzz-build:
	$(Q)$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) \
		SANITIZE=fuzzer-no-link,address,undefined fuzz-bins

fuzz-bins: $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/%: fuzz/%.c fuzz/common.c fuzz/fuzz.h $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< fuzz/common.c \
		$(LIB_OBJS) $(LDFLAGS) $(LDLIBS)

run: $(PROG)
	@d=$$(mktemp -d) && QUICKSTART_DIR=$$d ./$(PROG) examples/quickstart.fio; \
		rc=$$?; rm -rf "$$d"; exit $$rc

bench: $(PROG)
	bench/run.sh $(abspath $(PROG))

# `make sbs-gen N=10000 [SEED=s]`: a long run of the side-by-side
# generator (doc/sidebyside.md); its summary goes to $(BUILD)/sbs-gen.txt
# and the differences, each with its seed and both command lines, to
# $(BUILD)/sbs-gen-diffs.txt. make test runs a fixed slice (t1890).
N ?= 1000
SEED ?= $(shell date +%Y%m%d)
sbs-gen: $(PROG)
	t/sbs-gen --iolite=$(abspath $(PROG)) --seed=$(SEED) --count=$(N) \
		--summary=$(BUILD)/sbs-gen.txt >$(BUILD)/sbs-gen-diffs.txt; \
		rc=$$?; cat $(BUILD)/sbs-gen.txt; exit $$rc

doc/options.md: $(PROG)
	$(abspath $(PROG)) --cmdhelp=markdown > $@

install: $(PROG)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/iolite
	install -m 0755 $(PROG) $(DESTDIR)$(PREFIX)/bin/iolite
	$(if $(MPI_PROG),install -m 0755 $(MPI_PROG) $(DESTDIR)$(PREFIX)/bin/iolite-mpi)
	install -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/iolite/

clean:
	rm -rf $(BUILD) iolite iolite-mpi

.PHONY: all test run bench install clean units fuzz fuzz-build fuzz-bins fusefault \
	sbs-gen test-vm

-include $(DEPS)
