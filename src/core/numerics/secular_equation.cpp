// The secular equation solved root by root in its interval, the origin moved
// to the nearer pole as in LAPACK's dlaed4 (Ren-Cang Li's middle way, 1994):
// with f(tau) = 1 / rho + psi(tau) + phi(tau), psi summing the poles left of
// the root and phi those right of it, psi and phi are each replaced by one
// pole (the nearest) plus a constant matching their value and slope at the
// current tau, and the model's root is the next tau. The root stays
// bracketed; a step outside the bracket is replaced by bisection.
#include "core/numerics/secular_equation.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace askrff {
namespace {

using Eigen::Index;

constexpr int kMaxSteps = 100;  // a safeguard: the model takes a few steps, bisection halves the bracket
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// f and its parts at tau, relative to the pole d[origin]; psi sums poles
// 0..split, phi the others, each from the farthest to the nearest. `bound`
// bounds the rounding error of w, over epsilon (as dlaed4's erretm).
struct Evaluation {
  double w, psi, phi, dpsi, dphi, bound;
};

Evaluation evaluate(const Eigen::VectorXd& d, const Eigen::VectorXd& z, double rho_inverse, Index origin,
                    Index split, double tau) {
  const Index k = d.size();
  const double pole = d[origin];
  Evaluation e{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  double partial = 0.0;
  for (Index j = 0; j <= split; ++j) {
    const double t = z[j] / ((d[j] - pole) - tau);
    e.psi += z[j] * t;
    e.dpsi += t * t;
    partial += std::abs(e.psi);
  }
  for (Index j = k - 1; j > split; --j) {
    const double t = z[j] / ((d[j] - pole) - tau);
    e.phi += z[j] * t;
    e.dphi += t * t;
    partial += std::abs(e.phi);
  }
  e.w = rho_inverse + e.psi + e.phi;
  e.bound = 8.0 * (std::abs(e.psi) + std::abs(e.phi)) + partial + rho_inverse + std::abs(tau) * (e.dpsi + e.dphi);
  return e;
}

// The next tau from the model with poles at `left` and `right` (relative to
// the origin; for the last root both lie left of it), or NaN when the
// model's roots miss the bracket (lower, upper).
double model_step(const Evaluation& e, double tau, double left, double right, double lower, double upper) {
  const double p = left - tau, q = right - tau;
  // model: c eta^2 - a eta + b = 0 for the step eta
  const double a = (p + q) * e.w - p * q * (e.dpsi + e.dphi);
  const double b = p * q * e.w;
  const double c = e.w - p * e.dpsi - q * e.dphi;
  double steps[2] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  if (c == 0.0) {
    steps[0] = b / a;
  } else {
    const double root = std::sqrt(std::max(0.0, a * a - 4.0 * b * c));
    const double big = a >= 0.0 ? a + root : a - root;
    steps[0] = big / (2.0 * c);
    steps[1] = 2.0 * b / big;
  }
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const double eta : steps) {
    const double next = tau + eta;
    // the step must go towards the root: right of tau when f < 0
    if (next > lower && next < upper && (e.w < 0.0) == (eta > 0.0) && !(std::abs(eta) >= std::abs(best - tau))) {
      best = next;
    }
  }
  return best;
}

}  // namespace

SecularRoots solve_secular_equation(const Eigen::VectorXd& d, const Eigen::VectorXd& z, double rho,
                                    const Poll& poll) {
  const Index k = d.size();
  SecularRoots roots;
  roots.origin.resize(k);
  roots.tau.resize(k);
  const double rho_inverse = 1.0 / rho;
  if (k == 1) {
    roots.origin[0] = 0;
    roots.tau[0] = rho * z[0] * z[0];
    return roots;
  }
  const double z_norm2 = z.squaredNorm();
  for (Index i = 0; i < k; ++i) {
    Index origin, split;
    double lower, upper, tau, left, right;
    Evaluation e;
    if (i < k - 1) {
      // the sign of f at the middle of (d_i, d_i+1) tells which half holds the root
      const double gap = d[i + 1] - d[i], middle = gap / 2.0;
      split = i;
      e = evaluate(d, z, rho_inverse, i, split, middle);
      if (e.w >= 0.0) {
        origin = i;
        lower = 0.0;
        upper = middle;
        tau = middle;
      } else {
        // f at the middle again, with the origin at d_i+1
        origin = i + 1;
        tau = middle - gap;
        lower = tau;
        upper = 0.0;
      }
      left = d[i] - d[origin];
      right = d[i + 1] - d[origin];
    } else {
      // the last root lies in (0, rho |z|^2] from d_k-1
      origin = k - 1;
      split = k - 2;
      lower = 0.0;
      upper = rho * z_norm2;
      tau = upper / 2.0;
      e = evaluate(d, z, rho_inverse, origin, split, tau);
      left = d[k - 2] - d[origin];
      right = 0.0;
    }
    for (int step = 0; step < kMaxSteps && e.w != 0.0; ++step) {
      if (std::abs(e.w) <= kEpsilon * e.bound) break;
      if (e.w < 0.0) {
        lower = std::max(lower, tau);
      } else {
        upper = std::min(upper, tau);
      }
      double next = model_step(e, tau, left, right, lower, upper);
      if (std::isnan(next)) {
        // Newton's step, else bisection
        next = tau - e.w / (e.dpsi + e.dphi);
        if (!(next > lower && next < upper)) next = (lower + upper) / 2.0;
      }
      if (next == tau || next <= lower || next >= upper) break;
      tau = next;
      e = evaluate(d, z, rho_inverse, origin, split, tau);
    }
    roots.origin[i] = origin;
    roots.tau[i] = tau;
    if (i % 16 == 15) poll();
  }
  return roots;
}

Eigen::VectorXd gu_eisenstat_weights(const Eigen::VectorXd& d, const Eigen::VectorXd& z, const SecularRoots& roots) {
  const Index k = d.size();
  // rho zhat_i^2 = prod_j (lambda_j - d_i) / prod_{j != i} (d_j - d_i), as a
  // product of ratios (d_i - lambda_j) / (d_i - d_j) that neither overflows
  // nor underflows, times the remaining d_i - lambda_i
  Eigen::ArrayXd product = Eigen::ArrayXd::Ones(k), ratio(k);
  for (Index j = 0; j < k; ++j) {
    ratio = ((d.array() - d[roots.origin[j]]) - roots.tau[j]) / (d.array() - d[j]);
    ratio[j] = roots.difference(d, j, j);
    product *= ratio;
  }
  Eigen::VectorXd weights(k);
  for (Index i = 0; i < k; ++i) weights[i] = std::copysign(std::sqrt(std::max(0.0, -product[i])), z[i]);
  return weights;
}

}  // namespace askrff
