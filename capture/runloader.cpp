#include "runloader.h"

#include "formats.h"
#include "inputfile.h"
#include "runbuilder.h"

#include <QFileInfo>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace tty {

namespace {

// Hands decompressed blocks from the reader thread to the parser, a few at a time, so
// that memory stays bounded whatever the file size.
class BlockQueue
{
public:
    explicit BlockQueue(std::size_t capacity) : m_capacity(capacity) {}
    bool push(std::string block)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_notFull.wait(lock, [&] { return m_queue.size() < m_capacity || m_stopped; });
        if (m_stopped) {
            return false;
        }
        m_queue.push_back(std::move(block));
        m_notEmpty.notify_one();
        return true;
    }
    bool pop(std::string *block)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_notEmpty.wait(lock, [&] { return !m_queue.empty() || m_closed; });
        if (m_queue.empty()) {
            return false;
        }
        *block = std::move(m_queue.front());
        m_queue.pop_front();
        m_notFull.notify_one();
        return true;
    }
    void close()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_closed = true;
        m_notEmpty.notify_all();
    }
    void stop()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stopped = true;
        m_notFull.notify_all();
    }
    // Blocks go back to the reader once parsed: fresh 1 MiB buffers would cost page faults
    // and zeroing for every block of a gigabyte file.
    void recycle(std::string block)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_free.size() < m_capacity) {
            m_free.push_back(std::move(block));
        }
    }
    std::string spare()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_free.empty()) {
            return {};
        }
        std::string b = std::move(m_free.back());
        m_free.pop_back();
        return b;
    }

private:
    std::size_t m_capacity;
    std::deque<std::string> m_queue;
    std::vector<std::string> m_free;
    std::mutex m_mutex;
    std::condition_variable m_notFull, m_notEmpty;
    bool m_closed = false;
    bool m_stopped = false;
};

} // namespace

std::unique_ptr<Run> loadRun(const QString &path, const LoadOptions &options, QString *error)
{
    InputFile input;
    if (!input.open(path, error)) {
        return nullptr;
    }
    auto run = std::make_unique<Run>();
    run->meta.source = path;
    run->meta.label = QFileInfo(path).fileName();

    static const RuleSet builtinRules = RuleSet::builtin();
    const RuleSet &rules = options.rules ? *options.rules : builtinRules;
    RunBuilder builder(*run, rules);

    std::string block;
    const bool any = input.read(block);
    QString format = options.format.isEmpty() || options.format == QLatin1String("auto")
                         ? detectFormat(std::string_view(block).substr(0, 64 * 1024))
                         : canonicalFormat(options.format);
    if (format.isEmpty()) {
        *error = QStringLiteral("unknown format '%1' (known: %2)")
                     .arg(options.format, formatNames().join(QStringLiteral(", ")));
        return nullptr;
    }
    run->meta.format = format;
    run->hasArrival = format != QLatin1String("raw") && format != QLatin1String("kmsg");
    run->arrivalIsWallClock = format == QLatin1String("hostts");
    std::unique_ptr<FormatParser> parser = makeParser(format, *run, builder);

    BlockQueue queue(8);
    std::thread reader;
    if (any) {
        queue.push(std::move(block));
        reader = std::thread([&] {
            std::string b;
            while (input.read(b)) {
                if (!queue.push(std::move(b))) {
                    break;
                }
                b = queue.spare();
            }
            queue.close();
        });
    } else {
        queue.close();
    }

    LoadProgress progress;
    progress.bytesTotal = input.compressedSize();
    bool cancelled = false;
    bool broken = false;
    std::string cur;
    while (queue.pop(&cur)) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            cancelled = true;
            break;
        }
        if (!broken && !parser->feed(cur.data(), cur.size())) {
            broken = true; // keep draining so the reader thread can finish
        }
        if (options.progress) {
            progress.bytesDone = input.compressedPos();
            progress.lines = run->lines.size();
            options.progress(progress);
        }
        queue.recycle(std::move(cur));
        cur = std::string();
    }
    queue.stop();
    if (reader.joinable()) {
        reader.join();
    }
    parser->finish();

    if (cancelled) {
        run->error = QStringLiteral("loading was cancelled after %1 lines; those were kept")
                         .arg(run->lines.size());
    } else if (!input.error().isEmpty()) {
        run->error = QStringLiteral("%1 (%2 lines before it were loaded)")
                         .arg(input.error())
                         .arg(run->lines.size());
    }
    if (!input.warning().isEmpty()) {
        run->truncated = true;
        run->warnings
            << QStringLiteral("%1 (%2 lines loaded)").arg(input.warning()).arg(run->lines.size());
    }
    if (!options.label.isEmpty()) {
        run->meta.label = options.label;
    }
    if (options.baud > 0) {
        run->meta.baud = options.baud;
    } else if (run->meta.baud <= 0) {
        run->meta.baud = kDefaultBaud;
    }
    if (run->lines.empty() && run->error.isEmpty()) {
        run->warnings << QStringLiteral("the file holds no console lines");
    }
    builder.finish();
    return run;
}

} // namespace tty
