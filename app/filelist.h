// The files `ttyscope report` is given: on the command line, as globs ttyscope expands
// itself (quoted, so that a shell's argument limit does not apply), and one per line from
// --files-from FILE or - (standard input).
#pragma once

#include <QString>
#include <QStringList>

namespace tty {

// Expands the globs of one argument's comma-separated files: a piece holding * ? or [ that
// names no existing file is a pattern, replaced by its matches sorted by name (bytewise);
// one without a match is left out and named in *noMatch.
QStringList expandGlobs(const QStringList &files, QStringList *noMatch);

// The lines of a --files-from list (its path, or "-" for standard input): one file per
// line, empty lines skipped, a CR before the LF dropped. False with *error when the list
// cannot be read.
bool readFileList(const QString &path, QStringList *out, QString *error);

} // namespace tty
