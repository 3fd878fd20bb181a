// The colours of console text in the log view: the xterm palette that SGR sequences name,
// moved in lightness until it reads on the view's background, so that a firmware's yellow
// stays legible on white and its blue on the dark theme's near-black.
#pragma once

#include "consoletext.h"

#include <QColor>

namespace tty {

// The colour a terminal (xterm's defaults) shows for an SGR colour; invalid for Default.
QColor xtermColor(ConsoleColor c);
// WCAG 2 contrast ratio of two colours, 1 (same) to 21 (black on white).
double contrastRatio(const QColor &a, const QColor &b);
// `c` with the same hue, lighter or darker, until it has `minContrast` on `background`.
QColor readableOn(const QColor &c, const QColor &background, double minContrast = 4.5);

// A ConsoleColor packed into an int for a model role (QVector<int>): -1 for Default.
int packColor(ConsoleColor c);
ConsoleColor unpackColor(int packed);

} // namespace tty
