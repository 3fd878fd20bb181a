#!/bin/sh
# Installs every Debian 12 package ttyscope needs to build, test and package.
# Idempotent: packages already present are skipped quickly by apt. qemu-system-x86 boots the
# e2e_kernel_panic test's kernel (the kernel .deb itself is fetched by that test, not installed).
# clang, libclang-rt-14-dev (the ASan/UBSan/TSan runtimes and libFuzzer) and llvm
# (llvm-symbolizer, for readable sanitizer reports) make the sanitizer and fuzz builds;
# clang-format is CI's formatting check (scripts/check-format.sh). strace shows the live
# tests what ser2net does to the pty behind it (BREAK, line settings: a pty cannot show them);
# systemd provides systemd-analyze, which checks the capture service unit (packaging).
# hyperfine times whole commands for docs/benchmarks.md (run by hand, never in a test).
# lld links the builds' programs (CMakeLists.txt: several times faster than ld.bfd).
# tio writes the timestamped log the tio_live test reads (tests/e2e/tio_live.sh).
# gcc and libc6-dev (a static libc) build the init of the netconsole e2e test's initramfs.
set -e
PKGS="cmake g++ gcc libc6-dev make pkg-config qt6-base-dev libqcustomplot-dev libserialport-dev libzstd-dev \
zstd fonts-dejavu-core xvfb xauth ser2net desktop-file-utils appstream dpkg-dev file groff-base \
shared-mime-info qemu-system-x86 clang clang-format libclang-rt-14-dev llvm lld tio strace systemd hyperfine"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
