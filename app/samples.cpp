#include "samples.h"

#include "live/versions.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <qcustomplot.h>

namespace tty {

SampleSet bundledSample()
{
    SampleSet s;
    QStringList dirs;
    if (qEnvironmentVariableIsSet("TTYSCOPE_SAMPLE_DIR")) {
        dirs << qEnvironmentVariable("TTYSCOPE_SAMPLE_DIR");
    }
    dirs << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/ttyscope/samples")
         << QStringLiteral(TTYSCOPE_SOURCE_DIR "/resources/samples");
    s.searched = dirs;
    for (const QString &d : dirs) {
        QFile f(d + QStringLiteral("/sample.json"));
        if (!f.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        for (const QJsonValue &side : o.value(QStringLiteral("sides")).toArray()) {
            QStringList files;
            for (const QJsonValue &file :
                 side.toObject().value(QStringLiteral("files")).toArray()) {
                files << QDir(d).filePath(file.toString());
            }
            s.sides << files;
            s.labels << side.toObject().value(QStringLiteral("label")).toString();
        }
        s.alignment = o.value(QStringLiteral("align")).toString();
        s.metrics.windowStart = o.value(QStringLiteral("window_start")).toString();
        s.metrics.windowSeconds = o.value(QStringLiteral("window")).toDouble(30);
        s.metrics.windowMatch = o.value(QStringLiteral("window_match")).toString();
        const QJsonArray span = o.value(QStringLiteral("span")).toArray();
        if (span.size() == 2) {
            s.metrics.spans.append({span[0].toString(), span[1].toString()});
        }
        break;
    }
    return s;
}

QString aboutText()
{
    return QStringLiteral("<h3>ttyscope %1</h3><p>Serial-console timelines and comparisons for "
                          "kernel developers.</p><p>Qt %2 (built with %3), QCustomPlot %4, %5</p>")
        .arg(QStringLiteral(TTYSCOPE_VERSION), QString::fromLatin1(qVersion()),
             QStringLiteral(QT_VERSION_STR), QStringLiteral(QCUSTOMPLOT_VERSION_STR),
             coreLibraryVersions());
}

} // namespace tty
