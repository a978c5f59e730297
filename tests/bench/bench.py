#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The measurements of make bench (see tests/bench/run.sh).

Every decorum measurement is timed in the same run as its baseline,
the two alternating (warm-up round first, then --runs rounds), and the
median of each is compared as a ratio.  Wall time is the monotonic
clock around fork/exec/wait; peak RSS is ru_maxrss from wait4 (what
/usr/bin/time -v prints, which P7 also runs) or VmHWM from /proc for
the programs that need a terminal (run in a private tmux server).

A measurement whose decorum feature is not built yet prints
"n/a (... not built)": no number is ever made up.
"""
import argparse
import json
import os
import platform
import pty
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import fcntl
import struct
import termios

BIG_ID = "bench-1000@decorum.invalid"
COLS, ROWS = 120, 40
QUERY = "*"
# The archive with the 1,000-message thread that P3, P4 and P6 use.
BIG = "genmail-2024-100k"


class Ctx:
    pass


def run_timed(argv, env=None, stdout=None, tty=False, cwd=None):
    """(wall seconds, peak RSS in KiB, CPU seconds) of one run of argv."""
    master = None
    if tty:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ,
                    struct.pack("HHHH", ROWS, COLS, 0, 0))
        fin = fout = slave
    else:
        fin = subprocess.DEVNULL
        fout = stdout if stdout is not None else subprocess.DEVNULL
    drain = None
    t0 = time.monotonic()
    p = subprocess.Popen(argv, env=env, stdin=fin, stdout=fout,
                         stderr=fout if tty else subprocess.PIPE, cwd=cwd,
                         start_new_session=tty)
    if tty:
        os.close(slave)

        def reader():
            try:
                while os.read(master, 65536):
                    pass
            except OSError:
                pass
        drain = threading.Thread(target=reader, daemon=True)
        drain.start()
        _, status, ru = os.wait4(p.pid, 0)
        t1 = time.monotonic()
        p.returncode = os.waitstatus_to_exitcode(status)
        drain.join(1)
        os.close(master)
        err = b""
    else:
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
        t1 = time.monotonic()
        p.stderr.close()
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (
            " ".join(argv), p.returncode, err.decode(errors="replace")[-400:]))
    return t1 - t0, ru.ru_maxrss, ru.ru_utime + ru.ru_stime


def compare(ctx, pair, prepare=None):
    """Time each of the commands in pair (name -> dict(argv, env, ...))
    alternately; return name -> {median, runs, rss, cpu, cpu_median}."""
    res = {k: {"runs": [], "rss": [], "cpu": []} for k in pair}
    for r in range(ctx.warmup + ctx.runs):
        for name, spec in pair.items():
            if prepare:
                prepare(name)
            out = None
            if spec.get("stdout_file"):
                out = open(spec["stdout_file"], "wb")
            try:
                t, rss, cpu = run_timed(spec["argv"], env=spec.get("env"),
                                        stdout=out,
                                        tty=spec.get("tty", False))
            finally:
                if out:
                    out.close()
            if r >= ctx.warmup:
                res[name]["runs"].append(t)
                res[name]["rss"].append(rss)
                res[name]["cpu"].append(cpu)
    for v in res.values():
        v["median"] = statistics.median(v["runs"])
        v["cpu_median"] = statistics.median(v["cpu"])
    for k, v in res.items():
        v["argv"] = " ".join(pair[k]["argv"])
    ctx.raw.append(res)
    return res


def cpu_note(r, a="decorum", b="notmuch"):
    """The CPU-time (user + sys) ratio: what wall time shows on an idle
    machine, and much steadier than wall time on a busy one."""
    return "CPU %.1f / %.1f ms = %.2f" % (
        r[a]["cpu_median"] * 1e3, r[b]["cpu_median"] * 1e3,
        r[a]["cpu_median"] / r[b]["cpu_median"])


def cpu_pair(r, a="decorum", b="notmuch"):
    return r[a]["cpu_median"], r[b]["cpu_median"]


def env_for(ctx, archive, **extra):
    e = dict(ctx.base_env)
    e["NOTMUCH_CONFIG"] = os.path.join(ctx.cache, archive, "notmuch-config")
    e.update(extra)
    return e


def notmuch(ctx, size, *args, **kw):
    return subprocess.run(["notmuch"] + list(args), env=env_for(ctx, size),
                          check=True, capture_output=True, text=True,
                          **kw).stdout


# ---- what this decorum can do --------------------------------------------

def features(ctx):
    helptext = subprocess.run([ctx.decorum, "--help"], capture_output=True,
                              text=True).stdout
    cmds = set(re.findall(r"^  (\w[\w-]*) ", helptext, re.M))
    try:
        with open(ctx.decorum, "rb") as f:
            binary = f.read()
    except OSError:
        binary = b""
    f = {"commands": cmds,
         "args": dict(re.findall(r"^  (\w[\w-]*) +(.*)$", helptext, re.M))}
    # The option that makes the TUI exit once its first full screen is
    # drawn (for P1 and P7); until the TUI has one, P1 uses a proxy.
    f["first_screen"] = None
    for env in (b"DECORUM_EXIT_AFTER_FIRST_SCREEN",):
        if env in binary:
            f["first_screen"] = env.decode()
            break
    f["tui"] = "tui" in cmds
    return f


# ---- the measurements ----------------------------------------------------

def first_screen_cmd(ctx, archive, state=None):
    """decorum's "launch to first painted thread list" on archive, with
    its state (store, XDG cache) in the directory state, and whether it
    is the real thing or the interim proxy."""
    state = state or os.path.join(ctx.tmp, "p1-" + archive)
    os.makedirs(state, mode=0o700, exist_ok=True)
    env = env_for(ctx, archive, TERM="xterm-256color",
                  DECORUM_STORE=os.path.join(state, "store.db"),
                  XDG_CACHE_HOME=os.path.join(state, "cache"))
    if ctx.feat["first_screen"]:
        env[ctx.feat["first_screen"]] = "1"
        env["COLUMNS"], env["LINES"] = str(COLS), str(ROWS)
        argv = [ctx.decorum, "tui", QUERY]
        return {"argv": argv, "env": env, "tty": True}, False
    argv = [ctx.decorum, "list", QUERY, "--limit", "50", "--json"]
    return {"argv": argv, "env": env}, True


def family(archive):
    """genmaildir-1-100k -> (genmaildir-1, 100000)."""
    fam, size = archive.rsplit("-", 1)
    return fam, int(size.rstrip("k")) * 1000


def p1(ctx):
    # Every archive's commands in the same rounds, so that P2 compares
    # sizes under the same machine load.  Cold: each launch with a store
    # and an XDG cache that no launch has seen; warm: the same launch
    # again with what the earlier ones left (the warm-up round first).
    pair = {}
    proxy = False
    cold_dirs = {}
    for a in ctx.archives:
        cold_dirs["cold-" + a] = os.path.join(ctx.tmp, "p1-cold-" + a)
        pair["cold-" + a], proxy = first_screen_cmd(
            ctx, a, cold_dirs["cold-" + a])
        pair["warm-" + a], _ = first_screen_cmd(
            ctx, a, os.path.join(ctx.tmp, "p1-warm-" + a))
        pair["notmuch-" + a] = {
            "argv": ["notmuch", "search", "--format=json", "--limit=50",
                     QUERY], "env": env_for(ctx, a)}
    for d in [os.path.join(ctx.tmp, "p1-warm-" + a) for a in ctx.archives]:
        os.makedirs(d, mode=0o700, exist_ok=True)

    def fresh(name):
        if name in cold_dirs:
            shutil.rmtree(cold_dirs[name], ignore_errors=True)
            os.makedirs(cold_dirs[name], mode=0o700)
    r = compare(ctx, pair, prepare=fresh)
    note = ("INTERIM PROXY: 'decorum list %s --limit 50 --json' (the TUI "
            "has no exit-after-first-screen option yet)" % QUERY
            if proxy else "%s=1 decorum tui '%s' in a %dx%d pty" % (
                ctx.feat["first_screen"], QUERY, COLS, ROWS))
    base = "notmuch search --format=json --limit=50 '%s'" % QUERY
    for a in ctx.archives:
        for how in ("cold", "warm"):
            k = how + "-" + a
            ctx.row("P1", "first thread list, %s, %s" % (a, how),
                    r[k]["median"], r["notmuch-" + a]["median"], base, 0.5,
                    "le", note + "; " + cpu_note(r, k, "notmuch-" + a),
                    cpu=(r[k]["cpu_median"],
                         r["notmuch-" + a]["cpu_median"]))
    if not any(a.startswith("genmaildir-") for a in ctx.archives):
        ctx.row("P1", "first thread list, genmaildir 10k/100k/300k", None,
                None, base, 0.5, "le", "n/a (skipped: ../shared/tools/"
                "genmaildir is not present)")
    fams = {}
    for a in ctx.archives:
        f, n = family(a)
        fams.setdefault(f, []).append((n, a))
    for f, sizes in sorted(fams.items()):
        sizes.sort()
        (n0, small), (n1, big) = sizes[0], sizes[-1]
        if f == "genmaildir-1" and n1 < 300000:
            ctx.row("P2", "P1 300k / P1 10k, %s" % f, None, None,
                    "decorum P1 at 10k", 1.5, "le",
                    "n/a (the 300k archive is generated with BENCH_LARGE=1 "
                    "only: more than five minutes here); %dk / %dk "
                    "follows" % (n1 // 1000, n0 // 1000))
        if n0 == n1:
            continue
        for how in ("cold", "warm"):
            kb, ks = how + "-" + big, how + "-" + small
            ctx.row("P2", "P1 %dk / P1 %dk, %s, %s" % (
                n1 // 1000, n0 // 1000, f, how),
                r[kb]["median"], r[ks]["median"],
                "decorum P1 at %dk" % (n0 // 1000), 1.5, "le",
                note + "; " + cpu_note(r, kb, ks) +
                "; notmuch %dk/%dk: %.2f" % (
                    n1 // 1000, n0 // 1000,
                    r["notmuch-" + big]["median"] /
                    r["notmuch-" + small]["median"]),
                cpu=(r[kb]["cpu_median"], r[ks]["cpu_median"]))
    ctx.p1 = r


def big_thread(ctx, size):
    tid = notmuch(ctx, size, "search", "--output=threads",
                  "id:" + BIG_ID).strip()
    n = int(notmuch(ctx, size, "count", tid).strip())
    if n != 1000:
        raise RuntimeError("%s has %d messages, not 1000" % (tid, n))
    return tid


def p3(ctx):
    size = BIG
    tid = ctx.big[size]
    r = compare(ctx, {
        "decorum": {"argv": [ctx.decorum, "show", tid, "--json"],
                    "env": env_for(ctx, size)},
        "notmuch": {"argv": ["notmuch", "show", "--format=json", tid],
                    "env": env_for(ctx, size)},
    })
    ctx.row("P3", "open a 1,000-message thread (show --json)",
            r["decorum"]["median"], r["notmuch"]["median"],
            "notmuch show --format=json", 1.0, "le", cpu_note(r),
            cpu=cpu_pair(r))


def coc_tags(ctx, size, tid):
    tags = notmuch(ctx, size, "search", "--output=tags", tid).split()
    return [t for t in tags if t.startswith("coc/")]


def p4(ctx):
    size = BIG
    tid = ctx.big[size]
    store = os.path.join(ctx.tmp, "p4-store.db")
    env = env_for(ctx, size, DECORUM_STORE=store)
    dec = {"argv": [ctx.decorum, "tag", tid, "escalation", "--note",
                    "bench"], "env": env}

    def reset(_name=None):
        for f in (store, store + "-wal", store + "-shm", store + "-journal"):
            if os.path.exists(f):
                os.unlink(f)
        old = coc_tags(ctx, size, tid)
        if old:
            notmuch(ctx, size, "tag", *["-" + t for t in old], "--", tid)
    # Which tags does decorum's mirror write?  Tag once and look.
    reset()
    run_timed(dec["argv"], env=env)
    mirrored = coc_tags(ctx, size, tid)
    reset()
    if not mirrored:
        # The event alone, for information; not a P4 figure.
        r = compare(ctx, {"decorum": dec}, prepare=reset)
        ctx.row("P4", "tag a 1,000-message thread (event + mirror)",
                None, None, "notmuch tag", 1.0, "le",
                "n/a (tag mirror not built: no coc/ tags appear in "
                "notmuch; the event alone takes %.1f ms)" %
                (r["decorum"]["median"] * 1e3))
        reset()
        return
    nm = {"argv": ["notmuch", "tag"] + ["+" + t for t in mirrored] +
          ["--", tid], "env": env_for(ctx, size)}
    r = compare(ctx, {"decorum": dec, "notmuch": nm}, prepare=reset)
    reset()
    ctx.row("P4c", "decorum tag (CLI): event + notmuch write",
            r["decorum"]["median"], r["notmuch"]["median"],
            "notmuch tag %s" % " ".join("+" + t for t in mirrored), 1.1,
            "le", "decorum tag THREAD escalation (event + mirror); " +
            cpu_note(r), cpu=cpu_pair(r))
    p4_tui(ctx, size, tid, store, reset, r["notmuch"], mirrored)


def p4_tui(ctx, size, tid, store, reset, nm, mirrored):
    """Enter on a tag in the TUI (headless, DECORUM_TRACE): the time to
    the next drawn screen (P4a) and to the notmuch write (P4b), against
    notmuch tag of the same tags on the same thread (nm, timed in the
    same rounds just before)."""
    script = os.path.join(ctx.tmp, "p4.keys")
    with open(script, "w") as f:
        f.write("key e\nkey Enter\n")
    env = env_for(ctx, size, DECORUM_STORE=store, DECORUM_TRACE="1",
                  TERM="xterm-256color")
    drawn, written, drawn_cpu, written_cpu = [], [], [], []
    for rnd in range(ctx.warmup + ctx.runs):
        reset()
        p = subprocess.run([ctx.decorum, "tui", "--script", script,
                            "--dump-dir", ctx.tmp, tid], env=env,
                           capture_output=True, text=True)
        ev = [l.split()[1:] for l in p.stderr.splitlines()
              if l.startswith("decorum-trace ")]
        keys = [i for i, e in enumerate(ev) if e[0] == "key"]
        if p.returncode or len(keys) < 3:
            raise RuntimeError("P4 TUI: %s" % p.stderr[-400:])
        enter = keys[-2]  # the last is the end of the script
        t0, c0 = float(ev[enter][1]), float(ev[enter][2])
        after = ev[enter + 1:keys[-1]]
        d = [e for e in after if e[0] == "drawn"]
        w = [e for e in after if e[0] == "written"]
        if rnd >= ctx.warmup and d and w:
            drawn.append((float(d[0][1]) - t0) / 1e3)
            written.append((float(w[0][1]) - t0) / 1e3)
            drawn_cpu.append((float(d[0][2]) - c0) / 1e3)
            written_cpu.append((float(w[0][2]) - c0) / 1e3)
    reset()
    if not drawn:
        ctx.row("P4a", "Enter on a tag -> case on screen", None, None,
                "notmuch tag", 0.1, "le", "n/a (no trace of the write)")
        return
    tags = "notmuch tag %s" % " ".join("+" + t for t in mirrored)
    dc, wc = statistics.median(drawn_cpu), statistics.median(written_cpu)
    ctx.row("P4a", "Enter on a tag -> case on screen (TUI)",
            statistics.median(drawn), nm["median"], tags, 0.1, "le",
            "decorum tui --script (e, Enter) with DECORUM_TRACE: Enter to "
            "the next drawn screen; CPU %.1f / %.1f ms = %.2f" % (
                dc * 1e3, nm["cpu_median"] * 1e3, dc / nm["cpu_median"]),
            cpu=(dc, nm["cpu_median"]))
    ctx.row("P4b", "Enter on a tag -> tag written to notmuch (TUI)",
            statistics.median(written), nm["median"], tags, 1.1, "le",
            "the same: Enter to the end of the deferred notmuch write "
            "(the case is on screen before it starts); CPU %.1f / %.1f ms "
            "= %.2f" % (wc * 1e3, nm["cpu_median"] * 1e3,
                        wc / nm["cpu_median"]),
            cpu=(wc, nm["cpu_median"]))


# The quarterly report as the sqlite3 CLI would compute it over
# decorum's schema: for the 13 weeks up to DECORUM_NOW (2026-12-01),
# reports per kind against the previous quarter, cases by state, the
# cases received with their first message, open TAB consultations, cases
# open for more than 30 days, reports per week and events per type.
NOW, Q_FROM, Q_TO = "2026-12-01", 1788307200, 1796169600
REPORT_SQL = """
SELECT kind, sum(reported_at >= {f} AND reported_at < {t}),
       sum(reported_at >= {p} AND reported_at < {f})
  FROM cases GROUP BY kind;
