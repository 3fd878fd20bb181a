// A CI gate over a report (`ttyscope report --fail-on CONDITIONS`): conditions on event
// kinds and figures, checked per trial, so that a pipeline fails on a panic, a drop or a
// slow boot without parsing the report. docs/report.md lists the conditions.
#pragma once

#include "event.h"
#include "report.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace tty {

struct GateCondition
{
    enum class Kind {
        Event, // an event kind occurred (`panic`, `lockdep`, `drop`, ...)
        Crash, // any crash report (every kind isCrashKind says is one)
        Figure // a report row compared with a number, or with null (`boot_time_s==null`)
    };
    enum class Op { Greater, GreaterEqual, Less, LessEqual, Equal, NotEqual };

    QString text; // as the user wrote it, for messages and JUnit test names
    Kind kind = Kind::Event;
    EventKind event = EventKind::Panic;
    QString key; // Figure: the report row (`drops.messages`, `lag.max_s`, ...)
    Op op = Op::Greater;
    // Figure: the number compared with; none compares with an absent figure (`null`).
    std::optional<double> threshold;
};

// Parses a comma-separated list of conditions (the option may be given several times:
// the caller joins them). Returns false with *error naming the bad condition.
bool parseGateConditions(const QStringList &specs, std::vector<GateCondition> *out, QString *error);

// One condition checked on one trial of a report.
struct GateCheck
{
    const GateCondition *condition = nullptr;
    std::size_t column = 0, trial = 0;
    bool holds = false;
    // Not checked: the figure is absent on this trial (the reason, e.g. "n/a (no host
    // times)"). An absent figure never satisfies a comparison with a number.
    bool unchecked = false;
    QString detail; // what was seen: "1 panic event, first at line 512", "lag.max_s = 7.2"
};

// Checks every condition on every trial of the report, in column, trial, condition
// order. Returns false with *error when a condition names a figure the report does not
// have (the known keys are listed in the message).
bool checkGate(const Report &report, const std::vector<GateCondition> &conditions,
               std::vector<GateCheck> *out, QString *error);

// A trial's name in messages and JUnit suites: the column's label, and for a group of
// trials the file (or boot) it came from.
QString trialName(const ReportColumn &column, std::size_t trial);

// The exit status of `report --fail-on`: 4 when a condition holds, which outranks the
// load's status (a CI job must fail on a panic even in a log read only in part).
constexpr int kGateFailedExit = 4;

} // namespace tty
