// The unit types of capture/types.h: what must not compile is checked at compile time
// (a detection idiom: each static_assert fails the build if the expression becomes
// valid), what may is checked with exact values at run time.
#include "linetable.h"
#include "run.h"
#include "runbuilder.h"
#include "textreader.h"
#include "typesdebug.h"

#include <QSet>
#include <QVector>
#include <QtTest>

#include <type_traits>
#include <unordered_set>

using namespace tty;

namespace {

template <class A, class B, class = void> struct CanAdd : std::false_type
{
};
template <class A, class B>
struct CanAdd<A, B, std::void_t<decltype(std::declval<A>() + std::declval<B>())>> : std::true_type
{
};
template <class A, class B, class = void> struct CanSubtract : std::false_type
{
};
template <class A, class B>
struct CanSubtract<A, B, std::void_t<decltype(std::declval<A>() - std::declval<B>())>>
    : std::true_type
{
};
template <class A, class B, class = void> struct CanCompare : std::false_type
{
};
template <class A, class B>
struct CanCompare<A, B, std::void_t<decltype(std::declval<A>() < std::declval<B>())>>
    : std::true_type
{
};
// RunBuilder::addLine(text, arrival, flags, kernel), default level and prefix parsing.
template <class Arrival, class Kernel, class = void> struct CanAddLine : std::false_type
{
};
template <class Arrival, class Kernel>
struct CanAddLine<
    Arrival, Kernel,
    std::void_t<decltype(std::declval<RunBuilder &>().addLine(
        std::string_view(), std::declval<Arrival>(), std::uint16_t(0), std::declval<Kernel>()))>>
    : std::true_type
{
};

// The swap that used to compile (all three were int64_t): arrival and kernel time
// exchanged in RunBuilder::addLine.
static_assert(CanAddLine<HostNs, KernelUs>::value);
static_assert(!CanAddLine<KernelUs, HostNs>::value, "arrival and kernel time swapped");
static_assert(!CanAddLine<std::int64_t, KernelUs>::value, "a raw count is not a host time");
static_assert(std::is_invocable_v<decltype(&RunBuilder::addLine), RunBuilder &, std::string_view,
                                  HostNs, std::uint16_t, KernelUs, int, bool>);
static_assert(!std::is_invocable_v<decltype(&RunBuilder::addLine), RunBuilder &, std::string_view,
                                   KernelUs, std::uint16_t, HostNs, int, bool>);

// Clocks do not mix, and points on one clock do not add.
static_assert(!CanAdd<HostNs, KernelUs>::value, "HostNs + KernelUs");
static_assert(!CanAdd<KernelUs, HostNs>::value);
static_assert(!CanSubtract<HostNs, KernelUs>::value);
static_assert(!CanCompare<HostNs, KernelUs>::value);
static_assert(!CanAdd<HostNs, HostNs>::value);
static_assert(!CanAdd<HostNs, std::int64_t>::value, "a raw count has no unit");
static_assert(!CanAdd<KernelUs, Nanoseconds>::value, "would drop precision");
static_assert(!CanAdd<RunSeconds, double>::value);
static_assert(!std::is_convertible_v<std::int64_t, HostNs>);
static_assert(!std::is_convertible_v<HostNs, std::int64_t>);
static_assert(!std::is_convertible_v<KernelUs, HostNs>);
// ...what does make sense does compile.
static_assert(std::is_same_v<decltype(HostNs() - HostNs()), Nanoseconds>);
static_assert(std::is_same_v<decltype(KernelUs() - KernelUs()), Microseconds>);
static_assert(std::is_same_v<decltype(HostNs() + Nanoseconds()), HostNs>);
static_assert(std::is_same_v<decltype(HostNs() - Microseconds()), HostNs>);
static_assert(std::is_same_v<decltype(RunSeconds() - RunSeconds()), Seconds>);
// The run's time queries answer in run time, a lag in a span of it: a run time is not a
// host time, and a plain double (a view x, a shift) cannot be passed where one is asked.
static_assert(
    std::is_same_v<decltype(std::declval<Run>().timeOf(LineIndex())), std::optional<RunSeconds>>);
static_assert(std::is_same_v<decltype(std::declval<Run>().producedAt(LineIndex())),
                             std::optional<RunSeconds>>);
static_assert(
    std::is_same_v<decltype(std::declval<Run>().lagOf(LineIndex())), std::optional<Seconds>>);
static_assert(!std::is_invocable_v<decltype(&Run::lineAt), const Run &, double>,
              "a view x is not a run time");
static_assert(!std::is_invocable_v<decltype(&Run::lineAt), const Run &, HostNs>);
static_assert(!CanCompare<RunSeconds, HostNs>::value);
static_assert(!CanAdd<RunSeconds, RunSeconds>::value);

// Positions and counts: index + index is meaningless, index - index is a count.
static_assert(!CanAdd<LineIndex, LineIndex>::value, "LineIndex + LineIndex");
static_assert(!CanAdd<LineIndex, int>::value, "add a LineCount, not a raw number");
static_assert(!CanCompare<LineIndex, LineCount>::value);
static_assert(!CanAdd<LineIndex, ByteCount>::value, "lines and bytes do not mix");
static_assert(!CanCompare<LineIndex, ByteOffset>::value);
static_assert(!std::is_convertible_v<int, LineIndex>);
static_assert(!std::is_convertible_v<LineCount, LineIndex>);
static_assert(std::is_same_v<decltype(LineIndex() - LineIndex()), LineCount>);
static_assert(std::is_same_v<decltype(LineIndex() + LineCount()), LineIndex>);
static_assert(std::is_same_v<decltype(LineCount() + LineIndex()), LineIndex>);
static_assert(std::is_same_v<decltype(LineCount() + LineCount()), LineCount>);

// Zero cost: one int64, copied like one.
static_assert(sizeof(HostNs) == sizeof(std::int64_t) && sizeof(KernelUs) == 8 &&
              sizeof(LineIndex) == 8 && sizeof(LineCount) == 8 && sizeof(RunSeconds) == 8);
static_assert(std::is_trivially_copyable_v<HostNs> && std::is_trivially_copyable_v<LineIndex>);

} // namespace

