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
    MetricOptions mo;
    RuleSet rules;
    QString error;
    if (!readMetricOptions(p, &mo, &error) || !readRuleSet(p, &rules, &error)) {
        std::fprintf(stderr, "ttyscope report: %s\n", qPrintable(error));
        return 2;
    }
    LoadedColumns loaded = loadColumns(p, files, rules, mo);
    if (!loaded.columns.empty()) {
        const Report report(loaded.columns, mo);
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
    if (loaded.unreadable > 0) {
        return 1;
    }
    return loaded.damaged > 0 ? 3 : 0;
}

} // namespace tty
