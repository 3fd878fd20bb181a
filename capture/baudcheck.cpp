#include "baudcheck.h"

#include <algorithm>
#include <array>

namespace tty {

namespace {

constexpr double kHostBufferBytes = 64 * 1024;

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
    static constexpr std::array<int, 14> kStandard{230400,  460800,  500000,  576000,  921600,
                                                   1000000, 1152000, 1500000, 2000000, 2500000,
                                                   3000000, 3500000, 4000000, 12000000};
    for (int rate : kStandard) {
        if (rate > baud && !outrun(fine, rate)) {
            e.lowestStandardBaud = rate;
            break;
        }
    }
    return e;
}

} // namespace tty
