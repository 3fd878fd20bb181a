#include "bootselect.h"

#include "metrics.h"

#include <QRegularExpression>

namespace tty {

bool BootSelector::parse(const QString &spec, BootSelector *out, QString *error)
{
    *out = BootSelector{};
    const QString s = spec.trimmed();
    if (s.isEmpty() || s == QLatin1String("all")) {
        return true;
    }
    const bool negated = s.startsWith(QLatin1String("!/"));
    if (s.startsWith(u'/') || negated) {
        const QString body = s.mid(negated ? 2 : 1);
        if (!body.endsWith(u'/') || body.size() < 2) {
            *error = QStringLiteral("boot selector '%1': a regex is written /REGEX/").arg(spec);
            return false;
        }
        out->regex = body.chopped(1);
        const QRegularExpression re(out->regex);
        if (!re.isValid()) {
            *error = QStringLiteral("boot selector '%1': invalid regular expression: %2")
                         .arg(spec, re.errorString());
            return false;
        }
        out->kind = negated ? Kind::NotMatching : Kind::Matching;
        return true;
    }
    out->kind = Kind::Numbers;
    for (const QString &part : s.split(u',')) {
        const QStringList ends = part.trimmed().split(u'-');
        bool ok1 = false, ok2 = false;
        const int a = ends.value(0).toInt(&ok1);
        const int b = ends.size() == 2 ? ends[1].toInt(&ok2) : a;
        ok2 = ends.size() == 2 ? ok2 : ok1;
        if (ends.size() > 2 || !ok1 || !ok2 || a < 1 || b < a) {
            *error = QStringLiteral("boot selector '%1': expected 'all', numbers and ranges "
                                    "such as 1-3,7, /REGEX/ or !/REGEX/")
                         .arg(spec);
            return false;
        }
        out->ranges.push_back({a, b});
    }
    return true;
}

std::vector<int> BootSelector::select(const Run &run) const
{
    std::vector<int> out;
    for (int b = 0; b < int(run.boots.size()); ++b) {
        const Boot &boot = run.boots[std::size_t(b)];
        bool take = true;
        switch (kind) {
        case Kind::All:
            break;
        case Kind::Numbers:
            take = false;
            for (const auto &[lo, hi] : ranges) {
                take = take || (b + 1 >= lo && b + 1 <= hi);
            }
            break;
        case Kind::Matching:
        case Kind::NotMatching:
            take =
                findFirst(run, regex, boot.first, boot.end).has_value() == (kind == Kind::Matching);
            break;
        }
        if (take) {
            out.push_back(b);
        }
    }
    return out;
}

} // namespace tty
