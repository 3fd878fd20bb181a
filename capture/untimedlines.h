// Lines of a stamped format (hostts, grabserial, tio) that came without a stamp: those
// before the first stamp have no time at all, later ones keep the stamp before them. One
// count and one wording for every such format.
#pragma once

#include "types.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace tty {

struct UntimedLines
{
    std::int64_t beforeFirst = 0; // before the first stamp: no time
    std::int64_t later = 0;       // after it: the time of the line before
    std::optional<LineIndex> firstLater;

    // A line without a stamp; `stamped` says whether a stamp came before it.
    void count(bool stamped, std::optional<LineIndex> line = std::nullopt)
    {
        if (!stamped) {
            ++beforeFirst;
        } else if (later++ == 0) {
            firstLater = line;
        }
    }

    // lines: what was counted ("line(s)", "line(s) with text"); stamp: whose stamp
    // ("host", "grabserial", "tio"). The first later line is named when it was given.
    QStringList warnings(const QString &lines, const QString &stamp) const
    {
        QStringList w;
        if (beforeFirst > 0) {
            w << QStringLiteral("the first %1 %2 had no %3 timestamp: when they came is not "
                                "known")
                     .arg(QString::number(beforeFirst), lines, stamp);
        }
        if (later > 0) {
            w << QStringLiteral("%1 %2 had no %3 timestamp%4; they were kept with the time of "
                                "the line before")
                     .arg(QString::number(later), lines, stamp,
                          firstLater
                              ? QStringLiteral(" (first: line %1)").arg(lineNumber(*firstLater))
                              : QString());
        }
        return w;
    }
};

} // namespace tty
