# sgabench - one non-recursive Makefile. Quiet unless V=1; DEVELOPER=1 adds -Werror.
#
#   make            build bench/sgabench
#   make run        the main job: table, scaling sweep, report (installs deps as root)
#   make check      build and run every test (installs deps as root)
#   make prove      the same tests under prove(1) (TAP::Harness), e.g. PROVE_OPTS=-j2
#   make bench      speed benchmarks (touch loop, model)
#   make kernel-check  apply, build and boot-test the sparc64 kernel series
#   make lab        boot QEMU guests (arm64 with a PMU, x86-64 with NUMA and
#                   SMT) on Debian's 6.1 kernels and run the lab suite in each,
#                   beside a small kernel A/B (scripts/lab/kernel-ab)
#   make lab-kernels  the kernel suite (SUITE=kernel; one cell per layout by
#                   default) on each of KERNELS (Debian versions, e.g.
#                   "6.1.174-1 6.1.192-3-rt 6.12.117-1:transparent_hugepage=never")
#                   on each of ARCHES (arm64 x86_64), with the verdicts of
#                   each pair of consecutive kernels (scripts/lab/kernels),
#                   each kernel booted BOOTS times
#   make lab-mux    one arm64 guest: multiplexed estimates against exact
#                   counts over a sweep of window lengths (scripts/lab/mux)
#   make doc       the man pages (Documentation/, Asciidoctor)
#   make install   PREFIX (/usr/local) and DESTDIR, as git's Makefile
#   make CROSS=aarch64-linux-gnu-   a static build for that triplet, from
#                   Debian's multiarch -dev packages, in build/<triplet>/sgabench

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wno-unused-parameter -Wformat=2 -Wno-format-nonliteral
ifeq ($(DEVELOPER),1)
WARN    += -Werror
endif
# libpq (PostgreSQL) in the host build, for its header only: store/pg_dl.c
# loads the library when a PostgreSQL database is opened, so its 22
# libraries are not mapped into every task that run forks (issue 27). The
# static guest builds (CROSS) leave it out and get store/pg_none.c, which
# says so.
PKGS    := sqlite3 numa
PG_PKG  := libpq
NO_PG_SRC := bench/store/pg_none.c
PKG_CONFIG ?= pkg-config
B       := build
# Parallel jobs of the build that run, check, bench and lab start.
JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
SGABENCH := bench/sgabench
# CROSS=<triplet>- : a static binary for that triplet (also x86_64-linux-gnu-
# for this machine's own), linked against the multiarch libraries of
# /usr/lib/<triplet>, built in build/<triplet>. Only the binary: no tests.
ifneq ($(CROSS),)
TRIPLET := $(patsubst %-,%,$(CROSS))
CC      := $(CROSS)gcc
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(TRIPLET)/pkgconfig pkg-config --static
B       := build/$(TRIPLET)
SGABENCH := $(B)/sgabench
LDFLAGS += -static
PKGS    := sqlite3 numa
PG_PKG  :=
NO_PG_SRC := bench/store/pg.c bench/store/pg_stmt.c bench/store/pg_check.c bench/store/pg_dl.c
PG_FLAGS := -DSGA_NO_PG
endif
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) $(PG_PKG) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo -lsqlite3 -lnuma)
VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(PKG_CFLAGS) \
             $(PG_FLAGS) -Ibench -I. -MMD -MP
LDLIBS  := $(PKG_LIBS) -lpfm -lm -lpthread

ifneq ($(V),1)
Q  := @
QCC = @echo '   CC $@';
QLD = @echo ' LINK $@';
QAR = @echo '   AR $@';
endif

