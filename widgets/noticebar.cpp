#include "noticebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace tty {

NoticeBar::NoticeBar(QWidget *parent) : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    auto *l = new QHBoxLayout(this);
    l->setContentsMargins(8, 4, 4, 4);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    l->addWidget(m_label, 1);
    l->addWidget(close, 0, Qt::AlignTop);
    connect(close, &QToolButton::clicked, this, &NoticeBar::clear);
    QFrame::hide();
}

void NoticeBar::show(Level level, const QString &html)
{
    const char *bg = level == Level::Error     ? "#f8d7da"
                     : level == Level::Warning ? "#fff3cd"
                                               : "#d1ecf1";
    setStyleSheet(QStringLiteral("tty--NoticeBar { background: %1; } QLabel { color: #222; }")
                      .arg(QLatin1String(bg)));
    m_label->setText(html);
    QFrame::show();
}

QString NoticeBar::text() const
{
    return m_label->text();
}

void NoticeBar::clear()
{
    m_label->clear();
    QFrame::hide();
}

} // namespace tty
