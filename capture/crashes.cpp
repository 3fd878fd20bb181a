#include "crashes.h"

#include "kernelprefix.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <cstring>

namespace tty {

namespace {

// How far a report may reach past its headline, and how far past the end of its stack an
// `---[ end trace` is still looked for (lock listings and register dumps come between).
constexpr LineIndex kReportWindow = 1500;
constexpr LineIndex kEndMarkerSlack = 80;
// A consequence (`Kernel panic - not syncing: Fatal exception`, the kmemleak summary) joins
// the report before it when it comes within this many lines of that report's end.
constexpr LineIndex kConsequenceGap = 120;
// `Oops: 0000 [#1]` / `Internal error:` / `invalid opcode:` join a fault or BUG headline
// this close before them (page-fault details, `Mem abort info:` come between).
constexpr LineIndex kOopsGap = 40;

bool startsWith(std::string_view s, std::string_view p)
{
    return s.size() >= p.size() && std::memcmp(s.data(), p.data(), p.size()) == 0;
}

bool isIdentChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '$';
}

bool isHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::size_t skipSpaces(std::string_view s, std::size_t p)
{
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) {
        ++p;
    }
    return p;
}

// Skips "[<ffffffff81234567>]" / "[c000000000012345]" groups and the spaces after them.
std::size_t skipAddresses(std::string_view s, std::size_t p)
{
    p = skipSpaces(s, p);
    while (p < s.size() && s[p] == '[') {
        std::size_t q = p + 1;
        if (q < s.size() && s[q] == '<') {
            ++q;
        }
        const std::size_t digits = q;
        while (q < s.size() && isHex(s[q])) {
            ++q;
        }
        if (q == digits) {
            return p;
        }
        if (q < s.size() && s[q] == '>') {
            ++q;
        }
        if (q >= s.size() || s[q] != ']') {
            return p;
        }
        p = skipSpaces(s, q + 1);
    }
    return p;
}

// "foo+0x12/0x40" at p: the symbol, else empty.
std::string_view symbolAt(std::string_view s, std::size_t p)
{
    const std::size_t start = p;
    while (p < s.size() && isIdentChar(s[p])) {
        ++p;
    }
    if (p == start || !startsWith(s.substr(p), "+0x")) {
        return {};
    }
    std::size_t q = p + 3;
    const std::size_t hex = q;
    while (q < s.size() && isHex(s[q])) {
        ++q;
    }
    if (q == hex || !startsWith(s.substr(q), "/0x")) {
        return {};
    }
    return s.substr(start, p - start);
}

QString toQ(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// A symbol as a title shows it: compiler suffixes (.isra.0, .cold, .constprop.3) dropped.
QString baseName(const QString &sym)
{
    const qsizetype dot = sym.indexOf(u'.', 1);
    return dot > 0 ? sym.left(dot) : sym;
}

// The function of an instruction-pointer line: x86 `RIP: 0010:foo+0x1/0x2` (and the
// 4.x `RIP: 0010:[<addr>]  [<addr>] foo+...`, `IP: foo+...`), i386 `EIP:`, arm64
// `pc : foo+...`, arm `PC is at foo+...`, riscv `epc : `, powerpc `NIP [addr] foo+...`.
QString ipFunction(std::string_view m)
{
    static constexpr std::array<std::string_view, 7> kPrefixes{
        "RIP: ", "IP: ", "EIP: ", "pc : ", "PC is at ", "epc : ", "NIP "};
    for (std::string_view p : kPrefixes) {
        if (!startsWith(m, p)) {
            continue;
        }
        std::size_t q = p.size();
        // The code segment of RIP/EIP lines: "0010:".
        if (q + 5 <= m.size() && isHex(m[q]) && isHex(m[q + 1]) && isHex(m[q + 2]) &&
            isHex(m[q + 3]) && m[q + 4] == ':') {
            q += 5;
        }
        q = skipAddresses(m, q);
        return toQ(symbolAt(m, q));
    }
    return {};
}

// The function after "at:" of a lockdep lock line ("..., at: foo+0x1/0x2").
QString atFunction(std::string_view m)
{
    const std::size_t at = m.find("at: ");
    if (at == std::string_view::npos) {
        return {};
    }
    return toQ(symbolAt(m, skipAddresses(m, at + 4)));
}

bool isSeparator(std::string_view m)
{
    // KASAN, KCSAN, KFENCE, KMSAN, UBSAN and slab reports are framed by lines of '='.
    return m.size() >= 20 && m.find_first_not_of('=') == std::string_view::npos;
}

// Lines that may stand inside a stack without ending it.
bool isTraceFiller(std::string_view m)
{
    m = m.substr(std::min(m.size(), skipSpaces(m, 0)));
    if (m.empty() || m[0] == '<') { // <TASK> </TASK> <IRQ> </IRQ> <NMI> <EOI>
        return true;
    }
    static constexpr std::array<std::string_view, 16> kFill{
        "RIP: ", "RSP: ", "RAX: ", "RDX: ", "RBP: ", "R10: ", "R13: ", "Code: ",
        "FS: ",  "CS: ",  "CR2: ", "DR0: ", "DR3: ", "DR6: ", "EIP: ", "---"};
    for (std::string_view f : kFill) {
        if (startsWith(m, f)) {
            return true;
        }
    }
    return startsWith(m, "Call Trace:") || startsWith(m, "Call trace:") ||
           startsWith(m, "Exception stack") || startsWith(m, "irq event stamp") ||
           startsWith(m, "hardirqs ") || startsWith(m, "softirqs ") || m.find("... ") == 0;
}

struct LineInfo
{
    std::string_view msg;
    char callerKind = 0;
    int callerId = -1;
};

LineInfo infoOf(std::string_view text)
{
    while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) {
        text.remove_suffix(1);
    }
    const KernelPrefix p = parseKernelPrefix(text);
    LineInfo li;
    li.msg = text.substr(std::min(p.message, text.size()));
    li.callerKind = p.callerKind;
    li.callerId = p.callerId;
    return li;
}

