// Colours and marker shapes shared by every view and export, so that a run or an event
// kind looks the same everywhere.
#pragma once

#include "event.h"

#include <QColor>
#include <QVector>

#include <qcustomplot.h>

namespace tty {

struct KindStyle
{
    QColor color;
    QCPScatterStyle::ScatterShape shape;
    int size;
};

// Colour of run / group i (A, B, ...): chosen to stay apart in light and dark themes and
// for the common colour-vision deficiencies (blue / orange first).
QColor runColor(int i);
// The colours of sides 0 .. n-1.
QVector<QColor> runColors(int n);
KindStyle kindStyle(EventKind k);
// Colours of the sources of a stacked lane (i: the source's place, 0 the largest) and of
// its "other" band: twelve that stay apart on both themes, lighter on the dark one.
constexpr int kSourceColorCount = 12;
QColor sourceColor(int i);
QColor otherSourceColor();
// True when the application palette is dark (text lighter than the window).
bool darkTheme();
QColor plotForeground();
QColor plotBackground();
QColor plotGrid();

} // namespace tty
