// Builds the session to show from what was asked for and what loaded (or from boots of one
// capture), collecting the problems to report; the window only shows the outcome.
#pragma once

#include "runloadjob.h"
#include "session.h"

#include <QCoreApplication>
#include <QStringList>

#include <memory>

namespace tty {

struct OpenRequest
{
    QVector<QStringList> sides; // files per side
    QStringList labels;         // per side, optional
    LoadOptions load;
    QList<int> bauds; // per side (--baud once per column), else load.baud for every side
    std::shared_ptr<const RuleSet> rules;
    Alignment alignment;
    MetricOptions metrics;
    bool bootsAsTrials = false;
    QStringList boots; // per side: the boots taken as its trials (as `report --boots`)
    bool sample = false;
};

struct OpenedSession
{
    Session session;      // no sides when nothing could be read
    QStringList problems; // plain text: unreadable files, run errors
    QStringList warnings; // plain text
    QStringList opened;   // paths of the files read
};

class SessionBuilder
{
    Q_DECLARE_TR_FUNCTIONS(SessionBuilder)
public:
    static OpenedSession fromLoad(const LoadResult &result, const OpenRequest &request);
    // Sides A and B: the boots of `base` (one run) that selectors `a` and `b` pick. No sides
    // (and `problems` says why) when a selector is invalid or picks nothing.
    static Session fromBoots(const Session &base, const MetricOptions &metrics, const QString &a,
                             const QString &b, QStringList *problems);
};

} // namespace tty
