#include "crashes.h"

#include "consoletext.h"
#include "crashlines.h"
#include "crashstack.h"
#include "crashtitle.h"
#include "digits.h"
#include "parallel.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace tty {

namespace {

using crash::infoOf;
using crash::isSeparator;
using crash::LineInfo;
using crash::Scan;
using crash::StackReader;
using crash::startsWith;
using crash::titleOf;
using crash::toQ;

// How far a report may reach past its headline, and how far past the end of its stack an
// `---[ end trace` is still looked for (lock listings and register dumps come between).
constexpr LineCount kReportWindow{1500};
constexpr LineCount kEndMarkerSlack{80};
// A consequence (`Kernel panic - not syncing: Fatal exception`, the kmemleak summary) joins
// the report before it when it comes within this many lines of that report's end.
constexpr LineCount kConsequenceGap{120};
// `Oops: 0000 [#1]` / `Internal error:` / `invalid opcode:` join a fault or BUG headline
// this close before them (page-fault details, `Mem abort info:` come between).
constexpr LineCount kOopsGap{40};

// Panic reasons that are the consequence of a report printed just before them.
bool isConsequencePanic(std::string_view m)
{
    static constexpr std::array<std::string_view, 16> kReasons{"Fatal exception",
                                                               "panic_on_warn set",
                                                               "panic_on_oops",
                                                               "Hard LOCKUP",
                                                               "hung_task: blocked tasks",
                                                               "softlockup: hung tasks",
                                                               "RCU Stall",
                                                               "Aiee, killing interrupt handler",
                                                               "Attempted to kill init",
                                                               "Attempted to kill the idle task",
                                                               "Watchdog detected hard LOCKUP",
                                                               "kasan.fault=panic",
                                                               "KASAN: panic_on_warn set",
                                                               "UBSAN: panic_on_warn set",
                                                               "kfence",
                                                               "Oops"};
    const std::size_t p = m.find("not syncing:");
    if (p == std::string_view::npos) {
        return false;
    }
    const std::string_view reason = m.substr(std::min(m.size(), p + 13));
    for (std::string_view r : kReasons) {
        if (reason.find(r) != std::string_view::npos) {
            return true;
        }
    }
    return false;
}

// die()'s header: x86's and powerpc's `Oops: `, arm's `Internal error: `, riscv's
// `Oops [#1]` / `Oops - illegal instruction [#1]` and `Kernel BUG [#1]`, mips' `Oops[#1]:`.
// "Kernel bug detected[#1]:": text, the die counter and a colon ending the line.
bool isTrapDieHeader(std::string_view m)
{
    const std::size_t at = m.rfind("[#");
    if (at == std::string_view::npos || m.size() < at + 5 || m.substr(m.size() - 2) != "]:") {
        return false;
    }
    const std::string_view digits = m.substr(at + 2, m.size() - 2 - (at + 2));
    return !digits.empty() && std::all_of(digits.begin(), digits.end(), isDigit);
}

// x86's die() header for a trap other than the page fault before 6.12 ("int3: 0000 [#1]",
// "alignment check: 0000 [#1]"; 6.12 puts "Oops: " before it): the trap's name, its error
// code in four hex digits and the die counter.
bool isX86TrapHeader(std::string_view m)
{
    const std::size_t colon = m.find(": ");
    if (colon == 0 || colon == std::string_view::npos || m.size() < colon + 10 ||
        m.substr(colon + 6, 3) != " [#") {
        return false;
    }
    const std::string_view name = m.substr(0, colon);
    const std::string_view code = m.substr(colon + 2, 4);
    return std::all_of(name.begin(), name.end(),
                       [](char c) {
                           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) ||
                                  c == ' ';
                       }) &&
           std::all_of(code.begin(), code.end(),
                       [](char c) { return isDigit(c) || (c >= 'a' && c <= 'f'); });
}

bool isOopsHeader(std::string_view m)
{
    // s390's die() names the program check: "monitor event: 0040 ilc:2 [#1]" after a BUG();
    // mips' and loongarch's the trap: "Kernel bug detected[#1]:".
    return startsWith(m, "Oops: ") || startsWith(m, "Oops [#") || startsWith(m, "Oops - ") ||
           startsWith(m, "Oops[#") || startsWith(m, "Kernel BUG [#") ||
           startsWith(m, "Internal error: ") || startsWith(m, "invalid opcode: ") ||
           m.find(" ilc:") != std::string_view::npos || isTrapDieHeader(m) || isX86TrapHeader(m);
}

