// The event rule table: every built-in rule with the 5.10 / 6.1 / 6.12 variants of
// KERNEL_STRINGS.md, user markers, custom and broken rule files.
#include "kernelprefix.h"
#include "rules.h"
#include "tst_helpers.h"

#include <QtTest>

#include <random>

using namespace tty;
using namespace testutil;

namespace {
// Kinds (with counts) that a line produces.
QStringList kindsOf(const RuleSet &rules, const QByteArray &line, quint32 *count = nullptr)
{
    const std::string_view s(line.constData(), std::size_t(line.size()));
    const KernelPrefix p = parseKernelPrefix(s);
    QStringList kinds;
    rules.match(s, p.message, 0, [&](const RuleSet::Match &m) {
        kinds << QLatin1String(eventKindName(m.kind));
        if (count && (m.kind == EventKind::Drop || m.kind == EventKind::Ratelimit)) {
            *count = m.count;
        }
    });
    kinds.sort();
    return kinds;
}
} // namespace

class TstRules : public QObject
{
    Q_OBJECT
private slots:
    void builtin_data();
    void builtin();
    void everyRuleCovered();
    void dropsInARun();
    void dropNeighbours();
    void userMarker();
    void builtinCompiledOnce();
    void customRulesFile();
    void brokenRulesFile_data();
    void brokenRulesFile();
};

