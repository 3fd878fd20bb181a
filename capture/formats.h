// The console-log formats ttyscope reads, their detection from the first lines, and the
// parsers that turn each into console lines.
#pragma once

#include <QString>
#include <QStringList>

#include <memory>
#include <string_view>

namespace tty {

class RunBuilder;
class Run;

// Stable names, as accepted by --format: ttyscope, hostts, grabserial, kmsg, raw.
QStringList formatNames();
// Also accepts the aliases dmesg, console, conserver (= raw) and ts (= hostts).
QString canonicalFormat(const QString &name);
// Looks at the first decompressed bytes; "raw" when nothing more specific fits.
QString detectFormat(std::string_view head);

class FormatParser
{
public:
    virtual ~FormatParser() = default;
    // Feeds decompressed bytes; false once the input is broken (run.error says why).
    virtual bool feed(const char *p, std::size_t n) = 0;
    virtual void finish() = 0;
};

// The parser of a record-by-record format (ttyscope, grabserial, kmsg); null for the line
// formats hostts and raw, which are parsed in independent blocks (blockparser.h).
std::unique_ptr<FormatParser> makeParser(const QString &format, Run &run, RunBuilder &builder);

} // namespace tty
