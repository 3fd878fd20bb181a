// A gated report as JUnit XML (`ttyscope report --output junit`), the test report format
// GitLab, Jenkins and GitHub Actions show without a plugin: one test suite per trial,
// a test case for its load, for each --fail-on condition and for each crash report.
#pragma once

#include "gate.h"
#include "report.h"

#include <QByteArray>

#include <vector>

namespace tty {

// checks: checkGate's result for the same report (may be empty: no --fail-on).
QByteArray junitXml(const Report &report, const std::vector<GateCheck> &checks);

} // namespace tty
