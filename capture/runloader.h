// Loads a console log file into a Run: decompression on a reader thread, parsing on the
// calling thread, with progress and cancellation. Damage never throws data away: the Run
// keeps every line that could be read, with warnings and an error saying what happened.
#pragma once

#include "rules.h"
#include "run.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace tty {

struct LoadProgress
{
    std::int64_t bytesDone = 0; // of the file (compressed bytes for zstd)
    std::int64_t bytesTotal = 0;
    std::int64_t lines = 0;
};

struct LoadOptions
{
    QString format;                 // empty or "auto": detect
    int baud = 0;                   // overrides the recording's; 0 = from the file, else 115200
    QString label;                  // overrides the recording's label / file name
    const RuleSet *rules = nullptr; // null: the built-in table
    std::function<void(const LoadProgress &)> progress;
    const std::atomic<bool> *cancel = nullptr;
};

constexpr int kDefaultBaud = 115200;

// Returns null only when the file cannot be read at all (message in *error).
std::unique_ptr<Run> loadRun(const QString &path, const LoadOptions &options, QString *error);

} // namespace tty
