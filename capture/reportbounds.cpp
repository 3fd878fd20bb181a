// The notes of trials whose counts are lower bounds (≥): a file read only in part, a log
// that ends inside the window, or with the console behind. Each says which trial and why,
// for a report pasted into a review thread must carry it itself.
#include "report.h"

namespace tty {

QStringList Report::lowerBoundNotes() const
{
    bool said = false;
    // The sign is explained once, in front of the first note that uses it.
    const auto atLeast = [&said](const QString &note) {
        const QString prefix = said ? QString() : QStringLiteral("≥: at least. ");
        said = true;
        return prefix + note;
    };
    // A trial read only in part (a cut or corrupt file, a cancelled load) counts what was
    // read: its lines, bytes and drops are not the run's. The warning went to stderr and
    // the window's notices; a report pasted into a review thread must carry it itself.
    QStringList partial;
    for (const ReportColumn &c : m_columns) {
        for (std::size_t k = 0; k < c.runs.size(); ++k) {
            const Run *run = c.runs[k];
            if (!run || !run->load.readInPart()) {
                continue;
            }
            const QString note =
                QStringLiteral("%1 was read only in part: %2. Its figures are of what was read, "
                               "not of the whole run: its counts are at least (≥) what they "
                               "show.")
                    .arg(c.files.value(qsizetype(k)), run->load.message);
            if (!partial.contains(note)) {
                partial << note;
            }
        }
    }
    QStringList notes = partial;
    // A window the log ended in: a capture stopped at the login prompt, or cut, 12 s into
    // "the first 30 s" counts 12 s; the cell's ≥ says so, and this which trial and why.
    for (const ReportColumn &c : m_columns) {
        for (std::size_t k = 0; k < c.metrics.size(); ++k) {
            const WindowResult &w = c.metrics[k].window;
            if (!w.printedSeenSeconds && !w.producedSeenSeconds) {
                continue;
            }
            QStringList seen;
            if (w.printedSeenSeconds) {
                seen << QStringLiteral("%1 s of it seen by arrival")
                            .arg(*w.printedSeenSeconds, 0, 'f', 3);
            }
            if (w.producedSeenSeconds) {
                seen << QStringLiteral("%1 s%2 by kernel time")
                            .arg(*w.producedSeenSeconds, 0, 'f', 3)
                            .arg(seen.isEmpty() ? QStringLiteral(" of it seen") : QString());
            }
            notes << atLeast(QStringLiteral("%1 ends inside the %2 s window (%3) without the "
                                            "kernel saying it stopped (a power-off, reboot or "
                                            "end of a panic): what came after was not seen."))
                         .arg(c.source(k), QString::number(m_options.windowSeconds),
                              seen.join(QStringLiteral(", ")));
        }
    }
    // A log that ends with the console behind: a capture stopped in a flood. Its lag max
    // and drops are lower bounds (Metrics::behindAtEnd); the cells' ≥ says so, this why.
    // A recording that says when its capture stopped (Run::captureEnd) tells more: a
    // console still printing sends a line every few milliseconds, so a capture that ran on
    // for a second or more without one saw the console stop with its queue unprinted.
    for (const ReportColumn &c : m_columns) {
        for (std::size_t k = 0; k < c.metrics.size(); ++k) {
            const Metrics &m = c.metrics[k];
            if (!m.behindAtEnd) {
                continue;
            }
            const Run *run = k < c.runs.size() ? c.runs[k] : nullptr;
            std::optional<double> silent;
            if (run && run->captureEnd && m.end == run->lines.endIndex() && m.end > m.first) {
                if (const std::optional<HostNs> last = run->lines.arrival(m.end - 1_lines)) {
                    silent = toSeconds(*run->captureEnd - *last);
                }
            }
            const QString behind = QString::number(*m.behindAtEnd, 'f', 3);
            if (silent && *silent >= 1.0) {
                notes << atLeast(QStringLiteral(
                                     "%1's console stopped printing %2 s behind (its last kernel "
                                     "line came that long after it was produced), and the "
                                     "capture ran %3 s more without a line: what was queued "
                                     "never came out (the kernel hung, or its console did). Its "
                                     "lag max and drops are at least what they show, and a "
                                     "crash may have been among what was queued."))
                             .arg(c.source(k), behind, QString::number(*silent, 'f', 3));
                continue;
            }
            notes << atLeast(QStringLiteral(
                                 "%1 ends with its console %2 s behind (its last kernel "
                                 "line came that long after it was produced) without the kernel "
                                 "saying it stopped: the messages still queued, and the notices "
                                 "of any dropped among them, were not seen. Its lag max and "
                                 "drops are at least what they show, and a crash may have been "
                                 "queued."))
                         .arg(c.source(k), behind);
        }
    }
    return notes;
}

} // namespace tty
