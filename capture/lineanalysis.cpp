#include "lineanalysis.h"

#include "kernelprefix.h"
#include "linetable.h"

#include <algorithm>

namespace tty {

LineFacts analyseLine(std::string_view text, std::uint16_t flags, std::optional<KernelUs> kernel,
                      std::optional<int> level, bool parsePrefix, std::size_t message)
{
    LineFacts f;
    f.kernel = kernel;
    f.message = std::min(message, text.size());
    if (parsePrefix) {
        const KernelPrefix p = parseKernelPrefix(text);
        f.kernel = p.time;
        if (p.level) {
            level = p.level;
        }
        if (p.timeAt > 0 && p.time) {
            flags |= KernelTimeNotAtStart;
        }
        f.message = p.message;
    }
    if (level) {
        flags = std::uint16_t((flags & ~LevelMask) | ((*level & 7) + 1));
    }
    f.flags = flags;
    return f;
}

void detectEvents(const RuleSet &rules, std::string_view text, std::size_t message, LineIndex line,
                  std::vector<Event> *out)
{
    rules.match(text, message, [&](const RuleSet::Match &m) {
        Event e;
        e.line = line;
        e.kind = m.kind;
        e.count = m.count;
        out->push_back(e);
    });
}

} // namespace tty
