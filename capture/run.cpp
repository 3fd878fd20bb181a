#include "run.h"

#include "bootstart.h"
#include "kernelprefix.h"
#include "parallel.h"
#include "runbuilder.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tty {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Kernel time falling back starts a new boot even without a banner (it may have been
// dropped) when it falls back to near zero by a clear margin, or by a lot. Small steps back
// are normal: CPUs log out of order during SMP bring-up (calibrate_delay on a secondary).
constexpr KernelUs kNewBootMax{1000000};
constexpr Microseconds kNewBootMinDrop{2000000};
constexpr Microseconds kAlwaysNewBootDrop{30000000};
// After a reboot/power-off/panic line or a silence, a fall of this much is a new boot.
constexpr Microseconds kRestartAfterCue{100000};
constexpr Nanoseconds kSilence{3000000000LL};

double seconds(Nanoseconds d)
{
    return double(d.count()) * 1e-9;
}
double seconds(KernelUs k)
{
    return double(k.count()) * 1e-6;
}

// The release named by a "Linux version <release> ..." banner; the banner may end right
// after it (a line cut short), and a line's text is not NUL-terminated.
QString bannerVersion(std::string_view line)
{
    constexpr std::string_view kBanner = "Linux version ";
    const std::size_t p = line.find(kBanner);
    if (p == std::string_view::npos) {
        return {};
    }
    const std::string_view rest = line.substr(p + kBanner.size());
    const std::string_view release = rest.substr(0, rest.find(' '));
    return QString::fromUtf8(release.data(), qsizetype(release.size()));
}

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
    return at ? std::optional<RunSeconds>(RunSeconds(seconds(*at - origin))) : std::nullopt;
}

std::optional<RunSeconds> Run::producedAt(LineIndex i) const
{
    const std::optional<KernelUs> k = lines.kernelTime(i);
    if (!k) {
        return std::nullopt;
    }
    const Boot &b = boots[std::size_t(bootOf(i))];
    if (hasArrival && b.kernelZero) {
        return RunSeconds(seconds(*b.kernelZeroAt(i) - origin) + seconds(*k) * b.kernelRate);
    }
    return b.timeBase + Seconds(seconds(*k));
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
    return a ? std::optional<RunSeconds>(RunSeconds(seconds(*a - origin))) : std::nullopt;
}

void Run::advanceBootSplit(BootSplit *s, LineIndex end) const
{
    // One pass over the kernel times (and arrivals): boots, kernel lines, and per boot the
    // lower envelope of (arrival - kernel time) and the extremes of kernel time, so that
    // neither the offsets nor the series range need another pass over every line.
    end = std::min(end, lines.endIndex());
    for (LineIndex i = s->done; i < end; ++i) {
        const HostNs arrival = hasArrival ? lines.arrival(i).value_or(kNoHost) : kNoHost;
        const HostNs previousArrival = s->lastArrival;
        s->lastArrival = std::max(s->lastArrival, arrival);
        while (s->event < events.size() && events[s->event].line < i) {
            ++s->event;
        }
        bool banner = false, firmware = false, ending = false;
        for (std::size_t e = s->event; e < events.size() && events[e].line == i; ++e) {
            const EventKind k = events[e].kind;
            if (events[e].note) {
                continue; // recorded markers and gaps say nothing about the kernel
            }
            banner = banner || k == EventKind::Boot;
            firmware = firmware || k == EventKind::Firmware;
            ending = ending || k == EventKind::Reboot || k == EventKind::Panic ||
                     k == EventKind::PanicEnd;
        }
        const std::optional<KernelUs> kt = lines.kernelTime(i);
        const bool started = s->cur.firstKernelLine.has_value();
        if (started && firmware) {
            // Firmware output (or the terminal reset it starts with) ends the boot before:
            // the new boot starts at this line, with everything after the old kernel's
            // last line (its shutdown, a login prompt) left to the old boot.
            closeBoot(s, i);
        } else if (started && ((banner && !beforeOwnBanner(*s, i, kt)) ||
                               (kt && clockRestarted(*s, *kt, arrival)))) {
            // Output between the two kernels that is not the old system's prompt (a boot
            // loader's, firmware's not known as such) belongs to the new boot.
            closeBoot(s, handoverLine(*s, i));
        }
        s->ended = s->ended || ending;
        if (!kt) {
            continue;
        }
        ++s->kernelLines;
        if (!s->cur.firstKernelLine) {
            s->cur.firstKernelLine = i;
        }
        s->lastKt = *kt;
        s->lastKernelLine = i;
        s->lastKernelArrival = arrival != kNoHost ? arrival : s->lastKernelArrival;
        s->scan.minKernel = std::min(s->scan.minKernel, *kt);
        s->scan.maxKernel = std::max(s->scan.maxKernel, *kt);
        if (arrival != kNoHost && !(lines.flags(i) & KernelTimeNotAtStart)) {
            const HostNs lag = arrival - kt->sinceOrigin();
            trackClockShift(&s->scan, i, lag,
                            previousArrival != kNoHost ? arrival - previousArrival
                                                       : Nanoseconds(0));
            HostNs &zero = s->scan.shifts.empty() ? s->scan.envelope : s->scan.shifts.back().zero;
            zero = std::min(zero, lag);
            // The same second of silence as a clock shift's proof: the line went out as
            // soon as it was produced. Not a line stamped 0: printk stamps its messages 0
            // until the kernel's clock runs (`[    0.000000] Command line: ...`), so that
            // time is not when it was produced.
            if (s->scan.shifts.empty() && previousArrival != kNoHost &&
                arrival - previousArrival >= std::chrono::seconds(1) &&
                kt->sinceOrigin().count() > 0) {
                s->scan.idle.add(*kt, lag);
            }
        }
    }
    s->done = std::max(s->done, end);
}

