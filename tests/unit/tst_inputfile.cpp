// Readers: plain text and zstd recognised by content, multi-frame zstd, truncation and
// corruption at any byte, and files that cannot be read.
#define ZSTD_STATIC_LINKING_ONLY // ZSTD_frameHeaderSize, to corrupt a block header
#include "inputfile.h"
#include "metrics.h"
#include "runloader.h"
#include "tst_helpers.h"

#include <QProcess>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <sys/stat.h>
#include <thread>

using namespace tty;
using namespace testutil;

namespace {

QList<QByteArray> numberedLines(int n, const char *tag)
{
    QList<QByteArray> lines;
    for (int i = 0; i < n; ++i) {
        lines << QByteArray("[ %1.%2] %3 line %4 with some text to fill the console\r\n")
                     .replace("%1", QByteArray::number(100 + i))
                     .replace("%2", QByteArray::number(100000 + i))
                     .replace("%3", tag)
                     .replace("%4", QByteArray::number(i));
    }
    return lines;
}

QByteArray joined(const QList<QByteArray> &lines)
{
    QByteArray b;
    for (const QByteArray &l : lines) {
        b += l;
    }
    return b;
}

QByteArray stripped(QByteArray l)
{
    while (l.endsWith('\n') || l.endsWith('\r')) {
        l.chop(1);
    }
    return l;
}

} // namespace

class TstInputFile : public QObject
{
    Q_OBJECT
private slots:
    void recognisedByContent_data();
    void recognisedByContent();
    void multiFrame();
    void truncatedAnywhere();
    void corruptFrame();
    void unreadable_data();
    void unreadable();
    void textLikeAMagic();
    void crOnlyLineEnds();
    void crLfAcrossBlocks();
    void utf16Text_data();
    void utf16Text();
    void utf8ByteOrderMark();
    void emptyFile();
    void pipeLoadsAndCancels_data();
    void pipeLoadsAndCancels();
};

void TstInputFile::recognisedByContent_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("compress");
    QTest::newRow("plain named .zst") << QStringLiteral("console.log.zst") << false;
    QTest::newRow("zstd named .log") << QStringLiteral("console.log") << true;
    QTest::newRow("zstd without suffix") << QStringLiteral("capture") << true;
    QTest::newRow("plain named .gz") << QStringLiteral("capture.gz") << false;
}

void TstInputFile::recognisedByContent()
{
    QFETCH(QString, name);
    QFETCH(bool, compress);
    const QList<QByteArray> lines = numberedLines(50, "plain");
    const QByteArray text = joined(lines);
    Files files;
    const QString path = files.write(name, compress ? zstdCompress(text) : text);

    InputFile in;
    QString error;
    QVERIFY2(in.open(path, &error), qPrintable(error));
    QCOMPARE(in.compression(),
             compress ? InputFile::Compression::Zstd : InputFile::Compression::None);
    QByteArray all;
    std::string block;
    while (in.read(block)) {
        all.append(block.data(), qsizetype(block.size()));
    }
    QCOMPARE(all, text);
    QVERIFY(in.error().isEmpty());
    QCOMPARE(in.errorOffset(), std::nullopt);
    QVERIFY(in.warning().isEmpty());
    // Read to the end: the position is the file's size as stored.
    QCOMPARE(in.compressedPos() - ByteOffset(0), in.compressedSize());
    QCOMPARE(in.compressedSize(), ByteCount(QFileInfo(path).size()));

    const auto run = loadRun(path, LoadOptions{}, &error);
    QVERIFY(run);
    QCOMPARE(run->lines.size(), LineCount(50));
    QCOMPARE(lineText(*run, 49), stripped(lines[49]));
}

