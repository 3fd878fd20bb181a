// The main window's dialogs: open, compare, capture, export and copy of the figure.
#include "mainwindow.h"

#include "capturedialog.h"
#include "figure.h"
#include "noticebar.h"
#include "palette.h"
#include "timelineview.h"

#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>

namespace tty {

void MainWindow::captureDialog()
{
    CaptureDialog dlg(!m_session.isEmpty() && !capturing(), this);
    if (dlg.exec() != QDialog::Accepted) {
        return;
    }
    CaptureOptions o;
    QString error;
    if (!dlg.options(&o, &error) || !startCapture(o, dlg.compareWithReference(), &error)) {
        m_notices->show(NoticeBar::Level::Error, error.toHtmlEscaped());
    }
}

bool MainWindow::exportFigure(const QString &path, int width, int height, double scale,
                              QString *error)
{
    const std::shared_ptr<const Report> report = currentReport();
    FigureTable table{report.get(), runColors(int(m_session.sides.size()))};
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        return saveFigurePdf(m_timeline, table, path, width, height, error);
    }
    return saveFigurePng(m_timeline, table, path, width, height, scale, error);
}

void MainWindow::exportDialog()
{
    QSettings settings;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export image"),
        settings.value(QStringLiteral("export/last"), QStringLiteral("ttyscope.png")).toString(),
        tr("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty()) {
        return;
    }
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Export size"));
    auto *form = new QFormLayout(&dlg);
    auto *w = new QSpinBox(&dlg);
    w->setRange(400, 10000);
    w->setValue(settings.value(QStringLiteral("export/width"), 1600).toInt());
    auto *h = new QSpinBox(&dlg);
    h->setRange(300, 10000);
    h->setValue(settings.value(QStringLiteral("export/height"), 1100).toInt());
    auto *sc = new QDoubleSpinBox(&dlg);
    sc->setRange(0.5, 4);
    sc->setValue(settings.value(QStringLiteral("export/scale"), 1.0).toDouble());
    form->addRow(tr("Width"), w);
    form->addRow(tr("Height"), h);
    form->addRow(tr("Scale (PNG)"), sc);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dlg);
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, &dlg, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    if (dlg.exec() != QDialog::Accepted) {
        return;
    }
    settings.setValue(QStringLiteral("export/last"), path);
    settings.setValue(QStringLiteral("export/width"), w->value());
    settings.setValue(QStringLiteral("export/height"), h->value());
    settings.setValue(QStringLiteral("export/scale"), sc->value());
    QString error;
    if (!exportFigure(path, w->value(), h->value(), sc->value(), &error)) {
        m_notices->show(NoticeBar::Level::Error, error.toHtmlEscaped());
    } else {
        m_statusText->setText(tr("Exported %1").arg(path));
    }
}

void MainWindow::copyImage()
{
    const std::shared_ptr<const Report> report = currentReport();
    FigureTable table{report.get(), runColors(int(m_session.sides.size()))};
    QApplication::clipboard()->setImage(
        renderFigure(m_timeline, table, 1600, 1100, devicePixelRatioF()));
    m_statusText->setText(tr("Image copied to the clipboard"));
}

void MainWindow::openDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open console logs"), QString(),
        tr("Console logs (*.log *.zst *.txt *.ttyrec *.cap);;All files (*)"));
    if (files.size() == 1) {
        openFiles(files);
    } else if (files.size() > 1) {
        // Several files picked at once: one group of trials.
        openFiles({files.join(QLatin1Char(','))});
    }
}

void MainWindow::askSideBaud(int side)
{
    if (side >= m_session.sides.size()) {
        return;
    }
    const int current = m_session.sides[side].trials.front().run->meta.baud;
    bool ok = false;
    const int baud = QInputDialog::getInt(
        this, tr("Baud rate"),
        tr("Baud rate of run %1's console (8N1): its time on the wire and UART use are "
           "computed at it.")
            .arg(QChar(u'A' + side)),
        current > 0 ? current : 115200, 50, 100000000, 1, &ok);
    QString error;
    if (ok && baud != current && !setSideBaud(side, baud, &error)) {
        m_notices->show(NoticeBar::Level::Warning, error.toHtmlEscaped());
    }
}

bool MainWindow::setSideBaud(int side, int baud, QString *error)
{
    // The files are read again: only when the session is the last open's files, not a
    // capture (whose rate is set when it starts) or a session built otherwise.
    // (A trial names its file without the directory.)
    bool fromFiles = m_pending.sides.size() == m_session.sides.size() && !m_live;
    for (int s = 0; fromFiles && s < m_session.sides.size(); ++s) {
        QStringList names;
        for (const QString &path : m_pending.sides[s]) {
            names << QFileInfo(path).fileName();
        }
        for (const Trial &t : m_session.sides[s].trials) {
            fromFiles = fromFiles && names.contains(t.file);
        }
    }
    if (side < 0 || side >= m_session.sides.size() || !fromFiles) {
        *error = tr("The baud rate of a capture is set when it starts (File ▸ Capture…); "
                    "open its recording to read it at another.");
        return false;
    }
    OpenRequest r = m_pending;
    r.bauds.clear();
    r.labels.clear();
    for (const Side &s : m_session.sides) {
        // The others keep a rate that was given; one their files stated (a recording's
        // header, the kernel's command line) or the default is found again as before (0).
        const RunMeta &meta = s.trials.front().run->meta;
        r.bauds << (meta.baudSource == RunMeta::BaudSource::Given ? meta.baud : 0);
        r.labels << s.label;
    }
    r.bauds[side] = baud;
    r.metrics = m_session.metrics;
    r.alignment = m_session.alignment;
    open(r);
    return true;
}

void MainWindow::compareDialog()
{
    const QStringList a =
        QFileDialog::getOpenFileNames(this, tr("Compare: run A (one file or several trials)"));
    if (a.isEmpty()) {
        return;
    }
    const QStringList b =
        QFileDialog::getOpenFileNames(this, tr("Compare: run B (one file or several trials)"));
    if (b.isEmpty()) {
        return;
    }
    openFiles({a.join(QLatin1Char(',')), b.join(QLatin1Char(','))});
}

} // namespace tty
