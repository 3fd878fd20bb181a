// Value axis ticks for short lanes: few ticks, with compact labels ("2k", "1.5M") so that
// they stay narrow and never print on top of each other.
#pragma once

#include <qcustomplot.h>

namespace tty {

// "0", "500", "2k", "1.5k", "15k", "2M", "0.25": at most 3 significant digits.
QString compactNumber(double v);

class CompactTicker : public QCPAxisTicker
{
public:
    CompactTicker() { setTickCount(3); }

protected:
    // A step of 1, 2, 2.5 or 5 × 10^n rounded up, never down: at most tickCount() + 1
    // ticks, so a 60 px lane gets three labels, not five.
    double getTickStep(const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;
};

} // namespace tty
