// Sources of console output (issue 14): message templates of real kernel lines, their
// prefixes, report bodies counted as their header, and the per-line index on the bundled
// captures, with the counts their .truth.json (counted from the raw bytes) gives.
#include "kernelprefix.h"
#include "msgtemplate.h"
#include "runloader.h"
#include "sourceindex.h"
#include "sourceseries.h"
#include "tst_helpers.h"

#include <QtTest>

using namespace tty;
using namespace testutil;

namespace {
const QString kSamples = QStringLiteral(TTYSCOPE_SAMPLES "/");
const QString kCrashes = QStringLiteral(TTYSCOPE_FIXTURES "/crashes/");

std::unique_ptr<Run> load(const QString &path)
{
    QString error;
    auto run = loadRun(path, LoadOptions{}, &error);
    if (!run) {
        qWarning("%s: %s", qPrintable(path), qPrintable(error));
    }
    return run;
}

std::int64_t linesOf(const SourceIndex &index, std::uint32_t id)
{
    std::int64_t n = 0;
    for (LineIndex i(0); i < LineIndex(0) + index.lines(); ++i) {
        n += index.templateOf(i) == id ? 1 : 0;
    }
    return n;
}

// Templates that some line has.
int usedTemplates(const SourceIndex &index)
{
    int n = 0;
    for (const SourceIndex::Template &t : index.templates()) {
        n += t.example ? 1 : 0;
    }
    return n;
}
} // namespace

class TstSources : public QObject
{
    Q_OBJECT
private slots:
    void templates_data();
    void templates();
    void prefixes_data();
    void prefixes();
    void reportBody_data();
    void reportBody();
    void templateIsBounded();
    void sameTemplate_data();
    void sameTemplate();
    void sameTemplateOnEverySample();
    void oneSourcePerCallSite();
    void warnSplatIsItsHeader();
    void mipsLoongarchReportsAreTheirHeaders();
    void floodSample();
    void sysrqDumpIsItsHeader();
    void floodWireBySource();
    void slowConsoleNeverOverItsRate();
};

void TstSources::templates_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("expected");
    auto row = [](const char *name, const char *m, const char *t) {
        QTest::newRow(name) << QByteArray(m) << QByteArray(t);
    };
    row("issue example 1", "noise: worker 3 seq 1234 jiffies 4295",
        "noise: worker # seq # jiffies #");
    row("issue example 2", "noise: worker 1 seq 7 jiffies 4301", "noise: worker # seq # jiffies #");
    row("usb port path", "usb 1-1.2: new high-speed USB device number 5 using xhci_hcd",
        "usb #: new high-speed USB device number # using xhci_hcd");
    row("ext4 device and uuid",
        "EXT4-fs (sda1): mounted filesystem 1a2b3c4d-0001 ro with ordered data mode.",
        "EXT#-fs (sda#): mounted filesystem # ro with ordered data mode.");
    row("pci address", "e1000e 0000:00:1f.6 eno1: NIC Link is Up 1000 Mbps Full Duplex",
        "# # eno#: NIC Link is Up # Mbps Full Duplex");
    row("frame offset", " ? __pfx_kthread+0x10/0x10", " ? __pfx_kthread+#/#");
    row("rip", "RIP: 0010:noise_worker_fn+0x1a3/0x2f0 [noise]",
        "RIP: #:noise_worker_fn+#/# [noise]");
    row("quoted strings and pids",
        "audit: type=1400 audit(1700000002.123:456): apparmor=\"STATUS\" "
        "operation=\"profile_load\" pid=4242 comm=\"apparmor_parser\"",
        "audit: type=# audit(#): apparmor=\"#\" operation=\"#\" pid=# comm=\"#\"");
    row("cpu and pid", "WARNING: CPU: 3 PID: 1234 at drivers/misc/noise.c:512 noise_fn+0x1a/0x80",
        "WARNING: CPU: # PID: # at drivers/misc/noise.c:# noise_fn+#/#");
    row("sizes", "Freeing unused kernel image (initmem) memory: 4252K",
        "Freeing unused kernel image (initmem) memory: #K");
    row("task padding", "task:kworker/0:1       state:I stack:0     pid:5",
        "task:kworker/# state:I stack:# pid:#");
    row("escape codes and blanks", "\x1b[0;32m  OK  \x1b[0m] Started ssh.service",
        "[#;#m OK [#m] Started ssh.service");
    row("digits inside a name", "nvme nvme0n1: I/O 12 QID 3 timeout; i2c bus",
        "nvme nvme0n#: I/O # QID # timeout; i2c bus");
    row("drop notice", "** 3881 printk messages dropped **", "** # printk messages dropped **");
    row("unclosed quote", "say \"hello 12", "say \"hello #");
    row("single quotes", "thermal_sys: Registered thermal governor 'step_wise' (can't 2)",
        "thermal_sys: Registered thermal governor '#' (can't #)");
    row("trailing blanks", "done 12   ", "done #");
    row("empty", "", "");
}

