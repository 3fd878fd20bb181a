// Statistics for groups of trials: summaries and Welch's test of the difference of means.
// Kernel developers compare 3-10 trials per kernel; a difference is only called better or
// worse when it stands out of the trials' own noise.
#pragma once

#include <optional>
#include <vector>

namespace tty {

// Mean and sample standard deviation of the finite values; n counts them.
struct Summary
{
    double mean = 0, sd = 0;
    int n = 0;
};
Summary summarize(const std::vector<double> &v);
// The same over the values present (a name of its own: summarize({1, 2}) stays unambiguous).
Summary summarizePresent(const std::vector<std::optional<double>> &v);

// B - A with its 95 % confidence interval and two-sided p value by Welch's t test
// (unequal variances, Welch-Satterthwaite degrees of freedom). `valid` is false when
// either side has fewer than two values: one trial says nothing about the noise.
struct Difference
{
    bool valid = false;
    double diff = 0;
    double ciLow = 0, ciHigh = 0;
    double p = 1;
    double df = 0;
    // Every trial of each side gave the same value: the difference holds in each pair of
    // trials, and there is no noise to test it against (p is 0 or 1, not a test's).
    bool noSpread = false;
    bool significant() const { return valid && p < 0.05; }
};
Difference welch(const Summary &a, const Summary &b);

// Student's t distribution: P(T <= t) with `df` degrees of freedom (df > 0, not
// necessarily whole), and its inverse for p in (0, 1).
double studentTCdf(double t, double df);
double studentTQuantile(double p, double df);

} // namespace tty