void Run::trackClockShift(BootScan *scan, LineIndex i, HostNs lag, Nanoseconds silence)
{
    // lag is arrival - kernel time: a line's console lag plus the boot's offset. A console
    // that had caught up (the lag at its floor) and then shows the floor raised by a jump
    // it never comes back from has not built a backlog: its clocks moved apart. A line
    // that came after the console had been idle for `silence` was produced at most that
    // long before it came (a console with a backlog is never idle), so a lag beyond its
    // floor by more than the silence proves the shift.
    constexpr Nanoseconds kShift = std::chrono::seconds(1); // the least shift found
    constexpr Nanoseconds kIdle = std::chrono::seconds(1);  // the least silence that proves
    const HostNs floor = scan->shifts.empty() ? scan->envelope : scan->shifts.back().zero;
    const HostNs last = scan->lastLag;
    scan->lastLag = lag;
    if (last == kNoHost || floor == BootScan().envelope) {
        return;
    }
    if (lag - floor < kShift / 2) {
        scan->jump = Nanoseconds(0); // back at the floor: no shift so far
        return;
    }
    const Nanoseconds jump = lag - last;
    if (jump > scan->jump && last - floor < kShift / 2) {
        scan->jump = jump;
        scan->jumpLine = i;
        scan->leastSinceJump = lag;
    } else if (scan->jump > Nanoseconds(0)) {
        scan->leastSinceJump = std::min(scan->leastSinceJump, lag);
    }
    if (scan->jump >= kShift && silence >= kIdle && (lag - floor) - silence >= kShift &&
        scan->leastSinceJump - floor >= kShift) {
        scan->shifts.push_back(Boot::ClockShift{scan->jumpLine, scan->leastSinceJump});
        scan->jump = Nanoseconds(0);
    }
}

bool Run::beforeOwnBanner(const BootSplit &s, LineIndex banner, std::optional<KernelUs> kt)
{
    // arm and arm64 print `Booting Linux on physical CPU 0x0` before `Linux version`, at
    // the same kernel time: the kernel's own first lines, not a boot of their own. A boot
    // whose only kernel lines came just before the banner, in its first second and not
    // after it by the clock, is that kernel's start.
    constexpr LineCount kLinesBefore{8};
    constexpr KernelUs kFirstSecond = KernelUs(1000000);
    return s.cur.firstKernelLine && banner - *s.cur.firstKernelLine <= kLinesBefore && !s.ended &&
           s.scan.maxKernel < kFirstSecond && (!kt || s.scan.maxKernel <= *kt);
}

