#include "journalentry.h"

#include "digits.h"
#include "jsonrecord.h"
#include "runbuilder.h"

namespace tty {

QString journaldTimesWarning(std::int64_t lines)
{
    return QStringLiteral(
               "%1 line(s) had journald's time, which is when journald read the message from "
               "the kernel's log, not when a console printed it: it is not used as an arrival "
               "time, and the console's figures (lag, lines printed, time on the wire) are "
               "n/a (journalctl -o json, -o export and -o short-monotonic keep the kernel's "
               "own timestamps)")
        .arg(lines);
}

std::string JournalLines::consoleText(const JournalEntry &e)
{
    const std::string &msg = e.message ? *e.message : std::string();
    const bool kernelName = e.identifier && *e.identifier == "kernel";
    if (!e.identifier || e.identifier->empty() || kernelName) {
        return msg;
    }
    std::string s = *e.identifier;
    if (e.pid && !e.pid->empty()) {
        s += "[" + *e.pid + "]";
    }
    return s + ": " + msg;
}

void JournalLines::entry(const JournalEntry &e)
{
    if (!e.message && !e.messageOmitted) {
        ++m_noMessage; // journalctl's short output skips these too
        return;
    }
    m_withRealtime += e.realtime ? 1 : 0;
    // The kernel's stamp only on kernel entries: other transports' _SOURCE_ times are
    // their senders' clocks.
    std::optional<KernelUs> kernel;
    if (e.sourceMonotonic && (!e.transport || *e.transport == "kernel")) {
        if (const auto us = parseDecimal(*e.sourceMonotonic, kMaxSecondsInNs * 1000000)) {
            kernel = KernelUs(*us);
        } else {
            ++m_badMonotonic;
        }
    }
    std::optional<int> level;
    if (e.priority && e.priority->size() == 1 && (*e.priority)[0] >= '0' &&
        (*e.priority)[0] <= '7') {
        level = (*e.priority)[0] - '0';
    }
    if (e.messageOmitted) {
        ++m_omitted;
    }
    // A message of several lines is several console lines, each with the entry's times.
    const std::string text = consoleText(e);
    std::string_view rest = text;
    do {
        const std::size_t nl = rest.find('\n');
        std::string_view line = rest.substr(0, nl);
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        m_b.addBytes(std::int64_t(line.size()) + 2);
        m_b.addRecordLine(line, std::nullopt, 0, kernel, level, 0);
    } while (!rest.empty());
}

void JournalLines::notAnEntry(std::string_view text, std::uint16_t flags, const std::string &why)
{
    if (m_notEntries++ == 0) {
        m_firstWhy = why;
    }
    m_b.addBytes(std::int64_t(text.size()) + 2);
    m_b.addLine(text, std::nullopt, flags);
}

void JournalLines::finish()
{
    if (m_notEntries > 0) {
        m_run.warnings << QStringLiteral("%1 line(s) were not journal entries (the first: %2); "
                                         "kept as console lines")
                              .arg(m_notEntries)
                              .arg(QString::fromStdString(m_firstWhy));
    }
    if (m_noMessage > 0) {
        m_run.warnings << QStringLiteral("%1 journal entr(ies) had no MESSAGE field and were "
                                         "skipped")
                              .arg(m_noMessage);
    }
    if (m_omitted > 0) {
        m_run.warnings << QStringLiteral(
                              "%1 message(s) were left out by journalctl (null: a field of "
                              "4096 bytes or more; run journalctl with --all): kept as empty "
                              "lines with their times")
                              .arg(m_omitted);
    }
    if (m_withRealtime > 0) {
        m_run.warnings << journaldTimesWarning(m_withRealtime);
    }
    if (m_badMonotonic > 0) {
        m_run.warnings << QStringLiteral("%1 kernel entr(ies) had a _SOURCE_MONOTONIC_TIMESTAMP "
                                         "that is not a time (not a number, or out of range); "
                                         "kept without kernel time")
                              .arg(m_badMonotonic);
    }
}

} // namespace tty
