#include "logpane.h"

#include "palette.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace tty {

LogPane::LogPane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto *head = new QHBoxLayout;
    m_header = new QLabel(this);
    m_trials = new QComboBox(this);
    // Long file names must not set the window's minimum width.
    m_trials->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_trials->setMinimumContentsLength(16);
    m_header->setMinimumWidth(40);
    head->addWidget(m_header, 1);
    head->addWidget(m_trials);
    layout->addLayout(head);
    m_view = new LogView(this);
    layout->addWidget(m_view, 1);
    connect(m_trials, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && i < m_side.trials.size()) {
            showTrial(m_side.trials[i]);
            emit trialChanged(i);
        }
    });
}

void LogPane::setSide(const Side &side, int sideIndex, int firstTimelineRun)
{
    m_side = side;
    m_firstRun = firstTimelineRun;
    m_header->setText(QStringLiteral("<b style='color:%1'>■ %2</b>")
                          .arg(runColor(sideIndex).name(), side.label.toHtmlEscaped()));
    m_trials->blockSignals(true);
    m_trials->clear();
    for (const Trial &t : side.trials) {
        m_trials->addItem(t.source());
    }
    m_trials->blockSignals(false);
    m_trials->setVisible(side.trials.size() > 1);
    if (side.trials.isEmpty()) {
        m_view->setRun(nullptr);
    } else {
        showTrial(side.trials.front());
    }
}

void LogPane::showTrial(const Trial &trial)
{
    m_view->setRun(trial.run);
    if (const Boot *b = trial.bootOfRun()) {
        m_view->showLine(b->first); // a boot trial opens at its boot, not its capture's start
    }
}

int LogPane::trial() const
{
    return std::max(0, m_trials->currentIndex());
}

void LogPane::setTrial(int trial)
{
    if (trial != m_trials->currentIndex()) {
        m_trials->setCurrentIndex(trial);
    }
}

const Run *LogPane::run() const
{
    return m_view->model()->run();
}

} // namespace tty
