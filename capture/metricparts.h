// The passes computeMetrics is made of, and what they share: internal to the metrics
// (metrics.cpp, metricsearch.cpp, metricwindow.cpp, boottime.cpp), not an interface.
#pragma once

#include "metrics.h"

#include <optional>

namespace tty {
class LineMatcher;
}

namespace tty::metricpass {

// This thread's matchers of the last patterns searched for. A report of 10^5 boot trials
// searches each boot for the same --boot-pattern (and --window-start, --span), and
// compiling the regex with its JIT for each search was a third of the time the window
// took to open. Per thread, since a regex object is not shared between threads; a matcher
// that gave up on a line (regexlimit.h) is made again, so that giving up on one run does
// not end the searches of the next in silence. A copy shares the compiled regex.
LineMatcher matcherOf(const QString &pattern);

// The figures are plain seconds: a run time leaves the typed world here.
std::optional<double> secondsOf(std::optional<RunSeconds> t);

// When a line was produced (kernel time on the host clock), or its arrival without one
// (the next line's for a boot's first line behind the prompt before it: bootstart.h).
std::optional<double> productionTime(const Run &run, LineIndex i);

// Console bytes of the lines [from, to) as metrics count them: the text and a line end
// (\r\n) where the line had one.
std::int64_t lineBytes(const Run &run, LineIndex from, LineIndex to);

// The time `bytes` take on the wire; none without a baud rate.
std::optional<double> wireTime(std::int64_t bytes, int bitsPerChar, int baud);

// findFirst, with a warning naming the option when the pattern matched no line.
std::optional<LineIndex> findFirstReporting(const Run &run, const QString &pattern,
                                            const char *option, LineIndex from, LineIndex end,
                                            QStringList *warnings);

// Whether the kernel printed that it stopped (powered off, rebooted or ended its panic)
// after `from` and did not start again before `end`, or another boot follows `end` (one
// boot of many, reset without a word): nothing it printed is missing after its last line.
bool kernelStopped(const Run &run, LineIndex from, LineIndex end);

// The counting window (--window-start, --window, --window-match): lines printed and
// produced, bytes and wire time in it.
void measureWindow(const Run &run, const MetricOptions &o, LineIndex first, LineIndex end,
                   Metrics *m);
// The --span figures: from the production of the first FROM to the arrival of the first TO.
void measureSpans(const Run &run, const MetricOptions &o, LineIndex first, LineIndex end,
                  Metrics *m);
// The boot time to --boot-pattern, from the first byte (or --boot-start) and from the
// kernel's start.
void measureBootTime(const Run &run, const MetricOptions &o, LineIndex first, LineIndex end,
                     Metrics *m);

} // namespace tty::metricpass
