// The rows of a report: which figures it shows, in which order, how each is read from
// the metrics, and why a cell none of whose trials has its figure is n/a.
#include "report.h"

namespace tty {

namespace {
constexpr std::optional<double> kAbsent = std::nullopt;
} // namespace

void Report::buildRows()
{
    using B = ReportRow::Better;
    auto add = [&](QString key, QString title, B better, bool integer, int decimals, auto get) {
        ReportRow r;
        r.key = std::move(key);
        r.title = std::move(title);
        r.better = better;
        r.integer = integer;
        r.decimals = decimals;
        for (const ReportColumn &c : m_columns) {
            std::vector<std::optional<double>> vals;
            for (const Metrics &m : c.metrics) {
                vals.push_back(std::optional<double>(get(m)));
            }
            r.values.push_back(vals);
            r.notes << QString();
            r.approximate.push_back(false);
            r.atLeast.push_back(false);
        }
        m_rows.push_back(std::move(r));
        return &m_rows.back();
    };
    // A count the log saw only part of: at least its value (≥), never a side's win, decided
    // by the gate only where every value from it up agrees (ReportRow::lowerBound). Set on
    // each row as it is added: `add` returns a pointer into m_rows, which the next add may
    // move.
    const auto lowerBoundWhen = [&](ReportRow *r, std::function<QString(const Metrics &)> why) {
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            for (const Metrics &m : m_columns[c].metrics) {
                r->atLeast[c] = r->atLeast[c] || !why(m).isEmpty();
            }
        }
        r->lowerBound = std::move(why);
        return r;
    };
    const auto readInPart = [](const Metrics &m) {
        return m.cutShort ? QStringLiteral("the file was read only in part") : QString();
    };
    // Counts of the lines read: a file read only in part has more past its cut.
    const auto countOfWhatWasRead = [&](ReportRow *r) { return lowerBoundWhen(r, readInPart); };
    // What the console's backlog can only raise: more past a cut, and the queued messages
    // and drop notices of a log that ends with the console behind.
    const auto backlogUnseen = [&](ReportRow *r) {
        return lowerBoundWhen(r, [](const Metrics &m) { return m.backlogUnseen(); });
    };
    // A cell none of whose trials has the figure says why, when each of its trials has a
    // reason (the row's absentWhy; empty when it has none to give): "n/a (no 'login:')",
    // or the different reasons in trial order, "n/a (no host times; no 'login:')".
    auto noteAbsent = [&](ReportRow *r) {
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            const auto &ms = m_columns[c].metrics;
            const auto &vs = r->values[c];
            if (ms.empty() || !r->notes[qsizetype(c)].isEmpty() ||
                std::any_of(vs.begin(), vs.end(), isShownValue)) {
                continue;
            }
            QStringList reasons;
            bool all = true;
            for (const Metrics &m : ms) {
                const QString why = r->absentWhy(m);
                all = all && !why.isEmpty();
                if (!why.isEmpty() && !reasons.contains(why)) {
                    reasons << why;
                }
            }
            if (all) {
                r->notes[qsizetype(c)] = QStringLiteral("n/a (%1)").arg(reasons.join(u"; "));
            }
        }
    };
    // A figure that needs host arrival times is n/a for a trial without them: never a
    // number from another clock. That is its first reason.
    auto needsArrival = [&](ReportRow *r) {
        r->absentWhy = [](const Metrics &m) {
            return m.hasArrival              ? QString()
                   : !m.notConsole.isEmpty() ? m.notConsole
                                             : QStringLiteral("no host times");
        };
        noteAbsent(r);
        return r;
    };
    // The row's other reasons, after that one.
    auto whyAbsent = [&](ReportRow *r, auto why) {
        if (r->absentWhy) {
            r->absentWhy = [first = r->absentWhy, why](const Metrics &m) {
                const QString reason = first(m);
                return reason.isEmpty() ? why(m) : reason;
            };
        } else {
            r->absentWhy = why;
        }
        noteAbsent(r);
        return r;
    };
    const auto noKernelTimes = [](const Metrics &m) {
        return m.kernelLines == 0 ? QStringLiteral("no kernel times") : QString();
    };
    countOfWhatWasRead(add("lines", "console lines", B::None, true, 0,
                           [](const Metrics &m) { return double(m.lines); }));
    countOfWhatWasRead(add("kernel_lines", "lines with kernel time", B::None, true, 0,
                           [](const Metrics &m) { return double(m.kernelLines); }));
    // A timestamp behind a prompt or a terminal reset on its line: counted above, not
    // by a grep for lines starting with one.
    countOfWhatWasRead(add("kernel_lines_behind_text", "of them, timestamp behind other text",
                           B::None, true, 0,
                           [](const Metrics &m) { return double(m.kernelLinesBehindText); }));
    // Formats that keep lines without their line ends: the ends are counted as \r\n. (Set
    // on each row as it is added: `add` returns a pointer into m_rows, which the next
    // add may move.)
    auto estimatedBytes = [&](ReportRow *r) {
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            bool estimated = false;
            for (const Run *run : m_columns[c].runs) {
                estimated = estimated || !bytesAreExact(*run);
            }
            r->approximate[c] = estimated;
        }
        return r;
    };
    // The console's own figures, absent from a kernel log read from its buffer (dmesg, the
    // journal): it has the messages a console dropped but not its drop notices, nor the
    // prefixes and line ends the console sent.
    const auto dropsUnknown = [](const Metrics &m) { return m.dropsUnknown; };
    // The bytes also when a terminal program wrote stamps in front of the lines.
    const auto bytesUnknown = [](const Metrics &m) { return m.bytesUnknown; };
    countOfWhatWasRead(estimatedBytes(whyAbsent(
        add("bytes", "bytes", B::None, true, 0,
            [](const Metrics &m) -> std::optional<double> {
                return m.bytesUnknown.isEmpty() ? std::optional<double>(double(m.bytes)) : kAbsent;
            }),
        bytesUnknown)));
    // No baud rate: --baud not given where the default could not have sent the bytes.
    const auto noBaud = [](const Metrics &m) {
        return m.baud > 0       ? QString()
               : m.noSerialLine ? QStringLiteral("a netconsole: no serial line")
                                : QStringLiteral("no baud rate: give --baud");
    };
    ReportRow *wire = add("wire_s", "time on the wire (s)", B::None, false, 3,
                          [](const Metrics &m) -> std::optional<double> {
                              return m.bytesUnknown.isEmpty() ? m.wireSeconds : kAbsent;
                          });
    countOfWhatWasRead(estimatedBytes(wire));
    whyAbsent(whyAbsent(wire, bytesUnknown), noBaud);
    countOfWhatWasRead(whyAbsent(needsArrival(add("duration_s", "duration (s)", B::None, false, 3,
                                                  [](const Metrics &m) { return m.duration; })),
                                 [](const Metrics &m) { return m.startUntimed; }));
    countOfWhatWasRead(whyAbsent(add("kernel_duration_s", "kernel time covered (s)", B::None, false,
                                     3, [](const Metrics &m) { return m.kernelDuration; }),
                                 noKernelTimes));
    countOfWhatWasRead(
        add("boots", "boots", B::None, true, 0, [](const Metrics &m) { return double(m.boots); }));
    backlogUnseen(whyAbsent(add("drops.notices", "drop notices", B::Lower, true, 0,
                                [](const Metrics &m) -> std::optional<double> {
                                    return m.dropsUnknown.isEmpty()
                                               ? std::optional<double>(double(m.dropNotices))
                                               : kAbsent;
                                }),
                            dropsUnknown));
    backlogUnseen(whyAbsent(add("drops.messages", "messages dropped", B::Lower, true, 0,
                                [](const Metrics &m) -> std::optional<double> {
                                    return m.dropCountOutOfRange || !m.dropsUnknown.isEmpty()
                                               ? kAbsent
                                               : std::optional<double>(double(m.droppedMessages));
                                }),
                            [](const Metrics &m) {
                                if (!m.dropsUnknown.isEmpty()) {
                                    return m.dropsUnknown;
                                }
                                return m.dropCountOutOfRange
                                           ? dropCountOutOfRangeReason(*m.dropCountOutOfRange)
                                           : QString();
                            }));
    for (auto [key, title, idx] : {std::tuple{"lag.max_s", "console lag max (s)", 0},
                                   std::tuple{"lag.p50_s", "console lag p50 (s)", 1},
                                   std::tuple{"lag.p99_s", "console lag p99 (s)", 2}}) {
        ReportRow *lag = whyAbsent(
            needsArrival(add(key, title, B::Lower, false, 3,
                             [idx = idx](const Metrics &m) -> std::optional<double> {
                                 return idx == 0 ? m.lagMax : idx == 1 ? m.lagP50 : m.lagP99;
                             })),
            noKernelTimes);
        // The largest lag can only grow past a cut or a backlog; a percentile may go either
        // way.
        if (idx == 0) {
            backlogUnseen(lag);
        }
    }
    const QString win = m_options.windowStart.isEmpty()
                            ? QStringLiteral("first %1 s").arg(m_options.windowSeconds)
                            : QStringLiteral("%1 s after '%2'")
                                  .arg(m_options.windowSeconds)
                                  .arg(m_options.windowStart);
    const QString only = m_options.windowMatch.isEmpty()
                             ? QString()
                             : QStringLiteral(" matching '%1'").arg(m_options.windowMatch);
    // More lines printed is better only in a throughput test, whose window opens at the
    // test's own start line; the first seconds of a boot have no direction ("A better"
    // would mean nothing there).
    const B printedBetter = m_options.windowStart.isEmpty() ? B::None : B::Higher;
    const QString noWindowStart = m_options.windowStart.isEmpty()
                                      ? QStringLiteral("no lines")
                                      : QStringLiteral("no '%1'").arg(m_options.windowStart);
    // The reasons are kept with their rows (ReportRow::absentWhy) after this function
    // returns: they capture by value.
    const auto windowMissing = [noWindowStart](const Metrics &m) {
        return m.window.found ? QString() : noWindowStart;
    };
    // Found, but its start arrived at a time not known.
    const auto windowUntimed = [windowMissing](const Metrics &m) {
        const QString missing = windowMissing(m);
        return !missing.isEmpty() ? missing : m.window.printedUnknownWhy;
    };
    // Counts of a window the log ended in (WindowResult::printedSeenSeconds), by arrival or
    // by production.
    const auto atLeast = [&](ReportRow *r, bool byProduction) {
        return lowerBoundWhen(r, [byProduction, readInPart](const Metrics &m) {
            if (!(byProduction ? m.window.producedSeenSeconds : m.window.printedSeenSeconds)) {
                return QString();
            }
            return m.cutShort ? readInPart(m) : QStringLiteral("the log ends inside the window");
        });
    };
    atLeast(whyAbsent(needsArrival(add("window.lines",
                                       QStringLiteral("lines printed%1, %2").arg(only, win),
                                       printedBetter, true, 0,
                                       [](const Metrics &m) -> std::optional<double> {
                                           return m.window.found && m.window.printedKnown
                                                      ? double(m.window.lines)
                                                      : kAbsent;
                                       })),
                      windowUntimed),
            false);
    atLeast(
        whyAbsent(
            add("window.produced",
                QStringLiteral("kernel lines produced (printed + dropped)%1, %2").arg(only, win),
                B::None, true, 0,
                [](const Metrics &m) -> std::optional<double> {
                    return m.window.found && m.window.producedKnown && !m.window.dropCountOutOfRange
                               ? std::optional<double>(double(m.window.produced))
                               : kAbsent;
                }),
            [windowMissing, noKernelTimes](const Metrics &m) {
                const QString missing = windowMissing(m);
                if (!missing.isEmpty()) {
                    return missing;
                }
                return m.window.dropCountOutOfRange
                           ? dropCountOutOfRangeReason(*m.window.dropCountOutOfRange)
                       : m.kernelLines == 0 ? noKernelTimes(m)
                                            : m.window.producedUnknownWhy;
            }),
        true);
    // Its bytes are counted as the whole capture's are: estimated where line ends are not kept.
    atLeast(whyAbsent(needsArrival(add("window.wire_s",
                                       QStringLiteral("time on the wire, %1 (s)").arg(win), B::None,
                                       false, 3,
                                       [](const Metrics &m) {
                                           return m.window.found ? m.window.wireSeconds : kAbsent;
                                       })),
                      [windowUntimed, noBaud](const Metrics &m) {
                          const QString missing = windowUntimed(m);
                          return !missing.isEmpty() ? missing : noBaud(m);
                      }),
            false);
    estimatedBytes(&m_rows.back());
    for (int s = 0; s < m_options.spans.size(); ++s) {
        const auto &sp = m_options.spans[s];
        auto span = [s](const Metrics &m) -> const SpanResult * {
            return std::size_t(s) < m.spans.size() ? &m.spans[std::size_t(s)] : nullptr;
        };
        // Which end is missing ("no 'FROM'", "no 'TO'"); with both found, the kernel-time
        // span needs both ends timestamped and in one boot.
        const auto missingEnd = [span, sp](const Metrics &m) {
            const SpanResult *r = span(m);
            const QString read = m.cutShort ? QStringLiteral(" in what was read") : QString();
            return !r || !r->fromLine ? QStringLiteral("no '%1'%2").arg(sp.first, read)
                   : !r->toLine       ? QStringLiteral("no '%1'%2").arg(sp.second, read)
                                      : QString();
        };
        whyAbsent(
            needsArrival(add(
                QStringLiteral("spans.%1.seconds").arg(s),
                QStringLiteral("span '%1' → '%2' (s)").arg(sp.first, sp.second), B::Lower, false, 3,
                [span](const Metrics &m) { return span(m) ? span(m)->seconds : kAbsent; })),
            missingEnd);
        whyAbsent(
            add(QStringLiteral("spans.%1.kernel_seconds").arg(s),
                QStringLiteral("span '%1' → '%2' by kernel time (s)").arg(sp.first, sp.second),
                B::None, false, 3,
                [span](const Metrics &m) { return span(m) ? span(m)->kernelSeconds : kAbsent; }),
            [missingEnd, span](const Metrics &m) {
                const QString end = missingEnd(m);
                return !end.isEmpty() ? end : span(m)->kernelMissing;
            });
    }
    const QString start =
        m_options.bootStart == QLatin1String("kernel") ? QStringLiteral("kernel start")
        : m_options.bootStart.isEmpty() || m_options.bootStart == QLatin1String("first-byte")
            ? QStringLiteral("first byte")
            : QStringLiteral("'%1'").arg(m_options.bootStart);
    ReportRow *bootTime = needsArrival(add(
        "boot_time_s", QStringLiteral("boot to '%1' from %2 (s)").arg(m_options.bootPattern, start),
        B::Lower, false, 3, [](const Metrics &m) { return m.bootTime; }));
    // A boot whose start the capture missed has no time from its first byte: say why.
    auto startNotCaptured = [&](ReportRow *r) {
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            const auto &ms = m_columns[c].metrics;
            if (ms.size() == 1 && !ms.front().bootStartNote.isEmpty() &&
                r->notes[qsizetype(c)].isEmpty()) {
                r->notes[qsizetype(c)] = ms.front().bootStartUntimed
                                             ? QStringLiteral("n/a (start has no host time)")
                                             : QStringLiteral("n/a (start not captured)");
            }
        }
    };
    if (start == QLatin1String("first byte")) {
        startNotCaptured(bootTime);
    }
    // A file read only in part may have its login prompt past the cut.
    const auto noBootDone = [pattern = m_options.bootPattern](const Metrics &m) {
        return QStringLiteral("no '%1'%2")
            .arg(pattern, m.cutShort ? QStringLiteral(" in what was read") : QString());
    };
    const auto bootNotDone = [noBootDone](const Metrics &m) {
        return m.bootDoneLine ? m.bootDoneNote : noBootDone(m);
    };
    // From kernel start: the boot-done line, and a kernel time to place the kernel's start.
    const auto noKernelStart = [noBootDone, noKernelTimes](const Metrics &m) {
        if (!m.bootDoneLine) {
            return noBootDone(m);
        }
        return !m.bootDoneNote.isEmpty() ? m.bootDoneNote : noKernelTimes(m);
    };
    const bool fromKernel = m_options.bootStart == QLatin1String("kernel");
    whyAbsent(bootTime, [fromKernel, noKernelStart, bootNotDone](const Metrics &m) {
        return fromKernel ? noKernelStart(m) : bootNotDone(m);
    });
    if (m_options.bootStart != QLatin1String("kernel")) {
        whyAbsent(
            needsArrival(
                add("boot_time_kernel_s",
                    QStringLiteral("boot to '%1' from kernel start (s)").arg(m_options.bootPattern),
                    B::Lower, false, 3, [](const Metrics &m) { return m.bootTimeKernel; })),
            noKernelStart);
    }
    needsArrival(
        add("boot_wire_share",
            QStringLiteral("time on the wire / boot time to '%1'").arg(m_options.bootPattern),
            B::None, false, 3, [](const Metrics &m) -> std::optional<double> {
                if (!m.bootWireSeconds || !m.bootTimeFirstByte || !(*m.bootTimeFirstByte > 0)) {
                    return kAbsent;
                }
                return *m.bootWireSeconds / *m.bootTimeFirstByte;
            }));
    startNotCaptured(&m_rows.back());
    whyAbsent(&m_rows.back(), [bootNotDone, noBaud](const Metrics &m) {
        const QString notDone = bootNotDone(m);
        return !notDone.isEmpty() ? notDone : noBaud(m);
    });
    // None in a file read only in part is not none in the run: the panic may be past the
    // cut, or behind the queue of a log that ends with the console behind.
    ReportRow *panic =
        add("panic.detected", "panic", B::None, false, 0,
            [](const Metrics &m) -> std::optional<double> {
                return m.panic.detected ? 1.0 : m.noPanicSeenWhy().isEmpty() ? 0.0 : kAbsent;
            });
    panic->boolean = true;
    whyAbsent(panic, [](const Metrics &m) { return m.noPanicSeenWhy(); });
    ReportRow *complete = add("panic.trace_complete", "panic trace complete", B::Higher, false, 0,
                              [](const Metrics &m) -> std::optional<double> {
                                  return !m.panic.detected || m.panicTraceCutOff()
                                             ? kAbsent
                                             : (m.panic.complete ? 1.0 : 0.0);
                              });
    complete->boolean = true;
    whyAbsent(complete, [](const Metrics &m) {
        return !m.panic.detected      ? (m.cutShort      ? QStringLiteral("no panic in what was read")
                                         : m.behindAtEnd ? QStringLiteral("no panic seen")
                                                         : QStringLiteral("no panic"))
               : m.panicTraceCutOff() ? QStringLiteral("the file was read only in part, after it")
                                      : QString();
    });
    for (std::size_t c = 0; c < m_columns.size(); ++c) {
        const auto &ms = m_columns[c].metrics;
        if (ms.size() == 1 && ms.front().panic.detected && !ms.front().panic.complete &&
            !ms.front().panicTraceCutOff()) {
            complete->notes[qsizetype(c)] =
                QStringLiteral("no, missing %1")
                    .arg(ms.front().panic.missing.join(QStringLiteral(", ")));
        }
    }
    for (int k = 0; k < kEventKindCount; ++k) {
        bool any = false;
        for (const ReportColumn &c : m_columns) {
            for (const Metrics &m : c.metrics) {
                any = any || m.eventCounts[std::size_t(k)] > 0;
            }
        }
        if (!any || EventKind(k) == EventKind::Drop) {
            continue;
        }
        // The kernel's reports still queued when a log ends behind count as well.
        backlogUnseen(add(
            QStringLiteral("events.%1").arg(QLatin1String(eventKindName(EventKind(k)))),
            QStringLiteral("%1 events").arg(QLatin1String(eventKindName(EventKind(k)))), B::None,
            true, 0, [k](const Metrics &m) { return double(m.eventCounts[std::size_t(k)]); }));
    }
    for (int i = 0; i < m_options.intervals.size(); ++i) {
        const QString p = m_options.intervals[i];
        auto iv = [i](const Metrics &m) -> const IntervalStats * {
            return std::size_t(i) < m.intervals.size() ? &m.intervals[std::size_t(i)] : nullptr;
        };
        countOfWhatWasRead(add(QStringLiteral("intervals.%1.matches").arg(i),
                               QStringLiteral("'%1' matches").arg(p), B::None, true, 0,
                               [iv](const Metrics &m) -> std::optional<double> {
                                   return iv(m) ? double(iv(m)->matches) : kAbsent;
                               }));
        // The time between matches needs two of them, each with the time.
        const auto fewerThanTwo = [iv](const Metrics &m) {
            return iv(m) && iv(m)->matches < 2 ? QStringLiteral("fewer than 2 matches") : QString();
        };
        // By kernel time, two matches of one boot, both stamped (the clock starts again at
        // each boot).
        const auto noKernelPair = [fewerThanTwo](const Metrics &m) {
            const QString few = fewerThanTwo(m);
            return !few.isEmpty() ? few : QStringLiteral("no two stamped in one boot");
        };
        whyAbsent(
            needsArrival(add(QStringLiteral("intervals.%1.mean_s").arg(i),
                             QStringLiteral("'%1' interval mean (s)").arg(p), B::None, false, 4,
                             [iv](const Metrics &m) { return iv(m) ? iv(m)->mean : kAbsent; })),
            fewerThanTwo);
        whyAbsent(
            needsArrival(add(QStringLiteral("intervals.%1.p50_s").arg(i),
                             QStringLiteral("'%1' interval p50 (s)").arg(p), B::None, false, 4,
                             [iv](const Metrics &m) { return iv(m) ? iv(m)->p50 : kAbsent; })),
            fewerThanTwo);
        whyAbsent(
            needsArrival(add(QStringLiteral("intervals.%1.p99_s").arg(i),
                             QStringLiteral("'%1' interval p99 (s)").arg(p), B::None, false, 4,
                             [iv](const Metrics &m) { return iv(m) ? iv(m)->p99 : kAbsent; })),
            fewerThanTwo);
        whyAbsent(add(QStringLiteral("intervals.%1.kernel_p50_s").arg(i),
                      QStringLiteral("'%1' interval p50 by kernel time (s)").arg(p), B::None, false,
                      4, [iv](const Metrics &m) { return iv(m) ? iv(m)->kernelP50 : kAbsent; }),
                  noKernelPair);
        whyAbsent(add(QStringLiteral("intervals.%1.kernel_p99_s").arg(i),
                      QStringLiteral("'%1' interval p99 by kernel time (s)").arg(p), B::None, false,
                      4, [iv](const Metrics &m) { return iv(m) ? iv(m)->kernelP99 : kAbsent; }),
                  noKernelPair);
    }
}

} // namespace tty
