// A dismissable message strip at the top of the window: what went wrong while loading and
// what was kept. Non-modal, so it never blocks the user (or a test). A long message (many
// files, each with warnings) scrolls inside the strip, which never grows past a few lines:
// the timeline below keeps the window.
#pragma once

#include <QFrame>

class QLabel;
class QScrollArea;

namespace tty {

class NoticeBar : public QFrame
{
    Q_OBJECT
public:
    explicit NoticeBar(QWidget *parent = nullptr);
    enum class Level { Info, Warning, Error };
    void show(Level level, const QString &html);
    // Lines of plain text (file names, messages with quotes and '<') as the HTML show()
    // takes: each escaped, one under the other.
    static QString linesAsHtml(const QStringList &plain);
    QString text() const;
    void clear();

    // The most lines of text the strip shows before it scrolls.
    static constexpr int kMaxLines = 6;

protected:
    void resizeEvent(QResizeEvent *e) override;

private:
    void fitHeight();

    QLabel *m_label;
    QScrollArea *m_scroll;
};

} // namespace tty
