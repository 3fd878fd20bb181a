// Crash reports: real report layouts as the kernels print them (x86 and arm64, 4.9 to
// 6.12, with and without caller ids, interleaved lines), their exact titles, kinds, extents
// and completeness; clean logs and the bundled captures.
#include "crashes.h"
#include "crashreport.h"
#include "report.h"
#include "runloader.h"
#include "tst_helpers.h"

#include <QtTest>

using namespace tty;
using namespace testutil;

namespace {
const QString kFixtures = QStringLiteral(TTYSCOPE_SAMPLES "/../crashes/");

// "kind|title|first line|last line|complete" per crash, lines 1-based.
QStringList describe(const std::vector<Crash> &crashes)
{
    QStringList out;
    for (const Crash &c : crashes) {
        out << QStringLiteral("%1|%2|%3|%4|%5")
                   .arg(QLatin1String(eventKindName(c.kind)), c.title)
                   .arg(lineNumber(c.line))
                   .arg(lineNumber(c.endLine))
                   .arg(c.traceComplete ? QStringLiteral("complete")
                                        : QStringLiteral("incomplete"));
    }
    return out;
}

QStringList describe(const Run &run)
{
    return describe(findCrashes(run));
}

std::unique_ptr<Run> loadFixture(const QString &name)
{
    QString error;
    auto run = loadRun(kFixtures + name, LoadOptions{}, &error);
    if (!run) {
        qWarning("%s: %s", qPrintable(name), qPrintable(error));
    }
    return run;
}
} // namespace

class TstCrashes : public QObject
{
    Q_OBJECT
private slots:
    void reports_data();
    void reports();
    void samples_data();
    void samples();
    void panicStack_data();
    void panicStack();
    void frames_data();
    void frames();
    void comparison();
    void slicedAsSequential();
    void titlesPrintNoControls();
};

