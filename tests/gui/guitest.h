// Helpers for the offscreen GUI tests.
#pragma once

#include "timelineview.h"

#include <QColor>
#include <QImage>
#include <QRect>
#include <QString>

#include <qcustomplot.h>

namespace guitest {

inline QString sample(const char *name)
{
    return QStringLiteral(TTYSCOPE_SAMPLES "/") + QLatin1String(name);
}

// Pixels in `area` whose colour is within `tolerance` of `c`.
inline int countColor(const QImage &img, const QRect &area, const QColor &c, int tolerance = 40)
{
    int n = 0;
    const QRect r = area.intersected(img.rect());
    for (int y = r.top(); y <= r.bottom(); ++y) {
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor p = img.pixelColor(x, y);
            if (std::abs(p.red() - c.red()) + std::abs(p.green() - c.green()) +
                    std::abs(p.blue() - c.blue()) <=
                tolerance) {
                ++n;
            }
        }
    }
    return n;
}

// Pixels of a run's colour: drawn solid, or half transparent over the background as
// overlaid trials of a group are.
inline int countRunColor(const QImage &img, const QRect &area, const QColor &c, const QColor &bg)
{
    const double a = 150.0 / 255.0;
    const QColor blended(int(c.red() * a + bg.red() * (1 - a)),
                         int(c.green() * a + bg.green() * (1 - a)),
                         int(c.blue() * a + bg.blue() * (1 - a)));
    return countColor(img, area, c) + countColor(img, area, blended, 50);
}

// Pixels that differ from the background colour.
inline int countInk(const QImage &img, const QRect &area, const QColor &background)
{
    const QRect r = area.intersected(img.rect());
    return r.width() * r.height() - countColor(img, r, background, 10);
}

// Sum of a lane's values weighted by bin width over the whole data (steps: the last
// point only closes the last bin).
inline double integrate(QCPGraph *g)
{
    double s = 0;
    auto d = g->data();
    for (int i = 0; i + 1 < d->size(); ++i) {
        s += d->at(i)->value * (d->at(i + 1)->key - d->at(i)->key);
    }
    return s;
}

} // namespace guitest
