#include "run.h"

#include "bootstart.h"
#include "parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tty {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Bins of the series' finest level: setting up a million bins cost a small log most of its
// load time. A few per line resolve any burst the lines can make, and the floor keeps a
// short log's lanes at about one bin per pixel on any screen (lanedata.cpp picks the level
// with at most one bin per pixel, falling back to the finest).
std::size_t seriesBins(LineCount lines)
{
    constexpr std::size_t kFloor = 4096, kCeiling = std::size_t(1) << 20;
    return std::clamp(std::size_t(lines.count()) * 16, kFloor, kCeiling);
}
} // namespace

std::optional<RunSeconds> Run::timeOf(LineIndex i) const
{
    return runTimeOf(lines.arrival(i));
}

std::optional<RunSeconds> Run::runTimeOf(std::optional<HostNs> at) const
{
    return at ? std::optional<RunSeconds>(RunSeconds(toSeconds(*at - origin))) : std::nullopt;
}

Run::WireSpan Run::wireSpan(double arrived, double bytes, std::optional<RunSeconds> next,
                            double *frontier) const
{
    if (meta.baud <= 0 || !std::isfinite(arrived)) {
        return {arrived, arrived};
    }
    // 10 bits a byte on the wire (8N1).
    double end = arrived + bytes * 10.0 / double(meta.baud);
    if (next) {
        end = std::min(end, std::max(arrived, next->count()));
    }
    const double from = std::max(arrived, *frontier);
    if (!(end > from)) {
        return {arrived, arrived};
    }
    *frontier = end;
    return {from, end};
}

double Run::wireBytes(LineIndex i) const
{
    const bool nl = !(lines.flags(i) & (NoNewline | Split));
    return double(lines.textSize(i) + (nl ? formatInfo(meta.format).lineEndingBytes : 0));
}

std::optional<RunSeconds> Run::producedAt(LineIndex i) const
{
    const std::optional<KernelUs> k = lines.kernelTime(i);
    // No boot yet: a live capture that prints its events as they come (`capture
    // --headless`) has not split its lines into boots, so no clock ties the two.
    if (!k || boots.empty()) {
        return std::nullopt;
    }
    const Boot &b = boots[std::size_t(bootOf(i))];
    if (hasArrival && b.kernelZero) {
        return RunSeconds(toSeconds(*b.kernelZeroAt(i) - origin) + toSeconds(*k) * b.kernelRate);
    }
    return b.timeBase + Seconds(toSeconds(*k));
}

std::optional<Seconds> Run::lagOf(LineIndex i) const
{
    // A timestamp behind other text arrived later than the line's first byte: its lag
    // would be wrong, so it has none.
    if (!hasArrival || (lines.flags(i) & KernelTimeNotAtStart)) {
        return std::nullopt;
    }
    const std::optional<RunSeconds> p = producedAt(i);
    const std::optional<RunSeconds> t = timeOf(i);
    if (!p || !t) {
        return std::nullopt;
    }
    return *t - *p;
}

LineIndex Run::lineAt(RunSeconds at) const
{
    LineIndex lo{0}, hi = lines.endIndex();
    if (lines.empty() || !std::isfinite(at.count())) {
        return LineIndex(0);
    }
    const HostNs t = hostTimeAt(at);
    while (lo < hi) {
        const LineIndex mid = lo + (hi - lo) / 2;
        if (lines.arrival(mid) <= t) {
            lo = mid + 1_lines;
        } else {
            hi = mid;
        }
    }
    return lo > LineIndex(0) ? lo - 1_lines : LineIndex(0);
}

int Run::bootOf(LineIndex i) const
{
    auto it = std::upper_bound(boots.begin(), boots.end(), i,
                               [](LineIndex v, const Boot &b) { return v < b.first; });
    return it == boots.begin() ? 0 : int(it - boots.begin()) - 1;
}

Run::BootRange Run::bootsOverlapping(LineIndex first, LineIndex end) const
{
    // Boots are in line order and do not overlap: both their firsts and ends increase.
    const auto lo = std::partition_point(boots.begin(), boots.end(),
                                         [&](const Boot &b) { return b.end <= first; });
    const auto hi = first < end ? std::partition_point(lo, boots.end(),
                                                       [&](const Boot &b) { return b.first < end; })
                                : lo;
    return {boots.data() + (lo - boots.begin()), boots.data() + (hi - boots.begin())};
}

