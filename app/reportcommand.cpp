#include "cliruns.h"
#include "commands.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include <cstdio>

namespace tty {

int runReport(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Prints the metrics of console logs, one column per run. A column can be a group of "
        "trials: join files with commas (a1.log,a2.log b1.log,b2.log); the table then shows "
        "mean ± sd (n). With two columns a difference column B − A is added."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("report"), QStringLiteral("The command."));
    p.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Logs or groups of logs."),
                            QStringLiteral("FILE[,FILE...]..."));
    p.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                 QStringLiteral("Output style: text, markdown or json (default text)."),
                 QStringLiteral("STYLE"),
                 QStringLiteral("text")});
    p.addOption(
        {QStringLiteral("events"),
         QStringLiteral("Events listed in the JSON: all (default), crash (panics, oopses, BUGs, "
                        "WARNINGs, stalls, lockups, hung tasks) or none; the counts are always "
                        "complete."),
         QStringLiteral("WHICH"), QStringLiteral("all")});
    p.addOption({QStringLiteral("max-events"),
                 QStringLiteral("At most N events and N crashes per run in the JSON "
                                "(events_omitted and crashes_omitted say how many were left "
                                "out; --events none lists no crashes either)."),
                 QStringLiteral("N")});
    addLoadOptions(p);
    addMetricOptions(p);
    p.process(args);
    QStringList files = p.positionalArguments();
    files.removeFirst();
    if (files.isEmpty()) {
        std::fprintf(stderr, "ttyscope report: no files given (see ttyscope report --help)\n");
        return 2;
    }
    const QString style = p.value(QStringLiteral("output"));
    if (style != QLatin1String("text") && style != QLatin1String("markdown") &&
        style != QLatin1String("json")) {
        std::fprintf(stderr, "ttyscope report: --output must be text, markdown or json\n");
        return 2;
    }
    EventOutput events;
    if (!eventOutputFromName(p.value(QStringLiteral("events")), &events.which)) {
        std::fprintf(stderr, "ttyscope report: --events must be all, crash or none\n");
        return 2;
    }
    if (p.isSet(QStringLiteral("max-events"))) {
        bool ok = false;
        events.max = p.value(QStringLiteral("max-events")).toLongLong(&ok);
        if (!ok || events.max < 0) {
            std::fprintf(stderr, "ttyscope report: --max-events takes a number >= 0\n");
            return 2;
        }
    }
    MetricOptions mo;
    RuleSet rules;
    QString error;
    if (!readMetricOptions(p, &mo, &error) || !readRuleSet(p, &rules, &error)) {
        std::fprintf(stderr, "ttyscope report: %s\n", qPrintable(error));
        return 2;
    }
    const LoadedSession loaded = loadSession(p, files, rules, mo);
    if (loaded.badOptions > 0) {
        return 2;
    }
    if (!loaded.session.isEmpty()) {
        Report report = loaded.session.report();
        printMetricWarnings(loaded, report);
        report.setEventOutput(events);
        QByteArray out;
        if (style == QLatin1String("json")) {
            out = QJsonDocument(report.json()).toJson(QJsonDocument::Indented);
        } else if (style == QLatin1String("markdown")) {
            out = report.markdown().toUtf8();
        } else {
            out = report.text().toUtf8();
        }
        std::fwrite(out.constData(), 1, std::size_t(out.size()), stdout);
    }
    if (printRegexesOverLimit("report")) {
        return 2;
    }
    return exitStatus(loaded.worst);
}

} // namespace tty
