// Matches console lines against a user's regex cheaply: a literal the regex requires is
// searched for first (memmem), and the regex runs only on lines that contain it.
#pragma once

#include <QRegularExpression>
#include <QString>

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

namespace tty {

class LineMatcher
{
public:
    LineMatcher() = default;
    explicit LineMatcher(const QString &pattern);

    bool isEmpty() const { return m_pattern.isEmpty(); }
    bool isValid() const { return m_valid; }
    // It ran past the match limit on a line and gives no more matches (regexlimit.h).
    bool gaveUp() const { return m_overLimit && m_overLimit->load(std::memory_order_relaxed); }
    QString errorString() const;
    const QString &pattern() const { return m_pattern; }

    bool matches(std::string_view line) const;
    // The literal every match contains ("" if none is known), and whether matching it is
    // the whole test: scans can look for it in bulk (LineTable::findContaining).
    const std::string &literal() const { return m_literal; }
    bool literalOnly() const { return m_literalOnly; }
    // The regex match on the line, for callers that need captures.
    QRegularExpressionMatch match(std::string_view line) const;

    // The literal text every match must contain, as far as it can be told simply
    // ("" when the regex has alternatives, groups or an option that defeat it).
    static std::string requiredLiteral(const QString &regex, bool *wholePattern);
    // The literal every match must start with, for a regex anchored with '^'.
    static std::string leadingLiteral(const QString &regex, bool *wholePattern);

private:
    QString m_pattern;
    QRegularExpression m_re;
    bool m_valid = false; // cached: QRegularExpression::isValid() takes a lock every call
    // Set once a line ran past the match limit (regexlimit.h); shared by copies.
    std::shared_ptr<std::atomic<bool>> m_overLimit;
    std::string m_literal;
    bool m_literalOnly = false;
};

bool containsBytes(std::string_view haystack, std::string_view needle);

} // namespace tty