std::size_t Run::eventsBefore(LineIndex line) const
{
    return std::size_t(std::lower_bound(events.begin(), events.end(), line,
                                        [](const Event &e, LineIndex l) { return e.line < l; }) -
                       events.begin());
}

LineText Run::eventText(const Event &e) const
{
    if (e.note && *e.note >= 0 && std::size_t(*e.note) < notes.size()) {
        return LineText(notes[std::size_t(*e.note)]);
    }
    if (e.line < lines.endIndex()) {
        return lines.text(e.line);
    }
    return LineText();
}

std::optional<HostNs> Run::eventArrival(const Event &e) const
{
    if (e.arrival) {
        return e.arrival;
    }
    if (e.line >= lines.endIndex()) {
        return std::nullopt;
    }
    // Firmware and drop notices start their line: they came with its first byte, or
    // with the next line's behind the system before's prompt. Every other event is in
    // the kernel's text, which came after any other text in front of its timestamp: a
    // boot loader's, a prompt's (bootstart.h).
    if (onlyEndKnown(*this, e.line)) {
        return std::nullopt; // stamped when the input ended (moreutils ts)
    }
    if (e.kind == EventKind::Firmware || e.kind == EventKind::Drop) {
        return lines.arrival(arrivalStandIn(*this, e.line, lines.endIndex()));
    }
    if (e.inFront) {
        // A --mark on "Probing EDD ... [ 0.0] Linux version": the line's first byte, not
        // known when the stamp is the line's end.
        return arrivalIsLineEnd ? frontAnswered(*this, e.line) : lines.arrival(e.line);
    }
    return kernelTextArrival(*this, e.line);
}

std::optional<KernelUs> Run::eventKernelTime(const Event &e) const
{
    if (e.note || e.line >= lines.endIndex()) {
        return std::nullopt;
    }
    const bool startsLine = e.kind == EventKind::Firmware || e.kind == EventKind::Drop;
    if ((e.inFront || startsLine) && (lines.flags(e.line) & KernelTimeNotAtStart)) {
        return std::nullopt;
    }
    return lines.kernelTime(e.line);
}

std::optional<RunSeconds> Run::eventTime(const Event &e) const
{
    const std::optional<HostNs> a = eventArrival(e);
    return a ? std::optional<RunSeconds>(RunSeconds(toSeconds(*a - origin))) : std::nullopt;
}

void Run::placeDrops()
{
    // Records are printed in the order they were logged, so the dropped ones lie between
    // the printed neighbours. A neighbour is looked for within its boot and a bounded
    // distance (a drop in a stretch of untimed lines has no bound on that side).
    //
    // Drops are in line order, and each search stops where the previous drop's search in
    // the same boot already looked: the lines between two drops are read once from each
    // side, not once per drop. A log without kernel times and 10^6 drop notices read 8,192
    // lines per drop (about 25 s), for neighbours none of them had.
    constexpr LineCount kMaxLook{4096};
    drops.clear();
    LineIndex previousLine; // where the last drop placed is, and its boot
    int previousBoot = -1;
    LineIndex previousLookEnd; // one past the last line its forward search read
    for (std::size_t e = 0; e < events.size(); ++e) {
        const Event &ev = events[e];
        if (ev.kind != EventKind::Drop) {
            continue;
        }
        const DropSpan *previous = drops.empty() ? nullptr : &drops.back();
        DropSpan d;
        d.event = e;
        d.count = ev.count;
        const int bi = bootOf(std::min(ev.line, lines.endIndex() - 1_lines));
        const Boot &b = boots[std::size_t(bi)];
        const LineIndex lowest = std::max(b.first, ev.line - kMaxLook);
        const LineIndex limit = std::min(b.end, ev.line + kMaxLook);
        // The previous drop's searches cover what lies behind it, as far back as ours.
        const bool follows =
            previous && previousBoot == bi && previousLine >= lowest && previousLine <= ev.line;
        for (LineIndex i = ev.line - 1_lines; i >= (follows ? previousLine : lowest); --i) {
            if (lines.kernelTime(i)) {
                d.before = i;
                break;
            }
        }
        if (!d.before && follows && previous->before && *previous->before >= lowest) {
            d.before = previous->before;
        }
        // A notice glued in front of a record (older kernels) came before that record.
        LineIndex from = ev.line;
        if (follows && previous->after && *previous->after >= ev.line) {
            // The previous drop's neighbour after is ours: it is in our boot and nearer
            // than the previous drop's own limit, which is not beyond ours.
            from = limit;
            d.after = previous->after;
        } else if (follows && !previous->after) {
            from = std::max(from, previousLookEnd); // read up to there: no kernel time
        }
        LineIndex i = from;
        for (; i < limit; ++i) {
            if (lines.kernelTime(i)) {
                d.after = i;
                break;
            }
        }
        if (d.before) {
            d.from = producedAt(*d.before);
        }
        if (d.after) {
            d.to = producedAt(*d.after);
        }
        if (!d.from) {
            d.from = d.to;
        }
        if (!d.to) {
            d.to = d.from;
        }
        drops.push_back(d);
        previousLine = ev.line;
        previousBoot = bi;
        previousLookEnd = i;
    }
}

