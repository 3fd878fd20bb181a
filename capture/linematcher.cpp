#include "linematcher.h"

#include "regexlimit.h"

#include "bytesearch.h"

#include <cstring>
#include <vector>

namespace tty {

namespace {

bool isMeta(QChar c)
{
    static const QString meta = QStringLiteral(".^$|?*+()[]{}");
    return meta.contains(c);
}
bool isQuantifier(QChar c)
{
    return c == u'?' || c == u'*' || c == u'{' || c == u'+';
}

// A '|' outside any group: the regex is a choice between whole alternatives, so no
// literal is required by all of them. (An alternation inside a group only makes that
// group optional text; the literals around the group are still required.)
bool hasTopLevelAlternation(const QString &re)
{
    int depth = 0;
    for (int i = 0; i < re.size(); ++i) {
        const QChar c = re[i];
        if (c == u'\\') {
            ++i;
        } else if (c == u'[') {
            // Skip the class; a ']' right after '[' or '[^' is a literal member.
            int j = i + 1;
            if (j < re.size() && re[j] == u'^') {
                ++j;
            }
            if (j < re.size() && re[j] == u']') {
                ++j;
            }
            while (j < re.size() && re[j] != u']') {
                j += re[j] == u'\\' ? 2 : 1;
            }
            i = j;
        } else if (c == u'(') {
            ++depth;
        } else if (c == u')') {
            --depth;
        } else if (c == u'|' && depth == 0) {
            return true;
        }
    }
    return false;
}

// Splits a regex into runs of literal characters. Returns false when the regex uses
// constructs that make "every match contains this run" unsafe to claim.
bool literalRuns(const QString &re, std::vector<std::string> *runs, bool *whole, bool *anchored)
{
    *whole = true;
    *anchored = false;
    if (hasTopLevelAlternation(re) || re.startsWith(QLatin1String("(?"))) {
        *whole = false;
        return false;
    }
    std::string cur;
    int i = 0;
    if (re.startsWith(u'^')) {
        *anchored = true;
        i = 1;
    }
    auto flush = [&] {
        runs->push_back(cur);
        cur.clear();
    };
    int depth = 0;
    while (i < re.size()) {
        const QChar c = re[i];
        QString lit;
        int next = i + 1;
        if (c == u'\\' && i + 1 < re.size()) {
            const QChar e = re[i + 1];
            if (e.isLetterOrNumber()) { // \d, \s, \1 ... are classes or references
                *whole = false;
                flush();
                i += 2;
                continue;
            }
            lit = e;
            next = i + 2;
        } else if (c == u'(' || c == u')' || c == u'[') {
            // Anything inside groups or classes is not a plain literal.
            *whole = false;
            flush();
            if (c == u'(') {
                ++depth;
            } else if (c == u')') {
                --depth;
            } else {
                const int close = re.indexOf(u']', i + 2);
                if (close < 0) {
                    return false;
                }
                next = close + 1;
            }
            i = next;
            continue;
        } else if (isMeta(c)) {
            *whole = false;
            flush();
            i = next;
            continue;
        } else {
            lit = c;
        }
        if (next < re.size() && isQuantifier(re[next])) {
            // The character is optional or repeated: it ends the run and is not required.
            *whole = false;
            flush();
            i = next;
            continue;
        }
        if (depth == 0) {
            cur += lit.toUtf8().toStdString();
        }
        i = next;
    }
    flush();
    return true;
}

} // namespace

bool containsBytes(std::string_view haystack, std::string_view needle)
{
    return needle.empty() || findBytes(haystack.data(), haystack.size(), needle) != nullptr;
}

std::string LineMatcher::requiredLiteral(const QString &regex, bool *wholePattern)
{
    std::vector<std::string> runs;
    bool anchored = false;
    if (!literalRuns(regex, &runs, wholePattern, &anchored)) {
        return {};
    }
    std::string best;
    for (const std::string &r : runs) {
        if (r.size() > best.size()) {
            best = r;
        }
    }
    *wholePattern = *wholePattern && !anchored;
    return best;
}

std::string LineMatcher::leadingLiteral(const QString &regex, bool *wholePattern)
{
    std::vector<std::string> runs;
    bool anchored = false;
    if (!literalRuns(regex, &runs, wholePattern, &anchored) || !anchored || runs.empty()) {
        *wholePattern = false;
        return {};
    }
    return runs.front();
}

LineMatcher::LineMatcher(const QString &pattern)
    : m_pattern(pattern), m_re(limitedPattern(pattern)),
      m_overLimit(std::make_shared<std::atomic<bool>>(false))
{
    m_re.optimize();
    m_valid = m_re.isValid();
    bool whole = false;
    m_literal = requiredLiteral(pattern, &whole);
    m_literalOnly = whole && !m_literal.empty();
}

QString LineMatcher::errorString() const
{
    return QStringLiteral("invalid regular expression '%1': %2 (at offset %3)")
        .arg(m_pattern, m_re.errorString(),
             QString::number(
                 std::max<qsizetype>(0, m_re.patternErrorOffset() - limitedPattern({}).size())));
}

bool LineMatcher::matches(std::string_view line) const
{
    if (m_pattern.isEmpty() || !m_valid) {
        return false;
    }
    if (!m_literal.empty() && !containsBytes(line, m_literal)) {
        return false;
    }
    if (m_literalOnly) {
        return true;
    }
    if (m_overLimit->load(std::memory_order_relaxed)) {
        return false; // given up: see regexlimit.h
    }
    const QRegularExpressionMatch m =
        m_re.match(QString::fromUtf8(line.data(), qsizetype(line.size())));
    if (!m.isValid()) {
        m_overLimit->store(true, std::memory_order_relaxed);
        noteRegexOverLimit(m_pattern);
    }
    return m.hasMatch();
}

QRegularExpressionMatch LineMatcher::match(std::string_view line) const
{
    return m_re.match(QString::fromUtf8(line.data(), qsizetype(line.size())));
}

} // namespace tty
