#include "compactticker.h"

#include <cmath>

namespace tty {

QString compactNumber(double v)
{
    const double a = std::fabs(v);
    if (a < 1e-12) {
        return QStringLiteral("0");
    }
    static const struct
    {
        double scale;
        const char *suffix;
    } kUnits[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    for (const auto &u : kUnits) {
        if (a >= u.scale) {
            return QString::number(v / u.scale, 'g', 3) + QLatin1String(u.suffix);
        }
    }
    return QString::number(v, 'g', 3);
}

double CompactTicker::getTickStep(const QCPRange &range)
{
    const double raw = range.size() / std::max(1, tickCount());
    if (!(raw > 0) || !std::isfinite(raw)) {
        return 1.0;
    }
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / mag;
    const double nice = m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10;
    return nice * mag;
}

QString CompactTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return compactNumber(tick);
}

} // namespace tty
