// Names for what is compared: a side's default label and a trial's source, the same in the
// window, the pictures and the reports.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace tty {

struct Trial;

// What names have in common, with '*' for what differs: "run-t*.log.zst".
QString commonLabel(const QStringList &names);
// A side's label when none is given: the run's label (the recording's, else the file name)
// when every trial comes from one run; else what the runs' labels have in common
// ("k612-t*.log").
QString defaultLabel(const QVector<Trial> &trials);

} // namespace tty
