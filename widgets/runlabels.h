// Run labels shortened to what tells them apart, for headers too narrow for the whole
// labels (the table of the window and of an exported picture).
#pragma once

#include <QStringList>

namespace tty {

// Each label without the start and end that all of them share, cut between words and
// marked with an ellipsis where something was left out: two file names of one test
// differ in the middle (spam_rmmod-A_default-smp4-….log.zst and spam_rmmod-k612rt-…),
// and eliding each in its own middle keeps exactly the part they share. Fewer than two
// labels, or one that is the others' start or end, come back whole.
QStringList distinctParts(const QStringList &labels);

} // namespace tty
