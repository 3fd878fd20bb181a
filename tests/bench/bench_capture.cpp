// Live capture benchmark (run by hand; figures in docs/benchmarks.md, "Live capture"):
//  1. ingest: console text written through a pty as fast as it goes, captured with the
//     recording on and a live consumer (LiveRun, as the GUI will run it) draining at 10 Hz;
//     MiB/s and a byte-exact check of the recording;
//  2. CPU cost of capturing a 115200-baud console (11.5 KB/s, written by another process in
//     1 ms slices like a UART FIFO delivers): getrusage of the capturing process over ~10 s.
// Usage: bench_capture [MiB] [seconds]   (defaults: 256 MiB, 10 s)
#include "livetest.h"

#include "live/recordingwriter.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <random>

#include <sys/resource.h>
#include <sys/wait.h>

using namespace tty;

namespace {

std::string consoleText(std::size_t bytes, unsigned seed)
{
    static const char *const msgs[] = {
        "usb 1-1: new high-speed USB device number %u using xhci_hcd",
        "EXT4-fs (vda1): mounted filesystem with ordered data mode. Quota mode: none.",
        "systemd[1]: Started Journal Service.",
        "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
        "CPU: %u PID: %u Comm: kworker/0:1 Not tainted 6.1.0-18-amd64 #1 Debian 6.1.76-1",
        "Call Trace:",
        " <TASK>",
        " dump_stack_lvl+0x44/0x5c",
        "**** %u printk messages dropped ****",
        "harness: iteration %u done",
    };
    std::mt19937 rng(seed);
    std::string s;
    s.reserve(bytes + 256);
    char line[256];
    for (std::uint64_t us = 0; s.size() < bytes; us += rng() % 5000) {
        const char *m = msgs[rng() % 10];
        int n = std::snprintf(line, sizeof line, "[%5" PRIu64 ".%06" PRIu64 "] ", us / 1000000,
                              us % 1000000);
        n += std::snprintf(line + n, sizeof line - std::size_t(n), m, unsigned(rng() % 64),
                           unsigned(rng() % 4096));
        s.append(line, std::size_t(n));
        s += "\r\n";
    }
    s.resize(bytes);
    return s;
}

double cpuSeconds()
{
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const std::size_t mib = argc > 1 ? std::size_t(std::atoi(argv[1])) : 256;
    const int seconds = argc > 2 ? std::atoi(argv[2]) : 10;
    QTemporaryDir dir;

    // ---- 1. ingest at full speed
    {
        const std::string src = consoleText(mib << 20, 1);
        livetest::Pty pty;
        if (!pty.open()) {
            std::perror("openpty");
            return 1;
        }
        CaptureOptions o;
        o.port = pty.name;
        o.output = dir.filePath(QStringLiteral("ingest.ttyrec.zst"));
        CaptureSession s(o);
        QString error;
        if (!s.start(&error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        pty.releaseSlave();
        LiveRun live;
        const double cpu0 = cpuSeconds();
        const auto t0 = std::chrono::steady_clock::now();
        std::thread writer([&] { pty.write(src); });
        while (s.status().bytesIn < std::int64_t(src.size())) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            live.add(s.takeLive());
            live.idle(monoNowNs());
        }
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        writer.join();
        s.stop(&error);
        live.add(s.takeLive());
        const double cpu = cpuSeconds() - cpu0;
        const CaptureSession::Status st = s.status();
        const livetest::Decoded d = livetest::decode(o.output);
        const bool exact = d.data == src;
        std::printf("ingest: %zu MiB through a pty in %.2f s = %.0f MiB/s (recording %.1f MiB, "
                    "ratio %.1f; live view %" PRId64 " lines, %zu events, %" PRId64
                    " bytes left out); process CPU %.2f s; recording byte-exact: %s\n",
                    mib, secs, double(mib) / secs, double(st.recording.fileBytes) / (1 << 20),
                    double(src.size()) / double(st.recording.fileBytes),
                    live.run().lines.size().count(), live.run().events.size(), st.liveDropped, cpu,
                    exact ? "yes" : "NO");
        if (!exact) {
            return 1;
        }
    }

    // ---- 2. CPU at 115200 baud (8N1: 11520 bytes/s)
    {
        const std::string src = consoleText(std::size_t(11520) * std::size_t(seconds), 2);
        livetest::Pty pty;
        if (!pty.open()) {
            return 1;
        }
        CaptureOptions o;
        o.port = pty.name;
        o.output = dir.filePath(QStringLiteral("paced.ttyrec.zst"));
        CaptureSession s(o);
        QString error;
        if (!s.start(&error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        pty.releaseSlave();
        const pid_t pacer = ::fork();
        if (pacer == 0) {
            // Another process, so its CPU is not counted: 11.52 bytes per ms.
            const auto t0 = std::chrono::steady_clock::now();
            std::size_t done = 0;
            for (int ms = 1; done < src.size(); ++ms) {
                std::this_thread::sleep_until(t0 + std::chrono::milliseconds(ms));
                const std::size_t due = std::min(src.size(), std::size_t(ms) * 11520 / 1000);
                pty.write(std::string_view(src).substr(done, due - done));
                done = due;
            }
            ::_exit(0);
        }
        LiveRun live;
        const double cpu0 = cpuSeconds();
        const auto t0 = std::chrono::steady_clock::now();
        while (s.status().bytesIn < std::int64_t(src.size())) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100)); // the GUI's 10 Hz
            live.add(s.takeLive());
            live.idle(monoNowNs());
        }
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double cpu = cpuSeconds() - cpu0;
        ::waitpid(pacer, nullptr, 0);
        s.stop(&error);
        const CaptureSession::Status st = s.status();
        const bool exact = livetest::decode(o.output).data == src;
        std::printf("115200 baud: %zu bytes over %.1f s in %" PRId64
                    " reads; capture CPU %.3f s = %.2f%% of one core (reader, writer with zstd "
                    "and 2 flushes/s, live consumer at 10 Hz); recording byte-exact: %s\n",
                    src.size(), wall, st.reads, cpu, 100 * cpu / wall, exact ? "yes" : "NO");
        if (!exact) {
            return 1;
        }
    }
    return 0;
}
