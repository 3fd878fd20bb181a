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
    fuzz::exercise(*fuzz::loadWithRules(kLog, rules), size);
    return 0;
}
