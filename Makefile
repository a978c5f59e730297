# decorum - conduct-report triage for kernel maintainers
#
#   make demo    install what is missing, build, open the demo corpus
#   make demo-quarter  a worked quarter on it and its published report
#   make check   install what is missing, build, run every test
#
# Plain make + pkg-config.  Sources are listed explicitly: a new file is a
# new line here.

VERSION   := 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
DATADIR   ?= $(PREFIX)/share
COMPDIR   ?= $(DATADIR)/bash-completion/completions
DESTDIR   ?=

CC        ?= cc
PKGS      := ncursesw gmime-3.0 glib-2.0 sqlite3 icu-uc icu-i18n
# Recursive (=) on purpose: pkg-config runs when a recipe needs the flags,
# after "make deps" has installed the -dev packages on a fresh machine.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS)) -lnotmuch

CFLAGS    ?= -O2 -g
WARN      := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2 \
	     -Wmissing-prototypes -Wstrict-prototypes
DC_CFLAGS  = -std=c11 -D_GNU_SOURCE -DDC_VERSION='"$(VERSION)"' \
	     -I. -Ibuild $(WARN) $(PKG_CFLAGS)

# One folder a room; the layers, lowest first: core/base (status, text,
# config, files, clock: under store and core alike), store (SQLite), the
# rest of core, tui.  Each is compiled behind a fence (below).
BASE_SRC  := core/base/status.c core/base/sanitize.c core/base/json.c \
	     core/base/config.c core/base/clock.c core/base/safefile.c \
	     core/base/testhook.c
BASE_SRC  += core/base/sprinter.c core/base/choice.c core/base/history.c
# Wrapping text at display width (message bodies).
BASE_SRC  += core/base/wrap.c
STORE_SRC := store/store.c store/migrate.c store/anchors.c store/sync.c \
	     store/workflow.c store/export.c
# Mail: notmuch, MIME, the Message-ID anchors, the tag mirror, fsck.
CORE_SRC  := core/mail/mail.c core/mail/message.c core/mail/anchor.c \
	     core/mail/mirror.c core/mail/mirror-write.c core/mail/fsck.c
# Message references in text (lore links, <message-id>).
CORE_SRC  += core/mail/link.c
# text/html bodies as text: a filter command or the built-in converter.
CORE_SRC  += core/mail/html.c
# One message by Message-ID, for what mail and notes cite; a letter with
# files attached.
CORE_SRC  += core/mail/lookup.c core/mail/compose.c core/mail/reply.c
# The case workflow: events, states, outcomes, votes, access, people.
CORE_SRC  += core/case/event.c core/case/case.c core/case/action.c \
	     core/case/open.c core/case/people.c core/case/access.c \
	     core/case/vote.c core/case/outcome.c core/case/release.c \
	     core/case/verify.c core/case/category.c
# Sharing the case history through git: signed, sealed envelopes.
CORE_SRC  += core/sync/proc.c core/sync/crypt.c core/sync/envelope.c \
	     core/sync/sync.c core/sync/status.c
# Which cases to list: by state, kind and age (decorum cases, the desk).
CORE_SRC  += core/case/filter.c
# Privacy: the identity scan, redaction, erasure.
CORE_SRC  += core/privacy/translit.c
CORE_SRC  += core/privacy/privacy.c core/privacy/redact.c \
	     core/privacy/erase.c
# Exports: reports and packets, and the emitters behind them.
CORE_SRC  += core/export/emit.c core/export/emit-text.c \
	     core/export/emit-md.c core/export/emit-json.c \
	     core/export/emit-csv.c core/export/report.c core/export/packet.c \
	     core/export/publish.c
# The packet's files beyond the mbox, one builder each.
CORE_SRC  += core/export/packet-timeline.c core/export/packet-links.c \
	     core/export/packet-cover.c core/export/packet-manifest.c
# The kernel documentation behind each action (docs/kernel/).
CORE_SRC  += core/docs/doclink.c
# Each object of the structured output, described once.
CORE_SRC  += core/export/describe.c
TUI_SRC   := tui/main.c tui/cli.c tui/cmd-list.c tui/cmd-show.c \
	     tui/cmd-tag.c tui/cmd-cases.c tui/cmd-tui.c tui/tui.c \
	     tui/actions.c tui/screen.c tui/draw.c tui/prompt.c \
	     tui/view-list.c tui/view-thread.c tui/view-case.c tui/view-help.c
