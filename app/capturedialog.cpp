#include "capturedialog.h"

#include "live/recordingwriter.h"
#include "runloader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>

namespace tty {

CaptureDialog::CaptureDialog(bool haveReference, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Capture a console"));
    auto *form = new QFormLayout(this);
    QSettings s;

    auto *portRow = new QHBoxLayout;
    m_port = new QComboBox(this);
    m_port->setEditable(true);
    m_port->setMinimumWidth(320);
    m_port->setToolTip(tr("A serial port, a pseudo-terminal (/dev/pts/N, e.g. qemu -serial pty) "
                          "or a network console: rfc2217://host:port (ser2net telnet(rfc2217): "
                          "line settings and BREAK over the network), telnet://host:port, "
                          "tcp://host:port (raw), or the kernel's netconsole: udp://:port"));
    auto *rescan = new QPushButton(tr("Rescan"), this);
    portRow->addWidget(m_port, 1);
    portRow->addWidget(rescan);
    form->addRow(tr("Port"), portRow);
    connect(rescan, &QPushButton::clicked, this, &CaptureDialog::refreshPorts);

    m_baud = new QComboBox(this);
    m_baud->setEditable(true);
    m_baud->setValidator(new QIntValidator(50, 20000000, this));
    for (int b : {9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1500000, 3000000}) {
        m_baud->addItem(QString::number(b));
    }
    m_baud->setCurrentText(s.value(QStringLiteral("capture/baud"), 115200).toString());
    form->addRow(tr("Baud rate"), m_baud);

    auto *line = new QHBoxLayout;
    m_dataBits = new QComboBox(this);
    m_dataBits->addItems(
        {QStringLiteral("8"), QStringLiteral("7"), QStringLiteral("6"), QStringLiteral("5")});
    m_parity = new QComboBox(this);
    m_parity->addItems({QStringLiteral("none"), QStringLiteral("even"), QStringLiteral("odd"),
                        QStringLiteral("mark"), QStringLiteral("space")});
    m_stopBits = new QComboBox(this);
    m_stopBits->addItems({QStringLiteral("1"), QStringLiteral("2")});
    m_flow = new QComboBox(this);
    m_flow->addItems({QStringLiteral("none"), QStringLiteral("rtscts"), QStringLiteral("xonxoff"),
                      QStringLiteral("dtrdsr")});
    m_dataBits->setCurrentText(
        s.value(QStringLiteral("capture/dataBits"), QStringLiteral("8")).toString());
    m_parity->setCurrentText(
        s.value(QStringLiteral("capture/parity"), QStringLiteral("none")).toString());
    m_stopBits->setCurrentText(
        s.value(QStringLiteral("capture/stopBits"), QStringLiteral("1")).toString());
    m_flow->setCurrentText(
        s.value(QStringLiteral("capture/flow"), QStringLiteral("none")).toString());
    line->addWidget(new QLabel(tr("data"), this));
    line->addWidget(m_dataBits);
    line->addWidget(new QLabel(tr("parity"), this));
    line->addWidget(m_parity);
    line->addWidget(new QLabel(tr("stop"), this));
    line->addWidget(m_stopBits);
    line->addWidget(new QLabel(tr("flow"), this));
    line->addWidget(m_flow);
    form->addRow(tr("Line"), line);

    m_label = new QLineEdit(s.value(QStringLiteral("capture/label")).toString(), this);
    m_label->setPlaceholderText(tr("e.g. 6.12-rc3 + printk patch v5"));
    form->addRow(tr("Label"), m_label);

    auto *outRow = new QHBoxLayout;
    const QString dir = s.value(QStringLiteral("capture/dir"),
                                QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                            .toString();
    m_output =
        new QLineEdit(QDir(dir).filePath(QLatin1String(RecordingWriter::kDefaultTemplate)), this);
    m_output->setToolTip(
        tr("%Y %m %d %H %M %S and {label} are filled in; an existing file is never overwritten"));
    auto *browse = new QPushButton(tr("Folder…"), this);
    outRow->addWidget(m_output, 1);
    outRow->addWidget(browse);
    form->addRow(tr("Recording"), outRow);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Folder for recordings"),
                                                            QFileInfo(m_output->text()).path());
        if (!d.isEmpty()) {
            m_output->setText(QDir(d).filePath(QFileInfo(m_output->text()).fileName()));
        }
    });

    m_reference = new QCheckBox(tr("Compare with the run that is open now"), this);
    m_reference->setEnabled(haveReference);
    m_reference->setChecked(haveReference &&
                            s.value(QStringLiteral("capture/reference"), false).toBool());
    form->addRow(QString(), m_reference);

    m_error = new QLabel(this);
    m_error->setStyleSheet(QStringLiteral("color: #c00"));
    m_error->setWordWrap(true);
    form->addRow(m_error);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    box->button(QDialogButtonBox::Ok)->setText(tr("Start capture"));
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, this, &CaptureDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);

    refreshPorts();
    const QString last = s.value(QStringLiteral("capture/port")).toString();
    if (!last.isEmpty()) {
        m_port->setCurrentText(last);
    }
}

