#include "liverun.h"

#include "recordingblocks.h"
#include "runloader.h"

#include <QJsonObject>

namespace tty {

LiveRun::LiveRun(const RuleSet *rules, std::int64_t idleNs)
    : m_ownRules(rules ? nullptr : std::make_unique<RuleSet>(RuleSet::builtin())),
      m_builder(m_run, rules ? *rules : *m_ownRules), m_idleNs(idleNs)
{
    // A live capture is a recording being written: its clocks are a recording's.
    const FormatInfo &info = formatInfo(Format::Ttyscope);
    m_run.meta.format = info.id;
    m_run.hasArrival = info.hasArrival;
    m_run.arrivalIsWallClock = info.arrivalIsWallClock;
    m_run.growLock = std::make_shared<GrowLock>(); // it grows while it is shown
}

void LiveRun::add(const std::vector<LiveRecord> &records)
{
    for (const LiveRecord &r : records) {
        add(r);
    }
}

void LiveRun::add(const LiveRecord &r)
{
    const HostNs t = m_clock.arrival(r.wall, r.mono);
    switch (r.type) {
    case 'D':
        m_lastDataMono = r.mono;
        m_builder.addBytes(std::int64_t(r.data.size()));
        m_framer.feed(r.data.data(), r.data.size(), t,
                      [this](const LineFramer::Line &l) { line(l); });
        if (m_shown && m_framer.pending().size() > m_shownBytes) {
            // The shown prompt grew but is still not a whole line: show it as it is now.
            m_shownBytes = m_framer.pending().size();
            m_builder.replaceLastLine(m_framer.pending(), NoNewline);
        }
        break;
    case 'H':
        header(r.data);
        break;
    case 'M':
        m_builder.addNoteEvent(EventKind::Marker, r.data, t);
        break;
    case 'S':
        m_builder.addNoteEvent(EventKind::Marker, "sent: " + r.data, t);
        break;
    case 'G':
        m_builder.addNoteEvent(EventKind::Gap, "capture gap: " + r.data, t);
        break;
    case 'R':
        m_builder.addNoteEvent(EventKind::Gap, "capture resumed: " + r.data, t);
        break;
    case 'W':
        m_builder.addRecorderWarning(r.data);
        break;
    case 'E':
        m_run.captureEnd = t;
        break;
    default:
        break;
    }
}

void LiveRun::line(const LineFramer::Line &l)
{
    const std::uint16_t flags = l.newline ? 0 : (l.split ? Split : NoNewline);
    if (m_shown) {
        m_shown = false;
        m_builder.replaceLastLine(l.text, flags);
    } else {
        m_builder.addLine(l.text, l.firstByte, flags);
    }
}

void LiveRun::idle(std::int64_t monoNow)
{
    const std::string_view p = m_framer.pending();
    if (m_shown || p.empty() || monoNow - m_lastDataMono < m_idleNs) {
        return;
    }
    m_builder.addLine(p, m_framer.pendingTime(), NoNewline);
    m_shown = true;
    m_shownBytes = p.size();
}

void LiveRun::finish()
{
    m_framer.finish([this](const LineFramer::Line &l) { line(l); });
    m_shown = false;
    m_builder.finish();
}

std::size_t LiveRun::stableEvents() const
{
    if (!m_shown) {
        return m_run.events.size();
    }
    // The first event of the open line (not a note placed before it). Those before it are
    // of earlier lines: a binary search, since this runs on each turn while a prompt shows.
    const LineIndex open = m_run.lines.endIndex() - 1_lines;
    std::size_t n = m_run.eventsBefore(open);
    while (n < m_run.events.size() && !(m_run.events[n].line == open && !m_run.events[n].note)) {
        ++n;
    }
    return n;
}

void LiveRun::header(const std::string &json)
{
    // Read as a loaded recording's header is; but a live run has no file behind it, so its
    // source is the capture's (the header's "source"), its label that source unless the
    // header names one, and its baud the header's, else ttyscope's default, as a report of
    // the recording takes it (which then checks it against the bytes: runloader.cpp).
    RunMeta &m = m_run.meta;
    m.baud = 0;
    applyRecordingHeader(json, m);
    m_defaultBaud = m.baud <= 0 && !m.noSerialLine; // a netconsole has no rate at all
    if (m_defaultBaud) {
        m.baud = kDefaultBaud;
        m.baudSource = RunMeta::BaudSource::Default;
    } else if (m.baud > 0) {
        m.baudSource = RunMeta::BaudSource::Recording;
    }
    m.source = m.extra.value(QStringLiteral("source")).toString();
    if (m.label.isEmpty()) {
        m.label = m.source;
    }
}

} // namespace tty
