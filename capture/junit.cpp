#include "junit.h"

#include "crashes.h"
#include "textreader.h"

#include <QXmlStreamWriter>

namespace tty {

namespace {

// XML 1.0 cannot carry most control characters, which a crashed kernel's console has
// (NULs, escape sequences): they are shown in caret notation (^@, ^[) instead.
QString xmlSafe(QString s)
{
    QString out;
    out.reserve(s.size());
    for (const QChar ch : s) {
        const char16_t u = ch.unicode();
        if ((u < 0x20 && u != u'\t' && u != u'\n') || u == 0x7f) {
            out += QLatin1Char('^');
            out += QChar(u == 0x7f ? u'?' : char16_t(u + 0x40));
        } else if (u == 0xfffe || u == 0xffff) {
            out += QChar(0xfffd);
        } else {
            out += ch;
        }
    }
    return out;
}

// The report's lines, at most kMaxLines of them (a panic with a long trace stays readable
// in a CI page; the rest is in the log).
QString crashText(const Run &run, const Crash &c)
{
    constexpr LineCount kMaxLines{200};
    QStringList lines;
    const LineIndex end = std::min(c.endLine + 1_lines, run.lines.endIndex());
    TextReader reader(run.lines);
    for (LineIndex i = c.line; i < end && i - c.line < kMaxLines; ++i) {
        const std::string_view t = reader.text(i);
        lines << QString::fromUtf8(t.data(), qsizetype(t.size()));
    }
    if (end - c.line > kMaxLines) {
        lines << QStringLiteral("... (%1 more lines)").arg((end - c.line - kMaxLines).count());
    }
    return xmlSafe(lines.join(QLatin1Char('\n')));
}

struct Case
{
    enum class Result { Passed, Failed, Skipped };
    Case(QString classname, QString name, Result result = Result::Passed)
        : classname(std::move(classname)), name(std::move(name)), result(result)
    {
    }
    QString classname, name;
    Result result;
    QString message, type, body;
};

void writeCase(QXmlStreamWriter &w, const Case &c)
{
    w.writeStartElement(QStringLiteral("testcase"));
    w.writeAttribute(QStringLiteral("classname"), xmlSafe(c.classname));
    w.writeAttribute(QStringLiteral("name"), xmlSafe(c.name));
    if (c.result != Case::Result::Passed) {
        w.writeStartElement(c.result == Case::Result::Failed ? QStringLiteral("failure")
                                                             : QStringLiteral("skipped"));
        w.writeAttribute(QStringLiteral("message"), xmlSafe(c.message));
        if (!c.type.isEmpty()) {
            w.writeAttribute(QStringLiteral("type"), c.type);
        }
        if (!c.body.isEmpty()) {
            w.writeCharacters(c.body);
        }
        w.writeEndElement();
    }
    w.writeEndElement();
}

} // namespace

QByteArray junitXml(const Report &report, const std::vector<GateCheck> &checks)
{
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("ttyscope report"));
    const std::vector<ReportColumn> &columns = report.columns();
    for (std::size_t ci = 0; ci < columns.size(); ++ci) {
        const ReportColumn &col = columns[ci];
        for (std::size_t t = 0; t < col.metrics.size(); ++t) {
            const Run &run = *col.runs[t];
            const QString suite = trialName(col, t);
            std::vector<Case> cases;
            Case load{QStringLiteral("ttyscope.load"), QStringLiteral("log read completely")};
            if (!run.load.complete()) {
                load.result = Case::Result::Failed;
                load.type = QLatin1String(loadOutcomeName(run.load.outcome));
                load.message = run.load.message;
            }
            cases.push_back(load);
            for (const GateCheck &c : checks) {
                if (c.column != ci || c.trial != t) {
                    continue;
                }
                Case g{QStringLiteral("ttyscope.fail-on"), c.condition->text};
                g.result = c.holds       ? Case::Result::Failed
                           : c.unchecked ? Case::Result::Skipped
                                         : Case::Result::Passed;
                g.message = c.detail;
                cases.push_back(g);
            }
            const std::shared_ptr<const std::vector<Crash>> crashes =
                crashesOf(run, col.metrics[t]);
            for (const Crash &cr : *crashes) {
                Case k{QStringLiteral("ttyscope.crash"), cr.title, Case::Result::Failed};
                k.type = QLatin1String(eventKindName(cr.kind));
                k.message =
                    QStringLiteral("%1 at line %2%3")
                        .arg(cr.title, QString::number(lineNumber(cr.line)),
                             cr.traceComplete ? QString() : QStringLiteral(" (trace cut short)"));
                k.body = crashText(run, cr);
                cases.push_back(k);
            }
            int failures = 0, skipped = 0;
            for (const Case &c : cases) {
                failures += c.result == Case::Result::Failed ? 1 : 0;
                skipped += c.result == Case::Result::Skipped ? 1 : 0;
            }
            w.writeStartElement(QStringLiteral("testsuite"));
            w.writeAttribute(QStringLiteral("name"), xmlSafe(suite));
            w.writeAttribute(QStringLiteral("tests"), QString::number(cases.size()));
            w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
            w.writeAttribute(QStringLiteral("errors"), QStringLiteral("0"));
            w.writeAttribute(QStringLiteral("skipped"), QString::number(skipped));
            for (const Case &c : cases) {
                writeCase(w, c);
            }
            w.writeEndElement();
        }
    }
    w.writeEndElement();
    w.writeEndDocument();
    return out;
}

} // namespace tty