LineIndex Run::handoverLine(const BootSplit &s, LineIndex next) const
{
    // A getty prompt is the old system's last word (a lab that power-cycles the board at
    // the prompt prints no shutdown and no firmware after it): left in the new boot, the
    // old boot would never reach `login:` and the new one would reach it before its kernel
    // started. The same text as the default --boot-pattern. Only the lines just after
    // the old kernel's last one are looked at, so that a long gap is not decoded for it.
    constexpr std::int64_t kPromptLookahead = 64;
    constexpr std::size_t kMaxPromptBytes = 256;
    // A prompt has no newline: the next kernel's first bytes end its line, and the lines
    // before that one are the old system's (its issue banner). The line itself is the new
    // kernel's; the metrics credit its prompt to the old boot.
    if (lines.flags(next) & KernelTimeNotAtStart) {
        const LineText text = lines.text(next);
        if (promptBeforeTimestamp(text.view(), parseKernelPrefix(text.view()))) {
            return next;
        }
    }
    LineIndex split = s.lastKernelLine + 1_lines; // set once a boot started
    const LineIndex stop = std::min(next, split + LineCount(kPromptLookahead));
    for (LineIndex i = split; i < stop; ++i) {
        if (lines.textSize(i) > kMaxPromptBytes) {
            continue;
        }
        const LineText text = lines.text(i);
        if (text.view().find(kLoginPrompt) != std::string_view::npos) {
            split = i + 1_lines;
        }
    }
    return split;
}

bool Run::clockRestarted(const BootSplit &s, KernelUs kt, HostNs arrival)
{
    if (s.lastKt == kNoKernel) {
        return false;
    }
    const Microseconds drop = s.lastKt - kt;
    // Without a banner (a quiet boot prints none, or it was dropped): the clock falls back
    // to near zero by a clear margin, or by a lot.
    if ((kt <= kNewBootMax && drop >= kNewBootMinDrop) || drop >= kAlwaysNewBootDrop) {
        return true;
    }
    // A smaller fall counts after the kernel said it was going down (reboot, power off,
    // panic) or after the console was silent for a while: a quiet boot's clock restarts
    // at ~2 s after a boot that ended at ~4 s. CPUs logging out of order step back by
    // milliseconds only.
    if (drop < kRestartAfterCue) {
        return false;
    }
    const bool silence = arrival != kNoHost && s.lastKernelArrival != kNoHost &&
                         arrival - s.lastKernelArrival >= kSilence;
    return s.ended || silence;
}

void Run::closeBoot(BootSplit *s, LineIndex start)
{
    s->cur.end = start;
    s->boots.push_back(s->cur);
    s->scans.push_back(s->scan);
    s->cur = Boot{};
    s->scan = BootScan{};
    s->cur.first = start;
    s->ended = false;
}

void Run::splitBootsSoFar(std::optional<LineIndex> end)
{
    advanceBootSplit(&m_split, end.value_or(lines.endIndex()));
}

void Run::splitBoots(std::vector<BootScan> *scans)
{
    // The lines split ahead of time stay split (their state is copied: a live run calls
    // this five times a second); the rest is split here.
    BootSplit s = m_split;
    advanceBootSplit(&s, lines.endIndex());
    s.cur.end = lines.endIndex();
    s.boots.push_back(s.cur);
    s.scans.push_back(s.scan);
    boots = std::move(s.boots);
    *scans = std::move(s.scans);
    kernelLines = s.kernelLines;
    m_lastArrival = s.lastArrival != kNoHost ? std::optional<HostNs>(s.lastArrival) : std::nullopt;
    for (const Event &e : events) {
        if (e.kind == EventKind::Boot && !e.note) {
            Boot &b = boots[std::size_t(bootOf(e.line))];
            if (b.version.isEmpty()) {
                const LineText banner = lines.text(e.line);
                b.version = bannerVersion(banner.view());
            }
        }
    }
}

