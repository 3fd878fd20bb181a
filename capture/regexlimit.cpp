#include "regexlimit.h"

#include <QMutex>

#include <utility>

namespace tty {

namespace {
QMutex g_mutex;
QStringList g_overLimit;
} // namespace

QString limitedPattern(const QString &pattern)
{
    return QStringLiteral("(*LIMIT_MATCH=%1)").arg(kRegexMatchLimit) + pattern;
}

void noteRegexOverLimit(const QString &pattern)
{
    QMutexLocker lock(&g_mutex);
    if (!g_overLimit.contains(pattern)) {
        g_overLimit << pattern;
    }
}

QStringList takeRegexesOverLimit()
{
    QMutexLocker lock(&g_mutex);
    return std::exchange(g_overLimit, {});
}

QString regexOverLimitMessage(const QString &pattern)
{
    return QStringLiteral("the regex '%1' is too costly: on a line it ran past PCRE2's match "
                          "limit (%2 steps) and was given up, so its results are incomplete; "
                          "simplify it (nested quantifiers such as (a+)+ backtrack without end)")
        .arg(pattern, QString::number(kRegexMatchLimit));
}

} // namespace tty