// A line's message and caller, with the text they are views of.
struct HeldLineInfo : LineInfo
{
    LineText held;
};

// Reads a run's lines, or a plain list of lines.
struct LineSource
{
    const Run *run = nullptr;
    const QStringList *list = nullptr;
    std::vector<QByteArray> utf8;

    LineIndex end() const { return run ? run->lines.endIndex() : LineIndex(list->size()); }
    LineText text(LineIndex i) const
    {
        if (run) {
            m_last = run->lines.text(i, m_last);
            return m_last;
        }
        const QByteArray &b = utf8[std::size_t(i.value())];
        return LineText(std::string_view(b.constData(), std::size_t(b.size())));
    }
    // Held as a whole: a LineInfo copied out of it would outlive its text.
    HeldLineInfo info(LineIndex i) const
    {
        HeldLineInfo h;
        h.held = text(i);
        static_cast<LineInfo &>(h) = infoOf(h.held.view());
        return h;
    }

private:
    mutable LineText m_last; // its piece serves the next line read, mostly a neighbour
};

struct Head
{
    LineIndex line;
    EventKind kind;
    std::size_t event;
};

class Assembler
{
public:
    // Holds references: the heads and bounds are shared by the assemblers of all slices,
    // so that each sees its true neighbours (the floor of reportStart, the next head).
    Assembler(const LineSource &src, const std::vector<Head> &heads,
              const std::vector<LineIndex> &bounds, const std::vector<LineIndex> &stops,
              LineIndex end)
        : m_src(src), m_heads(heads), m_bounds(bounds), m_stops(stops), m_end(end)
    {
    }

    // The reports opened by heads [from, to) whose line is at `first` or after.
    std::vector<Crash> run(LineIndex first, std::size_t from, std::size_t to)
    {
        std::vector<Crash> out;
        std::size_t i = from;
        while (i < to) {
            const Head h = m_heads[i];
            if (h.line < first) {
                ++i;
                continue;
            }
            const HeldLineInfo hl = m_src.info(h.line);
            // A consequence of the crash before it: extends that crash.
            if (!out.empty() && h.line - out.back().endLine <= kConsequenceGap &&
                sameBoot(out.back().line, h.line) &&
                ((h.kind == EventKind::Panic && isConsequencePanic(hl.msg)) ||
                 (h.kind == EventKind::MemoryLeak && startsWith(hl.msg, "kmemleak:") &&
                  out.back().kind == EventKind::MemoryLeak &&
                  h.line - out.back().endLine <= 2_lines &&
                  !startsWith(m_src.info(out.back().endLine).msg, "kmemleak:")))) {
                out.back().endLine = consequenceEnd(h.line, i);
                ++i;
                continue;
            }
            out.push_back(assemble(i, &i));
        }
        return out;
    }

private:
    bool sameBoot(LineIndex a, LineIndex b) const
    {
        const auto it = std::upper_bound(m_bounds.begin(), m_bounds.end(), a);
        return it == m_bounds.end() || *it > b;
    }
    LineIndex nextBound(LineIndex after) const
    {
        const auto it = std::upper_bound(m_bounds.begin(), m_bounds.end(), after);
        return it == m_bounds.end() ? m_end : *it;
    }
    LineIndex nextStop(LineIndex after) const
    {
        const auto it = std::upper_bound(m_stops.begin(), m_stops.end(), after);
        return it == m_stops.end() ? m_end : *it;
    }

    // A consequence panic runs to its own end marker.
    LineIndex consequenceEnd(LineIndex line, std::size_t headIndex) const
    {
        const LineIndex stop =
            std::min({m_end, nextBound(line), line + kReportWindow,
                      headIndex + 1 < m_heads.size() ? m_heads[headIndex + 1].line : m_end});
        for (LineIndex l = line; l < stop; ++l) {
            if (startsWith(m_src.info(l).msg, "---[ end Kernel panic")) {
                return l;
            }
        }
        return line;
    }

    static bool expectsEndMarker(EventKind k)
    {
        switch (k) {
        case EventKind::Warning:
        case EventKind::Oops:
        case EventKind::Bug:
        case EventKind::Panic:
        case EventKind::Kasan:
        case EventKind::Kmsan:
        case EventKind::Kcsan:
        case EventKind::Kfence:
        case EventKind::Ubsan:
            return true;
        default:
            return false;
        }
    }

