#include "baudcheck.h"

#include "run.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace tty {

namespace {

// What a host can deliver at once after reading late: the tty layer's flip buffers hold
// 64 KiB (TTYB_DEFAULT_MEM_LIMIT) and the line discipline 4 KiB more, then a UART's FIFO,
// a USB adapter's, a pty's or a socket's (ser2net, QEMU): generously, 256 KiB.
constexpr double kHostBufferBytes = 256 * 1024;

// The on-time finding counts a bin's bytes up to this many times what the UART sends in
// it: a late read hands over its backlog within a bin or two (milliseconds), a fast UART
// keeps up a steady excess. 16 x 115200 is 1843200 baud.
constexpr double kPaceCap = 16;
// ...and needs a backlog of a quarter of a second at the rate tested (2880 bytes at
// 115200: a 30 KiB boot at 1500000 runs 4.7 KiB ahead of a 115200 UART), and more than
// two bins of late reading could add. Lines held that long arrive that late: the finding
// needs their lag under a quarter of it, from at least three lines.
constexpr double kOnTimeSeconds = 0.25;
constexpr double kOnTimeLagShare = 0.25;
constexpr double kOnTimeLines = 3;

// A console is behind while its lines arrive this late (lag in seconds), and a stretch
// behind ends at a silence this long: a busy UART sends all the time.
constexpr double kBehindLag = 0.25;
constexpr double kBehindSilence = 2.0;
// ...counts where its lines' lag grew by this much, and the finding needs this many
// seconds behind in all, at under this share of the rate.
constexpr double kBehindGrowth = 0.5;
constexpr double kBehindLeast = 3.0;
constexpr double kShortShare = 0.5;
// A stretch is measured between the first bytes of its first and last lines, so its rate
// can read a little above the UART's (977 bytes a second on a 9600-baud capture).
constexpr double kRateSlack = 0.9;

// The rates UARTs and their drivers offer, from 300 to 12 Mbaud.
constexpr std::array<int, 24> kStandardBauds{300,     600,     1200,    2400,    4800,    9600,
                                             19200,   38400,   57600,   115200,  230400,  460800,
                                             500000,  576000,  921600,  1000000, 1152000, 1500000,
                                             2000000, 2500000, 3000000, 3500000, 4000000, 12000000};

// The lowest standard rate in (above, below) that sends `bytesPerSecond` (8N1); 0: none.
int lowestStandardBaud(double bytesPerSecond, int above, int below)
{
    for (int rate : kStandardBauds) {
        if (rate > above && rate < below && double(rate) / 10.0 >= bytesPerSecond) {
            return rate;
        }
    }
    return 0;
}

struct Outrun
{
    std::size_t bin = 0;
    double backlog = 0;
    std::optional<double> lag;
};

// The first fine bin where a UART at `baud` falls more than the host's buffers behind the
// bytes that came.
std::optional<Outrun> beyondBuffers(const SeriesPyramid::Level &fine, double perBin)
{
    const std::vector<float> &bytes = fine.ch[std::size_t(Channel::Bytes)];
    double backlog = 0;
    for (std::size_t b = 0; b < bytes.size(); ++b) {
        backlog = std::max(0.0, backlog + double(bytes[b]) - perBin);
        if (backlog > kHostBufferBytes) {
            return Outrun{b, backlog, std::nullopt};
        }
    }
    return std::nullopt;
}

// The first fine bin where the paced backlog (each bin's bytes capped) is big enough and
// the lines that built it since it was last empty came about on time.
std::optional<Outrun> aheadOnTime(const SeriesPyramid::Level &fine, double perBin, int baud)
{
    const auto &ch = fine.ch;
    const std::vector<float> &bytes = ch[std::size_t(Channel::Bytes)];
    const std::vector<float> &lagMax = ch[std::size_t(Channel::LagMax)];
    const std::vector<float> &lagCount = ch[std::size_t(Channel::LagCount)];
    const double bytesPerSecond = double(baud) / 10.0;
    const double cap = kPaceCap * perBin;
    const double least = std::max(kOnTimeSeconds * bytesPerSecond, 2 * (cap - perBin));
    double backlog = 0, lag = 0, lines = 0;
    for (std::size_t b = 0; b < bytes.size(); ++b) {
        backlog = std::max(0.0, backlog + std::min(double(bytes[b]), cap) - perBin);
        if (backlog <= 0) {
            lag = lines = 0; // a new stretch
            continue;
        }
        if (lagCount[b] > 0) {
            lag = std::max(lag, double(lagMax[b]));
            lines += double(lagCount[b]);
        }
        if (backlog >= least && lines >= kOnTimeLines &&
            lag < kOnTimeLagShare * backlog / bytesPerSecond) {
            return Outrun{b, backlog, lag};
        }
    }
    return std::nullopt;
}

struct Behind
{
    double seconds = 0, bytes = 0, lag = 0;
};

// The stretches of fine bins in which the console was behind and its backlog grew: their
// total length, bytes and greatest lag.
Behind timeBehind(const SeriesPyramid::Level &fine)
{
    const auto &ch = fine.ch;
    const std::vector<float> &bytes = ch[std::size_t(Channel::Bytes)];
    const std::vector<float> &lagMax = ch[std::size_t(Channel::LagMax)];
    const std::vector<float> &lagSum = ch[std::size_t(Channel::LagSum)];
    const std::vector<float> &lagCount = ch[std::size_t(Channel::LagCount)];
    const auto silence = std::size_t(std::ceil(kBehindSilence / fine.width));
    Behind total;
    // The open stretch: its first bin and last bin with bytes, its bytes and lags.
    bool open = false;
    std::size_t first = 0, last = 0;
    double sum = 0, lagLo = 0, lagHi = 0, lagMost = 0;
    const auto close = [&] {
        if (open && lagHi - lagLo >= kBehindGrowth) {
            total.seconds += double(last - first + 1) * fine.width;
            total.bytes += sum;
            total.lag = std::max(total.lag, lagMost);
        }
        open = false;
    };
    for (std::size_t b = 0; b < bytes.size(); ++b) {
        if (open && bytes[b] > 0 && b - last > silence) {
            close();
        }
        if (lagCount[b] > 0) {
            const double mean = double(lagSum[b]) / double(lagCount[b]);
            if (mean < kBehindLag) {
                close();
                continue;
            }
            if (!open) {
                open = true;
                first = b;
                sum = 0;
                lagLo = lagHi = mean;
                lagMost = 0;
            }
            lagLo = std::min(lagLo, mean);
            lagHi = std::max(lagHi, mean);
            lagMost = std::max(lagMost, double(lagMax[b]));
        }
        if (open && bytes[b] > 0) {
            sum += double(bytes[b]);
            last = b;
        }
    }
    close();
    return total;
}

} // namespace

