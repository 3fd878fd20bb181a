// The command-line subcommands. Each returns the process exit code.
#pragma once

#include <QStringList>

namespace tty {

int runReport(const QStringList &args);
int runCat(const QStringList &args);
int runExport(const QStringList &args); // needs a QApplication (offscreen is fine)
int runGui(const QStringList &args);    // needs a QApplication
int runCapture(const QStringList &args); // headless: a QCoreApplication

} // namespace tty
