#include "cliruns.h"
#include "commands.h"
#include "figure.h"
#include "palette.h"
#include "session.h"
#include "timelineview.h"

#include <QApplication>
#include <QRegularExpression>

#include <cmath>
#include <cstdio>
#include <optional>

namespace tty {

int runExport(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Renders the timeline of one run, or the comparison of two runs or groups of trials "
        "(FILE,FILE,... per side), with the metrics table, to PNG and/or PDF without a display."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("export"), QStringLiteral("The command."));
    p.addPositionalArgument(QStringLiteral("files"), QStringLiteral("One or two logs or groups."),
                            QStringLiteral("A [B]"));
    p.addOption(
        {QStringLiteral("png"), QStringLiteral("Write a PNG image."), QStringLiteral("OUT.png")});
    p.addOption({QStringLiteral("pdf"), QStringLiteral("Write a PDF document."),
                 QStringLiteral("OUT.pdf")});
    p.addOption({QStringLiteral("width"), QStringLiteral("Width in pixels (default 1600)."),
                 QStringLiteral("W"), QStringLiteral("1600")});
    p.addOption({QStringLiteral("height"), QStringLiteral("Height in pixels (default 1100)."),
                 QStringLiteral("H"), QStringLiteral("1100")});
    p.addOption({QStringLiteral("scale"),
                 QStringLiteral("Pixel scale of the PNG (2 for high-DPI)."), QStringLiteral("S"),
                 QStringLiteral("1")});
    p.addOption({QStringLiteral("align"),
                 QStringLiteral("Time zero: start, boot, panic, drop, event:KIND or regex:REGEX."),
                 QStringLiteral("SPEC"), QStringLiteral("start")});
    p.addOption(
        {QStringLiteral("title"), QStringLiteral("Title of the picture."), QStringLiteral("TEXT")});
    p.addOption({QStringLiteral("no-table"), QStringLiteral("Leave the metrics table out.")});
    p.addOption({QStringLiteral("range"),
                 QStringLiteral("The part of the time axis to draw, in its seconds (after "
                                "--align), e.g. 28:45 (default: all of it)."),
                 QStringLiteral("FROM:TO")});
    p.addOption({QStringLiteral("pattern-lane"),
                 QStringLiteral("Add a lane of matches per second of REGEX (its interval "
                                "statistics go to the table). Repeatable."),
                 QStringLiteral("REGEX")});
    addLoadOptions(p);
    addMetricOptions(p);
    p.process(args);
    QStringList files = p.positionalArguments();
    files.removeFirst();
    if (files.isEmpty() || files.size() > 2) {
        std::fprintf(stderr, "ttyscope export: give one or two logs (or comma-joined groups)\n");
        return 2;
    }
    if (!p.isSet(QStringLiteral("png")) && !p.isSet(QStringLiteral("pdf"))) {
        std::fprintf(stderr,
                     "ttyscope export: say where to write: --png OUT.png and/or --pdf OUT.pdf\n");
        return 2;
    }
    MetricOptions mo;
    RuleSet rules;
    Alignment alignment;
    QString error;
    if (!readMetricOptions(p, &mo, &error) || !readRuleSet(p, &rules, &error) ||
        !Alignment::parse(p.value(QStringLiteral("align")), &alignment, &error)) {
        std::fprintf(stderr, "ttyscope export: %s\n", qPrintable(error));
        return 2;
    }
    std::optional<QPair<double, double>> range;
    if (p.isSet(QStringLiteral("range"))) {
        const QStringList parts = p.value(QStringLiteral("range")).split(QLatin1Char(':'));
        bool okFrom = false, okTo = false;
        const double from = parts.size() == 2 ? parts[0].toDouble(&okFrom) : 0;
        const double to = parts.size() == 2 ? parts[1].toDouble(&okTo) : 0;
        if (!okFrom || !okTo || !std::isfinite(from) || !std::isfinite(to) || !(from < to)) {
            std::fprintf(stderr, "ttyscope export: --range wants FROM:TO in seconds with FROM "
                                 "< TO, e.g. 28:45\n");
            return 2;
        }
        range = qMakePair(from, to);
    }
    const int width = p.value(QStringLiteral("width")).toInt();
    const int height = p.value(QStringLiteral("height")).toInt();
    const double scale = p.value(QStringLiteral("scale")).toDouble();
    if (width < 200 || height < 200 || !(scale > 0 && scale <= 8)) {
        std::fprintf(stderr,
                     "ttyscope export: --width/--height must be at least 200, --scale in (0, 8]\n");
        return 2;
    }
    LoadedSession loaded = loadSession(p, files, rules, mo);
    if (loaded.badOptions > 0) {
        return 2;
    }
    if (loaded.session.isEmpty()) {
        return 1;
    }
    Session &session = loaded.session;
    session.alignment = alignment;
    session.patterns = p.values(QStringLiteral("pattern-lane"));
    for (const QString &re : session.patterns) {
        if (!QRegularExpression(re).isValid()) {
            std::fprintf(stderr,
                         "ttyscope export: --pattern-lane: invalid regular expression '%s'\n",
                         qPrintable(re));
            return 2;
        }
        if (!session.metrics.intervals.contains(re)) {
            session.metrics.intervals << re;
        }
    }
    QStringList warnings;
    TimelineView view;
    view.resize(width, height);
    view.setTitle(p.isSet(QStringLiteral("title")) ? p.value(QStringLiteral("title"))
                                                   : session.title());
    view.setAxisTitle(alignment.axisTitle());
    view.setRuns(session.timelineRuns(&warnings));
    if (range) {
        view.setXRange(range->first, range->second);
    }
    if (!session.patterns.isEmpty()) {
        view.setPatternLanes(session.patternSeries());
    }
    for (const QString &w : warnings) {
        std::fprintf(stderr, "ttyscope export: warning: %s\n", qPrintable(w));
    }
    const Report report = session.report(); // the metrics, computed once for the table
    printMetricWarnings(loaded, report);
    FigureTable table{p.isSet(QStringLiteral("no-table")) ? nullptr : &report,
                      runColors(int(session.sides.size()))};
    int rc = 0;
    if (p.isSet(QStringLiteral("png")) &&
        !saveFigurePng(&view, table, p.value(QStringLiteral("png")), width, height, scale,
                       &error)) {
        std::fprintf(stderr, "ttyscope export: %s\n", qPrintable(error));
        rc = 1;
    }
    if (p.isSet(QStringLiteral("pdf")) &&
        !saveFigurePdf(&view, table, p.value(QStringLiteral("pdf")), width, height, &error)) {
        std::fprintf(stderr, "ttyscope export: %s\n", qPrintable(error));
        rc = 1;
    }
    if (printRegexesOverLimit("export")) {
        return 2;
    }
    return rc != 0 ? rc : exitStatus(loaded.worst);
}

} // namespace tty
