// The loops of Eigen 3.4's computeFromTridiagonal_impl and
// tridiagonal_qr_step (Eigen is MPL2), written out so that they poll and
// report progress, with one change: the QR steps' rotations, which depend on
// the tridiagonal matrix only, are recorded and applied to the eigenvectors
// several steps at a time, each column receiving the same rotations in the
// same order, while the columns in use stay in cache.
#include "core/numerics/tridiagonal_qr.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace askrff {
namespace {

using Eigen::Index;

// The rotations of one QR step: rotation i acts on columns start + i and
// start + i + 1.
struct Sweep {
  Index start;
  std::vector<Eigen::JacobiRotation<double>> rotations;
};

// Q = Q G_1 G_2 ... for the rotations of consecutive sweeps, in a wavefront:
// at time t, sweep j applies its rotation on columns t - 2j and t - 2j + 1,
// after every rotation of earlier sweeps that touches them. Each column thus
// receives the same rotations in the same order as sweep after sweep, while
// the 2 m columns in use stay in cache for m sweeps.
void apply_sweeps(Eigen::MatrixXd& q, std::vector<Sweep>& sweeps, const Poll& poll) {
  const Index m = static_cast<Index>(sweeps.size());
  Index first = q.cols(), last = 0;
  for (const Sweep& s : sweeps) {
    first = std::min(first, s.start);
    last = std::max(last, s.start + static_cast<Index>(s.rotations.size()));
  }
  for (Index t = first; t < last + 2 * (m - 1); ++t) {
    for (Index j = 0; j < m; ++j) {
      const Index i = t - 2 * j - sweeps[j].start;
      if (i >= 0 && i < static_cast<Index>(sweeps[j].rotations.size())) {
        q.applyOnTheRight(t - 2 * j, t - 2 * j + 1, sweeps[j].rotations[i]);
      }
    }
    poll();
  }
  sweeps.clear();
}

// Eigen's tridiagonal_qr_step (Golub and Van Loan's algorithm 8.3.2, an
// implicit symmetric QR step with Wilkinson shift) on rows start..end of the
// tridiagonal matrix, its rotations appended to `rotations` when given.
void qr_step(double* diag, double* subdiag, Index start, Index end,
             std::vector<Eigen::JacobiRotation<double>>* rotations) {
  const double td = (diag[end - 1] - diag[end]) * 0.5;
  const double e = subdiag[end - 1];
  // the shift's form avoids the underflow of e^2 (scaling prevents overflow)
  double mu = diag[end];
  if (td == 0.0) {
    mu -= std::abs(e);
  } else if (e != 0.0) {
    const double e2 = e * e;
    const double h = Eigen::numext::hypot(td, e);
    if (e2 == 0.0) {
      mu -= e / ((td + (td > 0.0 ? h : -h)) / e);
    } else {
      mu -= e2 / (td + (td > 0.0 ? h : -h));
    }
  }
  double x = diag[start] - mu;
  double z = subdiag[start];
  for (Index k = start; k < end && z != 0.0; ++k) {
    Eigen::JacobiRotation<double> rot;
    rot.makeGivens(x, z);
    const double c = rot.c(), s = rot.s();
    const double sdk = s * diag[k] + c * subdiag[k];
    const double dkp1 = s * subdiag[k] + c * diag[k + 1];
    diag[k] = c * (c * diag[k] - s * subdiag[k]) - s * (c * subdiag[k] - s * diag[k + 1]);
    diag[k + 1] = s * sdk + c * dkp1;
    subdiag[k] = c * sdk - s * dkp1;
    if (k > start) subdiag[k - 1] = c * subdiag[k - 1] - s * z;
    // chase the bulge
    x = subdiag[k];
    if (k < end - 1) {
      z = -s * subdiag[k + 1];
      subdiag[k + 1] = c * subdiag[k + 1];
    }
    if (rotations) rotations->push_back(rot);
  }
}

}  // namespace

// Eigen's computeFromTridiagonal_impl: QR steps on the last unreduced block
// until every subdiagonal entry is negligible, at most 30 n steps; then the
// eigenvalues sorted increasingly with their vectors.
void tridiagonal_qr(Eigen::VectorXd& diag, Eigen::VectorXd& subdiag, Eigen::MatrixXd* q, const Poll& poll,
                    const Progress& done) {
  const Index n = diag.size();
  if (n <= 1) return;
  constexpr int kMaxIterations = 30;
  const double negligible = std::numeric_limits<double>::min();
  const double precision_inv = 1.0 / std::numeric_limits<double>::epsilon();
  // steps whose rotations are applied together: their 2 m columns, 512 KB,
  // stay in a core's cache
  const Index wave = std::max<Index>(1, std::min<Index>(32, (Index(1) << 15) / n));
  std::vector<Sweep> sweeps;
  // the work left is about proportional to the square of the unreduced size
  const auto reached = [&](Index end) {
    const double left = static_cast<double>(end) / static_cast<double>(n - 1);
    return 1.0 - left * left;
  };
  Index end = n - 1, start = 0, iterations = 0;
  while (end > 0) {
    for (Index i = start; i < end; ++i) {
      if (std::abs(subdiag[i]) < negligible) {
        subdiag[i] = 0.0;
      } else {
        // |subdiag[i]| <= epsilon sqrt(|diag[i]| + |diag[i + 1]|), scaled to prevent underflow
        const double scaled = precision_inv * subdiag[i];
        if (scaled * scaled <= std::abs(diag[i]) + std::abs(diag[i + 1])) subdiag[i] = 0.0;
      }
    }
    while (end > 0 && subdiag[end - 1] == 0.0) end--;
    if (end <= 0) break;
    if (++iterations > kMaxIterations * n) break;
    start = end - 1;
    while (start > 0 && subdiag[start - 1] != 0.0) start--;
    if (q) sweeps.push_back({start, {}});
    qr_step(diag.data(), subdiag.data(), start, end, q ? &sweeps.back().rotations : nullptr);
    if (q && static_cast<Index>(sweeps.size()) >= wave) apply_sweeps(*q, sweeps, poll);
    done(reached(end));
    poll();
  }
  if (q) apply_sweeps(*q, sweeps, poll);
  if (iterations > kMaxIterations * n) throw std::runtime_error("the symmetric eigendecomposition did not converge");
  for (Index i = 0; i < n - 1; ++i) {
    Index k;
    diag.segment(i, n - i).minCoeff(&k);
    if (k > 0) {
      std::swap(diag[i], diag[k + i]);
      if (q) q->col(i).swap(q->col(k + i));
    }
  }
}

}  // namespace askrff
