// Adaptive Gauss-Kronrod quadrature for the one-dimensional integrals behind
// exact total masses. Globally adaptive: the interval with the largest error
// estimate is bisected until the total error is below the relative tolerance.
#pragma once
#include <functional>

namespace askrff {

// Integral of f over [a, b] to relative accuracy rel_tol (the error estimate
// |K15 - G7| overestimates the true error of smooth integrands).
double integrate(const std::function<double(double)>& f, double a, double b,
                 double rel_tol = 1e-14, int max_intervals = 4000);

}  // namespace askrff