    // Is head j part of the report opened by `open`?
    bool follows(const Head &open, const LineInfo &openInfo, std::size_t j) const
    {
        const Head &h = m_heads[j];
        const HeldLineInfo hi = m_src.info(h.line);
        const std::string_view m = hi.msg;
        if (h.line == open.line) {
            return true; // a second kind on the headline itself
        }
        if (h.kind == EventKind::Panic) {
            return isConsequencePanic(m);
        }
        if (h.kind == EventKind::Oops && isOopsHeader(m) &&
            (open.kind == EventKind::Bug || open.kind == EventKind::Oops ||
             open.kind == EventKind::Ubsan || open.kind == EventKind::Kasan) &&
            h.line - open.line <= kOopsGap) {
            return true;
        }
        // A WARN's own text, then its WARNING: line: refcount_t's, debugobjects' and
        // fs/dcache.c's unmount check (WARN, or in older kernels a printk and WARN_ON).
        if (h.kind == EventKind::Warning &&
            (startsWith(openInfo.msg, "refcount_t: ") || startsWith(openInfo.msg, "ODEBUG: ") ||
             startsWith(openInfo.msg, "BUG: Dentry ")) &&
            h.line - open.line <= 8_lines) {
            return true;
        }
        if (h.kind == EventKind::MemoryLeak && startsWith(openInfo.msg, "BUG: memory leak") &&
            h.line - open.line <= 4_lines) {
            return true;
        }
        return false;
    }

    // Without caller ids, a line logged well before the report started is another
    // context's: the kernel prints a report from one CPU, so its lines are stamped at or
    // after its first. On 6.1 with four CPUs, a panic's banner, stack and end marker came
    // line by line between those of a sysrq-t task dump logged 3 ms earlier on another
    // CPU, and the panic took the dump's `kthread` as its function. A crash can upset the
    // clock a little (an int3 in sched_clock_tick: the lines after a 6.12-rt oops's
    // header were stamped 7 us before it), hence the margin. Not for reports that show
    // other CPUs' stacks (NMI backtraces of stalls and lockups).
    static bool loggedBefore(EventKind kind, const LineInfo &start, const LineInfo &l)
    {
        static constexpr Microseconds kMargin{1000};
        if (kind == EventKind::RcuStall || kind == EventKind::SoftLockup ||
            kind == EventKind::HardLockup || kind == EventKind::NmiBacktrace) {
            return false;
        }
        return !l.caller && start.time && l.time && *l.time + kMargin < *start.time;
    }

    bool sameContext(const LineInfo &head, const LineInfo &l) const
    {
        if (!head.caller || !l.caller) {
            return true;
        }
        if (head.caller->kind == 'C') {
            return l.caller->kind == 'C'; // NMI backtraces come from the other CPUs
        }
        return l.caller == head.caller;
    }

    // The line a report really starts at: the `cut here` of a WARN splat or of an arm
    // fault (`8<--- cut here ---`), the `invoked oom-killer` of an OOM kill.
    LineIndex reportStart(const Head &h, const LineInfo &hl, LineIndex floor, Scan *s) const
    {
        if (h.kind == EventKind::Warning || h.kind == EventKind::Bug || h.kind == EventKind::Oops) {
            // arm prints the page table walk between its cut line and die()'s headline.
            const LineCount back = h.kind == EventKind::Oops ? 6_lines : 4_lines;
            for (LineIndex l = h.line - 1_lines; l >= std::max(floor, h.line - back); --l) {
                const HeldLineInfo li = m_src.info(l);
                if (startsWith(li.msg, "Unhandled fault: ") ||
                    startsWith(li.msg, "Unhandled prefetch abort: ")) {
                    s->armFault = toQ(printedText(li.msg));
                }
                if (startsWith(li.msg, "------------[ cut here ]") ||
                    startsWith(li.msg, "8<--- cut here ---")) {
                    return l;
                }
            }
        }
        if (h.kind == EventKind::Oom) {
            for (LineIndex l = h.line - 1_lines; l >= std::max(floor, h.line - 600_lines); --l) {
                const HeldLineInfo li = m_src.info(l);
                if (li.msg.find(" invoked oom-killer: ") != std::string_view::npos &&
                    sameContext(hl, li)) {
                    s->oomInvoked = toQ(li.msg);
                    return l;
                }
            }
        }
        return h.line;
    }