std::optional<BaudShortfall> shortfallBelowBaud(const SeriesPyramid &series, int baud)
{
    if (series.isEmpty() || baud <= 0) {
        return std::nullopt;
    }
    const Behind behind = timeBehind(series.level(0));
    if (behind.seconds < kBehindLeast) {
        return std::nullopt;
    }
    const double rate = behind.bytes / behind.seconds;
    if (rate >= kShortShare * double(baud) / 10.0) {
        return std::nullopt;
    }
    return BaudShortfall{behind.seconds, rate, behind.lag,
                         lowestStandardBaud(kRateSlack * rate, 0, baud)};
}

std::optional<BaudExcess> excessOverBaud(const SeriesPyramid &series, int baud)
{
    if (series.isEmpty() || baud <= 0) {
        return std::nullopt;
    }
    const SeriesPyramid::Level &fine = series.level(0);
    const double perBin = double(baud) / 10.0 * fine.width;
    std::optional<Outrun> at = beyondBuffers(fine, perBin);
    if (const std::optional<Outrun> onTime = aheadOnTime(fine, perBin, baud);
        onTime && (!at || onTime->bin < at->bin)) {
        at = onTime;
    }
    if (!at) {
        return std::nullopt;
    }
    BaudExcess e;
    e.atSeconds = series.start() + double(at->bin) * fine.width;
    e.backlogBytes = at->backlog;
    e.lagSeconds = at->lag;
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
    e.lowestStandardBaud =
        lowestStandardBaud(e.peakBytesPerSecond, baud, std::numeric_limits<int>::max());
    return e;
}

