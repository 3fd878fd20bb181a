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
    // Cut between words, not inside one (A_default and k612rt share their last letter),
    // nor inside a version (6.1 and 6.12 share "6.1").
    const auto inWord = [&](qsizetype i) {
        const auto digit = [&](qsizetype j) {
            return j >= 0 && j < first.size() && first[j].isDigit();
        };
        return first[i].isLetterOrNumber() ||
               (first[i] == QLatin1Char('.') && digit(i - 1) && digit(i + 1));
    };
    while (prefix > 0 && inWord(prefix - 1)) {
        --prefix;
    }
    while (suffix > 0 && inWord(first.size() - suffix)) {
        --suffix;
    }
    // An ellipsis in place of a character or two saves nothing and loses what they said
    // (the ")" of "Linux 6.1 (legacy printk)").
    constexpr qsizetype kLeastCut = 3;
    prefix = prefix < kLeastCut ? 0 : prefix;
    suffix = suffix < kLeastCut ? 0 : suffix;
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
