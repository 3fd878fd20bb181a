#include "sourcestats.h"

#include "kernelprefix.h"
#include "msgtemplate.h"
#include "parallel.h"
#include "stringdict.h"
#include "textreader.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace tty {

namespace {

// What one slice of lines adds to a source.
struct Acc
{
    std::int64_t lines = 0, bytes = 0, bootBytes = 0;
    LineIndex first, last;
    std::uint32_t firstTemplate = 0;
};

void add(Acc *a, LineIndex i, std::int64_t bytes, bool inBoot, std::uint32_t templ)
{
    if (a->lines == 0) {
        a->first = i;
        a->firstTemplate = templ;
    }
    a->last = i;
    ++a->lines;
    a->bytes += bytes;
    a->bootBytes += inBoot ? bytes : 0;
}

void merge(Acc *into, const Acc &a)
{
    if (a.lines == 0) {
        return;
    }
    if (into->lines == 0 || a.first < into->first) {
        into->first = a.first;
        into->firstTemplate = a.firstTemplate;
    }
    if (into->lines == 0 || a.last > into->last) {
        into->last = a.last;
    }
    into->lines += a.lines;
    into->bytes += a.bytes;
    into->bootBytes += a.bootBytes;
}

// The view lies in the reader's piece: valid until the reader's next call.
std::string_view messageOf(TextReader &reader, const Run &run, LineIndex i, KernelPrefix *prefix)
{
    const std::string_view text = reader.text(i);
    *prefix = parseKernelPrefix(text);
    if (!run.lines.hasKernelTime(i)) {
        return text;
    }
    return text.substr(std::min(prefix->message, text.size()));
}

// The grouping key of a line by prefix or caller; a leading byte keeps lines with and
// without a kernel timestamp apart ('K', 'U').
std::string keyOf(TextReader &reader, const Run &run, LineIndex i, SourceGrouping by)
{
    KernelPrefix p;
    const std::string_view msg = messageOf(reader, run, i, &p);
    const bool kernel = run.lines.hasKernelTime(i);
    std::string key(1, kernel ? 'K' : 'U');
    if (by == SourceGrouping::Prefix) {
        key += messagePrefix(msg);
    } else if (p.caller) {
        key += p.caller->kind;
        key += std::to_string(p.caller->id);
    }
    return key;
}

// The line after a drop interval that is its neighbour: DropSpan's, unless that is the
// drop notice itself with a kernel timestamp of its own; then the next timed line.
std::optional<LineIndex> dropNeighbourAfter(const SourceIndex &index, const Run &run,
                                            const DropSpan &d, LineIndex at, LineIndex end)
{
    if (!d.after || *d.after != at || !index.isTimedDropNotice(at)) {
        return d.after;
    }
    for (LineIndex i = at + 1_lines; i < std::min(end, at + 4096_lines); ++i) {
        if (run.lines.hasKernelTime(i)) {
            return i;
        }
    }
    return std::nullopt;
}

QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

std::optional<double> wire(std::int64_t bytes, int bitsPerChar, int baud)
{
    return baud > 0 ? std::optional<double>(double(bytes) * bitsPerChar / baud) : std::nullopt;
}

std::optional<double> timeOfLine(const Run &run, LineIndex i)
{
    std::optional<RunSeconds> t = run.hasArrival ? run.timeOf(i) : std::nullopt;
    if (!t) {
        t = run.producedAt(i);
    }
    return t ? std::optional<double>(t->count()) : std::nullopt;
}

} // namespace

std::int64_t sourceLineBytes(const Run &run, LineIndex i)
{
    const bool nl = !(run.lines.flags(i) & (NoNewline | Split));
    return std::int64_t(run.lines.textSize(i)) + (nl ? 2 : 0);
}

bool sourceGroupingFromName(const QString &name, SourceGrouping *out)
{
    if (name == QLatin1String("template")) {
        *out = SourceGrouping::Template;
    } else if (name == QLatin1String("prefix")) {
        *out = SourceGrouping::Prefix;
    } else if (name == QLatin1String("caller")) {
        *out = SourceGrouping::Caller;
    } else {
        return false;
    }
    return true;
}

QString sourceGroupingName(SourceGrouping g)
{
    switch (g) {
    case SourceGrouping::Prefix:
        return QStringLiteral("prefix");
    case SourceGrouping::Caller:
        return QStringLiteral("caller");
    case SourceGrouping::Template:
        break;
    }
    return QStringLiteral("template");
}

