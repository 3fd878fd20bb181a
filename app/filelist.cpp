#include "filelist.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <glob.h>
#include <string>
#include <vector>

namespace tty {

QStringList expandGlobs(const QStringList &files, QStringList *noMatch)
{
    QStringList out;
    for (const QString &f : files) {
        const bool pattern = f.contains(QLatin1Char('*')) || f.contains(QLatin1Char('?')) ||
                             f.contains(QLatin1Char('['));
        if (!pattern || QFileInfo::exists(f)) {
            out << f;
            continue;
        }
        glob_t g{};
        const QByteArray p = QFile::encodeName(f);
        // GLOB_NOSORT: sorted below by bytes, not by the locale's collation, so that the
        // order (and the JSON lines' order) is the same on every machine.
        const int rc = glob(p.constData(), GLOB_NOSORT, nullptr, &g);
        std::vector<std::string> names;
        if (rc == 0) {
            for (std::size_t i = 0; i < g.gl_pathc; ++i) {
                names.emplace_back(g.gl_pathv[i]);
            }
        }
        globfree(&g);
        if (names.empty()) {
            *noMatch << f;
            continue;
        }
        std::sort(names.begin(), names.end());
        for (const std::string &n : names) {
            out << QFile::decodeName(QByteArray::fromStdString(n));
        }
    }
    return out;
}

bool readFileList(const QString &path, QStringList *out, QString *error)
{
    QFile f;
    const bool stdinList = path == QLatin1String("-");
    if (stdinList ? !f.open(stdin, QIODevice::ReadOnly)
                  : (f.setFileName(path), !f.open(QIODevice::ReadOnly))) {
        *error = QStringLiteral("--files-from %1: %2").arg(path, f.errorString());
        return false;
    }
    while (!f.atEnd()) {
        QByteArray line = f.readLine();
        while (line.endsWith('\n') || line.endsWith('\r')) {
            line.chop(1);
        }
        if (!line.isEmpty()) {
            *out << QFile::decodeName(line);
        }
    }
    return true;
}

} // namespace tty
