// The exported picture: the timeline (title, lanes, legend) and, below it, the metrics
// table. One renderer for the GUI's export and the headless `ttyscope export`, so both
// give the same picture.
#pragma once

#include "report.h"

#include <QColor>
#include <QImage>
#include <QString>
#include <QVector>

namespace tty {

class TimelineView;

struct FigureTable
{
    const Report *report = nullptr;
    QVector<QColor> colors; // per report column
};

// Width and height in logical pixels; scale multiplies them (2 = high-DPI).
QImage renderFigure(TimelineView *view, const FigureTable &table, int width, int height,
                    double scale = 1.0);
bool saveFigurePng(TimelineView *view, const FigureTable &table, const QString &path, int width,
                   int height, double scale, QString *error);
bool saveFigurePdf(TimelineView *view, const FigureTable &table, const QString &path, int width,
                   int height, QString *error);

} // namespace tty
