// Choosing boots of a multi-boot capture as trials: a console server's log of many boots
// holds the trials of both kernels, or of quiet and verbose boots.
#pragma once

#include "run.h"

#include <QString>

#include <utility>
#include <vector>

namespace tty {

// A selection, as written on the command line and in the GUI:
//   all          every boot
//   1-3,7        boots by number (1-based), ranges and single numbers
//   /REGEX/      boots that print a line matching REGEX (e.g. /Command line:.*quiet/)
//   !/REGEX/     boots that print no such line
struct BootSelector
{
    enum class Kind { All, Numbers, Matching, NotMatching } kind = Kind::All;
    std::vector<std::pair<int, int>> ranges; // 1-based, inclusive
    QString regex;

    // False with a message on a malformed selector.
    static bool parse(const QString &spec, BootSelector *out, QString *error);
    // The chosen boots of a run, 0-based, in order.
    std::vector<int> select(const Run &run) const;
};

} // namespace tty
