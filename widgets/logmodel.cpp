#include "logmodel.h"

#include "consolecolors.h"
#include "consoletext.h"
#include "kernelprefix.h"
#include "palette.h"

#include <QBrush>
#include <QDateTime>
#include <QFontDatabase>

#include <algorithm>
#include <cmath>

namespace tty {

LogModel::LogModel(QObject *parent) : QAbstractTableModel(parent) {}

void LogModel::setRun(std::shared_ptr<const Run> run)
{
    beginResetModel();
    m_run = std::move(run);
    m_filter.reset();
    m_matches.reset();
    m_rows = targetRows();
    endResetModel();
}

int LogModel::targetRows() const
{
    // QAbstractItemModel counts rows in int: more than 2^31 lines are not shown.
    constexpr LineCount kMax{std::numeric_limits<int>::max()};
    if (!m_run) {
        return 0;
    }
    return int(
        std::min(m_filter ? LineCount(std::int64_t(m_filter->size())) : m_run->lines.size(), kMax)
            .count());
}

void LogModel::linesChanged()
{
    if (!m_run || m_filter) {
        return; // a filtered view keeps its rows until the next search
    }
    const int now =
        int(std::min<std::int64_t>(m_run->lines.size().count(), std::numeric_limits<int>::max()));
    if (m_rows > 0) {
        emit dataChanged(index(m_rows - 1, 0), index(m_rows - 1, ColumnCount - 1));
    }
    if (now > m_rows) {
        beginInsertRows({}, m_rows, now - 1);
        m_rows = now;
        endInsertRows();
    } else if (now < m_rows) {
        beginResetModel();
        m_rows = now;
        endResetModel();
    }
}

void LogModel::setFilter(std::shared_ptr<const std::vector<LineIndex>> lines)
{
    beginResetModel();
    m_filter = std::move(lines);
    m_rows = targetRows();
    endResetModel();
}

void LogModel::setMatches(std::shared_ptr<const std::vector<LineIndex>> lines)
{
    m_matches = std::move(lines);
    if (rowCount() > 0) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::BackgroundRole});
    }
}

void LogModel::setWallClock(bool on)
{
    m_wallClock = on;
    if (rowCount() > 0) {
        emit dataChanged(index(0, Arrival), index(rowCount() - 1, Arrival), {Qt::DisplayRole});
    }
}

std::optional<LineIndex> LogModel::lineAt(int row) const
{
    if (m_filter) {
        return row >= 0 && std::size_t(row) < m_filter->size()
                   ? std::optional<LineIndex>((*m_filter)[std::size_t(row)])
                   : std::nullopt;
    }
    return LineIndex(row);
}

int LogModel::rowOf(LineIndex line) const
{
    if (!m_filter) {
        return int(std::clamp<std::int64_t>(line.value(), 0, std::max(rowCount() - 1, 0)));
    }
    auto it = std::upper_bound(m_filter->begin(), m_filter->end(), line);
    const int row = it == m_filter->begin() ? 0 : int(it - m_filter->begin()) - 1;
    return std::min(row, std::max(m_rows - 1, 0));
}

int LogModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_run) {
        return 0;
    }
    return m_rows;
}

int LogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString LogModel::displayText(std::string_view bytes, bool showControls, QVector<int> *ranges,
                              QVector<int> *styles)
{
    auto utf8 = [](std::string_view b) { return QString::fromUtf8(b.data(), qsizetype(b.size())); };
    if (!hasControls(bytes)) {
        return utf8(bytes);
    }
    if (!showControls && !styles) {
        return utf8(printedText(bytes));
    }
    QString s;
    // The control spans between two printed pieces, in caret notation, not the Control
    // Pictures block (U+2400): most monospace fonts lack those and draw boxes.
    auto controls = [&](std::size_t from, std::size_t to) {
        const std::string_view gap = bytes.substr(from, to - from);
        for (const ControlSpan &span : controlSpans(gap)) {
            const int begin = int(s.size());
            for (std::size_t i = span.begin; i < span.end; ++i) {
                const unsigned char c = static_cast<unsigned char>(gap[i]);
                if (c < 0x20) {
                    s += QLatin1Char('^');
                    s += QLatin1Char(char(c + 0x40));
                } else if (c == 0x7f) {
                    s += QStringLiteral("^?");
                } else {
                    s += QLatin1Char(char(c)); // the sequence's own printable bytes
                }
            }
            if (ranges) {
                *ranges << begin << int(s.size());
            }
        }
    };
    std::size_t at = 0;
    for (const TextPiece &p : printedPieces(bytes)) {
        if (showControls && p.begin > at) {
            controls(at, p.begin);
        }
        const int begin = int(s.size());
        s += utf8(bytes.substr(p.begin, p.end - p.begin));
        if (styles && !p.style.plain()) {
            *styles << begin << int(s.size()) << packColor(p.style.fg) << int(p.style.bold);
        }
        at = p.end;
    }
    if (showControls && at < bytes.size()) {
        controls(at, bytes.size());
    }
    return s;
}

void LogModel::setShowControls(bool on)
{
    if (on == m_showControls) {
        return;
    }
    m_showControls = on;
    if (rowCount() > 0) {
        emit dataChanged(index(0, Text), index(rowCount() - 1, Text));
    }
}

void LogModel::setTimesInText(bool on)
{
    if (on == m_timesInText) {
        return;
    }
    m_timesInText = on;
    if (rowCount() > 0) {
        emit dataChanged(index(0, Text), index(rowCount() - 1, Text));
    }
}

std::size_t LogModel::timestampBytes(std::string_view bytes)
{
    const KernelPrefix p = parseKernelPrefix(bytes);
    if (!p.time || p.timeAt != 0) {
        return 0;
    }
    if (p.sequence) {
        return p.message; // a record header: "6,416,1758426,-;" (its caller= is in it)
    }
    const std::size_t close = bytes.find(']');
    if (close == std::string_view::npos) {
        return 0;
    }
    std::size_t end = close + 1;
    if (end < bytes.size() && bytes[end] == ' ') {
        ++end;
    }
    return end;
}

std::string_view LogModel::shownBytes(const LineText &text) const
{
    const std::string_view bytes = text.view();
    return m_timesInText ? bytes : bytes.substr(timestampBytes(bytes));
}

QStringList LogModel::copiedText(const std::vector<int> &rows) const
{
    QStringList out;
    out.reserve(qsizetype(rows.size()));
    for (int row : rows) {
        const std::optional<LineIndex> line = m_run ? lineAt(row) : std::nullopt;
        if (!line || *line >= m_run->lines.endIndex()) {
            out << QString();
            continue;
        }
        const LineText text = m_run->lines.text(*line);
        out << displayText(text.view(), m_showControls);
    }
    return out;
}

const Event *LogModel::eventOf(LineIndex line) const
{
    const auto &ev = m_run->events;
    auto it = std::lower_bound(ev.begin(), ev.end(), line,
                               [](const Event &e, LineIndex l) { return e.line < l; });
    for (; it != ev.end() && it->line == line; ++it) {
        if (it->note < 0) {
            return &*it;
        }
    }
    return nullptr;
}

