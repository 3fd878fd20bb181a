#include "closeonsignal.h"

#include <QPointer>
#include <QSocketNotifier>
#include <QWidget>

#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace tty {

namespace {

// A handler may do almost nothing: it writes the signal's number to a socket, and the
// event loop, which watches the other end, does the closing.
int g_signalPipe[2] = {-1, -1};

void onSignal(int signal)
{
    const char number = char(signal);
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[0], &number, 1);
}

} // namespace

void closeOnSignals(QWidget *window)
{
    if (g_signalPipe[0] >= 0 ||
        ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, g_signalPipe) != 0) {
        return;
    }
    auto *notifier = new QSocketNotifier(g_signalPipe[1], QSocketNotifier::Read, window);
    QObject::connect(notifier, &QSocketNotifier::activated, window,
                     [window = QPointer<QWidget>(window)] {
                         char number = 0;
                         while (::read(g_signalPipe[1], &number, 1) == 1) {
                         }
                         if (window) {
                             window->close();
                         }
                     });
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
        sigaction(signal, &sa, nullptr);
    }
}

} // namespace tty
