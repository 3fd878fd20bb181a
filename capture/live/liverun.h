// Builds a Run from the records of a live capture, on the consumer's thread, the same way
// the loader builds one from the recording (same lines, times and events), plus what only
// live capture needs: a partial line that stays idle (a `login: ` prompt) is shown after
// a short timeout, and completed in place, not duplicated, when more bytes follow.
#pragma once

#include "capturesession.h"
#include "lineframer.h"
#include "recordingdecoder.h"
#include "rules.h"
#include "run.h"
#include "runbuilder.h"

#include <memory>
#include <vector>

namespace tty {

class LiveRun
{
public:
    // `rules` must outlive the LiveRun; null: the built-in table.
    explicit LiveRun(const RuleSet *rules = nullptr, std::int64_t idleNs = 300'000'000);

    Run &run() { return m_run; }
    const Run &run() const { return m_run; }

    // Records in capture order (CaptureSession::takeLive()).
    void add(const std::vector<LiveRecord> &records);
    void add(const LiveRecord &r);
    // Shows the pending partial line once no byte came for the idle timeout.
    void idle(std::int64_t monoNow);
    // The capture ended: the pending fragment becomes a line for good.
    void finish();

    // Events [0, stableEvents()) will not change any more (the last line's events may,
    // while it is a partial line that can still grow).
    std::size_t stableEvents() const;
    // Whether the last line is a shown partial line that may still be completed.
    bool lastLineOpen() const { return m_shown; }
    // Whether the recording stated no rate, so that the run has ttyscope's default, to be
    // checked against the bytes once the capture ends (checkDefaultBaud), as a report of
    // the recording checks it.
    bool tookDefaultBaud() const { return m_defaultBaud; }

private:
    void line(const LineFramer::Line &l);
    void header(const std::string &json);

    std::unique_ptr<RuleSet> m_ownRules;
    Run m_run;
    RunBuilder m_builder;
    LineFramer m_framer;
    std::int64_t m_idleNs;
    RecordingClock m_clock;
    std::int64_t m_lastDataMono = 0;
    bool m_shown = false; // the last line is the pending fragment, shown while idle
    bool m_defaultBaud = false;
    std::size_t m_shownBytes = 0;
};

} // namespace tty
