// Versions of the libraries the core links, for --version and About.
#pragma once

#include <QString>

namespace tty {

QString coreLibraryVersions(); // "libserialport 0.1.1, zstd 1.5.4"

} // namespace tty