void TstSources::templates()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, expected);
    const std::string t = messageTemplate(std::string_view(message.constData(), message.size()));
    QCOMPARE(QByteArray::fromStdString(t), expected);
}

void TstSources::prefixes_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("expected");
    auto row = [](const char *m, const char *p) {
        QTest::newRow(m) << QByteArray(m) << QByteArray(p);
    };
    row("usb 1-1: new high-speed USB device number 2 using xhci_hcd", "usb 1-1");
    row("ata1.00: ATA-9: QEMU HARDDISK, 2.5+, max UDMA/100", "ata1.00");
    row("EXT4-fs (sda1): mounted filesystem", "EXT4-fs (sda1)");
    row("noise: worker 0 seq 1", "noise");
    row("Run /init as init process", "");
    row(" ? __pfx_kthread+0x10/0x10", "");
    row("colon:without blank", "");
    row("a very long text that runs on and on and on past the sixty-four bytes: limit", "");
}

void TstSources::prefixes()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, expected);
    const std::string_view p = messagePrefix(std::string_view(message.constData(), message.size()));
    QCOMPARE(QByteArray(p.data(), qsizetype(p.size())), expected);
}

void TstSources::reportBody_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<bool>("body");
    auto row = [](const char *m, bool b) { QTest::newRow(m) << QByteArray(m) << b; };
    row(" do_one_initcall+0x44/0x1d0", true);
    row(" <TASK>", true);
    row("Call Trace:", true);
    row("RSP: 0018:ffffc90000123e08 EFLAGS: 00010246", true);
    row("task:kthreadd        state:S stack:0     pid:2", true);
    row("CPU: 1 PID: 123 Comm: insmod Tainted: G", true);
    row("Modules linked in: foo(O)", true);
    row("---[ end trace 4f3c2b1a0d9e8f7a ]---", true);
    row("pstate: 60400005 (nZCv daif +PAN -UAO -TCO -DIT -SSBS BTYPE=--)", true);
    row("x29: ffff80008000bd50 x28: 0000000000000000", true);
    // Other arches' frames and registers.
    row("[c00000000a1b7b80] [c0000000005e2c4c] seq_read_iter+0x13c/0x5c0", true);
    row("[<ffffffff802d3a5e>] seq_read_iter+0x100/0x3f2", true);
    row("([<000001e12d421b6a>] full_proxy_read+0x4a/0xc0)", true);
    row("NIP [c0080000003a0124] gizmo_read+0x2c/0x90 [gizmo]", true);
    row("LR [c0080000003a0100] gizmo_read+0x18/0x90 [gizmo]", true);
    row("GPR00: c0080000003a0100 c00000000a1b7b40 c0080000003b8000 0000000000000000", true);
    row("[drm] Initialized bochs-drm 1.0.0 20130925 for 0000:00:02.0 on minor 0", false);
    row("[Firmware Bug]: TSC doesn't count with P0 frequency!", false);
    row("Lost 12 message(s)!", false);
    row("GPRS modem ready", false);
    row("7c0802a6 fbe1fff8 f8010010 f821ffc1 <0fe00000> 3c62ff5b 3863f2b8 4815c8b5", true);
    row("LE PAGE_SIZE=64K MMU=Radix SMP NR_CPUS=2048 NUMA pSeries", true);
    row("Faulting instruction address: 0xc0080000003a0124", true);
    row("Instruction dump:", true);
    row("Krnl PSW : 0704e00180000000 0000000000000000 (0x0)", true);
    row("Last Breaking-Event-Address:", true);
    row("$ 4   : 8f0d6e00 00000000 00000000 00000000", true);
    row("$12   : 00000000 00000000 00000000 00000000", true);
    row("epc   : c04a21c4 gizmo_read+0x24/0x90 [gizmo]", true);
    row("Cause : 00800008 (ExcCode 02)", true);
    row("pc 9000000002cd2a28 ra 9000000002cd2a10 tp 900000010036c000 sp 900000010036fbd0", true);
    row("a0 ffff800000002064 a1 0000000000000000 a2 0000000000000000 a3 0000000000000001", true);
    row("t8 00000000 u0 00000000 s9 8f3fc000 s0 00000001", true);
    row("ESTAT: 00010000 [PIL] (IS= ECode=1 EsubCode=0)", true);
    row("Process cat (pid: 311, threadinfo=e1a40c5d, task=7d3a0c5d, tls=77f6e490)", true);
    row("pc 12 ra 34", false);
    row("ip 10.0.2.15 gw 10.0.2.2", false);
    row("sd 0:0:0:0: [sda] 2097152 512-byte logical blocks", false);
    row("Process accounting resumed", false);
    row("$5 off today", false);
    row("deadbeef cafe", false);
    row("12345678 12345678 12345678", false);
    row("2026 12 06 10:00:00 backup done", false);
    row("x86/mm: Memory block size: 128MB", false);
    row("x86: Booting SMP configuration:", false);
    row("CPU: shutdown", false);
    row("noise: worker 0 seq 1", false);
    row("   ", false);
    row("", false);
}

