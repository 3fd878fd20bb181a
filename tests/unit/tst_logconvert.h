// The bundled real captures written out as journalctl and dmesg would have shown the same
// kernel messages, for tests that check each format gives the figures of the original.
// Each writer follows its tool's printf formats (systemd src/shared/logs-show.c, util-linux
// sys-utils/dmesg.c); tst_dmesg checks the dmesg ones against the real dmesg program.
//
// journalctl -k and dmesg hold the kernel's messages only: the original to compare with is
// the capture's lines that start with a kernel timestamp (kernelOnlyHostts), not the
// firmware before the kernel or the login prompt after it. Lines written to /dev/kmsg from
// user space ("harness: insmod", level 2, facility user) are split by journald into
// SYSLOG_IDENTIFIER=harness and MESSAGE=insmod, as journald-kmsg.c does.
#pragma once

#include "kernelprefix.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <cstdio>

namespace testutil {

struct KernelLine
{
    qint64 arrivalNs = 0;
    qint64 kernelUs = 0;
    QByteArray text;    // the console line, its kernel prefix included
    QByteArray message; // after the prefix
    bool harness = false;
};

inline QList<KernelLine> kernelLinesOf(const QByteArray &hostts)
{
    QList<KernelLine> out;
    for (const QByteArray &l : hostts.split('\n')) {
        const int tab = l.indexOf('\t');
        if (tab < 0) {
            continue;
        }
        const QByteArray text = l.mid(tab + 1);
        const tty::KernelPrefix p =
            tty::parseKernelPrefix(std::string_view(text.constData(), std::size_t(text.size())));
        if (!p.time || p.timeAt != 0 || p.level) {
            continue;
        }
        const QList<QByteArray> sec = l.left(tab).split('.');
        KernelLine k;
        k.arrivalNs = sec[0].toLongLong() * 1000000000 + sec[1].leftJustified(9, '0').toLongLong();
        k.kernelUs = p.time->count();
        k.text = text;
        k.message = text.mid(qsizetype(p.message));
        k.harness = k.message.startsWith("harness: ");
        out << k;
    }
    return out;
}

inline QByteArray kernelOnlyHostts(const QList<KernelLine> &lines)
{
    QByteArray out;
    for (const KernelLine &k : lines) {
        out += QByteArray::number(k.arrivalNs / 1000000000) + '.' +
               QByteArray::number((k.arrivalNs / 1000) % 1000000).rightJustified(6, '0') + '\t' +
               k.text + '\n';
    }
    return out;
}

// The console text alone, as a raw capture of the same lines.
inline QByteArray consoleOf(const QList<KernelLine> &lines)
{
    QByteArray out;
    for (const KernelLine &k : lines) {
        out += k.text + "\r\n";
    }
    return out;
}

inline QByteArray usecText(qint64 us)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%5lld.%06lld", us / 1000000, us % 1000000);
    return buf;
}

// ---- journalctl
inline bool journalPrintable(const QByteArray &s)
{
    for (const char c : s) {
        if ((uchar(c) < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
            return false;
        }
    }
    return QString::fromUtf8(s).toUtf8() == s;
}

inline QByteArray journalJsonValue(const QByteArray &v)
{
    if (!journalPrintable(v)) {
        QByteArray a = "[ ";
        for (qsizetype i = 0; i < v.size(); ++i) {
            a += (i ? ", " : "") + QByteArray::number(uchar(v[i]));
        }
        return a + " ]";
    }
    QByteArray o = "\"";
    for (const char c : v) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if (c == '\n') {
            o += "\\n";
        } else if (uchar(c) < 0x20) {
            o += "\\u" + QByteArray::number(uchar(c), 16).rightJustified(4, '0');
        } else {
            o += c;
        }
    }
    return o + '"';
}

struct JournalFields
{
    QList<QPair<QByteArray, QByteArray>> fields;
};

