#include "timeticker.h"

#include <QDateTime>

namespace tty {

QString TimeTicker::getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                                 int precision)
{
    switch (m_mode) {
    case TimeAxisMode::Relative:
        return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision);
    case TimeAxisMode::WallClock: {
        const QDateTime t =
            QDateTime::fromMSecsSinceEpoch(qint64((m_wall0 + tick) * 1000.0), Qt::UTC);
        return t.toString(precision > 0 ? QStringLiteral("HH:mm:ss.zzz")
                                        : QStringLiteral("HH:mm:ss"));
    }
    case TimeAxisMode::Kernel:
        return QStringLiteral("[%1]").arg(m_kernel0 + tick, 0, 'f', std::max(precision, 1));
    }
    return {};
}

} // namespace tty
