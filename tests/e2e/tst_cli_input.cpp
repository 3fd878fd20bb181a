// `ttyscope cat`, `report` and `export` on inputs that are not plain files: pipes and FIFOs
// (whose writer may stay open), cut files, and the exit status that says "read in part".
// Real FIFOs, real processes, real signals.
#include "clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <zstd.h>

using namespace clitest;

namespace {

// A generous bound on waiting for a process: reached only when the behaviour is broken
// (a hang), never a measure of speed.
constexpr int kHangMs = 60000;

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray zstdDecompress(const QByteArray &in)
{
    QByteArray out(qsizetype(ZSTD_getFrameContentSize(in.constData(), std::size_t(in.size()))),
                   Qt::Uninitialized);
    out.resize(qsizetype(ZSTD_decompress(out.data(), std::size_t(out.size()), in.constData(),
                                         std::size_t(in.size()))));
    return out;
}

// A FIFO in a temporary directory, and its write end (opened once the reader opened it).
class Fifo
{
public:
    Fifo() { m_path = m_dir.filePath(QStringLiteral("console.fifo")); }
    ~Fifo() { closeWriter(); }
    bool make() { return ::mkfifo(QFile::encodeName(m_path).constData(), 0600) == 0; }
    const QString &path() const { return m_path; }
    // Blocks until a reader opens the FIFO.
    bool openWriter()
    {
        m_fd = ::open(QFile::encodeName(m_path).constData(), O_WRONLY);
        return m_fd >= 0;
    }
    // Writes everything, or stops at EPIPE (the reader closed its end).
    bool write(const QByteArray &data)
    {
        for (qsizetype done = 0; done < data.size();) {
            const ssize_t n =
                ::write(m_fd, data.constData() + done, std::size_t(data.size() - done));
            if (n <= 0) {
                return false;
            }
            done += n;
        }
        return true;
    }
    // Bytes written and not yet read by the reader.
    int unread() const
    {
        int n = -1;
        ::ioctl(m_fd, FIONREAD, &n);
        return n;
    }
    void closeWriter()
    {
        if (m_fd >= 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
    int m_fd = -1;
};

// Waits until the reader took every byte written (it blocks on the FIFO afterwards).
bool drained(const Fifo &fifo)
{
    for (int i = 0; i < kHangMs / 10; ++i) {
        if (fifo.unread() == 0) {
            return true;
        }
        QThread::msleep(10);
    }
    return false;
}

void startTtyscope(QProcess &p, const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(TTYSCOPE_BIN), args);
}

int finish(QProcess &p)
{
    if (!p.waitForFinished(kHangMs)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}

QByteArray hosttsLines(int from, int to)
{
    QByteArray out;
    for (int i = from; i < to; ++i) {
        out += QByteArray::number(1700000000 + i) + ".000000\t[" +
               QByteArray::number(i).rightJustified(5) + ".000000] line " + QByteArray::number(i) +
               '\n';
    }
    return out;
}

} // namespace

class TstCliInput : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { std::signal(SIGPIPE, SIG_IGN); }
    void catFifoKeepsEverything_data();
    void catFifoKeepsEverything();
    void catStreamsOpenPipe();
    void reportEndsOnSignal_data();
    void reportEndsOnSignal();
    void catEndsOnSignal();
    void catCutZstdIsPartial();
    void dashIsStandardInput();
    void reportCutRecordingIsPartial();
    void catastrophicRegexEnds_data();
    void catastrophicRegexEnds();
};

void TstCliInput::catFifoKeepsEverything_data()
{
    QTest::addColumn<bool>("compressed");
    QTest::newRow("plain") << false;
    QTest::newRow("zstd") << true;
}

// Defect 2: the format sniff read the start of the pipe, then the file was opened again.
void TstCliInput::catFifoKeepsEverything()
{
    QFETCH(bool, compressed);
    const QByteArray zst = readFile(sample("spam_rmmod-A_default-smp4-115200-t1.hostts.log.zst"));
    const QByteArray log = zstdDecompress(zst);
    QCOMPARE(log.size(), 536018);
    QTemporaryDir dir;
    const QString plainPath = dir.filePath(QStringLiteral("x.hostts.log"));
    QFile f(plainPath);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(log);
    f.close();
    QProcess ref;
    startTtyscope(ref, {QStringLiteral("cat"), plainPath});
    QCOMPARE(finish(ref), 0);
    const QByteArray expected = ref.readAllStandardOutput();
    QCOMPARE(expected.count('\n'), 9161);

    Fifo fifo;
    QVERIFY(fifo.make());
    QProcess p;
    startTtyscope(p, {QStringLiteral("cat"), fifo.path()});
    QVERIFY(fifo.openWriter());
    fifo.write(compressed ? zst : log);
    fifo.closeWriter();
    QCOMPARE(finish(p), 0);
    const QByteArray out = p.readAllStandardOutput();
    QCOMPARE(out.count('\n'), 9161);
    QCOMPARE(out, expected);
    QCOMPARE(p.readAllStandardError(), QByteArray());
}

// Defect 3: lines are written as they arrive while the writer stays open.
void TstCliInput::catStreamsOpenPipe()
{
    Fifo fifo;
    QVERIFY(fifo.make());
    QProcess p;
    startTtyscope(p, {QStringLiteral("cat"), fifo.path()});
    QVERIFY(fifo.openWriter());
    QVERIFY(fifo.write("[    0.000000] one\n[    0.100000] two\n[    0.200000] three\n"));
    QByteArray out;
    while (out.count('\n') < 3 && p.waitForReadyRead(kHangMs)) {
        out += p.readAllStandardOutput();
    }
    QCOMPARE(out, QByteArray("[    0.000000] one\n[    0.100000] two\n[    0.200000] three\n"));
    QVERIFY(fifo.write("[    0.300000] four\n"));
    while (out.count('\n') < 4 && p.waitForReadyRead(kHangMs)) {
        out += p.readAllStandardOutput();
    }
    QCOMPARE(out.count('\n'), 4);
    fifo.closeWriter();
    QCOMPARE(finish(p), 0);
    out += p.readAllStandardOutput();
    QCOMPARE(out, QByteArray("[    0.000000] one\n[    0.100000] two\n[    0.200000] three\n"
                             "[    0.300000] four\n"));
}

void TstCliInput::reportEndsOnSignal_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("signal");
    QTest::newRow("report SIGTERM") << QStringLiteral("report") << int(SIGTERM);
    QTest::newRow("report SIGINT") << QStringLiteral("report") << int(SIGINT);
    QTest::newRow("export SIGTERM") << QStringLiteral("export") << int(SIGTERM);
}