QVariant LogModel::data(const QModelIndex &index, int role) const
{
    if (!m_run || !index.isValid()) {
        return {};
    }
    const std::optional<LineIndex> at = lineAt(index.row());
    if (!at || *at < LineIndex(0) || *at >= m_run->lines.endIndex()) {
        return {};
    }
    const LineIndex line = *at;
    switch (role) {
    case LineRole:
        return qlonglong(line.value());
    case ControlRangesRole: {
        QVector<int> ranges;
        if (index.column() == Text && m_showControls) {
            const LineText text = m_run->lines.text(line);
            displayText(shownBytes(text), true, &ranges);
        }
        return QVariant::fromValue(ranges);
    }
    case StyleRunsRole: {
        QVector<int> styles;
        if (index.column() == Text) {
            const LineText text = m_run->lines.text(line);
            displayText(shownBytes(text), m_showControls, nullptr, &styles);
        }
        return QVariant::fromValue(styles);
    }
    case Qt::DisplayRole: {
        switch (index.column()) {
        case Number:
            return qlonglong(lineNumber(line));
        case Arrival: {
            if (!m_run->hasArrival) {
                return QStringLiteral("–");
            }
            const std::optional<HostNs> a = m_run->lines.arrival(line);
            if (m_wallClock && m_run->arrivalIsWallClock && a) {
                return QDateTime::fromMSecsSinceEpoch(a->count() / 1000000, Qt::UTC)
                    .toString(QStringLiteral("HH:mm:ss.zzz"));
            }
            const std::optional<RunSeconds> t = m_run->timeOf(line);
            return t ? QString::number(t->count(), 'f', 6) : QStringLiteral("–");
        }
        case Kernel: {
            const std::optional<KernelUs> k = m_run->lines.kernelTime(line);
            return k ? QStringLiteral("%1.%2")
                           .arg(k->count() / 1000000)
                           .arg(k->count() % 1000000, 6, 10, QLatin1Char('0'))
                     : QString();
        }
        case Lag: {
            const std::optional<Seconds> lag = m_run->lagOf(line);
            return lag ? QString::number(lag->count(), 'f', 3) : QString();
        }
        case Text: {
            const LineText text = m_run->lines.text(line);
            return displayText(shownBytes(text), m_showControls);
        }
        }
        return {};
    }
    case Qt::TextAlignmentRole:
        return index.column() == Text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole: {
        if (index.column() != Text) {
            return QBrush(QColor(128, 128, 128));
        }
        const std::optional<int> level = m_run->lines.level(line);
        if (const Event *e = eventOf(line)) {
            if (e->kind == EventKind::Panic || e->kind == EventKind::Oops ||
                e->kind == EventKind::Bug) {
                return QBrush(darkTheme() ? QColor(255, 110, 110) : QColor(180, 0, 0));
            }
        }
        if (level && *level <= 3) {
            return QBrush(darkTheme() ? QColor(255, 110, 110) : QColor(180, 0, 0));
        }
        if (level == 4) {
            return QBrush(darkTheme() ? QColor(255, 190, 90) : QColor(160, 90, 0));
        }
        return {};
    }
    case Qt::BackgroundRole: {
        if (m_matches && std::binary_search(m_matches->begin(), m_matches->end(), line)) {
            return QBrush(darkTheme() ? QColor(110, 90, 0) : QColor(255, 240, 150));
        }
        if (const Event *e = eventOf(line)) {
            if (e->kind == EventKind::CallTrace || e->kind == EventKind::TraceEnd ||
                e->kind == EventKind::Console) {
                return {};
            }
            QColor c = kindStyle(e->kind).color;
            c.setAlpha(darkTheme() ? 90 : 45);
            return QBrush(c);
        }
        return {};
    }
    case Qt::ToolTipRole:
        if (const Event *e = eventOf(line)) {
            QString tip = eventKindTitle(e->kind);
            if (e->kind == EventKind::Drop) {
                tip += QStringLiteral(": %1 message(s)").arg(e->count);
            }
            return tip;
        }
        return {};
    }
    return {};
}

QVariant LogModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (o == Qt::Vertical) {
        return {};
    }
    switch (section) {
    case Number:
        return QStringLiteral("line");
    case Arrival:
        return m_wallClock ? QStringLiteral("arrival (UTC)") : QStringLiteral("arrival (s)");
    case Kernel:
        return QStringLiteral("kernel time");
    case Lag:
        return QStringLiteral("lag (s)");
    case Text:
        return QStringLiteral("console text");
    }
    return {};
}

} // namespace tty