void TstInputFile::multiFrame()
{
    const QList<QByteArray> a = numberedLines(40, "first"), b = numberedLines(60, "second");
    const QByteArray file = zstdCompress(joined(a)) + zstdCompress(joined(b), 19);
    QString error;
    const auto run = loadBytes(file, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QVERIFY(!run->load.stoppedEarly());
    QVERIFY(run->warnings.isEmpty());
    QCOMPARE(run->lines.size(), LineCount(100));
    QCOMPARE(lineText(*run, 39), stripped(a[39]));
    QCOMPARE(lineText(*run, 40), stripped(b[0]));
    QCOMPARE(lineText(*run, 99), stripped(b[59]));
}

// Cut a flushed single-frame file at many byte positions: every line flushed before the
// cut loads, nothing is invented, and a warning says the file was truncated.
void TstInputFile::truncatedAnywhere()
{
    const QList<QByteArray> lines = numberedLines(400, "cut");
    std::vector<qsizetype> flushEnds;
    std::vector<int> linesAt;
    const QByteArray full = zstdCompressFlushed(lines, 7, &flushEnds, &linesAt);
    QVERIFY(full.size() > 2000);
    Files files;
    int checked = 0;
    for (qsizetype cut = 4; cut < full.size(); cut += cut < 200 ? 1 : 37) {
        const QString path = files.write(QStringLiteral("cut.zst"), full.left(cut));
        QString error;
        const auto run = loadRun(path, LoadOptions{}, &error);
        QVERIFY2(run, qPrintable(error));
        int expected = 0;
        for (std::size_t f = 0; f < flushEnds.size() && flushEnds[f] <= cut; ++f) {
            expected = linesAt[f];
        }
        const QString where = QStringLiteral("cut at %1 of %2").arg(cut).arg(full.size());
        QVERIFY2(run->lines.size().count() >= expected, qPrintable(where));
        for (LineIndex i{0}; i < run->lines.endIndex(); ++i) {
            const QByteArray want = stripped(lines[int(i.value())]);
            if (run->lines.flags(i) & NoNewline) {
                QVERIFY2(i == run->lines.endIndex() - 1_lines && want.startsWith(lineText(*run, i)),
                         qPrintable(where));
            } else {
                QVERIFY2(lineText(*run, i) == want, qPrintable(where));
            }
        }
        QVERIFY2(run->load.outcome == LoadOutcome::Truncated,
                 qPrintable(where + QLatin1Char(' ') + loadOutcomeName(run->load.outcome)));
        const QString warnings = run->warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QLatin1String("truncated")), qPrintable(where + warnings));
        ++checked;
    }
    QVERIFY(checked > 100);
}

void TstInputFile::corruptFrame()
{
    const QList<QByteArray> a = numberedLines(30, "good"), b = numberedLines(30, "bad");
    const QByteArray first = zstdCompress(joined(a));
    QByteArray second = zstdCompress(joined(b));
    // The first block header after the frame header: block type 3 is reserved (corrupt).
    const std::size_t fhs = ZSTD_frameHeaderSize(second.constData(), std::size_t(second.size()));
    QVERIFY(!ZSTD_isError(fhs));
    for (int i = 0; i < 3; ++i) {
        second[qsizetype(fhs) + i] = char(0xff);
    }
    QString error;
    const auto run = loadBytes(first + second, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->lines.size(), LineCount(30));
    QCOMPARE(lineText(*run, 29), stripped(a[29]));
    QCOMPARE(run->load.outcome, LoadOutcome::Damaged);
    QVERIFY2(run->load.message.contains(QStringLiteral("byte %1").arg(first.size())),
             qPrintable(run->load.message));
    QVERIFY(run->load.message.contains(QLatin1String("corrupt")));
    // The reader itself says where: the damaged frame starts right after the first one.
    {
        const QByteArray both = first + second;
        InputFile in;
        QVERIFY(in.openBytes(std::string_view(both.constData(), std::size_t(both.size())),
                             QStringLiteral("two frames"), &error));
        std::string block;
        while (in.read(block)) {
        }
        QCOMPARE(in.errorOffset(), std::optional<ByteOffset>(ByteOffset(first.size())));
    }

    // Flipped bytes in the middle of a single frame: the error names a byte offset and
    // the lines decoded before it are kept (a prefix of the original).
    const QList<QByteArray> many = numberedLines(3000, "mid");
    std::vector<qsizetype> ends;
    std::vector<int> at;
    QByteArray one = zstdCompressFlushed(many, 100, &ends, &at);
    const qsizetype mid = ends[ends.size() / 2];
    for (qsizetype i = mid; i < mid + 3; ++i) {
        one[i] = char(0xff); // the next block's header
    }
    const auto run2 = loadBytes(one, LoadOptions{}, &error);
    QVERIFY(run2);
    QCOMPARE(run2->load.outcome, LoadOutcome::Damaged);
    QVERIFY2(run2->load.message.contains(QRegularExpression(QStringLiteral("at byte \\d+"))),
             qPrintable(run2->load.message));
    QVERIFY2(run2->lines.size().count() >= at[ends.size() / 2],
             qPrintable(QStringLiteral("%1 lines, %2 flushed before the damage")
                            .arg(run2->lines.size().count())
                            .arg(at[ends.size() / 2])));
    QVERIFY(run2->lines.size() < 3000_lines);
    for (LineIndex i{0}; i < run2->lines.endIndex(); ++i) {
        QVERIFY(stripped(many[int(i.value())]).startsWith(lineText(*run2, i)));
    }
}

