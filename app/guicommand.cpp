#include "bootselect.h"
#include "cliruns.h"
#include "closeonsignal.h"
#include "commands.h"
#include "live/capturesession.h"
#include "livecontroller.h"
#include "mainwindow.h"
#include "noticebar.h"
#include "samples.h"
#include "theme.h"
#include "timelineview.h"

#include <QApplication>
#include <QEventLoop>
#include <QSettings>
#include <QTimer>

#include <cstdio>

namespace tty {

int runCaptureGui(const CaptureOptions &options, const QString &markOnStart)
{
    applyTheme(QSettings().value(QStringLiteral("view/theme")).toString());
    MainWindow w;
    w.resize(1500, 950);
    QString error;
    if (!w.startCapture(options, false, &error)) {
        std::fprintf(stderr, "ttyscope capture: %s\n", qPrintable(error));
        return 1;
    }
    if (!markOnStart.isEmpty()) {
        w.live()->addMarker(markOnStart);
    }
    w.show();
    closeOnSignals(&w);
    return QApplication::exec();
}

int runGui(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "ttyscope: serial-console timelines for kernel developers.\n\n"
        "  ttyscope [FILE]            view one console log\n"
        "  ttyscope A B               compare two logs (or groups: a1,a2,a3 b1,b2)\n"
        "  ttyscope                   the bundled sample comparison\n"
        "  ttyscope report ...        metrics as text, markdown or JSON (see report --help)\n"
        "  ttyscope export ...        render a picture without a display (see export --help)\n"
        "  ttyscope cat ...           console text of any supported log\n"
        "  ttyscope capture ...       record a serial port or network console"));
    p.addHelpOption();
    p.addVersionOption();
    p.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Logs to open."),
                            QStringLiteral("[A [B]]"));
    p.addOption({QStringLiteral("align"),
                 QStringLiteral("Time zero: start, boot, panic, drop, event:KIND, regex:REGEX."),
                 QStringLiteral("SPEC"), QStringLiteral("start")});
    p.addOption({QStringLiteral("screenshot"),
                 QStringLiteral("Save a screenshot of the window to PNG once loaded, then quit."),
                 QStringLiteral("OUT.png")});
    p.addOption({QStringLiteral("size"), QStringLiteral("Window size, e.g. 1600x1000."),
                 QStringLiteral("WxH")});
    p.addOption({QStringLiteral("pane"),
                 QStringLiteral("The dock in front: events, metrics (default) or sources (who "
                                "floods the console), e.g. for --screenshot."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("theme"),
                 QStringLiteral("Colours: system (default), light or dark."),
                 QStringLiteral("NAME")});
    addLoadOptions(p);
    addMetricOptions(p);
    p.process(args);

    QSettings settings;
    const QString theme = p.isSet(QStringLiteral("theme"))
                              ? p.value(QStringLiteral("theme"))
                              : settings.value(QStringLiteral("view/theme")).toString();
    if (!applyTheme(theme)) {
        std::fprintf(stderr, "ttyscope: --theme must be system, light or dark\n");
        return 2;
    }
    MainWindow w;
    const QString size = p.value(QStringLiteral("size"));
    if (!size.isEmpty()) {
        const QStringList wh = size.split(QLatin1Char('x'));
        if (wh.size() == 2) {
            w.resize(wh[0].toInt(), wh[1].toInt());
        }
    } else if (!w.restoreGeometry(QByteArray())) {
        w.resize(1500, 950);
    }
    QStringList files = p.positionalArguments();
    if (files.size() > 2) {
        // From a file manager (Exec=ttyscope %F): compare the first two, say so in the window.
        std::fprintf(stderr, "ttyscope: at most two logs (or comma-joined groups) are compared; "
                             "the first two are shown\n");
    }
    if (files.isEmpty()) {
        w.openSample();
    } else {
        OpenRequest r;
        QString error;
        auto rules = std::make_shared<RuleSet>();
        if (!readMetricOptions(p, &r.metrics, &error) || !readRuleSet(p, rules.get(), &error) ||
            !Alignment::parse(p.value(QStringLiteral("align")), &r.alignment, &error)) {
            std::fprintf(stderr, "ttyscope: %s\n", qPrintable(error));
            return 2;
        }
        r.rules = rules;
        r.load.format = p.value(QStringLiteral("format"));
        QList<int> bauds;
        if (!readBauds(p, &bauds, &error)) {
            std::fprintf(stderr, "ttyscope: %s\n", qPrintable(error));
            return 2;
        }
        for (int side = 0; side < 2; ++side) {
            r.bauds.append(baudOfColumn(bauds, side));
        }
        r.labels = p.values(QStringLiteral("label"));
        for (const QString &m : perColumnMismatch(p, int(std::min<qsizetype>(files.size(), 2)))) {
            std::fprintf(stderr, "ttyscope: warning: %s\n", qPrintable(m));
        }
        r.bootsAsTrials = p.isSet(QStringLiteral("boots-as-trials"));
        r.boots = p.values(QStringLiteral("boots"));
        for (const QString &selector : r.boots) {
            BootSelector check;
            if (!BootSelector::parse(selector, &check, &error)) {
                std::fprintf(stderr, "ttyscope: --boots: %s\n", qPrintable(error));
                return 2;
            }
        }
        for (const QString &f : files.mid(0, 2)) {
            r.sides.append(f.split(QLatin1Char(','), Qt::SkipEmptyParts));
        }
        w.open(r);
        if (files.size() > 2) {
            w.notices()->show(
                NoticeBar::Level::Warning,
                QObject::tr("%1 files were given; the first two are compared.").arg(files.size()));
        }
    }
    w.show();
    if (p.isSet(QStringLiteral("pane")) && !w.raisePane(p.value(QStringLiteral("pane")))) {
        std::fprintf(stderr, "ttyscope: --pane must be events, metrics or sources\n");
        return 2;
    }
    if (p.isSet(QStringLiteral("screenshot"))) {
        w.waitForLoaded();
        QEventLoop settle; // let deferred layout (dock sizes) happen before the grab
        QTimer::singleShot(200, &settle, &QEventLoop::quit);
        settle.exec();
        w.timeline()->plot()->replot();
        QApplication::processEvents();
        const bool ok = w.grab().save(p.value(QStringLiteral("screenshot")));
        return ok ? 0 : 1;
    }
    closeOnSignals(&w);
    return QApplication::exec();
}

} // namespace tty
