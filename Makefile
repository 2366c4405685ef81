# sgabench - one non-recursive Makefile. Quiet unless V=1; DEVELOPER=1 adds -Werror.
#
#   make            build bench/sgabench
#   make run        the main job: table, scaling sweep, report (installs deps as root)
#   make check      build and run every test (installs deps as root)
#   make prove      the same tests under prove(1) (TAP::Harness), e.g. PROVE_OPTS=-j2
#   make bench      speed benchmarks (touch loop, model)
#   make kernel-check  apply, build and boot-test the sparc64 kernel series

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wno-unused-parameter -Wformat=2 -Wno-format-nonliteral
ifeq ($(DEVELOPER),1)
WARN    += -Werror
endif
PKGS    := sqlite3 numa libpq
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lsqlite3 -lnuma -lpq)
VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(PKG_CFLAGS) \
             -Ibench -I. -DSGA_VERSION='"$(VERSION)"' -MMD -MP
LDLIBS  := $(PKG_LIBS) -lpfm -lm -lpthread

ifneq ($(V),1)
Q  := @
QCC = @echo '   CC $@';
QLD = @echo ' LINK $@';
QAR = @echo '   AR $@';
endif

B        := build
# Every folder of bench/ but tests/ and micro/ is library code (see README: Layout).
LIB_DIRS := builtin lib machine native model store stats compare output
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard bench/$(d)/*.c)) $(wildcard workloads/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/obj/%.o)
MAIN_OBJ := $(B)/obj/bench/main.o
TEST_SRC := $(wildcard bench/tests/t_*.c)
TEST_BIN := $(TEST_SRC:bench/tests/%.c=$(B)/tests/%)
MICRO_SRC := $(wildcard bench/micro/*.c)
MICRO_BIN := $(MICRO_SRC:bench/micro/%.c=$(B)/micro/%)
LIB      := $(B)/libsgabench.a
SGABENCH := bench/sgabench

.PHONY: all run check test prove bench deps kernel-check kernel-check-quick clean shellcheck

all: $(SGABENCH) $(TEST_BIN) $(MICRO_BIN)

$(B)/obj/%.o: %.c $(B)/version-$(VERSION)
	@mkdir -p $(dir $@)
	$(QCC)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Rebuild objects that embed the version when it changes.
$(B)/version-$(VERSION):
	@mkdir -p $(B) && rm -f $(B)/version-* && touch $@

$(LIB): $(LIB_OBJ)
	$(QAR)rm -f $@ && ar rcs $@ $^

$(SGABENCH): $(MAIN_OBJ) $(LIB)
	$(QLD)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/%: $(B)/obj/bench/tests/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(QLD)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/micro/%: $(B)/obj/bench/micro/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(QLD)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

deps:
	$(Q)sh scripts/deps build

run: 
	$(Q)sh scripts/deps run
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh scripts/main-job

check:
	$(Q)sh scripts/deps check
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh scripts/t/run-tests

test: all
	$(Q)sh scripts/t/run-tests

prove: all
	$(Q)prove $(PROVE_OPTS) $(TEST_BIN) scripts/t/t[0-9]*.sh

bench:
	$(Q)sh scripts/deps build
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh scripts/bench

kernel-check:
	$(Q)sh kernel/check --full

kernel-check-quick:
	$(Q)sh kernel/check --quick

shellcheck:
	$(Q)sh scripts/t/t0900-shellcheck.sh

clean:
	rm -rf $(B) $(SGABENCH)

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_SRC:bench/tests/%.c=$(B)/obj/bench/tests/%.d) \
         $(MICRO_SRC:bench/micro/%.c=$(B)/obj/bench/micro/%.d)
