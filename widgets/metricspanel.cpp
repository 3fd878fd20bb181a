#include "metricspanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace tty {

MetricsPanel::MetricsPanel(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto *bootRow = new QHBoxLayout;
    m_bootLabel = new QLabel(tr("Boot:"), this);
    m_boot = new QComboBox(this);
    bootRow->addWidget(m_bootLabel);
    bootRow->addWidget(m_boot, 1);
    layout->addLayout(bootRow);
    m_compareRow = new QWidget(this);
    auto *compare = new QHBoxLayout(m_compareRow);
    compare->setContentsMargins(0, 0, 0, 0);
    m_bootsA = new QLineEdit(m_compareRow);
    m_bootsB = new QLineEdit(m_compareRow);
    const QString tip = tr("Boots to compare: numbers and ranges (1-3,7), /REGEX/ for the boots "
                           "that print a matching line, !/REGEX/ for those that do not.");
    for (QLineEdit *e : {m_bootsA, m_bootsB}) {
        e->setToolTip(tip);
        e->setClearButtonEnabled(true);
    }
    m_bootsA->setPlaceholderText(tr("A: e.g. 1-3"));
    m_bootsB->setPlaceholderText(tr("B: e.g. /quiet/"));
    auto *go = new QPushButton(tr("Compare"), m_compareRow);
    go->setToolTip(tip + tr(" Both empty: the whole capture again."));
    compare->addWidget(new QLabel(tr("Boots:"), m_compareRow));
    compare->addWidget(m_bootsA, 1);
    compare->addWidget(new QLabel(tr("vs"), m_compareRow));
    compare->addWidget(m_bootsB, 1);
    compare->addWidget(go);
    layout->addWidget(m_compareRow);
    auto emitCompare = [this] { emit bootsCompared(m_bootsA->text(), m_bootsB->text()); };
    connect(go, &QPushButton::clicked, this, emitCompare);
    connect(m_bootsB, &QLineEdit::returnPressed, this, emitCompare);
    m_table = new MetricsTable(this);
    layout->addWidget(m_table, 1);
    // Under the table, as under the text report: without them "≈", "[a, b]", "n.s." and a
    // B − A of two boards at different rates are read wrongly.
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont small = m_notes->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_notes->setFont(small);
    m_notes->hide();
    layout->addWidget(m_notes);

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto field = [this, form](const QString &label, const QString &tip) {
        auto *e = new QLineEdit(this);
        e->setToolTip(tip);
        e->setClearButtonEnabled(true);
        form->addRow(label, e);
        connect(e, &QLineEdit::editingFinished, this, &MetricsPanel::optionsChanged);
        return e;
    };
    m_windowStart = field(tr("Window from"),
                          tr("Regex of the line that starts the window; empty = first line"));
    m_window = new QDoubleSpinBox(this);
    m_window->setRange(0.001, 1e7);
    m_window->setDecimals(3);
    m_window->setSuffix(tr(" s"));
    form->addRow(tr("Window length"), m_window);
    connect(m_window, &QDoubleSpinBox::editingFinished, this, &MetricsPanel::optionsChanged);
    m_windowMatch =
        field(tr("Count lines"), tr("Regex: count only matching lines in the window; empty = all"));
    m_spanFrom = field(tr("Span from"), tr("Regex: the span starts when this line was produced"));
    m_spanTo = field(tr("Span to"), tr("Regex: the span ends when this line arrived"));
    m_bootPattern = field(tr("Boot done at"), tr("Regex that ends the boot time"));
    m_interval = field(tr("Interval of"), tr("Regex: statistics of the time between matches"));
    m_error = new QLabel(this);
    m_error->setStyleSheet(QStringLiteral("color: #c00"));
    m_error->setWordWrap(true);
    layout->addLayout(form);
    layout->addWidget(m_error);
    connect(m_boot, &QComboBox::currentIndexChanged, this,
            [this](int i) { emit bootSelected(i > 0 ? std::optional<int>(i - 1) : std::nullopt); });
    setBoots({});
    setBootComparison(false);
}

void MetricsPanel::setBootComparison(bool available)
{
    m_compareRow->setVisible(available);
}

void MetricsPanel::setOptions(const MetricOptions &o)
{
    m_windowStart->setText(o.windowStart);
    m_window->setValue(o.windowSeconds);
    m_windowMatch->setText(o.windowMatch);
    m_spanFrom->setText(o.spans.isEmpty() ? QString() : o.spans.front().first);
    m_spanTo->setText(o.spans.isEmpty() ? QString() : o.spans.front().second);
    m_bootPattern->setText(o.bootPattern);
    m_bootStart = o.bootStart;
    m_interval->setText(o.intervals.isEmpty() ? QString() : o.intervals.front());
}

MetricOptions MetricsPanel::options() const
{
    MetricOptions o;
    QStringList bad;
    auto regex = [&bad](QLineEdit *e) {
        const QString t = e->text();
        if (!QRegularExpression(t).isValid()) {
            bad << t;
            return QString();
        }
        return t;
    };
    o.windowStart = regex(m_windowStart);
    o.windowSeconds = m_window->value();
    o.windowMatch = regex(m_windowMatch);
    const QString from = regex(m_spanFrom), to = regex(m_spanTo);
    if (!from.isEmpty() && !to.isEmpty()) {
        o.spans.append({from, to});
    }
    o.bootPattern = regex(m_bootPattern);
    o.bootStart = m_bootStart.isEmpty() ? o.bootStart : m_bootStart;
    const QString iv = regex(m_interval);
    if (!iv.isEmpty()) {
        o.intervals << iv;
    }
    m_error->setText(bad.isEmpty()
                         ? QString()
                         : tr("invalid regex ignored: %1").arg(bad.join(QStringLiteral(", "))));
    return o;
}

void MetricsPanel::setBoots(const QStringList &boots, std::optional<int> selected)
{
    m_boot->blockSignals(true);
    m_boot->clear();
    m_boot->addItem(tr("whole capture"));
    m_boot->addItems(boots);
    if (selected && *selected >= 0 && *selected < boots.size()) {
        m_boot->setCurrentIndex(*selected + 1);
    }
    m_boot->blockSignals(false);
    m_boot->setVisible(boots.size() > 1);
    m_bootLabel->setVisible(boots.size() > 1);
}

int MetricsPanel::selectedBoot() const
{
    return m_boot->currentIndex() - 1;
}

void MetricsPanel::setReport(const Report &report, const QVector<QColor> &colors)
{
    m_table->setReport(report, colors);
    m_notes->setText(report.footnotes(false));
    m_notes->setVisible(!m_notes->text().isEmpty());
}

QString MetricsPanel::notes() const
{
    return m_notes->text();
}

} // namespace tty