void Run::fillSeries(SeriesPyramid::Level &fine, LineIndex from, LineIndex to) const
{
    // Arrival times are sorted and kernel times nearly so: a line's bin is found with a
    // comparison against the bin's bounds, and a bin's sums are kept in locals until the
    // bin changes (16 M lines go into at most 1 M bins).
    struct Bins
    {
        const SeriesPyramid &s;
        double lo = std::numeric_limits<double>::infinity(), hi = lo;
        std::ptrdiff_t cached = -1;
        std::ptrdiff_t of(double t)
        {
            if (!(t >= lo && t < hi)) {
                cached = s.binAt(t);
                lo = cached >= 0 ? t : std::numeric_limits<double>::infinity();
                hi = cached >= 0 ? s.binEndBelow(cached) : lo;
            }
            return cached;
        }
    };
    Bins producedBins{series}, arrivalBins{series};
    std::ptrdiff_t producedBin = -1, arrivalBin = -1;
    double produced = 0, printed = 0, bytes = 0, lagSum = 0, lagCount = 0;
    float lagMax = 0;
    auto flushProduced = [&] {
        SeriesPyramid::addAt(fine, Channel::Produced, producedBin, float(produced));
        produced = 0;
    };
    auto flushArrived = [&] {
        SeriesPyramid::addAt(fine, Channel::Printed, arrivalBin, float(printed));
        SeriesPyramid::addAt(fine, Channel::Bytes, arrivalBin, float(bytes));
        if (lagCount > 0) {
            SeriesPyramid::maxAt(fine, Channel::LagMax, arrivalBin, lagMax);
            SeriesPyramid::addAt(fine, Channel::LagSum, arrivalBin, float(lagSum));
            SeriesPyramid::addAt(fine, Channel::LagCount, arrivalBin, float(lagCount));
        }
        printed = bytes = lagSum = lagCount = 0;
    };
    WirePass wire(*this);
    // Boot by boot so that a line's production time needs no boot lookup.
    const int ending = formatInfo(meta.format).lineEndingBytes;
    for (const Boot &b : bootsOverlapping(from, to)) {
        const LineIndex first = std::max(from, b.first), end = std::min(to, b.end);
        double base = bootBase(b, first).count(); // the series bins by plain seconds
        Boot::ShiftWalk shifts(b, first);
        for (LineIndex i = first; i < end; ++i) {
            if (shifts.at(i)) {
                base = bootBase(b, i).count();
            }
            const std::optional<KernelUs> k = lines.kernelTime(i);
            const double p = k ? base + toSeconds(*k) * b.kernelRate : kNaN;
            if (k) {
                const std::ptrdiff_t bin = producedBins.of(p);
                if (bin != producedBin) {
                    flushProduced();
                    producedBin = bin;
                }
                produced += 1;
            }
            // A line without an arrival time is in no arrival bin.
            const std::optional<RunSeconds> arrived = hasArrival ? wire.arrival(i) : std::nullopt;
            if (!arrived) {
                continue;
            }
            const double t = arrived->count();
            const std::ptrdiff_t bin = arrivalBins.of(t);
            if (bin != arrivalBin) {
                flushArrived();
                arrivalBin = bin;
            }
            const std::uint16_t f = lines.flags(i);
            printed += 1;
            const bool nl = !(f & (NoNewline | Split));
            const double lineBytes = double(lines.textSize(i) + (nl ? ending : 0));
            // The bytes over the time they took on the wire: at 115200 a line takes several
            // milliseconds, and all of it in its arrival's bin made a zoomed lane jump
            // between 0 and several times the UART's capacity.
            const WireSpan sent = wire.span(i, t, lineBytes);
            if (sent.empty() || (sent.from == t && sent.to <= arrivalBins.hi)) {
                bytes += lineBytes;
            } else {
                series.addSpreadTo(fine, Channel::Bytes, sent.from, sent.to, lineBytes);
            }
            if (k && !(f & KernelTimeNotAtStart)) {
                const float lag = float(t - p);
                lagMax = lagCount > 0 ? std::max(lagMax, lag) : lag;
                lagSum += double(lag);
                lagCount += 1;
            }
        }
    }
    flushProduced();
    flushArrived();
}

