// Run's boot split: one resumable pass over the lines that finds where each boot starts
// (banners, kernel clocks falling back, the old system's last words) and what the passes
// after it need to know of each boot (run.h, BootScan).
#include "run.h"

#include "bootstart.h"
#include "kernelprefix.h"

namespace tty {

namespace {
// Kernel time falling back starts a new boot even without a banner (it may have been
// dropped) when it falls back to near zero by a clear margin, or by a lot. Small steps back
// are normal: CPUs log out of order during SMP bring-up (calibrate_delay on a secondary).
constexpr KernelUs kNewBootMax{1000000};
constexpr Microseconds kNewBootMinDrop{2000000};
constexpr Microseconds kAlwaysNewBootDrop{30000000};
// After a reboot/power-off/panic line or a silence, a fall of this much is a new boot.
constexpr Microseconds kRestartAfterCue{100000};
constexpr Nanoseconds kSilence{3000000000LL};

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
} // namespace

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

} // namespace tty
