#include "labels.h"

#include "session.h"

namespace tty {

QString commonLabel(const QStringList &names)
{
    if (names.size() <= 1) {
        return names.value(0);
    }
    QString pre = names.front(), suf = names.front();
    for (const QString &n : names) {
        int i = 0;
        while (i < pre.size() && i < n.size() && pre[i] == n[i]) {
            ++i;
        }
        pre.truncate(i);
        int j = 0;
        while (j < suf.size() && j < n.size() && suf[suf.size() - 1 - j] == n[n.size() - 1 - j]) {
            ++j;
        }
        suf = suf.right(j);
    }
    return pre + QLatin1Char('*') + suf;
}

QString defaultLabel(const QVector<Trial> &trials)
{
    QStringList names;
    for (const Trial &t : trials) {
        if (names.isEmpty() || t.run != trials.front().run) {
            names << t.run->meta.label;
        }
    }
    return commonLabel(names);
}

} // namespace tty