    Crash assemble(std::size_t i, std::size_t *next)
    {
        const Head h = m_heads[i];
        const HeldLineInfo hl = m_src.info(h.line);
        Scan scan;
        // As a terminal prints it: a crashed kernel's headline may hold escape sequences
        // and control bytes, and the title reaches terminals (the text report, --fail-on).
        scan.headline = toQ(printedText(hl.msg));
        const LineIndex floor = i > 0 ? m_heads[i - 1].line + 1_lines : LineIndex(0);
        const LineIndex start = reportStart(h, hl, std::max(floor, LineIndex(0)), &scan);
        const LineIndex bound = nextBound(h.line);
        const LineIndex limit = std::min({m_end, bound, h.line + kReportWindow});

        Crash c;
        c.kind = h.kind;
        c.line = start;
        c.event = h.event;
        StackReader reader(h.kind, scan.headline);
        std::size_t j = i + 1;
        LineIndex last = h.line;
        std::optional<LineIndex> stackEnd; // the last line of the first stack
        bool endMarker = false;
        bool cutByNext = false;
        LineIndex lastInContext = h.line;
        // An OOM report's stack is above its `Killed process` line.
        for (LineIndex l = start; l < h.line; ++l) {
            const HeldLineInfo li = m_src.info(l);
            if (sameContext(hl, li)) {
                reader.feed(li.msg, &scan);
            }
        }
        const HeldLineInfo startInfo = start == h.line ? hl : m_src.info(start);
        LineIndex l = h.line + 1_lines;
        // A sysrq dump starting is another report: the stacks after it are its own.
        const LineIndex stopAt = nextStop(h.line);
        // An OOM report ends with its `Killed process` line.
        for (; l < limit && h.kind != EventKind::Oom; ++l) {
            if (l == stopAt) {
                cutByNext = true;
                break;
            }
            while (j < m_heads.size() && m_heads[j].line < l) {
                ++j;
            }
            if (j < m_heads.size() && m_heads[j].line == l) {
                if (!follows(h, hl, j)) {
                    cutByNext = true;
                    break;
                }
                const HeldLineInfo fl = m_src.info(l);
                if (h.kind == EventKind::Warning && startsWith(fl.msg, "WARNING: ")) {
                    scan.warnLine = toQ(fl.msg);
                }
                ++j;
            }
            const HeldLineInfo li = m_src.info(l);
            if (!sameContext(hl, li) || loggedBefore(h.kind, startInfo, li)) {
                continue;
            }
            lastInContext = l;
            if (startsWith(li.msg, "---[ end trace") ||
                startsWith(li.msg, "---[ end Kernel panic") ||
                (isSeparator(li.msg) && reader.stackStarted() && expectsEndMarker(h.kind))) {
                last = l;
                endMarker = true;
                break;
            }
            const bool wasDone = reader.stackDone();
            reader.feed(li.msg, &scan);
            if (!wasDone && reader.stackDone()) {
                stackEnd = l - 1_lines;
                if (!expectsEndMarker(h.kind) || h.kind == EventKind::MemoryLeak) {
                    break;
                }
            }
            last = l;
            if (stackEnd && l - *stackEnd > kEndMarkerSlack) {
                break;
            }
        }
        // Cut short means by the end of the log, the boot or the window, not by the next
        // report (the kernel finished this one before it started the next).
        // Cut short: the log or the boot ended while the report's own lines were still
        // coming (inside its stack, or on a partial frame: an indented last line).
        const LineIndex stop = std::min(m_end, bound);
        bool cutShort = false;
        if (!endMarker && !cutByNext && l >= stop && lastInContext == stop - 1_lines) {
            const HeldLineInfo after = stackEnd ? m_src.info(*stackEnd + 1_lines) : HeldLineInfo();
            const std::string_view closing = after.msg;
            cutShort = !reader.stackDone() || (stackEnd && *stackEnd + 1_lines == stop - 1_lines &&
                                               !closing.empty() && closing[0] == ' ');
        }
        c.traceComplete = !cutShort && (endMarker || cutByNext || reader.stackDone() || l >= stop ||
                                        !reader.stackStarted());
        c.endLine = endMarker ? last : (stackEnd ? std::max(*stackEnd, h.line) : last);
        if (h.kind == EventKind::Oom) {
            c.endLine = h.line;
        }
        if (h.kind == EventKind::MemoryLeak && !reader.stackStarted()) {
            c.traceComplete = true; // kmemleak's summary line prints no stack
        }
        // Consumed heads up to the end of the report.
        while (j < m_heads.size() && m_heads[j].line <= c.endLine) {
            ++j;
        }
        *next = std::max(j, i + 1);
        c.frames = scan.frames;
        c.title = titleOf(h.kind, scan);
        // Nor any control byte from the other lines it is made of (its stack's names).
        c.title.removeIf([](QChar ch) { return ch.unicode() < 0x20 || ch.unicode() == 0x7f; });
        return c;
    }

