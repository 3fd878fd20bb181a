/* The init of the e2e netconsole test: loads configfs, e1000 and netconsole (from the
   initramfs, where the test put them) with the targets the kernel command line names
   (nc_port=PORT, and nc_ext_port=PORT for a second target in the extended form: the kernel
   hands unknown key=value parameters to init's environment), logs a burst of 200 lines as
   the serial and the network consoles all print them, and a line too long for one of
   netconsole's extended datagrams, and crashes the kernel (sysrq c: a panic). Compiled
   statically by the test (tst_e2e_kernel.cpp). */
#define HARNESS_LEVEL "<2>"
#include "../fixtures/harness.h"

#include <stdlib.h>
#include <sys/syscall.h>

static void load(const char *path, const char *params)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    char b[200];
    if (fd < 0 || syscall(SYS_finit_module, fd, params, 0) != 0) {
        snprintf(b, sizeof b, "cannot load %s", path);
        say(b);
    }
    if (fd >= 0) {
        close(fd);
    }
}

int main(void)
{
    harness_start("scenario=netconsole");
    const char *port = getenv("nc_port");
    const char *extPort = getenv("nc_ext_port");
    char params[240];
    /* QEMU's user network: the guest is 10.0.2.15, the host 10.0.2.2. '+': extended. */
    int n = snprintf(params, sizeof params, "netconsole=6665@10.0.2.15/eth0,%s@10.0.2.2/",
                     port ? port : "6666");
    if (extPort) {
        snprintf(params + n, sizeof params - (size_t)n, ";+6664@10.0.2.15/eth0,%s@10.0.2.2/",
                 extPort);
    }
    load("/configfs.ko", "");
    load("/e1000.ko", "");
    load("/netconsole.ko", params);
    char b[200];
    say("burst start");
    for (int i = 0; i < 200; ++i) {
        snprintf(b, sizeof b, "burst line %d padding padding padding padding", i);
        say(b);
    }
    say("burst end");
    /* Near the 992 bytes /dev/kmsg takes: with the extended header, more than the 1000 bytes
       netconsole puts in one datagram, so it goes out in two fragments. */
    char longLine[1000];
    const int head = snprintf(longLine, sizeof longLine, HARNESS_LEVEL "harness: long line ");
    memset(longLine + head, 'x', (size_t)(989 - head));
    longLine[989] = '\n';
    if (write(harness_kmsg, longLine, 990) < 0) {
        dprintf(2, "kmsg write failed\n");
    }
    sleep(1); /* the last datagrams leave before the crash */
    /* A panic, which netconsole sends as the serial console prints it: the test compares
       the crash found in each. The kernel waits (panic=0) until the test stops QEMU. */
    say("crash");
    const int sysrq = open("/proc/sysrq-trigger", O_WRONLY);
    if (sysrq < 0 || write(sysrq, "c", 1) < 0) {
        say("cannot crash");
    }
    harness_poweroff();
    return 0;
}
