#include "consolerate.h"

#include "kernelprefix.h"
#include "run.h"
#include "runloader.h"
#include "textreader.h"

#include <algorithm>
#include <vector>

namespace tty {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

// A serial port's console name: tty, letters, a number (ttyS0, ttyAMA0, ttymxc1, ttyMSM0).
// Not tty0..tty63 (virtual terminals), ttyGS (a USB gadget: no line rate), ttynull.
bool isSerialConsoleName(std::string_view name)
{
    if (!startsWith(name, "tty") || startsWith(name, "ttyGS") || startsWith(name, "ttynull")) {
        return false;
    }
    std::size_t i = 3;
    const std::size_t letters = i;
    while (i < name.size() && !isDigit(name[i])) {
        ++i;
    }
    if (i == letters || i == name.size()) {
        return false;
    }
    for (; i < name.size(); ++i) {
        if (!isDigit(name[i])) {
            return false;
        }
    }
    return true;
}

// The rate at the start of a console's options ("115200n8", "38400"); 0 when none. Bounded:
// a number past any UART's rate is no rate.
int leadingRate(std::string_view options)
{
    long long v = 0;
    std::size_t i = 0;
    for (; i < options.size() && isDigit(options[i]) && i < 9; ++i) {
        v = v * 10 + (options[i] - '0');
    }
    const bool ends = i == options.size() || !isDigit(options[i]);
    return ends && v >= 50 && v <= 20000000 ? int(v) : 0;
}

// The rate one `console=` value states for a serial console, 0 for none: "ttyS0,115200n8",
// or the 8250 console by its address ("uart8250,io,0x3f8,115200n8", "uart,mmio32,ADDR,...").
int rateOfConsole(std::string_view value)
{
    const std::size_t comma = value.find(',');
    const std::string_view name = value.substr(0, comma);
    if (comma == std::string_view::npos) {
        return 0;
    }
    const std::string_view rest = value.substr(comma + 1);
    if (isSerialConsoleName(name)) {
        return leadingRate(rest);
    }
    if (name == "uart" || name == "uart8250") {
        // iotype, address, options.
        const std::size_t a = rest.find(',');
        const std::size_t b = a == std::string_view::npos ? a : rest.find(',', a + 1);
        return b == std::string_view::npos ? 0 : leadingRate(rest.substr(b + 1));
    }
    return 0;
}

// Which console a `console=` value names, without its options: "ttyS0", or the 8250's
// "uart8250,io,0x3f8".
std::string_view consoleKey(std::string_view value)
{
    std::size_t end = value.find(',');
    if (value.substr(0, end) == "uart" || value.substr(0, end) == "uart8250") {
        for (int field = 0; field < 2 && end != std::string_view::npos; ++field) {
            end = value.find(',', end + 1);
        }
    }
    return value.substr(0, end);
}

} // namespace

std::optional<StatedRate> consoleRateOfCommandLine(std::string_view line)
{
    std::optional<StatedRate> found;
    bool conflict = false;
    // The kernel takes a console named twice as first named (its options too):
    // console=ttyS0,115200 console=ttyS0,9600 runs it at 115200.
    std::vector<std::string_view> named;
    std::size_t at = 0;
    while (at < line.size()) {
        while (at < line.size() && line[at] == ' ') {
            ++at;
        }
        std::size_t end = at;
        while (end < line.size() && line[end] != ' ') {
            ++end;
        }
        const std::string_view word = line.substr(at, end - at);
        at = end;
        if (word == "--") {
            break; // what follows is init's
        }
        constexpr std::string_view key = "console=";
        if (!startsWith(word, key)) {
            continue;
        }
        const std::string_view value = word.substr(key.size());
        if (std::find(named.begin(), named.end(), consoleKey(value)) != named.end()) {
            continue;
        }
        named.push_back(consoleKey(value));
        const int baud = rateOfConsole(value);
        if (baud <= 0) {
            continue;
        }
        if (found && found->baud != baud) {
            conflict = true;
        }
        if (!found) {
            found = StatedRate{baud, QString::fromUtf8(word.data(), qsizetype(word.size()))};
        }
    }
    return conflict ? std::nullopt : found;
}

std::optional<StatedRate> statedConsoleRate(const Run &run, QString *conflict)
{
    // Where a command line may be: after each banner, and at the log's start (a capture that
    // missed the banner, a kernel whose banner the console did not print).
    constexpr std::int64_t kLinesAfterBanner = 400;
    constexpr std::size_t kBoots = 64;
    std::vector<LineIndex> starts{LineIndex(0)};
    for (std::size_t k = 0; k < run.events.size() && starts.size() <= kBoots; ++k) {
        const Event &e = run.events[k];
        if (e.kind == EventKind::Boot && !e.note) {
            starts.push_back(e.line);
        }
    }
    TextReader reader(run.lines);
    std::optional<StatedRate> stated;
    LineIndex statedAt(0);
    LineIndex searched(0); // the lines before it were looked at
    for (const LineIndex start : starts) {
        LineIndex from = std::max(start, searched);
        const LineIndex end = std::min(start + LineCount(kLinesAfterBanner), run.lines.endIndex());
        while (from < end) {
            const std::optional<LineIndex> hit = reader.findContaining("ommand line: ", from, end);
            if (!hit) {
                break;
            }
            from = *hit + 1_lines;
            const std::string_view text = reader.text(*hit);
            const std::string_view message = text.substr(parseKernelPrefix(text).message);
            std::string_view args;
            for (std::string_view lead :
                 {std::string_view("Command line: "), std::string_view("Kernel command line: ")}) {
                if (startsWith(message, lead)) {
                    args = message.substr(lead.size());
                }
            }
            const std::optional<StatedRate> rate = consoleRateOfCommandLine(args);
            if (!rate) {
                continue;
            }
            if (stated && stated->baud != rate->baud) {
                if (conflict) {
                    *conflict = QStringLiteral("%1 (line %2) and %3 (line %4)")
                                    .arg(stated->console)
                                    .arg(lineNumber(statedAt))
                                    .arg(rate->console)
                                    .arg(lineNumber(*hit));
                }
                return std::nullopt;
            }
            if (!stated) {
                stated = rate;
                statedAt = *hit;
            }
        }
        searched = std::max(searched, end);
    }
    return stated;
}

void takeStatedOrDefaultRate(Run &run, bool warn)
{
    QString conflict;
    if (const std::optional<StatedRate> stated = statedConsoleRate(run, &conflict)) {
        run.meta.baud = stated->baud;
        run.meta.baudSource = RunMeta::BaudSource::KernelCommandLine;
        run.meta.baudStatement = stated->console;
        return;
    }
    run.meta.baud = kDefaultBaud;
    run.meta.baudSource = RunMeta::BaudSource::Default;
    run.meta.baudStatement.clear();
    if (warn && !conflict.isEmpty()) {
        run.warnings << QStringLiteral("the kernel command lines name consoles at different "
                                       "rates, %1: which one this is is not known, so ttyscope's "
                                       "default of %2 baud is taken (give the console's rate "
                                       "with --baud)")
                            .arg(conflict)
                            .arg(kDefaultBaud);
    }
}

} // namespace tty
