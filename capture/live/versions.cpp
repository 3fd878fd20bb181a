#include "versions.h"

#include <libserialport.h>
#include <zstd.h>

namespace tty {

QString coreLibraryVersions()
{
    return QStringLiteral("libserialport %1, zstd %2")
        .arg(QString::fromLatin1(sp_get_package_version_string()),
             QString::fromLatin1(ZSTD_versionString()));
}

} // namespace tty
