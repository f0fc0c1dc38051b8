#include "core/kernels/part_moments.h"

#include <algorithm>
#include <cmath>
#include <complex>

namespace askrff {

PartMoments::PartMoments(const Measure& measure, double reach, const Poll& poll) {
  for (const Part& part : measure) {
    Prepared prepared;
    prepared.coefficient = part.coefficient;
    prepared.mass = part.mass;
    prepared.right_phase = part.right_phase;
    if (part.features == "trig" && !part.sampler->strata()) {
      if (part.left_phase) {
        if (part.phased_characteristic) prepared.phased = part.phased_characteristic(reach, poll);
        prepared.known = static_cast<bool>(prepared.phased);
      } else {
        prepared.plain = part.sampler->characteristic(reach, poll);
        prepared.known = static_cast<bool>(prepared.plain);
      }
    }
    parts_.push_back(std::move(prepared));
  }
}

void PartMoments::rows(const ConstMatrixMap& x, const ConstMatrixMap& y, Eigen::Index begin, Eigen::Index end,
                       const std::vector<double*>& first, const std::vector<double*>& second) const {
  const Eigen::Index d = x.cols(), n_x = x.rows();
  std::vector<double> delta(static_cast<std::size_t>(d)), twice(static_cast<std::size_t>(d));
  for (Eigen::Index j = 0; j < y.rows(); ++j) {
    for (Eigen::Index i = begin; i < end; ++i) {
      for (Eigen::Index k = 0; k < d; ++k) {
        delta[k] = x(i, k) - y(j, k);
        twice[k] = 2.0 * delta[k];
      }
      const std::size_t at = static_cast<std::size_t>(j * n_x + i);
      for (std::size_t p = 0; p < parts_.size(); ++p) {
        const Prepared& part = parts_[p];
        if (!part.known) continue;
        // a part of mass 0 contributes nothing (its law may not be normalisable)
        if (part.mass == 0.0) {
          first[p][at] = second[p][at] = 0.0;
          continue;
        }
        const std::complex<double> once = part.plain ? part.plain(delta.data()) : part.phased(delta.data(), 1);
        const std::complex<double> twice_value = part.plain ? part.plain(twice.data()) : part.phased(delta.data(), 2);
        const std::complex<double> turn = std::polar(1.0, -part.right_phase);
        const double scale = part.coefficient * part.mass;
        first[p][at] = scale * std::real(turn * once);
        second[p][at] = scale * scale * (1.0 + std::real(turn * turn * twice_value)) / 2.0;
      }
    }
  }
}

double PartMoments::pair_cost(int d) const { return static_cast<double>(parts_.size()) * (8.0 * d + 200.0); }

double largest_distance(const ConstMatrixMap& x, const ConstMatrixMap& y, const Poll& poll) {
  double largest = 0.0;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = 0; j < y.rows(); ++j) largest = std::max(largest, (x.row(i) - y.row(j)).squaredNorm());
    poll();
  }
  return std::sqrt(largest);
}

}  // namespace askrff
