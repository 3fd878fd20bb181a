// File ▸ Capture…: pick a port (listed by libserialport, or typed: /dev/pts/N,
// rfc2217://, telnet:// or tcp://host:port), line settings, label and recording file.
#pragma once

#include "live/capturesession.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QCheckBox;
class QLabel;

namespace tty {

class CaptureDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CaptureDialog(bool haveReference, QWidget *parent = nullptr);
    // False with a message when the settings are not valid.
    bool options(CaptureOptions *out, QString *error) const;
    bool compareWithReference() const;

    void accept() override;

private:
    void refreshPorts();

    QComboBox *m_port;
    QComboBox *m_baud;
    QComboBox *m_dataBits;
    QComboBox *m_parity;
    QComboBox *m_stopBits;
    QComboBox *m_flow;
    QLineEdit *m_label;
    QLineEdit *m_output;
    QCheckBox *m_reference;
    QLabel *m_error;
};

} // namespace tty
