// Which parts of a capture are trials of a side: the whole run, each of its boots (a console
// server's log of a test loop), or the boots a selector chooses ("1-3,7", "/6.12/").
#pragma once

#include "bootselect.h"
#include "session.h"

namespace tty {

struct BootChoice
{
    enum class Mode {
        WholeRun,  // the run is one trial
        EveryBoot, // each boot is a trial when there are several
        Selected,  // the boots `selector` chooses, even when there is one
    };
    Mode mode = Mode::WholeRun;
    BootSelector selector;
};

// The trials `run` contributes to a side; empty when a selector chose none of its boots.
// `source` names the run in labels and reports (a path or a file name).
QVector<Trial> trialsOf(const std::shared_ptr<const Run> &run, const QString &source,
                        const BootChoice &choice);

} // namespace tty
