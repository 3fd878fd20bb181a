// Parses the prefix printk puts in front of every console line:
//   [<level>][[ seconds.micro]][[ T123]|[ C1]] text
// or the record header of netconsole's extended form (kmsgheader.h):
//   [release,]prefix,sequence,micro,flag[,caller=T123][,ncfrag=A/B];text
// (Amlogic's vendor kernels print the CPU in the timestamp: [ seconds.micro@CPU]).
// On real consoles the prefix need not start the line (firmware escape codes, an
// unterminated `login: ` prompt or a pre-5.10 drop notice can stand before it), so a
// timestamp is also looked for a little further into the line.
#pragma once

#include "types.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace tty {

// The caller id printk adds with CONFIG_PRINTK_CALLER: "[T123]" (a task's PID) or "[C1]"
// (a CPU, for messages from interrupt context).
struct Caller
{
    char kind = 'T'; // 'T' (task) or 'C' (CPU)
    int id = 0;
    bool operator==(const Caller &o) const { return kind == o.kind && id == o.id; }
};

struct KernelPrefix
{
    std::optional<KernelUs> time;
    std::optional<int> level; // syslog level 0..7 from a leading <N>
    std::optional<Caller> caller;
    std::size_t timeAt = 0; // where the timestamp's '[' is (0 when at the start)
    // A bracketed time at the start without printk's six fraction digits ("[    0.0400]":
    // a UART lost characters): the prefix is skipped, `time` is left empty.
    bool timeDamaged = false;
    std::size_t message = 0; // where the message text starts
    // A record header (netconsole's extended form): the record's number, and whether the
    // line is a fragment of a longer record.
    std::optional<std::uint64_t> sequence;
    bool fragment = false;
};

KernelPrefix parseKernelPrefix(std::string_view line);

// What marks a login prompt (getty's "corpusvm login: "): the boot split, the glued
// prompt checks and the default --boot-pattern look for the same text.
inline constexpr std::string_view kLoginPrompt = "login:";

// Whether the text before a timestamp found past the line's start (`p`, parsed from
// `line`) holds a login prompt: a prompt has no newline, so the next kernel's first bytes
// end its line ("corpusvm login: [    0.000000] Linux version ..."). The prompt is the
// system before's; the timestamp and what follows are the new kernel's.
bool promptBeforeTimestamp(std::string_view line, const KernelPrefix &p);

} // namespace tty
