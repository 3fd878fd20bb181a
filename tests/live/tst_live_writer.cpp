// The recording writer on its own: every record type loads back, flushed data is readable
// from a file still being written, frames restart, file names come from the template, and a
// write that fails (a real file size limit, EFBIG) keeps the data in memory until it works.
#include "livetest.h"

#include "live/recordingwriter.h"
#include "runloader.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <random>

#include <sys/resource.h>

using namespace tty;

class TestLiveWriter : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void everyRecordTypeLoads()
    {
        const QString path = m_dir.filePath(QStringLiteral("all.ttyrec.zst"));
        RecordingWriter w;
        QString error;
        QVERIFY2(w.open(path, &error), qPrintable(error));
        QVERIFY(!w.open(path, &error)); // never overwrites
        const QJsonObject h = RecordingWriter::headerJson(
            QStringLiteral("/dev/ttyUSB0"), 921600, 8, QStringLiteral("none"), 1,
            QStringLiteral("rtscts"), QStringLiteral("board 7"),
            QDateTime(QDate(2024, 5, 1), QTime(12, 0), Qt::UTC));
        QCOMPARE(h.value(QStringLiteral("start_utc")).toString(),
                 QStringLiteral("2024-05-01T12:00:00.000Z"));
        const HostNs wall(1714564800LL * 1000000000);
        const std::int64_t mono = 5000000000;
        w.append('H', wall, mono, QJsonDocument(h).toJson(QJsonDocument::Compact).toStdString());
        w.append('D', wall + Nanoseconds(1000), mono + 1000,
                 "[    1.000000] Linux version 6.1\r\nlog");
        w.append('M', wall + Nanoseconds(2000), mono + 2000, "my marker");
        w.append('D', wall + Nanoseconds(3000), mono + 3000, "in: ");
        w.append('S', wall + Nanoseconds(4000), mono + 4000, "root\n");
        w.append('G', wall + Nanoseconds(5000), mono + 5000,
                 "/dev/ttyUSB0: device hung up or vanished");
        w.append('R', wall + Nanoseconds(6000), mono + 6000,
                 "/dev/ttyUSB0 (serial (libserialport))");
        w.append('W', wall + Nanoseconds(7000), mono + 7000, "a warning");
        w.append('D', wall + Nanoseconds(8000), mono + 8000, std::string("x\0y\n", 4));
        QVERIFY(w.close(&error));

        std::unique_ptr<Run> r = loadRun(path, {}, &error);
        QVERIFY2(r, qPrintable(error));
        QVERIFY2(!r->load.stoppedEarly(), qPrintable(r->load.message));
        QCOMPARE(r->meta.format, Format::Ttyscope);
        QCOMPARE(r->meta.label, QStringLiteral("board 7"));
        QCOMPARE(r->meta.baud, 921600);
        QCOMPARE(r->meta.extra.value(QStringLiteral("flow")).toString(), QStringLiteral("rtscts"));
        QCOMPARE(r->meta.extra.value(QStringLiteral("tool")).toString(),
                 QStringLiteral("ttyscope"));
        QVERIFY(!r->meta.host.isEmpty());
        QCOMPARE(r->lines.size(), LineCount(2));
        QCOMPARE(r->lines.text(LineIndex(1)).str(), std::string_view("login: x\0y", 10));
        QCOMPARE(r->lines.arrival(LineIndex(0)), wall + Nanoseconds(1000));
        QVERIFY(r->warnings.join(QLatin1Char(' ')).contains(QLatin1String("a warning")));
        QStringList kinds;
        for (const Event &e : r->events) {
            kinds << QLatin1String(eventKindName(e.kind)) + QLatin1Char(':') +
                         QString::fromStdString(std::string(r->eventText(e).str()));
        }
        QVERIFY2(kinds.contains(QStringLiteral("marker:my marker")),
                 qPrintable(kinds.join(QLatin1Char('|'))));
        QVERIFY(kinds.contains(QStringLiteral("marker:sent: root\n")));
        QVERIFY(kinds.contains(
            QStringLiteral("gap:capture gap: /dev/ttyUSB0: device hung up or vanished")));
        QVERIFY(kinds.contains(
            QStringLiteral("gap:capture resumed: /dev/ttyUSB0 (serial (libserialport))")));
    }

    void flushedDataIsReadableWhileWriting()
    {
        const QString path = m_dir.filePath(QStringLiteral("open.ttyrec.zst"));
        RecordingWriter w;
        QString error;
        QVERIFY(w.open(path, &error));
        w.append('H', wallNowNs(), monoNowNs(), "{}");
        w.append('D', wallNowNs(), monoNowNs(), "flushed line\n");
        w.flush();
        w.append('D', wallNowNs(), monoNowNs(), "not yet flushed\n");
        // The file ends inside a zstd frame: everything flushed decodes.
        livetest::Decoded d = livetest::decode(path);
        QCOMPARE(d.data, std::string("flushed line\n"));
        // tick() flushes on its own once the interval passed.
        w.tick(monoNowNs() + 2'000'000'000);
        d = livetest::decode(path);
        QCOMPARE(d.data, std::string("flushed line\nnot yet flushed\n"));
        QVERIFY(w.close(&error));
        d = livetest::decode(path);
        QVERIFY(d.warning.isEmpty() && d.error.isEmpty());
    }

    void framesRestart()
    {
        RecordingLimits lim;
        lim.frameBytes = 1 << 20;
        const QString path = m_dir.filePath(QStringLiteral("frames.ttyrec.zst"));
        RecordingWriter w(lim);
        QString error;
        QVERIFY(w.open(path, &error));
        std::string chunk(64 << 10, 'a');
        std::string all;
        for (int i = 0; i < 80; ++i) {
            std::snprintf(chunk.data(), 16, "chunk %6d\n", i);
            w.append('D', wallNowNs(), monoNowNs(), chunk);
            all += chunk;
        }
        QVERIFY(w.close(&error));
        QVERIFY(w.status().frames >= 5);
        QCOMPARE(livetest::decode(path).data, all);
        // Each frame is complete on its own: the zstd tool agrees the file is sound.
        if (!QStandardPaths::findExecutable(QStringLiteral("zstd")).isEmpty()) {
            QCOMPARE(QProcess::execute(QStringLiteral("zstd"), {QStringLiteral("-tq"), path}), 0);
        }
    }

    void fileNameTemplate()
    {
        const QDateTime t(QDate(2024, 3, 9), QTime(7, 5, 2));
        QCOMPARE(RecordingWriter::expandTemplate(QLatin1String(RecordingWriter::kDefaultTemplate),
                                                 QStringLiteral("rpi 4/b"), t),
                 QStringLiteral("ttyscope-20240309-070502-rpi_4_b.ttyrec.zst"));
        QCOMPARE(RecordingWriter::expandTemplate(QLatin1String(RecordingWriter::kDefaultTemplate),
                                                 QString(), t),
                 QStringLiteral("ttyscope-20240309-070502.ttyrec.zst"));
        QCOMPARE(RecordingWriter::expandTemplate(QStringLiteral("/tmp/{label}/%H%M.zst"),
                                                 QStringLiteral("x"), t),
                 QStringLiteral("/tmp/x/0705.zst"));
    }

    void failedWritesAreKeptAndRetried()
    {
        // A real write failure: a file size limit makes write() fail with EFBIG, as a full
        // disk fails with ENOSPC. The data stays in memory and is written once it works.
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit old{};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &old), 0);
        const QString path = m_dir.filePath(QStringLiteral("full.ttyrec.zst"));
        RecordingLimits lim;
        lim.memoryLimit = 256 << 10;
        RecordingWriter w(lim);
        QString error;
        QVERIFY(w.open(path, &error));
        w.append('H', wallNowNs(), monoNowNs(), "{}");
        w.flush();
        const std::int64_t written = QFileInfo(path).size();
        QVERIFY(written > 0);

        rlimit tight = old;
        tight.rlim_cur = rlim_t(written + 4096);
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &tight), 0);
        std::mt19937 rng(1);
        std::string all;
        for (int i = 0; i < 64; ++i) { // 1 MiB of incompressible bytes
            std::string c(16 << 10, '\0');
            for (char &ch : c) {
                ch = char(rng());
            }
            w.append('D', wallNowNs(), monoNowNs(), c);
            if (w.status().lostBytes == 0) {
                all += c;
            }
        }
        w.flush();
        const RecordingWriter::Status failing = w.status();
        ::setrlimit(RLIMIT_FSIZE, &old);
        QVERIFY2(failing.error.contains(QLatin1String("keeping the data in memory")),
                 qPrintable(failing.error));
        QVERIFY(failing.pendingBytes > 0);
        QVERIFY(failing.lostBytes > 0); // 1 MiB does not fit in 256 KiB
        QCOMPARE(QFileInfo(path).size(), written + 4096);
        // What reached the file stays readable meanwhile.
        livetest::Decoded d = livetest::decode(path);
        QVERIFY(d.error.isEmpty());
        QVERIFY(all.compare(0, d.data.size(), d.data) == 0);

        w.tick(monoNowNs() + 2'000'000'000); // the retry
        QVERIFY2(w.status().error.isEmpty(), qPrintable(w.status().error));
        QCOMPARE(w.status().pendingBytes, std::int64_t(0));
        QVERIFY(w.close(&error));
        d = livetest::decode(path);
        QVERIFY(d.error.isEmpty() && d.warning.isEmpty());
        QVERIFY(d.data == all);
        QCOMPARE(d.types.back(), 'W');
        const std::string texts = d.texts[1] + "|" + d.texts[2];
        QVERIFY2(texts.find("write to the recording failed") != std::string::npos, texts.c_str());
        QVERIFY2(texts.find("were lost") != std::string::npos, texts.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLiveWriter)
#include "tst_live_writer.moc"
