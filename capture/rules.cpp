#include "rules.h"

#include "regexlimit.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstring>

namespace tty {

const RuleSet &RuleSet::builtinShared()
{
    static const RuleSet set = [] {
        RuleSet s;
        QFile f(QStringLiteral(":/ttyscope/rules.json"));
        QString error;
        if (!f.open(QIODevice::ReadOnly) || !s.loadJson(f.readAll(), &error)) {
            qFatal("built-in rule table is broken: %s", qPrintable(error));
        }
        return s;
    }();
    return set;
}

RuleSet RuleSet::builtin()
{
    RuleSet copy = builtinShared();
    copy.m_pool = std::make_shared<CopyPool>(); // its lent copies carry its own flags
    for (Rule &r : copy.m_rules) {
        r.overLimit = std::make_shared<std::atomic<bool>>(false);
    }
    return copy;
}

bool RuleSet::loadFile(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    if (!loadJson(f.readAll(), error)) {
        *error = QStringLiteral("%1: %2").arg(path, *error);
        return false;
    }
    return true;
}

bool RuleSet::loadJson(const QByteArray &json, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (doc.isNull()) {
        *error = QStringLiteral("not valid JSON: %1 at offset %2")
                     .arg(pe.errorString(), QString::number(pe.offset));
        return false;
    }
    const QJsonArray arr = doc.object().value(QStringLiteral("rules")).toArray();
    if (arr.isEmpty()) {
        *error = QStringLiteral("no \"rules\" array");
        return false;
    }
    std::vector<Rule> rules;
    for (int i = 0; i < arr.size(); ++i) {
        const QJsonObject o = arr[i].toObject();
        Rule r;
        const QString kind = o.value(QStringLiteral("kind")).toString();
        if (!eventKindFromName(kind, &r.kind)) {
            *error = QStringLiteral("rule %1: unknown kind '%2'").arg(i + 1).arg(kind);
            return false;
        }
        const QString at = o.value(QStringLiteral("at")).toString(QStringLiteral("message"));
        if (at == QLatin1String("message")) {
            r.anchor = Anchor::Message;
        } else if (at == QLatin1String("line")) {
            r.anchor = Anchor::Line;
        } else if (at == QLatin1String("anywhere")) {
            r.anchor = Anchor::Anywhere;
        } else {
            *error = QStringLiteral("rule %1: 'at' must be message, line or anywhere").arg(i + 1);
            return false;
        }
        r.name = o.value(QStringLiteral("regex")).toString();
        r.regex = QRegularExpression(limitedPattern(r.name));
        if (r.name.isEmpty() || !r.regex.isValid()) {
            *error = QStringLiteral("rule %1 (%2): bad regex: %3")
                         .arg(i + 1)
                         .arg(kind, r.regex.errorString());
            return false;
        }
        if (r.anchor == Anchor::Anywhere) {
            r.literal = o.value(QStringLiteral("contains")).toString().toStdString();
        } else {
            if (!r.name.startsWith(u'^')) {
                r.name.prepend(u'^');
                r.regex.setPattern(limitedPattern(r.name));
            }
            r.literal = LineMatcher::leadingLiteral(r.name, &r.literalOnly);
        }
        rules.push_back(std::move(r));
    }
    m_rules.clear();
    for (Rule &r : rules) {
        addRule(std::move(r));
    }
    index();
    return true;
}

bool RuleSet::addMarker(const QString &regex, QString *error)
{
    Rule r;
    r.kind = EventKind::Marker;
    r.anchor = Anchor::Anywhere;
    r.name = regex;
    r.regex = QRegularExpression(limitedPattern(regex));
    if (!r.regex.isValid()) {
        *error = LineMatcher(regex).errorString();
        return false;
    }
    r.literal = LineMatcher::requiredLiteral(regex, &r.literalOnly);
    r.literalOnly = r.literalOnly && !r.literal.empty();
    addRule(std::move(r));
    index();
    return true;
}

void RuleSet::addRule(Rule rule)
{
    rule.regex.optimize();
    const int n = rule.regex.captureCount();
    rule.countGroup.reset();
    const QStringList names = rule.regex.namedCaptureGroups();
    for (int g = 1; g <= n && g < names.size(); ++g) {
        if (names[g] == QLatin1String("n")) {
            rule.countGroup = g;
        }
    }
    if (rule.countGroup) {
        rule.literalOnly = false; // the count must be read by the regex
    }
    m_rules.push_back(std::move(rule));
}

void RuleSet::index()
{
    m_pool = std::make_shared<CopyPool>(); // the spare copies hold the old rules
    for (auto &v : m_byFirstByte) {
        v.clear();
    }
    for (auto &v : m_lineByFirstByte) {
        v.clear();
    }
    m_anywhere.clear();
    for (int i = 0; i < int(m_rules.size()); ++i) {
        const Rule &r = m_rules[std::size_t(i)];
        if (r.anchor == Anchor::Anywhere || r.literal.empty()) {
            // Without a leading literal the rule has to be tried on every line.
            m_anywhere.push_back(i);
            continue;
        }
        auto &table = r.anchor == Anchor::Message ? m_byFirstByte : m_lineByFirstByte;
        table[std::uint8_t(r.literal[0])].push_back(i);
    }
}

bool RuleSet::ruleMatches(const Rule &rule, std::string_view s, std::uint32_t *count) const
{
    if (!rule.literal.empty()) {
        if (rule.anchor == Anchor::Anywhere) {
            if (!containsBytes(s, rule.literal)) {
                return false;
            }
        } else if (s.size() < rule.literal.size() ||
                   std::memcmp(s.data(), rule.literal.data(), rule.literal.size()) != 0) {
            return false;
        }
    }
    if (rule.literalOnly) {
        return true;
    }
    if (rule.overLimit && rule.overLimit->load(std::memory_order_relaxed)) {
        return false; // given up: see regexlimit.h
    }
    const QRegularExpressionMatch m =
        rule.regex.match(QString::fromUtf8(s.data(), qsizetype(s.size())));
    if (!m.isValid()) {
        if (rule.overLimit) {
            rule.overLimit->store(true, std::memory_order_relaxed);
        }
        noteRegexOverLimit(rule.name);
    }
    if (!m.hasMatch()) {
        return false;
    }
    if (rule.countGroup) {
        bool ok = false;
        const qulonglong v = m.captured(*rule.countGroup).toULongLong(&ok);
        // The group is digits: only a number past 64 bits fails to read.
        *count = ok && v < kCountOutOfRange ? std::uint32_t(v) : kCountOutOfRange;
    }
    return true;
}

std::shared_ptr<const RuleSet> RuleSet::lendCopy() const
{
    std::unique_ptr<RuleSet> copy;
    {
        const std::lock_guard<std::mutex> lock(m_pool->mutex);
        if (!m_pool->spare.empty()) {
            copy = std::move(m_pool->spare.back());
            m_pool->spare.pop_back();
        }
    }
    if (!copy) {
        copy = std::make_unique<RuleSet>(detachedCopy());
    }
    // The pool outlives this rule set if a copy is still lent when it goes.
    return std::shared_ptr<const RuleSet>(copy.release(), [pool = m_pool](const RuleSet *r) {
        const std::lock_guard<std::mutex> lock(pool->mutex);
        pool->spare.emplace_back(const_cast<RuleSet *>(r));
    });
}

RuleSet RuleSet::detachedCopy() const
{
    RuleSet copy = *this;
    copy.m_pool = std::make_shared<CopyPool>(); // a pool of its own: no cycle through spares
    for (Rule &r : copy.m_rules) {
        r.regex = QRegularExpression(r.regex.pattern(), r.regex.patternOptions());
    }
    return copy;
}

} // namespace tty
