#include "batchreport.h"
#include "cliruns.h"
#include "commands.h"
#include "filelist.h"
#include "gate.h"
#include "junit.h"
#include "sourcereport.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include <cstdio>

namespace tty {

namespace {

// `--sources [N]`: the count is optional, which QCommandLineParser cannot say, so it is
// taken out of the arguments here (`--sources N`, `--sources=N`), leaving `--sources`.
// A file named like a number right after --sources is written ./N.
bool takeSourcesCount(QStringList *args, std::optional<int> *top, QString *error)
{
    for (qsizetype i = 0; i < args->size(); ++i) {
        const QString a = args->at(i);
        QString value;
        if (a.startsWith(QLatin1String("--sources="))) {
            value = a.mid(10);
        } else if (a == QLatin1String("--sources") && i + 1 < args->size()) {
            bool digits = !args->at(i + 1).isEmpty();
            for (QChar c : args->at(i + 1)) {
                digits = digits && c.isDigit();
            }
            if (!digits) {
                continue;
            }
            value = args->takeAt(i + 1);
        } else {
            continue;
        }
        bool ok = false;
        const int n = value.toInt(&ok);
        if (!ok || n < 1) {
            *error = QStringLiteral("--sources takes a number >= 1");
            return false;
        }
        *top = n;
        (*args)[i] = QStringLiteral("--sources");
    }
    return true;
}

// --output jsonl: every file on its own; the options of columns have no meaning there.
int runBatch(const QCommandLineParser &p, const QStringList &arguments, bool missing,
             const RuleSet &rules, const MetricOptions &metrics, const EventOutput &events,
             const std::vector<GateCondition> &gate)
{
    if (p.isSet(QStringLiteral("label")) || p.values(QStringLiteral("boots")).size() > 1) {
        std::fprintf(stderr, "ttyscope report: --output jsonl reports every file on its own: "
                             "--label and one --boots per column have no columns to apply "
                             "to (one --boots applies to every file)\n");
        return 2;
    }
    QList<int> bauds;
    QString baudError;
    if (!readBauds(p, &bauds, &baudError) || bauds.size() > 1) {
        std::fprintf(stderr, "ttyscope report: %s\n",
                     qPrintable(bauds.size() > 1
                                    ? QStringLiteral("--output jsonl reports every file on "
                                                     "its own: give one --baud for all")
                                    : baudError));
        return 2;
    }
    BatchOptions o;
    o.format = p.value(QStringLiteral("format"));
    o.baud = baudOfColumn(bauds, 0);
    o.rules = &rules;
    o.metrics = metrics;
    o.events = events;
    o.gate = gate;
    if (p.isSet(QStringLiteral("boots"))) {
        o.boots.mode = BootChoice::Mode::Selected;
        QString error;
        if (!BootSelector::parse(p.value(QStringLiteral("boots")), &o.boots.selector, &error)) {
            std::fprintf(stderr, "ttyscope report: --boots: %s\n", qPrintable(error));
            return 2;
        }
    } else if (p.isSet(QStringLiteral("boots-as-trials"))) {
        o.boots.mode = BootChoice::Mode::EveryBoot;
    }
    if (p.isSet(QStringLiteral("jobs"))) {
        bool ok = false;
        o.jobs = p.value(QStringLiteral("jobs")).toInt(&ok);
        if (!ok || o.jobs < 1) {
            std::fprintf(stderr, "ttyscope report: --jobs takes a number >= 1\n");
            return 2;
        }
    }
    QStringList files;
    for (const QString &a : arguments) {
        files << a.split(QLatin1Char(','), Qt::SkipEmptyParts);
    }
    const int status = runBatchReport(files, o);
    if (printRegexesOverLimit("report")) {
        return 2;
    }
    // A pattern that matched no file counts as a file that could not be read (status 1),
    // which only a holding --fail-on condition (4) or a usage error (2) outranks.
    return missing && status != 2 && status != kGateFailedExit ? 1 : status;
}

} // namespace

int runReport(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Prints the metrics of console logs, one column per run. A column can be a group of "
        "trials: join files with commas (a1.log,a2.log b1.log,b2.log); the table then shows "
        "mean ± sd (n). With two columns a difference column B − A is added. A quoted glob "
        "('logs/*.log') is expanded by ttyscope into the files it matches, sorted by name.\n\n"
        "Batch (--output jsonl): every file is reported on its own, as `report -o json FILE` "
        "would report it alone: a batch is many independent single-file reports, never "
        "columns, groups or a comparison (commas only separate files). Files are read on "
        "every core with only the files in flight in memory, and each gives one JSON line "
        "as soon as it and the files before it are done: the lines come in the order the "
        "files were named (globs sorted by name, then the --files-from list), with the "
        "keys seq, file, status, exit_status, error, fail_on, runs and groups (docs/report.md)."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("report"), QStringLiteral("The command."));
    p.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Logs or groups of logs."),
                            QStringLiteral("FILE[,FILE...]..."));
    p.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                 QStringLiteral("Output style: text, markdown, json, junit (JUnit XML: a "
                                "test suite per run with a test case for its load, each "
                                "--fail-on condition and each crash report), or jsonl (a "
                                "batch: one JSON line per file, see above; default text)."),
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
    p.addOption({QStringLiteral("files-from"),
                 QStringLiteral("Read more files from FILE, one per line ('-': standard "
                                "input), after those on the command line; each line is one "
                                "argument. Repeatable."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("jobs"),
                 QStringLiteral("Files reported at once with --output jsonl (default: one "
                                "per core)."),
                 QStringLiteral("N")});
    p.addOption(
        {QStringLiteral("sources"),
         QStringLiteral("Who floods the console: add each run's sources of output (message "
                        "templates, numbers masked) with their lines, bytes, wire time, share "
                        "of the wire and of the boot time, rate, first and last time and "
                        "dropped messages, most wire time first. --sources N lists the top N "
                        "(default: 10 in text and Markdown, every source above 0.1 % of the "
                        "wire time in JSON). With two columns, the sources of A and B side by "
                        "side: B − A, ×, and those only in one (new, gone).")});
    p.addOption({QStringLiteral("sources-by"),
                 QStringLiteral("What a source is: template (default), prefix (the part "
                                "before the first ': ', as 'usb 1-1') or caller (the printk "
                                "caller id, T123 or C1)."),
                 QStringLiteral("WHAT"), QStringLiteral("template")});
    addLoadOptions(p);
    addMetricOptions(p);
    QStringList arguments = args;
    SourceOptions sourceOptions;
    {
        QString sourcesError;
        if (!takeSourcesCount(&arguments, &sourceOptions.top, &sourcesError)) {
            std::fprintf(stderr, "ttyscope report: %s\n", qPrintable(sourcesError));
            return 2;
        }
    }
    p.process(arguments);
    const bool sources =
        p.isSet(QStringLiteral("sources")) || p.isSet(QStringLiteral("sources-by"));
    if (!sourceGroupingFromName(p.value(QStringLiteral("sources-by")), &sourceOptions.by)) {
        std::fprintf(stderr, "ttyscope report: --sources-by must be template, prefix or caller\n");
        return 2;
    }
    QStringList files = p.positionalArguments();
    files.removeFirst();
    for (const QString &list : p.values(QStringLiteral("files-from"))) {
        QString listError;
        if (!readFileList(list, &files, &listError)) {
            std::fprintf(stderr, "ttyscope report: %s\n", qPrintable(listError));
            return 2;
        }
    }
    // Globs ttyscope expands itself: one argument's files stay one column.
    QStringList noMatch;
    QStringList expanded;
    for (const QString &a : files) {
        const QStringList pieces =
            expandGlobs(a.split(QLatin1Char(','), Qt::SkipEmptyParts), &noMatch);
        if (!pieces.isEmpty()) {
            expanded << pieces.join(QLatin1Char(','));
        }
    }
    for (const QString &pattern : noMatch) {
        std::fprintf(stderr, "ttyscope report: no file matches '%s'\n", qPrintable(pattern));
    }
    if (files.isEmpty()) {
        std::fprintf(stderr, "ttyscope report: no files given (see ttyscope report --help)\n");
        return 2;
    }
    const QString style = p.value(QStringLiteral("output"));
    if (style != QLatin1String("text") && style != QLatin1String("markdown") &&
        style != QLatin1String("json") && style != QLatin1String("junit") &&
        style != QLatin1String("jsonl")) {
        std::fprintf(stderr,
                     "ttyscope report: --output must be text, markdown, json, junit or jsonl\n");
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
        const qint64 max = p.value(QStringLiteral("max-events")).toLongLong(&ok);
        if (!ok || max < 0) {
            std::fprintf(stderr, "ttyscope report: --max-events takes a number >= 0\n");
            return 2;
        }
        events.max = max;
    }
    MetricOptions mo;
    RuleSet rules;
    QString error;
    if (!readMetricOptions(p, &mo, &error) || !readRuleSet(p, &rules, &error)) {
        std::fprintf(stderr, "ttyscope report: %s\n", qPrintable(error));
        return 2;
    }
    if (sources && (style == QLatin1String("jsonl") || style == QLatin1String("junit"))) {
        std::fprintf(stderr, "ttyscope report: --sources is for --output text, markdown and "
                             "json\n");
        return 2;
    }
    if (style == QLatin1String("jsonl")) {
        return runBatch(p, expanded, !noMatch.isEmpty(), rules, mo, events, gate);
    }
    LoadedSession loaded = loadSession(p, expanded, rules, mo);
    if (!noMatch.isEmpty()) {
        loaded.worst = LoadOutcome::Unreadable; // as a file that cannot be read: status 1
    }
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
        std::optional<SourceReport> sourceReport;
        if (sources) {
            sourceReport.emplace(report, sourceOptions);
        }
        if (style == QLatin1String("junit")) {
            out = junitXml(report, checks);
        } else if (style == QLatin1String("json")) {
            QJsonObject j = report.json();
            if (sourceReport) {
                sourceReport->addToJson(&j);
            }
            out = QJsonDocument(j).toJson(QJsonDocument::Indented);
        } else if (style == QLatin1String("markdown")) {
            out = (report.markdown() + (sourceReport ? sourceReport->markdown() : QString()))
                      .toUtf8();
        } else {
            out = (report.text() + (sourceReport ? sourceReport->text() : QString())).toUtf8();
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