// Everything the title needs from a report's lines.
struct Scan
{
    QString headline;   // the headline's message
    QString warnLine;   // the WARNING: line of a splat headed by `refcount_t:`
    QString firstAt;    // first lockdep "at: FUNC"
    QString releaseAt;  // lockdep: the frame after "is trying to release lock"
    QString oomInvoked; // the OOM report's "invoked oom-killer" line
    // Functions in the order printed: instruction-pointer lines and reliable frames of
    // the report's first stack.
    QStringList seq;
    int afterTimer = -1; // seq index after the last *apic_timer_interrupt frame
    QStringList frames;
};

// Reads one line of a report into `s`; returns false once the first stack has ended.
class StackReader
{
public:
    StackReader(EventKind kind, const QString &headline)
        : m_kind(kind),
          // Reports that print a dependency chain give their own stack after
          // "stack backtrace:"; the others (non-static key, MAX_* too low) at once.
          m_lockdepStack(kind != EventKind::Lockdep ||
                         headline.contains(QLatin1String("non-static key")) ||
                         headline.contains(QLatin1String("too low")) ||
                         headline.contains(QLatin1String("not been registered")) ||
                         headline.contains(QLatin1String("invalid subclass")))
    {
    }

    void feed(std::string_view m, Scan *s)
    {
        if (m_kind == EventKind::Lockdep) {
            lockdepLine(m, s);
        }
        if (m_done) {
            return;
        }
        if (m_kind == EventKind::Lockdep && !m_lockdepStack) {
            // Lockdep prints the dependency chain's stacks first; its own is after this.
            if (startsWith(m, "stack backtrace:")) {
                m_lockdepStack = true;
            }
            return;
        }
        if (m_kind == EventKind::Kasan || m_kind == EventKind::Kfence) {
            // The stacks of allocation and free come after the access's.
            if (startsWith(m, "Allocated by task") || startsWith(m, "Freed by task") ||
                startsWith(m, "The buggy address") || startsWith(m, "allocated by task")) {
                m_done = m_inStack || !s->seq.isEmpty();
                return;
            }
        }
        const QString ip = ipFunction(m);
        if (!ip.isEmpty()) {
            s->seq << ip;
            return;
        }
        bool unreliable = false;
        const QString f = frameFunction(m, &unreliable);
        if (!f.isEmpty()) {
            m_inStack = true;
            if (!unreliable) {
                s->seq << f;
                s->frames << f;
                if (f.contains(QLatin1String("apic_timer_interrupt"))) {
                    s->afterTimer = int(s->seq.size());
                }
            }
            return;
        }
        const std::string_view t = m.substr(std::min(m.size(), skipSpaces(m, 0)));
        if (startsWith(t, "Call Trace:") || startsWith(t, "Call trace:") ||
            startsWith(t, "backtrace")) { // kmemleak: "backtrace:", "backtrace (crc ...):"

            m_inStack = true;
            return;
        }
        if (m_inStack && !isTraceFiller(m)) {
            m_done = true;
        }
    }
    bool stackStarted() const { return m_inStack; }
    bool stackDone() const { return m_done; }

private:
    void lockdepLine(std::string_view m, Scan *s)
    {
        if (m_releasePending) {
            const QString f = frameFunction(m);
            if (!f.isEmpty() && s->releaseAt.isEmpty()) {
                s->releaseAt = f;
                m_releasePending = false;
            }
        }
        if (m.find("is trying to release lock") != std::string_view::npos) {
            m_releasePending = true;
        }
        if (s->firstAt.isEmpty() && m.find("at: ") != std::string_view::npos) {
            s->firstAt = atFunction(m);
        }
    }

