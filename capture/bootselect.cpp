#include "bootselect.h"

#include "linematcher.h"
#include "metrics.h"
#include "parallel.h"
#include "textreader.h"

#include <QRegularExpression>

#include <algorithm>

namespace tty {

namespace {

// Which boots print a line matching the regex, in one pass over the run: slices on every
// core, each with a matcher of its own (a regex object must not be shared between
// threads), compiled once per slice. A search per boot compiled it once per boot, which
// on a console server's log of 10^5 boots was most of the time.
std::vector<char> bootsPrinting(const Run &run, const QString &regex)
{
    const std::size_t boots = run.boots.size();
    const LineIndex begin = boots ? run.boots.front().first : LineIndex(0);
    const LineIndex end = boots ? run.boots.back().end : LineIndex(0);
    const int slices = sharedSliceCount(end - begin);
    std::vector<std::vector<char>> found(std::size_t(slices), std::vector<char>(boots, 0));
    forEachSlice(begin, end, slices, [&](int s, LineIndex a, LineIndex b) {
        const LineMatcher m(regex);
        TextReader reader(run.lines);
        std::vector<char> &mine = found[std::size_t(s)];
        for (const Boot &boot : run.bootsOverlapping(a, b)) {
            const LineIndex from = std::max(a, boot.first), to = std::min(b, boot.end);
            mine[std::size_t(&boot - run.boots.data())] =
                findFirstWith(reader, m, from, to).has_value();
        }
    });
    std::vector<char> any(boots, 0);
    for (const std::vector<char> &f : found) {
        std::transform(any.begin(), any.end(), f.begin(), any.begin(),
                       [](char x, char y) { return char(x || y); });
    }
    return any;
}

} // namespace

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
    const bool byRegex = kind == Kind::Matching || kind == Kind::NotMatching;
    const std::vector<char> printing = byRegex ? bootsPrinting(run, regex) : std::vector<char>();
    for (int b = 0; b < int(run.boots.size()); ++b) {
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
            take = bool(printing[std::size_t(b)]) == (kind == Kind::Matching);
            break;
        }
        if (take) {
            out.push_back(b);
        }
    }
    return out;
}

} // namespace tty