SourceTable computeSources(const Run &run, const SourceIndex &index, const Metrics &m,
                           SourceGrouping by)
{
    SourceTable t;
    t.by = by;
    const LineIndex first = m.first;
    const LineIndex end = std::min(m.end, LineIndex(0) + index.lines());
    std::optional<LineIndex> bootFrom, bootTo;
    if (m.bootDoneLine && *m.bootDoneLine >= first && *m.bootDoneLine < end) {
        const Boot &b = run.boots[std::size_t(run.bootOf(*m.bootDoneLine))];
        bootFrom = std::max(b.first, first);
        bootTo = *m.bootDoneLine;
    }
    const std::size_t nTemplates = index.templates().size();
    const int slices = sliceCount(std::max(end - first, 0_lines), LineCount(1 << 19));
    std::vector<std::vector<Acc>> accs(static_cast<std::size_t>(slices));
    // Keys other than templates are numbered per slice (4 KiB each to start: made only
    // when used, since a report of 10^5 boot trials computes 10^5 tables).
    std::vector<StringDictionary> dicts;
    if (by != SourceGrouping::Template) {
        dicts.assign(std::size_t(slices), StringDictionary(SourceIndex::kMaxTemplates, "U"));
    }
    forEachSlice(first, std::max(first, end), slices, [&](int s, LineIndex from, LineIndex to) {
        std::vector<Acc> &acc = accs[std::size_t(s)];
        TextReader reader(run.lines);
        if (by == SourceGrouping::Template) {
            acc.resize(nTemplates);
        }
        for (LineIndex i = from; i < to; ++i) {
            const std::uint32_t templ = index.templateOf(i);
            std::uint32_t g = templ;
            if (by != SourceGrouping::Template) {
                g = dicts[std::size_t(s)].idOf(keyOf(reader, run, i, by));
                if (g >= acc.size()) {
                    acc.resize(g + 1);
                }
            }
            const bool inBoot = bootFrom && i >= *bootFrom && i <= *bootTo;
            add(&acc[g], i, sourceLineBytes(run, i), inBoot, templ);
        }
    });

    // One list of sources: by template the ids are shared, else the keys are merged.
    std::vector<Acc> total;
    std::vector<std::string> keys;
    std::unordered_map<std::string, std::size_t> keyIndex;
    if (by == SourceGrouping::Template) {
        total.resize(nTemplates);
        for (const std::vector<Acc> &acc : accs) {
            for (std::size_t g = 0; g < acc.size(); ++g) {
                merge(&total[g], acc[g]);
            }
        }
    } else {
        for (int s = 0; s < slices; ++s) {
            const std::vector<std::string> &k = dicts[std::size_t(s)].keys();
            for (std::size_t g = 0; g < k.size(); ++g) {
                auto [it, inserted] = keyIndex.try_emplace(k[g], keys.size());
                if (inserted) {
                    keys.push_back(k[g]);
                    total.emplace_back();
                }
                merge(&total[it->second], accs[std::size_t(s)][g]);
            }
        }
    }
    TextReader reader(run.lines);
    auto groupOf = [&](LineIndex i) -> std::size_t {
        if (by == SourceGrouping::Template) {
            return index.templateOf(i);
        }
        return keyIndex.at(keyOf(reader, run, i, by));
    };

    // Drops: to the source on both sides of the drop interval, when it is one. A notice
    // that has a kernel timestamp of its own is no neighbour: the next timed line is.
    std::vector<std::int64_t> dropped(total.size(), 0);
    for (const DropSpan &d : run.drops) {
        const LineIndex at = run.events[d.event].line;
        if (at < first || at >= end) {
            continue;
        }
        const std::optional<LineIndex> after = dropNeighbourAfter(index, run, d, at, end);
        if (d.before && after && *d.before >= first && *after < end &&
            groupOf(*d.before) == groupOf(*after)) {
            dropped[groupOf(*d.before)] += d.count;
            t.droppedAttributed += d.count;
        } else {
            t.droppedUnattributed += d.count;
        }
    }

    // Bytes that were not the console's (a kernel log, a terminal's stamps) have no time
    // on the wire; a kernel log has none of the console's drop notices either.
    const int baud = m.bytesUnknown.isEmpty() ? m.baud : 0;
    if (!m.bytesUnknown.isEmpty()) {
        t.wireNote = m.bytesUnknown;
    } else if (m.baud <= 0) {
        t.wireNote = QStringLiteral("no baud rate");
    }
    t.dropNote = m.dropsUnknown;
    t.dropsAtLeast = m.backlogUnseen();
    t.bootTime = m.bootTime;
    if (!m.bootDoneLine) {
        t.bootNote = QStringLiteral("no line matches the boot-done pattern (--boot-pattern)");
    } else if (!m.bootTime) {
        const QString why = !m.bootStartNote.isEmpty()  ? m.bootStartNote
                            : !m.bootDoneNote.isEmpty() ? m.bootDoneNote
                                                        : QStringLiteral("no host arrival times");
        t.bootNote = QStringLiteral("no boot time (%1)").arg(why);
    } else if (baud <= 0) {
        t.bootNote = t.wireNote;
    }
    for (const Acc &a : total) {
        t.lines += a.lines;
        t.bytes += a.bytes;
    }
    t.wireSeconds = wire(t.bytes, m.bitsPerChar, baud);
    for (std::size_t g = 0; g < total.size(); ++g) {
        const Acc &a = total[g];
        if (a.lines == 0) {
            continue;
        }
        SourceStat s;
        const SourceIndex::Template &tp = index.templates()[a.firstTemplate];
        s.templ = QString::fromStdString(tp.text);
        s.kernel = tp.kernel;
        if (by == SourceGrouping::Template) {
            s.key = s.templ;
            s.prefix = q(messagePrefix(tp.text));
        } else {
            s.kernel = keys[g][0] == 'K';
            const QString k = q(std::string_view(keys[g]).substr(1));
            s.key = k;
            if (by == SourceGrouping::Prefix) {
                s.prefix = k;
            } else {
                s.caller = k;
                s.prefix = q(messagePrefix(tp.text));
            }
        }
        s.lines = a.lines;
        s.bytes = a.bytes;
        s.bootBytes = a.bootBytes;
        s.dropped = dropped[g];
        s.firstLine = a.first;
        s.lastLine = a.last;
        s.templateId = a.firstTemplate;
        const LineText example = run.lines.text(a.first);
        s.example = q(example.view());
        s.wireSeconds = wire(s.bytes, m.bitsPerChar, baud);
        if (s.wireSeconds && t.bytes > 0) {
            s.wireShare = double(s.bytes) / double(t.bytes);
        }
        if (t.bootNote.isEmpty() && *m.bootTime > 0) {
            s.bootWireSeconds = wire(s.bootBytes, m.bitsPerChar, baud);
            s.bootShare = *s.bootWireSeconds / *m.bootTime;
        }
        s.firstS = timeOfLine(run, a.first);
        s.lastS = timeOfLine(run, a.last);
        if (s.firstS && s.lastS && *s.lastS > *s.firstS && s.lines > 1) {
            s.rate = double(s.lines - 1) / (*s.lastS - *s.firstS);
        }
        t.sources.push_back(std::move(s));
    }
    if (t.bootNote.isEmpty() && m.bootTime && *m.bootTime <= 0) {
        t.bootNote = QStringLiteral("the boot time is not positive");
    }
    if (!t.sources.empty() && !t.sources.front().firstS) {
        t.timeNote = QStringLiteral("the lines have no time");
    }
    if (!run.hasArrival) {
        // A burst the kernel produced in 2 ms reads 14000 lines/s here; printed at 115200
        // baud it came at a few hundred: the two must not be read as one figure.
        t.clockNote = QStringLiteral("by kernel time, when the lines were produced (the "
                                     "format has no host times: when they were printed is "
                                     "not known)");
    }
    std::sort(t.sources.begin(), t.sources.end(), [](const SourceStat &a, const SourceStat &b) {
        if (a.bytes != b.bytes) {
            return a.bytes > b.bytes;
        }
        if (a.lines != b.lines) {
            return a.lines > b.lines;
        }
        return a.key < b.key;
    });
    return t;
}

