#include "bootstart.h"

#include "kernelprefix.h"
#include "lineanalysis.h"

namespace tty {

std::size_t promptBeforeBoot(const Run &run, LineIndex line)
{
    if (line >= run.lines.endIndex() || run.boots.empty()) {
        return 0;
    }
    const std::uint16_t flags = run.lines.flags(line);
    const bool timed = run.lines.kernelTime(line).has_value();
    // Cheap tests first: almost every line has its timestamp at its start.
    if (timed && !(flags & KernelTimeNotAtStart)) {
        return 0;
    }
    const Boot &b = run.boots[std::size_t(run.bootOf(line))];
    if (b.first != line) {
        return 0;
    }
    if (timed) {
        // The new kernel's first line: "corpusvm login: [    0.000000] Linux version".
        if (b.firstKernelLine != line) {
            return 0;
        }
        const LineText text = run.lines.text(line);
        const KernelPrefix p = parseKernelPrefix(text.view());
        return promptBeforeTimestamp(text.view(), p) ? p.timeAt : 0;
    }
    // Firmware output that starts the boot: "corpusvm login: ESC c ... SeaBIOS" (the
    // rules found it after the prompt, lineanalysis.h).
    bool firmware = false;
    for (std::size_t e = run.eventsBefore(line);
         e < run.events.size() && run.events[e].line == line && !firmware; ++e) {
        firmware = run.events[e].kind == EventKind::Firmware && !run.events[e].note;
    }
    if (!firmware) {
        return 0;
    }
    const LineText text = run.lines.text(line);
    return promptEnd(text.view());
}

LineIndex arrivalStandIn(const Run &run, LineIndex line, LineIndex end)
{
    if (line + 1_lines >= std::min(end, run.lines.endIndex()) || promptBeforeBoot(run, line) == 0) {
        return line;
    }
    // promptBeforeBoot found the line first in its boot; the next must be in it too.
    const Boot &b = run.boots[std::size_t(run.bootOf(line))];
    return line + 1_lines < b.end ? line + 1_lines : line;
}

} // namespace tty