void TstCrashes::reports_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected");
    auto row = [](const char *file, const QStringList &crashes) {
        QTest::newRow(file) << QString::fromLatin1(file) << crashes;
    };
    row("clean.log", {});
    // fs/dcache.c's WARN: the headline before the WARNING, whose stack is umount's; the
    // dentry's address, inode, name (spaces and all) and count differ between runs.
    row("dentry_in_use_61.log", {"bug|BUG: Dentry still in use [unmount of tmpfs]|2|25|complete"});
    row("gpf_612.log", {"oops|general protection fault in qux_free|1|19|complete"});
    row("hung_task_61.log", {"hung_task|INFO: task hung in baz_wait|1|17|complete",
                             "hung_task|INFO: task hung in blkdev_read_iter|18|29|complete",
                             "hung_task|INFO: task can't die in fuse_flush|30|39|complete"});
    // x86's die() for a breakpoint trap: "int3: 0000 [#1]" before 6.12 (6.4 booted under
    // QEMU's TCG, LKML; the mail cut the report after its stack, so it has no end),
    // "Oops: int3: 0000 [#1]" since. The 6.12-rt one is a real capture (tests/fixtures/
    // blast): a second oops on the same breakpoint prints no stack, then the panic.
    row("int3_64.log", {"oops|int3 in hrtimer_start_range_ns|4|31|incomplete"});
    row("int3_612rt.log", {"oops|int3 in sched_clock_tick|1|53|complete",
                           "oops|int3 in sched_clock_tick|54|69|complete"});
    row("kasan_54_memcpy.log", {"kasan|BUG: KASAN: use-after-free in bar_copy|2|17|complete"});
    row("kasan_61_caller.log",
        {"kasan|BUG: KASAN: slab-use-after-free in foo_release|2|33|complete"});
    row("kcsan_kfence_kmsan.log",
        {"kcsan|BUG: KCSAN: data-race in foo_read / foo_write|2|14|complete",
         "kfence|BUG: KFENCE: use-after-free read in frob_get|16|26|complete",
         "kmsan|BUG: KMSAN: uninit-value in zap_parse|28|34|complete"});
    row("kernel_bug_refcount_cut.log",
        {"bug|kernel BUG in __slab_free|1|12|complete",
         "warning|refcount_t: underflow in widget_put|13|23|complete"});
    // debugobjects' WARN text (5.10's, and 6.x's with the object's address) before its
    // WARNING: named by the code past the allocator's frames, not by kfree; a WARN in
    // kfree itself keeps its own name. Its on-stack check (a pr_warn, then WARN_ON) too.
    row("odebug_510_61.log", {"warning|WARNING: ODEBUG bug in __queue_work|2|15|complete",
                              "warning|WARNING: ODEBUG bug in bar_exit|17|34|complete",
                              "warning|WARNING in kfree|35|42|complete",
                              "warning|WARNING: ODEBUG bug in qux_wait_event|43|54|complete"});
    row("kmemleak.log", {"memory_leak|memory leak in leaky_init|1|9|complete",
                         "memory_leak|kmemleak: new suspected memory leaks|10|10|complete"});
    row("lockdep_circular_49.log", {"lockdep|possible deadlock in bar_lock|2|20|complete"});
    row("lockdep_circular_61.log", {"lockdep|possible deadlock in bar_lock|2|49|complete"});
    row("lockdep_rcu_nonstatic.log",
        {"lockdep|suspicious RCU usage in qux_lookup|2|17|complete",
         "lockdep|INFO: trying to register non-static key in quux_start|18|31|complete"});
    row("lockdep_unlock_balance.log", {"lockdep|bad unlock balance in baz_unlock|2|20|complete"});
    // arm (32-bit): "8<--- cut here ---" starts the report; frames name the function
    // first ("foo [mod] from bar+0x1/0x2", 5.10's "[<addr>] (foo) from [<addr>] (bar+..)"),
    // with exception stack dumps inside the trace. die("") after an unhandled fault says
    // nothing of it: the fault line names the crash.
    row("nullderef_arm_61.log",
        {"bug|Unable to handle kernel NULL pointer dereference in gizmo_read_reg|2|42|complete"});
    row("unhandled_fault_arm_510.log",
        {"oops|Unhandled fault: imprecise external abort in sprocket_irq|2|42|complete"});
    row("hung_task_arm_66.log", {"hung_task|INFO: task hung in gizmo_wait_ready|1|15|complete"});
    // riscv: die() says "Oops [#1]" after a fault's headline, "Kernel BUG [#2]" after
    // BUG()'s, and "Oops - illegal instruction [#3]" on its own.
    row("riscv_oops_66.log",
        {"bug|Unable to handle kernel NULL pointer dereference in widget_read|2|22|complete",
         "bug|kernel BUG in widget_release|23|35|complete",
         "oops|Oops - illegal instruction in gadget_clock_read|37|51|complete"});
    // s390: a fault's headline, then die()'s "Oops: 0004 ilc:3 [#1]"; BUG()'s "monitor
    // event: 0040 ilc:2" and other program checks on their own. The PSW line names the
    // function; a frame in parentheses is the return register's, an address without a
    // symbol (a call through NULL: "[<0000000000000000>] 0x0") keeps the trace going.
    row("s390_614.log",
        {"bug|Unable to handle kernel pointer dereference in gizmo_read_reg|2|31|complete",
         "bug|Unable to handle kernel pointer dereference in full_proxy_read|32|59|complete",
         "oops|illegal operation in gizmo_irq_handler|60|81|complete",
         "bug|BUG: corrupted list in gizmo_drop_request|83|110|complete"});
    // powerpc: 4.x's "Unable to handle kernel paging request for data at address", ELF v1
    // symbols (".foo"), frames marked "(unreliable)" (a stale link register slot), an
    // interrupt's registers inside a trace, the link register naming a user copy's
    // caller, and die()'s "Oops: Exception in kernel mode, sig: 4" on its own.
    row("powerpc_414_61.log",
        {"bug|Unable to handle kernel paging request in qla27xx_fwdt_template_valid|2|25|complete",
         "bug|BUG: kernel NULL pointer dereference in gizmo_read|27|61|complete",
         "warning|WARNING in gizmo_sync_out|63|94|complete",
         "bug|kernel BUG in gizmo_release|95|118|complete",
         "oops|Oops: Exception in kernel mode in gizmo_ioctl|119|134|complete"});
    // mips and loongarch: "CPU 0 Unable to handle kernel paging request at virtual address
    // ..., epc == ..." (loongarch: era), then die()'s "Oops[#1]:"; BUG()'s "Kernel bug
    // detected[#2]:"; `epc   : addr foo+...` (loongarch `  ERA: addr foo+...`) names the
    // function.
    row("mips_loongarch.log",
        {"bug|Unable to handle kernel paging request in gizmo_read|2|36|complete",
         "oops|kernel BUG in isolate_lru_pages|37|65|complete",
         "bug|Unable to handle kernel paging request in gizmo_flush|68|101|complete"});
    row("nullderef_arm64_61.log",
        {"bug|Unable to handle kernel NULL pointer dereference in baz_work_fn|1|26|complete"});
    row("nullderef_x86_510_panic.log",
        {"bug|BUG: kernel NULL pointer dereference in bar_ioctl|1|23|complete"});
    row("oom.log", {"oom|out of memory in filemap_fault|1|20|complete"});
    // An expedited stall that printed no stack before a sysrq-t dump: the dump's stacks
    // are its own, not the stall's (genlog's stalls took "in sys_epoll_wait" from them).
    row("rcu_expedited_then_sysrq.log", {"rcu_stall|INFO: rcu detected stall|1|5|complete"});
    row("rcu_stall_61.log", {"rcu_stall|INFO: rcu detected stall in looper_write|1|31|complete"});
    row("softlockup.log", {"soft_lockup|BUG: soft lockup in spin_thread|1|12|complete",
                           "soft_lockup|BUG: soft lockup in spin_work_fn|14|25|complete"});
    row("truncated_panic.log",
        {"bug|BUG: unable to handle page fault in widget_poke|2|9|incomplete",
         "warning|WARNING in widget_init|12|18|incomplete"});
    row("ubsan.log", {"ubsan|UBSAN: shift-out-of-bounds in qux_compute|2|14|complete",
                      "ubsan|UBSAN: Undefined behaviour in qux_index|16|25|complete"});
    row("warn_arm64_612_caller.log", {"warning|WARNING in foo_probe|1|20|complete"});
    row("warn_x86_510.log", {"warning|WARNING in foo_probe|2|20|complete"});
    // Every fixture has a row.
    QCOMPARE(QDir(kFixtures).entryList({QStringLiteral("*.log")}).size(), 33);
}

