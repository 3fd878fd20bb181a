#!/bin/sh
# Fetches Debian's kernel image for the e2e_kernel tests and unpacks its vmlinuz into a
# cache directory (under the build dir, so it is downloaded once per clone). The .deb is
# downloaded with `apt-get download` (nothing is installed) and only boot/vmlinuz-* and the
# three modules a netconsole needs (configfs, e1000, netconsole; into modules/ beside boot/)
# are taken out of it; the .deb is then deleted.
#
#   fetch-kernel.sh CACHE_DIR
#
# Prints the vmlinuz path on stdout. Exit status 77 when the kernel cannot be had (no apt,
# package lists without linux-image-amd64, no network), with the reason on stderr.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 CACHE_DIR" >&2; exit 2; }
cache=$1
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

cached() {
    # The newest cached vmlinuz, if any (under $cache/<package>/boot/).
    ls -t "$cache"/*/boot/vmlinuz-* 2>/dev/null | head -n 1
}

unavailable() {
    echo "fetch-kernel.sh: $*" >&2
    exit 77
}

# linux-image-amd64 is a metapackage: the image is its linux-image-<abi>-amd64 dependency.
pkg=""
if command -v apt-cache >/dev/null 2>&1; then
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\(-unsigned\)\{0,1\}\)$/\1/p' |
        head -n 1)
fi
if [ -z "$pkg" ]; then
    # Offline or no package lists: a kernel fetched earlier still does.
    k=$(cached)
    [ -n "$k" ] && { echo "$k"; exit 0; }
    unavailable "cannot resolve linux-image-amd64 with apt-cache (no apt, or package lists" \
        "missing: run apt-get update)"
fi

dir="$cache/$pkg"
k=$(ls "$dir"/boot/vmlinuz-* 2>/dev/null | head -n 1 || true)
if [ -n "$k" ] && [ -f "$dir/modules/netconsole.ko" ]; then
    echo "$k"
    exit 0
fi

tmp="$cache/.download.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
# apt-get download writes into the current directory (as root it warns that the _apt user
# cannot write there: harmless). Its messages are shown only when it fails.
(cd "$tmp" && apt-get download -q "$pkg") >"$tmp/apt.log" 2>&1 || true
deb=$(ls "$tmp"/*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
    grep -v 'unsandboxed as root' "$tmp/apt.log" >&2 || true
    k=$(cached)
    [ -n "$k" ] && { echo "fetch-kernel.sh: using the cached $k" >&2; echo "$k"; exit 0; }
    unavailable "apt-get download $pkg failed (no network?)"
fi
mkdir -p "$tmp/x"
# The same files dpkg -x would unpack, but only the kernel image and three modules (all the
# modules are ~400 MB).
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" --wildcards './boot/vmlinuz-*' \
    './lib/modules/*/kernel/fs/configfs/configfs.ko*' \
    './lib/modules/*/kernel/drivers/net/ethernet/intel/e1000/e1000.ko*' \
    './lib/modules/*/kernel/drivers/net/netconsole.ko*'
[ -n "$(ls "$tmp"/x/boot/vmlinuz-* 2>/dev/null)" ] ||
    unavailable "no boot/vmlinuz-* in $(basename "$deb")"
mkdir -p "$tmp/modules"
for m in $(find "$tmp/x/lib/modules" -name '*.ko*'); do
    case $m in
    *.ko.xz) xz -dc "$m" >"$tmp/modules/$(basename "$m" .xz)" ;;
    *.ko.zst) zstd -qdc "$m" >"$tmp/modules/$(basename "$m" .zst)" ;;
    *.ko) cp "$m" "$tmp/modules/" ;;
    esac
done
rm -rf "$dir"
mkdir -p "$dir"
mv "$tmp/x/boot" "$dir/boot"
mv "$tmp/modules" "$dir/modules"
basename "$deb" >"$dir/SOURCE"
ls "$dir"/boot/vmlinuz-* | head -n 1