# The cases view (the desk).
TUI_SRC   += tui/view-cases.c
# The headless driver of the screen tests: keys from a script.
TUI_SRC   += tui/script.c
# What the keys do to a case, from any view.
TUI_SRC   += tui/case-actions.c
# The committee's: people, conflicts, recusals, votes, outcome edits.
TUI_SRC   += tui/case-committee.c
# The scrolling the pagers (help, doc, report) share.
TUI_SRC   += tui/pager.c
TUI_SRC   += tui/cmd-report.c tui/cmd-packet.c tui/cmd-erase.c
TUI_SRC   += tui/cmd-remote.c tui/cmd-sync.c
TUI_SRC   += tui/cmd-case.c tui/cmd-member.c tui/cmd-verify.c \
	     tui/cmd-fsck.c tui/cmd-upgrade.c
TUI_SRC   += tui/cmd-doc.c tui/view-doc.c
# Exports from the TUI: the report preview (R) and the packet (P).
TUI_SRC   += tui/view-report.c tui/case-packet.c tui/case-reply.c
# The shared history: the status bar's last sync, :sync.
TUI_SRC   += tui/sync.c
KDOC_FILE := process/code-of-conduct-maintainer-guide.rst
KDOC_RST  := build/kernel-doc/$(KDOC_FILE)
MIGRATIONS := $(sort $(wildcard store/migrations/*.sql))

LIB_SRC   := $(BASE_SRC) $(STORE_SRC) $(CORE_SRC)
OBJ       := $(patsubst %.c,build/%.o,$(LIB_SRC) $(TUI_SRC))

# Unit tests: one cmocka program per file, built with ASan and UBSan.
UNIT_SRC  := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BIN  := $(patsubst tests/unit/%.c,build/tests/%,$(UNIT_SRC))
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=undefined
SAN_OBJ   := $(patsubst %.c,build/san/%.o,$(LIB_SRC))

# Fuzz harnesses (tests/fuzz/): libFuzzer programs built by clang for
# "make fuzz", and gcc ASan replays of their saved inputs for "make check".
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BIN  := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(FUZZ_SRC))
REPLAY_BIN := $(patsubst tests/fuzz/fuzz-%.c,build/fuzz/replay-%,$(FUZZ_SRC))
# The TUI's parsers (key names, colours) are fuzzed too: its objects but
# main().
FUZZ_LIB  := $(LIB_SRC) $(filter-out tui/main.c,$(TUI_SRC))
FUZZ_OBJ  := $(patsubst %.c,build/fuzz/obj/%.o,$(FUZZ_LIB))
REPLAY_OBJ := $(patsubst %.c,build/san/%.o,$(FUZZ_LIB))
FUZZ_CC   ?= clang
FUZZ_TIME ?= 60
FUZZ_DEBS := clang libclang-rt-14-dev

DEBS := build-essential pkg-config libncurses-dev libgmime-3.0-dev \
	libglib2.0-dev libsqlite3-dev libicu-dev libcmocka-dev libnotmuch-dev notmuch \
	sqlite3 tmux jq bash-completion man-db
# Sharing a case history (issue 22): age seals payloads to members' ssh
# ed25519 keys, ssh-keygen makes and checks the keys and signatures, git
# carries the log.
DEBS += age openssh-client git
KERNEL_DEBS := linux-source-6.1 qemu-system-x86 busybox-static \
	python3-sphinx python3-sphinx-rtd-theme bc bison flex libelf-dev \
	libssl-dev cpio xz-utils python3-ply python3-git graphviz

.PHONY: all deps deps-kernel check check-fast check-kernel kernel-series demo demo-quarter install \
	uninstall clean tests bench format fuzz faults

all: decorum $(KDOC_RST)

# The guide our kernel series adds, taken from its patch (no kernel tree
# needed); decorum doc and the TUI read it from build/kernel-doc/ or, once
# installed, from $(DATADIR)/decorum/kernel-doc/.
$(KDOC_RST): $(wildcard docs/kernel/0001-*.patch) docs/kernel/new-file.awk
	@mkdir -p $(dir $@)
	awk -v file=Documentation/$(KDOC_FILE) -f docs/kernel/new-file.awk \
		$(wildcard docs/kernel/0001-*.patch) >$@.tmp
	mv $@.tmp $@

decorum: $(OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJ) $(PKG_LIBS)

# The fences: each layer is compiled with a folder of poison headers first
# on its include path, so that an include from the wrong layer fails to
# compile, naming the rule.  base sees no library but GLib and no other
# layer; store no notmuch, GMime or curses, nor core above base; core no
# SQLite or curses, nor tui or store's internals; tui no SQLite, notmuch
# or GMime (and reaches store only through core: tests/cli/test-layers.sh).
CURSES_H   := curses.h ncurses.h ncursesw/curses.h term.h
MAILLIB_H  := notmuch.h gmime/gmime.h
ICU_H      := unicode/utrans.h unicode/ustring.h unicode/unorm2.h
HIGH_H     = $(wildcard core/mail/*.h core/case/*.h core/privacy/*.h \
	     core/export/*.h core/docs/*.h)
FENCE_base  = sqlite3.h $(MAILLIB_H) $(ICU_H) $(CURSES_H) store/store.h store/sql.h \
	     $(HIGH_H) $(wildcard tui/*.h)
FENCE_store = $(MAILLIB_H) $(ICU_H) $(CURSES_H) $(HIGH_H) $(wildcard tui/*.h)
FENCE_core  = sqlite3.h $(CURSES_H) store/sql.h $(wildcard tui/*.h)
FENCE_tui   = sqlite3.h $(MAILLIB_H) $(ICU_H) store/sql.h
layer_of   = $(if $(filter core/base/%,$1),base,$(if $(filter store/%,$1),store,$(if $(filter core/%,$1),core,$(if $(filter tui/%,$1),tui,none))))
FENCE      = -Ibuild/fence/$(call layer_of,$<)

build/fence/.stamp: Makefile $(wildcard core/*/*.h store/*.h tui/*.h)
	@rm -rf build/fence
	@for l in base store core tui; do \
		case $$l in \
		base) hs="$(FENCE_base)";; store) hs="$(FENCE_store)";; \
		core) hs="$(FENCE_core)";; tui) hs="$(FENCE_tui)";; esac; \
		for h in $$hs; do \
			mkdir -p build/fence/$$l/$$(dirname $$h); \
			printf '#error "layer fence: %s code may not include %s (see the Makefile)"\n' \
				$$l $$h >build/fence/$$l/$$h; \
		done; \
	done
	@mkdir -p build/fence/none && touch $@

build/%.o: %.c build/migrations.inc | build/datadir.h build/fence/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(FENCE) $(DC_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

build/san/%.o: %.c build/migrations.inc | build/datadir.h build/fence/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(FENCE) $(DC_CFLAGS) $(CFLAGS) -O1 $(SAN_FLAGS) -MMD -MP -c -o $@ $<

build/tests/%: tests/unit/%.c $(SAN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(DC_CFLAGS) $(CFLAGS) -O1 $(SAN_FLAGS) -Itests/unit -o $@ $< \
		$(SAN_OBJ) $(PKG_LIBS) $(shell pkg-config --libs cmocka)

# The command built with ASan and UBSan, for the command-line tests: leaks
# and memory errors of a whole command fail them (tests/run.sh).
SAN_BIN_OBJ := $(patsubst %.c,build/san/%.o,$(LIB_SRC) $(TUI_SRC))
build/san/decorum: $(SAN_BIN_OBJ)
	$(CC) $(CFLAGS) -O1 $(SAN_FLAGS) $(LDFLAGS) -o $@ $(SAN_BIN_OBJ) $(PKG_LIBS)

build/fuzz/obj/%.o: %.c build/migrations.inc | build/datadir.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(DC_CFLAGS) -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
		-fno-sanitize-recover=undefined -MMD -MP -c -o $@ $<

build/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(DC_CFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -o $@ $< $(FUZZ_OBJ) $(PKG_LIBS)

build/fuzz/replay-%: tests/fuzz/fuzz-%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(REPLAY_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(DC_CFLAGS) $(CFLAGS) -O1 $(SAN_FLAGS) -o $@ $< tests/fuzz/replay.c \
		$(REPLAY_OBJ) $(PKG_LIBS)

# The installed data directory is compiled in; a header that changes only
# when DATADIR (or PREFIX) does makes exactly the files using it rebuild,
# so "make install PREFIX=/usr" never links objects of two prefixes.
build/datadir.h: FORCE
	@mkdir -p build
	@echo '#define DC_DATADIR "$(DATADIR)/decorum"' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

.PHONY: FORCE
FORCE:

# SQL migrations are compiled in: { "001-initial.sql", "<text>" }, ...
build/migrations.inc: $(MIGRATIONS)
	@mkdir -p build
	@for f in $(MIGRATIONS); do \
		printf '{ "%s",\n' "$${f##*/}"; \
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' "$$f"; \
		printf '},\n'; \
	done > $@

tests: decorum build/san/decorum $(KDOC_RST) $(UNIT_BIN) $(REPLAY_BIN)

# Install the Debian packages that are missing (sudo when not root).
deps:
	@DEBS="$(DEBS)" sh tests/install-debs.sh

deps-kernel:
	@DEBS="$(KERNEL_DEBS)" sh tests/install-debs.sh

check: deps deps-kernel
	@$(MAKE) --no-print-directory tests
	@sh tests/run.sh --kernel

# The kernel documentation series, authored and signed off by your git
# identity, with To/Cc from get_maintainer.pl: build/kernel-series/.
kernel-series: deps-kernel
	@sh docs/kernel/kernel-series.sh build/kernel-series

# Everything but the kernel build and boot: for daily work.
check-fast: deps
	@$(MAKE) --no-print-directory tests
	@sh tests/run.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@sh tests/demo.sh

# A worked quarter of cases on the demo corpus and its published report.
demo-quarter: deps
	@$(MAKE) --no-print-directory all
	@sh tests/demo.sh --quarter

# Run every harness (or FUZZ="sanitize event") for FUZZ_TIME seconds
# each, one at a time; prints the executions done by each.
fuzz: deps
	@DEBS="$(FUZZ_DEBS)" sh tests/install-debs.sh
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@FUZZ_TIME=$(FUZZ_TIME) sh tests/fuzz/run.sh $(FUZZ)

# Fault injection in full: 200 kill -9s (FAULT_KILLS), a 30 s notmuch
# lock, full and read-only disks.  make check runs 20 kills.
FAULT_KILLS ?= 200
faults: deps
	@$(MAKE) --no-print-directory all
	@for t in tests/faults/test-*.sh; do \
		echo "== $$t"; \
		FAULT_KILLS=$(FAULT_KILLS) sh $$t >build/faults.log 2>&1; \
		cat build/faults.log; \
		! grep -q '^not ok' build/faults.log || exit 1; \
	done

bench: deps
	@$(MAKE) --no-print-directory all
	@sh tests/bench/run.sh

install: decorum $(KDOC_RST)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(COMPDIR) $(DESTDIR)$(DATADIR)/decorum \
		$(DESTDIR)$(DATADIR)/decorum/kernel-doc/process
	install -m 644 $(KDOC_RST) \
		$(DESTDIR)$(DATADIR)/decorum/kernel-doc/$(KDOC_FILE)
	install -m 755 decorum $(DESTDIR)$(BINDIR)/decorum
	install -m 644 docs/decorum.1 $(DESTDIR)$(MANDIR)/man1/decorum.1
	install -m 644 docs/decorum.bash-completion $(DESTDIR)$(COMPDIR)/decorum

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/decorum $(DESTDIR)$(MANDIR)/man1/decorum.1 \
		$(DESTDIR)$(COMPDIR)/decorum \
		$(DESTDIR)$(DATADIR)/decorum/kernel-doc/$(KDOC_FILE)

format:
	clang-format -i $(LIB_SRC) $(TUI_SRC) core/*.h store/*.h tui/*.h

clean:
	rm -rf build decorum

-include $(OBJ:.o=.d) $(SAN_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d) $(REPLAY_OBJ:.o=.d)
