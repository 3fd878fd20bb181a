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
#include <string_view>

namespace tty {

struct LoadProgress
{
    ByteOffset bytesDone; // where in the file (compressed bytes for zstd)
    ByteCount bytesTotal; // the file's size; 0 for a pipe
    std::int64_t lines = 0;
    // The run being loaded (the callback runs on the loading thread): its lines so far
    // will not change any more, so they can be shown as they come (`ttyscope cat`).
    const Run *run = nullptr;
};

struct LoadOptions
{
    QString format;                 // empty or "auto": detect
    int baud = 0;                   // overrides the recording's; 0 = from the file, else 115200
    QString label;                  // overrides the recording's label / file name
    const RuleSet *rules = nullptr; // null: the built-in table
    std::function<void(const LoadProgress &)> progress;
    const std::atomic<bool> *cancel = nullptr;
    // The text is kept compressed in memory (textpack.h); off only to compare the two.
    bool packText = true;
};

constexpr int kDefaultBaud = 115200;

class InputFile;

// Returns null only when the file cannot be read at all (message in *error).
std::unique_ptr<Run> loadRun(const QString &path, const LoadOptions &options, QString *error);
// The same on an input already opened (a pipe can be read only once), named `path`.
// Set options.cancel on the input before opening it (InputFile::setCancel).
std::unique_ptr<Run> loadRun(InputFile &input, const QString &path, const LoadOptions &options,
                             QString *error);
// The same on bytes in memory (plain or zstd, any format), named `name`: no file, so that
// fuzzing runs fast and tests need no temporary files.
std::unique_ptr<Run> loadRunFromBytes(std::string_view bytes, const QString &name,
                                      const LoadOptions &options, QString *error);

} // namespace tty