namespace {

// "... which takes 230400 baud or more" / "... the console's rate is lower, 9600 baud or
// more": the lowest standard rate a finding points to.
QString atLeast(int baud, const char *none)
{
    return baud > 0 ? QStringLiteral("%1 baud or more").arg(baud) : QLatin1String(none);
}

QString excessWarning(const BaudExcess &e, int baud, const QString &whose)
{
    const double kib = e.backlogBytes / 1024.0;
    const QString ahead = QStringLiteral("%1 KiB ahead of such a UART %2 s into the capture")
                              .arg(kib, 0, 'f', kib < 10 ? 1 : 0)
                              .arg(e.atSeconds, 0, 'f', 3);
    const QString onTime =
        e.lagSeconds
            ? QStringLiteral(", which would have held them %1 s, yet their lines came within "
                             "%2 s of their kernel timestamps")
                  .arg(e.backlogBytes * 10.0 / baud, 0, 'f', 2)
                  .arg(*e.lagSeconds, 0, 'f', 3)
            : QString();
    return QStringLiteral("the bytes came faster than %1 baud (%6) can send "
                          "them: %2%3; up to %4 bytes in a second, which takes %5")
        .arg(baud)
        .arg(ahead, onTime)
        .arg(e.peakBytesPerSecond, 0, 'f', 0)
        .arg(atLeast(e.lowestStandardBaud, "more than any standard rate"), whose);
}

QString shortfallWarning(const BaudShortfall &s, int baud, const QString &whose)
{
    return QStringLiteral("the console fell behind (its lines came up to %1 s after their "
                          "kernel timestamps) while its bytes came at %2 bytes a second over "
                          "%3 s: a UART at %4 baud (%7) sends %5, so the "
                          "console's rate is lower, %6 (or it could not keep its UART busy)")
        .arg(s.lagSeconds, 0, 'f', 1)
        .arg(s.bytesPerSecond, 0, 'f', 0)
        .arg(s.behindSeconds, 0, 'f', 1)
        .arg(baud)
        .arg(baud / 10)
        .arg(atLeast(s.lowestStandardBaud, "less than any standard rate"), whose);
}

} // namespace

// A default rate that could not have sent the bytes when they came, or that would have
// sent them much faster than a console that was behind did, is no rate at all: the
// figures that need one are n/a, and the warning says what the bytes allow.
void checkDefaultBaud(Run &run)
{
    // The kernel set its UART to the rate its command line names; a capture path that
    // does not honour it (an emulator's pty at memory speed) still shows here.
    const QString whose =
        run.meta.baudSource == RunMeta::BaudSource::KernelCommandLine
            ? QStringLiteral("%1 on the kernel command line").arg(run.meta.baudStatement)
            : QStringLiteral("ttyscope's default");
    QString finding;
    if (const std::optional<BaudExcess> e = excessOverBaud(run.series, run.meta.baud)) {
        finding = excessWarning(*e, run.meta.baud, whose);
    } else if (const std::optional<BaudShortfall> s =
                   shortfallBelowBaud(run.series, run.meta.baud)) {
        finding = shortfallWarning(*s, run.meta.baud, whose);
    } else {
        return;
    }
    run.warnings << finding +
                        QStringLiteral("; the figures that need the rate (time on the wire, "
                                       "UART use) are n/a: give the console's rate with --baud");
    run.meta.baud = 0;
}

} // namespace tty
