#include "sourceindex.h"

#include "kernelprefix.h"
#include "msgtemplate.h"
#include "parallel.h"
#include "stringdict.h"
#include "textreader.h"

#include <algorithm>
#include <cstring>

namespace tty {

namespace {

constexpr std::uint32_t kBodyBit = 0x80000000u;
constexpr std::uint32_t kOpenerBit = 0x40000000u; // ids stay below kMaxTemplates
constexpr std::string_view kCutHere = "K------------[ cut here ]------------";

// Lines whose rule event opens a report: crash headlines, sysrq, NMI backtraces.
bool opensReport(EventKind k)
{
    return isCrashKind(k) || k == EventKind::Sysrq || k == EventKind::NmiBacktrace;
}

// The message of a kernel line (after its printk prefix).
std::string_view messageOf(std::string_view text)
{
    return text.substr(std::min(parseKernelPrefix(text).message, text.size()));
}

// The same for a line whose timestamp starts it (the loader has checked the timestamp):
// after "[ seconds.micro]", a caller id "[  T123]" and one blank.
std::string_view messageAfterTime(std::string_view text)
{
    const void *close = std::memchr(text.data(), ']', std::min<std::size_t>(text.size(), 32));
    if (!close) {
        return messageOf(text);
    }
    std::size_t p = std::size_t(static_cast<const char *>(close) - text.data()) + 1;
    if (p < text.size() && text[p] == '[') {
        std::size_t q = p + 1;
        while (q < text.size() && text[q] == ' ') {
            ++q;
        }
        if (q < text.size() && (text[q] == 'T' || text[q] == 'C')) {
            return messageOf(text); // a caller id: the full parse checks it
        }
    }
    if (p < text.size() && text[p] == ' ') {
        ++p;
    }
    return text.substr(p);
}

} // namespace

SourceIndex SourceIndex::build(const Run &run, const std::atomic<bool> *cancel)
{
    SourceIndex index;
    const LineIndex end = run.lines.endIndex();
    const std::int64_t n = (end - LineIndex(0)).count();
    if (n == 0) {
        return index;
    }
    index.m_ids = pageArray<std::uint32_t>(std::size_t(n));
    std::uint32_t *const ids = index.m_ids.get();

    // Pass 1, on all cores: each slice templates its lines into a dictionary of its own,
    // and marks the kernel lines whose events open a report (kOpenerBit).
    const int slices = sliceCount(end - LineIndex(0), LineCount(1 << 18));
    std::vector<StringDictionary> dicts(
        std::size_t(slices), StringDictionary(kMaxTemplates, std::string("U") + kOverflowText));
    std::atomic<bool> stopped{false};
    const bool timeInText = !formatInfo(run.meta.format).kernelTimeInRecord;
    std::vector<std::vector<LineIndex>> notices(static_cast<std::size_t>(slices));
    forEachSlice(LineIndex(0), end, slices, [&](int s, LineIndex from, LineIndex to) {
        StringDictionary &d = dicts[std::size_t(s)];
        auto event = run.events.begin() + std::ptrdiff_t(run.eventsBefore(from));
        char key[kTemplateMax + 1];
        // A flood repeats one template line after line. The message of the line before is
        // compared first (sameTemplate), which saves the masking; then the key of the line
        // before, which saves the hash and the lookup.
        char prevKey[kTemplateMax + 1];
        std::size_t prevLen = 0;
        std::uint32_t prevId = 0;
        constexpr std::size_t kPrevMessageMax = 256;
        char prevMessage[kPrevMessageMax];
        std::size_t prevMessageLen = 0;
        bool prevKernel = false, havePrevMessage = false;
        TextReader reader(run.lines);
        for (LineIndex i = from; i < to; ++i) {
            if ((i.value() & 0xffff) == 0 && cancel && cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                return;
            }
            const std::string_view text = reader.text(i);
            const bool kernel = run.lines.hasKernelTime(i);
            std::string_view msg = text;
            if (kernel) {
                const bool atStart = timeInText && !text.empty() && text[0] == '[' &&
                                     !(run.lines.flags(i) & KernelTimeNotAtStart);
                msg = atStart ? messageAfterTime(text) : messageOf(text);
            }
            std::uint32_t id = prevId;
            if (!havePrevMessage || kernel != prevKernel ||
                !sameTemplate(msg, std::string_view(prevMessage, prevMessageLen))) {
                key[0] = kernel ? 'K' : 'U';
                const std::size_t len = maskMessage(msg, key + 1);
                if (len + 1 != prevLen || std::memcmp(key, prevKey, prevLen) != 0) {
                    id = d.idOf(std::string_view(key, len + 1));
                    prevLen = len + 1;
                    std::memcpy(prevKey, key, prevLen);
                    prevId = id;
                }
                // The next lines are compared with this one (a flood's first line serves
                // for all that follow it).
                havePrevMessage = msg.size() <= kPrevMessageMax;
                if (havePrevMessage) {
                    std::memcpy(prevMessage, msg.data(), msg.size());
                    prevMessageLen = msg.size();
                }
                prevKernel = kernel;
            }
            // The line's events, walked once here: pass 2 reads the opener bit.
            bool dropHere = false, opener = false;
            for (; event != run.events.end() && event->line <= i; ++event) {
                if (event->line == i) {
                    dropHere = dropHere || event->kind == EventKind::Drop;
                    opener = opener || opensReport(event->kind);
                }
            }
            if (dropHere && kernel && msg.substr(0, 3) == "** ") {
                notices[std::size_t(s)].push_back(i);
            }
            // An empty kernel line inside a report (the sched debug part of a sysrq-t
            // dump prints them) is part of it.
            const bool body = kernel && (msg.empty() || isReportBody(msg));
            ids[i.value()] = id | (body ? kBodyBit : 0) | (opener && kernel ? kOpenerBit : 0);
        }
    });
    if (stopped) {
        return SourceIndex();
    }

    // One dictionary for the whole run.
    StringDictionary global(kMaxTemplates, std::string("U") + kOverflowText);
    std::vector<std::vector<std::uint32_t>> remap(static_cast<std::size_t>(slices));
    for (int s = 0; s < slices; ++s) {
        for (const std::string &k : dicts[std::size_t(s)].keys()) {
            remap[std::size_t(s)].push_back(global.idOf(k));
        }
        dicts[std::size_t(s)] = StringDictionary(1, {});
    }
    const std::uint32_t cutHere = global.idOf(kCutHere);
    const std::size_t nIds = global.keys().size();

    // Pass 2, on all cores: the slice's ids made global. Lines that may open or continue a
    // report (report bodies, "cut here", rule headlines) are set aside for pass 3; every
    // other line keeps its template, and the first line of each is the template's example.
    std::vector<std::vector<LineIndex>> special(static_cast<std::size_t>(slices));
    std::vector<std::vector<std::int64_t>> firsts(static_cast<std::size_t>(slices));
    forEachSlice(LineIndex(0), end, slices, [&](int s, LineIndex from, LineIndex to) {
        const std::vector<std::uint32_t> &map = remap[std::size_t(s)];
        std::vector<std::int64_t> &first = firsts[std::size_t(s)];
        first.assign(nIds, -1);
        std::vector<LineIndex> &set = special[std::size_t(s)];
        for (LineIndex i = from; i < to; ++i) {
            const std::uint32_t raw = ids[i.value()];
            const std::uint32_t g = map[raw & ~(kBodyBit | kOpenerBit)];
            const bool opener = g == cutHere || (raw & kOpenerBit);
            if (opener || (raw & kBodyBit)) {
                set.push_back(i);
                ids[i.value()] = g | (opener ? kOpenerBit : 0) | (raw & kBodyBit);
                continue;
            }
            ids[i.value()] = g;
            if (first[g] < 0) {
                first[g] = i.value();
            }
        }
    });

    // Pass 3, in line order over the lines set aside: report bodies take their header's id.
    std::vector<std::int64_t> example(nIds, -1);
    bool open = false, afterCutHere = false;
    std::uint32_t openId = 0;
    LineIndex last;
    TextReader reader(run.lines);
    for (const std::vector<LineIndex> &set : special) {
        for (const LineIndex i : set) {
            const std::uint32_t raw = ids[i.value()];
            const std::uint32_t g = raw & ~(kBodyBit | kOpenerBit);
            std::uint32_t id = g;
            if (raw & kOpenerBit) {
                // The WARNING line right after "cut here" belongs to the splat it opened.
                if (open && afterCutHere && g != cutHere && i - last <= 2_lines) {
                    id = openId;
                } else {
                    openId = g;
                }
                open = true;
                afterCutHere = g == cutHere;
                last = i;
            } else {
                if (open && i - last <= LineCount(kReportGap)) {
                    id = openId;
                } else {
                    // An indented line continues the record before it ("Zone ranges:",
                    // "  DMA [mem ...]"); another body line heads a report of its own.
                    const std::string_view m = messageOf(reader.text(i));
                    if (!m.empty() && m[0] == ' ') {
                        for (LineIndex j = i - 1_lines; j >= LineIndex(0) && i - j <= 4096_lines;
                             --j) {
                            if (run.lines.hasKernelTime(j)) {
                                id = ids[j.value()] & ~(kBodyBit | kOpenerBit);
                                break;
                            }
                        }
                    }
                    openId = id;
                    open = true;
                    afterCutHere = false;
                }
                last = i;
            }
            ids[i.value()] = id;
            if (example[id] < 0) {
                example[id] = i.value();
            }
        }
    }
    for (const std::vector<std::int64_t> &first : firsts) {
        for (std::size_t id = 0; id < nIds; ++id) {
            if (first[id] >= 0 && (example[id] < 0 || first[id] < example[id])) {
                example[id] = first[id];
            }
        }
    }
    for (const std::vector<LineIndex> &v : notices) {
        index.m_timedDropNotices.insert(index.m_timedDropNotices.end(), v.begin(), v.end());
    }
    index.m_lines = n;
    index.m_templates.reserve(global.keys().size());
    for (std::size_t id = 0; id < global.keys().size(); ++id) {
        const std::string &k = global.keys()[id];
        Template t;
        t.kernel = k[0] == 'K';
        t.text = k.substr(1);
        if (example[id] >= 0) {
            t.example = LineIndex(example[id]);
        }
        index.m_templates.push_back(std::move(t));
    }
    return index;
}

std::optional<std::uint32_t> SourceIndex::find(std::string_view text, bool kernel) const
{
    for (std::size_t id = 0; id < m_templates.size(); ++id) {
        if (m_templates[id].kernel == kernel && m_templates[id].text == text &&
            m_templates[id].example) {
            return std::uint32_t(id);
        }
    }
    return std::nullopt;
}

std::size_t SourceIndex::memoryBytes() const
{
    std::size_t b = std::size_t(m_lines) * sizeof(std::uint32_t) +
                    m_timedDropNotices.capacity() * sizeof(LineIndex);
    for (const Template &t : m_templates) {
        b += sizeof(Template) + t.text.capacity();
    }
    return b;
}

} // namespace tty