// The fields journald stores for the line (the journal's own stamps first). journald's
// monotonic clock at receipt is made different from the kernel's time on purpose: the
// parsers must not take one for the other.
inline QList<QPair<QByteArray, QByteArray>> journalFieldsOf(const KernelLine &k, int i)
{
    QList<QPair<QByteArray, QByteArray>> f;
    f << qMakePair(QByteArray("__CURSOR"), "s=0a1b2c;i=" + QByteArray::number(i + 1, 16));
    f << qMakePair(QByteArray("__REALTIME_TIMESTAMP"), QByteArray::number(k.arrivalNs / 1000));
    f << qMakePair(QByteArray("__MONOTONIC_TIMESTAMP"),
                   QByteArray::number(k.kernelUs + 7000000 + i));
    f << qMakePair(QByteArray("_BOOT_ID"), QByteArray("5d8c3e0fd6a84e6b9a4c0c1f9f7e2b11"));
    f << qMakePair(QByteArray("_TRANSPORT"), QByteArray("kernel"));
    f << qMakePair(QByteArray("PRIORITY"), QByteArray(k.harness ? "2" : "6"));
    f << qMakePair(QByteArray("SYSLOG_FACILITY"), QByteArray(k.harness ? "1" : "0"));
    f << qMakePair(QByteArray("SYSLOG_IDENTIFIER"), QByteArray(k.harness ? "harness" : "kernel"));
    f << qMakePair(QByteArray("_SOURCE_MONOTONIC_TIMESTAMP"), QByteArray::number(k.kernelUs));
    f << qMakePair(QByteArray("_HOSTNAME"), QByteArray("corpusvm"));
    f << qMakePair(QByteArray("MESSAGE"), k.harness ? k.message.mid(9) : k.message);
    return f;
}

inline QByteArray toJournalJson(const QList<KernelLine> &lines)
{
    QByteArray out;
    for (int i = 0; i < lines.size(); ++i) {
        auto f = journalFieldsOf(lines[i], i);
        if (i % 2) {
            std::reverse(f.begin(), f.end()); // journalctl's field order is a hash table's
        }
        out += '{';
        for (int j = 0; j < f.size(); ++j) {
            out +=
                (j ? "," : "") + journalJsonValue(f[j].first) + ":" + journalJsonValue(f[j].second);
        }
        out += "}\n";
    }
    return out;
}

// Every field that is not printable text, and every fifth MESSAGE, in the binary form.
inline QByteArray toJournalExport(const QList<KernelLine> &lines)
{
    QByteArray out;
    for (int i = 0; i < lines.size(); ++i) {
        for (const auto &[name, value] : journalFieldsOf(lines[i], i)) {
            if (journalPrintable(value) && !value.contains('\n') &&
                !(name == "MESSAGE" && i % 5 == 0)) {
                out += name + '=' + value + '\n';
                continue;
            }
            out += name + '\n';
            quint64 n = quint64(value.size());
            for (int b = 0; b < 8; ++b, n >>= 8) {
                out += char(n & 0xff);
            }
            out += value + '\n';
        }
        out += '\n';
    }
    return out;
}

// "[    1.234567] corpusvm kernel: msg".
inline QByteArray shortLinePrefix(const KernelLine &k)
{
    return k.harness ? QByteArray(" corpusvm harness: ") : QByteArray(" corpusvm kernel: ");
}
inline QByteArray shortMessage(const KernelLine &k)
{
    const QByteArray m = k.harness ? k.message.mid(9) : k.message;
    return journalPrintable(m) ? m : "[" + QByteArray::number(m.size()) + "B blob data]";
}

inline QByteArray toShortMonotonic(const QList<KernelLine> &lines)
{
    QByteArray out = "-- Boot 5d8c3e0fd6a84e6b9a4c0c1f9f7e2b11 --\n";
    for (const KernelLine &k : lines) {
        out += "[" + usecText(k.kernelUs) + "]" + shortLinePrefix(k) + shortMessage(k) + '\n';
    }
    return out;
}

// short-iso-precise in a zone an hour east of UTC (systemd >= 255 writes "+01:00", older
// "+0100": `colon` picks).
inline QByteArray toShortIsoPrecise(const QList<KernelLine> &lines, bool colon)
{
    QByteArray out;
    for (const KernelLine &k : lines) {
        const QDateTime t =
            QDateTime::fromMSecsSinceEpoch(k.arrivalNs / 1000000 + 3600000, Qt::UTC);
        out += t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")).toLatin1() + '.' +
               QByteArray::number((k.arrivalNs / 1000) % 1000000).rightJustified(6, '0') +
               (colon ? "+01:00" : "+0100") + shortLinePrefix(k) + shortMessage(k) + '\n';
    }
    return out;
}

inline QByteArray toShortPrecise(const QList<KernelLine> &lines)
{
    QByteArray out;
    for (const KernelLine &k : lines) {
        const QDateTime t = QDateTime::fromMSecsSinceEpoch(k.arrivalNs / 1000000, Qt::UTC);
        out += QLocale::c().toString(t, QStringLiteral("MMM dd HH:mm:ss")).toLatin1() + '.' +
               QByteArray::number((k.arrivalNs / 1000) % 1000000).rightJustified(6, '0') +
               shortLinePrefix(k) + shortMessage(k) + '\n';
    }
    return out;
}