void TstSources::reportBody()
{
    QFETCH(QByteArray, message);
    QFETCH(bool, body);
    QCOMPARE(isReportBody(std::string_view(message.constData(), message.size())), body);
}

void TstSources::templateIsBounded()
{
    // An endless line costs a bounded template: the bytes after kTemplateMax are not read.
    const std::string line(1 << 20, 'a');
    const std::string t = messageTemplate(line);
    QCOMPARE(t.size(), std::size_t(158));
    QVERIFY(t.size() <= kTemplateMax);
    // Quoted strings and digits at the cap never write past it.
    std::string mixed;
    for (int i = 0; i < 1000; ++i) {
        mixed += "a\"b\" 1 x";
    }
    QVERIFY(messageTemplate(mixed).size() <= kTemplateMax);
}

void TstSources::sameTemplate_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("same");
    auto row = [](const char *name, const char *a, const char *b, bool same) {
        QTest::newRow(name) << QByteArray(a) << QByteArray(b) << same;
    };
    row("issue example", "noise: worker 3 seq 1234 jiffies 4295",
        "noise: worker 1 seq 7 jiffies 4301", true);
    row("numbers of other lengths", "seq 12", "seq 123", true);
    row("number at the start", "12 x", "345 x", true);
    row("joined numbers", "x 1.2", "x 3.45", true);
    row("number in quotes", "\"q 1\"", "\"q 2\"", true);
    row("equal", "usb 1-1: new device", "usb 1-1: new device", true);
    row("both empty", "", "", true);
    // Left to maskMessage: the same template, but not by whole numbers.
    row("device number", "eth0 up", "eth1 up", false);
    row("quoted word", "name=\"a\"", "name=\"b\"", false);
    // Other templates.
    row("digit inside a word", "i2c bus", "i3c bus", false);
    row("hex", "a 0x1f", "a 0x2f", false);
    row("number then letter", "1a", "2a", false);
    row("letter then number", "a1", "a2", false);
    row("words", "a", "b", false);
    row("number and nothing", "12", "", false);
    row("number and a word", "x 12", "x ab", false);
    row("separators after numbers", "1.x", "2;x", false);
    row("longer", "seq 1 done", "seq 1", false);
}

