// Console colours in the log view: SGR sequences print their text in colour (bold where
// asked), moved in lightness until readable on the light and the dark theme alike.
#include "consolecolors.h"
#include "controltextdelegate.h"
#include "guitest.h"
#include "loglineview.h"
#include "logmodel.h"
#include "logpane.h"
#include "logview.h"
#include "mainwindow.h"
#include "theme.h"

#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace tty;
using namespace guitest;

namespace {
const QByteArray kLog = "[    1.000000] plain line\n"
                        "[    1.100000] [\x1b[1;31mFAILED\x1b[0m] Failed to start foo\n"
                        "[    1.200000] [\x1b[32m  OK  \x1b[0m] Started bar\n"
                        "[    1.300000] \x1b[38;5;21mdeep blue\x1b[m and \x1b[97mwhite\x1b[0m\n";

ConsoleColor indexed(int i)
{
    return {ConsoleColor::Indexed, std::uint32_t(i)};
}
} // namespace

class TestConsole : public QObject
{
    Q_OBJECT
private slots:
    void cleanup() { applyTheme(QStringLiteral("system")); }

    void xtermPalette()
    {
        QCOMPARE(xtermColor(indexed(1)), QColor(0xcd, 0, 0));
        QCOMPARE(xtermColor(indexed(12)), QColor(0x5c, 0x5c, 0xff));
        QCOMPARE(xtermColor(indexed(208)), QColor(255, 135, 0));   // the cube
        QCOMPARE(xtermColor(indexed(244)), QColor(128, 128, 128)); // the grey ramp
        QCOMPARE(xtermColor({ConsoleColor::Rgb, 0x123456}), QColor(0x12, 0x34, 0x56));
        QVERIFY(!xtermColor({}).isValid());
        for (const ConsoleColor c : {ConsoleColor(), indexed(0), indexed(15), indexed(255),
                                     ConsoleColor{ConsoleColor::Rgb, 0xff8000}}) {
            QVERIFY(unpackColor(packColor(c)) == c);
        }
    }

