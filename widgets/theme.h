// Light and dark palettes. "system" keeps what the desktop's platform theme gives; the
// explicit ones use Fusion so that they look the same everywhere (and in screenshots).
#pragma once

#include <QString>

namespace tty {

// name: "system", "light" or "dark"; false for an unknown name.
bool applyTheme(const QString &name);

} // namespace tty