void TstSources::sameTemplate()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, same);
    const std::string_view va(a.constData(), std::size_t(a.size()));
    const std::string_view vb(b.constData(), std::size_t(b.size()));
    QCOMPARE(tty::sameTemplate(va, vb), same);
    QCOMPARE(tty::sameTemplate(vb, va), same);
    if (same) {
        QCOMPARE(messageTemplate(va), messageTemplate(vb));
    }
}

// The shortcut the index takes for a flood never joins lines of two templates: on every
// bundled capture, each pair of lines it calls the same has one template; and it takes
// every pair of the 6.12-rt flood's worker lines (told apart here by a regex).
void TstSources::sameTemplateOnEverySample()
{
    const QDir dir(kSamples);
    const QStringList files = dir.entryList({QStringLiteral("*.hostts.log.zst")}, QDir::Files);
    QCOMPARE(files.size(), 10);
    const QRegularExpression worker(QStringLiteral("^noise: worker \\d+ seq \\d+$"));
    std::int64_t pairs = 0, taken = 0, wrong = 0, workerPairs = 0, workerTaken = 0;
    for (const QString &f : files) {
        auto run = load(kSamples + f);
        QVERIFY(run);
        std::string prev;
        for (LineIndex i(0); i < run->lines.endIndex(); ++i) {
            const LineText text = run->lines.text(i);
            std::string_view msg = text.view();
            if (run->lines.hasKernelTime(i)) {
                msg = msg.substr(std::min(parseKernelPrefix(msg).message, msg.size()));
            }
            if (i > LineIndex(0)) {
                ++pairs;
                const bool same = tty::sameTemplate(msg, prev);
                taken += same ? 1 : 0;
                wrong += same && messageTemplate(msg) != messageTemplate(prev) ? 1 : 0;
                if (f.startsWith(QLatin1String("spam_rmmod-k612rt-smp4-115200-t1")) &&
                    worker.match(QString::fromUtf8(msg.data(), qsizetype(msg.size()))).hasMatch() &&
                    worker.match(QString::fromStdString(prev)).hasMatch()) {
                    ++workerPairs;
                    workerTaken += same ? 1 : 0;
                }
            }
            prev.assign(msg);
        }
    }
    QCOMPARE(wrong, std::int64_t(0));
    QCOMPARE(workerTaken, workerPairs);
    QCOMPARE(workerPairs, std::int64_t(7815));
    QCOMPARE(taken, std::int64_t(51200));
    QCOMPARE(pairs, std::int64_t(71068)); // the captures' lines (`zstd -dc | wc -l`), less one each
}