void Run::estimateOffsets(const std::vector<BootScan> &scans)
{
    for (std::size_t bi = 0; bi < boots.size(); ++bi) {
        Boot &b = boots[bi];
        b.kernelZero.reset(); // none without arrivals
        b.shifts.clear();
        if (scans[bi].envelope != BootScan().envelope) {
            b.kernelZero = scans[bi].envelope;
            b.shifts = scans[bi].shifts;
        }
        b.kernelRate = 1.0;
        const std::optional<double> drift =
            b.kernelZero && b.shifts.empty() && scans[bi].minKernel <= scans[bi].maxKernel
                ? scans[bi].idle.rate(scans[bi].maxKernel - scans[bi].minKernel)
                : std::nullopt;
        if (drift) {
            b.kernelRate = 1.0 + *drift;
            b.kernelZero = driftingFloor(b, b.kernelRate);
        }
        b.timeBase = RunSeconds(0);
    }
    if (!hasArrival) {
        // No host times: lay boots end to end on their kernel clocks, and give every line
        // the time of the last kernel line before it so it can be placed on the timeline.
        // One pass over the lines in order (the table codes arrivals in order).
        std::size_t bi = 0;
        bool entered = false; // boots[bi] has had a line
        double base = 0, t = 0;
        // A kernel time of more than 146 years (the builder's limit for host times) is
        // corrupt, and its nanoseconds may not fit an int64 at all: such a line is placed
        // at the limit, with a warning, rather than at a wrapped or undefined time.
        constexpr double kLimitNs = double(RunBuilder::kHostLimitNs);
        std::int64_t beyond = 0;
        std::optional<LineIndex> firstBeyond;
        auto leaveBoot = [&] {
            if (!entered) {
                boots[bi].timeBase = RunSeconds(base);
                t = base;
            }
            base = t + 1.0;
            entered = false;
            ++bi;
        };
        lines.rewriteArrivals([&](LineIndex i) -> std::optional<HostNs> {
            while (bi < boots.size() && i >= boots[bi].end) {
                leaveBoot();
            }
            if (bi >= boots.size() || i < boots[bi].first) {
                return lines.arrival(i); // in no boot: as it was
            }
            if (!entered) {
                // Lines before the boot's first kernel time (a capture attached to a
                // running board starts mid-line, at kernel time 88 s) take that time, not
                // the boot's kernel time 0, which the capture never saw.
                entered = true;
                boots[bi].timeBase = RunSeconds(base);
                const BootScan &scan = scans[bi];
                t = base + (scan.minKernel <= scan.maxKernel ? seconds(scan.minKernel) : 0.0);
            }
            if (const std::optional<KernelUs> kt = lines.kernelTime(i)) {
                t = std::max(t, base + seconds(*kt));
            }
            const double ns = t * 1e9;
            if (!(std::abs(ns) <= kLimitNs)) {
                ++beyond;
                firstBeyond = firstBeyond.value_or(i);
                return HostNs(ns > 0 ? RunBuilder::kHostLimitNs : -RunBuilder::kHostLimitNs);
            }
            return HostNs(std::int64_t(ns));
        });
        while (bi < boots.size()) {
            leaveBoot();
        }
        if (beyond > 0) {
            const QString w =
                QStringLiteral("%1 line(s) had a kernel time beyond 146 years "
                               "(first: line %2); the timeline places them there")
                    .arg(QString::number(beyond), QString::number(lineNumber(*firstBeyond)));
            if (!warnings.contains(w)) { // a growing run is finalized again and again
                warnings << w;
            }
        }
        origin = HostNs(0);
        m_lastArrival = lines.empty() ? std::nullopt : lines.arrival(lines.endIndex() - 1_lines);
    }
}

std::optional<HostNs> Run::driftingFloor(const Boot &b, double rate) const
{
    std::optional<HostNs> floor;
    for (LineIndex i = b.first; i < b.end; ++i) {
        const std::optional<KernelUs> k = lines.kernelTime(i);
        const std::optional<HostNs> a = lines.arrival(i);
        if (!k || !a || (lines.flags(i) & KernelTimeNotAtStart)) {
            continue;
        }
        const HostNs z = *a - Nanoseconds(std::int64_t(std::ceil(double(k->count()) * 1e3 * rate)));
        floor = floor ? std::min(*floor, z) : z;
    }
    return floor;
}

RunSeconds Run::bootBase(const Boot &b, std::optional<LineIndex> line) const
{
    const std::optional<HostNs> zero = line ? b.kernelZeroAt(*line) : b.kernelZero;
    return hasArrival && zero ? RunSeconds(seconds(*zero - origin)) : b.timeBase;
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
            const double p = k ? base + seconds(*k) * b.kernelRate : kNaN;
            if (k) {
                const std::ptrdiff_t bin = producedBins.of(p);
                if (bin != producedBin) {
                    flushProduced();
                    producedBin = bin;
                }
                produced += 1;
            }
            // A line without an arrival time is in no arrival bin.
            const std::optional<RunSeconds> arrived = hasArrival ? timeOf(i) : std::nullopt;
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
            bytes += double(lines.textSize(i) + (nl ? ending : 0));
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
        lo = seconds(first.value_or(origin) - origin);
        hi = std::max(hi, seconds(*m_lastArrival - origin));
    }
    for (std::size_t bi = 0; bi < boots.size(); ++bi) {
        if (scans[bi].minKernel <= scans[bi].maxKernel) {
            const double base = bootBase(boots[bi]).count();
            const double rate = boots[bi].kernelRate;
            lo = std::min(lo, base + seconds(scans[bi].minKernel) * rate);
            hi = std::max(hi, base + seconds(scans[bi].maxKernel) * rate);
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
