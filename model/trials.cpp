#include "trials.h"

namespace tty {

QVector<Trial> trialsOf(const std::shared_ptr<const Run> &run, const QString &source,
                        const BootChoice &choice)
{
    QVector<Trial> out;
    const bool byBoot = choice.mode == BootChoice::Mode::Selected ||
                        (choice.mode == BootChoice::Mode::EveryBoot && run->boots.size() > 1);
    if (!byBoot) {
        out.append(Trial{run, std::nullopt, source});
        return out;
    }
    for (const int b : choice.selector.select(*run)) {
        out.append(Trial{run, b, source});
    }
    return out;
}

} // namespace tty