std::vector<LineIndex> linesOfSource(const Run &run, const SourceIndex &index,
                                     const SourceStat &source, SourceGrouping by, LineIndex first,
                                     LineIndex end)
{
    std::vector<LineIndex> out;
    end = std::min(end, LineIndex(0) + index.lines());
    std::string key;
    if (by != SourceGrouping::Template) {
        key = std::string(1, source.kernel ? 'K' : 'U') + source.key.toStdString();
    }
    TextReader reader(run.lines);
    for (LineIndex i = first; i < end; ++i) {
        const bool in = by == SourceGrouping::Template ? index.templateOf(i) == source.templateId
                                                       : keyOf(reader, run, i, by) == key;
        if (in) {
            out.push_back(i);
        }
    }
    return out;
}

QString SourceDiff::markText() const
{
    if (mark == Mark::New) {
        return QStringLiteral("new");
    }
    if (mark == Mark::Gone) {
        return QStringLiteral("gone");
    }
    if (ratio && *ratio >= 2) {
        return QStringLiteral("grew ×%1").arg(*ratio, 0, 'f', 1);
    }
    if (ratio && *ratio > 0 && *ratio <= 0.5) {
        return QStringLiteral("shrank ×%1").arg(1 / *ratio, 0, 'f', 1);
    }
    return {};
}

