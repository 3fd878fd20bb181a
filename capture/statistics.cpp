#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tty {

namespace {

// The continued fraction of the regularized incomplete beta function, by the modified
// Lentz method; converges quickly for x < (a + 1) / (a + b + 2).
double betaFraction(double a, double b, double x)
{
    constexpr double kTiny = 1e-300, kEps = 1e-15;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = std::fabs(d) < kTiny ? kTiny : d;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 500; ++m) {
        const double m2 = 2.0 * m;
        double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        for (int step = 0; step < 2; ++step) {
            d = 1 + num * d;
            d = std::fabs(d) < kTiny ? kTiny : d;
            c = 1 + num / c;
            c = std::fabs(c) < kTiny ? kTiny : c;
            d = 1 / d;
            h *= d * c;
            num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        }
        if (std::fabs(d * c - 1) < kEps) {
            break;
        }
    }
    return h;
}

// I_x(a, b).
double incompleteBeta(double a, double b, double x)
{
    if (x <= 0) {
        return 0;
    }
    if (x >= 1) {
        return 1;
    }
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                  a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2)) {
        return front * betaFraction(a, b, x) / a;
    }
    return 1 - front * betaFraction(b, a, 1 - x) / b;
}

} // namespace

Summary summarize(const std::vector<double> &v)
{
    // Deviations from the first value: trials that all gave the same figure (1.6 s in each)
    // have a mean of exactly that and an sd of exactly 0. Summed as they are, 1.6 three
    // times has a mean 2e-16 off and an sd of 1e-16, and two such sides got a Welch test
    // of rounding errors, "significant" or not by chance.
    Summary s;
    const auto first = std::find_if(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
    if (first == v.end()) {
        s.mean = std::numeric_limits<double>::quiet_NaN();
        return s;
    }
    const double origin = *first;
    double sum = 0;
    for (double x : v) {
        if (std::isfinite(x)) {
            sum += x - origin;
            ++s.n;
        }
    }
    const double offset = sum / s.n;
    s.mean = origin + offset;
    if (s.n > 1) {
        double ss = 0;
        for (double x : v) {
            if (std::isfinite(x)) {
                const double d = (x - origin) - offset;
                ss += d * d;
            }
        }
        s.sd = std::sqrt(ss / (s.n - 1));
    }
    return s;
}

Summary summarizePresent(const std::vector<std::optional<double>> &v)
{
    std::vector<double> present;
    present.reserve(v.size());
    for (const std::optional<double> &x : v) {
        if (x) {
            present.push_back(*x);
        }
    }
    return summarize(present);
}

double studentTCdf(double t, double df)
{
    if (std::isnan(t) || !(df > 0)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (std::isinf(t)) {
        return t > 0 ? 1 : 0;
    }
    const double tail = 0.5 * incompleteBeta(df / 2, 0.5, df / (df + t * t));
    return t > 0 ? 1 - tail : tail;
}

double studentTQuantile(double p, double df)
{
    if (!(p > 0 && p < 1) || !(df > 0)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    // Bisection on the CDF: monotone, and 200 halvings of [-1e6, 1e6] are far below the
    // precision anyone quotes an interval with.
    double lo = -1e6, hi = 1e6;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * std::max(1.0, std::fabs(lo)); ++i) {
        const double mid = 0.5 * (lo + hi);
        (studentTCdf(mid, df) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

Difference welch(const Summary &a, const Summary &b)
{
    Difference d;
    if (a.n < 2 || b.n < 2) {
        return d;
    }
    d.valid = true;
    d.diff = b.mean - a.mean;
    const double va = a.sd * a.sd / a.n, vb = b.sd * b.sd / b.n;
    const double se = std::sqrt(va + vb);
    if (se == 0) {
        // Every trial of each side gave the same value: no noise to weigh the difference
        // against.
        d.noSpread = true;
        d.ciLow = d.ciHigh = d.diff;
        d.p = d.diff == 0 ? 1 : 0;
        d.df = a.n + b.n - 2;
        return d;
    }
    d.df = (va + vb) * (va + vb) / (va * va / (a.n - 1) + vb * vb / (b.n - 1));
    const double t = d.diff / se;
    d.p = 2 * studentTCdf(-std::fabs(t), d.df);
    const double q = studentTQuantile(0.975, d.df);
    d.ciLow = d.diff - q * se;
    d.ciHigh = d.diff + q * se;
    return d;
}

} // namespace tty
