// Console text as a terminal prints it: SGR colours parsed into styled stretches, other
// escape sequences left out, and search finding words that a colour change splits.
#include "consoletext.h"
#include "linesearch.h"
#include "tst_helpers.h"

#include <QtTest>

using namespace tty;
using namespace testutil;

namespace {
ConsoleStyle style(ConsoleColor::Kind kind, std::uint32_t value, bool bold = false)
{
    ConsoleStyle s;
    s.fg = {kind, value};
    s.bold = bold;
    return s;
}

// Pieces as (begin, end, kind, value, bold) for QCOMPARE.
QVector<QVector<int>> flat(const std::vector<TextPiece> &pieces)
{
    QVector<QVector<int>> out;
    for (const TextPiece &p : pieces) {
        out.append({int(p.begin), int(p.end), int(p.style.fg.kind), int(p.style.fg.value),
                    int(p.style.bold)});
    }
    return out;
}
} // namespace

class TstConsoleText : public QObject
{
    Q_OBJECT
private slots:
    void failedInBoldRed()
    {
        // systemd's status: ESC[1;31m FAILED ESC[0m, then plain text.
        const std::string_view line = "[\x1b[1;31mFAILED\x1b[0m] Failed to start foo";
        QCOMPARE(printedText(line), std::string("[FAILED] Failed to start foo"));
        const int red = int(ConsoleColor::Indexed), none = int(ConsoleColor::Default);
        QCOMPARE(
            flat(printedPieces(line)),
            QVector<QVector<int>>({{0, 1, none, 0, 0}, {8, 14, red, 1, 1}, {18, 39, none, 0, 0}}));
    }

    void sgrParameters()
    {
        const ConsoleStyle plain;
        QVERIFY(applySgr(plain, "").plain()); // ESC[m resets
        QCOMPARE(applySgr(plain, "32"), style(ConsoleColor::Indexed, 2));
        QCOMPARE(applySgr(plain, "0;92"), style(ConsoleColor::Indexed, 10));
        QCOMPARE(applySgr(plain, "1"), style(ConsoleColor::Default, 0, true));
        QCOMPARE(applySgr(style(ConsoleColor::Indexed, 1, true), "22"),
                 style(ConsoleColor::Indexed, 1));
        QCOMPARE(applySgr(style(ConsoleColor::Indexed, 1, true), "39"),
                 style(ConsoleColor::Default, 0, true));
        QCOMPARE(applySgr(plain, "38;5;208"), style(ConsoleColor::Indexed, 208));
        QCOMPARE(applySgr(plain, "38:5:208"), style(ConsoleColor::Indexed, 208));
        QCOMPARE(applySgr(plain, "38;2;255;128;0"), style(ConsoleColor::Rgb, 0xff8000));
        // A background colour and its arguments change nothing (5 is not blink here, 1 not
        // bold); what follows it still counts.
        QCOMPARE(applySgr(plain, "48;5;1;33"), style(ConsoleColor::Indexed, 3));
        QCOMPARE(applySgr(plain, "48;2;1;1;1"), plain);
        QCOMPARE(applySgr(plain, "41;4;5"), plain);
        QCOMPARE(applySgr(plain, "38;5"), plain); // cut short: no colour
        QCOMPARE(applySgr(plain, "38;5;999"), style(ConsoleColor::Indexed, 255));
    }

    void colourEndsWithTheLineAndOtherEscapesStayHidden()
    {
        // ESC[2J and ESC[?25h are no SGR; a private ESC[?1m neither; CR is hidden.
        const std::string_view line = "\x1b[2J\x1b[33mwarn\x1b[?1m ing\r";
        QCOMPARE(printedText(line), std::string("warn ing"));
        const int y = int(ConsoleColor::Indexed);
        QCOMPARE(flat(printedPieces(line)),
                 QVector<QVector<int>>({{9, 13, y, 3, 0}, {18, 22, y, 3, 0}}));
        QVERIFY(printedPieces("\x1b[31m").empty());
        QVERIFY(printedPieces("").empty());
    }

    void searchFindsAWordSplitByAnEscape()
    {
        // FAILED printed, its bytes split by colour changes; the literal pre-scan must not
        // skip the line (the regex and the literal-only path both).
        const QByteArray log = "[    1.000000] plain line\n"
                               "[    1.100000] \x1b[1;31mFAI\x1b[0mLED to start\n"
                               "[    1.200000] FAILED in plain bytes\n"
                               "[    1.300000] \x1b[32mOK\x1b[0m\n";
        const auto run = loadBytes(log);
        QVERIFY(run);
        QCOMPARE(run->lines.endIndex().value(), 4);
        using V = std::vector<LineIndex>;
        for (const QString &pattern :
             {QStringLiteral("FAILED"), QStringLiteral("FAILED\\s+to"), QStringLiteral("FAIL")}) {
            const auto printed = findMatchingLines(*run, pattern, nullptr, MatchText::Printed);
            QVERIFY(printed);
            const V expected = pattern == QLatin1String("FAILED\\s+to")
                                   ? V{LineIndex(1)}
                                   : V{LineIndex(1), LineIndex(2)};
            QVERIFY2(*printed == expected, qPrintable(pattern));
        }
        // As received, only line 2 holds FAILED.
        const auto bytes =
            findMatchingLines(*run, QStringLiteral("FAILED"), nullptr, MatchText::Bytes);
        QVERIFY(bytes);
        QCOMPARE(*bytes, V{LineIndex(2)});
        // The end of the printed text is before the closing ESC[0m.
        const auto ok = findMatchingLines(*run, QStringLiteral("OK$"), nullptr, MatchText::Printed);
        QVERIFY(ok);
        QCOMPARE(*ok, V{LineIndex(3)});
    }
};

QTEST_GUILESS_MAIN(TstConsoleText)
#include "tst_consoletext.moc"
