// ttyscope: `ttyscope [FILE...]` opens the GUI; `report`, `cat`, `export` and `capture`
// run without a display.
#include "commands.h"

#include <QApplication>
#include <QCoreApplication>
#include <QIcon>
#include <QSettings>

#include <cstring>

namespace {
void setIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("ttyscope"));
    QCoreApplication::setApplicationName(QStringLiteral("ttyscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TTYSCOPE_VERSION));
}

// `ttyscope --help` / `--version` (before any `--`): runGui's QCommandLineParser::process()
// prints and exits for these before a widget exists, so they need no QApplication and no
// display. (Such a word given as the value of an option, `--label --help`, is not supported.)
bool onlyHelpOrVersion(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (std::strcmp(a, "--") == 0) {
            return false;
        }
        for (const char *flag : {"-h", "--help", "--help-all", "-v", "--version"}) {
            if (std::strcmp(a, flag) == 0) {
                return true;
            }
        }
    }
    return false;
}
// capture runs without a display when it only records, lists ports or prints help.
bool wantsHeadless(int argc, char **argv)
{
    for (int i = 2; i < argc; ++i) {
        for (const char *flag : {"--headless", "--list", "--help", "-h", "--help-all"}) {
            if (std::strcmp(argv[i], flag) == 0) {
                return true;
            }
        }
    }
    return false;
}
} // namespace

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    // The command word stays in the argument list: it is the first positional argument.
    if (std::strcmp(cmd, "report") == 0 || std::strcmp(cmd, "cat") == 0) {
        QCoreApplication app(argc, argv);
        setIdentity();
        const QStringList args = QCoreApplication::arguments();
        return std::strcmp(cmd, "report") == 0 ? tty::runReport(args) : tty::runCat(args);
    }
    if (std::strcmp(cmd, "capture") == 0 && !wantsHeadless(argc, argv)) {
        QApplication app(argc, argv);
        setIdentity();
        return tty::runCapture(QApplication::arguments());
    }
    if (std::strcmp(cmd, "capture") == 0) {
        QCoreApplication app(argc, argv);
        setIdentity();
        return tty::runCapture(QCoreApplication::arguments());
    }
    if (std::strcmp(cmd, "export") == 0) {
        // Pictures without a display: the offscreen platform renders fonts like any other.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
        }
        QApplication app(argc, argv);
        setIdentity();
        return tty::runExport(QApplication::arguments());
    }
    if (onlyHelpOrVersion(argc, argv)) {
        // The GUI parser prints and exits before any widget exists: no display needed.
        QCoreApplication app(argc, argv);
        setIdentity();
        return tty::runGui(QCoreApplication::arguments());
    }
    QApplication app(argc, argv);
    setIdentity();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/ttyscope/icons/ttyscope.svg")));
    return tty::runGui(QApplication::arguments());
}