    void coloursReadable_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::newRow("light") << QStringLiteral("light");
        QTest::newRow("dark") << QStringLiteral("dark");
    }

    void coloursReadable()
    {
        QFETCH(QString, theme);
        QVERIFY(applyTheme(theme));
        const QColor base = QApplication::palette().color(QPalette::Base);
        for (int i = 0; i < 256; ++i) {
            const QColor c = readableOn(xtermColor(indexed(i)), base);
            QVERIFY2(contrastRatio(c, base) >= 4.5, qPrintable(QString::number(i)));
        }
        // Red stays red: only its lightness moves.
        const QColor red = readableOn(xtermColor(indexed(1)), base);
        QCOMPARE(red.hslHue(), 0);
        QVERIFY(red.hslSaturation() > 200);
        // A colour that reads already is left as it is.
        QCOMPARE(readableOn(QColor(0xcd, 0, 0), Qt::white), QColor(0xcd, 0, 0));
        QCOMPARE(readableOn(QColor(0x00, 0xff, 0xff), Qt::black), QColor(0x00, 0xff, 0xff));
        // Yellow on white and blue on black do not read; they are moved.
        QVERIFY(readableOn(xtermColor(indexed(11)), Qt::white) != xtermColor(indexed(11)));
        QVERIFY(readableOn(xtermColor(indexed(4)), Qt::black) != xtermColor(indexed(4)));
    }

    void logViewDrawsColours_data() { coloursReadable_data(); }

    void logViewDrawsColours()
    {
        QFETCH(QString, theme);
        QVERIFY(applyTheme(theme));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("colours.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kLog);
        f.close();
        MainWindow w;
        w.resize(1500, 950);
        w.show();
        OpenRequest r;
        r.sides.append({path});
        r.rules = std::make_shared<RuleSet>(RuleSet::builtin());
        w.open(r);
        QVERIFY(w.waitForLoaded());
        LogView *v = w.logPane(0)->view();
        QTRY_COMPARE(v->model()->rowCount(), 4);
        const QModelIndex failed = v->model()->index(1, LogModel::Text);
        // The kernel time column shows the timestamp; the text column leaves it out unless
        // asked, and the styles' offsets follow what is shown.
        v->model()->setTimesInText(true);
        QCOMPARE(failed.data().toString(),
                 QStringLiteral("[    1.100000] [FAILED] Failed to start foo"));
        QCOMPARE(failed.data(LogModel::StyleRunsRole).value<QVector<int>>(),
                 QVector<int>({16, 22, 1, 1}));
        v->model()->setTimesInText(false);
        QCOMPARE(failed.data().toString(), QStringLiteral("[FAILED] Failed to start foo"));
        // FAILED: red (1), bold; nothing else of the line is styled.
        QCOMPARE(failed.data(LogModel::StyleRunsRole).value<QVector<int>>(),
                 QVector<int>({1, 7, 1, 1}));
        QCOMPARE(v->model()
                     ->index(3, LogModel::Text)
                     .data(LogModel::StyleRunsRole)
                     .value<QVector<int>>(),
                 QVector<int>({0, 9, 21, 0, 14, 19, 15, 0}));
        QVERIFY(v->model()
                    ->index(0, LogModel::Text)
                    .data(LogModel::StyleRunsRole)
                    .value<QVector<int>>()
                    .isEmpty());

        const QColor base = v->lines()->palette().color(QPalette::Base);
        const QColor text = v->lines()->palette().color(QPalette::Text);
        const QColor red = readableOn(xtermColor(indexed(1)), base);
        const QList<QTextLayout::FormatRange> fmts =
            ControlTextDelegate::formats(failed, v->lines()->font(), text, base, false);
        QCOMPARE(fmts.size(), 1);
        QCOMPARE(fmts[0].start, 1);
        QCOMPARE(fmts[0].length, 6);
        QCOMPARE(fmts[0].format.foreground().color(), red);
        QVERIFY(fmts[0].format.font().bold());
        // Selected: the selection's colours, still bold.
        const QList<QTextLayout::FormatRange> sel =
            ControlTextDelegate::formats(failed, v->lines()->font(), text, base, true);
        QCOMPARE(sel.size(), 1);
        QVERIFY(!sel[0].format.hasProperty(QTextFormat::ForegroundBrush));

        // Drawn: the FAILED cell has pixels of that red, the plain line none.
        v->lines()->clearSelection();
        QApplication::processEvents();
        const QImage img = v->lines()->viewport()->grab().toImage();
        const qreal dpr = img.devicePixelRatio();
        auto pixels = [&](int row, const QColor &c) {
            const QRect cell = v->lines()->visualRect(v->model()->index(row, LogModel::Text));
            const QRect px(QPoint(int(cell.left() * dpr), int(cell.top() * dpr)),
                           QPoint(int(cell.right() * dpr), int(cell.bottom() * dpr)));
            return countColor(img, px, c, 30);
        };
        // Glyph edges are blended with the background, and how much depends on where the
        // text falls on the pixel grid: a colour is told by its hue, not its exact value.
        auto hued = [&](int row, const QColor &c) {
            const QRect cell = v->lines()->visualRect(v->model()->index(row, LogModel::Text));
            const QRect px = QRect(QPoint(int(cell.left() * dpr), int(cell.top() * dpr)),
                                   QPoint(int(cell.right() * dpr), int(cell.bottom() * dpr)))
                                 .intersected(img.rect());
            int n = 0;
            for (int y = px.top(); y <= px.bottom(); ++y) {
                for (int x = px.left(); x <= px.right(); ++x) {
                    const QColor p = img.pixelColor(x, y);
                    const int dh = std::abs(p.hslHue() - c.hslHue());
                    n += p.hslSaturation() > 80 && std::min(dh, 360 - dh) <= 15;
                }
            }
            return n;
        };
        QVERIFY2(pixels(1, red) >= 10, qPrintable(QString::number(pixels(1, red))));
        QCOMPARE(pixels(0, red), 0);
        const QColor green = readableOn(xtermColor(indexed(2)), base);
        QVERIFY2(hued(2, green) >= 10, qPrintable(QString::number(hued(2, green))));
        QCOMPARE(hued(0, green), 0);

        // With the escape sequences shown the colours stay on the same words.
        w.findChild<QAction *>(QStringLiteral("showControls"))->setChecked(true);
        QCOMPARE(failed.data().toString(),
                 QStringLiteral("[^[[1;31mFAILED^[[0m] Failed to start foo"));
        QCOMPARE(failed.data(LogModel::StyleRunsRole).value<QVector<int>>(),
                 QVector<int>({9, 15, 1, 1}));
        QCOMPARE(failed.data(LogModel::ControlRangesRole).value<QVector<int>>(),
                 QVector<int>({1, 9, 15, 20}));
        // And with the timestamps (View ▸ Kernel timestamps in the log text).
        w.findChild<QAction *>(QStringLiteral("timesInText"))->setChecked(true);
        QCOMPARE(failed.data().toString(),
                 QStringLiteral("[    1.100000] [^[[1;31mFAILED^[[0m] Failed to start foo"));
        QCOMPARE(failed.data(LogModel::StyleRunsRole).value<QVector<int>>(),
                 QVector<int>({24, 30, 1, 1}));
        QCOMPARE(failed.data(LogModel::ControlRangesRole).value<QVector<int>>(),
                 QVector<int>({16, 24, 30, 35}));
    }
};

QTEST_MAIN(TestConsole)
#include "tst_gui_console.moc"
