#!/bin/sh
# Fails when a tracked C++ file differs from what clang-format (.clang-format) makes of it,
# and says which files, so that CI catches unformatted code before review does.
set -e
cd "$(dirname "$0")/.."
files=$(git ls-files '*.cpp' '*.h')
bad=""
for f in $files; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad="$bad $f"
done
if [ -n "$bad" ]; then
    echo "not clang-format clean (run clang-format -i on them):" >&2
    for f in $bad; do echo "  $f" >&2; done
    exit 1
fi
echo "clang-format: $(echo "$files" | wc -l) files clean"
