#include "noticebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>

#include <algorithm>

namespace tty {

NoticeBar::NoticeBar(QWidget *parent) : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    auto *l = new QHBoxLayout(this);
    l->setContentsMargins(8, 4, 4, 4);
    m_label = new QLabel;
    // Always HTML: left to guess (Qt::AutoText), an escaped message without a tag in it
    // showed its entities ("&quot;") as they are.
    m_label->setTextFormat(Qt::RichText);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_scroll = new QScrollArea(this);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(m_label);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    l->addWidget(m_scroll, 1);
    l->addWidget(close, 0, Qt::AlignTop);
    connect(close, &QToolButton::clicked, this, &NoticeBar::clear);
    QFrame::hide();
}

void NoticeBar::show(Level level, const QString &html)
{
    const char *bg = level == Level::Error     ? "#f8d7da"
                     : level == Level::Warning ? "#fff3cd"
                                               : "#d1ecf1";
    // The scroll area and its viewport show the strip's colour through them; the text and
    // the close button are dark on it whatever the theme (a dark theme's light ✕ vanished).
    setStyleSheet(QStringLiteral("tty--NoticeBar { background: %1; }"
                                 " QLabel, QToolButton { color: #222; }"
                                 " QScrollArea, QScrollArea > QWidget > QWidget"
                                 " { background: transparent; }")
                      .arg(QLatin1String(bg)));
    m_label->setText(html);
    QFrame::show();
    fitHeight();
}

QString NoticeBar::linesAsHtml(const QStringList &plain)
{
    QStringList escaped;
    escaped.reserve(plain.size());
    for (const QString &line : plain) {
        escaped << line.toHtmlEscaped();
    }
    // Spaces kept as written ("[    0.0400]"), the lines still wrapped to the strip's width.
    return QStringLiteral("<span style=\"white-space: pre-wrap\">%1</span>")
        .arg(escaped.join(QStringLiteral("<br>")));
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

void NoticeBar::resizeEvent(QResizeEvent *e)
{
    QFrame::resizeEvent(e);
    fitHeight();
}

// As tall as the wrapped text at the strip's width, up to kMaxLines lines; beyond, it
// scrolls (the scroll bar takes some of the width, which the text is wrapped to then).
void NoticeBar::fitHeight()
{
    const int most = kMaxLines * m_label->fontMetrics().lineSpacing();
    int width = m_scroll->width();
    int needed = m_label->heightForWidth(width);
    if (needed > most) {
        width -= m_scroll->verticalScrollBar()->sizeHint().width();
        needed = m_label->heightForWidth(width);
    }
    m_scroll->setFixedHeight(std::clamp(needed, m_label->fontMetrics().lineSpacing(), most));
}

} // namespace tty
