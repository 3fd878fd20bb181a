// Helpers shared by the unit tests: temporary files, zstd in memory, loading bytes.
#pragma once

#include "metrics.h"
#include "report.h"
#include "run.h"
#include "runbuilder.h"
#include "runloader.h"

#include <QByteArray>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <vector>
#include <zstd.h>

// Readable QCOMPARE failures for the format and load-outcome enums (found by ADL).
namespace tty {
inline char *toString(Format f)
{
    return qstrdup(f == Format::Unknown ? "unknown" : qPrintable(formatName(f)));
}
inline char *toString(const std::optional<Format> &f)
{
    return f ? toString(*f) : qstrdup("nullopt");
}
inline char *toString(LoadOutcome o)
{
    return qstrdup(loadOutcomeName(o));
}
} // namespace tty

namespace testutil {

// The keys of the report rows whose cell for `run` alone reads "n/a (<reason>)".
inline QStringList rowsAbsentBecause(const tty::Run &run, const QString &reason)
{
    tty::ReportColumn c;
    c.label = QStringLiteral("run");
    c.runs = {&run};
    c.boots = {std::nullopt};
    c.metrics = {tty::computeMetrics(run, tty::MetricOptions{})};
    c.files = {QStringLiteral("run.log")};
    const tty::Report rep({c}, tty::MetricOptions{});
    QStringList keys;
    for (const tty::ReportRow &r : rep.rows()) {
        if (rep.cell(r, 0) == QStringLiteral("n/a (%1)").arg(reason)) {
            keys << r.key;
        }
    }
    return keys;
}

// What a kernel log read from its buffer (dmesg, the journal) cannot say: the console's
// bytes, drops and times.
inline const QStringList kConsoleOnlyRows{"bytes",          "wire_s",         "duration_s",
                                          "drops.notices",  "drops.messages", "lag.max_s",
                                          "lag.p50_s",      "lag.p99_s",      "window.lines",
                                          "window.wire_s",  "boot_time_s",    "boot_time_kernel_s",
                                          "boot_wire_share"};

// Seconds as whole microseconds, the resolution the tests compare times at.
inline std::int64_t micros(double seconds)
{
    return qRound64(seconds * 1e6);
}

inline QByteArray zstdCompress(const QByteArray &in, int level = 3)
{
    QByteArray out(qsizetype(ZSTD_compressBound(std::size_t(in.size()))), Qt::Uninitialized);
    const std::size_t n = ZSTD_compress(out.data(), std::size_t(out.size()), in.constData(),
                                        std::size_t(in.size()), level);
    out.resize(ZSTD_isError(n) ? 0 : qsizetype(n));
    return out;
}

// One frame, flushed after every `linesPerFlush` lines (as a recorder does); `flushEnds`
// gets the compressed size after each flush and `linesAt` the lines complete by then.
inline QByteArray zstdCompressFlushed(const QList<QByteArray> &lines, int linesPerFlush,
                                      std::vector<qsizetype> *flushEnds, std::vector<int> *linesAt)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    QByteArray out;
    std::vector<char> buf(ZSTD_CStreamOutSize());
    auto drive = [&](const QByteArray &in, ZSTD_EndDirective mode) {
        ZSTD_inBuffer ib{in.constData(), std::size_t(in.size()), 0};
        std::size_t left;
        do {
            ZSTD_outBuffer ob{buf.data(), buf.size(), 0};
            left = ZSTD_compressStream2(c, &ob, &ib, mode);
            out.append(buf.data(), qsizetype(ob.pos));
        } while (!ZSTD_isError(left) && (left != 0 || ib.pos < ib.size));
    };
    for (int i = 0; i < lines.size(); ++i) {
        drive(lines[i], ZSTD_e_continue);
        if ((i + 1) % linesPerFlush == 0) {
            drive({}, ZSTD_e_flush);
            flushEnds->push_back(out.size());
            linesAt->push_back(i + 1);
        }
    }
    drive({}, ZSTD_e_end);
    ZSTD_freeCCtx(c);
    return out;
}

inline QByteArray zstdDecompressFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray in = f.readAll();
    ZSTD_DCtx *d = ZSTD_createDCtx();
    QByteArray out;
    std::vector<char> buf(ZSTD_DStreamOutSize());
    ZSTD_inBuffer ib{in.constData(), std::size_t(in.size()), 0};
    while (ib.pos < ib.size) {
        ZSTD_outBuffer ob{buf.data(), buf.size(), 0};
        if (ZSTD_isError(ZSTD_decompressStream(d, &ob, &ib))) {
            break;
        }
        out.append(buf.data(), qsizetype(ob.pos));
    }
    ZSTD_freeDCtx(d);
    return out;
}

// A host-stamped log (`<unix seconds>\t<line>`) written anew line by line: `write` gets a
// line's stamp in seconds and its text, and returns the line as another tool writes it (or
// on another clock), without its newline.
inline QByteArray restamped(const QByteArray &hostts,
                            const std::function<QByteArray(double, const QByteArray &)> &write)
{
    QByteArray out;
    for (const QByteArray &line : hostts.split('\n')) {
        const qsizetype tab = line.indexOf('\t');
        if (tab >= 0) {
            out += write(line.left(tab).toDouble(), line.mid(tab + 1)) + '\n';
        }
    }
    return out;
}

