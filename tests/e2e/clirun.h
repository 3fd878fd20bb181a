// Running the ttyscope binary as a user does, for the end-to-end tests: its exit status
// and both outputs, and the bundled samples by name.
#pragma once

#include <QByteArray>
#include <QList>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>

namespace clitest {

struct Result
{
    int code = -1; // -1: it did not exit normally (a crash, or killed at the timeout)
    QByteArray out, err;
};

// `stdinData`: written to its standard input, which is then closed; without it the input
// is left open, as a terminal's would be.
inline Result ttyscope(const QStringList &args,
                       const std::optional<QByteArray> &stdinData = std::nullopt)
{
    QProcess p;
    p.start(QStringLiteral(TTYSCOPE_BIN), args);
    if (stdinData) {
        p.write(*stdinData);
        p.closeWriteChannel();
    }
    p.waitForFinished(180000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// The values of the text report's row `metric`, one per column (the columns are set apart
// by two blanks or more; a value such as "n/a (no 'login:')" has single ones). Empty when
// no row has that name.
inline QStringList rowValues(const QByteArray &report, const QString &metric)
{
    for (const QString &line : QString::fromUtf8(report).split(QLatin1Char('\n'))) {
        if (line.startsWith(metric + QLatin1String("  "))) {
            return line.mid(metric.size())
                .trimmed()
                .split(QRegularExpression(QStringLiteral(" {2,}")), Qt::SkipEmptyParts);
        }
    }
    return {};
}

inline QString sample(const QString &name)
{
    return QStringLiteral(TTYSCOPE_SAMPLES "/") + name;
}

} // namespace clitest