// The issue's example: two lines of one call site are one source; a line without a kernel
// timestamp never shares a template with a kernel line.
void TstSources::oneSourcePerCallSite()
{
    const QByteArray log = "[    1.000000] noise: worker 3 seq 1234 jiffies 4295\n"
                           "[    1.000100] noise: worker 1 seq 7 jiffies 4301\n"
                           "noise: worker 2 seq 9 jiffies 4302\n"
                           "[    1.000200] usb 1-1: new high-speed USB device number 2\n"
                           "[    1.000300] usb 2-1.4: new high-speed USB device number 3\n";
    auto run = loadBytes(log, withFormat(QStringLiteral("raw")));
    QVERIFY(run);
    const SourceIndex index = SourceIndex::build(*run);
    QCOMPARE(index.lines(), LineCount(5));
    QCOMPARE(index.templateOf(LineIndex(0)), index.templateOf(LineIndex(1)));
    QVERIFY(index.templateOf(LineIndex(2)) != index.templateOf(LineIndex(0)));
    QCOMPARE(index.templateOf(LineIndex(3)), index.templateOf(LineIndex(4)));
    QCOMPARE(usedTemplates(index), 3);
    const SourceIndex::Template &t = index.templates()[index.templateOf(LineIndex(0))];
    QCOMPARE(QByteArray::fromStdString(t.text), QByteArray("noise: worker # seq # jiffies #"));
    QVERIFY(t.kernel);
    QCOMPARE(t.example, std::optional<LineIndex>(LineIndex(0)));
    QVERIFY(!index.templates()[index.templateOf(LineIndex(2))].kernel);
    // 4 bytes per line and the table of templates.
    QVERIFY(index.memoryBytes() >= 5 * 4);
}

// Every line of a WARN splat, from "cut here" to "end trace", is the splat's source.
void TstSources::warnSplatIsItsHeader()
{
    auto run = load(kCrashes + QStringLiteral("warn_x86_510.log"));
    QVERIFY(run);
    const SourceIndex index = SourceIndex::build(*run);
    QCOMPARE(index.lines(), LineCount(21));
    const std::optional<std::uint32_t> cut =
        index.find("------------[ cut here ]------------", true);
    QVERIFY(cut);
    for (int i = 1; i <= 19; ++i) {
        QCOMPARE(index.templateOf(LineIndex(i)), *cut);
    }
    QCOMPARE(linesOf(index, *cut), std::int64_t(19));
    QCOMPARE(QByteArray::fromStdString(index.templates()[index.templateOf(LineIndex(0))].text),
             QByteArray("foo: probing device"));
    QCOMPARE(QByteArray::fromStdString(index.templates()[index.templateOf(LineIndex(20))].text),
             QByteArray("foo: probe done"));
    QCOMPARE(usedTemplates(index), 3);
}

// mips' and loongarch's reports (registers named in rows, "Process ..." lines, ESTAT) are
// each their die() header's source, from the header to the end marker (lines 3-36, 37-65
// and 69-99, 1-based); the rest are the fault headlines, the panic and a few lines of text.
void TstSources::mipsLoongarchReportsAreTheirHeaders()
{
    auto run = load(kCrashes + QStringLiteral("mips_loongarch.log"));
    QVERIFY(run);
    const SourceIndex index = SourceIndex::build(*run);
    QCOMPARE(index.lines(), LineCount(101));
    const std::optional<std::uint32_t> oops = index.find("Oops[#]:", true);
    const std::optional<std::uint32_t> bug = index.find("Kernel bug detected[#]:", true);
    QVERIFY(oops && bug);
    for (int i = 2; i <= 35; ++i) {
        QCOMPARE(index.templateOf(LineIndex(i)), *oops);
    }
    for (int i = 36; i <= 64; ++i) {
        QCOMPARE(index.templateOf(LineIndex(i)), *bug);
    }
    for (int i = 68; i <= 98; ++i) {
        QCOMPARE(index.templateOf(LineIndex(i)), *oops);
    }
    QCOMPARE(linesOf(index, *oops), std::int64_t(34 + 31));
    QCOMPARE(linesOf(index, *bug), std::int64_t(29));
    QCOMPARE(usedTemplates(index), 8);
}

