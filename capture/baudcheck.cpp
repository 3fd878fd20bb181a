#include "baudcheck.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tty {

namespace {

// What a host can deliver at once after reading late: the tty layer's flip buffers hold
// 64 KiB (TTYB_DEFAULT_MEM_LIMIT) and the line discipline 4 KiB more, then a UART's FIFO,
// a USB adapter's, a pty's or a socket's (ser2net, QEMU): generously, 256 KiB.
constexpr double kHostBufferBytes = 256 * 1024;

// The first fine bin where a UART at `baud` falls more than the host's buffers behind the
// bytes that came, with its backlog; none when it keeps up.
std::optional<std::pair<std::size_t, double>> outrun(const SeriesPyramid::Level &fine, int baud)
{
    const std::vector<float> &bytes = fine.ch[std::size_t(Channel::Bytes)];
    const double perBin = double(baud) / 10.0 * fine.width;
    double backlog = 0;
    for (std::size_t b = 0; b < bytes.size(); ++b) {
        backlog = std::max(0.0, backlog + double(bytes[b]) - perBin);
        if (backlog > kHostBufferBytes) {
            return std::make_pair(b, backlog);
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<BaudExcess> excessOverBaud(const SeriesPyramid &series, int baud)
{
    if (series.isEmpty() || baud <= 0) {
        return std::nullopt;
    }
    const SeriesPyramid::Level &fine = series.level(0);
    const auto at = outrun(fine, baud);
    if (!at) {
        return std::nullopt;
    }
    BaudExcess e;
    e.atSeconds = series.start() + double(at->first) * fine.width;
    e.backlogBytes = at->second;
    // The busiest second (a window of whole bins, a second or more): at a rate that keeps
    // up, a UART sends at most rate / 10 bytes in it, give or take what the host read late.
    const std::vector<float> &bytes = fine.ch[std::size_t(Channel::Bytes)];
    const std::size_t span = std::max<std::size_t>(1, std::size_t(std::ceil(1.0 / fine.width)));
    double sum = 0;
    for (std::size_t b = 0; b < bytes.size(); ++b) {
        sum += double(bytes[b]);
        if (b >= span) {
            sum -= double(bytes[b - span]);
        }
        e.peakBytesPerSecond = std::max(e.peakBytesPerSecond, sum / (double(span) * fine.width));
    }
    static constexpr std::array<int, 14> kStandard{230400,  460800,  500000,  576000,  921600,
                                                   1000000, 1152000, 1500000, 2000000, 2500000,
                                                   3000000, 3500000, 4000000, 12000000};
    for (int rate : kStandard) {
        if (rate > baud && double(rate) / 10.0 >= e.peakBytesPerSecond) {
            e.lowestStandardBaud = rate;
            break;
        }
    }
    return e;
}

} // namespace tty
