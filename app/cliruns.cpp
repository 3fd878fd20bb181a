#include "cliruns.h"

#include "bootselect.h"
#include "interrupt.h"
#include "labels.h"
#include "regexlimit.h"
#include "runloader.h"
#include "trials.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cstdio>

namespace tty {

void addMetricOptions(QCommandLineParser &p)
{
    p.addOption(
        {QStringLiteral("window-start"),
         QStringLiteral(
             "Regex of the line that starts the counting window (default: the first line)."),
         QStringLiteral("REGEX")});
    p.addOption({QStringLiteral("window"),
                 QStringLiteral("Length of the counting window in seconds (default 30)."),
                 QStringLiteral("SECONDS"), QStringLiteral("30")});
    p.addOption({QStringLiteral("window-match"),
                 QStringLiteral("Count only lines matching REGEX in the window."),
                 QStringLiteral("REGEX")});
    p.addOption(
        {QStringLiteral("span"),
         QStringLiteral("Time from the production of the first line matching FROM to the "
                        "arrival of the first line matching TO, as 'FROM=>TO'. Repeatable."),
         QStringLiteral("FROM=>TO")});
    p.addOption({QStringLiteral("boot-pattern"),
                 QStringLiteral("Regex that ends the boot time (default 'login:')."),
                 QStringLiteral("REGEX"), QStringLiteral("login:")});
    p.addOption(
        {QStringLiteral("boot-start"),
         QStringLiteral("Where boot_time_s starts: first-byte (the boot's first line, firmware "
                        "included; default), kernel (kernel time 0 of the boot on the host "
                        "clock) or a REGEX (the production of the first matching line). The "
                        "time from the kernel's start is reported as well."),
         QStringLiteral("WHERE"), QStringLiteral("first-byte")});
    p.addOption(
        {QStringLiteral("interval"),
         QStringLiteral(
             "Statistics of the time between consecutive lines matching REGEX. Repeatable."),
         QStringLiteral("REGEX")});
    p.addOption({QStringLiteral("boots-as-trials"),
                 QStringLiteral("Treat each boot inside a capture as a trial of its column.")});
    p.addOption(
        {QStringLiteral("boots"),
         QStringLiteral("The boots of the next column's files to take as its trials (repeat "
                        "once per column, as --label): 'all', numbers and ranges such as "
                        "1-3,7, '/REGEX/' (boots that print a matching line, e.g. "
                        "'/Command line:.*quiet/') or '!/REGEX/' (boots that print none)."),
         QStringLiteral("SELECTOR")});
    p.addOption({QStringLiteral("label"),
                 QStringLiteral("Label of the next column (repeat once per column)."),
                 QStringLiteral("TEXT")});
}

void addLoadOptions(QCommandLineParser &p)
{
    p.addOption(
        {QStringLiteral("format"),
         QStringLiteral(
             "Input format: auto, ttyscope, lava (LAVA log.yaml), journal-json (journalctl -o "
             "json), journal-export (-o export), journal-short (-o short-monotonic, "
             "short-precise, short-iso-precise), dmesg-json (dmesg --json), dmesg-text (dmesg "
             "-x, -r, -d, -T, --time-format; a pstore dmesg-ramoops dump), hostts, ts (moreutils "
             "ts '%.s'), tio (tio "
             "--timestamp --log), grabserial, "
             "kmsg, raw (plain dmesg, conserver)."),
         QStringLiteral("NAME"), QStringLiteral("auto")});
    p.addOption(
        {QStringLiteral("baud"),
         QStringLiteral("Baud rate of the console (default: from the recording, else 115200). "
                        "Once for every column, or once per column."),
         QStringLiteral("RATE")});
    p.addOption({QStringLiteral("rules"),
                 QStringLiteral("Event rule file (JSON) instead of the built-in table."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("mark"),
                 QStringLiteral("Lines matching REGEX become 'marker' events. Repeatable."),
                 QStringLiteral("REGEX")});
}

bool readRuleSet(const QCommandLineParser &p, RuleSet *rules, QString *error)
{
    *rules = RuleSet::builtin();
    if (p.isSet(QStringLiteral("rules")) &&
        !rules->loadFile(p.value(QStringLiteral("rules")), error)) {
        return false;
    }
    for (const QString &m : p.values(QStringLiteral("mark"))) {
        if (!rules->addMarker(m, error)) {
            *error = QStringLiteral("--mark: %1").arg(*error);
            return false;
        }
    }
    return true;
}

bool readMetricOptions(const QCommandLineParser &p, MetricOptions *o, QString *error)
{
    auto checkRegex = [error](const QString &opt, const QString &re) {
        QRegularExpression r(re);
        if (!r.isValid()) {
            *error = QStringLiteral("--%1: invalid regular expression '%2': %3")
                         .arg(opt, re, r.errorString());
            return false;
        }
        return true;
    };
    o->windowStart = p.value(QStringLiteral("window-start"));
    o->windowMatch = p.value(QStringLiteral("window-match"));
    bool ok = false;
    o->windowSeconds = p.value(QStringLiteral("window")).toDouble(&ok);
    if (!ok || o->windowSeconds <= 0) {
        *error = QStringLiteral("--window: expected a positive number of seconds");
        return false;
    }
    o->bootPattern = p.value(QStringLiteral("boot-pattern"));
    o->bootPatternGiven = p.isSet(QStringLiteral("boot-pattern"));
    o->bootStart = p.value(QStringLiteral("boot-start"));
    if (o->bootStart != QLatin1String("kernel") && o->bootStart != QLatin1String("first-byte") &&
        !checkRegex(QStringLiteral("boot-start"), o->bootStart)) {
        return false;
    }
    o->intervals = p.values(QStringLiteral("interval"));
    for (const QString &s : p.values(QStringLiteral("span"))) {
        const int at = s.indexOf(QStringLiteral("=>"));
        if (at <= 0 || at + 2 >= s.size()) {
            *error = QStringLiteral("--span: expected 'FROM=>TO', got '%1'").arg(s);
            return false;
        }
        o->spans.append({s.left(at), s.mid(at + 2)});
    }
    if (!checkRegex(QStringLiteral("window-start"), o->windowStart) ||
        !checkRegex(QStringLiteral("window-match"), o->windowMatch) ||
        !checkRegex(QStringLiteral("boot-pattern"), o->bootPattern)) {
        return false;
    }
    for (const auto &s : o->spans) {
        if (!checkRegex(QStringLiteral("span"), s.first) ||
            !checkRegex(QStringLiteral("span"), s.second)) {
            return false;
        }
    }
    for (const QString &s : o->intervals) {
        if (!checkRegex(QStringLiteral("interval"), s)) {
            return false;
        }
    }
    return true;
}

bool printRegexesOverLimit(const char *command)
{
    const QStringList patterns = takeRegexesOverLimit();
    for (const QString &p : patterns) {
        std::fprintf(stderr, "ttyscope %s: %s\n", command, qPrintable(regexOverLimitMessage(p)));
    }
    return !patterns.isEmpty();
}

bool readBauds(const QCommandLineParser &p, QList<int> *bauds, QString *error)
{
    bauds->clear();
    for (const QString &v : p.values(QStringLiteral("baud"))) {
        bool ok = false;
        const qlonglong rate = v.trimmed().toLongLong(&ok);
        // 50 baud (the slowest standard rate) to 100 Mbaud (beyond any UART's).
        if (!ok || rate < 50 || rate > 100'000'000) {
            *error = QStringLiteral("--baud: expected a rate in bits per second from 50 to "
                                    "100000000, got '%1'")
                         .arg(v);
            return false;
        }
        bauds->append(int(rate));
    }
    return true;
}

int baudOfColumn(const QList<int> &bauds, int column)
{
    if (bauds.size() == 1) {
        return bauds.front();
    }
    return column >= 0 && column < bauds.size() ? bauds[column] : 0;
}

QStringList perColumnMismatch(const QCommandLineParser &p, int columns)
{
    QStringList out;
    const auto check = [&](const char *option, int given) {
        if (given == 0 || given == columns) {
            return;
        }
        QString what = QStringLiteral("%1 --%2 values for %3 column(s) (one per FILE argument): ")
                           .arg(given)
                           .arg(QLatin1String(option))
                           .arg(columns);
        what += given < columns
                    ? QStringLiteral("they apply to the first %1 column(s) only; to make one "
                                     "column of several trials, join the files with commas "
                                     "(a1.log,a2.log) or quote a glob ('a/*.log')")
                          .arg(given)
                    : QStringLiteral("the last %1 apply to no column").arg(given - columns);
        out << what;
    };
    check("label", int(p.values(QStringLiteral("label")).size()));
    check("boots", int(p.values(QStringLiteral("boots")).size()));
    if (const int bauds = int(p.values(QStringLiteral("baud")).size()); bauds > 1) {
        check("baud", bauds); // one is for every column
    }
    return out;
}

LoadedSession loadSession(const QCommandLineParser &p, const QStringList &args,
                          const RuleSet &rules, const MetricOptions &metrics)
{
    LoadedSession out;
    for (const QString &w : perColumnMismatch(p, int(args.size()))) {
        std::fprintf(stderr, "ttyscope: warning: %s\n", qPrintable(w));
    }
    out.session.metrics = metrics;
    const QStringList labels = p.values(QStringLiteral("label"));
    const QStringList selectors = p.values(QStringLiteral("boots"));
    const bool bootsAsTrials = p.isSet(QStringLiteral("boots-as-trials"));
    QList<int> bauds;
    QString baudError;
    if (!readBauds(p, &bauds, &baudError)) {
        std::fprintf(stderr, "ttyscope: %s\n", qPrintable(baudError));
        ++out.badOptions;
        return out;
    }
    LoadOptions lo;
    lo.format = p.value(QStringLiteral("format"));
    lo.rules = &rules;
    lo.cancel = interruptFlag();
    for (int a = 0; a < args.size(); ++a) {
        lo.baud = baudOfColumn(bauds, a);
        const QStringList files = args[a].split(QLatin1Char(','), Qt::SkipEmptyParts);
        // Whole runs, unless the column's boots are chosen (or every boot is a trial).
        BootChoice choice;
        if (a < selectors.size()) {
            choice.mode = BootChoice::Mode::Selected;
            QString error;
            if (!BootSelector::parse(selectors[a], &choice.selector, &error)) {
                std::fprintf(stderr, "ttyscope: --boots: %s\n", qPrintable(error));
                ++out.badOptions;
                return out;
            }
        } else if (bootsAsTrials) {
            choice.mode = BootChoice::Mode::EveryBoot;
        }
        Side side;
        for (const QString &f : files) {
            QString error;
            std::shared_ptr<Run> run = loadRun(f, lo, &error);
            if (!run) {
                std::fprintf(stderr, "ttyscope: %s\n", qPrintable(error));
                out.worst = LoadOutcome::Unreadable;
                continue;
            }
            for (const QString &w : run->warnings) {
                std::fprintf(stderr, "ttyscope: %s: warning: %s\n", qPrintable(f), qPrintable(w));
            }
            if (run->load.stoppedEarly()) {
                std::fprintf(stderr, "ttyscope: %s: %s\n", qPrintable(f),
                             qPrintable(run->load.message));
            }
            if (interrupted()) {
                std::fprintf(stderr,
                             "ttyscope: %s: interrupted: what was read so far is "
                             "reported\n",
                             qPrintable(f));
            }
            out.worst = worse(out.worst, run->load.outcome); // read in part: exit status 3
            const QVector<Trial> trials = trialsOf(run, f, choice);
            if (trials.isEmpty()) {
                std::fprintf(stderr, "ttyscope: %s: --boots '%s' chose none of its %d boot(s)\n",
                             qPrintable(f), qPrintable(selectors.value(a)), int(run->boots.size()));
            }
            side.trials += trials;
            out.files[run.get()] = f;
        }
        if (side.trials.isEmpty()) {
            continue;
        }
        side.label =
            a < labels.size() && !labels[a].isEmpty() ? labels[a] : defaultLabel(side.trials);
        out.session.sides.append(side);
    }
    return out;
}

void printMetricWarnings(const LoadedSession &loaded, const Report &report)
{
    // Per file, once, whichever of its boots or trials the warning came from.
    for (const ReportColumn &col : report.columns()) {
        std::map<const Run *, QStringList> byRun;
        std::vector<const Run *> order;
        for (std::size_t t = 0; t < col.runs.size(); ++t) {
            QStringList &w = byRun[col.runs[t]];
            if (w.isEmpty() && std::find(order.begin(), order.end(), col.runs[t]) == order.end()) {
                order.push_back(col.runs[t]);
            }
            w << col.metrics[t].warnings;
        }
        for (const Run *r : order) {
            QStringList w = byRun[r];
            w.removeDuplicates();
            const auto file = loaded.files.find(r);
            for (const QString &text : w) {
                std::fprintf(stderr, "ttyscope: %s: warning: %s\n",
                             qPrintable(file != loaded.files.end() ? file->second : r->meta.label),
                             qPrintable(text));
            }
        }
    }
}

} // namespace tty