void TstInputFile::unreadable_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("gzip") << QStringLiteral("gzip") << QStringLiteral("gzip-compressed");
    QTest::newRow("xz") << QStringLiteral("xz")
                        << QStringLiteral("xz-compressed; ttyscope reads "
                                          "plain text and zstd (try: xzcat");
    QTest::newRow("bzip2") << QStringLiteral("bzip2") << QStringLiteral("bzip2-compressed");
    QTest::newRow("lz4") << QStringLiteral("lz4") << QStringLiteral("lz4-compressed");
    QTest::newRow("zip") << QStringLiteral("zip") << QStringLiteral("a zip archive");
    QTest::newRow("tar") << QStringLiteral("tar") << QStringLiteral("a tar archive");
    QTest::newRow("tar.zst") << QStringLiteral("tar.zst")
                             << QStringLiteral(
                                    "logs.tar.zst: its zstd content is a tar archive; ttyscope "
                                    "reads plain text and zstd (try: zstd -dc FILE > DECODED, "
                                    "then tar -xf DECODED, then open its logs)");
    QTest::newRow("gzip in zstd")
        << QStringLiteral("gzip.zst")
        << QStringLiteral("console.log.zst: its zstd content is gzip-compressed; ttyscope reads "
                          "plain text and zstd (try: zstd -dc FILE > DECODED, then zcat "
                          "DECODED | zstd > DECODED.zst)");
    QTest::newRow("directory") << QStringLiteral("dir") << QStringLiteral("is a directory");
    QTest::newRow("nonexistent") << QStringLiteral("missing") << QStringLiteral("No such file");
}

void TstInputFile::unreadable()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    Files files;
    QString path;
    // "hello\n" as gzip, xz, bzip2, lz4 and zip wrote it (`printf 'hello\n' | xz -c`, ...).
    const QHash<QString, QByteArray> packed{
        {QStringLiteral("gzip"), "1f8b0800000000000003cb48cdc9c9e70200"},
        {QStringLiteral("xz"),
         "fd377a585a000004e6d6b4460200210116000000742fe5a301000568656c6c6f0a000000a56097f194f6fde0"
         "00011e06c12fa41d1fb6f37d010000000004595a"},
        {QStringLiteral("bzip2"),
         "425a6839314159265359c1c080e2000001410000100244a00030cd00c34629971"
         "77245385090c1c080e2"},
        {QStringLiteral("lz4"), "04224d186440a70600008068656c6c6f0a00000000f95b6b94"},
        {QStringLiteral("zip"),
         "504b03042d0008000800ab8b865d00000000ffffffffffffffff010014002d0100100000000000000000000"
         "000000000000000cb48cdc9c9e70200504b070820303a3608000000000000000600000000000000504b0102"
         "1e032d0008000800ab8b865d20303a3608000000060000000100000000000000010000008011000000002d"
         "504b050600000000010001002f000000530000000000"},
    };
    if (packed.contains(kind)) {
        path = files.write(QStringLiteral("console.log"), QByteArray::fromHex(packed.value(kind)));
    } else if (kind == QLatin1String("gzip.zst")) {
        path = files.write(QStringLiteral("console.log.zst"),
                           zstdCompress(QByteArray::fromHex(packed.value(QStringLiteral("gzip")))));
    } else if (kind.startsWith(QLatin1String("tar"))) {
        // A tar as tar writes it; a .tar.zst as `tar --zstd` does (by the zstd program).
        files.write(QStringLiteral("console.log"), QByteArrayLiteral("[    0.000000] Linux\n"));
        path = files.path(QStringLiteral("logs.") + kind);
        QProcess tar;
        tar.setWorkingDirectory(files.path(QString()));
        QStringList args{QStringLiteral("-cf"), path, QStringLiteral("console.log")};
        if (kind == QLatin1String("tar.zst")) {
            args.prepend(QStringLiteral("--zstd"));
        }
        tar.start(QStringLiteral("tar"), args);
        QVERIFY(tar.waitForFinished() && tar.exitCode() == 0);
    } else if (kind == QLatin1String("dir")) {
        path = files.path(QString());
    } else {
        path = files.path(QStringLiteral("no-such.log"));
    }
    QString error;
    const auto run = loadRun(path, LoadOptions{}, &error);
    QVERIFY(!run);
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY2(error.contains(path.section(QLatin1Char('/'), -1)), qPrintable(error));
}