// ---- dmesg
// What dmesg reads with -F: the syslog(2) buffer, "<facility|level>[time] text".
inline QByteArray toSyslogBuffer(const QList<KernelLine> &lines)
{
    QByteArray out;
    for (const KernelLine &k : lines) {
        out += "<" + QByteArray(k.harness ? "10" : "6") + ">[" + usecText(k.kernelUs) + "] " +
               k.message + '\n';
    }
    return out;
}

// dmesg --json (util-linux 2.39 and later: "pri", "time", "msg"; 3-space indents).
inline QByteArray toDmesgJson(const QList<KernelLine> &lines, bool decode)
{
    QByteArray out = "{\n   \"dmesg\": [\n";
    for (int i = 0; i < lines.size(); ++i) {
        const KernelLine &k = lines[i];
        out += i ? "},{\n" : "      {\n";
        if (decode) {
            out += QByteArray("         \"fac\": \"") + (k.harness ? "user" : "kern") +
                   "\",\n         \"pri\": \"" + (k.harness ? "crit" : "info") + "\",\n";
        } else {
            out += QByteArray("         \"pri\": ") + (k.harness ? "10" : "6") + ",\n";
        }
        out += "         \"time\": " + usecText(k.kernelUs) +
               ",\n         \"msg\": " + journalJsonValue(k.message) + "\n      ";
    }
    return out + (lines.isEmpty() ? "" : "}\n") + "   ]\n}\n";
}

enum class DmesgTime { Time, TimeDelta, Delta, Ctime, Iso, Reltime };

// dmesg's text: `decode` for -x, `time` as --time-format; the wall-clock forms put kernel
// time 0 at `bootNs` in UTC (TZ=UTC).
inline QByteArray toDmesgText(const QList<KernelLine> &lines, DmesgTime time, bool decode,
                              qint64 bootNs)
{
    QByteArray out;
    qint64 last = -1;
    int lastMinute = -1;
    for (const KernelLine &k : lines) {
        char buf[128];
        // dmesg: no delta while the last time is unset, and a time of 0.000000 is unset
        // (timerisset), so the lines after the boot's first ones have a delta of 0 too.
        const double delta = last <= 0 ? 0.0 : double(k.kernelUs - last) / 1e6;
        last = k.kernelUs;
        const qint64 wallUs = bootNs / 1000 + k.kernelUs;
        const QDateTime wall = QDateTime::fromMSecsSinceEpoch(wallUs / 1000, Qt::UTC);
        if (decode) {
            std::snprintf(buf, sizeof buf, "%-6s:%-6s: ", k.harness ? "user" : "kern",
                          k.harness ? "crit" : "info");
            out += buf;
        }
        switch (time) {
        case DmesgTime::Time:
            out += "[" + usecText(k.kernelUs) + "] ";
            break;
        case DmesgTime::TimeDelta:
            std::snprintf(buf, sizeof buf, "[%s <%12.06f>] ", usecText(k.kernelUs).constData(),
                          delta);
            out += buf;
            break;
        case DmesgTime::Delta:
            std::snprintf(buf, sizeof buf, "[<%12.06f>] ", delta);
            out += buf;
            break;
        case DmesgTime::Ctime: {
            // strftime "%a %b %e %H:%M:%S %Y"
            const QByteArray day = QByteArray::number(wall.date().day()).rightJustified(2, ' ');
            out += "[" + QLocale::c().toString(wall, QStringLiteral("ddd MMM ")).toLatin1() + day +
                   QLocale::c().toString(wall, QStringLiteral(" HH:mm:ss yyyy")).toLatin1() + "] ";
            break;
        }
        case DmesgTime::Iso:
            out += wall.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")).toLatin1() + ',' +
                   QByteArray::number(wallUs % 1000000).rightJustified(6, '0') + "+00:00 ";
            break;
        case DmesgTime::Reltime: {
            const int minute = int(wallUs / 60000000);
            if (minute != lastMinute) {
                // strftime "%b%e %H:%M"
                out += "[" + QLocale::c().toString(wall, QStringLiteral("MMM")).toLatin1() +
                       QByteArray::number(wall.date().day()).rightJustified(2, ' ') +
                       wall.toString(QStringLiteral(" HH:mm")).toLatin1() + "] ";
            } else {
                std::snprintf(buf, sizeof buf, delta < 10 ? "[  %+8.06f] " : "[ %+9.06f] ", delta);
                out += buf;
            }
            lastMinute = minute;
            break;
        }
        }
        out += k.message + '\n';
    }
    return out;
}

} // namespace testutil
