// Builds sessions from load results and from boot selections of one capture.
#include "sessionbuilder.h"

#include "bootselect.h"
#include "labels.h"
#include "trials.h"

#include <QFileInfo>

namespace tty {

OpenedSession SessionBuilder::fromLoad(const LoadResult &result, const OpenRequest &request)
{
    OpenedSession out;
    QStringList &problems = out.problems, &warnings = out.warnings, &opened = out.opened;
    Session &s = out.session;
    s.alignment = request.alignment;
    s.metrics = request.metrics;
    s.sample = request.sample;
    for (int si = 0; si < result.sides.size(); ++si) {
        Side side;
        // Whole runs, unless the side's boots are chosen (or every boot is a trial).
        BootChoice choice;
        QString selectorError;
        if (si < request.boots.size()) {
            choice.mode = BootChoice::Mode::Selected;
            if (!BootSelector::parse(request.boots[si], &choice.selector, &selectorError)) {
                problems << QStringLiteral("--boots: %1").arg(selectorError);
                continue;
            }
        } else if (request.bootsAsTrials) {
            choice.mode = BootChoice::Mode::EveryBoot;
        }
        for (const LoadedFile &f : result.sides[si]) {
            if (!f.run) {
                problems << f.error;
                continue;
            }
            opened << f.path;
            for (const QString &w : f.run->warnings) {
                warnings << QStringLiteral("%1: %2").arg(QFileInfo(f.path).fileName(), w);
            }
            if (f.run->load.stoppedEarly()) {
                problems << QStringLiteral("%1: %2").arg(QFileInfo(f.path).fileName(),
                                                         f.run->load.message);
            }
            const QVector<Trial> trials = trialsOf(f.run, QFileInfo(f.path).fileName(), choice);
            if (trials.isEmpty()) {
                problems << QStringLiteral("%1: --boots %2 chooses none of its %3 boots")
                                .arg(QFileInfo(f.path).fileName(), request.boots.value(si),
                                     QString::number(f.run->boots.size()));
            }
            side.trials += trials;
        }
        if (side.trials.isEmpty()) {
            continue;
        }
        side.label = si < request.labels.size() && !request.labels[si].isEmpty()
                         ? request.labels[si]
                         : defaultLabel(side.trials);
        s.sides.append(side);
    }
    return out;
}

Session SessionBuilder::fromBoots(const Session &baseSession, const MetricOptions &metrics,
                                  const QString &a, const QString &b, QStringList *problems)
{
    const Trial base = baseSession.sides[0].trials[0];
    Session s;
    s.metrics = metrics;
    s.alignment.kind = Alignment::Kind::FirstKernelLine; // boots line up on their kernels
    for (const QString &spec : {a, b}) {
        BootChoice choice;
        choice.mode = BootChoice::Mode::Selected;
        QString error;
        if (!BootSelector::parse(spec, &choice.selector, &error)) {
            *problems << error;
            continue;
        }
        Side sd;
        sd.trials = trialsOf(base.run, base.file, choice);
        if (sd.trials.isEmpty()) {
            *problems << tr("boots '%1': none of the %2 boots")
                             .arg(spec, QString::number(base.run->boots.size()));
            continue;
        }
        sd.label = tr("boots %1").arg(spec.trimmed().isEmpty() ? tr("all") : spec.trimmed());
        s.sides.append(sd);
    }
    return s;
}

} // namespace tty
