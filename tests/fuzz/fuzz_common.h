// Shared by the libFuzzer targets: a Qt core application for the process (QRegularExpression
// and the resource system want one), and a full pass over a loaded run so that every
// derived value (boots, series, metrics, report) is computed from the fuzzed input.
#pragma once

#include "metrics.h"
#include "report.h"
#include "rules.h"
#include "run.h"
#include "runloader.h"
#include "sourceindex.h"
#include "sourcestats.h"

#include <QCoreApplication>

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string_view>

namespace fuzz {

inline void initQt()
{
    static int argc = 1;
    static char name[] = "fuzz";
    static char *argv[] = {name, nullptr};
    static QCoreApplication *app = new QCoreApplication(argc, argv);
    (void)app;
}

// Everything a user sees of a run: its lines, boots and times, the metrics and the report.
// `pick` (the input's size) chooses how the sources are grouped: one grouping an execution,
// the same one each time an input is replayed. The three share the template index and
// most of their code; computing all three made every execution a sixth slower, since
// libFuzzer's own work per execution grows with the code it touches.
inline void exercise(const tty::Run &run, std::size_t pick, const tty::MetricOptions &metrics = {})
{
    volatile double sink = 0;
    for (tty::LineIndex i{0}; i < run.lines.endIndex(); ++i) {
        sink = sink + double(run.lines.text(i).size()) +
               run.timeOf(i).value_or(tty::RunSeconds(0)).count() +
               run.lagOf(i).value_or(tty::Seconds(0)).count();
    }
    for (const tty::Event &e : run.events) {
        sink = sink + double(run.eventText(e).size()) +
               run.eventTime(e).value_or(tty::RunSeconds(0)).count();
    }
    // Sources (issue 14): the templates of every line.
    const tty::SourceIndex sources = tty::SourceIndex::build(run);
    const tty::Metrics m = tty::computeMetrics(run, metrics);
    constexpr tty::SourceGrouping kGroupings[] = {
        tty::SourceGrouping::Template, tty::SourceGrouping::Prefix, tty::SourceGrouping::Caller};
    const tty::SourceGrouping by = kGroupings[pick % std::size(kGroupings)];
    sink = sink + double(tty::computeSources(run, sources, m, by).sources.size());
    tty::ReportColumn col;
    col.label = QStringLiteral("fuzz");
    col.runs.push_back(&run);
    col.boots.push_back(std::nullopt);
    col.metrics.push_back(m);
    col.files << QStringLiteral("fuzz");
    const tty::Report report({col}, metrics);
    sink = sink + double(report.text().size());
    (void)sink;
}

// A fixed log loaded with the fuzzed rules (or user markers): it always loads, so a null
// run is a defect the fuzzer must report.
inline std::unique_ptr<tty::Run> loadWithRules(const QByteArray &log, const tty::RuleSet &rules)
{
    tty::LoadOptions o;
    o.rules = &rules;
    QString error;
    auto run = tty::loadRunFromBytes(std::string_view(log.constData(), std::size_t(log.size())),
                                     QStringLiteral("fuzz.log"), o, &error);
    if (!run) {
        std::abort();
    }
    return run;
}

inline std::string_view bytes(const std::uint8_t *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

// Memory is readable: only a container ttyscope refuses (gzip, xz, zip, ..., or one inside
// zstd) may give no run, and then with the message that says what it is.
inline bool isRefusedContainer(const QString &error)
{
    return error.contains(QLatin1String("; ttyscope reads plain text and zstd (try: "));
}

} // namespace fuzz
