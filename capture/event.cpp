#include "event.h"

#include <QCoreApplication>

namespace tty {

namespace {
struct KindInfo
{
    const char *name;
    const char *title;
};
constexpr std::array<KindInfo, kEventKindCount> kKinds{{
    {"drop", "printk messages dropped"},
    {"ratelimit", "ratelimit suppression"},
    {"panic", "kernel panic"},
    {"panic_end", "end of kernel panic"},
    {"oops", "oops"},
    {"bug", "BUG"},
    {"warning", "WARNING"},
    {"trace_end", "end of trace"},
    {"call_trace", "call trace"},
    {"rcu_stall", "RCU stall"},
    {"soft_lockup", "soft lockup"},
    {"hard_lockup", "hard lockup"},
    {"hung_task", "hung task"},
    {"lockdep", "lockdep report"},
    {"kasan", "KASAN report"},
    {"kmsan", "KMSAN report"},
    {"kcsan", "KCSAN data race"},
    {"kfence", "KFENCE report"},
    {"ubsan", "UBSAN report"},
    {"memory_leak", "kmemleak leak"},
    {"oom", "out of memory"},
    {"nmi_backtrace", "NMI backtrace"},
    {"sysrq", "sysrq"},
    {"boot", "boot banner"},
    {"reboot", "reboot / power off"},
    {"console", "console enable / handover"},
    {"marker", "marker"},
    {"gap", "capture gap / records missing"},
    {"firmware", "firmware banner / terminal reset"},
}};
} // namespace

const char *eventKindName(EventKind k)
{
    return kKinds[std::size_t(k)].name;
}

QString eventKindTitle(EventKind k)
{
    return QString::fromLatin1(kKinds[std::size_t(k)].title);
}

bool eventKindFromName(const QString &name, EventKind *out)
{
    for (int i = 0; i < kEventKindCount; ++i) {
        if (name == QLatin1String(kKinds[std::size_t(i)].name)) {
            *out = EventKind(i);
            return true;
        }
    }
    return false;
}

bool isCrashKind(EventKind k)
{
    switch (k) {
    case EventKind::Panic:
    case EventKind::Oops:
    case EventKind::Bug:
    case EventKind::Warning:
    case EventKind::RcuStall:
    case EventKind::SoftLockup:
    case EventKind::HardLockup:
    case EventKind::HungTask:
    case EventKind::Lockdep:
    case EventKind::Kasan:
    case EventKind::Kmsan:
    case EventKind::Kcsan:
    case EventKind::Kfence:
    case EventKind::Ubsan:
    case EventKind::MemoryLeak:
    case EventKind::Oom:
        return true;
    default:
        return false;
    }
}

} // namespace tty
