#include "runlabels.h"

#include <algorithm>

namespace tty {

QStringList distinctParts(const QStringList &labels)
{
    if (labels.size() < 2) {
        return labels;
    }
    qsizetype prefix = 0, suffix = 0;
    const QString &first = labels.front();
    auto sharedAt = [&](auto charOf) {
        qsizetype n = 0;
        for (;; ++n) {
            for (const QString &h : labels) {
                if (n >= h.size() || charOf(h, n) != charOf(first, n)) {
                    return n;
                }
            }
        }
    };
    prefix = sharedAt([](const QString &h, qsizetype i) { return h[i]; });
    suffix = sharedAt([](const QString &h, qsizetype i) { return h[h.size() - 1 - i]; });
    // Cut between words, not inside one (A_default and k612rt share their last letter).
    while (prefix > 0 && first[prefix - 1].isLetterOrNumber()) {
        --prefix;
    }
    while (suffix > 0 && first[first.size() - suffix].isLetterOrNumber()) {
        --suffix;
    }
    QStringList out;
    for (const QString &h : labels) {
        const qsizetype keepSuffix = std::min(suffix, h.size() - prefix);
        const QString middle = h.mid(prefix, h.size() - prefix - keepSuffix);
        if (middle.isEmpty()) {
            return labels; // one header is the others' start or end: keep them whole
        }
        out << (prefix > 0 ? QStringLiteral("…") : QString()) + middle +
                   (keepSuffix > 0 ? QStringLiteral("…") : QString());
    }
    return out;
}

} // namespace tty
