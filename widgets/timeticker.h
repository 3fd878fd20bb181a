// Axis labels for the shared time axis: seconds from the start (or from the alignment
// event), wall-clock time, or kernel time.
#pragma once

#include <qcustomplot.h>

namespace tty {

enum class TimeAxisMode { Relative, WallClock, Kernel };

class TimeTicker : public QCPAxisTicker
{
public:
    void setMode(TimeAxisMode m) { m_mode = m; }
    TimeAxisMode mode() const { return m_mode; }
    // Unix seconds at x = 0 (wall clock), kernel seconds at x = 0 (kernel time).
    void setWallOrigin(double unixSeconds) { m_wall0 = unixSeconds; }
    void setKernelOrigin(double kernelSeconds) { m_kernel0 = kernelSeconds; }

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;

private:
    TimeAxisMode m_mode = TimeAxisMode::Relative;
    double m_wall0 = 0;
    double m_kernel0 = 0;
};

} // namespace tty
