// The command-line subcommands. Each returns the process exit code.
#pragma once

#include <QStringList>

namespace tty {

int runReport(const QStringList &args);
int runCat(const QStringList &args);
int runCapture(const QStringList &args); // headless: a QCoreApplication

} // namespace tty
