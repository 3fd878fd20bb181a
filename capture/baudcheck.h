// Could a UART at the assumed baud rate have sent a run's bytes when they came? A log
// without a stated rate is taken at 115200; a board's console at 1500000 (Rockchip's
// default) or 921600 printed at ten times that, and its time on the wire and UART use
// would be read ten times too high, with confidence.
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

} // namespace tty