    const LineSource &m_src;
    const std::vector<Head> &m_heads;
    const std::vector<LineIndex> &m_bounds; // boot banners and reboots: reports end there
    const std::vector<LineIndex> &m_stops;  // sysrq lines: they start a dump of their own
    LineIndex m_end;
};

// Where the heads can be cut into slices assembled apart: before a head further than any
// report reaches from the one before it (its window, or a consequence's). Such a report
// cannot consume the next head nor be extended by it, so the slices' results concatenate
// to the sequential one. Returns `slices` + 1 head indices (fewer slices when the heads
// are not spread out), balanced by head count.
std::vector<std::size_t> sliceHeads(const std::vector<Head> &heads, int slices)
{
    std::vector<std::size_t> cuts{0};
    constexpr LineCount kApart = kReportWindow * 2;
    const std::size_t n = heads.size();
    for (int s = 1; s < slices; ++s) {
        std::size_t k = std::max(cuts.back() + 1, n * std::size_t(s) / std::size_t(slices));
        while (k < n && heads[k].line - heads[k - 1].line <= kApart) {
            ++k;
        }
        if (k >= n) {
            break;
        }
        cuts.push_back(k);
    }
    cuts.push_back(n);
    return cuts;
}

} // namespace

std::vector<Crash> findCrashes(const Run &run, LineIndex first, std::optional<LineIndex> last,
                               int slices, int *sliced)
{
    const LineIndex end = std::min(last.value_or(run.lines.endIndex()), run.lines.endIndex());
    std::vector<Head> heads;
    std::vector<LineIndex> bounds, stops;
    // The events of [first, end) only (they are in line order): the reports open at or after
    // `first`, and what bounds them comes after their heads. A tooltip asks for one report
    // of a run of 10^6 events, and a boot trial's metrics for one boot's.
    for (std::size_t e = run.eventsBefore(first); e < run.events.size(); ++e) {
        const Event &ev = run.events[e];
        if (ev.line >= end) {
            break;
        }
        if (ev.note) {
            continue;
        }
        if (ev.kind == EventKind::Boot || ev.kind == EventKind::Reboot) {
            bounds.push_back(ev.line);
        } else if (ev.kind == EventKind::Sysrq) {
            if (stops.empty() || stops.back() != ev.line) {
                stops.push_back(ev.line);
            }
        } else if (isCrashKind(ev.kind) && (heads.empty() || heads.back().line != ev.line)) {
            heads.push_back(Head{ev.line, ev.kind, e});
        }
    }
    // A gigabyte log has tens of thousands of reports, each read line by line (most of the
    // metrics' time): slices of the heads are assembled on every core, more slices than
    // cores so that the reports' uneven spread evens out, each with a line source of its
    // own (its piece cache is not shared), and joined in order.
    if (slices <= 0) {
        constexpr std::size_t kHeadsPerSlice = 256; // a thread costs more than fewer reports
        slices = sharedSliceCount(heads.size(), kHeadsPerSlice);
    }
    const std::vector<std::size_t> cuts = sliceHeads(heads, slices);
    const int formed = int(cuts.size()) - 1;
    if (sliced) {
        *sliced = formed;
    }
    std::vector<std::vector<Crash>> parts(static_cast<std::size_t>(formed));
    auto assembleSlice = [&](int k) {
        LineSource src;
        src.run = &run;
        Assembler a(src, heads, bounds, stops, end);
        parts[std::size_t(k)] = a.run(first, cuts[std::size_t(k)], cuts[std::size_t(k) + 1]);
    };
    runOnEveryCore(formed, assembleSlice);
    std::vector<Crash> out = std::move(parts[0]);
    for (std::size_t k = 1; k < parts.size(); ++k) {
        out.insert(out.end(), std::make_move_iterator(parts[k].begin()),
                   std::make_move_iterator(parts[k].end()));
    }
    return out;
}

Crash crashFromLines(const QStringList &lines, EventKind kind)
{
    LineSource src;
    src.list = &lines;
    for (const QString &l : lines) {
        src.utf8.push_back(l.toUtf8());
    }
    const std::vector<Head> heads{Head{LineIndex(0), kind, 0}};
    const std::vector<LineIndex> none;
    Assembler a(src, heads, none, none, LineIndex(lines.size()));
    std::vector<Crash> out = a.run(LineIndex(0), 0, heads.size());
    return out.empty() ? Crash{} : out.front();
}

} // namespace tty