    EventKind m_kind;
    bool m_inStack = false;
    bool m_done = false;
    bool m_lockdepStack;
    bool m_releasePending = false;
};

// Frames that belong to the reporting machinery, not to the code that went wrong. Matched
// as prefixes after leading underscores are dropped ("__kasan_report" -> "kasan_report").
bool isMachinery(const QString &fn)
{
    static const QStringList kPrefixes{QStringLiteral("dump_stack"),
                                       QStringLiteral("show_stack"),
                                       QStringLiteral("dump_backtrace"),
                                       QStringLiteral("show_regs"),
                                       QStringLiteral("show_trace"),
                                       QStringLiteral("warn"),
                                       QStringLiteral("report_bug"),
                                       QStringLiteral("handle_bug"),
                                       QStringLiteral("exc_invalid_op"),
                                       QStringLiteral("asm_exc_"),
                                       QStringLiteral("do_error_trap"),
                                       QStringLiteral("do_trap"),
                                       QStringLiteral("do_invalid_op"),
                                       QStringLiteral("invalid_op"),
                                       QStringLiteral("fixup_bug"),
                                       QStringLiteral("bug_handler"),
                                       QStringLiteral("call_break_hook"),
                                       QStringLiteral("brk_handler"),
                                       QStringLiteral("do_debug_exception"),
                                       QStringLiteral("el1_dbg"),
                                       QStringLiteral("el1h_64_sync"),
                                       QStringLiteral("el1_sync"),
                                       QStringLiteral("panic"),
                                       QStringLiteral("vpanic"),
                                       QStringLiteral("nmi_panic"),
                                       QStringLiteral("kasan"),
                                       QStringLiteral("asan_"),
                                       QStringLiteral("check_memory_region"),
                                       QStringLiteral("print_address_description"),
                                       QStringLiteral("print_report"),
                                       QStringLiteral("end_report"),
                                       QStringLiteral("start_report"),
                                       QStringLiteral("msan_"),
                                       QStringLiteral("kmsan"),
                                       QStringLiteral("kcsan"),
                                       QStringLiteral("tsan_"),
                                       QStringLiteral("kfence"),
                                       QStringLiteral("ubsan"),
                                       QStringLiteral("lockdep"),
                                       QStringLiteral("lock_acquire"),
                                       QStringLiteral("lock_release"),
                                       QStringLiteral("lock_acquired"),
                                       QStringLiteral("lock_contended"),
                                       QStringLiteral("validate_chain"),
                                       QStringLiteral("check_prev_add"),
                                       QStringLiteral("check_prevs_add"),
                                       QStringLiteral("check_noncircular"),
                                       QStringLiteral("check_deadlock"),
                                       QStringLiteral("print_circular_bug"),
                                       QStringLiteral("print_deadlock_bug"),
                                       QStringLiteral("print_usage_bug"),
                                       QStringLiteral("print_bad_irq_dependency"),
                                       QStringLiteral("print_irq_inversion_bug"),
                                       QStringLiteral("print_unlock_imbalance_bug"),
                                       QStringLiteral("mark_lock"),
                                       QStringLiteral("mark_usage"),
                                       QStringLiteral("mark_held_locks"),
                                       QStringLiteral("register_lock_class"),
                                       QStringLiteral("look_up_lock_class"),
                                       QStringLiteral("reacquire_held_locks"),
                                       QStringLiteral("raw_spin_lock"),
                                       QStringLiteral("raw_spin_unlock"),
                                       QStringLiteral("raw_spin_trylock"),
                                       QStringLiteral("raw_read_lock"),
                                       QStringLiteral("raw_write_lock"),
                                       QStringLiteral("raw_read_unlock"),
                                       QStringLiteral("raw_write_unlock"),
                                       QStringLiteral("do_raw_spin"),
                                       QStringLiteral("do_raw_read"),
                                       QStringLiteral("do_raw_write"),
                                       QStringLiteral("spin_lock"),
                                       QStringLiteral("spin_unlock"),
                                       QStringLiteral("spin_bug"),
                                       QStringLiteral("mutex_lock"),
                                       QStringLiteral("mutex_unlock"),
                                       QStringLiteral("mutex_trylock"),
                                       QStringLiteral("rt_spin_lock"),
                                       QStringLiteral("down_read"),
                                       QStringLiteral("down_write"),
                                       QStringLiteral("up_read"),
                                       QStringLiteral("up_write"),
                                       QStringLiteral("refcount_"),
                                       QStringLiteral("might_fault"),
                                       QStringLiteral("might_sleep"),
                                       QStringLiteral("might_resched"),
                                       QStringLiteral("schedule_bug"),
                                       QStringLiteral("schedule_debug"),
                                       QStringLiteral("memcpy"),
                                       QStringLiteral("memmove"),
                                       QStringLiteral("memset"),
                                       QStringLiteral("memcmp"),
                                       QStringLiteral("memchr"),
                                       QStringLiteral("strlen"),
                                       QStringLiteral("strnlen"),
                                       QStringLiteral("strcpy"),
                                       QStringLiteral("strncpy"),
                                       QStringLiteral("strscpy"),
                                       QStringLiteral("strlcpy"),
                                       QStringLiteral("strcmp"),
                                       QStringLiteral("strncmp"),
                                       QStringLiteral("strchr"),
                                       QStringLiteral("copy_to_user"),
                                       QStringLiteral("copy_from_user"),
                                       QStringLiteral("check_object_size"),
                                       QStringLiteral("check_heap_object"),
                                       QStringLiteral("usercopy_"),
                                       QStringLiteral("printk"),
                                       QStringLiteral("vprintk"),
                                       QStringLiteral("debug_print_object"),
                                       QStringLiteral("debug_check_no_obj"),
                                       QStringLiteral("debug_object"),
                                       QStringLiteral("check_panic_on_warn"),
                                       QStringLiteral("rcu_lockdep"),
                                       QStringLiteral("list_add_valid"),
                                       QStringLiteral("list_del_entry_valid"),
                                       QStringLiteral("list_valid"),
                                       QStringLiteral("oops_"),
                                       QStringLiteral("die"),
                                       QStringLiteral("bad_page"),
                                       QStringLiteral("page_fault_oops"),
                                       QStringLiteral("no_context"),
                                       QStringLiteral("kernelmode_fixup_or_oops"),
                                       QStringLiteral("do_user_addr_fault"),
                                       QStringLiteral("exc_page_fault"),
                                       QStringLiteral("do_kern_addr_fault"),
                                       QStringLiteral("do_page_fault"),
                                       QStringLiteral("do_mem_abort"),
                                       QStringLiteral("do_translation_fault"),
                                       QStringLiteral("do_bad_area"),
                                       QStringLiteral("el1_abort"),
                                       QStringLiteral("el1_da"),
                                       QStringLiteral("show_fault_oops"),
                                       QStringLiteral("do_general_protection"),
                                       QStringLiteral("exc_general_protection")};
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
    QString t = h;
    t.remove(QRegularExpression(QStringLiteral("^\\[ |\\]$")));
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

QString titleOf(EventKind kind, const Scan &s)
{
    const QString &h = s.headline;
    auto cap = [&](const char *re, int group = 1) {
        const QRegularExpression rx{QString::fromLatin1(re)};
        const QRegularExpressionMatch m = rx.match(h);
        return m.hasMatch() ? m.captured(group) : QString();
    };
    switch (kind) {
    case EventKind::Kasan:
    case EventKind::Kfence:
    case EventKind::Kmsan: {
        const QRegularExpression rx(QStringLiteral(
            "^BUG: (KASAN|KFENCE|KMSAN): (.+?) in ([A-Za-z0-9_.$]+)(\\+0x[0-9a-f]+/0x[0-9a-f]+)?"));
        const QRegularExpressionMatch m = rx.match(h);
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
        const QString type = cap("^UBSAN: (Undefined behaviour|[a-z][a-z-]+) in ");
        QString fn = firstGuilty(s.seq);
        if (fn.isEmpty()) {
            fn = cap("^UBSAN: .+? in (\\S+?)(:\\d+)*$");
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
            return QStringLiteral("unregister_netdevice: waiting for %1 to become free")
                .arg(cap("waiting for (\\S+) to become free"));
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
        const QRegularExpression rx(
            QStringLiteral(" at (?:\\S+:\\d+ )?([A-Za-z0-9_.$]+)(?:\\+0x|\\(\\)|,|$)"));
        QString fn = rx.match(w).captured(1);
        QStringList seq = s.seq;
        if (!fn.isEmpty()) {
            seq.prepend(fn);
        }
        fn = firstGuilty(seq);
        if (h.startsWith(QLatin1String("refcount_t: "))) {
            return withFunction(h.section(QLatin1Char(';'), 0, 0).trimmed(), fn);
        }
        return withFunction(QStringLiteral("WARNING"), fn);
    }
    case EventKind::Panic: {
        const QString reason = h.section(QLatin1String("not syncing:"), 1).trimmed();
        const QString corrupted = cap("stack-protector: Kernel stack is corrupted in: "
                                      "([A-Za-z0-9_.$]+)");
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
    struct Form
    {
        const char *re;
        const char *stem;
    };
    static constexpr std::array<Form, 24> kForms{{
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
        {"^(Oops: )?general protection fault", "general protection fault"},
        {"^(Oops: )?invalid opcode", "invalid opcode"},
        {"^(Oops: )?divide error", "divide error"},
        {"^(Oops: )?stack segment", "stack segment fault"},
        {"^(Oops: )?double fault|^PANIC: double fault", "PANIC: double fault"},
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
        {"^Oops: ", "Oops"},
        {"^BUG (\\S+) \\([^)]*\\): (.+)", "BUG %1: %2"},
        {"^BUG: workqueue lockup", "BUG: workqueue lockup"},
        {"^VFS: Busy inodes after unmount", "VFS: Busy inodes after unmount"},
    }};
    for (const Form &f : kForms) {
        const QRegularExpression rx{QString::fromLatin1(f.re)};
        const QRegularExpressionMatch m = rx.match(h);
        if (!m.hasMatch()) {
            continue;
        }
        QString stem = QLatin1String(f.stem);
        for (int g = 1; g <= 2 && stem.contains(QLatin1Char('%')); ++g) {
            stem = stem.arg(m.captured(g).trimmed());
        }
        if (stem.startsWith(QLatin1String("BUG: workqueue")) ||
            stem.startsWith(QLatin1String("VFS:"))) {
            return stem; // reports without a stack of their own
        }
        if (stem.startsWith(QLatin1String("BUG: scheduling while atomic"))) {
            return withFunction(stem, firstGuilty(s.seq, 0, {"schedule"}));
        }
        return withFunction(stripVolatile(stem), fn);
    }
    // Other BUG: lines (bad page state, rss-counter, ...): the text up to its details.
    QString t = h;
    const qsizetype cut =
        t.indexOf(QRegularExpression(QStringLiteral(" in process | mm:|: [0-9a-f]")));
    if (cut > 0) {
        t.truncate(cut);
    }
    return withFunction(stripVolatile(t), fn);
}

// Panic reasons that are the consequence of a report printed just before them.
bool isConsequencePanic(std::string_view m)
{
    static constexpr std::array<std::string_view, 16> kReasons{"Fatal exception",
                                                               "panic_on_warn set",
                                                               "panic_on_oops",
                                                               "Hard LOCKUP",
                                                               "hung_task: blocked tasks",
                                                               "softlockup: hung tasks",
                                                               "RCU Stall",
                                                               "Aiee, killing interrupt handler",
                                                               "Attempted to kill init",
                                                               "Attempted to kill the idle task",
                                                               "Watchdog detected hard LOCKUP",
                                                               "kasan.fault=panic",
                                                               "KASAN: panic_on_warn set",
                                                               "UBSAN: panic_on_warn set",
                                                               "kfence",
                                                               "Oops"};
    const std::size_t p = m.find("not syncing:");
    if (p == std::string_view::npos) {
        return false;
    }
    const std::string_view reason = m.substr(std::min(m.size(), p + 13));
    for (std::string_view r : kReasons) {
        if (reason.find(r) != std::string_view::npos) {
            return true;
        }
    }
    return false;
}

bool isOopsHeader(std::string_view m)
{
    return startsWith(m, "Oops: ") || startsWith(m, "Internal error: ") ||
           startsWith(m, "invalid opcode: ");
}

// Reads a run's lines, or a plain list of lines.
struct LineSource
{
    const Run *run = nullptr;
    const QStringList *list = nullptr;
    std::vector<QByteArray> utf8;

    LineIndex size() const { return run ? run->lines.size() : LineIndex(list->size()); }
    std::string_view text(LineIndex i) const
    {
        if (run) {
            return run->lines.text(i);
        }
        const QByteArray &b = utf8[std::size_t(i)];
        return std::string_view(b.constData(), std::size_t(b.size()));
    }
};

struct Head
{
    LineIndex line;
    EventKind kind;
    std::size_t event;
};

class Assembler
{
public:
    Assembler(const LineSource &src, std::vector<Head> heads, std::vector<LineIndex> bounds,
              LineIndex end)
        : m_src(src), m_heads(std::move(heads)), m_bounds(std::move(bounds)), m_end(end)
    {
    }

    std::vector<Crash> run(LineIndex first)
    {
        std::vector<Crash> out;
        std::size_t i = 0;
        while (i < m_heads.size()) {
            const Head h = m_heads[i];
            if (h.line < first) {
                ++i;
                continue;
            }
            const LineInfo hl = infoOf(m_src.text(h.line));
            // A consequence of the crash before it: extends that crash.
            if (!out.empty() && h.line - out.back().endLine <= kConsequenceGap &&
                sameBoot(out.back().line, h.line) &&
                ((h.kind == EventKind::Panic && isConsequencePanic(hl.msg)) ||
                 (h.kind == EventKind::MemoryLeak && startsWith(hl.msg, "kmemleak:") &&
                  out.back().kind == EventKind::MemoryLeak && h.line - out.back().endLine <= 2 &&
                  !startsWith(infoOf(m_src.text(out.back().endLine)).msg, "kmemleak:")))) {
                out.back().endLine = consequenceEnd(h.line, i);
                ++i;
                continue;
            }
            out.push_back(assemble(i, &i));
        }
        return out;
    }

private:
    bool sameBoot(LineIndex a, LineIndex b) const
    {
        const auto it = std::upper_bound(m_bounds.begin(), m_bounds.end(), a);
        return it == m_bounds.end() || *it > b;
    }
    LineIndex nextBound(LineIndex after) const
    {
        const auto it = std::upper_bound(m_bounds.begin(), m_bounds.end(), after);
        return it == m_bounds.end() ? m_end : *it;
    }

    // A consequence panic runs to its own end marker.
    LineIndex consequenceEnd(LineIndex line, std::size_t headIndex) const
    {
        const LineIndex stop =
            std::min({m_end, nextBound(line), line + kReportWindow,
                      headIndex + 1 < m_heads.size() ? m_heads[headIndex + 1].line : m_end});
        for (LineIndex l = line; l < stop; ++l) {
            if (startsWith(infoOf(m_src.text(l)).msg, "---[ end Kernel panic")) {
                return l;
            }
        }
        return line;
    }

    static bool expectsEndMarker(EventKind k)
    {
        switch (k) {
        case EventKind::Warning:
        case EventKind::Oops:
        case EventKind::Bug:
        case EventKind::Panic:
        case EventKind::Kasan:
        case EventKind::Kmsan:
        case EventKind::Kcsan:
        case EventKind::Kfence:
        case EventKind::Ubsan:
            return true;
        default:
            return false;
        }
    }

    // Is head j part of the report opened by `open`?
    bool follows(const Head &open, const LineInfo &openInfo, std::size_t j) const
    {
        const Head &h = m_heads[j];
        const std::string_view m = infoOf(m_src.text(h.line)).msg;
        if (h.line == open.line) {
            return true; // a second kind on the headline itself
        }
        if (h.kind == EventKind::Panic) {
            return isConsequencePanic(m);
        }
        if (h.kind == EventKind::Oops && isOopsHeader(m) &&
            (open.kind == EventKind::Bug || open.kind == EventKind::Oops ||
             open.kind == EventKind::Ubsan || open.kind == EventKind::Kasan) &&
            h.line - open.line <= kOopsGap) {
            return true;
        }
        if (h.kind == EventKind::Warning && startsWith(openInfo.msg, "refcount_t: ") &&
            h.line - open.line <= 8) {
            return true; // refcount_t's WARN text, then its WARNING: line
        }
        if (h.kind == EventKind::MemoryLeak && startsWith(openInfo.msg, "BUG: memory leak") &&
            h.line - open.line <= 4) {
            return true;
        }
        return false;
    }

    bool sameContext(const LineInfo &head, const LineInfo &l) const
    {
        if (head.callerKind == 0 || l.callerKind == 0) {
            return true;
        }
        if (head.callerKind == 'C') {
            return l.callerKind == 'C'; // NMI backtraces come from the other CPUs
        }
        return l.callerKind == head.callerKind && l.callerId == head.callerId;
    }

    // The line a report really starts at: the `cut here` of a WARN splat, the `invoked
    // oom-killer` of an OOM kill.
    LineIndex reportStart(const Head &h, const LineInfo &hl, LineIndex floor, Scan *s) const
    {
        if (h.kind == EventKind::Warning || h.kind == EventKind::Bug) {
            for (LineIndex l = h.line - 1; l >= std::max(floor, h.line - 4); --l) {
                const LineInfo li = infoOf(m_src.text(l));
                if (startsWith(li.msg, "------------[ cut here ]")) {
                    return l;
                }
            }
        }
        if (h.kind == EventKind::Oom) {
            for (LineIndex l = h.line - 1; l >= std::max(floor, h.line - 600); --l) {
                const LineInfo li = infoOf(m_src.text(l));
                if (li.msg.find(" invoked oom-killer: ") != std::string_view::npos &&
                    sameContext(hl, li)) {
                    s->oomInvoked = toQ(li.msg);
                    return l;
                }
            }
        }
        return h.line;
    }

    Crash assemble(std::size_t i, std::size_t *next)
    {
        const Head h = m_heads[i];
        const LineInfo hl = infoOf(m_src.text(h.line));
        Scan scan;
        scan.headline = toQ(hl.msg);
        const LineIndex floor = i > 0 ? m_heads[i - 1].line + 1 : 0;
        const LineIndex start = reportStart(h, hl, std::max(floor, LineIndex(0)), &scan);
        const LineIndex bound = nextBound(h.line);
        const LineIndex limit = std::min({m_end, bound, h.line + kReportWindow});

        Crash c;
        c.kind = h.kind;
        c.line = start;
        c.event = h.event;
        StackReader reader(h.kind, scan.headline);
        std::size_t j = i + 1;
        LineIndex last = h.line;
        LineIndex stackEnd = -1;
        bool endMarker = false;
        bool cutByNext = false;
        LineIndex lastInContext = h.line;
        // An OOM report's stack is above its `Killed process` line.
        for (LineIndex l = start; l < h.line; ++l) {
            const LineInfo li = infoOf(m_src.text(l));
            if (sameContext(hl, li)) {
                reader.feed(li.msg, &scan);
            }
        }
        LineIndex l = h.line + 1;
        // An OOM report ends with its `Killed process` line.
        for (; l < limit && h.kind != EventKind::Oom; ++l) {
            while (j < m_heads.size() && m_heads[j].line < l) {
                ++j;
            }
            if (j < m_heads.size() && m_heads[j].line == l) {
                if (!follows(h, hl, j)) {
                    cutByNext = true;
                    break;
                }
                const LineInfo fl = infoOf(m_src.text(l));
                if (h.kind == EventKind::Warning && startsWith(fl.msg, "WARNING: ")) {
                    scan.warnLine = toQ(fl.msg);
                }
                ++j;
            }
            const LineInfo li = infoOf(m_src.text(l));
            if (!sameContext(hl, li)) {
                continue;
            }
            lastInContext = l;
            if (startsWith(li.msg, "---[ end trace") ||
                startsWith(li.msg, "---[ end Kernel panic") ||
                (isSeparator(li.msg) && reader.stackStarted() && expectsEndMarker(h.kind))) {
                last = l;
                endMarker = true;
                break;
            }
            const bool wasDone = reader.stackDone();
            reader.feed(li.msg, &scan);
            if (!wasDone && reader.stackDone()) {
                stackEnd = l - 1;
                if (!expectsEndMarker(h.kind) || h.kind == EventKind::MemoryLeak) {
                    break;
                }
            }
            last = l;
            if (stackEnd >= 0 && l - stackEnd > kEndMarkerSlack) {
                break;
            }
        }
        // Cut short means by the end of the log, the boot or the window, not by the next
        // report (the kernel finished this one before it started the next).
        // Cut short: the log or the boot ended while the report's own lines were still
        // coming (inside its stack, or on a partial frame: an indented last line).
        const LineIndex stop = std::min(m_end, bound);
        bool cutShort = false;
        if (!endMarker && !cutByNext && l >= stop && lastInContext == stop - 1) {
            const std::string_view closing =
                stackEnd >= 0 ? infoOf(m_src.text(stackEnd + 1)).msg : std::string_view();
            cutShort = !reader.stackDone() ||
                       (stackEnd + 1 == stop - 1 && !closing.empty() && closing[0] == ' ');
        }
        c.traceComplete = !cutShort && (endMarker || cutByNext || reader.stackDone() || l >= stop ||
                                        !reader.stackStarted());
        c.endLine = endMarker ? last : (stackEnd >= 0 ? std::max(stackEnd, h.line) : last);
        if (h.kind == EventKind::Oom) {
            c.endLine = h.line;
        }
        if (h.kind == EventKind::MemoryLeak && !reader.stackStarted()) {
            c.traceComplete = true; // kmemleak's summary line prints no stack
        }
        // Consumed heads up to the end of the report.
        while (j < m_heads.size() && m_heads[j].line <= c.endLine) {
            ++j;
        }
        *next = std::max(j, i + 1);
        c.frames = scan.frames;
        c.title = titleOf(h.kind, scan);
        return c;
    }

    const LineSource &m_src;
    std::vector<Head> m_heads;
    std::vector<LineIndex> m_bounds; // boot banners and reboots: reports end there
    LineIndex m_end;
};

} // namespace

QString frameFunction(std::string_view m, bool *unreliable)
{
    std::size_t p = skipAddresses(m, 0);
    bool q = false;
    if (p + 1 < m.size() && m[p] == '?' && m[p + 1] == ' ') {
        q = true;
        p = skipAddresses(m, p + 2);
    }
    if (unreliable) {
        *unreliable = q;
    }
    std::string_view sym = symbolAt(m, p);
    if (sym.empty()) {
        // Symbolized inline frames: " foo mm/bar.c:12 [inline]".
        std::size_t e = p;
        while (e < m.size() && isIdentChar(m[e])) {
            ++e;
        }
        if (e > p && e < m.size() && m[e] == ' ' &&
            m.find(" [inline]", e) != std::string_view::npos) {
            sym = m.substr(p, e - p);
        }
    }
    return toQ(sym);
}

std::vector<Crash> findCrashes(const Run &run, LineIndex first, LineIndex end)
{
    if (end < 0 || end > run.lines.size()) {
        end = run.lines.size();
    }
    std::vector<Head> heads;
    std::vector<LineIndex> bounds;
    for (std::size_t e = 0; e < run.events.size(); ++e) {
        const Event &ev = run.events[e];
        if (ev.note >= 0 || ev.line < 0 || ev.line >= end) {
            continue;
        }
        if (ev.kind == EventKind::Boot || ev.kind == EventKind::Reboot) {
            bounds.push_back(ev.line);
        } else if (isCrashKind(ev.kind) && (heads.empty() || heads.back().line != ev.line)) {
            heads.push_back(Head{ev.line, ev.kind, e});
        }
    }
    LineSource src;
    src.run = &run;
    Assembler a(src, std::move(heads), std::move(bounds), end);
    return a.run(first);
}

Crash crashFromLines(const QStringList &lines, EventKind kind)
{
    LineSource src;
    src.list = &lines;
    for (const QString &l : lines) {
        src.utf8.push_back(l.toUtf8());
    }
    Assembler a(src, {Head{0, kind, 0}}, {}, LineIndex(lines.size()));
    std::vector<Crash> out = a.run(0);
    return out.empty() ? Crash{} : out.front();
}

} // namespace tty
