#include "crashtitle.h"

#include "crashlines.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace tty::crash {

namespace {

// Frames that belong to the reporting machinery, not to the code that went wrong. Matched
// as prefixes after leading underscores are dropped ("__kasan_report" -> "kasan_report").
// The last ones are arm's unwinder, fault handlers and exception entries.
bool isMachinery(const QString &fn)
{
    static const QStringList kPrefixes{
        QStringLiteral("dump_stack"), QStringLiteral("show_stack"),
        QStringLiteral("dump_backtrace"), QStringLiteral("show_regs"), QStringLiteral("show_trace"),
        QStringLiteral("warn"), QStringLiteral("report_bug"), QStringLiteral("handle_bug"),
        QStringLiteral("exc_invalid_op"), QStringLiteral("asm_exc_"),
        QStringLiteral("do_error_trap"), QStringLiteral("do_trap"), QStringLiteral("do_invalid_op"),
        QStringLiteral("invalid_op"), QStringLiteral("fixup_bug"), QStringLiteral("bug_handler"),
        QStringLiteral("call_break_hook"), QStringLiteral("brk_handler"),
        QStringLiteral("do_debug_exception"), QStringLiteral("el1_dbg"),
        QStringLiteral("el1h_64_sync"), QStringLiteral("el1_sync"), QStringLiteral("panic"),
        QStringLiteral("vpanic"), QStringLiteral("nmi_panic"), QStringLiteral("kasan"),
        QStringLiteral("asan_"), QStringLiteral("check_memory_region"),
        QStringLiteral("print_address_description"), QStringLiteral("print_report"),
        QStringLiteral("end_report"), QStringLiteral("start_report"), QStringLiteral("msan_"),
        QStringLiteral("kmsan"), QStringLiteral("kcsan"), QStringLiteral("tsan_"),
        QStringLiteral("kfence"), QStringLiteral("ubsan"), QStringLiteral("lockdep"),
        QStringLiteral("lock_acquire"), QStringLiteral("lock_release"),
        QStringLiteral("lock_acquired"), QStringLiteral("lock_contended"),
        QStringLiteral("validate_chain"), QStringLiteral("check_prev_add"),
        QStringLiteral("check_prevs_add"), QStringLiteral("check_noncircular"),
        QStringLiteral("check_deadlock"), QStringLiteral("print_circular_bug"),
        QStringLiteral("print_deadlock_bug"), QStringLiteral("print_usage_bug"),
        QStringLiteral("print_bad_irq_dependency"), QStringLiteral("print_irq_inversion_bug"),
        QStringLiteral("print_unlock_imbalance_bug"), QStringLiteral("mark_lock"),
        QStringLiteral("mark_usage"), QStringLiteral("mark_held_locks"),
        QStringLiteral("register_lock_class"), QStringLiteral("look_up_lock_class"),
        QStringLiteral("reacquire_held_locks"), QStringLiteral("raw_spin_lock"),
        QStringLiteral("raw_spin_unlock"), QStringLiteral("raw_spin_trylock"),
        QStringLiteral("raw_read_lock"), QStringLiteral("raw_write_lock"),
        QStringLiteral("raw_read_unlock"), QStringLiteral("raw_write_unlock"),
        QStringLiteral("do_raw_spin"), QStringLiteral("do_raw_read"),
        QStringLiteral("do_raw_write"), QStringLiteral("spin_lock"), QStringLiteral("spin_unlock"),
        QStringLiteral("spin_bug"), QStringLiteral("mutex_lock"), QStringLiteral("mutex_unlock"),
        QStringLiteral("mutex_trylock"), QStringLiteral("rt_spin_lock"),
        QStringLiteral("down_read"), QStringLiteral("down_write"), QStringLiteral("up_read"),
        QStringLiteral("up_write"), QStringLiteral("refcount_"), QStringLiteral("might_fault"),
        QStringLiteral("might_sleep"), QStringLiteral("might_resched"),
        QStringLiteral("schedule_bug"), QStringLiteral("schedule_debug"), QStringLiteral("memcpy"),
        QStringLiteral("memmove"), QStringLiteral("memset"), QStringLiteral("memcmp"),
        QStringLiteral("memchr"), QStringLiteral("strlen"), QStringLiteral("strnlen"),
        QStringLiteral("strcpy"), QStringLiteral("strncpy"), QStringLiteral("strscpy"),
        QStringLiteral("strlcpy"), QStringLiteral("strcmp"), QStringLiteral("strncmp"),
        QStringLiteral("strchr"), QStringLiteral("copy_to_user"), QStringLiteral("copy_from_user"),
        QStringLiteral("check_object_size"), QStringLiteral("check_heap_object"),
        QStringLiteral("usercopy_"), QStringLiteral("printk"), QStringLiteral("vprintk"),
        QStringLiteral("debug_print_object"), QStringLiteral("debug_check_no_obj"),
        QStringLiteral("debug_object"), QStringLiteral("check_panic_on_warn"),
        QStringLiteral("rcu_lockdep"), QStringLiteral("list_add_valid"),
        QStringLiteral("list_del_entry_valid"), QStringLiteral("list_valid"),
        QStringLiteral("oops_"), QStringLiteral("die"), QStringLiteral("bad_page"),
        QStringLiteral("page_fault_oops"), QStringLiteral("no_context"),
        QStringLiteral("kernelmode_fixup_or_oops"), QStringLiteral("do_user_addr_fault"),
        QStringLiteral("exc_page_fault"), QStringLiteral("do_kern_addr_fault"),
        QStringLiteral("do_page_fault"), QStringLiteral("do_mem_abort"),
        QStringLiteral("do_translation_fault"), QStringLiteral("do_bad_area"),
        QStringLiteral("el1_abort"), QStringLiteral("el1_da"), QStringLiteral("show_fault_oops"),
        QStringLiteral("do_general_protection"), QStringLiteral("exc_general_protection"),
        QStringLiteral("unwind_backtrace"), QStringLiteral("arm_notify_die"),
        QStringLiteral("do_DataAbort"), QStringLiteral("do_PrefetchAbort"),
        QStringLiteral("do_alignment"), QStringLiteral("do_undefinstr"),
        QStringLiteral("do_kernel_fault"), QStringLiteral("do_sect_fault"),
        QStringLiteral("dabt_svc"), QStringLiteral("pabt_svc"), QStringLiteral("irq_svc"),
        QStringLiteral("und_svc"),
        // powerpc's exception entries and user copy
        QStringLiteral("data_access_common"), QStringLiteral("instruction_access_common"),
        QStringLiteral("handle_page_fault"), QStringLiteral("do_hash_fault"),
        QStringLiteral("hash_page"), QStringLiteral("DataAccess"),
        QStringLiteral("InstructionAccess"), QStringLiteral("copy_tofrom_user"),
        QStringLiteral("program_check_common"), QStringLiteral("program_check_exception")};
    qsizetype i = 0;
    while (i < fn.size() && fn[i] == u'_') {
        ++i;
    }
    const QStringView n = QStringView(fn).mid(i);
    for (const QString &p : kPrefixes) {
        if (n.startsWith(p)) {
            return true;
        }
    }
    return false;
}

bool containsAny(const QString &fn, std::initializer_list<const char *> parts)
{
    for (const char *p : parts) {
        if (fn.contains(QLatin1String(p))) {
            return true;
        }
    }
    return false;
}

// The first function of `seq` (from `from`) that is neither machinery nor `extra`.
QString firstGuilty(const QStringList &seq, int from = 0,
                    std::initializer_list<const char *> extra = {})
{
    for (int i = std::max(0, from); i < seq.size(); ++i) {
        if (!isMachinery(seq[i]) && !containsAny(seq[i], extra)) {
            return baseName(seq[i]);
        }
    }
    return {};
}

// Stalls and lockups stop at a random point of a loop: the bug is better named by the
// frame just above the place the work was dispatched from (the syscall, the work item,
// the kthread), as CI systems do, so that the same stall gets the same title.
QString stallFunction(const Scan &s)
{
    static const QStringList kAnchors{QStringLiteral("process_one_work"),
                                      QStringLiteral("do_syscall_"),
                                      QStringLiteral("do_fast_syscall_"),
                                      QStringLiteral("invoke_syscall"),
                                      QStringLiteral("el0_svc"),
                                      QStringLiteral("netif_receive_skb"),
                                      QStringLiteral("do_softirq"),
                                      QStringLiteral("handle_softirqs"),
                                      QStringLiteral("call_timer_fn"),
                                      QStringLiteral("run_timer_softirq"),
                                      QStringLiteral("run_ksoftirqd"),
                                      QStringLiteral("smpboot_thread_fn"),
                                      QStringLiteral("kthread"),
                                      QStringLiteral("start_secondary"),
                                      QStringLiteral("secondary_start_kernel"),
                                      QStringLiteral("cpu_startup_entry"),
                                      QStringLiteral("ret_from_fork"),
                                      QStringLiteral("vfs_write"),
                                      QStringLiteral("vfs_read"),
                                      QStringLiteral("vfs_ioctl"),
                                      QStringLiteral("do_dentry_open"),
                                      QStringLiteral("handle_mm_fault"),
                                      QStringLiteral("__fput"),
                                      QStringLiteral("task_work_run"),
                                      QStringLiteral("exit_to_user"),
                                      QStringLiteral("exit_to_usermode")};
    const int from = std::max(0, s.afterTimer);
    QStringList seq;
    for (int i = from; i < s.seq.size(); ++i) {
        if (!isMachinery(s.seq[i]) && !s.seq[i].startsWith(QLatin1String("rcu_")) &&
            !s.seq[i].contains(QLatin1String("apic_timer_interrupt"))) {
            seq << s.seq[i];
        }
    }
    for (int i = 0; i < seq.size(); ++i) {
        const QString &f = seq[i];
        bool anchor = false;
        for (const QString &a : kAnchors) {
            anchor = anchor || f.startsWith(a) || f.startsWith(QLatin1Char('_') + a) ||
                     f.startsWith(QLatin1String("__") + a);
        }
        if (!anchor) {
            continue;
        }
        QString prev = baseName(i > 0 ? seq[i - 1] : f);
        for (const char *p :
             {"__x64_sys_", "__ia32_sys_", "__arm64_sys_", "__se_sys_", "__do_sys_", "ksys_"}) {
            if (prev.startsWith(QLatin1String(p))) {
                prev = QLatin1String("sys_") + prev.mid(qsizetype(std::strlen(p)));
            }
        }
        return prev;
    }
    return seq.isEmpty() ? QString() : baseName(seq.front());
}

// A hung task waits in the scheduler; the function that waits is the first one above the
// sleeping and locking primitives. Waits on RCU grace periods and RTNL are grouped.
QString hangFunction(const Scan &s)
{
    for (const QString &f : s.frames) {
        if (f.startsWith(QLatin1String("rtnl_lock"))) {
            return QStringLiteral("rtnl_lock");
        }
        if (f.startsWith(QLatin1String("synchronize_rcu")) ||
            f.startsWith(QLatin1String("synchronize_srcu")) ||
            f.startsWith(QLatin1String("synchronize_net"))) {
            return QStringLiteral("synchronize_rcu");
        }
    }
    static const QStringList kSleep{QStringLiteral("schedule"),
                                    QStringLiteral("io_schedule"),
                                    QStringLiteral("context_switch"),
                                    QStringLiteral("switch_to"),
                                    QStringLiteral("wait_"),
                                    QStringLiteral("do_wait"),
                                    QStringLiteral("folio_wait"),
                                    QStringLiteral("bit_wait"),
                                    QStringLiteral("out_of_line_wait"),
                                    QStringLiteral("prepare_to_wait"),
                                    QStringLiteral("finish_wait"),
                                    QStringLiteral("mutex_lock"),
                                    QStringLiteral("rt_mutex"),
                                    QStringLiteral("rwsem_down"),
                                    QStringLiteral("percpu_down"),
                                    QStringLiteral("down"),
                                    QStringLiteral("rt_spin_lock"),
                                    QStringLiteral("raw_spin_lock"),
                                    QStringLiteral("spin_lock"),
                                    QStringLiteral("msleep"),
                                    QStringLiteral("usleep"),
                                    QStringLiteral("ssleep"),
                                    QStringLiteral("synchronize_"),
                                    QStringLiteral("kthread_stop")};
    for (const QString &f : s.frames) {
        qsizetype i = 0;
        while (i < f.size() && f[i] == u'_') {
            ++i;
        }
        const QStringView n = QStringView(f).mid(i);
        bool sleeping = false;
        for (const QString &p : kSleep) {
            sleeping = sleeping || n.startsWith(p);
        }
        if (!sleeping) {
            return baseName(f);
        }
    }
    return {};
}

// Numbers that change from run to run: addresses, PIDs, CPUs, ages.
QString stripVolatile(QString t)
{
    static const QRegularExpression kHex(QStringLiteral("\\b(0x)?[0-9a-f]{8,}\\b"));
    static const QRegularExpression kCpu(QStringLiteral(" on (cpu|CPU#?) ?\\d+"));
    static const QRegularExpression kSpaces(QStringLiteral("  +"));
    t.replace(kHex, QString());
    t.replace(kCpu, QString());
    t.replace(kSpaces, QStringLiteral(" "));
    return t.trimmed();
}

QString withFunction(const QString &stem, const QString &fn)
{
    return fn.isEmpty() ? stem : stem + QStringLiteral(" in ") + fn;
}

QString lockdepTitle(const QString &h, const Scan &s)
{
    struct Form
    {
        const char *text;
        const char *stem;
        int source; // 0: first "at:", 1: the released lock's frame, 2: stack, 3: none
    };
    static constexpr std::array<Form, 14> kForms{{
        {"circular locking dependency", "possible deadlock", 0},
        {"recursive locking", "possible deadlock", 0},
        {"irq lock inversion", "possible deadlock", 0},
        {"-unsafe lock order", "possible deadlock", 0},
        {"inconsistent lock state", "inconsistent lock state", 0},
        {"bad unlock balance", "bad unlock balance", 1},
        {"suspicious RCU usage", "suspicious RCU usage", 2},
        {"held lock freed", "held lock freed", 0},
        {"returning to user space", "lock held when returning to user space", 0},
        {"still has locks held", "still has locks held", 2},
        {"Nested lock was not taken", "nested lock was not taken", 0},
        {"Invalid wait context", "BUG: Invalid wait context", 0},
        {"non-static key", "INFO: trying to register non-static key", 2},
        {"bad contention", "bad contention", 2},
    }};
    for (const Form &f : kForms) {
        if (!h.contains(QLatin1String(f.text))) {
            continue;
        }
        QString fn;
        if (f.source == 0) {
            fn = baseName(s.firstAt);
        } else if (f.source == 1) {
            fn = baseName(s.releaseAt.isEmpty() ? s.firstAt : s.releaseAt);
        }
        if (fn.isEmpty() || isMachinery(fn)) {
            fn = firstGuilty(s.seq, 0, {"rcu_dereference", "lock"});
        }
        return withFunction(QLatin1String(f.stem), fn);
    }
    // MAX_LOCKDEP_* too low, unregistered keys: the headline says it all.
    static const QRegularExpression kBrackets(QStringLiteral("^\\[ |\\]$"));
    QString t = h;
    t.remove(kBrackets);
    return stripVolatile(t);
}

// The function named in a sanitizer headline ("... in foo+0x12/0x40"), or the stack's.
QString sanitizerFunction(const QString &headFn, const Scan &s)
{
    QStringList seq = s.seq;
    if (!headFn.isEmpty()) {
        seq.prepend(headFn);
    }
    return firstGuilty(seq);
}

} // namespace

