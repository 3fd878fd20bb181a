// The parsers that turn the console-log formats into console lines, and the detectors that
// tell them from their first bytes. Which format uses which is the format table's business
// (formatregistry.h).
#pragma once

#include <memory>
#include <string_view>

namespace tty {

class RunBuilder;
class Run;

class FormatParser
{
public:
    virtual ~FormatParser() = default;
    // Feeds decompressed bytes; false once the input is broken (run.load says why).
    virtual bool feed(const char *p, std::size_t n) = 0;
    virtual void finish() = 0;
};

// The parsers of the record-by-record formats; the line formats hostts and raw, and the
// lines of ttyscope's recordings, are parsed in independent blocks (blockparser.h). The
// format table (formatregistry.h) names them.
std::unique_ptr<FormatParser> makeKmsgParser(Run &run, RunBuilder &builder);
std::unique_ptr<FormatParser> makeLavaParser(Run &run, RunBuilder &builder); // lavaformat.cpp
// journalformat.cpp, journalshort.cpp, dmesgformat.cpp
std::unique_ptr<FormatParser> makeJournalJsonParser(Run &run, RunBuilder &builder);
std::unique_ptr<FormatParser> makeJournalExportParser(Run &run, RunBuilder &builder);
std::unique_ptr<FormatParser> makeJournalShortParser(Run &run, RunBuilder &builder);
std::unique_ptr<FormatParser> makeDmesgJsonParser(Run &run, RunBuilder &builder);
std::unique_ptr<FormatParser> makeDmesgTextParser(Run &run, RunBuilder &builder);

// Detectors for the format table: the head of a recording (also one cut inside its magic),
// and single lines of hostts, grabserial and kmsg.
bool looksRecording(std::string_view head);
bool looksHostTs(std::string_view line); // "<unix seconds>\t"
bool looksTs(std::string_view line);     // "<unix seconds> " (moreutils ts '%.s')
// A date or time of day at the line's start that no format reads (formatregistry.h).
bool looksUnreadStamp(std::string_view line);
bool looksGrabserial(std::string_view line);
bool looksKmsg(std::string_view line);
bool looksLava(std::string_view line);
bool looksJournalJson(std::string_view head);
bool looksJournalExport(std::string_view head);
bool looksJournalShort(std::string_view line);
bool looksDmesgJson(std::string_view head);
bool looksDmesgText(std::string_view line);
bool looksTio(std::string_view line);

} // namespace tty