# Every folder of bench/ but tests/ and micro/ is library code (see README: Layout).
LIB_DIRS := builtin lib machine native model store stats compare output
LIB_SRC  := $(filter-out $(NO_PG_SRC),$(foreach d,$(LIB_DIRS),$(wildcard bench/$(d)/*.c))) $(wildcard workloads/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/obj/%.o)
MAIN_OBJ := $(B)/obj/bench/main.o
TEST_SRC := $(wildcard bench/tests/t_*.c)
TEST_BIN := $(TEST_SRC:bench/tests/%.c=$(B)/tests/%)
MICRO_SRC := $(wildcard bench/micro/*.c)
MICRO_BIN := $(MICRO_SRC:bench/micro/%.c=$(B)/micro/%)
LIB      := $(B)/libsgabench.a

.PHONY: install install-bin install-doc install-completion install-systemd all run check check-slow test prove bench deps kernel-check kernel-check-quick clean shellcheck lab lab-bins lab-kernels lab-mux
# Keep the test and micro-benchmark objects (make would delete them as
# intermediates, print a long rm line, and build them again next time).
# Named, not every target: a missing secondary file is not remade, so a
# bare .SECONDARY: left $(B)/version-* unmade and the version stale.
.SECONDARY: $(TEST_SRC:%.c=$(B)/obj/%.o) $(MICRO_SRC:%.c=$(B)/obj/%.o)

ifneq ($(CROSS),)
all: $(SGABENCH)
else
all: $(SGABENCH) $(TEST_BIN) $(MICRO_BIN)
endif

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(QCC)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Only these objects embed the version (SGA_VERSION, from git describe), so a
# new commit rebuilds three objects, not all of them. A file that starts
# using SGA_VERSION must be listed here, or it does not compile.
VERSION_OBJ := $(B)/obj/bench/main.o $(B)/obj/bench/output/envelope.o $(B)/obj/bench/store/columns.o
$(VERSION_OBJ): $(B)/version-$(VERSION)
$(VERSION_OBJ): ALL_CFLAGS += -DSGA_VERSION='"$(VERSION)"'

# Rebuild objects that embed the version when it changes.
$(B)/version-$(VERSION):
	@mkdir -p $(B) && rm -f $(B)/version-* && touch $@

$(LIB): $(LIB_OBJ)
	$(QAR)rm -f $@ && ar rcs $@ $^

$(SGABENCH): $(MAIN_OBJ) $(LIB)
	$(QLD)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

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
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all
	$(Q)sh scripts/main-job

check:
	$(Q)sh scripts/deps check
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all
	$(Q)sh scripts/t/run-tests

# The slow, statistical nightly-detection test (t0630): real sweeps, -O0
# and a slowed touch loop against the nightly rule, judged on this
# machine's noise; minutes. make check skips it (it is not deterministic).
# And the Debian package build (t0960): minutes of dpkg-buildpackage.
check-slow:
	$(Q)sh scripts/deps check
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all
	$(Q)SGABENCH_TEST_EXPENSIVE=1 sh scripts/t/run-tests t0630
	$(Q)SGABENCH_TEST_EXPENSIVE=1 sh scripts/t/run-tests t0960

test: all
	$(Q)sh scripts/t/run-tests

prove: all
	$(Q)prove $(PROVE_OPTS) $(TEST_BIN) scripts/t/t[0-9]*.sh

bench:
	$(Q)sh scripts/deps build
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all
	$(Q)sh scripts/bench

# The lab: static binaries for both guests, then scripts/lab/run boots them.
lab-bins:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) CROSS=aarch64-linux-gnu- all
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) CROSS=x86_64-linux-gnu- all

# The kernel A/B (scripts/lab/kernel-ab) runs beside the lab's guests:
# its arm64 guests keep virtual time (-icount), whatever else runs.
lab:
	$(Q)sh scripts/deps lab
	$(Q)$(MAKE) --no-print-directory all lab-bins
	$(Q)mkdir -p $(B)/lab; rc=0; \
	sh scripts/lab/kernel-ab >$(B)/lab/kernel-ab.tap 2>&1 & kab=$$!; \
	trap 'kill $$kab 2>/dev/null; wait $$kab; exit 130' INT TERM; \
	sh scripts/lab/run || rc=1; \
	wait $$kab || rc=1; \
	cat $(B)/lab/kernel-ab.tap; exit $$rc

# The kernel lab: KERNELS and ARCHES as the comment at the top says; the
# runs go to SGABENCH_DB, else results/sgabench.db. SUITE is the config:
# kernel-quick (one cell per layout, 20 runs a guest) keeps the default
# within 10 minutes on a busy 2-CPU machine; SUITE=kernel is the whole
# kernel suite (24 cells, 120 runs a guest). BOOTS (each variant booted
# that many times; the script's default when unset), PASSES (in place of
# the config's) and LAB_JOBS (at most that many guests at once) when set.
KERNELS ?= 6.1.174-1 6.1.176-1
ARCHES  ?= arm64 x86_64
SUITE   ?= kernel-quick
lab-kernels:
	$(Q)sh scripts/deps lab
	$(Q)$(MAKE) --no-print-directory all lab-bins
	$(Q)sh scripts/lab/kernels --config $(SUITE) $(foreach a,$(ARCHES),--arch $(a)) \
		$(if $(BOOTS),--boots $(BOOTS)) $(if $(PASSES),--passes $(PASSES)) \
		$(if $(LAB_JOBS),--jobs $(LAB_JOBS)) $(KERNELS)

# The multiplexing lab: where scaled estimates stop being trustworthy on
# the arm64 guest's PMU driver (scripts/lab/mux, scripts/configs/lab-mux).
lab-mux:
	$(Q)sh scripts/deps lab
	$(Q)$(MAKE) --no-print-directory all lab-bins
	$(Q)sh scripts/lab/mux

kernel-check:
	$(Q)sh kernel/check --full

kernel-check-quick:
	$(Q)sh kernel/check --quick

shellcheck:
	$(Q)sh scripts/t/t0900-shellcheck.sh

clean:
	rm -rf $(B) $(SGABENCH)

# (-include: a copy of the tree without Documentation/ still builds.)
-include Documentation/doc.mk

# make install [PREFIX=/usr/local] [DESTDIR=]: the binary; sweep, nightly and
# bisect on PATH as sgabench-sweep, -nightly and -bisect (wrappers that find the
# scripts under libexec/sgabench relative to themselves); the configs and
# the report tooling under share/sgabench; the man pages (NO_DOC=1 leaves
# them out: they need asciidoctor); bash completion generated from the
# option tables; the systemd units, not enabled.
PREFIX      ?= /usr/local
prefix      ?= $(PREFIX)
bindir      ?= $(prefix)/bin
libexecdir  ?= $(prefix)/libexec
datadir     ?= $(prefix)/share
mandir      ?= $(datadir)/man
bashcompdir ?= $(datadir)/bash-completion/completions
unitdir     ?= $(prefix)/lib/systemd/system
ifeq ($(prefix),/usr)
sysconfdir  ?= /etc
else
sysconfdir  ?= $(prefix)/etc
endif
INSTALL     ?= install
sga_libexec := $(libexecdir)/sgabench
sga_share   := $(datadir)/sgabench
# relpath FROM TO: the path of TO relative to directory FROM (both absolute).
relpath = $$(realpath -m --relative-to='$(1)' '$(2)')

# The report's sources, not its output (report/out/, which make run writes).
REPORT_SRC := $(wildcard report/*.sh report/*.gp report/*.tsv)

install: install-bin install-completion install-systemd $(if $(NO_DOC),,install-doc)

install-bin: $(SGABENCH)
	$(INSTALL) -d -m 755 '$(DESTDIR)$(bindir)' '$(DESTDIR)$(sga_libexec)/scripts' \
		'$(DESTDIR)$(sga_share)/configs' '$(DESTDIR)$(sga_share)/report'
	$(INSTALL) -m 755 $(SGABENCH) '$(DESTDIR)$(bindir)/sgabench'
	$(INSTALL) -m 755 scripts/sweep scripts/nightly scripts/bisect scripts/hugepages '$(DESTDIR)$(sga_libexec)/scripts'
	$(INSTALL) -m 644 scripts/lib.sh scripts/config.sh '$(DESTDIR)$(sga_libexec)/scripts'
	$(INSTALL) -m 644 scripts/configs/* '$(DESTDIR)$(sga_share)/configs'
	$(INSTALL) -m 755 report/mkreport '$(DESTDIR)$(sga_share)/report'
	$(INSTALL) -m 644 $(REPORT_SRC) '$(DESTDIR)$(sga_share)/report'
	ln -sfn $(call relpath,$(sga_libexec)/scripts,$(sga_share)/configs) '$(DESTDIR)$(sga_libexec)/scripts/configs'
	ln -sfn $(call relpath,$(sga_libexec),$(sga_share)/report) '$(DESTDIR)$(sga_libexec)/report'
	for s in sweep nightly bisect; do \
		sed -e "s|@NAME@|$$s|g" -e "s|@LIBEXEC@|$(call relpath,$(bindir),$(sga_libexec))|g" \
			scripts/install/wrapper.in >'$(DESTDIR)$(bindir)/sgabench-'$$s && \
		chmod 755 '$(DESTDIR)$(bindir)/sgabench-'$$s || exit 1; \
	done

install-doc: doc
	for s in 1 5 7; do \
		$(INSTALL) -d -m 755 '$(DESTDIR)$(mandir)/man'$$s && \
		$(INSTALL) -m 644 $(DOC_MAN)/*.$$s '$(DESTDIR)$(mandir)/man'$$s || exit 1; \
	done

# The nightly's units, with this install's paths; installed, never enabled.
SYSTEMD_SUBST = sed -e 's|@bindir@|$(bindir)|g' -e 's|@sysconfdir@|$(sysconfdir)|g' -e 's|@datadir@|$(datadir)|g'
install-systemd:
	$(INSTALL) -d -m 755 '$(DESTDIR)$(unitdir)' '$(DESTDIR)$(sysconfdir)/default'
	$(SYSTEMD_SUBST) scripts/systemd/sgabench-nightly.service.in >'$(DESTDIR)$(unitdir)/sgabench-nightly.service'
	$(INSTALL) -m 644 scripts/systemd/sgabench-nightly.timer '$(DESTDIR)$(unitdir)'
	chmod 644 '$(DESTDIR)$(unitdir)/sgabench-nightly.service'
	$(SYSTEMD_SUBST) scripts/systemd/default.in >'$(DESTDIR)$(sysconfdir)/default/sgabench'
	chmod 644 '$(DESTDIR)$(sysconfdir)/default/sgabench'

$(B)/sgabench.bash: $(SGABENCH) scripts/install/completion scripts/sweep scripts/nightly
	$(Q)sh scripts/install/completion $(SGABENCH) '$(sga_share)/configs' >$@.tmp && mv $@.tmp $@

install-completion: $(B)/sgabench.bash
	$(INSTALL) -d -m 755 '$(DESTDIR)$(bashcompdir)'
	$(INSTALL) -m 644 $(B)/sgabench.bash '$(DESTDIR)$(bashcompdir)/sgabench'
	for s in sweep nightly; do ln -sfn sgabench '$(DESTDIR)$(bashcompdir)/sgabench-'$$s || exit 1; done

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_SRC:bench/tests/%.c=$(B)/obj/bench/tests/%.d) \
         $(MICRO_SRC:bench/micro/%.c=$(B)/obj/bench/micro/%.d)
