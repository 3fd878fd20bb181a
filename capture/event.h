// Console events (drops, panics, stalls, ...) and their stable names.
#pragma once

#include "types.h"

#include <QString>

#include <array>
#include <cstdint>

namespace tty {

// The names are stable: they are used in rule files, the JSON report and settings.
enum class EventKind : std::uint8_t {
    Drop,
    Ratelimit,
    Panic,
    PanicEnd,
    Oops,
    Bug,
    Warning,
    TraceEnd,
    CallTrace,
    RcuStall,
    SoftLockup,
    HardLockup,
    HungTask,
    Lockdep, // lockdep and RCU-lockdep reports
    Kasan,   // sanitizer reports, each its own kind
    Kmsan,
    Kcsan,
    Kfence,
    Ubsan,
    MemoryLeak, // kmemleak
    Oom,        // the OOM killer
    NmiBacktrace,
    Sysrq,
    Boot,
    Reboot,
    Console,
    Marker,
    Gap,
    Firmware, // firmware banner or terminal reset: a new boot is starting
};
constexpr int kEventKindCount = int(EventKind::Firmware) + 1;

const char *eventKindName(EventKind k);
// A one-line description for legends and tooltips.
QString eventKindTitle(EventKind k);
bool eventKindFromName(const QString &name, EventKind *out);
// Kinds whose headline starts a crash report (see crashes.h).
bool isCrashKind(EventKind k);

// An Event::count the notice printed but no 32-bit count holds (garbage digits: no console
// drops 2^32 messages between two lines): the count is unknown, never a made-up one.
constexpr std::uint32_t kCountOutOfRange = 0xffffffffu;

struct Event
{
    LineIndex line;                // console line it refers to (a recorded marker: the next line)
    std::optional<HostNs> arrival; // for recorded markers and gaps, which are not lines
    // drop: messages dropped; kmsg gap: sequence numbers missing; kCountOutOfRange: unknown
    std::uint32_t count = 0;
    std::optional<std::int32_t> note; // index into Run::notes for text that is not the line's
    EventKind kind = EventKind::Marker;
    // Matched in the text in front of the kernel's on its line (rules.h): it came with the
    // line's first byte.
    bool inFront = false;
    // A note of what was sent to the console (LAVA's input): sent after the sender saw
    // what it answers, a login prompt on its line (bootstart.h).
    bool sentToConsole = false;
};

} // namespace tty