void CaptureDialog::refreshPorts()
{
    const QString current = m_port->currentText();
    m_port->clear();
    QString error;
    for (const PortInfo &p : listPorts(&error)) {
        QString text = p.name;
        QStringList about;
        if (!p.description.isEmpty() && p.description != QFileInfo(p.name).fileName()) {
            about << p.description;
        }
        if (p.usb) {
            about << QStringLiteral("USB ") + p.usbIdText();
        }
        m_port->addItem(about.isEmpty()
                            ? text
                            : QStringLiteral("%1 — %2").arg(text, about.join(QStringLiteral(", "))),
                        p.name);
    }
    if (!error.isEmpty()) {
        m_error->setText(error);
    }
    m_port->setCurrentText(current);
}

bool CaptureDialog::options(CaptureOptions *o, QString *error) const
{
    QString port = m_port->currentData().toString();
    if (port.isEmpty() || m_port->currentText() != m_port->itemText(m_port->currentIndex())) {
        port = m_port->currentText().section(QStringLiteral(" — "), 0, 0).trimmed();
    }
    if (port.isEmpty()) {
        *error = tr("Choose or type a port.");
        return false;
    }
    o->port = port;
    o->settings.baud = m_baud->currentText().toInt();
    // A rate other than ttyscope's default was chosen: the recording states it, also for a
    // pseudo-terminal or a TCP console, which it does not pace. The default left as it is
    // states nothing there (a report then checks it against the bytes, as for
    // `ttyscope capture` without --baud); a serial port is set to it and states it anyway.
    o->baudGiven = o->settings.baud != kDefaultBaud;
    o->settings.dataBits = m_dataBits->currentText().toInt();
    o->settings.stopBits = m_stopBits->currentText().toInt();
    parityFromName(m_parity->currentText(), &o->settings.parity);
    flowFromName(m_flow->currentText(), &o->settings.flow);
    if (!checkSettings(o->settings, error)) {
        return false;
    }
    o->label = m_label->text().isEmpty() ? QFileInfo(port).fileName() : m_label->text();
    o->output =
        RecordingWriter::expandTemplate(m_output->text(), o->label, QDateTime::currentDateTime());
    return true;
}

bool CaptureDialog::compareWithReference() const
{
    return m_reference->isChecked();
}

void CaptureDialog::accept()
{
    CaptureOptions o;
    QString error;
    if (!options(&o, &error)) {
        m_error->setText(error);
        return;
    }
    QSettings s;
    s.setValue(QStringLiteral("capture/port"), o.port);
    s.setValue(QStringLiteral("capture/baud"), o.settings.baud);
    s.setValue(QStringLiteral("capture/dataBits"), m_dataBits->currentText());
    s.setValue(QStringLiteral("capture/parity"), m_parity->currentText());
    s.setValue(QStringLiteral("capture/stopBits"), m_stopBits->currentText());
    s.setValue(QStringLiteral("capture/flow"), m_flow->currentText());
    s.setValue(QStringLiteral("capture/label"), m_label->text());
    s.setValue(QStringLiteral("capture/dir"), QFileInfo(m_output->text()).path());
    s.setValue(QStringLiteral("capture/reference"), m_reference->isChecked());
    QDialog::accept();
}

} // namespace tty
