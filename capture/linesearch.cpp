#include "linesearch.h"

#include "linematcher.h"
#include "parallel.h"

namespace tty {

std::shared_ptr<std::vector<LineIndex>> findMatchingLines(const Run &run, const QString &pattern,
                                                          const std::atomic<bool> *cancel)
{
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
            if (!m.literal().empty()) {
                for (LineIndex i = from; i < to && !cancelled(); ++i) {
                    const std::optional<LineIndex> hit =
                        run.lines.findContaining(m.literal(), i, to);
                    if (!hit) {
                        break;
                    }
                    i = *hit;
                    if (m.literalOnly() || m.matches(run.lines.text(i))) {
                        out.push_back(i);
                    }
                }
                return;
            }
            for (LineIndex i = from; i < to; ++i) {
                if ((i.value() & 0xffff) == 0 && cancelled()) {
                    return;
                }
                if (m.matches(run.lines.text(i))) {
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
