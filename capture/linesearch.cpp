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
    const int slices = sharedSliceCount(run.lines.size());
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
            TextReader reader(run.lines);
            if (!m.literal().empty()) {
                // The printed text of a line with an escape sequence can hold the literal
                // when its bytes do not (FAI ESC[0m LED prints FAILED): such lines are
                // candidates too, found in bulk by their ESC as the literal is.
                const bool escapes =
                    on == MatchText::Printed && m.literal().find('\x1b') == std::string_view::npos;
                // Both are searched a piece at a time with one reader, so that each piece is
                // decoded once for both (two readers decoded every piece twice); each keeps
                // its next hit, or that the piece has none, while the lines before it go.
                struct Next
                {
                    std::string_view needle;
                    std::optional<LineIndex> hit;
                    // No hit in the lines before this one but `hit` (none: up to the end of
                    // the piece searched).
                    LineIndex searchedTo;
                };
                Next literal{m.literal(), std::nullopt, from};
                // Without `escapes` the ESC search starts as done: searched to the end.
                Next escape{std::string_view("\x1b", 1), std::nullopt, escapes ? from : to};
                auto next = [&reader](Next &n, LineIndex i, LineIndex pieceEnd) {
                    if (!(n.hit && *n.hit >= i) && n.searchedTo < pieceEnd) {
                        n.hit = reader.findContaining(n.needle, i, pieceEnd);
                        n.searchedTo = n.hit ? *n.hit : pieceEnd;
                    }
                    return n.hit && *n.hit >= i ? n.hit : std::nullopt;
                };
                for (LineIndex i = from; i < to && !cancelled();) {
                    const LineIndex pieceEnd = std::min(to, reader.pieceEnd(i));
                    const std::optional<LineIndex> a = next(literal, i, pieceEnd);
                    const std::optional<LineIndex> b = next(escape, i, pieceEnd);
                    if (!a && !b) {
                        i = pieceEnd;
                        continue;
                    }
                    i = a && b ? std::min(*a, *b) : a ? *a : *b;
                    const std::string_view text = reader.text(i);
                    const bool plain = on == MatchText::Bytes || !hasControls(text);
                    if ((m.literalOnly() && plain) || matches(m, text)) {
                        out.push_back(i);
                    }
                    ++i;
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
