// The controls of a live capture: follow, marker, stop, and talking to the console (an
// input line with history, BREAK + a magic SysRq key).
#pragma once

#include <QStringList>
#include <QWidget>

class QLineEdit;
class QComboBox;
class QCheckBox;
class QLabel;
class QPushButton;

namespace tty {

class LiveBar : public QWidget
{
    Q_OBJECT
public:
    explicit LiveBar(QWidget *parent = nullptr);
    void setFollowing(bool on);
    bool following() const;
    void setStatus(const QString &text);
    QString statusText() const;
    void setRunning(bool running);
    QLineEdit *input() const { return m_input; }

signals:
    void sendText(const QByteArray &bytes);
    void sendBreak(char key);
    void markerRequested();
    void stopRequested();
    void followToggled(bool on);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void submit();

    QLineEdit *m_input;
    QComboBox *m_sysrq;
    QCheckBox *m_follow;
    QLabel *m_status;
    QPushButton *m_stop;
    QStringList m_history;
    int m_historyPos = 0;
};

} // namespace tty
