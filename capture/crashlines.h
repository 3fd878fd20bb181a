// Line-level reading of crash report lines: the console prefix split off, instruction
// pointer, lock and frame lines read for their function, the lines that frame or fill a
// report. The pieces the title choice (crashtitle.h) and the assembly (crashes.cpp) share.
// Internal to the crash pass; the public API is in crashes.h.
#pragma once

#include "kernelprefix.h"

#include <QString>

#include <cstring>
#include <optional>
#include <string_view>

namespace tty::crash {

inline bool startsWith(std::string_view s, std::string_view p)
{
    return s.size() >= p.size() && std::memcmp(s.data(), p.data(), p.size()) == 0;
}

inline std::size_t skipSpaces(std::string_view s, std::size_t p)
{
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) {
        ++p;
    }
    return p;
}

inline QString toQ(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// A symbol as a title shows it: compiler suffixes (.isra.0, .cold, .constprop.3) dropped.
QString baseName(const QString &sym);

// The function of an instruction-pointer line: x86 `RIP: 0010:foo+0x1/0x2` (and the
// 4.x `RIP: 0010:[<addr>]  [<addr>] foo+...`, `IP: foo+...`), i386 `EIP:`, arm64
// `pc : foo+...`, arm `PC is at foo+...`, riscv `epc : `, powerpc `NIP [addr] foo+...`
// and `LR [addr] foo+...`, s390 `Krnl PSW : <mask> <addr> (foo+...)`, mips `epc   : <addr>
// foo+...`, loongarch `ERA: <addr> foo+...`.
QString ipFunction(std::string_view m);

// The function after "at:" of a lockdep lock line ("..., at: foo+0x1/0x2").
QString atFunction(std::string_view m);

// A line of '=' framing KASAN, KCSAN, KFENCE, KMSAN, UBSAN and slab reports.
bool isSeparator(std::string_view m);

// Lines that may stand inside a stack without ending it.
bool isTraceFiller(std::string_view m);

struct LineInfo
{
    std::string_view msg;
    std::optional<Caller> caller;
    std::optional<KernelUs> time; // its kernel timestamp, when it has one
};

// A console line's message (kernel prefix and trailing spaces dropped) and its caller id.
LineInfo infoOf(std::string_view text);

} // namespace tty::crash
