#include "recordingblocks.h"

#include "linetable.h"
#include "run.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace tty {

RecordingBlockMaker::RecordingBlockMaker(std::size_t blockBytes, Deliver deliver, Spare spare)
    : m_out(blockBytes, std::move(deliver), std::move(spare)),
      m_decoder([this](const RecordingDecoder::Piece &p) { piece(p); })
{
}

bool RecordingBlockMaker::feed(const char *p, std::size_t n)
{
    m_broken = m_broken || !m_decoder.feed(p, n);
    return !m_broken;
}

void RecordingBlockMaker::finish()
{
    m_decoder.finish();
    m_framer.finish([this](const LineFramer::Line &l) { line(l); });
    m_out.finish();
}

void RecordingBlockMaker::piece(const RecordingDecoder::Piece &p)
{
    const HostNs t = m_clock.arrival(p.wall, p.mono);
    if (p.type == 'D') {
        m_out.block().recordedBytes += std::int64_t(p.data.size());
        m_framer.feed(p.data.data(), p.data.size(), t,
                      [this](const LineFramer::Line &l) { line(l); });
        return;
    }
    if (p.first) {
        m_payload.clear();
    }
    m_payload.append(p.data);
    if (!p.last) {
        return;
    }
    using Type = BlockNote::Type;
    switch (p.type) {
    case 'H':
        note(Type::Header, EventKind::Marker, t, m_payload);
        break;
    case 'M':
        note(Type::Event, EventKind::Marker, t, m_payload);
        break;
    case 'S':
        note(Type::Event, EventKind::Marker, t, "sent: " + m_payload);
        break;
    case 'G':
        note(Type::Event, EventKind::Gap, t, "capture gap: " + m_payload);
        break;
    case 'R':
        note(Type::Event, EventKind::Gap, t, "capture resumed: " + m_payload);
        break;
    case 'W':
        note(Type::Warning, EventKind::Marker, t, m_payload);
        break;
    case 'E':
        note(Type::End, EventKind::Marker, t, m_payload);
        break;
    default:
        break; // newer record types are skipped
    }
}

void RecordingBlockMaker::note(BlockNote::Type type, EventKind kind, HostNs arrival,
                               std::string text)
{
    // Before the next line to be completed, as a marker placed during a partial line is.
    LineBlock &b = m_out.block();
    b.notes.push_back(BlockNote{type, kind, b.stamps.size(), arrival, std::move(text)});
}

void RecordingBlockMaker::line(const LineFramer::Line &l)
{
    // The console bytes were counted by record, as they came.
    m_out.line(l.text, l.firstByte, l.newline ? 0 : (l.split ? Split : NoNewline), 0);
}

void RecordingBlockMaker::report(Run &run) const
{
    if (!error().isEmpty()) {
        run.load.stop(LoadOutcome::Damaged, error());
    }
    if (!warning().isEmpty()) {
        run.warnings << warning();
        run.load.truncate(warning()); // cut inside a record: read in part
    }
}

void applyRecordingHeader(std::string_view json, RunMeta &m)
{
    const QJsonObject o =
        QJsonDocument::fromJson(QByteArray(json.data(), qsizetype(json.size()))).object();
    m.extra = o;
    m.tool = o.value(QStringLiteral("tool")).toString() + QLatin1Char(' ') +
             o.value(QStringLiteral("version")).toString();
    if (!o.value(QStringLiteral("label")).toString().isEmpty()) {
        m.label = o.value(QStringLiteral("label")).toString();
    }
    m.host = o.value(QStringLiteral("host")).toString();
    m.startUtc = o.value(QStringLiteral("start_utc")).toString();
    m.noSerialLine = o.value(QStringLiteral("line")).toString() == QLatin1String("none");
    if (m.baud == 0) {
        m.baud = o.value(QStringLiteral("baud")).toInt();
    }
}

} // namespace tty
