// Parses the prefix printk puts in front of every console line:
//   [<level>][[ seconds.micro]][[ T123]|[ C1]] text
// On real consoles the prefix need not start the line (firmware escape codes, an
// unterminated `login: ` prompt or a pre-5.10 drop notice can stand before it), so a
// timestamp is also looked for a little further into the line.
#pragma once

#include "types.h"

#include <string_view>

namespace tty {

struct KernelPrefix
{
    std::optional<KernelUs> time;
    int level = -1;      // syslog level 0..7 from a leading <N>
    char callerKind = 0; // 'T' (task) or 'C' (CPU), 0 when absent
    int callerId = -1;
    std::size_t timeAt = 0;  // where the timestamp's '[' is (0 when at the start)
    std::size_t message = 0; // where the message text starts
};

KernelPrefix parseKernelPrefix(std::string_view line);

} // namespace tty
