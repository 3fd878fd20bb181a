// A rule file given with --rules (RuleSet::loadJson), then used on a fixed log.
#include "fuzz_common.h"

#include "rules.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::initQt();
    static const QByteArray kLog = "[    0.000000] Linux version 6.1.0-57-amd64 (x)\n"
                                   "[    0.100000] Command line: console=ttyS0\n"
                                   "[    1.000000] ** 12 printk messages dropped **\n"
                                   "[    2.000000] WARNING: CPU: 0 PID: 1 at x.c:1 f+0x1/0x2\n"
                                   "[    3.000000] Kernel panic - not syncing: VFS\n"
                                   "corpusvm login: \n";
    tty::RuleSet rules;
    QString error;
    if (!rules.loadJson(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)),
                        &error)) {
        if (error.isEmpty()) {
            std::abort(); // a rejected rule file must say why
        }
        return 0;
    }
    tty::LoadOptions o;
    o.rules = &rules;
    const auto run =
        tty::loadRunFromBytes(std::string_view(kLog.constData(), std::size_t(kLog.size())),
                              QStringLiteral("fuzz.log"), o, &error);
    if (!run) {
        std::abort();
    }
    fuzz::exercise(*run);
    return 0;
}
