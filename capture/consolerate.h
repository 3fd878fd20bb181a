// The console's rate as the kernel states it: `console=ttyS0,38400n8` on its command line,
// which the kernel prints at boot ("Command line: ...", "Kernel command line: ..."). A log
// without a rate of its own (a raw capture, a host-stamped one) was taken at ttyscope's
// default of 115200, and a console at 38400 or 9600 got its time on the wire and UART use
// three or twelve times too low, with confidence: a raw log has no arrival times to catch
// that by. The kernel set its UART to the rate it names, so that rate is the console's.
#pragma once

#include <QString>

#include <optional>
#include <string_view>

namespace tty {

class Run;

struct StatedRate
{
    int baud = 0;
    QString console; // as written: "console=ttyS0,38400n8"
};

// The rate of the serial console(s) a kernel command line names. None when it names no
// serial console with a rate (`console=ttyS0` keeps what the driver or the firmware set,
// not known here; `console=tty0` is a screen, `hvc0` a hypervisor's), or serial consoles
// at different rates (which one was captured is not known).
std::optional<StatedRate> consoleRateOfCommandLine(std::string_view commandLine);

// What a run's kernel command lines state: each boot's banner (`Linux version`) is followed
// within a few hundred lines by its command line; the first 64 boots and the start of the
// log are looked at. None when no boot states a rate; when boots state different rates,
// none either, and `conflict` (if given) says which.
std::optional<StatedRate> statedConsoleRate(const Run &run, QString *conflict = nullptr);

// Sets the run's rate (RunMeta::baud, baudSource, baudStatement) to the one its command lines
// state, else to ttyscope's default; where boots state different rates, `warn` adds a
// warning naming them. For a run no one gave a rate (neither --baud nor its recording).
void takeStatedOrDefaultRate(Run &run, bool warn);

} // namespace tty