void Run::finalize()
{
    const auto byLine = [](const Event &a, const Event &b) { return a.line < b.line; };
    if (!std::is_sorted(events.begin(), events.end(), byLine)) {
        std::stable_sort(events.begin(), events.end(), byLine);
        m_split = BootSplit{}; // it went through the events in the old order
    }
    std::vector<BootScan> scans;
    splitBoots(&scans);
    // Run second 0 is the first arrival: a format's first lines may have none (tio
    // stamps no line of CRs alone, and a port often starts with one).
    if (hasArrival) {
        for (LineIndex i(0); i < lines.endIndex(); ++i) {
            if (const std::optional<HostNs> a = lines.arrival(i)) {
                origin = *a;
                break;
            }
        }
    }
    estimateOffsets(scans);

    // The series range from the boots' kernel-time extremes and the last arrival (the
    // same values as timeOf/producedAt give, without a pass over the lines).
    // The range holds the data only: a raw capture attached to a running board starts at
    // kernel time 88 s, and its timeline is not to begin 88 s before its first line.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    if (m_lastArrival) {
        // The first arrival: run second 0 with host times, else where the layout put the
        // first line.
        const std::optional<HostNs> first = hasArrival || lines.empty()
                                                ? std::optional<HostNs>(origin)
                                                : lines.arrival(LineIndex(0));
        lo = toSeconds(first.value_or(origin) - origin);
        // Up to where the last line's bytes left the UART (the series spreads them).
        const double last = toSeconds(*m_lastArrival - origin);
        double frontier = -std::numeric_limits<double>::infinity();
        hi = std::max(hi, lines.empty()
                              ? last
                              : std::max(last, wireSpan(last, wireBytes(lines.endIndex() - 1_lines),
                                                        std::nullopt, &frontier)
                                                   .to));
    }
    for (std::size_t bi = 0; bi < boots.size(); ++bi) {
        if (scans[bi].minKernel <= scans[bi].maxKernel) {
            const double base = bootBase(boots[bi]).count();
            const double rate = boots[bi].kernelRate;
            lo = std::min(lo, base + toSeconds(scans[bi].minKernel) * rate);
            hi = std::max(hi, base + toSeconds(scans[bi].maxKernel) * rate);
        }
    }
    if (!(lo <= hi)) {
        lo = hi = 0; // no line has a time
    }
    series.reset(lo, hi, seriesBins(lines.size()));
    series.setPresent(Channel::Produced, kernelLines > 0);
    for (Channel c :
         {Channel::Printed, Channel::Bytes, Channel::LagMax, Channel::LagSum, Channel::LagCount}) {
        series.setPresent(c, hasArrival);
    }
    series.setPresent(Channel::Dropped, true);
    // Big runs are filled by slices at once, each slice on a zeroed copy of the finest
    // level but the first, which fills the series itself.
    const int slices = sliceCount(lines.size());
    std::vector<SeriesPyramid::Level> parts(std::size_t(slices - 1));
    for (SeriesPyramid::Level &p : parts) {
        p = series.emptyFinest();
    }
    forEachSlice(LineIndex(0), lines.endIndex(), slices, [&](int s, LineIndex from, LineIndex to) {
        fillSeries(s == 0 ? series.finest() : parts[std::size_t(s - 1)], from, to);
    });
    for (const SeriesPyramid::Level &p : parts) {
        series.mergeFinest(p);
    }
    m_eventTimes.resize(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
        m_eventTimes[i] = eventTime(events[i]);
        if (events[i].kind == EventKind::Drop && m_eventTimes[i] &&
            events[i].count != kCountOutOfRange) {
            series.add(Channel::Dropped, m_eventTimes[i]->count(), float(events[i].count));
        }
    }
    eventsByKind.build(events, m_eventTimes);
    // Dropped messages were produced too: spread over the time they were produced in.
    placeDrops();
    for (const DropSpan &d : drops) {
        if (d.from && d.to && d.count != kCountOutOfRange) {
            series.addSpread(Channel::Produced, d.from->count(), d.to->count(), float(d.count));
        }
    }
    series.build();
}

} // namespace tty