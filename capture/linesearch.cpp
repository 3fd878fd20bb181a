#include "linesearch.h"

#include "consoletext.h"
#include "linematcher.h"
#include "parallel.h"
#include "textreader.h"

namespace tty {

std::shared_ptr<std::vector<LineIndex>> findMatchingLines(const Run &run, const QString &pattern,
                                                          const std::atomic<bool> *cancel,
                                                          MatchText on)
{
    // Printed text: a line with escape sequences is matched without them (`^SeaBIOS` finds
    // the line that starts with ESC c ESC[2J), any other line as it is.
    auto matches = [on](const LineMatcher &m, std::string_view line) {
        if (on == MatchText::Printed && hasControls(line)) {
            return m.matches(printedText(line));
        }
        return m.matches(line);
    };
    const auto lock = run.readLock(); // a live run does not grow meanwhile
    auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    const int slices = sliceCount(run.lines.size());
    std::vector<std::vector<LineIndex>> found(static_cast<std::size_t>(slices));
    std::atomic<bool> invalid{false};
    forEachSlice(
        LineIndex(0), run.lines.endIndex(), slices, [&](int s, LineIndex from, LineIndex to) {
            const LineMatcher m(pattern); // one per thread: a regex object is not to be shared
            if (!m.isValid()) {
                invalid = true;
                return;
            }
            std::vector<LineIndex> &out = found[std::size_t(s)];
            // Each slice decodes its own pieces: the slices decode in parallel.
            TextReader reader(run.lines), escapeReader(run.lines);
            if (!m.literal().empty()) {
                // The printed text of a line with an escape sequence can hold the literal
                // when its bytes do not (FAI ESC[0m LED prints FAILED): such lines are
                // candidates too, found in bulk by their ESC as the literal is.
                const bool escapes =
                    on == MatchText::Printed && m.literal().find('\x1b') == std::string_view::npos;
                std::optional<LineIndex> nextLiteral, nextEscape;
                bool literalDone = false, escapeDone = !escapes;
                for (LineIndex i = from; i < to && !cancelled(); ++i) {
                    if (!literalDone && (!nextLiteral || *nextLiteral < i)) {
                        nextLiteral = reader.findContaining(m.literal(), i, to);
                        literalDone = !nextLiteral;
                    }
                    if (!escapeDone && (!nextEscape || *nextEscape < i)) {
                        nextEscape =
                            escapeReader.findContaining(std::string_view("\x1b", 1), i, to);
                        escapeDone = !nextEscape;
                    }
                    if (literalDone && escapeDone) {
                        break;
                    }
                    const std::optional<LineIndex> hit = literalDone ? nextEscape
                                                         : escapeDone
                                                             ? nextLiteral
                                                             : std::min(*nextLiteral, *nextEscape);
                    i = *hit;
                    const std::string_view text = reader.text(i);
                    const bool plain = on == MatchText::Bytes || !hasControls(text);
                    if ((m.literalOnly() && plain) || matches(m, text)) {
                        out.push_back(i);
                    }
                }
                return;
            }
            for (LineIndex i = from; i < to; ++i) {
                if ((i.value() & 0xffff) == 0 && cancelled()) {
                    return;
                }
                if (matches(m, reader.text(i))) {
                    out.push_back(i);
                }
            }
        });
    if (invalid || cancelled()) {
        return nullptr;
    }
    auto all = std::make_shared<std::vector<LineIndex>>();
    for (const std::vector<LineIndex> &f : found) {
        all->insert(all->end(), f.begin(), f.end());
    }
    return all;
}

} // namespace tty