void TstCrashes::reports()
{
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    auto run = loadFixture(file);
    QVERIFY(run);
    QCOMPARE(describe(*run), expected);
}

void TstCrashes::samples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected");
    const QDir dir(QStringLiteral(TTYSCOPE_SAMPLES));
    for (const QString &f : dir.entryList({QStringLiteral("*.zst")}, QDir::Files, QDir::Name)) {
        QStringList crashes;
        if (f.startsWith(QLatin1String("blast_crash"))) {
            crashes << QStringLiteral("panic|kernel panic: sysrq triggered crash in "
                                      "sysrq_handle_crash|8763|8803|complete");
        } else if (f.startsWith(QLatin1String("panic_noroot"))) {
            crashes << QStringLiteral("panic|kernel panic: VFS: Unable to mount root fs on "
                                      "unknown-block(0,0) in mount_block_root|355|370|complete");
        }
        QTest::newRow(qPrintable(f)) << dir.filePath(f) << crashes;
    }
}

void TstCrashes::samples()
{
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    QString error;
    auto run = loadRun(file, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(describe(*run), expected);
    if (file.contains(QLatin1String("blast_crash"))) {
        // The panic's own stack, `?` frames left out.
        const Crash c = findCrashes(*run).front();
        QCOMPARE(c.frames.mid(0, 4), (QStringList{"dump_stack_lvl", "panic", "sysrq_handle_crash",
                                                  "__handle_sysrq.cold"}));
        QCOMPARE(c.frames.size(), 10);
    }
}

void TstCrashes::panicStack_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("log");
    QTest::addColumn<QString>("missing");
    QTest::addColumn<int>("stackInOops"); // 1-based line, 0: none
    auto row = [](const char *name, const char *file, const QByteArray &log, const char *missing,
                  int oops) {
        QTest::newRow(name) << QString::fromLatin1(file) << log << QString::fromLatin1(missing)
                            << oops;
    };
    // After die() the kernel prints no stack for the panic: the oops' report has it.
    row("x86 after oops", "nullderef_x86_510_panic.log", {}, "", 5);
    row("arm after unhandled fault", "unhandled_fault_arm_510.log", {}, "", 6);
    row("riscv after illegal instruction", "riscv_oops_66.log", {}, "", 37);
    row("s390 after a BUG's monitor event", "s390_614.log", {}, "", 85);
    // x86 traps other than a fault: 6.12's "Oops: int3:", the same before 6.12 without
    // "Oops: " (the panic's stack was "missing" when that header was not an oops).
    row("x86 after int3 (6.12-rt)", "int3_612rt.log", {}, "", 54);
    row("x86 after int3 (6.4)", "",
        "[   21.375425] int3: 0000 [#1] PREEMPT SMP DEBUG_PAGEALLOC NOPTI\n"
        "[   21.375453] RIP: 0010:hrtimer_start_range_ns+0x1ab/0x3d0\n"
        "[   21.375453] Call Trace:\n"
        "[   21.375453]  <TASK>\n"
        "[   21.375453]  tick_nohz_restart+0x72/0x90\n"
        "[   21.375453]  </TASK>\n"
        "[   21.375453] ---[ end trace 0000000000000000 ]---\n"
        "[   21.375453] Kernel panic - not syncing: Fatal exception in interrupt\n"
        "[   21.375453] ---[ end Kernel panic - not syncing: Fatal exception in interrupt ]---\n",
        "", 1);
    // arm before 6.9 prints its frames with no `Call trace:` line.
    row("arm frames without a header", "",
        "[    3.000000] Kernel panic - not syncing: VFS: Unable to mount root fs on "
        "unknown-block(0,0)\n"
        "[    3.000010] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.1.0-armmp #1\n"
        "[    3.000020] Hardware name: Generic DT based system\n"
        "[    3.000030]  unwind_backtrace from show_stack+0x10/0x14\n"
        "[    3.000040]  show_stack from dump_stack_lvl+0x40/0x4c\n"
        "[    3.000050]  dump_stack_lvl from panic+0x10c/0x340\n"
        "[    3.000060]  panic from mount_block_root+0x1e8/0x254\n"
        "[    3.000070] ---[ end Kernel panic - not syncing: VFS: Unable to mount root fs on "
        "unknown-block(0,0) ]---\n",
        "", 0);
    // No oops before it, and no frame came: the stack was lost.
    row("stack lost", "",
        "[    3.000000] Kernel panic - not syncing: sysrq triggered crash\n"
        "[    3.000010] CPU: 0 PID: 1 Comm: init Not tainted 6.1.0-57-amd64 #1\n"
        "[    3.000020] ---[ end Kernel panic - not syncing: sysrq triggered crash ]---\n",
        "call trace", 0);
    // An oops in an earlier boot does not count.
    row("oops a boot before", "",
        "[    1.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)\n"
        "[    2.000000] Oops: 0002 [#1] PREEMPT SMP PTI\n"
        "[    1.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)\n"
        "[    3.000000] Kernel panic - not syncing: sysrq triggered crash\n"
        "[    3.000020] ---[ end Kernel panic - not syncing: sysrq triggered crash ]---\n",
        "call trace", 0);
}

