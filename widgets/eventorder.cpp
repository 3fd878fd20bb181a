#include "eventorder.h"

#include "consoletext.h"
#include "event.h"

#include "parallel.h"
#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>

namespace tty {

namespace {

// A row's key: words compared in turn, so that numbers and text prefixes sort alike.
// `row` is the row's place in the rows given; `has` is false for a row without a value (it
// goes last).
struct RowKey
{
    static constexpr std::size_t kWords = 4;
    std::array<std::uint64_t, kWords> w{};
    std::uint32_t row = 0;
    bool has = false;
};

// Order-preserving maps to unsigned words.
std::uint64_t orderedBits(double d)
{
    std::uint64_t b = 0;
    std::memcpy(&b, &d, sizeof b);
    return (b >> 63) != 0 ? ~b : b | (std::uint64_t(1) << 63);
}
std::uint64_t orderedBits(std::int64_t v)
{
    return std::uint64_t(v) ^ (std::uint64_t(1) << 63);
}

// The first 32 bytes of the text, big-endian, zero-padded. 32, not 16: a console line
// starts with its 15-byte kernel time, so 16 bytes would tie every two lines of the same
// microsecond. A tie is settled by the whole text (a shorter text padded with zeros ties
// with one that has NULs there).
void setPrefix(std::string_view text, RowKey &k)
{
    unsigned char b[RowKey::kWords * 8] = {};
    std::memcpy(b, text.data(), std::min<std::size_t>(sizeof b, text.size()));
    for (std::size_t i = 0; i < sizeof b; ++i) {
        k.w[i / 8] = k.w[i / 8] << 8 | b[i];
    }
}

std::string printedOf(std::string_view text)
{
    return hasControls(text) ? printedText(text) : std::string(text);
}

// Every run's read lock, for one batch of rows: a live run may grow between batches (its
// events are only appended, so a row stays valid) but not while one is read. Batches keep
// a live capture's appends from waiting for a whole sort.
class BatchLock
{
public:
    explicit BatchLock(const QVector<TimelineRun> &runs)
    {
        for (const TimelineRun &r : runs) {
            m_locks.push_back(r.run->readLock());
        }
    }

private:
    std::vector<std::shared_lock<GrowLock>> m_locks;
};
constexpr std::size_t kBatchRows = 4096;
// Rows per thread: below this, threads cost more than they save.
constexpr std::size_t kRowsPerSlice = 16384;

bool cancelled(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

// An event's text; `near` (per run) holds the text piece decoded last, so that events of
// one piece (they come in line order) decode it once, not once each.
LineText eventText(const Run &run, const Event &e, LineText &near)
{
    if (e.note || e.line >= run.lines.endIndex()) {
        return run.eventText(e);
    }
    LineText t = run.lines.text(e.line, near);
    near = t;
    return t;
}

std::vector<int> ranksOf(const QVector<TimelineRun> &runs)
{
    std::vector<int> rank(std::size_t(runs.size()), 0);
    for (int a = 0; a < runs.size(); ++a) {
        for (int b = 0; b < runs.size(); ++b) {
            rank[std::size_t(a)] += runs[b].label < runs[a].label;
        }
    }
    return rank;
}

std::vector<int> kindRanks()
{
    std::vector<int> rank(kEventKindCount, 0);
    for (int a = 0; a < kEventKindCount; ++a) {
        for (int b = 0; b < kEventKindCount; ++b) {
            rank[std::size_t(a)] +=
                std::strcmp(eventKindName(EventKind(b)), eventKindName(EventKind(a))) < 0;
        }
    }
    return rank;
}

struct KeyContext
{
    const QVector<TimelineRun> &runs;
    EventSortKey key;
    std::vector<int> runRank = ranksOf(runs), kindRank = kindRanks();
};

RowKey keyOf(const EventRef &ref, const KeyContext &c, std::vector<LineText> &near)
{
    RowKey k;
    if (ref.first < 0 || ref.first >= c.runs.size()) {
        return k;
    }
    const TimelineRun &tr = c.runs[ref.first];
    const Run &run = *tr.run;
    if (ref.second < 0 || std::size_t(ref.second) >= run.events.size()) {
        return k;
    }
    const auto ei = std::size_t(ref.second);
    const Event &e = run.events[ei];
    switch (c.key) {
    case EventSortKey::Run:
        k.w[0] = std::uint64_t(c.runRank[std::size_t(ref.first)]);
        k.has = true;
        break;
    case EventSortKey::Kind:
        k.w[0] = std::uint64_t(c.kindRank[std::size_t(e.kind)]);
        k.w[1] = e.count;
        k.has = true;
        break;
    case EventSortKey::Arrival:
        if (const std::optional<RunSeconds> t = run.eventTime(ei)) {
            k.w[0] = orderedBits(tr.xOf(*t));
            k.has = true;
        }
        break;
    case EventSortKey::Kernel:
        if (const std::optional<KernelUs> t = run.eventKernelTime(e)) {
            k.w[0] = orderedBits(std::int64_t(t->count()));
            k.has = true;
        }
        break;
    case EventSortKey::Text: {
        const LineText t = eventText(run, e, near[std::size_t(ref.first)]);
        if (hasControls(t.view())) {
            setPrefix(printedText(t.view()), k);
        } else {
            setPrefix(t.view(), k);
        }
        k.has = true;
        break;
    }
    }
    return k;
}

// The keys of rows [from, to), a batch at a time. False when cancelled.
bool fillKeys(const std::vector<EventRef> &rows, const KeyContext &c, std::size_t from,
              std::size_t to, std::vector<RowKey> &keys, const std::atomic<bool> *cancel)
{
    std::vector<LineText> near(std::size_t(c.runs.size()));
    for (std::size_t b = from; b < to; b += kBatchRows) {
        if (cancelled(cancel)) {
            return false;
        }
        const BatchLock lock(c.runs);
        for (std::size_t i = b; i < std::min(to, b + kBatchRows); ++i) {
            keys[i] = keyOf(rows[i], c, near);
            keys[i].row = std::uint32_t(i);
        }
    }
    return true;
}

// Settles the rows whose text prefixes tie (sorted next to each other) by their whole
// texts. The texts of all such rows are read in one pass in the rows' own order, so that
// a text piece is decoded once, not once per tie.
bool settleTextTies(const std::vector<EventRef> &rows, const QVector<TimelineRun> &runs,
                    bool ascending, std::vector<RowKey> &keys, const std::atomic<bool> *cancel)
{
    std::vector<std::pair<std::size_t, std::size_t>> groups; // [begin, end) in keys
    for (std::size_t g = 0; g < keys.size();) {
        std::size_t h = g + 1;
        while (h < keys.size() && keys[h].has && keys[h].w == keys[g].w) {
            ++h;
        }
        if (h - g > 1 && keys[g].has) {
            groups.emplace_back(g, h);
        }
        g = h;
    }
    if (groups.empty()) {
        return true;
    }
    std::vector<std::size_t> tied; // places in keys, then in the rows' order
    for (const auto &[g, h] : groups) {
        for (std::size_t i = g; i < h; ++i) {
            tied.push_back(i);
        }
    }
    std::sort(tied.begin(), tied.end(),
              [&](std::size_t a, std::size_t b) { return keys[a].row < keys[b].row; });
    std::vector<std::string> texts(tied.size());
    std::vector<LineText> near(std::size_t(runs.size()));
    for (std::size_t b = 0; b < tied.size(); b += kBatchRows) {
        if (cancelled(cancel)) {
            return false;
        }
        const BatchLock lock(runs);
        for (std::size_t t = b; t < std::min(tied.size(), b + kBatchRows); ++t) {
            const EventRef &ref = rows[keys[tied[t]].row];
            const Run &run = *runs[ref.first].run;
            const LineText text =
                eventText(run, run.events[std::size_t(ref.second)], near[std::size_t(ref.first)]);
            texts[t] = printedOf(text.view());
            keys[tied[t]].w[0] = t; // the key's prefix is no longer needed: where its text is
        }
    }
    for (const auto &[g, h] : groups) {
        std::stable_sort(keys.begin() + std::ptrdiff_t(g), keys.begin() + std::ptrdiff_t(h),
                         [&](const RowKey &a, const RowKey &b) {
                             const int c = texts[a.w[0]].compare(texts[b.w[0]]);
                             return ascending ? c < 0 : c > 0;
                         });
    }
    return true;
}

// How two rows' keys order them: < 0 when a's row goes first, > 0 when b's, 0 when the
// keys tie. Rows without a key go last, in the order they were given.
int compareKeys(const RowKey &a, const RowKey &b, bool ascending)
{
    if (a.has != b.has) {
        return a.has ? -1 : 1;
    }
    if (!a.has || a.w == b.w) {
        return 0;
    }
    return (ascending ? a.w < b.w : b.w < a.w) ? -1 : 1;
}

// Whether a listed row comes before one row being placed, in orderEvents' order: by key,
// ties of a text key by the whole printed text, then in (run, event) order, as a stable
// sort of rows given in that order leaves them. The placed row's key and text are read
// once, not at every step of the search for its place.
class BeforePlaced
{
public:
    BeforePlaced(const QVector<TimelineRun> &runs, EventSortKey key, bool ascending)
        : m_context{runs, key}, m_ascending(ascending), m_near(std::size_t(runs.size()))
    {
    }
    void place(const EventRef &row)
    {
        m_row = row;
        m_key = keyOf(row, m_context, m_near);
        m_text.reset();
    }
    bool operator()(const EventRef &listed)
    {
        const RowKey key = keyOf(listed, m_context, m_near);
        if (const int c = compareKeys(key, m_key, m_ascending)) {
            return c < 0;
        }
        if (key.has && m_context.key == EventSortKey::Text) {
            if (!m_text) {
                m_text = textOf(m_row);
            }
            const int c = textOf(listed).compare(*m_text);
            if (c != 0) {
                return m_ascending ? c < 0 : c > 0;
            }
        }
        return listed < m_row;
    }

private:
    std::string textOf(const EventRef &r)
    {
        const Run &run = *m_context.runs[r.first].run;
        const LineText text =
            eventText(run, run.events[std::size_t(r.second)], m_near[std::size_t(r.first)]);
        return printedOf(text.view());
    }

    KeyContext m_context;
    bool m_ascending;
    std::vector<LineText> m_near;
    EventRef m_row{};
    RowKey m_key;
    std::optional<std::string> m_text;
};

} // namespace

std::vector<EventRef> orderEvents(std::vector<EventRef> rows, const QVector<TimelineRun> &runs,
                                  EventSortKey key, bool ascending, const std::atomic<bool> *cancel)
{
    const KeyContext context{runs, key};
    std::vector<RowKey> keys(rows.size());
    // Reading the texts decodes the pieces they are in: on every core for a big list.
    const int slices = sliceCount(rows.size(), kRowsPerSlice);
    std::vector<char> done(std::size_t(slices), 0);
    auto slice = [&](int s) {
        const std::size_t from = rows.size() * std::size_t(s) / std::size_t(slices);
        const std::size_t to = rows.size() * std::size_t(s + 1) / std::size_t(slices);
        done[std::size_t(s)] = fillKeys(rows, context, from, to, keys, cancel);
    };
    runAtOnce(slices, slice);
    if (std::find(done.begin(), done.end(), 0) != done.end()) {
        return rows;
    }
    std::stable_sort(keys.begin(), keys.end(), [ascending](const RowKey &a, const RowKey &b) {
        return compareKeys(a, b, ascending) < 0;
    });
    if (key == EventSortKey::Text && !settleTextTies(rows, runs, ascending, keys, cancel)) {
        return rows;
    }
    std::vector<EventRef> sorted;
    sorted.reserve(rows.size());
    for (const RowKey &k : keys) {
        sorted.push_back(rows[k.row]);
    }
    return sorted;
}

std::vector<EventRef> mergeEvents(const std::vector<EventRef> &sorted, std::vector<EventRef> added,
                                  const QVector<TimelineRun> &runs, EventSortKey key,
                                  bool ascending)
{
    if (added.empty()) {
        return sorted;
    }
    std::sort(added.begin(), added.end()); // (run, event): the order equal keys keep
    added = orderEvents(std::move(added), runs, key, ascending);
    BeforePlaced before(runs, key, ascending);
    std::vector<EventRef> out;
    out.reserve(sorted.size() + added.size());
    auto from = sorted.begin();
    for (const EventRef &row : added) {
        // The added rows are in order, so each one's place is at or after the last one's.
        before.place(row);
        const auto at =
            std::partition_point(from, sorted.end(), [&](const EventRef &s) { return before(s); });
        out.insert(out.end(), from, at);
        out.push_back(row);
        from = at;
    }
    out.insert(out.end(), from, sorted.end());
    return out;
}

} // namespace tty
