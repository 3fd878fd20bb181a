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
    QApplication app(argc, argv);
    setIdentity();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/ttyscope/icons/ttyscope.svg")));
    return tty::runGui(QApplication::arguments());
}
