// What the window keeps between runs in QSettings: geometry, dock and splitter layout, the
// lanes shown, how the log shows its text, the metrics window and the recently opened files.
#pragma once

#include <QStringList>

class QMainWindow;
class QMenu;

namespace tty {

struct MetricOptions;

class WindowSettings
{
public:
    // Restores the layout of `window`, the checked lanes of `lanesMenu` (one checkable action
    // per lane), the log's View toggles (the window's actions named showControls and
    // timesInText) and the metrics window length. Does nothing when the settings are broken.
    static void restore(QMainWindow *window, QMenu *lanesMenu, MetricOptions *metrics);
    static void save(const QMainWindow *window, const QMenu *lanesMenu);

    // Entries are comma-joined file lists, newest first.
    static QStringList recent();
    static void addRecent(const QStringList &files);
};

} // namespace tty
