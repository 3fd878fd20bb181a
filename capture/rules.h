// The event rule table: which console lines are events of which kind. Loaded from JSON
// (the built-in table is resources/rules.json); user markers are added as regexes.
#pragma once

#include "event.h"
#include "linematcher.h"

#include <QString>
#include <QStringList>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tty {

class RuleSet
{
public:
    enum class Anchor { Message, Line, Anywhere };

    struct Rule
    {
        EventKind kind = EventKind::Marker;
        Anchor anchor = Anchor::Message;
        QString name;             // the regex as written (names user markers)
        std::string literal;      // required leading literal (Message/Line) or substring (Anywhere)
        bool literalOnly = false; // the regex is just the literal: no need to run it
        QRegularExpression regex;
        std::optional<int> countGroup; // capture group (?<n>...) with the count N, if any
        // Set once a line ran past the match limit (regexlimit.h); shared by the copies
        // each parsing thread matches with.
        std::shared_ptr<std::atomic<bool>> overLimit = std::make_shared<std::atomic<bool>>(false);
    };

    struct Match
    {
        int rule;
        EventKind kind;
        std::uint32_t count;
        // The match is in the text in front of the kernel's (a boot loader's, a prompt's),
        // which came with the line's first byte, not with the kernel text behind it.
        bool inFront = false;
    };

    // The table shipped with ttyscope, compiled once per process (builtinShared()): a copy
    // shares its compiled regexes (QRegularExpression is implicitly shared) but has match
    // limit flags and a copy pool of its own, so one load giving up on a rule does not make
    // another skip it. Compiling (JIT) the table was a third of a small `report`.
    static RuleSet builtin();
    // The one compiled built-in table, read-only, for the process.
    static const RuleSet &builtinShared();
    // Replaces the table by a JSON rule file; false with a message naming the bad rule.
    bool loadJson(const QByteArray &json, QString *error);
    bool loadFile(const QString &path, QString *error);
    // A user marker: every line matching the regex becomes a `marker` event.
    bool addMarker(const QString &regex, QString *error);

    const std::vector<Rule> &rules() const { return m_rules; }

    // A copy whose regexes share nothing with this one's: QRegularExpression is only
    // reentrant, so each thread that matches gets its own.
    RuleSet detachedCopy() const;
    // A detached copy for one thread for a while, returned to a pool kept with this rule
    // set when released: each load's parsing threads need one, and compiling (JIT) every
    // regex of the table again for each was most of a small file's load time. A copy is
    // made only when no spare one is free; changing the rules empties the pool.
    std::shared_ptr<const RuleSet> lendCopy() const;

    // Calls onMatch(Match) for each rule matching; one match per kind per line. `front`
    // is the length of other text in front of the kernel's on the line (0: none): a
    // line-anchored match starts in it, another is in it when that text alone matches.
    template <typename F>
    void match(std::string_view line, std::size_t message, std::size_t front, F &&onMatch) const
    {
        std::uint64_t seen = 0; // bit per kind: one event of a kind per line
        const std::string_view msg = line.substr(message < line.size() ? message : line.size());
        if (!msg.empty()) {
            for (int r : m_byFirstByte[std::uint8_t(msg[0])]) {
                tryRule(r, msg, &seen, onMatch);
            }
        }
        const std::string_view lead = line.substr(0, front);
        if (!line.empty()) {
            for (int r : m_lineByFirstByte[std::uint8_t(line[0])]) {
                tryRule(r, line, &seen, onMatch, !lead.empty());
            }
        }
        for (int r : m_anywhere) {
            tryRule(r, line, &seen, onMatch, false, lead);
        }
    }

    // Calls onMatch(Match) for each line-anchored rule matching at the start of `s`, text
    // that started a line on the wire though it does not start its line here (the next
    // system's first output glued to a login prompt); one match per kind.
    template <typename F> void matchAtLineStart(std::string_view s, F &&onMatch) const
    {
        std::uint64_t seen = 0;
        if (!s.empty()) {
            for (int r : m_lineByFirstByte[std::uint8_t(s[0])]) {
                tryRule(r, s, &seen, onMatch);
            }
        }
    }

private:
    void addRule(Rule rule);
    void index();
    bool ruleMatches(const Rule &rule, std::string_view s, std::uint32_t *count) const;

    // inFront: the match is in the text in front of the kernel's; else, `lead` (that
    // text) is matched alone when the rule matched `s`.
    template <typename F>
    void tryRule(int r, std::string_view s, std::uint64_t *seen, F &onMatch, bool inFront = false,
                 std::string_view lead = {}) const
    {
        const Rule &rule = m_rules[std::size_t(r)];
        static_assert(kEventKindCount <= 64, "one bit per kind in `seen`");
        const std::uint64_t bit = std::uint64_t(1) << unsigned(rule.kind);
        if (*seen & bit) {
            return;
        }
        std::uint32_t count = 0;
        if (ruleMatches(rule, s, &count)) {
            *seen |= bit;
            std::uint32_t ignored = 0;
            inFront = inFront || (!lead.empty() && ruleMatches(rule, lead, &ignored));
            onMatch(Match{r, rule.kind, count, inFront});
        }
    }

    std::vector<Rule> m_rules;
    std::array<std::vector<int>, 256> m_byFirstByte;
    std::array<std::vector<int>, 256> m_lineByFirstByte;
    std::vector<int> m_anywhere;
    struct CopyPool
    {
        std::mutex mutex;
        std::vector<std::unique_ptr<RuleSet>> spare;
    };
    // Shared by copies of this rule set that have the same rules (index() replaces it).
    std::shared_ptr<CopyPool> m_pool = std::make_shared<CopyPool>();
};

} // namespace tty