// The 6.12-rt printk flood: the worker lines are one template with the truth's noise_lines,
// and the drop notices (no kernel timestamp) one with its dropped_lines.
void TstSources::floodSample()
{
    auto run = load(kSamples + QStringLiteral("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"));
    QVERIFY(run);
    const SourceIndex index = SourceIndex::build(*run);
    QCOMPARE(index.lines(), LineCount(11365));
    const std::optional<std::uint32_t> worker = index.find("noise: worker # seq #", true);
    QVERIFY(worker);
    QCOMPARE(linesOf(index, *worker), std::int64_t(9397));
    const std::optional<std::uint32_t> drops = index.find("** # printk messages dropped **", false);
    QVERIFY(drops);
    QCOMPARE(linesOf(index, *drops), std::int64_t(1580));
    QVERIFY(!index.find("noise: worker # seq #", false));
}

// blast_crash: sysrq-t dumps from two CPUs at once. Their task lines, stacks and register
// lines count as "sysrq: Show State", not as hundreds of frame templates.
void TstSources::sysrqDumpIsItsHeader()
{
    auto run = load(kSamples + QStringLiteral("blast_crash-smp2-115200-t1.hostts.log.zst"));
    QVERIFY(run);
    const SourceIndex index = SourceIndex::build(*run);
    const std::optional<std::uint32_t> show = index.find("sysrq: Show State", true);
    const std::optional<std::uint32_t> crash = index.find("sysrq: Trigger a crash", true);
    const std::optional<std::uint32_t> panic =
        index.find("Kernel panic - not syncing: sysrq triggered crash", true);
    QVERIFY(show && crash && panic);
    // Lines 364 (the first "sysrq: Show State") to 8763 (the panic, 1-based): every kernel
    // line of a report body there is the dump's or the crash trigger's.
    QVERIFY(lineText(*run, 363).endsWith("] sysrq: Show State"));
    QVERIFY(lineText(*run, 8762).endsWith("Kernel panic - not syncing: sysrq triggered crash"));
    std::int64_t body = 0;
    for (LineIndex i(363); i < LineIndex(8762); ++i) {
        const std::string t = run->lines.text(i).str();
        if (!run->lines.kernelTime(i)) {
            continue;
        }
        const std::string_view m = std::string_view(t).substr(t.find("] ") + 2);
        if (m.empty() || isReportBody(m)) {
            ++body;
            const std::uint32_t id = index.templateOf(i);
            QVERIFY2(id == *show || id == *crash, qPrintable(QString::number(lineNumber(i))));
        }
    }
    QCOMPARE(body, std::int64_t(7866)); // awk over the same lines gives 7866 too
    // The panic's own stack is the panic's: lines 8763 to the end.
    for (LineIndex i(8762); i < run->lines.endIndex(); ++i) {
        QCOMPARE(index.templateOf(i), *panic);
    }
    // No line kept a frame, register or task template of its own.
    for (const SourceIndex::Template &t : index.templates()) {
        if (t.example && t.kernel) {
            QVERIFY2(!isReportBody(t.text), t.text.c_str());
        }
    }
}

