// A ttyscope recording (docs/format.md) read into blocks of whole lines, so that its lines
// are parsed on every core like a host-timestamped log's: the reader thread decodes the
// records, frames the console lines of the data records and stamps each with the arrival
// of its first byte; what is not a line (markers, gaps, the header, the recorder's
// warnings) travels with the block, in its place among the lines.
#pragma once

#include "lineframer.h"
#include "recordingdecoder.h"
#include "stampedblocks.h"

#include <QString>

#include <functional>

namespace tty {

struct RunMeta;

class RecordingBlockMaker : public StampedBlockMaker
{
public:
    // A block is delivered once it holds about blockBytes of text; `spare` gives the
    // buffer for the next one.
    RecordingBlockMaker(std::size_t blockBytes, Deliver deliver, Spare spare);

    bool feed(const char *p, std::size_t n) override;
    void finish() override;
    // A broken stream stops the load; one cut inside a record is read in part.
    void report(Run &run) const override;

    // The stream broke here (an unreadable record header): what came before it was kept.
    const QString &error() const { return m_decoder.error(); }
    // The stream was cut inside a record.
    const QString &warning() const { return m_decoder.warning(); }

private:
    void piece(const RecordingDecoder::Piece &p);
    void line(const LineFramer::Line &l);
    void note(BlockNote::Type type, EventKind kind, HostNs arrival, std::string text);

    StampedBlockWriter m_out;
    RecordingDecoder m_decoder;
    LineFramer m_framer;
    RecordingClock m_clock;
    std::string m_payload; // a record's payload gathered from its pieces
    bool m_broken = false;
};

// The header record's JSON (the tool, host, label, source, baud) into the run's metadata.
void applyRecordingHeader(std::string_view json, RunMeta &meta);

} // namespace tty