// Text that starts like a bzip2 stream's "BZh" is text.
void TstInputFile::textLikeAMagic()
{
    QString error;
    const auto run = loadBytes(QByteArrayLiteral("BZh9 is not bzip2\n[    1.000000] hello\n"),
                               LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->lines.size(), LineCount(2));
}

// A capture whose line ends are CRs alone (here the 6.12-rt flood's raw capture with its
// LFs removed) is read line by line, with the truth's kernel lines and drops, and a
// warning saying how it was read; before, it was one line with no kernel time.
void TstInputFile::crOnlyLineEnds()
{
    QByteArray raw = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-k612rt-smp4-115200-t1.raw.zst"));
    raw.replace("\n", "");
    QString error;
    const auto run = loadBytes(raw, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QVERIFY2(run->warnings.join(QLatin1Char(' '))
                 .contains(QLatin1String("the lines end in a carriage return alone")),
             qPrintable(run->warnings.join(QLatin1Char('\n'))));
    const Metrics m = computeMetrics(*run, MetricOptions{});
    // The truth: lines_with_kernel_timestamp 9776, dropped_messages_sum 3881.
    QCOMPARE(m.kernelLines - m.kernelLinesBehindText, std::int64_t(9776));
    QCOMPARE(m.droppedMessages, std::int64_t(3881));
    // Every CR ended a line (the empty lines of LFs alone are gone with their LFs).
    QCOMPARE(run->lines.size().count(), raw.count('\r') + (raw.endsWith('\r') ? 0 : 1));

    // A log with LFs is not read this way, even with CRs inside its lines.
    const auto lf = loadBytes(QByteArrayLiteral("a\rb\rc\rd\r\ne\r\n"), LoadOptions{}, &error);
    QVERIFY(lf);
    QCOMPARE(lf->lines.size(), LineCount(2));
}

// In CR mode a CRLF is still one line end, also when the CR ends one block of the input
// and the LF starts the next.
void TstInputFile::crLfAcrossBlocks()
{
    QByteArray data = QByteArrayLiteral("a\rb\rc\r");
    const qsizetype block = qsizetype(InputFile::kBlockBytes);
    while (data.size() < block - 81) {
        data += QByteArray(79, 'x') + '\r';
    }
    data += QByteArray(block - 1 - data.size(), 'x') + '\r';
    QCOMPARE(data.size(), block);
    QCOMPARE(data.back(), '\r');
    data += QByteArrayLiteral("\ny\r\nz\r");
    QString error;
    const auto run = loadBytes(data, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    const LineIndex last = run->lines.endIndex() - LineCount(1);
    QCOMPARE(lineText(*run, last), QByteArray("z"));
    QCOMPARE(lineText(*run, last - LineCount(1)), QByteArray("y"));
    QVERIFY(lineText(*run, last - LineCount(2)).startsWith('x'));
    for (LineIndex i{0}; i < run->lines.endIndex(); ++i) {
        QVERIFY2(!lineText(*run, i).isEmpty(), qPrintable(QString::number(lineNumber(i))));
    }
}

void TstInputFile::utf16Text_data()
{
    QTest::addColumn<int>("encoding");
    QTest::addColumn<bool>("bom");
    QTest::addColumn<bool>("compressed");
    QTest::newRow("LE with BOM") << int(QStringConverter::Utf16LE) << true << false;
    QTest::newRow("LE, no BOM, zstd") << int(QStringConverter::Utf16LE) << false << true;
    QTest::newRow("BE with BOM") << int(QStringConverter::Utf16BE) << true << false;
}

// UTF-16 text is read as the UTF-8 it encodes: the 6.12-rt flood, then lines with
// characters of 2, 3 and 4 bytes of UTF-8 until the UTF-16 is past a read block, gives
// the same lines and the truth's drops. Before, every other byte was a NUL.
void TstInputFile::utf16Text()
{
    QFETCH(int, encoding);
    QFETCH(bool, bom);
    QFETCH(bool, compressed);
    QByteArray utf8 = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/spam_rmmod-k612rt-smp4-115200-t1.raw.zst"));
    for (int i = 0; utf8.size() < 700 * 1024; ++i) {
        utf8 += "user: caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 " + QByteArray::number(i) + '\n';
    }
    QStringEncoder encode(QStringConverter::Encoding(encoding),
                          bom ? QStringConverter::Flag::WriteBom : QStringConverter::Flag::Default);
    QByteArray wide = encode(QString::fromUtf8(utf8));
    QVERIFY(wide.size() > qsizetype(InputFile::kBlockBytes));
    if (compressed) {
        wide = zstdCompress(wide);
    }
    QString error;
    const auto plain = loadBytes(utf8, LoadOptions{}, &error);
    const auto run = loadBytes(wide, LoadOptions{}, &error);
    QVERIFY2(plain && run, qPrintable(error));
    QVERIFY2(run->warnings.join(QLatin1Char(' ')).contains(QLatin1String("UTF-16 text")),
             qPrintable(run->warnings.join(QLatin1Char('\n'))));
    QCOMPARE(run->lines.size(), plain->lines.size());
    for (LineIndex i{0}; i < run->lines.endIndex(); ++i) {
        QCOMPARE(lineText(*run, i), lineText(*plain, i));
    }
    QCOMPARE(computeMetrics(*run, MetricOptions{}).droppedMessages, std::int64_t(3881));
}

// A UTF-8 byte order mark is not text of the first line: a host-stamped log's first line
// keeps its stamp.
void TstInputFile::utf8ByteOrderMark()
{
    const QByteArray log = zstdDecompressFile(
        QStringLiteral(TTYSCOPE_SAMPLES "/boot_login-default-smp2-115200-t1.hostts.log.zst"));
    QString error;
    const auto run = loadBytes("\xef\xbb\xbf" + log, LoadOptions{}, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->warnings, QStringList());
    QCOMPARE(run->lines.size(), LineCount(371));
    QCOMPARE(lineText(*run, LineIndex(0)), lineText(*loadBytes(log), LineIndex(0)));
}

void TstInputFile::emptyFile()
{
    for (const QByteArray &data : {QByteArray(), zstdCompress(QByteArray())}) {
        QString error;
        const auto run = loadBytes(data, LoadOptions{}, &error);
        QVERIFY2(run, qPrintable(error));
        QCOMPARE(run->lines.size(), LineCount(0));
        QVERIFY(!run->load.stoppedEarly());
        QVERIFY(run->warnings.join(QLatin1Char(' ')).contains(QLatin1String("no console lines")));
        const Metrics m = computeMetrics(*run, MetricOptions{});
        QCOMPARE(m.lines, qint64(0));
    }
}

void TstInputFile::pipeLoadsAndCancels_data()
{
    QTest::addColumn<bool>("compressed");
    QTest::newRow("plain") << false;
    QTest::newRow("zstd") << true;
}

// A log read from a pipe (`ttyscope <(ssh lab cat console.log)`): what comes is loaded in
// whatever pieces the pipe delivers, and when the other end goes quiet Cancel still ends
// the load, with the lines read, at once rather than when the writer closes the pipe.
void TstInputFile::pipeLoadsAndCancels()
{
    QFETCH(bool, compressed);
    QByteArray text;
    for (int i = 0; i < 3000; ++i) {
        text += "1700000000." + QByteArray::number(100000 + i) + "\t[    1." +
                QByteArray::number(100000 + i) + "] line " + QByteArray::number(i) + "\n";
    }
    const QByteArray bytes = compressed ? zstdCompress(text) : text;
    Files files;
    const QString fifo = files.path(QStringLiteral("console.pipe"));
    QVERIFY(mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);

    std::atomic<bool> cancel{false}, returned{false}, returnedFirst{false};
    std::thread writer([&] {
        QFile f(fifo);
        if (!f.open(QIODevice::WriteOnly)) {
            return;
        }
        // In small pieces, as a network or a slow producer delivers them.
        for (qsizetype at = 0; at < bytes.size(); at += 4096) {
            f.write(bytes.mid(at, 4096));
            f.flush();
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        // Then quiet, with the pipe held open, until the load has returned (or 20 s).
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel = true;
        for (int i = 0; i < 2000 && !returned; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        returnedFirst = returned.load();
    });
    LoadOptions o;
    o.cancel = &cancel;
    QString error;
    const auto run = loadRun(fifo, o, &error);
    returned = true;
    writer.join();
    QVERIFY2(run, qPrintable(error));
    QVERIFY(returnedFirst); // it did not wait for the writer to close the pipe
    QCOMPARE(run->meta.format, Format::HostTs);
    QCOMPARE(run->lines.size(), LineCount(3000));
    QCOMPARE(lineText(*run, 2999), QByteArray("[    1.102999] line 2999"));
    QCOMPARE(run->load.outcome, LoadOutcome::Cancelled);
    QVERIFY2(run->load.message.contains(QLatin1String("cancelled")), qPrintable(run->load.message));
}

QTEST_GUILESS_MAIN(TstInputFile)
#include "tst_inputfile.moc"
