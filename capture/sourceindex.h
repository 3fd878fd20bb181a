// The message template of every line of a run (issue 14): one 32-bit id per line (4 bytes
// a line) and the table of templates. Lines with a kernel timestamp are templated on their
// message (after the printk prefix), lines without one (userspace, the drop notices of
// 5.10 and later) on their whole text, and the two never share a template.
//
// Multi-line reports count as their header's source: a line of a report's body
// (isReportBody: frames, registers, "task:" lines) takes the template of the report it
// belongs to. A report is opened by a line the rules mark as a crash headline, a sysrq or
// an NMI backtrace (a WARN splat by its "cut here" line, whose WARNING line belongs to it),
// or else by a body line that finds no report open; it stays open while body lines follow
// within kReportGap lines of each other, other lines (a second CPU printing) between them.
#pragma once

#include "pagememory.h"
#include "run.h"
#include "types.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tty {

class SourceIndex
{
public:
    struct Template
    {
        std::string text;                 // the masked message (msgtemplate.h)
        bool kernel = false;              // the lines carry a kernel timestamp
        std::optional<LineIndex> example; // its first line (none: only ever in a report body)
    };
    // Templates beyond this many distinct ones (random bytes make every line one) all go to
    // one template, kOverflowText.
    static constexpr std::uint32_t kMaxTemplates = 1u << 18;
    static constexpr const char *kOverflowText = "(more distinct templates than kept)";
    // Lines of a report body further than this from the report's last line open their own.
    static constexpr std::int64_t kReportGap = 64;

    SourceIndex() = default;
    // Templates every line of a loaded run, on all cores. `cancel` (may be null) stops the
    // work early: the index is then empty.
    static SourceIndex build(const Run &run, const std::atomic<bool> *cancel = nullptr);

    bool empty() const { return m_lines == 0; }
    LineCount lines() const { return LineCount(m_lines); }
    std::uint32_t templateOf(LineIndex i) const { return m_ids[std::size_t(i.value())]; }
    const std::vector<Template> &templates() const { return m_templates; }
    // Line i carries a drop event and its message, after a kernel timestamp of its own, is
    // the notice "** N printk messages dropped **": then the notice is no neighbour of its
    // drop interval, the next timed line is (sourcestats.cpp). Found while templating, so
    // the costs need not read the text again.
    bool isTimedDropNotice(LineIndex i) const
    {
        return std::binary_search(m_timedDropNotices.begin(), m_timedDropNotices.end(), i);
    }
    // The id of a template text, if some line has it (for tests and lookups by name).
    std::optional<std::uint32_t> find(std::string_view text, bool kernel) const;
    std::size_t memoryBytes() const;

private:
    PageArray<std::uint32_t> m_ids;
    std::int64_t m_lines = 0;
    std::vector<Template> m_templates;
    std::vector<LineIndex> m_timedDropNotices; // sorted
};

} // namespace tty
