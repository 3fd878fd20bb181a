// Linked into the test programs of a TSan build (tests/CMakeLists.txt), nowhere else.
//
// QProcess (Qt 6.4, forkfd) starts a child with clone(CLONE_VM | CLONE_VFORK | CLONE_PIDFD):
// vfork semantics, the child shares the parent's memory until it calls execve. The TSan
// runtime of clang 14 intercepts clone() and treats every call as a fork: it runs its
// fork bookkeeping in the child, which, sharing the parent's memory, finds the parent's
// thread state attached and fails a CHECK (ForkAfter -> SlotAttachAndLock, "!thr->slot"),
// killing the test on its first QProcess::start, with or without other threads.
// Newer runtimes pass such a vfork-like clone straight through, and so does this: a
// program's own definition of an intercepted function takes precedence over the
// runtime's (its interceptors are weak aliases), so this one forwards a clone that shares
// the memory to the C library and any other to the runtime's interceptor. Nothing is
// hidden from TSan: the child runs no code of the parent's except Qt's exec preparation
// (and a test's child process modifier) while the parent thread is suspended, as vfork.
#include <cstdarg>
#include <dlfcn.h>
#include <sched.h>
#include <sys/types.h>

extern "C" int __interceptor_clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
    __attribute__((weak));

extern "C" int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    pid_t *parentTid = va_arg(ap, pid_t *);
    void *tls = va_arg(ap, void *);
    pid_t *childTid = va_arg(ap, pid_t *);
    va_end(ap);
    using Clone = int (*)(int (*)(void *), void *, int, void *, ...);
    static const Clone libc = reinterpret_cast<Clone>(dlsym(RTLD_NEXT, "clone"));
    const Clone target = (flags & CLONE_VM) || !__interceptor_clone ? libc : __interceptor_clone;
    return target(fn, stack, flags, arg, parentTid, tls, childTid);
}
