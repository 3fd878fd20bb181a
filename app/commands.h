// The command-line subcommands. Each returns the process exit code.
#pragma once

#include <QStringList>

namespace tty {

int runReport(const QStringList &args);
int runCat(const QStringList &args);
int runExport(const QStringList &args);  // needs a QApplication (offscreen is fine)
int runGui(const QStringList &args);     // needs a QApplication
int runCapture(const QStringList &args); // --headless/--list: a QCoreApplication is enough
struct CaptureOptions;
// The live view of a capture in the main window (needs a QApplication).
int runCaptureGui(const CaptureOptions &options, const QString &markOnStart);

} // namespace tty