class TstTypes : public QObject
{
    Q_OBJECT
private slots:
    void clockArithmetic()
    {
        const HostNs a(1700000000250000000), b(1700000001000000000);
        QCOMPARE(b - a, Nanoseconds(750000000));
        QCOMPARE(a + Nanoseconds(750000000), b);
        QCOMPARE(Nanoseconds(750000000) + a, b);
        QCOMPARE(b - Nanoseconds(750000000), a);
        QCOMPARE(a + Microseconds(3), HostNs(1700000000250003000)); // µs converted exactly
        HostNs c = a;
        c += Nanoseconds(5);
        c -= Nanoseconds(2);
        QCOMPARE(c.count(), std::int64_t(1700000000250000003));
        QVERIFY(a < b && b > a && a <= a && a != b);

        const KernelUs k0(1500000), k1(2000123);
        QCOMPARE(k1 - k0, Microseconds(500123));
        QCOMPARE(k0 + Microseconds(1), KernelUs(1500001));
        QCOMPARE(k0.sinceOrigin(), Microseconds(1500000));
        // The host time of kernel time 0, as the boot offsets compute it.
        QCOMPARE(HostNs(5000000000) - k0.sinceOrigin(), HostNs(3500000000));

        const RunSeconds t(2.5);
        QCOMPARE((t - RunSeconds(1.0)).count(), 1.5);
        QCOMPARE((t + Seconds(0.25)).count(), 2.75);
    }

    // Corrupt logs carry any time; integer clocks saturate instead of wrapping (found by
    // fuzz_load_zstd: a marker at -2^63 + 1 less the run's origin).
    void clockArithmeticSaturates()
    {
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
        constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
        QCOMPARE(HostNs(kMin + 1) - HostNs(1700000000000000000), Nanoseconds(kMin));
        QCOMPARE(HostNs(kMax) - HostNs(-1), Nanoseconds(kMax));
        QCOMPARE(HostNs(kMax - 5) + Nanoseconds(10), HostNs(kMax));
        QCOMPARE(HostNs(kMin + 5) - Nanoseconds(10), HostNs(kMin));
        QCOMPARE(HostNs(kMin + 5) + Nanoseconds(-10), HostNs(kMin));
        QCOMPARE(HostNs(kMax - 5) - Nanoseconds(-10), HostNs(kMax));
        HostNs c(kMax - 1);
        c += Nanoseconds(2);
        QCOMPARE(c, HostNs(kMax));
        c -= Nanoseconds(kMax);
        c -= Nanoseconds(kMax);
        QCOMPARE(c, HostNs(-kMax));
        // Within range nothing changes.
        QCOMPARE(HostNs(kMin) - HostNs(kMin), Nanoseconds(0));
        QCOMPARE(HostNs(-1) - HostNs(kMax), Nanoseconds(kMin));
    }

    void lineArithmetic()
    {
        const LineIndex i(3), j(10);
        QCOMPARE(j - i, LineCount(7));
        QCOMPARE(i + LineCount(7), j);
        QCOMPARE(LineCount(7) + i, j);
        QCOMPARE(j - 7_lines, i);
        QCOMPARE(LineCount(4) + LineCount(2), 6_lines);
        QCOMPARE(LineCount(4) - LineCount(6), LineCount(-2));
        QCOMPARE(LineCount(10) / 4, LineCount(2));
        QCOMPARE(LineCount(10) / LineCount(4), std::int64_t(2));
        QCOMPARE(LineCount(3) * 4, 12_lines);
        LineIndex k = i;
        QCOMPARE(++k, LineIndex(4));
        QCOMPARE(k++, LineIndex(4));
        QCOMPARE(k, LineIndex(5));
        QCOMPARE(--k, LineIndex(4));
        k += 6_lines;
        QCOMPARE(k.value(), std::int64_t(10));
        QCOMPARE(lineNumber(LineIndex(0)), std::int64_t(1));
        QCOMPARE(ByteOffset(100) - ByteOffset(40), ByteCount(60));
    }

