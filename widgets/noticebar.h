// A dismissable message strip at the top of the window: what went wrong while loading and
// what was kept. Non-modal, so it never blocks the user (or a test).
#pragma once

#include <QFrame>

class QLabel;

namespace tty {

class NoticeBar : public QFrame
{
    Q_OBJECT
public:
    explicit NoticeBar(QWidget *parent = nullptr);
    enum class Level { Info, Warning, Error };
    void show(Level level, const QString &html);
    QString text() const;
    void clear();

private:
    QLabel *m_label;
};

} // namespace tty
