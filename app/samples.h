// The bundled sample comparison (resources/samples) and the About text.
#pragma once

#include "metrics.h"

#include <QStringList>
#include <QVector>

namespace tty {

struct SampleSet
{
    QVector<QStringList> sides;
    QStringList labels;
    QString alignment;
    MetricOptions metrics;
    QStringList searched; // where it was looked for (for the message when missing)
};

// Looks in $TTYSCOPE_SAMPLE_DIR, next to the installed binary (../share/ttyscope/samples)
// and in the source tree.
SampleSet bundledSample();
QString aboutText();

} // namespace tty
