// ttyscope: `ttyscope [FILE...]` opens the GUI; `report`, `cat`, `export` and `capture`
// run without a display.
#include "commands.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (std::strcmp(cmd, "report") == 0 || std::strcmp(cmd, "cat") == 0) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("ttyscope"));
        QCoreApplication::setApplicationVersion(QStringLiteral(TTYSCOPE_VERSION));
        // The command word stays in the list: it is the first positional argument.
        const QStringList args = QCoreApplication::arguments();
        return std::strcmp(cmd, "report") == 0 ? tty::runReport(args) : tty::runCat(args);
    }
    if (std::strcmp(cmd, "capture") == 0) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("ttyscope"));
        QCoreApplication::setApplicationVersion(QStringLiteral(TTYSCOPE_VERSION));
        return tty::runCapture(QCoreApplication::arguments());
    }
    std::fprintf(stderr, "ttyscope: the GUI is not built yet; use 'ttyscope report FILE...'\n");
    return 2;
}
