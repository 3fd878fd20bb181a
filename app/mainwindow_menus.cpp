// The main window's menus, toolbar and actions, the recent-files menu and the help boxes.
#include "mainwindow.h"

#include "eventlist.h"
#include "logpane.h"
#include "metricspanel.h"
#include "noticebar.h"
#include "palette.h"
#include "samples.h"
#include "sourcespanel.h"
#include "theme.h"
#include "timelineview.h"
#include "windowsettings.h"

#include <QAction>
#include <QActionGroup>
#include <QColorDialog>
#include <QComboBox>
#include <QDockWidget>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QToolBar>

namespace tty {

void MainWindow::buildActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QToolBar *tb = addToolBar(tr("Main"));
    tb->setObjectName(QStringLiteral("mainToolbar"));
    auto add = [this](QMenu *menu, const QString &text, const QKeySequence &key, auto slot) {
        QAction *a = menu->addAction(text);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    tb->addAction(add(file, tr("&Open…"), QKeySequence::Open, [this] { openDialog(); }));
    tb->addAction(
        add(file, tr("&Compare…"), QKeySequence(tr("Ctrl+Shift+O")), [this] { compareDialog(); }));
    add(file, tr("Open the &sample comparison"), QKeySequence(), [this] { openSample(); });
    file->addSeparator();
    tb->addAction(
        add(file, tr("Ca&pture…"), QKeySequence(tr("Ctrl+K")), [this] { captureDialog(); }));
    add(file, tr("S&top capture"), QKeySequence(tr("Ctrl+Shift+K")), [this] { stopCapture(); });
    add(file, tr("Drop a &marker (live)"), QKeySequence(Qt::Key_M), [this] { dropMarker(); });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    tb->addAction(
        add(file, tr("&Export image…"), QKeySequence(tr("Ctrl+E")), [this] { exportDialog(); }));
    add(file, tr("Copy image to clip&board"), QKeySequence(tr("Ctrl+Shift+C")),
        [this] { copyImage(); });
    file->addSeparator();
    add(file, tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    tb->addSeparator();
    tb->addAction(add(view, tr("&Reset zoom"), QKeySequence(Qt::Key_Home),
                      [this] { m_timeline->resetZoom(); }));
    tb->addAction(add(view, tr("&Previous event"), QKeySequence(Qt::Key_P),
                      [this] { stepEvent(-1, false); }));
    tb->addAction(
        add(view, tr("&Next event"), QKeySequence(Qt::Key_N), [this] { stepEvent(1, false); }));
    add(view, tr("Previous event of the selected kind"), QKeySequence(tr("Shift+P")),
        [this] { stepEvent(-1, true); });
    add(view, tr("Next event of the selected kind"), QKeySequence(tr("Shift+N")),
        [this] { stepEvent(1, true); });
    view->addSeparator();
    add(view, tr("&Find in log"), QKeySequence::Find, [this] {
        if (!m_panes.isEmpty()) {
            m_panes.front()->view()->searchField()->setFocus();
            m_panes.front()->view()->searchField()->selectAll();
        }
    });
    add(view, tr("Find next"), QKeySequence::FindNext, [this] {
        for (LogPane *p : m_panes) {
            p->view()->findNext();
        }
    });
    add(view, tr("Find previous"), QKeySequence::FindPrevious, [this] {
        for (LogPane *p : m_panes) {
            p->view()->findPrevious();
        }
    });
    add(view, tr("Align on the current log line"), QKeySequence(tr("Ctrl+L")),
        [this] { alignOnCurrentLine(); });
    add(view, tr("Add a &pattern lane…"), QKeySequence(tr("Ctrl+Shift+L")), [this] {
        bool ok = false;
        const QString re = QInputDialog::getText(
            this, tr("Pattern lane"), tr("Regex (matches per second; intervals in the metrics):"),
            QLineEdit::Normal, QString(), &ok);
        if (ok && !re.isEmpty()) {
            addPatternLane(re);
        }
    });
    add(view, tr("Remove pattern lanes"), QKeySequence(), [this] { setPatterns({}); });
    view->addSeparator();
    m_lanesMenu = view->addMenu(tr("&Lanes"));
    for (int l = 0; l < TimelineView::LaneCount; ++l) {
        QAction *a = m_lanesMenu->addAction(TimelineView::laneName(TimelineView::Lane(l)));
        a->setCheckable(true);
        a->setChecked(true);
        connect(a, &QAction::toggled, this,
                [this, l](bool on) { m_timeline->setLaneVisible(TimelineView::Lane(l), on); });
    }
    // After the fixed lanes (the saved settings keep lanes by their place in this menu).
    m_sourceLaneAction = m_lanesMenu->addAction(tr("wire time by source"));
    m_sourceLaneAction->setCheckable(true);
    m_sourceLaneAction->setChecked(true);
    m_sourceLaneAction->setToolTip(
        tr("A stacked lane of the top sources' share of the UART over time, per side"));
    connect(m_sourceLaneAction, &QAction::toggled, this, [this] { showSourceLanes(); });
    m_sourcesPanel->setLaneAction(m_sourceLaneAction);
    QMenu *themes = view->addMenu(tr("&Theme"));
    auto *themeGroup = new QActionGroup(this);
    const QString current =
        QSettings().value(QStringLiteral("view/theme"), QStringLiteral("system")).toString();
    for (const auto &[name, title] : {std::pair{"system", "Follow the system"},
                                      std::pair{"light", "Light"}, std::pair{"dark", "Dark"}}) {
        QAction *a = themes->addAction(tr(title));
        a->setCheckable(true);
        a->setChecked(current == QLatin1String(name));
        themeGroup->addAction(a);
        connect(a, &QAction::triggered, this, [n = QString::fromLatin1(name)] {
            applyTheme(n);
            QSettings().setValue(QStringLiteral("view/theme"), n);
        });
    }
    QMenu *colors = view->addMenu(tr("&Runs"));
    for (int i = 0; i < 2; ++i) {
        QAction *a = colors->addAction(i == 0 ? tr("Rename run A…") : tr("Rename run B…"));
        connect(a, &QAction::triggered, this, [this, i] {
            if (i >= m_session.sides.size()) {
                return;
            }
            bool ok = false;
            const QString label = QInputDialog::getText(
                this, tr("Rename"), tr("Label:"), QLineEdit::Normal, m_session.sides[i].label, &ok);
            if (ok && !label.isEmpty()) {
                m_session.sides[i].label = label;
                setSession(m_session);
            }
        });
    }
    colors->addSeparator();
    for (int i = 0; i < 2; ++i) {
        QAction *a = colors->addAction(i == 0 ? tr("Colour of run A…") : tr("Colour of run B…"));
        connect(a, &QAction::triggered, this, [this, i] {
            const QColor c = QColorDialog::getColor(runColor(i), this);
            if (c.isValid()) {
                QSettings().setValue(i == 0 ? QStringLiteral("colors/runA")
                                            : QStringLiteral("colors/runB"),
                                     c.name());
                setSession(m_session);
            }
        });
    }
    colors->addSeparator();
    for (int i = 0; i < 2; ++i) {
        QAction *a =
            colors->addAction(i == 0 ? tr("Baud rate of run A…") : tr("Baud rate of run B…"));
        connect(a, &QAction::triggered, this, [this, i] { askSideBaud(i); });
    }
    colors->addSeparator();
    QAction *resetColors = colors->addAction(tr("Default colours"));
    connect(resetColors, &QAction::triggered, this, [this] {
        QSettings().remove(QStringLiteral("colors"));
        setSession(m_session);
    });
    // Serial consoles carry escape sequences (ESC c, ESC[2J, colours): hidden by default as
    // a terminal hides them, shown dim on request.
    m_showControls = view->addAction(tr("Show &escape sequences in the log"));
    m_showControls->setObjectName(QStringLiteral("showControls"));
    m_showControls->setCheckable(true);
    connect(m_showControls, &QAction::toggled, this, [this](bool on) {
        for (LogPane *p : m_panes) {
            p->view()->model()->setShowControls(on);
        }
    });
    // The kernel time column shows each line's timestamp; in the text too it left a narrow
    // pane little room for the message. Shown on request, as the console printed it.
    m_timesInText = view->addAction(tr("Kernel &timestamps in the log text"));
    m_timesInText->setObjectName(QStringLiteral("timesInText"));
    m_timesInText->setCheckable(true);
    connect(m_timesInText, &QAction::toggled, this, [this](bool on) {
        for (LogPane *p : m_panes) {
            p->view()->model()->setTimesInText(on);
        }
    });
    view->addAction(m_eventDock->toggleViewAction());
    view->addAction(m_metricsDock->toggleViewAction());
    add(view, tr("&Full screen"), QKeySequence(Qt::Key_F11),
        [this] { setWindowState(windowState() ^ Qt::WindowFullScreen); });

    tb->addSeparator();
    tb->addWidget(new QLabel(tr(" Align: "), this));
    m_align = new QComboBox(this);
    m_align->addItem(tr("start of capture"), QStringLiteral("start"));
    m_align->addItem(tr("first kernel line"), QStringLiteral("boot"));
    m_align->addItem(tr("first panic"), QStringLiteral("panic"));
    m_align->addItem(tr("first drop"), QStringLiteral("drop"));
    m_align->addItem(tr("first match of…"), QStringLiteral("regex"));
    m_align->setToolTip(
        tr("What time zero is for every run (Ctrl+L aligns on the current log line)"));
    tb->addWidget(m_align);
    m_alignRegex = new QLineEdit(this);
    m_alignRegex->setPlaceholderText(tr("regex, e.g. harness: insmod"));
    m_alignRegex->setMaximumWidth(220);
    m_alignRegex->setEnabled(false);
    tb->addWidget(m_alignRegex);
    auto applyAlign = [this] {
        const QString kind = m_align->currentData().toString();
        m_alignRegex->setEnabled(kind == QLatin1String("regex"));
        if (kind == QLatin1String("regex") && m_alignRegex->text().isEmpty()) {
            return;
        }
        Alignment a;
        QString error;
        if (Alignment::parse(kind == QLatin1String("regex")
                                 ? QStringLiteral("regex:") + m_alignRegex->text()
                                 : kind,
                             &a, &error)) {
            setAlignment(a);
        } else {
            m_notices->show(NoticeBar::Level::Error, error.toHtmlEscaped());
        }
    };
    connect(m_align, &QComboBox::activated, this, applyAlign);
    connect(m_alignRegex, &QLineEdit::editingFinished, this, applyAlign);
    tb->addWidget(new QLabel(tr("  Time: "), this));
    m_axisMode = new QComboBox(this);
    m_axisMode->addItem(tr("seconds"));
    m_axisMode->addItem(tr("wall clock"));
    m_axisMode->addItem(tr("kernel time"));
    tb->addWidget(m_axisMode);
    connect(m_axisMode, &QComboBox::activated, this, [this](int i) {
        const double lo = m_timeline->xLower(), hi = m_timeline->xUpper();
        m_timeline->setTimeAxisMode(TimeAxisMode(i));
        m_timeline->setXRange(lo, hi);
        for (LogPane *p : m_panes) {
            p->view()->setWallClock(i == 1);
        }
    });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    add(help, tr("&Keyboard shortcuts"), QKeySequence::HelpContents, [this] { showShortcuts(); });
    add(help, tr("&About ttyscope"), QKeySequence(), [this] { showAbout(); });
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = WindowSettings::recent();
    for (const QString &r : recent) {
        QAction *a = m_recentMenu->addAction(r.size() > 80 ? QStringLiteral("…") + r.right(78) : r);
        connect(a, &QAction::triggered, this, [this, r] { openFiles({r}); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::showShortcuts()
{
    QStringList rows;
    for (QAction *a : actions()) {
        if (!a->shortcut().isEmpty()) {
            rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                             a->text().remove(u'&').toHtmlEscaped());
        }
    }
    rows
        << tr("<tr><td><b>Mouse wheel</b></td><td>Zoom the timeline around the cursor</td></tr>")
        << tr("<tr><td><b>Drag</b></td><td>Pan the timeline</td></tr>")
        << tr("<tr><td><b>Right drag / Shift+drag</b></td><td>Zoom to the selected range</td></tr>")
        << tr("<tr><td><b>Click a marker</b></td><td>Show its line in the log</td></tr>")
        << tr("<tr><td><b>Click the timeline</b></td><td>Move the log to that moment</td></tr>");
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard shortcuts"));
    box.setText(QStringLiteral("<table cellspacing=6>%1</table>").arg(rows.join(QString())));
    box.exec();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About ttyscope"), aboutText());
}

} // namespace tty
