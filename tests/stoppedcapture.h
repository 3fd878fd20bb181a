// A bundled capture as a capture stopped early leaves it (Ctrl-C on grabserial): its first
// lines, whole, in a file of their own. For the GUI and command-line tests, which read
// files as users give them.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>

namespace testcapture {

// Writes the first `lines` lines of the zstd-compressed capture `path` (decompressed by
// the real zstd) to `out`; false if either step failed.
inline bool writeFirstLines(const QString &path, int lines, const QString &out)
{
    QProcess zstd;
    zstd.start(QStringLiteral("zstd"), {QStringLiteral("-dcq"), path});
    if (!zstd.waitForFinished(30000) || zstd.exitCode() != 0) {
        return false;
    }
    const QByteArray whole = zstd.readAllStandardOutput();
    qsizetype end = -1;
    for (int i = 0; i < lines && end + 1 < whole.size(); ++i) {
        end = whole.indexOf('\n', end + 1);
    }
    QFile f(out);
    return f.open(QIODevice::WriteOnly) && f.write(whole.left(end + 1)) == end + 1;
}

} // namespace testcapture
