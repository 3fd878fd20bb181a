// Builds sessions from load results and from boot selections of one capture.
#include "sessionbuilder.h"

#include "bootselect.h"
#include "palette.h"

#include <QFileInfo>

namespace tty {

namespace {
QString trialSource(const QString &path, int boot)
{
    const QString name = QFileInfo(path).fileName();
    return boot >= 0 ? QStringLiteral("%1 boot %2").arg(name).arg(boot + 1) : name;
}
} // namespace

LoadedSession SessionBuilder::fromLoad(const LoadResult &result, const OpenRequest &request)
{
    LoadedSession out;
    QStringList &problems = out.problems, &warnings = out.warnings, &opened = out.opened;
    Session &s = out.session;
    s.alignment = request.alignment;
    s.metrics = request.metrics;
    s.sample = request.sample;
    for (int si = 0; si < result.sides.size(); ++si) {
        Side side;
        side.color = runColor(si);
        for (const LoadedFile &f : result.sides[si]) {
            if (!f.run) {
                problems << f.error.toHtmlEscaped();
                continue;
            }
            opened << f.path;
            for (const QString &w : f.run->warnings) {
                warnings << QStringLiteral("%1: %2")
                                .arg(QFileInfo(f.path).fileName(), w)
                                .toHtmlEscaped();
            }
            if (!f.run->error.isEmpty()) {
                problems << QStringLiteral("%1: %2")
                                .arg(QFileInfo(f.path).fileName(), f.run->error)
                                .toHtmlEscaped();
            }
            if (request.bootsAsTrials && f.run->boots.size() > 1) {
                for (int b = 0; b < int(f.run->boots.size()); ++b) {
                    side.trials.append(Trial{f.run, b, trialSource(f.path, b)});
                }
            } else {
                side.trials.append(Trial{f.run, -1, trialSource(f.path, -1)});
            }
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
    int side = 0;
    for (const QString &spec : {a, b}) {
        BootSelector selector;
        QString error;
        if (!BootSelector::parse(spec, &selector, &error)) {
            *problems << error;
            continue;
        }
        Side sd;
        sd.color = runColor(side++);
        for (const int boot : selector.select(*base.run)) {
            sd.trials.append(Trial{base.run, boot, trialSource(base.source, boot)});
        }
        if (sd.trials.isEmpty()) {
            *problems
                << tr("boots '%1': none of the %2 boots").arg(spec).arg(base.run->boots.size());
            continue;
        }
        sd.label = tr("boots %1").arg(spec.trimmed().isEmpty() ? tr("all") : spec.trimmed());
        s.sides.append(sd);
    }
    return s;
}

} // namespace tty