    // Where a time may be missing the line table says so with std::optional; its packed
    // "none" never leaves it.
    void lineTableOptionals()
    {
        LineTable t;
        QVERIFY(t.empty());
        QCOMPARE(t.size(), 0_lines);
        QCOMPARE(t.endIndex(), LineIndex(0));
        t.append("a", HostNs(42), KernelUs(0), 0); // kernel time 0 is a time
        t.append("b", std::nullopt, std::nullopt, 0);
        t.append("c", HostNs(-7), KernelUs(-5), 0); // a negative kernel time counts as none
        QCOMPARE(t.size(), 3_lines);
        QCOMPARE(t.endIndex(), LineIndex(3));
        QCOMPARE(t.arrival(LineIndex(0)), std::optional<HostNs>(HostNs(42)));
        QCOMPARE(t.kernelTime(LineIndex(0)), std::optional<KernelUs>(KernelUs(0)));
        QVERIFY(!t.arrival(LineIndex(1)));
        QVERIFY(!t.kernelTime(LineIndex(1)));
        QCOMPARE(t.arrival(LineIndex(2)), std::optional<HostNs>(HostNs(-7)));
        QVERIFY(!t.kernelTime(LineIndex(2)));
        t.setArrival(LineIndex(1), HostNs(43));
        QCOMPARE(t.arrival(LineIndex(1)), std::optional<HostNs>(HostNs(43)));
        QCOMPARE(LineTable::unpackArrival(LineTable::packArrival(HostNs(123))),
                 std::optional<HostNs>(HostNs(123)));
        QVERIFY(!LineTable::unpackArrival(LineTable::packArrival(std::nullopt)));
        TextReader reader(t);
        QCOMPARE(reader.findContaining("c", LineIndex(0), t.endIndex()),
                 std::optional<LineIndex>(LineIndex(2)));
        QVERIFY(!reader.findContaining("x", LineIndex(0), t.endIndex()));
    }

    // The builder takes typed times; a line without a kernel time given has its prefix
    // parsed, one without an arrival has none.
    void builderTakesTypedTimes()
    {
        Run run;
        run.hasArrival = true;
        const RuleSet rules = RuleSet::builtin();
        RunBuilder b(run, rules);
        b.addLine("[    1.500000] hello", HostNs(2000000000));
        b.addLine("kmsg record", HostNs(2100000000), 0, KernelUs(1600000), 6, false);
        b.finish();
        QCOMPARE(run.lines.size(), 2_lines);
        QCOMPARE(run.lines.kernelTime(LineIndex(0)), std::optional<KernelUs>(KernelUs(1500000)));
        QCOMPARE(run.lines.kernelTime(LineIndex(1)), std::optional<KernelUs>(KernelUs(1600000)));
        QCOMPARE(run.lines.arrival(LineIndex(1)), std::optional<HostNs>(HostNs(2100000000)));
        // Kernel time 0 on the host clock: the lower envelope of arrival - kernel time.
        QCOMPARE(run.boots.front().kernelZero, std::optional<HostNs>(HostNs(500000000)));
        const std::optional<RunSeconds> produced = run.producedAt(LineIndex(1));
        QVERIFY(produced && std::abs(produced->count() - 0.1) < 1e-9); // -1.5 s + 1.6 s
        QCOMPARE(run.lagOf(LineIndex(0)), std::optional<Seconds>(Seconds(0.0)));
        QVERIFY(run.boots.front().firstKernelLine == LineIndex(0));
    }

    void containersAndDebug()
    {
        QSet<LineIndex> lines{LineIndex(1), LineIndex(2), LineIndex(1)};
        QCOMPARE(lines.size(), 2);
        std::unordered_set<HostNs> times{HostNs(5), HostNs(5), HostNs(6)};
        QCOMPARE(times.size(), std::size_t(2));
        QVector<KernelUs> ks{KernelUs(3), KernelUs(1)};
        std::sort(ks.begin(), ks.end());
        QCOMPARE(ks.front(), KernelUs(1));
        QString out;
        QDebug(&out).nospace() << HostNs(7) << ' ' << LineIndex(8) << ' ' << 9_lines;
        QCOMPARE(out, QStringLiteral("7 8 9"));
    }
};

QTEST_GUILESS_MAIN(TstTypes)
#include "tst_types.moc"