void TstRules::builtin_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("kinds");
    QTest::addColumn<int>("count");
    auto row = [](const char *name, const char *line, const char *kinds, int count = -1) {
        QTest::newRow(name) << QByteArray(line) << QString::fromLatin1(kinds) << count;
    };
    // drops
    row("drop 5.10+ own line", "** 1330 printk messages dropped **", "drop", 1330);
    row("drop 6.12-rt burst", "** 3 printk messages dropped **", "drop", 3);
    row("drop <=5.9 glued", "** 12 printk messages dropped ** [   10.000000] next record", "drop",
        12);
    row("drop after timestamp", "[    2.295696] ** 2208 printk messages dropped **", "drop", 2208);
    // A real console resuming from suspend (linux-arm-kernel, 5.8): the notice follows the
    // UART's garbage on its line.
    row("drop after garbage", "CCCCCCCC** 1196 printk messages dropped **", "drop", 1196);
    row("drop after prompt", "corpusvm login: ** 41 printk messages dropped **", "drop", 41);
    row("drop after escape", "\x1b[0m** 37 printk messages dropped ** ", "drop", 37);
    row("drop <=5.9 after garbage", "CC** 12 printk messages dropped ** [   10.000000] next record",
        "drop", 12);
    row("6.12 replay notice", "** replaying previous printk message **", "console");
    row("6.1 too many dropped",
        "[   30.7] printk: Too many dropped messages. Suppress messages on non-panic CPUs to "
        "prevent livelock.",
        "console");
    // ratelimit
    row("callbacks suppressed", "[   99.000000] kauditd_printk_skb: 14 callbacks suppressed",
        "ratelimit", 14);
    row("kmsg ratelimit",
        "[    5.0] printk: systemd: 7 output lines suppressed due to ratelimiting", "ratelimit", 7);
    // panic
    row("panic", "[   30.706165] Kernel panic - not syncing: sysrq triggered crash", "panic");
    row("panic caller id", "[   30.706165][    C1] Kernel panic - not syncing: Hard LOCKUP",
        "panic");
    row("panic end",
        "[   30.709832] ---[ end Kernel panic - not syncing: sysrq triggered crash ]---",
        "panic_end");
    row("6.12 rebooting", "[    9.0] Rebooting in 10 seconds..", "reboot");
    // oops
    row("gpf 5.10/6.1", "[    1.0] general protection fault: 0000 [#1] SMP PTI", "oops");
    row("gpf maybe for address",
        "[    1.0] general protection fault, maybe for address 0xdead: 0000 [#1] PREEMPT SMP",
        "oops");
    row("6.12 Oops: gpf", "[    1.0] Oops: general protection fault: 0000 [#1] PREEMPT SMP PTI",
        "oops");
    row("6.12 Oops: Oops", "[    1.0] Oops: Oops: 0002 [#1] PREEMPT SMP PTI", "oops");
    row("invalid opcode", "[    1.0] invalid opcode: 0000 [#1] SMP", "oops");
    row("divide error", "[    1.0] divide error: 0000 [#1] SMP", "oops");
    row("stack segment", "[    1.0] stack segment: 0000 [#1] SMP", "oops");
    row("double fault", "[    1.0] double fault: 0000 [#1] SMP", "oops");
    // x86's other traps before 6.12: die(str) prints "str: %04lx [#N]" (6.4 under QEMU
    // without KVM, LKML; 5.10.131 and 5.18 on kvm-unit-tests' emulator test).
    row("int3", "[   21.375425] int3: 0000 [#1] PREEMPT SMP DEBUG_PAGEALLOC NOPTI", "oops");
    row("int3 5.10", "[ 1895.979316] int3: 0000 [#1] SMP", "oops");
    row("overflow", "[    1.0] overflow: 0000 [#1] SMP", "oops");
    row("bounds", "[    1.0] bounds: 0000 [#1] SMP", "oops");
    row("coprocessor segment overrun", "[    1.0] coprocessor segment overrun: 0000 [#1] SMP",
        "oops");
    row("invalid TSS", "[    1.0] invalid TSS: 0018 [#1] SMP", "oops");
    row("segment not present", "[    1.0] segment not present: 0010 [#1] PREEMPT SMP NOPTI",
        "oops");
    row("alignment check", "[    1.0] alignment check: 0000 [#1] SMP", "oops");
    row("6.12 Oops: int3", "[    6.463487] Oops: int3: 0000 [#1] PREEMPT_RT SMP NOPTI", "oops");
    // Not a die() header: a line that names a trap without its error code and counter.
    row("int3 text", "[    1.0] int3: breakpoint hit at kprobe", "");
    row("arm internal error", "[    1.0] Internal error: Oops: 96000005 [#1] SMP", "oops");
    row("riscv oops", "[    1.0] Oops [#1]", "oops");
    row("riscv illegal instruction", "[    1.0] Oops - illegal instruction [#1]", "oops");
    row("riscv store fault", "[    1.0] Oops - store (or AMO) access fault [#2]", "oops");
    row("riscv BUG", "[    1.0] Kernel BUG [#1]", "oops");
    row("mips oops", "[    1.0] Oops[#1]:", "oops");
    // s390's die(): the program check's name, its code and instruction length.
    row("s390 oops", "[    1.0] Oops: 0004 ilc:3 [#1] PREEMPT SMP", "oops");
    row("s390 BUG", "[    1.0] monitor event: 0040 ilc:2 [#1]PREEMPT SMP", "oops");
    row("s390 illegal operation", "[    1.0] illegal operation: 0001 ilc:1 [#2] SMP", "oops");
    row("s390 caller id", "[    1.0][    T1] specification exception: 0006 ilc:2 [#1] SMP", "oops");
    row("s390 raw", "HFP divide exception: 000f ilc:2 [#1] SMP", "oops");
    row("s390 quoted", "[    1.0] gizmo: saw 'illegal operation: 0001 ilc:1 [#2]'", "");
    row("powerpc 4.x data fault",
        "[    1.0] Unable to handle kernel paging request for data at address 0x00000000", "bug");
    row("powerpc 4.x fetch fault",
        "[    1.0] Unable to handle kernel paging request for instruction fetch", "bug");
    row("mips BUG", "[    1.0] Kernel bug detected[#1]:", "oops");
    row("mips unaligned", "[    1.0] Unhandled kernel unaligned access[#2]:", "oops");
    row("loongarch BUG", "[    1.0] Oops - BUG[#1]:", "oops");
    row("die counter quoted", "[    1.0] gizmo: Kernel bug detected[#1]: twice", "");
    row("mips fault",
        "[    1.0] CPU 0 Unable to handle kernel paging request at virtual address 00000004, "
        "epc == c04a21c4, ra == c04a21b0",
        "bug");
    row("loongarch fault",
        "[    1.0] CPU 3 Unable to handle kernel paging request at virtual address "
        "ffff800000002064, era == 9000000002cd2a28, ra == 9000000002cd2a10",
        "bug");
    row("s390 fault",
        "[    1.0] Unable to handle kernel pointer dereference in virtual kernel "
        "address space",
        "bug");
    row("s390 user fault",
        "[    1.0] Unable to handle kernel paging request in virtual user "
        "address space",
        "bug");
    row("oops word", "[    1.0] Oops - the widget fell over", "");
    // BUG
    row("null deref", "[    1.0] BUG: kernel NULL pointer dereference, address: 0000000000000000",
        "bug");
    row("page fault", "[    1.0] BUG: unable to handle page fault for address: ffffffffc0", "bug");
    row("kernel BUG at", "[    1.0] kernel BUG at mm/slub.c:123!", "bug");
    row("KASAN", "[    1.0] BUG: KASAN: use-after-free in foo+0x1/0x2", "kasan");
    row("KFENCE", "[    1.0] BUG: KFENCE: out-of-bounds read in bar", "kfence");
    row("UBSAN", "[    1.0] UBSAN: array-index-out-of-bounds in x.c:1:2", "ubsan");
    // WARNING and traces
    row("warning", "[    1.0] WARNING: CPU: 1 PID: 123 at kernel/foo.c:42 foo+0x1/0x2", "warning");
    row("warning no file", "[    1.0] WARNING: CPU: 0 PID: 1 at foo+0x1/0x2", "warning");
    row("end trace 5.10", "[    1.0] ---[ end trace 4f3c2b1a0d9e8f7a ]---", "trace_end");
    row("end trace 6.1", "[    1.0] ---[ end trace 0000000000000000 ]---", "trace_end");
    row("end trace 6.12 ubsan", "[    1.0] ---[ end trace ]---", "trace_end");
    row("call trace", "[    1.0] Call Trace:", "call_trace");
    row("call trace caller", "[    1.0][  T123] Call Trace:", "call_trace");
    // stalls, lockups, hung tasks, NMI
    row("rcu preempt",
        "[   21.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", "rcu_stall");
    row("rcu sched self", "[   21.0] rcu: INFO: rcu_sched self-detected stall on CPU", "rcu_stall");
    row("rcu expedited",
        "[   21.0] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: {", "rcu_stall");
    row("soft lockup", "[   40.0] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [cat:123]",
        "soft_lockup");
    row("hard lockup 5.10/6.1", "[   40.0] NMI watchdog: Watchdog detected hard LOCKUP on cpu 1",
        "hard_lockup");
    row("hard lockup 6.12", "[   40.0] watchdog: Watchdog detected hard LOCKUP on cpu 3",
        "hard_lockup");
    row("hung task", "[  245.0] INFO: task kworker/0:1:12 blocked for more than 122 seconds.",
        "hung_task");
    row("nmi send", "[    1.0] Sending NMI from CPU 0 to CPUs 1:", "nmi_backtrace");
    row("nmi for cpu", "[    1.0] NMI backtrace for cpu 1", "nmi_backtrace");
    row("nmi skipped", "[    1.0] NMI backtrace for cpu 1 skipped: idling at x+0x1/0x2",
        "nmi_backtrace");
    // sysrq
    row("sysrq crash", "[   30.7] sysrq: Trigger a crash", "sysrq");
    row("sysrq show state", "[   10.0] sysrq: Show State", "sysrq");
    row("sysrq blocked", "[   10.0] sysrq: Show Blocked State", "sysrq");
    row("sysrq old", "[   10.0] SysRq : Show backtrace of all active CPUs", "sysrq");
    // boot, reboot, console
    row("boot banner", "[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@x)", "boot");
    row("reboot restart", "[   99.0] reboot: Restarting system", "reboot");
    row("reboot power down", "[   46.0] reboot: Power down", "reboot");
    row("reboot halted", "[   46.0] reboot: System halted", "reboot");
    // firmware: what a machine prints before its kernel (a new boot is starting)
    row("terminal reset",
        "\x1b"
        "c\x1b[?7l\x1b[2J\x1b[0mSeaBIOS (version 1.16.2-debian-1.16.2-1)",
        "firmware");
    row("seabios plain", "SeaBIOS (version rel-1.16.3-0-ga6ed6b701f0a)", "firmware");
    row("booting from rom", "Booting from ROM...", "firmware");
    row("booting from disk", "Booting from Hard Disk...", "firmware");
    row("ipxe", "iPXE (http://ipxe.org) 00:03.0 CA00 PCI2.10 PnP PMM+1EFCF000+1EF0F000 CA00",
        "firmware");
    row("u-boot", "U-Boot 2023.01-rc4 (Jan 10 2023 - 10:00:00 +0000)", "firmware");
    row("u-boot spl", "U-Boot SPL 2022.10 (Oct 03 2022 - 12:00:00 +0000)", "firmware");
    row("spl trying", "Trying to boot from MMC1", "firmware");
    row("edk2", "BdsDxe: loading Boot0001 \"UEFI QEMU DVD-ROM QM00003 \"", "firmware");
    row("tf-a", "NOTICE:  BL31: v2.8(release):v2.8", "firmware");
    row("coreboot", "coreboot-4.19 Thu Jan 12 2023 bootblock starting (log level: 7)...",
        "firmware");
    row("kernel line mentioning seabios", "[    0.000000] DMI: BIOS SeaBIOS 1.16.2", "");
    row("u-boot word in a message", "[    3.0] fw: U-Boot environment at 0x100", "");
    row("console 5.10/6.1", "[    0.1] printk: console [ttyS0] enabled", "console");
    row("bootconsole", "[    0.2] printk: bootconsole [earlycon0] disabled", "console");
    row("6.12 legacy console", "[    0.1] printk: legacy console [ttyS0] enabled", "console");
    row("6.12 legacy bootconsole", "[    0.2] printk: legacy bootconsole [uart0] disabled",
        "console");
    // crash reporters of 4.x to 6.12 (KERNEL_STRINGS.md, the kernel's format strings)
    row("gpf non-canonical 5.x",
        "[    1.0] general protection fault, probably for non-canonical address "
        "0xdffffc0000000001: 0000 [#1] PREEMPT SMP KASAN",
        "oops");
    row("double fault panic", "[    1.0] PANIC: double fault, error_code: 0x0", "oops");
    row("4.x null deref",
        "[    1.0] BUG: unable to handle kernel NULL pointer dereference at 0000000000000008",
        "bug");
    row("arm64 null deref",
        "[    1.0] Unable to handle kernel NULL pointer dereference at virtual address "
        "0000000000000010",
        "bug");
    row("arm64 oops", "[    1.0] Internal error: Oops: 0000000096000005 [#1] PREEMPT SMP", "oops");
    row("KASAN caller id", "[    1.0][ T1] BUG: KASAN: slab-out-of-bounds in f+0x1/0x2", "kasan");
    row("KMSAN", "[    1.0] BUG: KMSAN: kernel-infoleak in f+0x1/0x2", "kmsan");
    row("KCSAN", "[    1.0] BUG: KCSAN: data-race in a / b", "kcsan");
    row("UBSAN old", "[    1.0] UBSAN: Undefined behaviour in x.c:1:2", "ubsan");
    row("lockdep circular", "[    1.0] WARNING: possible circular locking dependency detected",
        "lockdep");
    row("lockdep recursive", "[    1.0] WARNING: possible recursive locking detected", "lockdep");
    row("lockdep inconsistent", "[    1.0] WARNING: inconsistent lock state", "lockdep");
    row("lockdep unlock", "[    1.0] WARNING: bad unlock balance detected!", "lockdep");
    row("lockdep rcu", "[    1.0] WARNING: suspicious RCU usage", "lockdep");
    row("lockdep irq", "[    1.0] WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected",
        "lockdep");
    row("lockdep still held", "[    1.0] WARNING: kworker/0:1/12 still has locks held!", "lockdep");
    row("lockdep 4.9", "[    1.0] [ INFO: possible circular locking dependency detected ]",
        "lockdep");
    row("lockdep 4.9 bug", "[    1.0] [ BUG: bad unlock balance detected! ]", "lockdep");
    row("lockdep nonstatic", "[    1.0] INFO: trying to register non-static key.", "lockdep");
    row("lockdep keys", "[    1.0] BUG: MAX_LOCKDEP_KEYS too low!", "lockdep");
    row("kmemleak object", "[    1.0] unreferenced object 0xffff8880 (size 64):", "memory_leak");
    row("kmemleak summary", "[    1.0] kmemleak: 2 new suspected memory leaks (see x)",
        "memory_leak");
    row("oom killed", "[    1.0] Out of memory: Killed process 9 (a) total-vm:1kB", "oom");
    row("oom 4.x", "[    1.0] Out of memory: Kill process 9 (a) score 9 or sacrifice child", "oom");
    row("warning 3.x", "[    1.0] WARNING: at kernel/x.c:3 f()", "warning");
    row("warning caller C", "[    1.0][    C1] WARNING: CPU: 1 PID: 0 at x.c:3 f+0x1/0x2",
        "warning");
    row("warning syslog level", "<4>[    1.0] WARNING: CPU: 1 PID: 0 at x.c:3 f+0x1/0x2",
        "warning");
    row("warning after garbage",
        "\x1b[0m\x1b[2J[    1.000000] WARNING: CPU: 1 PID: 0 at x.c:3 f+0x1/0x2", "warning");
    row("refcount", "[    1.0] refcount_t: saturated; leaking memory.", "warning");
    row("odebug 5.10",
        "[    1.0] ODEBUG: activate active (active state 0) object type: work_struct hint: "
        "foo+0x0/0x30 [foo]",
        "warning");
    row("odebug 6.x",
        "[    1.0] ODEBUG: free active (active state 0) object: ffff88800a1b2c00 object type: "
        "timer_list hint: bar+0x0/0x40",
        "warning");
    // __debug_object_init's check, before its WARN_ON: 3.10's and 6.x's words.
    row("odebug on stack 3.10", "[    1.0] ODEBUG: object is on stack, but not annotated",
        "warning");
    row("odebug on stack 6.x",
        "[    1.0] ODEBUG: object 00000000a1b2c3d4 is on stack 0000000012345678, but NOT "
        "annotated.",
        "warning");
    row("odebug not on stack",
        "[    1.0] ODEBUG: object 00000000a1b2c3d4 is NOT on stack 0000000012345678, but "
        "annotated.",
        "warning");
    row("odebug pool", "[    1.0] ODEBUG: Out of memory. ODEBUG disabled", "");
    row("old soft lockup", "[    1.0] NMI watchdog: BUG: soft lockup - CPU#0 stuck for 23s! [a:1]",
        "soft_lockup");
    row("hung io wait",
        "[    1.0] INFO: task dd:456 blocked in I/O wait for more than 122 seconds.", "hung_task");
    row("cant die", "[    1.0] INFO: task a:1 can't die for more than 143 seconds.", "hung_task");
    row("netdev wait",
        "[    1.0] unregister_netdevice: waiting for lo to become free. Usage count = 2",
        "hung_task");
    row("sleeping in atomic",
        "[    1.0] BUG: sleeping function called from invalid context at mm/slab.h:1", "bug");
    row("scheduling while atomic", "[    1.0] BUG: scheduling while atomic: a/1/0x2", "bug");
    row("stack guard", "[    1.0] BUG: stack guard page was hit at 0000 (stack is 1..2)", "bug");
    // prefixes that ordinary messages use too: not crashes
    row("pr_warn WARNING", "[    1.0] WARNING: workqueue cpumask: online intersect", "");
    row("sshd WARNING", "WARNING: /etc/ssh/moduli does not exist, using fixed modulus", "");
    row("driver WARNING", "[    1.0] WARNING: the device is slow", "");
    row("userspace BUG", "BUG: bash test failed", "");
    row("topology BUG", "[    1.0] BUG: arch topology borken", "");
    row("lockdep off", "[    1.0] INFO: lockdep is turned off.", "");
    row("nmi handler slow",
        "[    1.0] INFO: NMI handler (perf_event_nmi_handler) took too long to run: 1 msecs", "");
    row("kmemleak init", "[    1.0] kmemleak: Kernel memory leak detector initialized", "");
    // nothing
    row("noise", "[   12.0] noise: worker 1 seq 42", "");
    row("userspace", "[  OK  ] Started Journal Service.", "");
    row("warning mid-line", "[    1.0] a line mentioning WARNING: in the middle", "");
    row("panic quoted", "[    1.0] echo 'Kernel panic - not syncing: x'", "");
    row("drop text elsewhere", "[    1.0] we saw ** 5 printk messages dropped ** earlier", "");
    row("drop text at the end", "[    1.0] we saw ** 5 printk messages dropped **", "");
    row("drop text after garbage", "CC we saw ** 5 printk messages dropped ** earlier", "");
    row("power down word", "[    1.0] reboot: Powering something", "");
}