QString titleOf(EventKind kind, const Scan &s)
{
    const QString &h = s.headline;
    // Every pattern here is compiled once (static): a log can hold thousands of reports, and
    // compiling a pattern costs far more than matching one headline.
    auto cap = [&](const QRegularExpression &rx) {
        const QRegularExpressionMatch m = rx.match(h);
        return m.hasMatch() ? m.captured(1) : QString();
    };
    switch (kind) {
    case EventKind::Kasan:
    case EventKind::Kfence:
    case EventKind::Kmsan: {
        static const QRegularExpression kSanitizer(QStringLiteral(
            "^BUG: (KASAN|KFENCE|KMSAN): (.+?) in ([A-Za-z0-9_.$]+)(\\+0x[0-9a-f]+/0x[0-9a-f]+)?"));
        const QRegularExpressionMatch m = kSanitizer.match(h);
        if (m.hasMatch()) {
            return withFunction(QStringLiteral("BUG: %1: %2").arg(m.captured(1), m.captured(2)),
                                sanitizerFunction(m.captured(3), s));
        }
        return withFunction(stripVolatile(h.section(QLatin1String(" on address"), 0, 0)),
                            firstGuilty(s.seq));
    }
    case EventKind::Kcsan: {
        static const QRegularExpression kOffsets(QStringLiteral("\\+0x[0-9a-f]+/0x[0-9a-f]+"));
        QString t = h;
        t.remove(kOffsets);
        return stripVolatile(t);
    }
    case EventKind::Ubsan: {
        static const QRegularExpression kType(
            QStringLiteral("^UBSAN: (Undefined behaviour|[a-z][a-z-]+) in "));
        static const QRegularExpression kPlace(QStringLiteral("^UBSAN: .+? in (\\S+?)(:\\d+)*$"));
        const QString type = cap(kType);
        QString fn = firstGuilty(s.seq);
        if (fn.isEmpty()) {
            fn = cap(kPlace);
        }
        return withFunction(QStringLiteral("UBSAN: ") + type, fn);
    }
    case EventKind::Lockdep:
        return lockdepTitle(h, s);
    case EventKind::MemoryLeak:
        if (h.startsWith(QLatin1String("kmemleak:"))) {
            return QStringLiteral("kmemleak: new suspected memory leaks");
        }
        return withFunction(QStringLiteral("memory leak"),
                            firstGuilty(s.frames, 0,
                                        {"kmemleak", "alloc", "kmalloc", "kzalloc", "kcalloc",
                                         "kmem_cache", "slab", "create_object", "kstrdup",
                                         "kmemdup", "kvasprintf", "kasprintf", "pcpu_"}));
    case EventKind::Oom:
        return withFunction(
            QStringLiteral("out of memory"),
            firstGuilty(s.seq, 0,
                        {"oom", "out_of_memory", "alloc", "dump_header", "try_charge", "mem_cgroup",
                         "charge", "folio", "reclaim"}));
    case EventKind::HungTask:
        if (h.startsWith(QLatin1String("unregister_netdevice"))) {
            static const QRegularExpression kDevice(
                QStringLiteral("waiting for (\\S+) to become free"));
            return QStringLiteral("unregister_netdevice: waiting for %1 to become free")
                .arg(cap(kDevice));
        }
        return withFunction(h.contains(QLatin1String("can't die"))
                                ? QStringLiteral("INFO: task can't die")
                                : QStringLiteral("INFO: task hung"),
                            hangFunction(s));
    case EventKind::RcuStall:
        return withFunction(QStringLiteral("INFO: rcu detected stall"), stallFunction(s));
    case EventKind::SoftLockup:
        return withFunction(QStringLiteral("BUG: soft lockup"), stallFunction(s));
    case EventKind::HardLockup:
        return withFunction(QStringLiteral("watchdog: hard LOCKUP"), stallFunction(s));
    case EventKind::Warning: {
        // "WARNING: CPU: 1 PID: 2 at file.c:3 foo+0x1/0x2", "WARNING: at file.c:3 foo()"
        const QString w = s.warnLine.isEmpty() ? h : s.warnLine;
        static const QRegularExpression kAt(
            QStringLiteral(" at (?:\\S+:\\d+ )?([A-Za-z0-9_.$]+)(?:\\+0x|\\(\\)|,|$)"));
        QString fn = kAt.match(w).captured(1);
        QStringList seq = s.seq;
        if (!fn.isEmpty()) {
            seq.prepend(fn);
        }
        fn = firstGuilty(seq);
        if (h.startsWith(QLatin1String("refcount_t: "))) {
            return withFunction(h.section(QLatin1Char(';'), 0, 0).trimmed(), fn);
        }
        if (h.startsWith(QLatin1String("ODEBUG: "))) {
            // debugobjects' checks: named, as syzbot does, by the code that freed or used
            // the object, past the allocator's frames; an object on a stack without its
            // annotation, by the function whose stack it is, past the init helper.
            return withFunction(QStringLiteral("WARNING: ODEBUG bug"),
                                firstGuilty(seq, 0,
                                            {"kfree", "kmem_cache_free", "slab_free", "kvfree",
                                             "vfree", "free_pages", "free_large_kmalloc",
                                             "init_timer_key", "init_work", "hrtimer_init"}));
        }
        return withFunction(QStringLiteral("WARNING"), fn);
    }
    case EventKind::Panic: {
        const QString reason = h.section(QLatin1String("not syncing:"), 1).trimmed();
        static const QRegularExpression kCorrupted(
            QStringLiteral("stack-protector: Kernel stack is corrupted in: ([A-Za-z0-9_.$]+)"));
        const QString corrupted = cap(kCorrupted);
        if (!corrupted.isEmpty()) {
            return QStringLiteral("stack-protector: Kernel stack is corrupted in ") +
                   baseName(corrupted);
        }
        return withFunction(QStringLiteral("kernel panic: ") + stripVolatile(reason),
                            firstGuilty(s.seq));
    }
    case EventKind::Oops:
    case EventKind::Bug:
        break;
    default:
        return stripVolatile(h);
    }
    // Faults, BUG() and die() headers: named by the instruction pointer's function.
    const QString fn = firstGuilty(s.seq);
    if (!s.armFault.isEmpty() && h.startsWith(QLatin1String("Internal error: : "))) {
        // die("") after an unhandled arm fault: the fault's name is the title.
        static const QRegularExpression kFault(
            QStringLiteral("^(Unhandled (?:fault|prefetch abort): .+?) \\(0x[0-9a-f]+\\)"));
        const QRegularExpressionMatch m = kFault.match(s.armFault);
        if (m.hasMatch()) {
            return withFunction(m.captured(1), fn);
        }
    }
    struct Form
    {
        const char *re;
        const char *stem;
    };
    static constexpr std::array<Form, 34> kForms{{
        {"^BUG: (kernel NULL pointer dereference|unable to handle kernel NULL pointer|Kernel "
         "NULL pointer)",
         "BUG: kernel NULL pointer dereference"},
        {"^BUG: unable to handle (page fault|kernel paging request|kernel)",
         "BUG: unable to handle page fault"},
        {"^BUG: Unable to handle kernel (data access|instruction fetch)",
         "BUG: unable to handle page fault"},
        {"^Unable to handle kernel NULL pointer dereference",
         "Unable to handle kernel NULL pointer dereference"},
        {"^Unable to handle kernel (paging request|execute|write|access)",
         "Unable to handle kernel paging request"},
        {"^CPU \\d+ Unable to handle kernel paging request",
         "Unable to handle kernel paging request"},
        {"^Unable to handle kernel pointer dereference",
         "Unable to handle kernel pointer dereference"},
        {"^(Oops: )?general protection fault", "general protection fault"},
        {"^(Oops: )?invalid opcode", "invalid opcode"},
        {"^(Oops: )?divide error", "divide error"},
        {"^(Oops: )?stack segment", "stack segment fault"},
        {"^(Oops: )?double fault|^PANIC: double fault", "PANIC: double fault"},
        // x86's other die() traps, named as the kernel names them ("int3: 0000 [#1]" before
        // 6.12, "Oops: int3: 0000 [#1]" since): a breakpoint left by text patching, ...
        {"^(?:Oops: )?(int3|overflow|bounds|coprocessor segment overrun|invalid TSS|"
         "segment not present|alignment check): [0-9a-f]{4} \\[#",
         "%1"},
        {"^[Kk]ernel BUG at lib/list_debug", "BUG: corrupted list"},
        {"^[Kk]ernel BUG at mm/usercopy", "BUG: bad usercopy"},
        {"^[Kk]ernel BUG at", "kernel BUG"},
        {"^BUG: failure at", "kernel BUG"},
        {"^BUG: (\\S+ )?stack guard page was hit", "BUG: stack guard page was hit"},
        {"^BUG: sleeping function called from invalid context",
         "BUG: sleeping function called from invalid context"},
        {"^BUG: scheduling while atomic", "BUG: scheduling while atomic"},
        {"^BUG: using (\\S+)\\(\\) in preemptible", "BUG: using %1() in preemptible code"},
        {"^BUG: (spinlock|rwlock) ([a-zA-Z ]+) on CPU", "BUG: %1 %2"},
        {"^Internal error: ([A-Za-z -]+?)(: | \\[)", "Internal error: %1"},
        // powerpc's die() names the exception: "Oops: Kernel access of bad area, sig: 11".
        {"^Oops: ([A-Z][A-Za-z ]+), sig: \\d+", "Oops: %1"},
        {"^Oops: ", "Oops"},
        // riscv's die() ("Oops - illegal instruction [#1]", "Oops [#1]"), mips' and
        // loongarch's ("Oops[#1]:").
        {"^Oops - ([A-Za-z() -]+?) ?\\[#", "Oops - %1"},
        {"^Oops ?\\[#", "Oops"},
        // mips' and loongarch's die() after a trap: "Kernel bug detected[#1]:" (BUG()),
        // "Unhandled kernel unaligned access[#1]:".
        {"^Kernel bug detected\\[#", "kernel BUG"},
        {"^([A-Z][A-Za-z -]+?)\\[#\\d+\\]:", "%1"},
        // s390's die() after a program check: "illegal operation: 0001 ilc:1 [#1]".
        {"^([A-Za-z][A-Za-z -]+ (exception|operation|event)): [0-9a-f]{4} ilc:", "%1"},
        {"^BUG (\\S+) \\([^)]*\\): (.+)", "BUG %1: %2"},
        {"^BUG: workqueue lockup", "BUG: workqueue lockup"},
        {"^VFS: Busy inodes after unmount", "VFS: Busy inodes after unmount"},
        // The dentry's address, inode, name and count differ between runs of one bug.
        {"^BUG: Dentry .* still in use \\(\\d+\\) \\[unmount of (\\S+)",
         "BUG: Dentry still in use [unmount of %1]"},
    }};
    static const std::vector<QRegularExpression> kFormPatterns = [] {
        std::vector<QRegularExpression> patterns;
        for (const Form &f : kForms) {
            patterns.emplace_back(QString::fromLatin1(f.re));
        }
        return patterns;
    }();
    for (std::size_t i = 0; i < kForms.size(); ++i) {
        const Form &f = kForms[i];
        const QRegularExpressionMatch m = kFormPatterns[i].match(h);
        if (!m.hasMatch()) {
            continue;
        }
        QString stem = QLatin1String(f.stem);
        for (int g = 1; g <= 2 && stem.contains(QLatin1Char('%')); ++g) {
            stem = stem.arg(m.captured(g).trimmed());
        }
        if (stem.startsWith(QLatin1String("BUG: workqueue")) ||
            stem.startsWith(QLatin1String("VFS:")) ||
            stem.startsWith(QLatin1String("BUG: Dentry"))) {
            return stem; // reports without a stack of their own (the dentry's: umount's)
        }
        if (stem.startsWith(QLatin1String("BUG: scheduling while atomic"))) {
            return withFunction(stem, firstGuilty(s.seq, 0, {"schedule"}));
        }
        return withFunction(stripVolatile(stem), fn);
    }
    // Other BUG: lines (bad page state, rss-counter, ...): the text up to its details.
    static const QRegularExpression kDetails(QStringLiteral(" in process | mm:|: [0-9a-f]"));
    QString t = h;
    const qsizetype cut = t.indexOf(kDetails);
    if (cut > 0) {
        t.truncate(cut);
    }
    return withFunction(stripVolatile(t), fn);
}

} // namespace tty::crash
