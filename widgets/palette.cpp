#include "palette.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>

namespace tty {

QColor runColor(int i)
{
    // Users may pick their own colours for A and B (Settings), the defaults are Okabe-Ito.
    static const QColor defaults[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00),
                                      QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                      QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00)};
    if (i < 2) {
        const QSettings s;
        const QColor c(
            s.value(i == 0 ? QStringLiteral("colors/runA") : QStringLiteral("colors/runB"))
                .toString());
        if (c.isValid()) {
            return c;
        }
    }
    return defaults[std::size_t(i) % (sizeof defaults / sizeof defaults[0])];
}

QVector<QColor> runColors(int n)
{
    QVector<QColor> out;
    for (int i = 0; i < n; ++i) {
        out << runColor(i);
    }
    return out;
}

QColor sourceColor(int i)
{
    // Okabe-Ito first (the run colours' family), then Tableau's brown, purple, olive, cyan,
    // pink: a flood and its neighbours must never look alike.
    static const QColor colors[kSourceColorCount] = {
        QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73),
        QColor(0xd5, 0x5e, 0x00), QColor(0x56, 0xb4, 0xe9), QColor(0xcc, 0x79, 0xa7),
        QColor(0xf0, 0xe4, 0x42), QColor(0x8c, 0x56, 0x4b), QColor(0x94, 0x67, 0xbd),
        QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf), QColor(0xe3, 0x77, 0xc2)};
    const QColor c = colors[((i % kSourceColorCount) + kSourceColorCount) % kSourceColorCount];
    return darkTheme() ? c.lighter(125) : c;
}

QColor otherSourceColor()
{
    return darkTheme() ? QColor(0x7a, 0x7e, 0x82) : QColor(0xa8, 0xa8, 0xa8);
}

KindStyle kindStyle(EventKind k)
{
    using S = QCPScatterStyle;
    switch (k) {
    case EventKind::Drop:
        return {QColor(0xd6, 0x27, 0x28), S::ssTriangleInverted, 7};
    case EventKind::Ratelimit:
        return {QColor(0xff, 0x7f, 0x0e), S::ssTriangleInverted, 6};
    case EventKind::Panic:
        return {QColor(0xb0, 0x00, 0x00), S::ssStar, 13};
    case EventKind::PanicEnd:
        return {QColor(0xb0, 0x00, 0x00), S::ssCrossSquare, 10};
    case EventKind::Oops:
        return {QColor(0xe0, 0x1e, 0x5a), S::ssDiamond, 10};
    case EventKind::Bug:
        return {QColor(0xe0, 0x1e, 0x5a), S::ssSquare, 9};
    case EventKind::Warning:
        return {QColor(0xf0, 0xa0, 0x00), S::ssTriangle, 9};
    case EventKind::TraceEnd:
        return {QColor(0x99, 0x99, 0x99), S::ssCross, 6};
    case EventKind::CallTrace:
        return {QColor(0x8c, 0x56, 0x4b), S::ssPlus, 7};
    case EventKind::RcuStall:
        return {QColor(0x94, 0x67, 0xbd), S::ssDiamond, 10};
    case EventKind::SoftLockup:
        return {QColor(0x7b, 0x3f, 0xbf), S::ssSquare, 9};
    case EventKind::HardLockup:
        return {QColor(0x5b, 0x1f, 0x9f), S::ssCrossSquare, 10};
    case EventKind::HungTask:
        return {QColor(0x17, 0xa0, 0xb0), S::ssSquare, 9};
    case EventKind::Lockdep:
        return {QColor(0x8b, 0x00, 0x8b), S::ssDiamond, 10};
    case EventKind::Kasan:
    case EventKind::Kmsan:
    case EventKind::Kfence:
        return {QColor(0xc0, 0x10, 0x40), S::ssDiamond, 10};
    case EventKind::Kcsan:
        return {QColor(0xa0, 0x30, 0x60), S::ssSquare, 9};
    case EventKind::Ubsan:
        return {QColor(0xd0, 0x60, 0x20), S::ssSquare, 9};
    case EventKind::MemoryLeak:
        return {QColor(0x60, 0x80, 0x20), S::ssTriangle, 9};
    case EventKind::Oom:
        return {QColor(0x90, 0x40, 0x00), S::ssStar, 11};
    case EventKind::NmiBacktrace:
        return {QColor(0x1f, 0x77, 0xb4), S::ssPlusCircle, 9};
    case EventKind::Sysrq:
        return {QColor(0x2c, 0xa0, 0x2c), S::ssCircle, 8};
    case EventKind::Boot:
        return {QColor(0x20, 0x90, 0x20), S::ssPeace, 11};
    case EventKind::Reboot:
        return {QColor(0x50, 0x50, 0x50), S::ssPeace, 11};
    case EventKind::Console:
        return {QColor(0x7f, 0x7f, 0x7f), S::ssCircle, 6};
    case EventKind::Marker:
        return {QColor(0x00, 0x80, 0xff), S::ssDisc, 9};
    case EventKind::Gap:
        return {QColor(0x40, 0x40, 0x40), S::ssCrossCircle, 10};
    case EventKind::Firmware:
        return {QColor(0x60, 0x90, 0x60), S::ssTriangle, 8};
    }
    return {Qt::gray, S::ssCircle, 6};
}

bool darkTheme()
{
    const QPalette p = QApplication::palette();
    return p.color(QPalette::WindowText).lightness() > p.color(QPalette::Window).lightness();
}

QColor plotForeground()
{
    return darkTheme() ? QColor(0xdd, 0xdd, 0xdd) : QColor(0x20, 0x20, 0x20);
}
QColor plotBackground()
{
    return darkTheme() ? QColor(0x23, 0x26, 0x29) : QColor(Qt::white);
}
QColor plotGrid()
{
    return darkTheme() ? QColor(0x44, 0x48, 0x4c) : QColor(0xe4, 0xe4, 0xe4);
}

} // namespace tty