class Files
{
public:
    QString write(const QString &name, const QByteArray &data)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) {
            f.write(data);
        }
        return path;
    }
    QString path(const QString &name) const { return m_dir.filePath(name); }

private:
    QTemporaryDir m_dir;
};

inline std::unique_ptr<tty::Run> loadBytes(const QByteArray &data,
                                           const tty::LoadOptions &o = tty::LoadOptions{},
                                           QString *error = nullptr,
                                           const QString &name = QStringLiteral("console.log"))
{
    Files files;
    QString e;
    auto run = tty::loadRun(files.write(name, data), o, &e);
    if (error) {
        *error = e;
    }
    return run;
}

// A hostts log (host seconds, a tab, the line) built twice: `whole` line by line and
// finished, `live` as a live capture builds it, its boots split and the run finalized
// every `every` lines (five times a second in the application), then finished.
inline void buildLiveAndWhole(const QByteArray &hostts, tty::Run *live, tty::Run *whole, int every)
{
    const tty::RuleSet rules = tty::RuleSet::builtin();
    live->hasArrival = whole->hasArrival = true;
    tty::RunBuilder liveBuilder(*live, rules), wholeBuilder(*whole, rules);
    int n = 0;
    for (const QByteArray &l : hostts.split('\n')) {
        const qsizetype tab = l.indexOf('\t');
        if (tab < 0) {
            continue;
        }
        const tty::HostNs t(std::llround(l.left(tab).toDouble() * 1e6) * 1000);
        const QByteArray text = l.mid(tab + 1);
        const std::string_view v(text.constData(), std::size_t(text.size()));
        wholeBuilder.addLine(v, t);
        liveBuilder.addLine(v, t);
        if (++n % every == 0) {
            live->splitBootsSoFar();
            live->finalize();
        }
    }
    liveBuilder.finish();
    wholeBuilder.finish();
}

inline tty::LoadOptions withFormat(const QString &format)
{
    tty::LoadOptions o;
    o.format = format;
    return o;
}

inline QByteArray lineText(const tty::Run &run, tty::LineIndex i)
{
    const std::string t = run.lines.text(i).str();
    return QByteArray(t.data(), qsizetype(t.size()));
}
// Tests name lines by literal numbers: lineText(*run, 3).
inline QByteArray lineText(const tty::Run &run, int i)
{
    return lineText(run, tty::LineIndex(i));
}

// Where `run` differs from `reference`, which holds the same console lines: a line's text,
// or its arrival (counted from the first line's) by more than toleranceNs. Empty when
// they agree.
inline QString differingLine(const tty::Run &run, const tty::Run &reference,
                             std::int64_t toleranceNs)
{
    if (run.lines.size() != reference.lines.size()) {
        return QStringLiteral("%1 lines against %2")
            .arg(run.lines.size().count())
            .arg(reference.lines.size().count());
    }
    const std::int64_t a0 = run.lines.arrival(tty::LineIndex(0))->count();
    const std::int64_t r0 = reference.lines.arrival(tty::LineIndex(0))->count();
    for (tty::LineIndex i{0}; i < run.lines.endIndex(); ++i) {
        const std::int64_t d =
            (run.lines.arrival(i)->count() - a0) - (reference.lines.arrival(i)->count() - r0);
        if (lineText(run, i) != lineText(reference, i) || std::abs(d) > toleranceNs) {
            return QStringLiteral("line %1: %2 ns apart").arg(i.value() + 1).arg(d);
        }
    }
    return {};
}

// Where a fast path's run and its definition's first differ in a line's text, arrival,
// kernel time or flags (empty when every line agrees; the line counts are compared apart).
inline QString firstLineDifference(const tty::Run &run, const tty::Run &ref)
{
    const tty::LineIndex end = std::min(run.lines.endIndex(), ref.lines.endIndex());
    for (tty::LineIndex i{0}; i < end; ++i) {
        if (run.lines.text(i).str() != ref.lines.text(i).str() ||
            run.lines.arrival(i) != ref.lines.arrival(i) ||
            run.lines.kernelTime(i) != ref.lines.kernelTime(i) ||
            run.lines.flags(i) != ref.lines.flags(i)) {
            return QStringLiteral("line %1 differs: '%2' vs '%3'")
                .arg(i.value())
                .arg(QString::fromUtf8(lineText(run, i)), QString::fromUtf8(lineText(ref, i)));
        }
    }
    return QString();
}

// A record of a ttyscope recording (docs/format.md), for recordings written by hand.
inline QByteArray recordingRecord(char type, qint64 wall, qint64 mono, const QByteArray &payload)
{
    return QByteArray(1, type) + ' ' + QByteArray::number(wall) + ' ' + QByteArray::number(mono) +
           ' ' + QByteArray::number(payload.size()) + '\n' + payload + '\n';
}

} // namespace testutil
