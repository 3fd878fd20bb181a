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
            f.front = p.timeAt;
        }
        if (p.timeDamaged) {
            flags |= KernelTimeDamaged;
        }
        f.message = p.message;
        f.sequence = p.sequence;
        f.fragment = p.fragment;
    }
    if (level) {
        flags = std::uint16_t((flags & ~LevelMask) | ((*level & 7) + 1));
    }
    f.flags = flags;
    return f;
}

void detectEvents(const RuleSet &rules, std::string_view text, const LineFacts &facts,
                  LineIndex line, std::vector<Event> *out)
{
    const std::size_t message = facts.message;
    const auto add = [&](const RuleSet::Match &m) {
        Event e;
        e.line = line;
        e.kind = m.kind;
        e.count = m.count;
        e.inFront = m.inFront;
        out->push_back(e);
    };
    rules.match(text, message, message == 0 ? promptEnd(text) : facts.front, add);
    // A login prompt has no newline: what the console printed next ends its line, a
    // power-cycled board's firmware ("corpusvm login: ESC c ... SeaBIOS ..."). The
    // line-anchored rules are tried there too, on lines without a kernel prefix only (a
    // kernel's first line glued to a prompt has its own prefix: kernelprefix.h).
    if (message == 0) {
        const std::size_t after = promptEnd(text);
        if (after > 0) {
            rules.matchAtLineStart(text.substr(after), add);
        }
    }
}

std::size_t promptEnd(std::string_view text)
{
    const std::size_t at = text.find(kLoginPrompt);
    if (at == std::string_view::npos) {
        return 0;
    }
    std::size_t end = at + kLoginPrompt.size();
    while (end < text.size() && text[end] == ' ') {
        ++end;
    }
    return end < text.size() ? end : 0;
}

} // namespace tty
