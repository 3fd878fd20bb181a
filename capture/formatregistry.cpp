#include "formatregistry.h"

#include "blockparser.h"
#include "formats.h"

namespace tty {

namespace {

std::vector<FormatInfo> makeTable()
{
    std::vector<FormatInfo> t;
    // Detection priority: a recording proves itself by its magic, dmesg --json, journalctl's
    // JSON and export by their first bytes; of the line formats, a LAVA entry first
    // (nothing else starts `- {"dt": `), journalctl's and dmesg's stamps (no console line
    // starts with them), a line with a host time next, then tio's and grabserial's stamps, then
    // kmsg's record prefix. Raw, last, is what nothing else fits (plain `dmesg` output among it).
    FormatInfo rec;
    rec.id = Format::Ttyscope;
    rec.name = QStringLiteral("ttyscope");
    rec.aliases = {QStringLiteral("recording")};
    rec.matchesHead = looksRecording;
    rec.lineFormat = LineFormat::Recording; // framed by the reader (recordingblocks.h)
    rec.hasArrival = true;
    rec.arrivalIsWallClock = true; // the recording's clock is the host's wall clock
    rec.bytesExact = true;         // its D records are the bytes received
    t.push_back(rec);

    FormatInfo djson;
    djson.id = Format::DmesgJson;
    djson.name = QStringLiteral("dmesg-json");
    djson.matchesHead = looksDmesgJson;
    djson.makeParser = makeDmesgJsonParser;
    djson.kernelTimeInRecord = true; // "time": the printk timestamp; dmesg has no arrivals
    djson.consoleOutput = false;
    djson.dropsKnown = false;
    t.push_back(djson);

    FormatInfo jjson;
    jjson.id = Format::JournalJson;
    jjson.name = QStringLiteral("journal-json");
    jjson.aliases = {QStringLiteral("journal"), QStringLiteral("journalctl")};
    jjson.matchesHead = looksJournalJson;
    jjson.makeParser = makeJournalJsonParser;
    // No arrivals: __REALTIME_TIMESTAMP is when journald processed the message it read from
    // the kernel's log (systemd's journald-server.c), not when a console printed it: read
    // as the console's, journald's start read as seconds of console lag at boot.
    jjson.kernelTimeInRecord = true; // _SOURCE_MONOTONIC_TIMESTAMP
    jjson.consoleOutput = false;
    jjson.dropsKnown = false;
    t.push_back(jjson);

    FormatInfo jexport = jjson;
    jexport.id = Format::JournalExport;
    jexport.name = QStringLiteral("journal-export");
    jexport.aliases = {QStringLiteral("export")};
    jexport.matchesHead = looksJournalExport;
    jexport.makeParser = makeJournalExportParser;
    t.push_back(jexport);

    FormatInfo lava;
    lava.id = Format::Lava;
    lava.name = QStringLiteral("lava");
    lava.aliases = {QStringLiteral("lava-yaml"), QStringLiteral("log.yaml")};
    lava.looksLikeLine = looksLava;
    lava.makeParser = makeLavaParser;
    lava.hasArrival = true;
    lava.arrivalIsWallClock = true; // dt: UTC, when LAVA received the line...
    // ...whole: its ShellLogger keeps a partial line until its newline came (a prompt's,
    // until the answer LAVA typed to it was echoed).
    lava.arrivalIsLineEnd = true;
    t.push_back(lava);

    FormatInfo jshort;
    jshort.id = Format::JournalShort;
    jshort.name = QStringLiteral("journal-short");
    jshort.aliases = {QStringLiteral("short-monotonic"), QStringLiteral("short-precise"),
                      QStringLiteral("short-iso-precise")};
    jshort.looksLikeLine = looksJournalShort;
    jshort.makeParser = makeJournalShortParser;
    // short-(iso-)precise show journald's receipt time only, no arrival (see jjson above);
    // -monotonic the kernel's stamp of kernel entries.
    jshort.kernelTimeInRecord = true;
    jshort.consoleOutput = false;
    jshort.dropsKnown = false;
    t.push_back(jshort);

    FormatInfo dtext;
    dtext.id = Format::DmesgText;
    dtext.name = QStringLiteral("dmesg-text");
    dtext.aliases = {QStringLiteral("dmesg-x"), QStringLiteral("dmesg-t")};
    dtext.looksLikeLine = looksDmesgText;
    dtext.makeParser = makeDmesgTextParser;
    dtext.kernelTimeInRecord = true;
    dtext.consoleOutput = false;
    dtext.dropsKnown = false;
    t.push_back(dtext);

    FormatInfo hostts;
    hostts.id = Format::HostTs;
    hostts.name = QStringLiteral("hostts");
    hostts.aliases = {QStringLiteral("host")};
    hostts.looksLikeLine = looksHostTs;
    hostts.lineFormat = LineFormat::HostTs;
    hostts.hasArrival = true;
    hostts.arrivalIsWallClock = true;
    t.push_back(hostts);

    // moreutils ts '%.s': the same lines with a space, but ts stamps a line once it has read
    // the line's end (a prompt's line: when the next newline came, maybe seconds later).
    FormatInfo ts = hostts;
    ts.id = Format::Ts;
    ts.name = QStringLiteral("ts");
    ts.aliases = {QStringLiteral("moreutils")};
    ts.looksLikeLine = looksTs;
    ts.arrivalIsLineEnd = true;
    t.push_back(ts);

    FormatInfo tio;
    tio.id = Format::Tio;
    tio.name = QStringLiteral("tio");
    tio.looksLikeLine = looksTio;
    tio.lineFormat = LineFormat::Tio; // stamped by the reader (stampedblocks.h)
    tio.hasArrival = true;
    tio.arrivalIsWallClock = false; // HH:MM:SS has no date; iso8601 makes the parser set it
    t.push_back(tio);

    FormatInfo grab;
    grab.id = Format::Grabserial;
    grab.name = QStringLiteral("grabserial");
    grab.looksLikeLine = looksGrabserial;
    grab.lineFormat = LineFormat::Grabserial; // stamped by the reader (stampedblocks.h)
    grab.hasArrival = true;
    grab.arrivalIsWallClock = false; // -t: elapsed; -T stamps make the parser set it
    t.push_back(grab);

    FormatInfo kmsg;
    kmsg.id = Format::Kmsg;
    kmsg.name = QStringLiteral("kmsg");
    kmsg.looksLikeLine = looksKmsg;
    kmsg.makeParser = makeKmsgParser;
    kmsg.kernelTimeInRecord = true;
    kmsg.lineEndingBytes = 1; // records end in "\n" alone
    // The kernel's log too: no console bytes or times; its gaps are its reader's drops.
    kmsg.consoleOutput = false;
    t.push_back(kmsg);

    FormatInfo raw;
    raw.id = Format::Raw;
    raw.name = QStringLiteral("raw");
    raw.aliases = {QStringLiteral("dmesg"), QStringLiteral("console"), QStringLiteral("conserver"),
                   QStringLiteral("text")};
    raw.lineFormat = LineFormat::Raw;
    raw.bytesExact = true; // the file is the bytes received
    t.push_back(raw);
    return t;
}

} // namespace

const std::vector<FormatInfo> &formatTable()
{
    static const std::vector<FormatInfo> table = makeTable();
    return table;
}

const FormatInfo &formatInfo(Format f)
{
    for (const FormatInfo &i : formatTable()) {
        if (i.id == f) {
            return i;
        }
    }
    static const FormatInfo unknown; // Format::Unknown: no name, no clocks
    return unknown;
}

QStringList formatNames()
{
    QStringList names;
    for (const FormatInfo &i : formatTable()) {
        names << i.name;
    }
    return names;
}

std::optional<Format> canonicalFormat(const QString &name)
{
    const QString n = name.toLower();
    for (const FormatInfo &i : formatTable()) {
        if (i.name == n || i.aliases.contains(n)) {
            return i.id;
        }
    }
    return std::nullopt;
}

namespace {
// Calls f on each of the first `most` lines of `head` with text, as detection reads them;
// returns how many it called it on.
template <typename F> int forEachHeadLine(std::string_view head, int most, F &&f)
{
    int total = 0;
    std::size_t p = 0;
    while (p < head.size() && total < most) {
        std::size_t nl = head.find('\n', p);
        if (nl == std::string_view::npos) {
            nl = head.size();
        }
        const std::string_view l = head.substr(p, nl - p);
        p = nl + 1;
        if (l.empty() || l == "\r") {
            continue;
        }
        ++total;
        f(l);
    }
    return total;
}
} // namespace

Format detectFormat(std::string_view head)
{
    const std::vector<FormatInfo> &table = formatTable();
    for (const FormatInfo &i : table) {
        if (i.matchesHead && i.matchesHead(head)) {
            return i.id;
        }
    }
    std::vector<int> votes(table.size(), 0);
    const int total = forEachHeadLine(head, 20, [&](std::string_view l) {
        for (std::size_t f = 0; f < table.size(); ++f) {
            votes[f] += table[f].looksLikeLine && table[f].looksLikeLine(l);
        }
    });
    // A clear majority: a few garbage lines at the start must not change the verdict.
    for (std::size_t f = 0; f < table.size() && total > 0; ++f) {
        if (votes[f] * 2 > total) {
            return table[f].id;
        }
    }
    return Format::Raw;
}

bool looksStampedButUnread(std::string_view head)
{
    int stamped = 0;
    const int total = forEachHeadLine(
        head, 20, [&](std::string_view l) { stamped += looksUnreadStamp(l) ? 1 : 0; });
    return total > 0 && stamped * 2 > total;
}

std::optional<Format> resolveFormat(const QString &option, std::string_view head)
{
    if (option.isEmpty() || option == QLatin1String("auto")) {
        return detectFormat(head);
    }
    return canonicalFormat(option);
}

} // namespace tty