SourceComparison compareSources(const std::vector<const SourceTable *> &a,
                                const std::vector<const SourceTable *> &b)
{
    SourceComparison c;
    if (!a.empty()) {
        c.by = a.front()->by;
    }
    std::unordered_map<QString, std::size_t> at;
    auto known = [](const std::vector<const SourceTable *> &side, bool boot) {
        bool k = !side.empty();
        for (const SourceTable *t : side) {
            k = k && (boot ? t->bootNote : t->wireNote).isEmpty();
        }
        return k;
    };
    auto collect = [&](const std::vector<const SourceTable *> &side, bool isB) {
        const double n = double(std::max<std::size_t>(side.size(), 1));
        for (const SourceTable *t : side) {
            for (const SourceStat &s : t->sources) {
                const QString key = (s.kernel ? QLatin1Char('K') : QLatin1Char('U')) + s.key;
                auto [it, inserted] = at.try_emplace(key, c.sources.size());
                if (inserted) {
                    SourceDiff d;
                    d.key = s.key;
                    d.templ = s.templ;
                    d.prefix = s.prefix;
                    d.kernel = s.kernel;
                    c.sources.push_back(d);
                }
                SourceDiff &d = c.sources[it->second];
                (isB ? d.linesB : d.linesA) += double(s.lines) / n;
                (isB ? d.bytesB : d.bytesA) += double(s.bytes) / n;
                (isB ? d.bootBytesB : d.bootBytesA) += double(s.bootBytes) / n;
                std::optional<double> &w = isB ? d.wireB : d.wireA;
                w = w.value_or(0) + s.wireSeconds.value_or(0) / n;
                std::optional<double> &bw = isB ? d.bootWireB : d.bootWireA;
                bw = bw.value_or(0) + s.bootWireSeconds.value_or(0) / n;
            }
        }
    };
    collect(a, false);
    collect(b, true);
    const bool wireA = known(a, false), wireB = known(b, false);
    const bool bootA = known(a, true), bootB = known(b, true);
    for (SourceDiff &d : c.sources) {
        d.wireA = wireA ? std::optional<double>(d.wireA.value_or(0)) : std::nullopt;
        d.wireB = wireB ? std::optional<double>(d.wireB.value_or(0)) : std::nullopt;
        d.bootWireA = bootA ? std::optional<double>(d.bootWireA.value_or(0)) : std::nullopt;
        d.bootWireB = bootB ? std::optional<double>(d.bootWireB.value_or(0)) : std::nullopt;
        d.mark = d.linesA == 0 ? SourceDiff::Mark::New
                               : (d.linesB == 0 ? SourceDiff::Mark::Gone : SourceDiff::Mark::Both);
        if (d.bytesA > 0) {
            d.ratio = d.bytesB / d.bytesA;
        }
        c.newSources += d.mark == SourceDiff::Mark::New ? 1 : 0;
        c.goneSources += d.mark == SourceDiff::Mark::Gone ? 1 : 0;
    }
    std::sort(c.sources.begin(), c.sources.end(), [](const SourceDiff &x, const SourceDiff &y) {
        const double dx = std::fabs(x.bytesB - x.bytesA), dy = std::fabs(y.bytesB - y.bytesA);
        if (dx != dy) {
            return dx > dy;
        }
        return x.key < y.key;
    });

    // The verbose boot's added sources against its extra boot time.
    auto meanBoot = [](const std::vector<const SourceTable *> &side) -> std::optional<double> {
        double sum = 0;
        for (const SourceTable *t : side) {
            if (!t->bootTime) {
                return std::nullopt;
            }
            sum += *t->bootTime;
        }
        return side.empty() ? std::nullopt : std::optional<double>(sum / double(side.size()));
    };
    const std::optional<double> ba = meanBoot(a), bb = meanBoot(b);
    if (!bootB) {
        c.note = b.empty() ? QStringLiteral("no B") : QStringLiteral("B: ") + b.front()->bootNote;
    } else if (!ba || !bb) {
        c.note = QStringLiteral("A has no boot time");
    } else {
        double added = 0;
        for (const SourceDiff &d : c.sources) {
            added += d.mark == SourceDiff::Mark::New ? d.bootWireB.value_or(0) : 0;
        }
        c.newBootWireSeconds = added;
        c.extraBootSeconds = *bb - *ba;
        if (*c.extraBootSeconds > 0) {
            c.newShareOfExtraBoot = added / *c.extraBootSeconds;
        } else {
            c.note = QStringLiteral("B did not take longer to boot");
        }
    }
    return c;
}

} // namespace tty
