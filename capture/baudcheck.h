// Could a UART at the assumed baud rate have sent a run's bytes when they came, and would
// it have sent them faster? A log without a stated rate is taken at 115200; a board's
// console at 1500000 (Rockchip's default) or 921600 printed at ten times that, and its
// time on the wire and UART use would be read ten times too high, with confidence. A
// console at 9600 (what `console=ttyS0` without a rate gives on x86) or 38400 would be
// read that much too low.
#pragma once

#include "series.h"

#include <optional>

namespace tty {

struct BaudExcess
{
    double atSeconds = 0;    // run seconds where the bytes were found to outrun the UART
    double backlogBytes = 0; // how far ahead of the UART they were then
    // Found by the lines' lag: the most lag of the lines that came in that stretch, far
    // less than the backlog would have held them. Absent: found by the backlog alone.
    std::optional<double> lagSeconds;
    double peakBytesPerSecond = 0; // in the busiest second
    int lowestStandardBaud = 0;    // the lowest standard rate that sends that; 0: none
};

// The bytes by arrival (the series' Bytes channel) against a UART that sends baud / 10
// bytes a second (8N1). Either of two findings says the bytes came faster than that:
//  - a backlog that a UART at that rate would have had to hold beyond what the host's
//    buffers can hide (256 KiB: the tty layer's, a UART's, an adapter's, a pty's and a
//    socket's, read late and in one go);
//  - a smaller one (a short boot at 1500000 baud runs a few KiB ahead) built at a pace
//    no late read gives, while the lines came about when the kernel stamped them (the
//    series' lag channels): bytes that a UART at that rate sent late would have arrived
//    late.
std::optional<BaudExcess> excessOverBaud(const SeriesPyramid &series, int baud);

struct BaudShortfall
{
    double behindSeconds = 0;   // arrival time over which the console was behind
    double bytesPerSecond = 0;  // the bytes that came in that time, a second
    double lagSeconds = 0;      // the most lag of the lines that came then
    int lowestStandardBaud = 0; // the lowest standard rate that sends that; 0: none
};

// A console that fell behind sends all the while: its UART is never idle until it has
// caught up, so the bytes that came while its lines arrived late, and later and later,
// came at about its rate (71-89 % of it on the bundled 115200 captures: gaps between the
// records). Where they came at less than half of what a UART at `baud` sends, over three
// seconds or more, the UART is slower than that (or the console could not keep it busy: a
// printing thread starved of its CPU). A lag that stays level is a clock's offset, not a
// backlog: a stretch counts where its lines' lag grew by half a second.
std::optional<BaudShortfall> shortfallBelowBaud(const SeriesPyramid &series, int baud);

class Run;
// A run taken at ttyscope's default rate (no --baud, none stated by its recording), whose
// arrivals are the wire's: where its bytes outran that rate, or came far slower while the
// console was behind, its rate becomes 0 (the figures that need one are n/a) and a warning
// says what the bytes allow. Needs the run's series (after finalize).
void checkDefaultBaud(Run &run);

} // namespace tty