SELECT state, count(*) FROM cases
 WHERE reported_at >= {f} AND reported_at < {t} GROUP BY state;
SELECT c.id, c.kind, c.state, c.reported_at, min(cm.message_id)
  FROM cases c JOIN case_mail cm ON cm.case_id = c.id
 WHERE c.reported_at >= {f} AND c.reported_at < {t}
 GROUP BY c.id ORDER BY c.reported_at;
SELECT id FROM cases WHERE kind = 'tab'
   AND state NOT IN ('closed', 'withdrawn');
SELECT id, created_at FROM cases WHERE state NOT IN ('closed', 'withdrawn')
   AND created_at < {t} - 86400 - 30 * 86400;
SELECT (reported_at - {f}) / 604800 AS week, count(*) FROM cases
 WHERE reported_at >= {f} AND reported_at < {t} GROUP BY week;
SELECT type, count(*) FROM events WHERE at >= {f} AND at < {t}
 GROUP BY type;
""".format(f=Q_FROM, t=Q_TO, p=2 * Q_FROM - Q_TO)
P5_WHAT = "quarterly report, 10,000 cases / 50,000 events"


def p5(ctx):
    if "report" not in ctx.feat["commands"]:
        ctx.row("P5", P5_WHAT, None, None, "sqlite3 aggregate query", 2.0,
                "le", "n/a (feature not built: no 'decorum report')")
        return
    store = make_report_store(ctx)
    if store is None:
        return
    args = ctx.feat["args"].get("report", "")
    period = ["--period", "quarter"] if "--period" in args else ["quarter"]
    env = env_for(ctx, BIG, DECORUM_NOW=NOW)
    r = compare(ctx, {
        "decorum": {"argv": [ctx.decorum, "--store", store, "report"] +
                    period, "env": env},
        "sqlite3": {"argv": ["sqlite3", "-readonly", store, REPORT_SQL],
                    "env": env},
    })
    ctx.row("P5", P5_WHAT, r["decorum"]["median"], r["sqlite3"]["median"],
            "sqlite3 aggregate query", 2.0, "le",
            "decorum report %s; %s" % (" ".join(period),
                                       cpu_note(r, b="sqlite3")))


def build_mkstore(ctx):
    """tests/bench/mkstore.c linked against the objects the measured binary
    was built from: (path, None), or (None, why not)."""
    exe = os.path.join(ctx.tmp, "mkstore")
    if os.path.exists(exe):
        return exe, None
    src = os.path.join(ctx.top, "tests", "bench", "mkstore.c")
    build = os.path.join(ctx.decorum_dir, "build")
    # core/ has a folder a room (core/base, core/mail, ...).
    objs = sorted(os.path.join(root, f) for d in ("core", "store")
                  for root, _, files in os.walk(os.path.join(build, d))
                  for f in files if f.endswith(".o"))
    pc = subprocess.run(["pkg-config", "--cflags", "--libs", "ncursesw",
                         "gmime-3.0", "glib-2.0", "sqlite3", "icu-i18n",
                         "icu-uc"],
                        capture_output=True, text=True).stdout.split()
    cc = subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-I", ctx.top,
                         "-I", build, "-o", exe, src] + objs + pc +
                        ["-lnotmuch"], capture_output=True, text=True)
    if cc.returncode:
        return None, "fixture did not build: %s" % cc.stderr.strip()[-300:]
    return exe, None


def make_report_store(ctx):
    """10,000 cases and 50,000 hash-chained events, written by decorum's
    own core/ and store/ objects (tests/bench/mkstore.c), once."""
    src = os.path.join(ctx.top, "tests", "bench", "mkstore.c")
    # The objects the measured binary was linked from.
    build = os.path.join(ctx.decorum_dir, "build")
    key = subprocess.run(["sha256sum", src] + sorted(
        os.path.join(build, "store", f)
        for f in os.listdir(os.path.join(build, "store"))
        if f.endswith(".o")), capture_output=True, text=True).stdout
    key = "%x" % (hash_text(key) & 0xffffffffffff)
    store = os.path.join(ctx.cache, "report-store-%s.db" % key)
    if os.path.exists(store):
        return store
    exe, why = build_mkstore(ctx)
    if exe is None:
        ctx.row("P5", P5_WHAT, None, None, "sqlite3 aggregate query", 2.0,
                "le", "n/a (%s)" % why)
        return None
    # On tmpfs the 50,000 transactions need no fsync; then moved over.
    shm = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm")
                           else None)
    try:
        print("bench: writing the P5 store (10,000 cases, 50,000 events; "
              "once)", file=sys.stderr)
        subprocess.run([exe, os.path.join(shm, "s.db"), "10000", "50000"],
                       check=True)
        shutil.copyfile(os.path.join(shm, "s.db"), store + ".tmp")
        os.chmod(store + ".tmp", 0o600)
        os.rename(store + ".tmp", store)
    finally:
        shutil.rmtree(shm, ignore_errors=True)
    return store


def hash_text(s):
    h = 1469598103934665603
    for b in s.encode():
        h = ((h ^ b) * 1099511628211) & 0xffffffffffffffff
    return h


def p6(ctx):
    size = BIG
    tid = ctx.big[size]
    what = "TAB packet of a 1,000-message thread"
    if "packet" not in ctx.feat["commands"]:
        ctx.row("P6", what, None, None, "notmuch show --format=mbox > file",
                1.2, "le", "n/a (feature not built: no 'decorum packet')")
        return
    # A TAB consultation for the thread (untimed), then its packet.
    store = os.path.join(ctx.tmp, "p6-store.db")
    env = env_for(ctx, size, DECORUM_STORE=store)
    out = subprocess.run([ctx.decorum, "tag", tid, "tab"], env=env,
                         check=True, capture_output=True, text=True).stdout
    case = re.search(r"case (\d+)", out).group(1)
    out_d = os.path.join(ctx.tmp, "packet")
    out_n = os.path.join(ctx.tmp, "thread.mbox")

    def fresh(_name):
        shutil.rmtree(out_d, ignore_errors=True)
    try:
        r = compare(ctx, {
            "decorum": {"argv": [ctx.decorum, "packet", case, "-o", out_d],
                        "env": env},
            "notmuch": {"argv": ["notmuch", "show", "--format=mbox", tid],
                        "env": env_for(ctx, size), "stdout_file": out_n},
        }, prepare=fresh)
    finally:
        old = coc_tags(ctx, size, tid)
        if old:
            notmuch(ctx, size, "tag", *["-" + t for t in old], "--", tid)
    ctx.row("P6", what, r["decorum"]["median"], r["notmuch"]["median"],
            "notmuch show --format=mbox > file", 1.2, "le",
            "decorum packet CASE -o DIR; " + cpu_note(r), cpu=cpu_pair(r))


# ---- P12: the cursor onto a case of a 1,000-message thread -------------

P12_MOVES = 10


def p12(ctx):
    """The cursor in the TUI's list between a thread with a case of the
    1,000-message thread and another thread, P12_MOVES times each way
    (decorum tui --script, headless, DECORUM_TRACE: a key to the next
    drawn screen), against notmuch show --format=json of the same thread
    timed in the same rounds.  Each move onto the case builds its panel:
    the first reads the thread for the name forms (P12b), the later
    ones find them kept in core (P12)."""
    size = BIG
    tid = ctx.big[size]
    other = notmuch(ctx, size, "search", "--output=threads", "--limit=1",
                    "not " + tid).strip()
    store = os.path.join(ctx.tmp, "p12-store.db")
    env = env_for(ctx, size, DECORUM_STORE=store)
    subprocess.run([ctx.decorum, "tag", tid, "escalation", "--note",
                    "bench"], env=env, check=True, capture_output=True)
    query = "%s or %s" % (tid, other)
    # The list is newest first: is the case's thread the first row?
    first = notmuch(ctx, size, "search", "--output=threads",
                    query).split()[0]
    script = os.path.join(ctx.tmp, "p12.keys")
    with open(script, "w") as f:
        f.write("key j\nkey k\n" * P12_MOVES)
    tenv = env_for(ctx, size, DECORUM_STORE=store, DECORUM_TRACE="1",
                   TERM="xterm-256color")
    nm_argv = ["notmuch", "show", "--format=json", tid]
    onto_first, onto, onto_first_cpu, onto_cpu = [], [], [], []
    nm_wall, nm_cpu = [], []
    try:
        for rnd in range(ctx.warmup + ctx.runs):
            p = subprocess.run([ctx.decorum, "tui", "--script", script,
                                "--dump-dir", ctx.tmp, query], env=tenv,
                               capture_output=True, text=True)
            ev = [l.split()[1:] for l in p.stderr.splitlines()
                  if l.startswith("decorum-trace ")]
            if p.returncode:
                raise RuntimeError("P12 TUI: %s" % p.stderr[-400:])
            # Each key with the first screen drawn after it; the last
            # key is the end of the script.
            moves, key = [], None
            for e in ev:
                if e[0] == "key":
                    key = e
                elif e[0] == "drawn" and key is not None:
                    moves.append(((float(e[1]) - float(key[1])) / 1e3,
                                  (float(e[2]) - float(key[2])) / 1e3))
                    key = None
            if len(moves) < 2 * P12_MOVES:
                raise RuntimeError("P12 TUI: %d moves drawn, not %d" % (
                    len(moves), 2 * P12_MOVES))
            moves = moves[:2 * P12_MOVES]
            # j from the first row: onto the case when it is the second.
            on = moves[0::2] if first != tid else moves[1::2]
            t, _, cpu = run_timed(nm_argv, env=env_for(ctx, size))
            if rnd < ctx.warmup or len(on) < 2:
                continue
            onto_first.append(on[0][0])
            onto_first_cpu.append(on[0][1])
            onto += [m[0] for m in on[1:]]
            onto_cpu += [m[1] for m in on[1:]]
            nm_wall.append(t)
            nm_cpu.append(cpu)
    finally:
        old = coc_tags(ctx, size, tid)
        if old:
            notmuch(ctx, size, "tag", *["-" + t for t in old], "--", tid)
    what = "notmuch show --format=json (the same thread)"
    if not onto:
        ctx.row("P12", "cursor onto a case of 1,000 messages (TUI)", None,
                None, what, 0.5, "le", "n/a (no trace of the moves)")
        return
    nw, nc = statistics.median(nm_wall), statistics.median(nm_cpu)
    oc, fc = statistics.median(onto_cpu), statistics.median(onto_first_cpu)
    ctx.row("P12", "cursor onto a case of 1,000 messages (TUI)",
            statistics.median(onto), nw, what, 0.5, "le",
            "decorum tui --script, j/k %d times between the case's thread "
            "and another, DECORUM_TRACE: a key to the next drawn screen, "
            "every move onto the case but the first; CPU %.1f / %.1f ms = "
            "%.2f" % (P12_MOVES, oc * 1e3, nc * 1e3, oc / nc),
            cpu=(oc, nc))
    ctx.row("P12b", "cursor onto it the first time (TUI)",
            statistics.median(onto_first), nw, what, 4.0, "le",
            "the first move onto the case in a process: its name forms "
            "read from every message; CPU %.1f / %.1f ms = %.2f" % (
                fc * 1e3, nc * 1e3, fc / nc), cpu=(fc, nc))


# ---- P10: decorum sync, seven members through one bare repository ------

SYNC_MEMBERS = 7
# Bumped when the fixture's recipe changes.
SYNC_FIXTURE = "2"
SYNC_NOW = "2026-12-03"


def sync_events():
    """The size of the shared log: BENCH_SYNC_EVENTS, or 10,000 (the
    issue's) with BENCH_LARGE=1, else 2,000 (within a few minutes)."""
    if os.environ.get("BENCH_SYNC_EVENTS"):
        return int(os.environ["BENCH_SYNC_EVENTS"])
    return 10000 if os.environ.get("BENCH_LARGE") == "1" else 2000


def member_env(ctx, home, store=None):
    e = dict(ctx.base_env)
    e.update(HOME=home, DECORUM_STORE=store or os.path.join(home, "decorum.db"),
             DECORUM_AS="%s@bench.invalid" % os.path.basename(home),
             DECORUM_NOW=SYNC_NOW, GIT_CONFIG_GLOBAL=os.devnull)
    return e


def sync_run(ctx, home, *args, wait=True):
    argv = [ctx.decorum] + list(args)
    p = subprocess.Popen(argv, env=member_env(ctx, home),
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    if not wait:
        return p
    return sync_wait(p, argv)


def sync_wait(p, argv=None):
    out = p.communicate()[0].decode(errors="replace")
    if p.returncode:
        raise RuntimeError("%s: exit %d: %s" % (
            " ".join(argv or p.args), p.returncode, out[-400:]))
    return out


def envelopes_of(gitdir, revs):
    """The envelopes of the commits revs names (git rev-list syntax), as
    text, through one git cat-file --batch."""
    commits = subprocess.run(["git", "--git-dir", gitdir, "rev-list"] + revs,
                             capture_output=True, text=True,
                             check=True).stdout.split()
    out = subprocess.run(["git", "--git-dir", gitdir, "cat-file", "--batch"],
                         input="".join(c + ":envelope\n" for c in commits),
                         capture_output=True, text=True, check=True).stdout
    envs, i = [], 0
    while i < len(out):
        nl = out.index("\n", i)
        size = int(out[i:nl].split()[2])
        envs.append(out[nl + 1:nl + 1 + size])
        i = nl + 1 + size + 1
    return envs


def key_refs(gitdir):
    """The refs of the cases' data keys (refs/decorum/keys/GID)."""
    return set(subprocess.run(
        ["git", "--git-dir", gitdir, "for-each-ref", "--format=%(refname)",
         "refs/decorum/keys/"], capture_output=True, text=True,
        check=True).stdout.split())


def write_ciphertexts(gitdir, revs, into, old_keys=()):
    """Each envelope's age payload (what follows its header) in a file of
    its own, and in INTO-keys each case data key, sealed to the members'
    ssh keys, that old_keys does not name: for the baseline's age -d."""
    os.makedirs(into)
    for n, env in enumerate(envelopes_of(gitdir, revs)):
        head, payload = env.split("\n\n", 1)
        # NNNNN.RECIPIENT: the case data key that opens it ("ssh": the
        # member's own key).
        keys = [l.split()[1] for l in head.split("\n")
                if l.startswith("key ")]
        with open(os.path.join(into, "%05d.%s" % (
                n, keys[0] if keys else "ssh")), "w") as f:
            f.write(payload)
    os.makedirs(into + "-keys")
    for n, ref in enumerate(sorted(key_refs(gitdir) - set(old_keys))):
        blob = subprocess.run(["git", "--git-dir", gitdir, "cat-file",
                               "blob", ref + ":key"], capture_output=True,
                              text=True, check=True).stdout
        with open(os.path.join(into + "-keys", "%05d" % n), "w") as f:
            f.write(blob)


def make_sync_fixture(ctx, events):
    """Seven members, each with a HOME, an ssh ed25519 key and a store,
    and one bare repository holding EVENTS events of m1..m5 (signed and
    sealed by decorum sync itself: mkstore writes the events into each
    store, then each member's decorum sync exports them), m6 who has never
    synced, and two later states of the remote: m0's 100 and 1,000 new
    events on top.  Built once into the cache."""
    srcs = [os.path.join(ctx.top, p) for p in (
        "tests/bench/mkstore.c", "core/sync/envelope.c",
        "core/sync/crypt.c", "core/sync/sync.c")]
    key = subprocess.run(["sha256sum"] + srcs, capture_output=True,
                         text=True).stdout + SYNC_FIXTURE
    key = "%x" % (hash_text(key) & 0xffffffffffff)
    d = os.path.join(ctx.cache, "sync-%d-%s" % (events, key))
    if os.path.exists(os.path.join(d, "stamp")):
        return d, None
    exe, why = build_mkstore(ctx)
    if exe is None:
        return None, why
    print("bench: building the P10 fixture (%d members, %d events; once)" %
          (SYNC_MEMBERS, events), file=sys.stderr)
    start = time.monotonic()
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    homes = [os.path.join(d, "m%d" % i) for i in range(SYNC_MEMBERS)]
    pubs = []
    for h in homes:
        os.makedirs(os.path.join(h, ".ssh"), mode=0o700)
        k = os.path.join(h, ".ssh", "id_ed25519")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "",
                        "-C", "", "-f", k], check=True)
        with open(k + ".pub") as f:
            pubs.append(f.read().strip())
    remote = os.path.join(d, "remote.git")
    m0git = os.path.join(d, "m0-only.git")
    for g in (remote, m0git):
        subprocess.run(["git", "init", "-q", "--bare", g], check=True)
    m0 = homes[0]
    for i, h in enumerate(homes):
        sync_run(ctx, m0, "member", "add", "%s@bench.invalid" %
                 os.path.basename(h), "--role", "committee", "--joined",
                 "2020-01-01", "--key", pubs[i])
    sync_run(ctx, m0, "remote", "add", "origin", remote)
    sync_run(ctx, m0, "sync")
    authors = homes[1:6]
    for h in authors:
        sync_run(ctx, h, "remote", "add", "origin", remote, "--trust",
                 pubs[0])
        sync_run(ctx, h, "sync")
    # mkstore writes EVENTS / 5 events to each author, five to a case.
    each = events // len(authors)
    for n, h in enumerate(authors):
        subprocess.run([exe, os.path.join(h, "decorum.db"),
                        str(max(1, each // 5)), str(each),
                        str((n + 1) * 1000000),
                        "%s@bench.invalid" % os.path.basename(h)],
                       env=member_env(ctx, h), check=True,
                       stdout=subprocess.DEVNULL)
    # All at once: each fetches the roster, then exports its own.
    for p in [sync_run(ctx, h, "sync", wait=False) for h in authors]:
        sync_wait(p)
    # m6 has never synced; live.git is the remote it syncs with.
    sync_run(ctx, homes[6], "remote", "add", "origin",
             os.path.join(d, "live.git"), "--trust", pubs[0])
    write_ciphertexts(remote, ["--glob=refs/decorum/events/*"],
                      os.path.join(d, "ct-base"))
    base_keys = key_refs(remote)
    # m0's new events go through a remote of its own (so that its sync
    # needs none of the others'), then onto copies of the shared one.
    sync_run(ctx, m0, "remote", "add", "own", m0git)
    ref0 = "refs/decorum/events/" + subprocess.run(
        ["sqlite3", os.path.join(m0, "decorum.db"),
         "SELECT author FROM sync_envelopes WHERE origin = 'local' LIMIT 1"],
        capture_output=True, text=True, check=True).stdout.strip()
    old0 = subprocess.run(["git", "--git-dir", remote, "rev-parse", ref0],
                          capture_output=True, text=True,
                          check=True).stdout.strip()
    done = 0
    for n in (100, 1000):
        subprocess.run([exe, os.path.join(m0, "decorum.db"),
                        str((n - done) // 5), str(n - done),
                        str(9000000 + done), "m0@bench.invalid"],
                       env=member_env(ctx, m0), check=True,
                       stdout=subprocess.DEVNULL)
        sync_run(ctx, m0, "sync", "own")
        done = n
        g = os.path.join(d, "remote-%d.git" % n)
        shutil.copytree(remote, g, symlinks=True)
        # m0's events and the data keys of the cases they open.
        subprocess.run(["git", "--git-dir", g, "fetch", "-q", m0git,
                        "+%s:%s" % (ref0, ref0),
                        "+refs/decorum/keys/*:refs/decorum/keys/*"],
                       check=True)
        write_ciphertexts(g, [ref0, "^" + old0],
                          os.path.join(d, "ct-%d" % n), base_keys)
    with open(os.path.join(d, "allowed-signers"), "w") as f:
        for pub in pubs:
            f.write('m namespaces="git" %s\n' % pub)
    with open(os.path.join(d, "stamp"), "w") as f:
        f.write("%d s\n" % (time.monotonic() - start))
    print("bench: built the P10 fixture in %.0f s" %
          (time.monotonic() - start), file=sys.stderr)
    return d, None


# The baseline: the least that any reader of these events does with the
# same tools: git fetch of the same refs, one git cat-file --batch over
# the new commits' envelopes, one git log --format=%G? over them (git
# runs ssh-keygen -Y against the allowed signers for each, as for decorum),
# one age -d per new case data key (sealed to the member's ssh key) and
# one age -d per envelope (with those keys).
SYNC_BASELINE = r'''
set -eu
G="git --git-dir=$W/ref.git"
$G fetch -q --no-tags "$URL" '+refs/decorum/events/*:refs/remotes/o/*' \
	'+refs/decorum/keys/*:refs/remotes/k/*'
new=$($G for-each-ref --format='%(objectname)' refs/remotes/o/)
old=$(cat "$W/old-tips" 2>/dev/null || true)
$G -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$SIGNERS" \
	log --format='%H %G? %GS' $new --not $old -- >"$W/sigs"
! grep -qv ' G m$' "$W/sigs"
$G rev-list $new --not $old -- | sed 's/$/:envelope/' |
	$G cat-file --batch >"$W/blobs"
rm -rf "$W/ids"
mkdir "$W/ids"
for f in "$CT"-keys/*; do
	[ -e "$f" ] || continue
	age -d -i "$KEY" <"$f" >"$W/ids/new"
	mv "$W/ids/new" "$W/ids/$(age-keygen -y "$W/ids/new")"
done
for f in "$CT"/*; do
	r=${f##*.}
	if [ "$r" = ssh ]; then
		age -d -i "$KEY" <"$f" >/dev/null
	else
		age -d -i "$W/ids/$r" <"$f" >/dev/null
	fi
done
'''


def p10(ctx):
    events = sync_events()
    what = "sync, 7 members: first sync of %d events" % events
    if "sync" not in ctx.feat["commands"]:
        ctx.row("P10a", what, None, None, "git fetch + verify + age -d", 1.5,
                "le", "n/a (feature not built: no 'decorum sync')")
        return
    for tool in ("git", "age", "ssh-keygen", "sqlite3"):
        if not shutil.which(tool):
            ctx.row("P10a", what, None, None, "git fetch + verify + age -d",
                    1.5, "le", "n/a (%s not installed)" % tool)
            return
    d, why = make_sync_fixture(ctx, events)
    if d is None:
        ctx.row("P10a", what, None, None, "git fetch + verify + age -d", 1.5,
                "le", "n/a (%s)" % why)
        return
    w = os.path.join(ctx.tmp, "sync")
    os.makedirs(w)
    live = os.path.join(d, "live.git")
    me = os.path.join(w, "m6")
    after_first = os.path.join(w, "m6-after-first")
    base = dict(ctx.base_env, W=w, URL=live, GIT_CONFIG_GLOBAL=os.devnull,
                SIGNERS=os.path.join(d, "allowed-signers"),
                KEY=os.path.join(d, "m6", ".ssh", "id_ed25519"))
    script = os.path.join(w, "baseline.sh")
    with open(script, "w") as f:
        f.write(SYNC_BASELINE)

    def point(remote):
        if os.path.lexists(live):
            os.unlink(live)
        os.symlink(remote, live)

    def measure(label, remote, start_from, ref_from, ct, expect, runs):
        """Alternate decorum sync (m6 from start_from) and the baseline
        (from ref_from: None for an empty repository)."""
        res = {"decorum": {"runs": [], "cpu": [], "rss": []},
               "baseline": {"runs": [], "cpu": [], "rss": []}}
        point(remote)
        out = os.path.join(w, "out")
        for _ in range(runs):
            shutil.rmtree(me, ignore_errors=True)
            if start_from:
                shutil.copytree(start_from, me, symlinks=True)
            else:
                shutil.copytree(os.path.join(d, "m6"), me, symlinks=True)
            with open(out, "wb") as o:
                t, rss, cpu = run_timed([ctx.decorum, "sync"],
                                        env=member_env(ctx, me), stdout=o)
            with open(out) as o:
                said = o.read()
            if not re.search(r"\b%d taken, 0 sealed" % expect, said):
                raise RuntimeError("P10 %s: decorum sync said %r, not %d "
                                   "taken" % (label, said.strip(), expect))
            for k, v in (("runs", t), ("cpu", cpu), ("rss", rss)):
                res["decorum"][k].append(v)
            shutil.rmtree(os.path.join(w, "ref.git"), ignore_errors=True)
            if ref_from:
                shutil.copytree(os.path.join(ref_from, "ref.git"),
                                os.path.join(w, "ref.git"), symlinks=True)
                shutil.copyfile(os.path.join(ref_from, "old-tips"),
                                os.path.join(w, "old-tips"))
            else:
                subprocess.run(["git", "init", "-q", "--bare",
                                os.path.join(w, "ref.git")], check=True)
                if os.path.exists(os.path.join(w, "old-tips")):
                    os.unlink(os.path.join(w, "old-tips"))
            t, rss, cpu = run_timed(["sh", script],
                                    env=dict(base, CT=os.path.join(d, ct)))
            for k, v in (("runs", t), ("cpu", cpu), ("rss", rss)):
                res["baseline"][k].append(v)
        for v in res.values():
            v["median"] = statistics.median(v["runs"])
            v["cpu_median"] = statistics.median(v["cpu"])
        res["decorum"]["argv"] = "decorum sync (%s)" % label
        res["baseline"]["argv"] = "sh baseline.sh (%s)" % label
        ctx.raw.append(res)
        return res

    n_base = len(os.listdir(os.path.join(d, "ct-base")))
    # The first sync runs once (it is the long one); what it leaves is
    # where the incremental ones start.
    first = measure("first", os.path.join(d, "remote.git"), None, None,
                    "ct-base", n_base, 1)
    shutil.copytree(me, after_first, symlinks=True)
    ref_after = os.path.join(w, "ref-after-first")
    os.makedirs(ref_after)
    shutil.copytree(os.path.join(w, "ref.git"),
                    os.path.join(ref_after, "ref.git"), symlinks=True)
    with open(os.path.join(ref_after, "old-tips"), "w") as f:
        f.write(subprocess.run(
            ["git", "--git-dir", os.path.join(w, "ref.git"), "for-each-ref",
             "--format=%(objectname)", "refs/remotes/o/"],
            capture_output=True, text=True, check=True).stdout)
    base_what = "git fetch + cat-file --batch + log %G? + age -d each"
    ctx.row("P10a", what, first["decorum"]["median"],
            first["baseline"]["median"], base_what, 1.5, "le",
            "%d envelopes, one run; %s" % (n_base, cpu_note(
                first, b="baseline")), cpu=cpu_pair(first, b="baseline"))
    inc = {}
    runs = max(1, min(ctx.runs, 3))
    for n in (100, 1000):
        r = measure("+%d" % n, os.path.join(d, "remote-%d.git" % n),
                    after_first, ref_after, "ct-%d" % n, n, runs)
        inc[n] = r
        ctx.row("P10%s" % ("b" if n == 100 else "c"),
                "sync, 7 members: %d new after %d" % (n, events),
                r["decorum"]["median"], r["baseline"]["median"], base_what,
                1.5, "le", "median of %d; %s" % (runs, cpu_note(
                    r, b="baseline")), cpu=cpu_pair(r, b="baseline"))
    # In proportion to the new events: one new event costs no more in an
    # incremental sync than in the first.
    per_first = first["decorum"]["cpu_median"] / n_base
    per_inc = inc[1000]["decorum"]["cpu_median"] / 1000
    ctx.row("P10d", "sync: CPU per event, +1,000 / first sync",
            per_inc, per_first, "CPU per event of the first sync", 1.2,
            "le", "+100: %.1f ms per event; wall +1,000 / +100 = %.1f" % (
                inc[100]["decorum"]["cpu_median"] / 100 * 1e3,
                inc[1000]["decorum"]["median"] /
                inc[100]["decorum"]["median"]))


def time_v_rss(argv, env, tty=False):
    """Peak RSS in KiB as /usr/bin/time -v reports it."""
    with tempfile.NamedTemporaryFile("r") as f:
        run_timed(["/usr/bin/time", "-v", "-o", f.name] + argv, env=env,
                  tty=tty)
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                      f.read())
        return int(m.group(1))


# ---- programs in a terminal: tmux ----------------------------------------

class Tmux:
    def __init__(self, ctx):
        self.sock = "decorum-bench-%d" % os.getpid()
        self.env = dict(ctx.base_env)
        self.env.pop("TMUX", None)
        self("-f", "/dev/null", "new-session", "-d", "-s", "bench",
             "-x", str(COLS), "-y", str(ROWS), "sleep 100000")
        self("set-option", "-g", "remain-on-exit", "on")
        self("set-option", "-g", "status", "off")
        self("set-option", "-g", "default-terminal", "tmux-256color")

    def __call__(self, *args):
        return subprocess.run(["tmux", "-L", self.sock] + list(args),
                              env=self.env, check=True, capture_output=True,
                              text=True).stdout

    def first_screen(self, argv, ready, timeout=300):
        """Start argv in a fresh 120x40 window; poll until ready(lines);
        return (seconds, VmHWM KiB at that moment)."""
        t0 = time.monotonic()
        pid = int(self("new-window", "-d", "-P", "-F", "#{pane_pid}",
                       "-t", "bench", "--", *argv).strip())
        win = None
        try:
            while True:
                lines = self("capture-pane", "-p", "-t",
                             "%%%s" % self.pane_of(pid)).split("\n")
                if ready(lines):
                    t = time.monotonic() - t0
                    break
                if time.monotonic() - t0 > timeout:
                    raise RuntimeError("%s: no first screen in %d s:\n%s" % (
                        argv[0], timeout, "\n".join(lines)))
                time.sleep(0.005)
            hwm = vmhwm(pid)
        finally:
            self("kill-pane", "-t", "%%%s" % self.pane_of(pid))
        return t, hwm

    def pane_of(self, pid):
        for line in self("list-panes", "-a", "-F",
                         "#{pane_pid} #{pane_id}").splitlines():
            p, pane = line.split()
            if int(p) == pid:
                return pane.lstrip("%")
        raise RuntimeError("pane of %d is gone" % pid)

    def close(self):
        subprocess.run(["tmux", "-L", self.sock, "kill-server"],
                       env=self.env, capture_output=True)
        # A killed server can leave its socket behind.
        path = os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp",
                            "tmux-%d" % os.getuid(), self.sock)
        if os.path.exists(path):
            os.unlink(path)


def vmhwm(pid):
    """Peak RSS of pid and its descendants still alive, KiB (VmHWM)."""
    total = 0
    for p in [pid] + descendants(pid):
        try:
            with open("/proc/%d/status" % p) as f:
                m = re.search(r"^VmHWM:\s+(\d+) kB", f.read(), re.M)
                total += int(m.group(1)) if m else 0
        except OSError:
            pass
    return total


def descendants(pid):
    out = []
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            kids = [int(x) for x in f.read().split()]
    except OSError:
        return out
    for k in kids:
        out += [k] + descendants(k)
    return out


def full(lines, need=ROWS - 2):
    return sum(1 for l in lines if l.strip()) >= need


def alot_ready(lines):
    # The search buffer: one thread per line, then alot's status line.
    return full(lines) and not any("loading" in l.lower() for l in lines)


def neomutt_ready(lines):
    # While it reads the maildir, neomutt shows "Reading ..." and an
    # empty index; the first screen is the index full of messages.
    body = [l for l in lines if re.match(r"^\s*\d+\s", l)]
    return len(body) >= ROWS - 4 and any(
        "NeoMutt:" in l and "Msgs:" in l for l in lines)


def terminal_programs(ctx, size):
    """argv + ready predicate for alot and neomutt on the size archive,
    with their configuration in the cache (nothing in the repo)."""
    d = os.path.join(ctx.cache, size)
    home = os.path.join(ctx.tmp, "home")
    os.makedirs(home, exist_ok=True)
    muttrc = os.path.join(ctx.tmp, "muttrc")
    with open(muttrc, "w") as f:
        f.write("set mbox_type=Maildir\nset folder=%s\nset spoolfile=%s\n"
                "set header_cache=''\nset message_cachedir=''\n"
                "set sort=reverse-threads\nset sort_aux=last-date-received\n"
                "set mail_check=0\nset timeout=0\nset imap_passive=yes\n"
                "unset mark_old\nset quit=yes\n" % (
                    os.path.join(d, "mail"), os.path.join(d, "mail")))
    alotrc = os.path.join(ctx.tmp, "alot-config")
    with open(alotrc, "w") as f:
        f.write("initial_command = search %s\n" % QUERY)
    envs = ["env", "HOME=" + home, "TERM=tmux-256color",
            "NOTMUCH_CONFIG=" + os.path.join(d, "notmuch-config"),
            "XDG_CONFIG_HOME=" + os.path.join(home, ".config"),
            "XDG_DATA_HOME=" + os.path.join(home, ".local/share"),
            "XDG_CACHE_HOME=" + os.path.join(home, ".cache")]
    return {
        "alot": (envs + ["alot", "-c", alotrc, "-n",
                         os.path.join(d, "notmuch-config"), "-l",
                         "/dev/null", "search", QUERY], alot_ready),
        "neomutt": (envs + ["neomutt", "-n", "-F", muttrc, "-f",
                            os.path.join(d, "mail")], neomutt_ready),
    }


def decorum_terminal(ctx, size):
    d = os.path.join(ctx.cache, size)
    envs = ["env", "TERM=tmux-256color",
            "NOTMUCH_CONFIG=" + os.path.join(d, "notmuch-config"),
            "DECORUM_STORE=" + os.path.join(ctx.tmp, "p9-store.db")]
    if ctx.feat["tui"]:
        return envs + [ctx.decorum, "tui", QUERY], full, False
    # Interim proxy: a screenful of the thread list, printed.
    return envs + [ctx.decorum, "list", QUERY, "--limit", str(ROWS - 2)], \
        full, True


def p7_p9(ctx):
    size = BIG
    tm = Tmux(ctx)
    try:
        progs = terminal_programs(ctx, size)
        dargv, dready, proxy = decorum_terminal(ctx, size)
        progs = dict([("decorum", (dargv, dready))] + list(progs.items()))
        res = {k: {"runs": [], "rss": []} for k in progs}
        for r in range(ctx.warmup + ctx.runs):
            for name, (argv, ready) in progs.items():
                t, hwm = tm.first_screen(argv, ready)
                if r >= ctx.warmup:
                    res[name]["runs"].append(t)
                    res[name]["rss"].append(hwm)
        for v in res.values():
            v["median"] = statistics.median(v["runs"])
            v["rss_median"] = statistics.median(v["rss"])
    finally:
        tm.close()

    # P7: peak RSS at first screen, on the largest archive of the run.
    largest = max(ctx.archives, key=lambda a: family(a)[1])
    dec, dproxy = first_screen_cmd(ctx, largest)
    d_rss = statistics.median(time_v_rss(dec["argv"], dec["env"],
                                         dec.get("tty", False))
                              for _ in range(3))
    n_rss = statistics.median(time_v_rss(
        ["notmuch", "search", "--format=json", "--limit=50", QUERY],
        env_for(ctx, largest)) for _ in range(3))
    note = ("INTERIM PROXY: 'decorum list --limit 50 --json'"
            if dproxy else "%s=1 decorum tui" % ctx.feat["first_screen"])
    ctx.row("P7", "peak RSS at first screen, %s" % largest, d_rss, n_rss,
            "notmuch search (time -v)", 1.0, "le", note +
            ("" if family(largest)[1] >= 300000 else
             "; not 300k: BENCH_LARGE=1 generates it"), unit="KiB")
    dec, dproxy = first_screen_cmd(ctx, size)
    d_rss = statistics.median(time_v_rss(dec["argv"], dec["env"],
                                         dec.get("tty", False))
                              for _ in range(3))
    ctx.row("P7b", "peak RSS at first screen, " + size, d_rss,
            res["alot"]["rss_median"], "alot search * (VmHWM)", 0.25, "le",
            note, unit="KiB")
    ctx.row("P7c", "peak RSS at first screen, " + size, d_rss,
            res["neomutt"]["rss_median"], "neomutt -f maildir (VmHWM)", 0.1,
            "le", note, unit="KiB")

    note = ("INTERIM PROXY: 'decorum list --limit 38' in the pane (no TUI "
            "yet)" if proxy else "decorum tui '%s'" % QUERY)
    ctx.row("P9a", "launch to full first screen in tmux 120x40, " + size,
            res["decorum"]["median"], res["alot"]["median"],
            "alot search *", 1 / 5.0, "le", note + "; %.1fx faster" % (
                res["alot"]["median"] / res["decorum"]["median"]))
    ctx.row("P9b", "launch to full first screen in tmux 120x40, " + size,
            res["decorum"]["median"], res["neomutt"]["median"],
            "neomutt -f maildir", 1 / 15.0, "le", note + "; %.1fx faster" % (
                res["neomutt"]["median"] / res["decorum"]["median"]))
    ctx.terminal = res


# ---- output ----------------------------------------------------------------

def fmt(v, unit):
    if v is None:
        return "n/a"
    if unit == "KiB":
        return "%.1f MiB" % (v / 1024.0)
    return "%.1f ms" % (v * 1e3)


def read_notes(path):
    """tests/bench/notes: row id -> why that row misses its target, as
    measured (profile figures); see the file's head."""
    notes, key = {}, None
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    key = None
                    continue
                m = re.match(r"^(P\w+): (.*)$", line.rstrip())
                if m:
                    key = m.group(1)
                    notes[key] = m.group(2)
                elif key and line[:1].isspace():
                    notes[key] += " " + line.strip()
    except OSError:
        pass
    return notes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--archives", default=BIG,
                    help="the prepared archives, by name (run.sh)")
    ap.add_argument("--decorum", default=None,
                    help="the binary to measure (default: TOP/decorum)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--prepare-only", action="store_true")
    ap.add_argument("--source", default=None,
                    help="what the binary was built from, for results.json "
                    "(default: git describe of TOP, -dirty when modified)")
    a = ap.parse_args()
    if a.runs < 5:
        print("bench: fewer than 5 runs: not for results.json",
              file=sys.stderr)
    ctx = Ctx()
    ctx.top, ctx.cache, ctx.runs, ctx.warmup = a.top, a.cache, a.runs, \
        a.warmup
    ctx.decorum = os.path.abspath(a.decorum or os.path.join(a.top, "decorum"))
    ctx.tmp = tempfile.mkdtemp(prefix="decorum-bench.")
    # A private copy: a rebuild of the binary during the run must not
    # stop it or count in it.
    ctx.decorum_dir = os.path.dirname(ctx.decorum)
    shutil.copy2(ctx.decorum, os.path.join(ctx.tmp, "decorum"))
    ctx.decorum = os.path.join(ctx.tmp, "decorum")
    ctx.decorum_version = subprocess.run(
        [ctx.decorum, "--version"], capture_output=True,
        text=True).stdout.strip()
    ctx.base_env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("NOTMUCH_", "DECORUM_"))}
    ctx.base_env.update(LC_ALL="C.UTF-8", HOME=os.path.join(ctx.tmp, "home"),
                        XDG_DATA_HOME=os.path.join(ctx.tmp, "data"),
                        XDG_CONFIG_HOME=os.path.join(ctx.tmp, "config"))
    os.makedirs(ctx.base_env["HOME"])
    ctx.feat = features(ctx)
    ctx.archives = a.archives.split()
    ctx.rows = []
    ctx.raw = []
    ctx.notes = read_notes(os.path.join(ctx.top, "tests", "bench", "notes"))

    def row(pid, what, dec, base, base_what, target, how, note, ratio=None,
            unit="s", cpu=None):
        if ratio is None and dec is not None and base:
            ratio = dec / base
        cpu_ratio = cpu[0] / cpu[1] if cpu and cpu[1] else None
        met = None if ratio is None else ratio <= target * (1 + 1e-9)
        # A row off its target says why, from a measured profile.
        why = ctx.notes.get(pid) if met is False or (
            cpu_ratio is not None and cpu_ratio > target * (1 + 1e-9)) \
            else None
        ctx.rows.append({"id": pid, "what": what, "decorum": dec,
                         "baseline": base, "baseline_what": base_what,
                         "ratio": ratio, "cpu_ratio": cpu_ratio,
                         "target": target, "met": met,
                         "unit": unit, "note": note, "why": why})
        print("bench: %-4s %-10s %-10s %6s  %s" % (
            pid, fmt(dec, unit), fmt(base, unit),
            "n/a" if ratio is None else "%.2f" % ratio, note),
            file=sys.stderr)
    ctx.row = row

    only = set(x for x in a.only.split(",") if x)
    if not only or only - {"P1", "P2", "P10"}:
        ctx.big = {BIG: big_thread(ctx, BIG)}
    steps = [("P1", p1), ("P3", p3), ("P4", p4), ("P5", p5), ("P6", p6),
             ("P7", p7_p9), ("P10", p10),
             ("P12", p12)]
    t_start = time.monotonic()
    try:
        for pid, fn in steps:
            if not only or pid in only or (pid == "P7" and "P9" in only) \
                    or (pid == "P10" and only & {"P10a", "P10b", "P10c",
                                                "P10d"}):
                fn(ctx)
    finally:
        shutil.rmtree(ctx.tmp, ignore_errors=True)

    # The table.
    print()
    print("%-4s %-48s %11s %11s %7s %8s  %s" % (
        "id", "measurement", "decorum", "baseline", "ratio", "target",
        "met?"))
    told = set()
    for r in ctx.rows:
        tgt = ("<= %.2f" % r["target"]) if r["target"] >= 0.3 else (
            "<= 1/%d" % round(1 / r["target"]))
        met = "n/a" if r["met"] is None else ("yes" if r["met"] else "NO")
        print("%-4s %-48s %11s %11s %7s %8s  %s" % (
            r["id"], r["what"][:48], fmt(r["decorum"], r["unit"]),
            fmt(r["baseline"], r["unit"]),
            "n/a" if r["ratio"] is None else "%.2f" % r["ratio"], tgt, met))
        print("     baseline: %s%s" % (r["baseline_what"],
                                       ("; " + r["note"]) if r["note"]
                                       else ""))
        if r["why"] and r["id"] in told:
            print("     why: as for %s above" % r["id"])
        elif r["why"]:
            told.add(r["id"])
            print("\n".join(textwrap.wrap(
                "why: " + r["why"], 76, initial_indent="     ",
                subsequent_indent="       ")))
        elif r["met"] is False:
            print("     why: (no profile in tests/bench/notes for %s)" %
                  r["id"])
    print()

    uname = platform.uname()
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
            cpu = m.group(1) if m else ""
    except OSError:
        pass

    def ver(*argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True,
                                  timeout=20).stdout.strip().splitlines()[0]
        except Exception:
            return ""
    doc = {
        "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cpu": cpu, "cores": os.cpu_count(),
                    "kernel": uname.release,
                    "os": ver("sh", "-c", ". /etc/os-release && "
                              "echo $PRETTY_NAME")},
        "versions": {"decorum": ctx.decorum_version,
                     "notmuch": ver("notmuch", "--version"),
                     "sqlite3": ver("sqlite3", "--version"),
                     "alot": ver("alot", "--version"),
                     "neomutt": ver("neomutt", "-v")},
        "decorum_source": a.source or ver(
            "git", "-C", ctx.top, "describe", "--always", "--dirty"),
        "runs": ctx.runs, "warmup": ctx.warmup, "query": QUERY,
        "terminal": "%dx%d" % (COLS, ROWS),
        "duration_s": round(time.monotonic() - t_start, 1),
        "results": ctx.rows,
    }
    doc["raw"] = ctx.raw
    if hasattr(ctx, "terminal"):
        doc["terminal_runs"] = ctx.terminal
    # Never over a tracked file: build/ is ignored (issue 20).
    out = a.out or os.path.join(a.top, "build", "bench", "results.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    print("bench: wrote %s" % out)


if __name__ == "__main__":
    main()