// Whether a panic's stack is missing: frames after its banner, with or without a `Call
// Trace:` line, or none expected after an oops.
void TstCrashes::panicStack()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, log);
    QFETCH(QString, missing);
    QFETCH(int, stackInOops);
    const auto run = file.isEmpty() ? loadBytes(log) : loadFixture(file);
    QVERIFY(run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QVERIFY(m.panic.detected);
    QCOMPARE(m.panic.missing.join(QLatin1Char(',')), missing);
    QCOMPARE(m.panic.complete, missing.isEmpty());
    QCOMPARE(m.panic.stackInOops ? lineNumber(*m.panic.stackInOops) : 0, qint64(stackInOops));
}

void TstCrashes::frames_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("function");
    QTest::addColumn<bool>("unreliable");
    auto row = [](const char *name, const char *line, const char *fn, bool unreliable = false) {
        QTest::newRow(name) << QByteArray(line) << QString::fromLatin1(fn) << unreliable;
    };
    row("x86", " foo_probe+0x1f/0x80 [foo]", "foo_probe");
    row("x86 4.x", " [<ffffffff81234567>] bar_ioctl+0x12/0x40", "bar_ioctl");
    row("inline", " baz mm/baz.c:12 [inline]", "baz");
    row("arm 5.17+", " platform_probe from really_probe+0xe0/0x400", "platform_probe");
    row("arm module", " gizmo_probe [gizmo] from platform_probe+0x64/0xc0", "gizmo_probe");
    row("arm to module", " wait_for_completion from gizmo_wait+0x40/0x90 [gizmo]",
        "wait_for_completion");
    row("arm from address", " secondary_start_kernel from 0x401018a0", "secondary_start_kernel");
    row("arm 5.10", "[<c07899e0>] (sprocket_irq) from [<c0187c6c>] (__handle_irq+0x60/0x21c)",
        "sprocket_irq");
    row("arm 3.x",
        "[<c0013e2c>] (dump_backtrace+0x0/0x10c) from [<c0013f9c>] (show_stack+0x18/0x1c)",
        "dump_backtrace");
    row("s390", " [<000001e12d18ac16>] vfs_read+0x96/0x340", "vfs_read");
    row("s390 module", " [<000003ff7fb2a1c4>] gizmo_read_reg+0x34/0x90 [gizmo]", "gizmo_read_reg");
    row("s390 return register", "([<000001e12d421b6a>] full_proxy_read+0x4a/0xc0)",
        "full_proxy_read");
    row("not a frame: s390 address only", " [<0000000000000000>] 0x0", "");
    row("powerpc", "[c00000000a1b7b80] [c0000000005e2c4c] seq_read_iter+0x13c/0x5c0",
        "seq_read_iter");
    row("powerpc ELF v1",
        "[c0000004d0ffb080] [d00000000f7952dc] .qla24xx_load_risc_flash+0x2fc/0x590 [qla2xxx]",
        "qla24xx_load_risc_flash");
    row("powerpc unreliable",
        "[c00000000a1b7b40] [c0080000003a0100] gizmo_read+0x18/0x90 [gizmo] (unreliable)",
        "gizmo_read", true);
    row("x86 unreliable", " ? __schedule+0x2f0/0x8a0", "__schedule", true);
    row("not a frame: powerpc address only",
        "[c0000004d0ffb000] [c0000006fe02c350] 0xc0000006fe02c350 (unreliable)", "");
    row("not a frame: prose", " data from the device was lost", "");
    row("not a frame: paren", "pgd = (ptrval)", "");
    row("not a frame: no caller", " kthread from", "");
}

