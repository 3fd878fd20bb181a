// Helpers for the live-capture tests: real pseudo-terminal pairs, bounded waits, and reading
// back what a recording holds.
#pragma once

#include "inputfile.h"
#include "live/capturesession.h"
#include "live/liverun.h"
#include "recordingdecoder.h"

#include <QStringList>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

namespace livetest {

// A pseudo-terminal as a stand-in serial device: the test writes on the master, the capture
// reads the slave by its /dev/pts/N name. The test keeps no slave fd open, so closing the
// master makes the device vanish.
struct Pty
{
    int master = -1;
    QString name;

    bool open()
    {
        int slave = -1;
        char buf[64] = {};
        termios raw{};
        ::cfmakeraw(&raw);
        if (::openpty(&master, &slave, buf, &raw, nullptr) != 0) {
            return false;
        }
        // Kept open until the capture has it, so the tty stays configured (raw, no echo).
        m_slave = slave;
        name = QString::fromLatin1(buf);
        ::fcntl(master, F_SETFD, FD_CLOEXEC);
        ::fcntl(slave, F_SETFD, FD_CLOEXEC);
        return true;
    }
    void releaseSlave()
    {
        if (m_slave >= 0) {
            ::close(m_slave);
            m_slave = -1;
        }
    }
    void close()
    {
        releaseSlave();
        if (master >= 0) {
            ::close(master);
            master = -1;
        }
    }
    bool write(std::string_view s) const
    {
        while (!s.empty()) {
            const ssize_t n = ::write(master, s.data(), s.size());
            if (n < 0) {
                if (errno == EINTR || errno == EAGAIN) {
                    pollfd p{master, POLLOUT, 0};
                    ::poll(&p, 1, 100);
                    continue;
                }
                return false;
            }
            s.remove_prefix(std::size_t(n));
        }
        return true;
    }
    ~Pty() { close(); }

private:
    int m_slave = -1;
};

// Polls `cond` until it holds or `ms` pass.
inline bool waitFor(const std::function<bool()> &cond, int ms)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!cond()) {
        if (std::chrono::steady_clock::now() > end) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

struct Decoded
{
    std::string data;                   // concatenated D payloads
    std::string types;                  // record types in order
    std::vector<std::string> texts;     // payloads of non-D records, in order
    std::vector<std::int64_t> dataMono; // mono time of each D record
    std::vector<std::size_t> dataEnd;   // data.size() after each D record
    QString warning, error;
};

// Decodes a recording record by record, tolerating a cut end like the loader does.
inline Decoded decode(const QString &path)
{
    Decoded d;
    tty::InputFile in;
    QString error;
    if (!in.open(path, &error)) {
        d.error = error;
        return d;
    }
    std::string text;
    tty::RecordingDecoder dec([&](const tty::RecordingDecoder::Piece &p) {
        if (p.first) {
            d.types.push_back(p.type);
            text.clear();
        }
        if (p.type == 'D') {
            d.data.append(p.data);
            if (p.first) {
                d.dataMono.push_back(p.mono);
                d.dataEnd.push_back(0);
            }
            d.dataEnd.back() = d.data.size();
        } else {
            text.append(p.data);
            if (p.last) {
                d.texts.push_back(text);
            }
        }
    });
    std::string block;
    while (in.read(block)) {
        if (!dec.feed(block.data(), block.size())) {
            break;
        }
    }
    dec.finish();
    d.warning = in.warning() + dec.warning();
    d.error = in.error() + dec.error();
    return d;
}

inline QString tempPath(const QString &dir, const char *name)
{
    return dir + QLatin1Char('/') + QLatin1String(name);
}

// Kernel-style console lines, 640 KiB in all, that a pseudo-terminal hands over at once
// (nothing paces it), ending with a panic line a capture's event output shows.
inline std::string burstOfLines()
{
    std::string sent;
    for (int seq = 0; sent.size() < (640u << 10); ++seq) {
        char line[128];
        const int n = std::snprintf(line, sizeof line,
                                    "[    1.%06d] noise: worker 0 seq %d padding padding\r\n",
                                    seq % 1000000, seq);
        sent.append(line, std::size_t(n));
    }
    return sent + "[    2.000000] Kernel panic - not syncing: end of the burst\r\n";
}

// Whether a run's warnings are the one that says its bytes outran ttyscope's default rate.
inline bool outranTheDefaultRate(const QStringList &warnings)
{
    return warnings.size() == 1 &&
           warnings.front().startsWith(QLatin1String(
               "the bytes came faster than 115200 baud (ttyscope's default) can send them: "));
}

} // namespace livetest
