// The user regexes of --mark, --window-start and --span against a fixed log. The input is
// split at NUL bytes into the patterns; an invalid one is rejected with a message, as the
// command line does, and a catastrophic one must end (PCRE2's limits), not hang.
#include "fuzz_common.h"

#include "rules.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::initQt();
    static const QByteArray kLog = [] {
        QByteArray log;
        for (int i = 0; i < 40; ++i) {
            log += "[" + QByteArray::number(i).rightJustified(5) + ".000000] line " +
                   QByteArray::number(i) + " aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\n";
        }
        return log + "corpusvm login: \n";
    }();
    const QList<QByteArray> parts =
        QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)).split('\0');
    auto part = [&](int i) { return i < parts.size() ? QString::fromUtf8(parts[i]) : QString(); };
    static const tty::RuleSet kBuiltin = tty::RuleSet::builtin();
    tty::RuleSet rules = kBuiltin;
    QString error;
    if (!part(0).isEmpty() && !rules.addMarker(part(0), &error)) {
        return 0;
    }
    tty::MetricOptions m;
    m.windowStart = part(1);
    if (!part(2).isEmpty() || !part(3).isEmpty()) {
        m.spans.append({part(2), part(3)});
    }
    for (const QString &re : {m.windowStart, part(2), part(3)}) {
        if (!QRegularExpression(re).isValid()) {
            return 0; // the command line rejects it before loading (readMetricOptions)
        }
    }
    fuzz::exercise(*fuzz::loadWithRules(kLog, rules), size, m);
    return 0;
}