// The function of a stack line in every layout the kernels print.
void TstCrashes::frames()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, function);
    QFETCH(bool, unreliable);
    bool marked = !unreliable;
    QCOMPARE(frameFunction(std::string_view(line.constData(), std::size_t(line.size())), &marked),
             function);
    if (!function.isEmpty()) { // a line that is no frame is neither
        QCOMPARE(marked, unreliable);
    }
}

// Two columns: which crash titles are in A only, in B only, in both, with counts.
void TstCrashes::comparison()
{
    auto a1 = loadFixture(QStringLiteral("hung_task_61.log"));
    auto a2 = loadFixture(QStringLiteral("warn_x86_510.log"));
    auto b1 = loadFixture(QStringLiteral("warn_arm64_612_caller.log"));
    QVERIFY(a1 && a2 && b1);
    const MetricOptions o;
    ReportColumn a{QStringLiteral("A"),
                   {a1.get(), a2.get()},
                   {std::nullopt, std::nullopt},
                   {computeMetrics(*a1, o), computeMetrics(*a2, o)},
                   {"a1", "a2"}};
    ReportColumn b{
        QStringLiteral("B"), {b1.get()}, {std::nullopt}, {computeMetrics(*b1, o)}, {"b1"}};
    const Report report({a, b}, o);
    const QJsonArray cmp = report.json().value(QStringLiteral("crash_comparison")).toArray();
    QCOMPARE(cmp.size(), 4);
    const QJsonObject warn = cmp[3].toObject();
    QCOMPARE(warn.value(QStringLiteral("title")).toString(),
             QStringLiteral("WARNING in foo_probe"));
    QCOMPARE(warn.value(QStringLiteral("in")).toString(), QStringLiteral("both"));
    QCOMPARE(warn.value(QStringLiteral("counts")).toArray(),
             (QJsonArray{QJsonArray{0, 1}, QJsonArray{1}}));
    QCOMPARE(cmp[0].toObject().value(QStringLiteral("in")).toString(), QStringLiteral("only-in-A"));
    const QString text = report.text();
    QString hungRow;
    for (const QString &l : text.split(QLatin1Char('\n'))) {
        if (l.startsWith(QLatin1String("INFO: task hung in baz_wait"))) {
            hungRow = l.simplified();
        }
    }
    QCOMPARE(hungRow, QStringLiteral("INFO: task hung in baz_wait hung_task 1/0 0 only-in-A"));
    QVERIFY2(text.contains(QLatin1String("WARNING in foo_probe")), qPrintable(text));
    const QJsonArray runCrashes = report.json()
                                      .value(QStringLiteral("runs"))
                                      .toArray()[2]
                                      .toObject()
                                      .value(QStringLiteral("crashes"))
                                      .toArray();
    QCOMPARE(runCrashes.size(), 1);
    const QJsonObject c = runCrashes[0].toObject();
    QCOMPARE(c.value(QStringLiteral("line")).toInt(), 1);
    QCOMPARE(c.value(QStringLiteral("end_line")).toInt(), 20);
    QCOMPARE(c.value(QStringLiteral("kernel_time")).toDouble(), 12.345678);
    QCOMPARE(c.value(QStringLiteral("trace_complete")).toBool(), true);
    QCOMPARE(c.value(QStringLiteral("frames")).toArray().first().toString(),
             QStringLiteral("foo_probe"));
}

