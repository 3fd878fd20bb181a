#include "cliruns.h"
#include "commands.h"
#include "gate.h"
#include "junit.h"

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
                 QStringLiteral("Output style: text, markdown, json, or junit (JUnit XML: a "
                                "test suite per run with a test case for its load, each "
                                "--fail-on condition and each crash report; default text)."),
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
    p.addOption(
        {QStringLiteral("fail-on"),
         QStringLiteral(
             "Exit with status 4 when a condition holds on any run, and name it on stderr. "
             "Comma-separated, repeatable: an event kind (panic, oops, bug, warning, lockdep, "
             "kasan, hung_task, drop, ...), crash (any crash report), or a figure of the "
             "report compared with a number (drops.messages>0, lag.max_s>5, boot_time_s>30, "
             "events.warning>=3; > >= < <= == !=) or with null (boot_time_s==null: no login "
             "seen). A figure that is n/a on a run is not compared with a number: a note on "
             "stderr says so."),
         QStringLiteral("CONDITIONS")});
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
        style != QLatin1String("json") && style != QLatin1String("junit")) {
        std::fprintf(stderr, "ttyscope report: --output must be text, markdown, json or junit\n");
        return 2;
    }
    std::vector<GateCondition> gate;
    QString gateError;
    if (!parseGateConditions(p.values(QStringLiteral("fail-on")), &gate, &gateError)) {
        std::fprintf(stderr, "ttyscope report: --fail-on %s\n", qPrintable(gateError));
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
    std::vector<GateCheck> checks;
    QStringList gateLines;
    bool gateFailed = false;
    if (loaded.badOptions > 0) {
        return 2;
    }
    if (!loaded.session.isEmpty()) {
        Report report = loaded.session.report();
        printMetricWarnings(loaded, report);
        report.setEventOutput(events);
        if (!checkGate(report, gate, &checks, &gateError)) {
            std::fprintf(stderr, "ttyscope report: %s\n", qPrintable(gateError));
            return 2;
        }
        QByteArray out;
        if (style == QLatin1String("junit")) {
            out = junitXml(report, checks);
        } else if (style == QLatin1String("json")) {
            out = QJsonDocument(report.json()).toJson(QJsonDocument::Indented);
        } else if (style == QLatin1String("markdown")) {
            out = report.markdown().toUtf8();
        } else {
            out = report.text().toUtf8();
        }
        std::fwrite(out.constData(), 1, std::size_t(out.size()), stdout);
        // After the report, so that they are the last lines a CI log shows.
        for (const GateCheck &c : checks) {
            const QString trial = trialName(report.columns()[c.column], c.trial);
            if (c.holds || c.unchecked) {
                gateLines << QStringLiteral("--fail-on '%1' %2 on %3: %4")
                                 .arg(c.condition->text,
                                      c.holds ? QStringLiteral("holds")
                                              : QStringLiteral("not checked"),
                                      trial, c.detail);
            }
            gateFailed = gateFailed || c.holds;
        }
    }
    if (printRegexesOverLimit("report")) {
        return 2;
    }
    for (const QString &line : gateLines) {
        std::fprintf(stderr, "ttyscope report: %s\n", qPrintable(line));
    }
    return gateFailed ? kGateFailedExit : exitStatus(loaded.worst);
}

} // namespace tty