void TstRules::builtin()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, kinds);
    QFETCH(int, count);
    static const RuleSet rules = RuleSet::builtin();
    quint32 n = 0;
    const QStringList got = kindsOf(rules, line, &n);
    QCOMPARE(got.join(QLatin1Char(',')), kinds);
    if (count >= 0) {
        QCOMPARE(int(n), count);
    }
}

// Every rule of the shipped table is exercised by some row above.
void TstRules::everyRuleCovered()
{
    QFile f(QStringLiteral(":/ttyscope/rules.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const RuleSet rules = RuleSet::builtin();
    std::vector<bool> hit(rules.rules().size(), false);
    const QStringList samples = {
        "** 1 printk messages dropped ** [ 1.000000] glued",
        "[ 1.0] ** 1 printk messages dropped **", "CC** 1 printk messages dropped **",
        "** replaying previous printk message **", "[ 1.0] a: 1 callbacks suppressed",
        "[ 1.0] printk: x: 1 output lines suppressed due to ratelimiting",
        "[ 1.0] printk: Too many dropped messages.", "[ 1.0] Kernel panic - not syncing: x",
        "[ 1.0] ---[ end Kernel panic - not syncing: x ]---", "[ 1.0] Oops: x",
        "[ 1.0] Oops - illegal instruction [#1]", "[ 1.0] Kernel BUG [#1]",
        "[ 1.0] general protection fault: 0000 [#1]", "[ 1.0] invalid opcode: 0000 [#1]",
        "[ 1.0] divide error: 0000 [#1]", "[ 1.0] stack segment: 0000 [#1]",
        "[ 1.0] double fault: 0000 [#1]", "[ 1.0] PANIC: double fault, error_code: 0x0",
        "[ 1.0] int3: 0000 [#1]", "[ 1.0] overflow: 0000 [#1]", "[ 1.0] bounds: 0000 [#1]",
        "[ 1.0] coprocessor segment overrun: 0000 [#1]", "[ 1.0] invalid TSS: 0000 [#1]",
        "[ 1.0] segment not present: 0000 [#1]", "[ 1.0] alignment check: 0000 [#1]",
        "[ 1.0] Internal error: Oops: 96000005 [#1] SMP",
        "[ 1.0] monitor event: 0040 ilc:2 [#1] SMP",
        "[ 1.0] Unable to handle kernel pointer dereference in virtual kernel address space",
        "[ 1.0] Unable to handle kernel paging request for data at address 0x00000000",
        "[ 1.0] Kernel bug detected[#1]:",
        "[ 1.0] CPU 0 Unable to handle kernel paging request at virtual address 0, epc == 1, ",
        "[ 1.0] BUG: unable to handle kernel paging request at ffffffffa0001000",
        "[ 1.0] Unable to handle kernel paging request at virtual address dead000000000108",
        "[ 1.0] kernel BUG at mm/slub.c:1!",
        "[ 1.0] Kernel BUG at c0000000001234 [verbose debug info unavailable]",
        "[ 1.0] BUG: TASK stack guard page was hit at 00000000deadbeef (stack is 0..1)",
        "[ 1.0] BUG: sleeping function called from invalid context at mm/slab.h:1",
        "[ 1.0] BUG: scheduling while atomic: swapper/0/0/0x00000002",
        "[ 1.0] BUG: spinlock lockup suspected on CPU#0, swapper/0/1",
        "[ 1.0] BUG: workqueue lockup - pool cpus=0 node=0 flags=0x0 nice=0 stuck for 31s!",
        "[ 1.0] BUG: Bad page state in process syz  pfn:1a2b3",
        "[ 1.0] BUG: non-zero pgtables_bytes on freeing mm: 4096",
        "[ 1.0] BUG: using smp_processor_id() in preemptible [00000000] code: a/1",
        // fs/dcache.c: "%p{i=%lx,n=%pd} " " still in use": two spaces, and a name may
        // hold spaces of its own.
        "[ 1.0] BUG: Dentry 00000000a1b2c3d4{i=2a,n=my file}  still in use (1) [unmount of tmpfs "
        "tmpfs]",
        "[ 1.0] BUG: failure at drivers/x.c:1/x()!",
        "[ 1.0] BUG kmalloc-128 (Not tainted): Object already free",
        "[ 1.0] VFS: Busy inodes after unmount of loop0 (ext4)",
        "[ 1.0] BUG: KASAN: slab-use-after-free in foo+0x1/0x2",
        "[ 1.0] BUG: KFENCE: use-after-free read in foo+0x1/0x2",
        "[ 1.0] BUG: KMSAN: uninit-value in foo+0x1/0x2", "[ 1.0] BUG: KCSAN: data-race in a / b",
        "[ 1.0] UBSAN: shift-out-of-bounds in x.c:1:2",
        "[ 1.0] WARNING: possible circular locking dependency detected",
        "[ 1.0] BUG: Invalid wait context", "[ 1.0] [ INFO: possible recursive locking detected ]",
        "[ 1.0] [ BUG: held lock freed! ]", "[ 1.0] INFO: trying to register non-static key.",
        "[ 1.0] BUG: MAX_LOCKDEP_KEYS too low!",
        "[ 1.0] BUG: key ffff888001 has not been registered!",
        "[ 1.0] BUG: looking up invalid subclass: 9",
        "[ 1.0] unreferenced object 0xffff888004b2c000 (size 64):",
        "[ 1.0] kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)",
        "BUG: memory leak", "[ 1.0] Out of memory: Killed process 9 (stress) total-vm:1kB",
        "[ 1.0] Memory cgroup out of memory: Killed process 9 (stress) total-vm:1kB",
        "[ 1.0] WARNING: CPU: 1 PID: 2 at x.c:3 f+0x1/0x2", "[ 1.0] WARNING: at kernel/x.c:3 f()",
        "[ 1.0] WARNING: kernel/x.c:3 at f+0x1/0x2, CPU#1: a/2",
        "[ 1.0] refcount_t: underflow; use-after-free.", "[ 1.0] ---[ end trace ]---",
        "[ 1.0] ODEBUG: free active (active state 0) object type: timer_list hint: f+0x0/0x1",
        "[ 1.0] Call Trace:", "[ 1.0] Call trace:", "[ 1.0] rcu: INFO: rcu_preempt detected stalls",
        "[ 1.0] INFO: rcu_sched detected stalls",
        "[ 1.0] watchdog: BUG: soft lockup - CPU#1 stuck for 2s!",
        "[ 1.0] NMI watchdog: BUG: soft lockup - CPU#1 stuck for 2s!",
        "[ 1.0] BUG: soft lockup - CPU#1 stuck for 2s!",
        "[ 1.0] NMI watchdog: Watchdog detected hard LOCKUP on cpu 1",
        "[ 1.0] watchdog: Watchdog detected hard LOCKUP on cpu 1",
        "[ 1.0] INFO: task a:1 blocked for more than 1 seconds.",
        "[ 1.0] INFO: task a:1 blocked in I/O wait for more than 1 seconds.",
        "[ 1.0] INFO: task a:1 can't die for more than 1 seconds.",
        "[ 1.0] unregister_netdevice: waiting for lo to become free. Usage count = 2",
        "[ 1.0] NMI backtrace for cpu 1",
        "[ 1.0] Sending NMI from CPU 0 to CPUs 1:", "[ 1.0] sysrq: x", "[ 1.0] SysRq : x",
        "[ 1.0] Linux version 6", "[ 1.0] reboot: Power down", "[ 1.0] Rebooting in 1 seconds",
        "[ 1.0] printk: console [ttyS0] enabled",
        QStringLiteral("\x1b"
                       "c"),
        "SeaBIOS (version 1)", "Booting from ROM..", "iPXE (http://ipxe.org)", "U-Boot 2023.01",
        "Trying to boot from MMC1", "BdsDxe: x", "NOTICE:  BL31: v2",
        "coreboot-4 x bootblock starting"};
    for (const QString &sample : samples) {
        const QByteArray line = sample.toLatin1();
        const std::string_view s(line.constData(), std::size_t(line.size()));
        rules.match(s, parseKernelPrefix(s).message, 0,
                    [&](const RuleSet::Match &m) { hit[std::size_t(m.rule)] = true; });
    }
    for (std::size_t r = 0; r < hit.size(); ++r) {
        // Speed: a rule without a leading literal would run its regex on every line. (The
        // terminal reset ESC c is two bytes, but only lines starting with ESC try it.)
        const RuleSet::Rule &rule = rules.rules()[r];
        QVERIFY2(rule.anchor == RuleSet::Anchor::Anywhere || rule.literal.size() >= 3 ||
                     (rule.anchor == RuleSet::Anchor::Line && rule.literal == "\x1b"
                                                                              "c"),
                 qPrintable(rule.name));
        QVERIFY2(
            hit[r],
            qPrintable(
                QStringLiteral("rule %1 (%2) untested").arg(r + 1).arg(rules.rules()[r].name)));
    }
}

// Drop notices in a loaded run: every placement is summed, not double counted; a kernel
// message quoting one is none.
void TstRules::dropsInARun()
{
    const QByteArray in("[    1.000000] a\n"
                        "** 5 printk messages dropped **\n"
                        "** 2 printk messages dropped ** [    1.100000] glued (<= 5.9)\n"
                        "[    1.200000] ** 7 printk messages dropped **\n"
                        "** replaying previous printk message **\n"
                        "CCCCCCCC** 1196 printk messages dropped **\n"
                        "[    1.300000] we saw ** 9 printk messages dropped **\n");
    const auto run = loadBytes(in);
    QVERIFY(run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.dropNotices, qint64(4));
    QCOMPARE(m.droppedMessages, qint64(1210));
    QCOMPARE(m.eventCounts[std::size_t(EventKind::Console)], qint64(1));
    QCOMPARE(run->lines.kernelTime(LineIndex(2)), KernelUs(1100000));
}

namespace {

// Where the dropped messages of each drop notice lie, found the plain way: the nearest
// lines with a kernel time on each side, within the boot and 4,096 lines (Run::placeDrops
// shares its searches between neighbouring drops; it must find the same).
QString dropNeighboursDiffer(const Run &run)
{
    const LineCount look(4096);
    std::size_t k = 0;
    for (std::size_t e = 0; e < run.events.size(); ++e) {
        const Event &ev = run.events[e];
        if (ev.kind != EventKind::Drop) {
            continue;
        }
        const Boot &b =
            run.boots[std::size_t(run.bootOf(std::min(ev.line, run.lines.endIndex() - 1_lines)))];
        std::optional<LineIndex> before, after;
        for (LineIndex i = ev.line - 1_lines; i >= std::max(b.first, ev.line - look) && !before;
             --i) {
            before = run.lines.kernelTime(i) ? std::optional<LineIndex>(i) : std::nullopt;
        }
        for (LineIndex i = ev.line; i < std::min(b.end, ev.line + look) && !after; ++i) {
            after = run.lines.kernelTime(i) ? std::optional<LineIndex>(i) : std::nullopt;
        }
        if (k >= run.drops.size() || run.drops[k].event != e || run.drops[k].before != before ||
            run.drops[k].after != after) {
            return QStringLiteral("drop %1 (line %2)").arg(k).arg(ev.line.value());
        }
        ++k;
    }
    return k == run.drops.size() ? QString() : QStringLiteral("%1 drops too many").arg(k);
}

} // namespace

// The neighbours of drop notices: close together, far apart (more than the 4,096 lines
// looked at), in stretches without kernel times and across boots.
void TstRules::dropNeighbours()
{
    QByteArray in("[    1.000000] a\n"                // 0
                  "** 1 printk messages dropped **\n" // 1: between 0 and 3
                  "** 2 printk messages dropped **\n" // 2: the same
                  "[    1.100000] b\n");              // 3
    in += QByteArray("untimed\n").repeated(4100);     // 4..4103
    in += "** 3 printk messages dropped **\n"         // 4104: 3 is out of reach
          "** 4 printk messages dropped **\n"         // 4105: the same
          "[    1.200000] c\n";                       // 4106
    in += QByteArray("untimed\n").repeated(5000);     // 4107..9106
    // The untimed lines after the last kernel line are the next boot's (firmware), so
    // the notice at 9107 has nothing before it in its boot, and the banner after it.
    in += "** 5 printk messages dropped **\n" // 9107
          "[    0.000000] Linux version 6.1.0-1-amd64 (debian-kernel@lists.debian.org) #1\n"
          "** 6 printk messages dropped ** [    0.100000] glued\n"; // 9109: its own line
    const auto run = loadBytes(in);
    QVERIFY(run);
    QCOMPARE(run->boots.size(), std::size_t(2));
    QCOMPARE(run->boots[1].first, LineIndex(4107));
    QCOMPARE(run->drops.size(), std::size_t(6));
    using L = std::optional<LineIndex>;
    const std::vector<std::pair<L, L>> expected = {
        {LineIndex(0), LineIndex(3)},    {LineIndex(0), LineIndex(3)},
        {std::nullopt, LineIndex(4106)}, {std::nullopt, LineIndex(4106)},
        {std::nullopt, LineIndex(9108)}, {LineIndex(9108), LineIndex(9109)}};
    for (std::size_t k = 0; k < expected.size(); ++k) {
        const auto line = [](L l) { return l ? int(l->value()) : -1; };
        QVERIFY2(run->drops[k].before == expected[k].first &&
                     run->drops[k].after == expected[k].second,
                 qPrintable(QStringLiteral("drop %1: %2, %3")
                                .arg(k)
                                .arg(line(run->drops[k].before))
                                .arg(line(run->drops[k].after))));
    }
    QCOMPARE(dropNeighboursDiffer(*run), QString());

    // A real flood: 1,580 drop notices among 11,365 lines.
    const auto flood = loadBytes(zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-k612rt-smp4-115200-t1.raw.zst")));
    QVERIFY(flood);
    QCOMPARE(flood->drops.size(), std::size_t(1580));
    QCOMPARE(dropNeighboursDiffer(*flood), QString());

    // Drops at random among timed and untimed lines, long stretches and boots.
    std::mt19937 random(20261205);
    QByteArray mixed;
    for (int i = 0; i < 60000; ++i) {
        const unsigned r = random() % 1000;
        if (r < 200) {
            mixed += "** 1 printk messages dropped **\n";
        } else if (r < 300) {
            mixed += "[    2.000000] ** 1 printk messages dropped **\n";
        } else if (r < 310) {
            mixed += QByteArray("untimed\n").repeated(int(random() % 6000));
        } else if (r < 312) {
            mixed += "[    0.000000] Linux version 6.1.0-1-amd64 (x@y) #1\n";
        } else if (r < 700) {
            mixed += "[    2.000000] timed\n";
        } else {
            mixed += "untimed\n";
        }
    }
    const auto shuffled = loadBytes(mixed);
    QVERIFY(shuffled);
    QVERIFY(shuffled->drops.size() > 15000 && shuffled->boots.size() > 100);
    QCOMPARE(dropNeighboursDiffer(*shuffled), QString());
}

void TstRules::userMarker()
{
    RuleSet rules = RuleSet::builtin();
    QString error;
    QVERIFY(rules.addMarker(QStringLiteral("harness: (rmmod|insmod)"), &error));
    QVERIFY(rules.addMarker(QStringLiteral("fio done"), &error));
    QVERIFY(!rules.addMarker(QStringLiteral("broken("), &error));
    QVERIFY2(error.contains(QLatin1String("broken(")), qPrintable(error));
    QCOMPARE(kindsOf(rules, "[   34.1] harness: rmmod"), QStringList{"marker"});
    QCOMPARE(kindsOf(rules, "[   34.1] harness: insmod nthreads=4"), QStringList{"marker"});
    QCOMPARE(kindsOf(rules, "[   34.1] harness: poweroff"), QStringList{});
    QCOMPARE(kindsOf(rules, "userspace says fio done at last"), QStringList{"marker"});
    // A marker and a built-in kind on the same line.
    QCOMPARE(kindsOf(rules, "[ 1.0] Kernel panic - not syncing: fio done"),
             (QStringList{"marker", "panic"}));

    LoadOptions o;
    o.rules = &rules;
    const auto run = loadBytes("[ 1.0] harness: insmod\n[ 2.0] x\n[ 3.0] harness: rmmod\n", o);
    QVERIFY(run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    QCOMPARE(m.eventCounts[std::size_t(EventKind::Marker)], qint64(2));
}

// RuleSet::builtin() copies one table compiled per process: the same rules, yet flags of
// their own (a load that gave up on a rule must not make the next load skip it) and an
// unchanged shared table when a copy is extended.
void TstRules::builtinCompiledOnce()
{
    RuleSet a = RuleSet::builtin();
    const RuleSet b = RuleSet::builtin();
    const RuleSet &shared = RuleSet::builtinShared();
    QCOMPARE(a.rules().size(), shared.rules().size());
    QCOMPARE(b.rules().size(), shared.rules().size());
    for (std::size_t i = 0; i < shared.rules().size(); ++i) {
        QCOMPARE(a.rules()[i].name, shared.rules()[i].name);
        QVERIFY(a.rules()[i].regex == shared.rules()[i].regex);
        QVERIFY(a.rules()[i].overLimit != b.rules()[i].overLimit);
        QVERIFY(a.rules()[i].overLimit != shared.rules()[i].overLimit);
    }
    a.rules()[0].overLimit->store(true);
    QVERIFY(!b.rules()[0].overLimit->load());
    QVERIFY(!shared.rules()[0].overLimit->load());
    QString error;
    QVERIFY(a.addMarker(QStringLiteral("fio done"), &error));
    QCOMPARE(a.rules().size(), shared.rules().size() + 1);
    QCOMPARE(kindsOf(b, "userspace says fio done at last"), QStringList{});
    QCOMPARE(kindsOf(a, "userspace says fio done at last"), QStringList{"marker"});
}

void TstRules::customRulesFile()
{
    Files files;
    const QString path = files.write(QStringLiteral("rules.json"),
                                     R"({"rules": [
             {"kind": "drop", "at": "anywhere", "contains": "lost", "regex": "lost (?<n>\\d+) msgs"},
             {"kind": "panic", "regex": "^FATAL"},
             {"kind": "warning", "at": "line", "regex": "^WARN"}
           ]})");
    RuleSet rules;
    QString error;
    QVERIFY2(rules.loadFile(path, &error), qPrintable(error));
    QCOMPARE(rules.rules().size(), std::size_t(3));
    quint32 n = 0;
    QCOMPARE(kindsOf(rules, "[ 1.0] uart: lost 17 msgs", &n), QStringList{"drop"});
    QCOMPARE(n, 17u);
    QCOMPARE(kindsOf(rules, "[ 1.0] FATAL: x"), QStringList{"panic"});
    QCOMPARE(kindsOf(rules, "WARN at start of line"), QStringList{"warning"});
    QCOMPARE(kindsOf(rules, "[ 1.0] WARN after the prefix is not at line start"), QStringList{});
    // The built-in rules are replaced, not extended.
    QCOMPARE(kindsOf(rules, "[ 1.0] Kernel panic - not syncing: x"), QStringList{});
}

void TstRules::brokenRulesFile_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << QByteArray("{\"rules\": [") << "not valid JSON";
    QTest::newRow("no rules") << QByteArray("{\"version\": 1}") << "no \"rules\" array";
    QTest::newRow("unknown kind") << QByteArray(R"({"rules":[{"kind":"explosion","regex":"x"}]})")
                                  << "rule 1: unknown kind 'explosion'";
    QTest::newRow("bad regex")
        << QByteArray(R"({"rules":[{"kind":"bug","regex":"ok"},{"kind":"bug","regex":"(x"}]})")
        << "rule 2 (bug): bad regex";
    QTest::newRow("bad anchor") << QByteArray(
                                       R"({"rules":[{"kind":"bug","at":"end","regex":"x"}]})")
                                << "'at' must be message, line or anywhere";
}

void TstRules::brokenRulesFile()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    Files files;
    const QString path = files.write(QStringLiteral("my-rules.json"), json);
    RuleSet rules = RuleSet::builtin();
    const std::size_t before = rules.rules().size();
    QString error;
    QVERIFY(!rules.loadFile(path, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY2(error.contains(QLatin1String("my-rules.json")), qPrintable(error));
    QCOMPARE(rules.rules().size(), before); // a failed load leaves the table as it was
}

QTEST_GUILESS_MAIN(TstRules)
#include "tst_rules.moc"
