#include "livebar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace tty {

namespace {
// Magic SysRq keys people use on a serial console (drivers/tty/sysrq.c).
const struct
{
    char key;
    const char *what;
} kSysrq[] = {{'t', "t — show tasks"},
              {'w', "w — show blocked tasks"},
              {'l', "l — backtrace of all CPUs"},
              {'m', "m — show memory"},
              {'d', "d — show held locks"},
              {'s', "s — sync"},
              {'u', "u — remount read-only"},
              {'9', "9 — loglevel 9"},
              {'c', "c — crash (panic)"},
              {'b', "b — reboot"},
              {'h', "h — help"}};
constexpr int kHistory = 100;
} // namespace

LiveBar::LiveBar(QWidget *parent) : QWidget(parent)
{
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    auto *row1 = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_follow = new QCheckBox(tr("Follow"), this);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest data in view; zooming or scrolling back pauses it"));
    auto *marker = new QPushButton(tr("Marker (M)"), this);
    marker->setToolTip(tr(
        "Put a marker at this moment, with optional text, on the timeline and in the recording"));
    m_stop = new QPushButton(tr("Stop capture"), this);
    row1->addWidget(m_status, 1);
    row1->addWidget(m_follow);
    row1->addWidget(marker);
    row1->addWidget(m_stop);
    v->addLayout(row1);
    auto *row2 = new QHBoxLayout;
    m_input = new QLineEdit(this);
    m_input->setPlaceholderText(tr("Type to the console, Enter sends (↑/↓ history)"));
    m_input->installEventFilter(this);
    auto *send = new QPushButton(tr("Send"), this);
    m_sysrq = new QComboBox(this);
    for (const auto &k : kSysrq) {
        m_sysrq->addItem(QString::fromUtf8(k.what), QChar::fromLatin1(k.key));
    }
    auto *brk = new QPushButton(tr("BREAK + key"), this);
    brk->setToolTip(tr("Magic SysRq over serial: a BREAK, then the key"));
    row2->addWidget(m_input, 1);
    row2->addWidget(send);
    row2->addWidget(new QLabel(tr("SysRq:"), this));
    row2->addWidget(m_sysrq);
    row2->addWidget(brk);
    v->addLayout(row2);

    m_history = QSettings().value(QStringLiteral("capture/history")).toStringList();
    m_historyPos = int(m_history.size());
    connect(m_input, &QLineEdit::returnPressed, this, &LiveBar::submit);
    connect(send, &QPushButton::clicked, this, &LiveBar::submit);
    connect(brk, &QPushButton::clicked, this,
            [this] { emit sendBreak(m_sysrq->currentData().toChar().toLatin1()); });
    connect(marker, &QPushButton::clicked, this, &LiveBar::markerRequested);
    connect(m_stop, &QPushButton::clicked, this, &LiveBar::stopRequested);
    connect(m_follow, &QCheckBox::toggled, this, &LiveBar::followToggled);
}

void LiveBar::submit()
{
    const QString text = m_input->text();
    if (!text.isEmpty() && (m_history.isEmpty() || m_history.back() != text)) {
        m_history << text;
        while (m_history.size() > kHistory) {
            m_history.removeFirst();
        }
        QSettings().setValue(QStringLiteral("capture/history"), m_history);
    }
    m_historyPos = int(m_history.size());
    // A terminal sends CR for Enter; the tty turns it into a newline for the shell.
    emit sendText(text.toUtf8() + '\r');
    m_input->clear();
}

bool LiveBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if ((key == Qt::Key_Up || key == Qt::Key_Down) && !m_history.isEmpty()) {
            m_historyPos =
                std::clamp(m_historyPos + (key == Qt::Key_Up ? -1 : 1), 0, int(m_history.size()));
            m_input->setText(m_historyPos < m_history.size() ? m_history[m_historyPos] : QString());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void LiveBar::setFollowing(bool on)
{
    if (m_follow->isChecked() != on) {
        m_follow->setChecked(on);
    }
}

bool LiveBar::following() const
{
    return m_follow->isChecked();
}
void LiveBar::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString LiveBar::statusText() const
{
    return m_status->text();
}

void LiveBar::setRunning(bool running)
{
    m_stop->setEnabled(running);
    m_input->setEnabled(running);
}

} // namespace tty
