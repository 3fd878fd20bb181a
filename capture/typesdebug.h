// qDebug() output for the unit types of types.h (kept apart so that types.h needs no Qt).
#pragma once

#include "types.h"

#include <QDebug>

namespace tty {

template <class Tag, class D> QDebug operator<<(QDebug d, ClockTime<Tag, D> t)
{
    return d << t.count();
}
template <class Tag> QDebug operator<<(QDebug d, Position<Tag> p)
{
    return d << p.value();
}
template <class Tag> QDebug operator<<(QDebug d, Count<Tag> n)
{
    return d << n.count();
}

} // namespace tty