// The stacked lane's series of the 6.12-rt flood: the flood is the top source, and its bins
// hold exactly its bytes (so its wire time, 33.059 s as report --sources gives), at every
// level of the pyramid; every line is in some band.
void TstSources::floodWireBySource()
{
    auto run = load(kSamples + QStringLiteral("spam_rmmod-k612rt-smp4-115200-t1.hostts.log.zst"));
    QVERIFY(run);
    const SourceIndex index = SourceIndex::build(*run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    const SourceTable table = computeSources(*run, index, m, SourceGrouping::Template);
    const SourceSeries s = buildSourceSeries(*run, index, table, m);
    QCOMPARE(int(s.top.size()), kSourceLaneTop);
    QCOMPARE(s.channels(), kSourceLaneTop + 1);
    QCOMPARE(QString::fromStdString(s.top[0].templ), QStringLiteral("noise: worker # seq #"));
    QCOMPARE(s.top[0].lines, std::int64_t(9397));
    QCOMPARE(s.top[0].bytes, table.sources[0].bytes);
    QCOMPARE(s.top[0].bytes, std::int64_t(380837));
    QCOMPARE(qRound64(*s.wireSeconds(double(s.top[0].bytes)) * 1000), qint64(33059));
    QCOMPARE(s.otherSources, std::int64_t(314 - kSourceLaneTop));
    QCOMPARE(s.untimedBytes, std::int64_t(0));
    // The fine bins are a level of the run's series: its start, 4^k of its width.
    QCOMPARE(s.start, run->series.start());
    QVERIFY(s.levels.front().bins() <= kSourceSeriesMaxBins);
    double ratio = s.levels.front().width / run->series.level(0).width;
    while (ratio > 1.5) {
        ratio /= 4;
    }
    QCOMPARE(ratio, 1.0);
    for (const SourceSeries::Level &l : s.levels) {
        double flood = 0, all = 0;
        for (int c = 0; c < s.channels(); ++c) {
            for (const float v : l.ch[std::size_t(c)]) {
                all += double(v);
                flood += c == 0 ? double(v) : 0.0;
            }
        }
        // Each line's bytes are spread over the bins of its time on the wire: the sums
        // are the bytes, but for a float's rounding.
        QCOMPARE(qRound64(flood), table.sources[0].bytes);
        QCOMPARE(qRound64(all), table.bytes);
    }
    // Without a baud rate there is no wire time, only bytes.
    SourceSeries noBaud = s;
    noBaud.baud = 0;
    QVERIFY(!noBaud.wireSeconds(100));
}

// The burst at 9600 baud (tests/fixtures/slowbaud: 300 lines of 64 bytes, 67 ms each on
// the wire, from two writers) read at --baud 9600. A line's bytes counted in the fine bin
// of its first byte put the stacked lane at up to ~120 % of the UART on screen, and the
// wire lane's bins at several times its rate; spread over the time each line took on the
// wire, no bin holds more than the UART sent in it, give or take the host's reads.
void TstSources::slowConsoleNeverOverItsRate()
{
    LoadOptions options;
    options.baud = 9600;
    QString error;
    auto run = loadRun(QStringLiteral(TTYSCOPE_FIXTURES "/slowbaud/rt-9600-quiet.hostts.log.zst"),
                       options, &error);
    QVERIFY2(run, qPrintable(error));
    QCOMPARE(run->meta.baud, 9600);
    const SourceIndex index = SourceIndex::build(*run);
    const Metrics m = computeMetrics(*run, MetricOptions{});
    const SourceTable table = computeSources(*run, index, m, SourceGrouping::Template);
    const SourceSeries s = buildSourceSeries(*run, index, table, m);
    const auto busiest = [](const std::vector<std::vector<float>> &channels, double width) {
        double most = 0;
        for (std::size_t b = 0; b < channels.front().size(); ++b) {
            double sum = 0;
            for (const std::vector<float> &c : channels) {
                sum += double(c[b]);
            }
            most = std::max(most, sum / width / 960.0);
        }
        return most;
    };
    // The busiest fine bin (10 ms) is the first line's: its 54 bytes (with \r\n) take
    // 56.25 ms at 9600 baud, and the host read the next line's first byte 55.024 ms after
    // its own. Whole lines in their first byte's bin made 63 bytes in 10 ms: 656 %.
    const double first = 54 / 0.055024 / 960;
    const SeriesPyramid::Level &fine = run->series.level(0);
    QCOMPARE(fine.width, 0.01);
    QCOMPARE(qRound(busiest({fine.ch[std::size_t(Channel::Bytes)]}, fine.width) * 1e4),
             qRound(first * 1e4));
    QCOMPARE(s.levels.front().width, 0.01);
    QCOMPARE(qRound(busiest(s.levels.front().ch, 0.01) * 1e4), qRound(first * 1e4));
    // The last line's bytes are within the series: its bins end after them.
    QVERIFY(run->series.end() >= 30.44 + 35 * 10 / 9600.0);
}

QTEST_GUILESS_MAIN(TstSources)
#include "tst_sources.moc"
