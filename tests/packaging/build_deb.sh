#!/bin/sh
# Fixture: builds the .deb from the build tree BUILD with cpack (the same config as
# `cmake --build BUILD --target package`, written to WORK/out instead of BUILD), checks its
# control fields and file list, and unpacks it with dpkg -x into WORK/root.
# Usage: build_deb.sh BUILD WORK VERSION
set -eu
build=$1 work=$2 version=$3
arch=$(dpkg --print-architecture)
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work/out"
if ! cpack --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    fail "cpack"
fi
deb=$work/out/ttyscope_${version}_${arch}.deb
[ -f "$deb" ] || { ls -l "$work/out"; fail "no $deb"; }
echo "built $deb ($(wc -c <"$deb") bytes)"

# Control fields.
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = ttyscope ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version)"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ "$(field Section)" = devel ] || fail "Section: $(field Section)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
depends=$(field Depends)
echo "Depends: $depends"
# dpkg-shlibdeps found the libraries the binary links to.
for lib in libqt6widgets6 libqt6core6 libqcustomplot libserialport0 libzstd1 libc6; do
    echo "$depends" | grep -q "$lib" || fail "Depends lacks $lib"
done

# File list.
dpkg-deb --contents "$deb" | awk '{print $NF}' | sed 's|^\./||' >"$work/contents.txt"
expect="usr/bin/ttyscope
usr/share/applications/ttyscope.desktop
usr/share/metainfo/io.github.ttyscope.ttyscope.metainfo.xml
usr/share/mime/packages/ttyscope.xml
usr/share/man/man1/ttyscope.1.gz
usr/lib/systemd/system/ttyscope-capture@.service
usr/share/doc/ttyscope/examples/capture.conf
usr/share/ttyscope/rules.json
usr/share/ttyscope/samples/sample.json
usr/share/icons/hicolor/scalable/apps/ttyscope.svg"
for size in 16 32 48 64 128 256; do
    expect="$expect
usr/share/icons/hicolor/${size}x${size}/apps/ttyscope.png"
done
echo "$expect" | while read -r path; do
    grep -qx "$path" "$work/contents.txt" || fail "package lacks $path"
done
nzst=$(grep -c '^usr/share/ttyscope/samples/.*\.zst$' "$work/contents.txt" || true)
[ "$nzst" -ge 2 ] || fail "package has $nzst sample captures"
# Nothing outside /usr.
if grep -v '^usr/' "$work/contents.txt" | grep -v '^$' | grep -q .; then
    grep -v '^usr/' "$work/contents.txt"
    fail "files outside /usr"
fi

dpkg -x "$deb" "$work/root"
file "$work/root/usr/bin/ttyscope" | grep -q ', stripped' || fail "binary not stripped"
# The installed desktop file and MIME package are valid where they land.
desktop-file-validate "$work/root/usr/share/applications/ttyscope.desktop" || fail "desktop file"
mkdir -p "$work/mime/packages"
cp "$work/root/usr/share/mime/packages/ttyscope.xml" "$work/mime/packages/"
# (XDG_DATA_* name WORK so that update-mime-database does not note that it is off the search path.)
out=$(XDG_DATA_HOME="$work" XDG_DATA_DIRS="$work" update-mime-database "$work/mime" 2>&1) ||
    fail "update-mime-database: $out"
[ -z "$out" ] || fail "update-mime-database: $out"
grep -q '^[0-9]*:application/x-ttyscope-recording:\*\.ttyrec\.zst' "$work/mime/globs2" || fail "MIME glob missing"
echo "ok: $(wc -l <"$work/contents.txt") entries, unpacked into $work/root"