// Defect 3: a writer that stays open; a signal ends the reading, and what was read is
// reported, marked as read in part (exit 3).
void TstCliInput::reportEndsOnSignal()
{
    QFETCH(QString, command);
    QFETCH(int, signal);
    Fifo fifo;
    QVERIFY(fifo.make());
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("out.png"));
    QStringList args{command};
    if (command == QLatin1String("export")) {
        args << QStringLiteral("--png") << png;
    } else {
        args << QStringLiteral("--output") << QStringLiteral("json");
    }
    args << fifo.path();
    QProcess p;
    startTtyscope(p, args);
    QVERIFY(fifo.openWriter());
    QVERIFY(fifo.write(hosttsLines(0, 250)));
    QVERIFY(drained(fifo));
    // Read is not parsed yet, perhaps: what was read must still be reported.
    ::kill(pid_t(p.processId()), signal);
    QCOMPARE(finish(p), 3);
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(err.contains("interrupted") && err.contains("loading was cancelled after 250 lines"),
             err.constData());
    if (command == QLatin1String("export")) {
        QVERIFY(QFileInfo(png).size() > 0);
    } else {
        const QJsonObject j = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const QJsonObject run = j.value(QLatin1String("runs")).toArray().at(0).toObject();
        QCOMPARE(run.value(QLatin1String("lines")).toInt(), 250);
    }
}

void TstCliInput::catEndsOnSignal()
{
    Fifo fifo;
    QVERIFY(fifo.make());
    QProcess p;
    startTtyscope(p, {QStringLiteral("cat"), fifo.path()});
    QVERIFY(fifo.openWriter());
    QVERIFY(fifo.write(hosttsLines(0, 10)));
    QVERIFY(drained(fifo));
    ::kill(pid_t(p.processId()), SIGINT);
    QCOMPARE(finish(p), 3);
    const QByteArray out = p.readAllStandardOutput();
    QCOMPARE(out.count('\n'), 10);
    QVERIFY(out.startsWith("[    0.000000] line 0\n"));
    QVERIFY(out.endsWith("[    9.000000] line 9\n"));
}