// Reports are assembled in slices at once where the heads lie far enough apart: the result
// is the sequential one, line for line. Four copies of every fixture report, 3100 filler
// lines apart (more than any report reaches), form four slices; 1000 lines apart, one.
void TstCrashes::slicedAsSequential()
{
    const QDir dir(kFixtures);
    QByteArray group;
    for (const QString &name : dir.entryList({QStringLiteral("*.log")}, QDir::Files, QDir::Name)) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        group += f.readAll();
    }
    const auto spread = [&](int filler) {
        QByteArray log;
        for (int g = 0; g < 4; ++g) {
            log += group;
            for (int i = 0; i < filler; ++i) {
                log += "filler line " + QByteArray::number(i) + '\n';
            }
        }
        return log;
    };
    const auto apart = loadBytes(spread(3100));
    QVERIFY(apart);
    int sliced = 0;
    const std::vector<Crash> one = findCrashes(*apart, LineIndex(0), std::nullopt, 1, &sliced);
    QCOMPARE(sliced, 1);
    const std::vector<Crash> four = findCrashes(*apart, LineIndex(0), std::nullopt, 4, &sliced);
    QCOMPARE(sliced, 4);
    QCOMPARE(describe(four), describe(one));
    QCOMPARE(one.size() % 4, std::size_t(0));
    const std::size_t perGroup = one.size() / 4;
    QCOMPARE(perGroup, std::size_t(57)); // the 57 reports of reports_data, file after file
    for (std::size_t i = 0; i < one.size(); ++i) {
        QCOMPARE(four[i].frames, one[i].frames);
        QCOMPARE(four[i].event, one[i].event);
        QCOMPARE(one[i].title, one[i % perGroup].title); // each copy reads the same
    }
    // From a first line on: the heads before it are not even gathered (a tooltip asks for
    // one report of 10^6), so the three groups after it make three slices, which read the
    // reports as the whole run's do.
    const LineIndex from = one[perGroup + 1].line;
    const std::vector<Crash> later = findCrashes(*apart, from, std::nullopt, 4, &sliced);
    QCOMPARE(sliced, 3);
    QCOMPARE(describe(later), describe(findCrashes(*apart, from, std::nullopt, 1)));
    QCOMPARE(describe(later),
             describe(std::vector<Crash>(one.begin() + long(perGroup) + 1, one.end())));

    const auto close = loadBytes(spread(1000));
    QVERIFY(close);
    const std::vector<Crash> together = findCrashes(*close, LineIndex(0), std::nullopt, 4, &sliced);
    QCOMPARE(sliced, 1);
    QCOMPARE(together.size(), one.size());
    QCOMPARE(describe(together), describe(findCrashes(*close, LineIndex(0), std::nullopt, 1)));
}

// A crashed kernel's headline with an SGR colour, a bell and bytes that are not UTF-8: the
// title went to the terminal as it was (the text report's crash table and --fail-on's
// message turned it red and rang its bell).
void TstCrashes::titlesPrintNoControls()
{
    const auto run = loadBytes("[    1.000000] Kernel panic - not syncing: bad\x1b[31mred\x07\xff"
                               " end\n"
                               "[    2.000000] ---[ end Kernel panic - not syncing: bad ]---\n");
    QVERIFY(run);
    const std::vector<Crash> crashes = findCrashes(*run);
    QCOMPARE(crashes.size(), std::size_t(1));
    QCOMPARE(crashes[0].title, QStringLiteral("kernel panic: badred\uFFFD end"));
    ReportColumn c;
    c.label = QStringLiteral("x");
    c.runs = {run.get()};
    c.boots = {std::nullopt};
    c.metrics = {computeMetrics(*run, MetricOptions{})};
    c.files = {QStringLiteral("x.log")};
    const QString text = Report({c}, MetricOptions{}).text();
    QVERIFY(text.contains(QStringLiteral("kernel panic: badred\uFFFD end")));
    QVERIFY(!text.contains(QChar(0x1b)) && !text.contains(QChar(0x07)));
}

QTEST_GUILESS_MAIN(TstCrashes)
#include "tst_crashes.moc"
