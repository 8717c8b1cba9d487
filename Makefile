# iolite - see README.md. `make`, `make test`, `make run`, `make install`.
# Variables: V=1 (echo commands), DEVELOPER=1 (-Werror and a strict set),
# SANITIZE=address,undefined, BUILD=dir (objects and binary elsewhere),
# PREFIX, DESTDIR.

CC ?= cc
BUILD ?= build
PREFIX ?= /usr/local
PROVE ?= prove
VERSION := 0.1

CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -pthread \
	  -D_GNU_SOURCE -Isrc -DIOLITE_VERSION='"$(VERSION)"'
LDLIBS += -pthread -lm

ifeq ($(DEVELOPER),1)
CFLAGS += -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
	  -Wmissing-prototypes -Wpointer-arith -Wcast-align -Wvla \
	  -Wundef -Wwrite-strings -Wimplicit-fallthrough
endif
ifneq ($(SANITIZE),)
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif

# Optional libraries: detected, never required.
have = $(shell echo 'int main(void){return 0;}' | \
	$(CC) -x c -include $(1) - -o /dev/null $(2) >/dev/null 2>&1 && echo 1)
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

SRCS := $(sort $(wildcard src/*.c src/*/*.c))
OBJS := $(SRCS:%.c=$(BUILD)/%.o)
LIB_OBJS := $(filter-out $(BUILD)/src/main.o,$(OBJS))
UNIT_SRCS := $(sort $(wildcard t/unit/*.c))
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)
DEPS := $(OBJS:.o=.d) $(UNIT_BINS:=.d)

all: $(PROG)

$(PROG): $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/t/unit/%: t/unit/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -It -MMD -MP -o $@ $< $(LIB_OBJS) $(LDFLAGS) $(LDLIBS)

units: $(UNIT_BINS)

# The whole suite, under prove. Unit tests are C programs printing TAP.
test: $(PROG) $(UNIT_BINS)
	IOLITE=$(abspath $(PROG)) IOLITE_UNIT_DIR=$(abspath $(BUILD)/t/unit) \
	$(PROVE) $(PROVE_OPTS) $(UNIT_BINS) t/t[0-9]*.sh

run: $(PROG)
	@d=$$(mktemp -d) && QUICKSTART_DIR=$$d ./$(PROG) examples/quickstart.fio; \
		rc=$$?; rm -rf "$$d"; exit $$rc

bench: $(PROG)
	bench/run.sh $(abspath $(PROG))

doc/options.md: $(PROG)
	./$(PROG) --cmdhelp=markdown > $@

install: $(PROG)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/iolite
	install -m 0755 $(PROG) $(DESTDIR)$(PREFIX)/bin/iolite
	install -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/iolite/

clean:
	rm -rf $(BUILD) iolite

.PHONY: all test run bench install clean units

-include $(DEPS)
