// Saves and restores the window's layout, lane choices and recent files.
#include "windowsettings.h"

#include "metrics.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QSplitter>

namespace tty {

namespace {
constexpr int kMaxRecent = 10;
// The log's View toggles, by their actions' object names: someone who reads the timestamps
// in the text, or the escape sequences, wants them again tomorrow.
constexpr const char *kLogToggles[] = {"showControls", "timesInText"};

QAction *toggle(const QMainWindow *window, const char *name)
{
    return window->findChild<QAction *>(QLatin1String(name));
}
} // namespace

void WindowSettings::restore(QMainWindow *window, QMenu *lanesMenu, MetricOptions *metrics)
{
    QSettings s;
    if (s.status() != QSettings::NoError) {
        return; // a broken settings file must never stop the program
    }
    window->restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    window->restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    if (auto *split = window->findChild<QSplitter *>(QStringLiteral("mainSplit"))) {
        split->restoreState(s.value(QStringLiteral("window/split")).toByteArray());
    }
    const QList<QAction *> lanes = lanesMenu->actions();
    for (int l = 0; l < lanes.size(); ++l) {
        lanes[l]->setChecked(s.value(QStringLiteral("lanes/%1").arg(l), true).toBool());
    }
    for (const char *name : kLogToggles) {
        if (QAction *a = toggle(window, name)) {
            a->setChecked(s.value(QStringLiteral("view/") + QLatin1String(name), false).toBool());
        }
    }
    metrics->windowSeconds = s.value(QStringLiteral("metrics/window"), 30.0).toDouble();
    if (!(metrics->windowSeconds > 0)) {
        metrics->windowSeconds = 30;
    }
}

void WindowSettings::save(const QMainWindow *window, const QMenu *lanesMenu)
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), window->saveGeometry());
    s.setValue(QStringLiteral("window/state"), window->saveState());
    if (auto *split = window->findChild<QSplitter *>(QStringLiteral("mainSplit"))) {
        s.setValue(QStringLiteral("window/split"), split->saveState());
    }
    const QList<QAction *> lanes = lanesMenu->actions();
    for (int l = 0; l < lanes.size(); ++l) {
        s.setValue(QStringLiteral("lanes/%1").arg(l), lanes[l]->isChecked());
    }
    for (const char *name : kLogToggles) {
        if (const QAction *a = toggle(window, name)) {
            s.setValue(QStringLiteral("view/") + QLatin1String(name), a->isChecked());
        }
    }
}

QStringList WindowSettings::recent()
{
    return QSettings().value(QStringLiteral("recent")).toStringList();
}

void WindowSettings::addRecent(const QStringList &files)
{
    QSettings s;
    QStringList recent = s.value(QStringLiteral("recent")).toStringList();
    const QString entry = files.join(QLatin1Char(','));
    recent.removeAll(entry);
    recent.prepend(entry);
    s.setValue(QStringLiteral("recent"), recent.mid(0, kMaxRecent));
}

} // namespace tty
