#include "bootstart.h"

#include "kernelprefix.h"

namespace tty {

std::size_t promptBeforeBoot(const Run &run, LineIndex line)
{
    // The flag first: almost every line has its timestamp at its start.
    if (line >= run.lines.endIndex() || !(run.lines.flags(line) & KernelTimeNotAtStart) ||
        run.boots.empty()) {
        return 0;
    }
    const Boot &b = run.boots[std::size_t(run.bootOf(line))];
    if (b.first != line || b.firstKernelLine != line) {
        return 0;
    }
    const LineText text = run.lines.text(line);
    const KernelPrefix p = parseKernelPrefix(text.view());
    return promptBeforeTimestamp(text.view(), p) ? p.timeAt : 0;
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
