// Settings survive a restart, and a broken settings file never stops the program.
#include "logmodel.h"
#include "logview.h"
#include "mainwindow.h"
#include "palette.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace tty;

class TestSettings : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ttyscope"));
        QCoreApplication::setApplicationName(QStringLiteral("ttyscope"));
    }

    void brokenSettingsFileIsSurvived()
    {
        const QString path = QSettings().fileName();
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // Garbage of every kind: binary, half a section, values of the wrong type.
        f.write("\x00\xff\xfe garbage [window\nwindow/geometry=@ByteArray(\\x\nlanes/0=maybe\n"
                "colors/runA=notacolour\nmetrics/window=-5\nrecent=@Variant(\\0\\0\\0\\x7f)\n[[[\n",
                150);
        f.close();
        MainWindow w;
        w.show();
        QVERIFY(w.isVisible());
        // The defaults stand in for what could not be read.
        QCOMPARE(runColor(0), QColor(0x00, 0x72, 0xb2));
        w.openFiles(
            {QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-quiet-smp2-115200-t1.hostts.log.zst")});
        QVERIFY(w.waitForLoaded());
        QCOMPARE(w.session().sides.size(), 1);
        QCOMPARE(w.session().metrics.windowSeconds, 30.0);
    }

    void settingsPersist()
    {
        {
            QSettings s;
            s.clear();
        }
        {
            MainWindow w;
            w.show();
            w.openFiles({QStringLiteral(TTYSCOPE_SAMPLES
                                        "/boot_login-quiet-smp2-115200-t1.hostts.log.zst")});
            QVERIFY(w.waitForLoaded());
            QSettings().setValue(QStringLiteral("colors/runA"), QStringLiteral("#123456"));
            w.close(); // saves layout and lanes
        }
        QSettings s;
        QVERIFY(s.value(QStringLiteral("recent"))
                    .toStringList()
                    .front()
                    .endsWith(QLatin1String("quiet-smp2-115200-t1.hostts.log.zst")));
        QVERIFY(s.contains(QStringLiteral("window/geometry")));
        QVERIFY(s.contains(QStringLiteral("lanes/0")));
        QCOMPARE(runColor(0), QColor(0x12, 0x34, 0x56));
        s.remove(QStringLiteral("colors"));
    }

    void logTogglesPersist()
    {
        const QString quiet =
            QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-quiet-smp2-115200-t1.hostts.log.zst");
        // Line 10 of the quiet boot: "[    1.977729] harness: boot complete".
        auto shown = [&](MainWindow &w) {
            w.openFiles({quiet});
            if (!w.waitForLoaded()) {
                return QString();
            }
            const LogView *v = w.findChild<LogView *>();
            return v ? v->model()->index(9, LogModel::Text).data().toString() : QString();
        };
        auto action = [](MainWindow &w, const char *name) {
            return w.findChild<QAction *>(QLatin1String(name));
        };
        {
            QSettings().clear();
            MainWindow w;
            w.show();
            QVERIFY(action(w, "timesInText") && action(w, "showControls"));
            QVERIFY(!action(w, "timesInText")->isChecked());
            QVERIFY(!action(w, "showControls")->isChecked());
            QCOMPARE(shown(w), QStringLiteral("harness: boot complete"));
            action(w, "timesInText")->setChecked(true);
            action(w, "showControls")->setChecked(true);
            w.close();
        }
        {
            // The next window shows the log as the last one was left.
            MainWindow w;
            w.show();
            QVERIFY(action(w, "timesInText")->isChecked());
            QVERIFY(action(w, "showControls")->isChecked());
            QCOMPARE(shown(w), QStringLiteral("[    1.977729] harness: boot complete"));
            action(w, "timesInText")->setChecked(false);
            w.close();
        }
        MainWindow w;
        w.show();
        QVERIFY(!action(w, "timesInText")->isChecked());
        QVERIFY(action(w, "showControls")->isChecked());
        QCOMPARE(shown(w), QStringLiteral("harness: boot complete"));
        QSettings().clear();
    }
};

QTEST_MAIN(TestSettings)
#include "tst_gui_settings.moc"
