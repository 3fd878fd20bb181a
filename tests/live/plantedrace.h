// For tests that check TSan would see a race: runs this test program again with only
// `testFunction`, TTYSCOPE_PLANT_RACE=1 (the child plants the race) and the TSan stage's
// suppressions (TTYSCOPE_TSAN_TOP_SUPP, which tsan_top.supp says why), stopping at the
// first report with exit status kTsanExit. Returns the child's output; `exitCode` its
// status (-1 if it did not end within two minutes).
#pragma once

#include <QCoreApplication>
#include <QProcess>

namespace testutil {

constexpr int kTsanExit = 66;

inline QByteArray runPlantedRace(const QString &testFunction, int *exitCode)
{
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TTYSCOPE_PLANT_RACE"), QStringLiteral("1"));
    env.insert(QStringLiteral("TSAN_OPTIONS"),
               QStringLiteral("halt_on_error=1:exitcode=66:suppressions=" TTYSCOPE_TSAN_TOP_SUPP));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), {testFunction});
    const bool ended = child.waitForFinished(120000);
    *exitCode = ended ? child.exitCode() : -1;
    return child.readAll();
}

} // namespace testutil