// Defect 4: cat says "read in part" as report does, for a zstd file cut in the middle.
void TstCliInput::catCutZstdIsPartial()
{
    const QByteArray zst = readFile(sample("boot_login-default-smp2-115200-t1.hostts.log.zst"));
    QTemporaryDir dir;
    const QString cut = dir.filePath(QStringLiteral("cut.log.zst"));
    QFile f(cut);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(zst.left(zst.size() / 2));
    f.close();
    for (const QString &command : {QStringLiteral("cat"), QStringLiteral("report")}) {
        QProcess p;
        startTtyscope(p, {command, cut});
        QCOMPARE(finish(p), 3);
        QVERIFY(p.readAllStandardError().contains("ends inside a zstd frame"));
    }
}

// "-" is the standard input, as for any Unix tool: a lab's xz or gzip log piped in. Before,
// "-: No such file or directory".
void TstCliInput::dashIsStandardInput()
{
    const QByteArray raw =
        zstdDecompress(readFile(sample("boot_login-default-smp2-115200-t1.raw.zst")));
    QCOMPARE(raw.size(), 24096); // the truth file's bytes_total
    QProcess report;
    startTtyscope(report, {QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("json"),
                           QStringLiteral("-")});
    QVERIFY(report.waitForStarted(kHangMs));
    report.write(raw);
    report.closeWriteChannel();
    QCOMPARE(finish(report), 0);
    const QJsonObject run = QJsonDocument::fromJson(report.readAllStandardOutput())
                                .object()
                                .value(QLatin1String("runs"))
                                .toArray()
                                .at(0)
                                .toObject();
    QCOMPARE(run.value(QLatin1String("lines")).toInt(), 371); // the truth file's
    QCOMPARE(run.value(QLatin1String("bytes")).toInt(), 24096);
    QCOMPARE(run.value(QLatin1String("label")).toString(), QStringLiteral("stdin"));
    // cat gives the lines of the piped bytes as of the file.
    QProcess ref;
    startTtyscope(ref,
                  {QStringLiteral("cat"), sample("boot_login-default-smp2-115200-t1.raw.zst")});
    QCOMPARE(finish(ref), 0);
    const QByteArray expected = ref.readAllStandardOutput();
    QCOMPARE(expected.count('\n'), 371);
    QProcess cat;
    startTtyscope(cat, {QStringLiteral("cat"), QStringLiteral("-")});
    QVERIFY(cat.waitForStarted(kHangMs));
    cat.write(raw);
    cat.closeWriteChannel();
    QCOMPARE(finish(cat), 0);
    QCOMPARE(cat.readAllStandardOutput(), expected);
}

// Defect 4: report says "read in part" as cat does, for a recording cut inside a D record.
void TstCliInput::reportCutRecordingIsPartial()
{
    const QByteArray rec = "TTYSCOPE-REC 1\nH 1700000000000000000 1 2\n{}\n"
                           "D 1700000000000000001 2 24\n[    0.000000] one\ntw";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cut.ttyrec"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(rec);
    f.close();
    for (const QString &command : {QStringLiteral("cat"), QStringLiteral("report")}) {
        QProcess p;
        startTtyscope(p, {command, path});
        QCOMPARE(finish(p), 3);
        QVERIFY(p.readAllStandardError().contains("ends inside a 'D' record: 21 of its 24 bytes"));
    }
}

void TstCliInput::catastrophicRegexEnds_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("regex");
    QTest::newRow("mark") << QStringLiteral("--mark") << QStringLiteral("(a+)+$");
    QTest::newRow("window-start") << QStringLiteral("--window-start") << QStringLiteral("(a|aa)+$");
    QTest::newRow("span") << QStringLiteral("--span") << QStringLiteral("(a|aa)+$=>login");
}

// A regex that backtracks without end on the log's lines (2000 lines of 40 a's and a '!':
// 85 s before, with no message) ends with a clear error, not a hang.
void TstCliInput::catastrophicRegexEnds()
{
    QFETCH(QString, option);
    QFETCH(QString, regex);
    QByteArray log;
    for (int i = 0; i < 2000; ++i) {
        log += "[" + QByteArray::number(i).rightJustified(5) + ".000000] " + QByteArray(40, 'a') +
               "!\n";
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("a.log"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(log);
    f.close();
    QProcess p;
    startTtyscope(p, {QStringLiteral("report"), option, regex, path});
    QCOMPARE(finish(p), 2);
    const QByteArray err = p.readAllStandardError();
    const QString pattern = option == QLatin1String("--span") ? QStringLiteral("(a|aa)+$") : regex;
    QVERIFY2(err.contains("the regex '" + pattern.toUtf8() +
                          "' is too costly: on a line it ran past PCRE2's match limit"),
             err.constData());
}

QTEST_GUILESS_MAIN(TstCliInput)
#include "tst_cli_input.moc"
