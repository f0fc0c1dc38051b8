// Signed mixtures of Gaussian kernels, k(D) = sum_i w_i exp(-|D|^2 / (2 s_i^2)),
// such as the Delta-Gaussian (w = (1, -1), s = (1, 10)). The spectral density
// is radial, mu(r) = sum_i w_i (s_i / sqrt(2 pi))^d exp(-s_i^2 r^2 / 2) (Luo
// et al. 2021, eq. 20, omit the (2 pi)^{-d/2}), so every part is a law of the
// radius.
#pragma once
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "core/kernels/kernels.h"
#include "core/laws/tabulated_quantile.h"

namespace askrff {

class GaussianMixture {
 public:
  GaussianMixture(std::vector<double> weights, std::vector<double> sigmas, int d);
  int size() const { return static_cast<int>(weights_.size()); }
  int d() const { return d_; }
  double weight(int i) const { return weights_[i]; }
  double sigma(int i) const { return sigmas_[i]; }
  // log |w_i| (s_i / sqrt(2 pi))^d exp(-s_i^2 r^2 / 2): component i's signed
  // term of mu(r) in logs, so that d in the hundreds neither over- nor underflows.
  double log_term(int i, double radius) const;
  // Sum of the terms whose weight has the given sign, as a log.
  double log_sum(int sign, double radius) const;
  // Radii where mu changes sign, increasing. A scan: only the masses need it.
  std::vector<double> sign_changes() const;
  // The mass of max(0, sign * mu): sum over the intervals where sign * mu > 0
  // of sum_i w_i P(s_i |w| in the interval), by chi-square probabilities.
  double jordan_mass(int sign) const;

 private:
  std::vector<double> weights_, sigmas_;
  int d_;
};

// A positive part of the mixture's measure as a law of w. Proposals come from
// the components whose weight has the part's sign (component i with
// probability |w_i| / sum, then w ~ N(0, s_i^-2 I)). "components" keeps every
// proposal: the per-component split of Liu et al. (2021). "jordan" accepts with
// probability max(0, sign mu(r)) / (sum of the proposing terms), which samples
// the minimal Jordan part exactly; its acceptance rate is the part's mass over
// the proposing weights (at least 0.80 for the Delta-Gaussian).
class GaussianMixtureLaw : public PartSampler {
 public:
  GaussianMixtureLaw(std::shared_ptr<const GaussianMixture> mixture, int sign, bool jordan, double mass);
  void sample(Stream& stream, double* omega) const override;
  bool supports_orthogonal() const override { return true; }
  void sample_along(Stream& stream, const double* direction, double* omega) const override;
  // d uniforms for the direction and one for the radius: a component and
  // its chi radius for the per-component split; the tabulated inverse CDF
  // of the radial density, built on first use, for a minimal Jordan part.
  int uniform_dimension() const override { return mixture_->d() + 1; }
  void from_uniforms(const double* u, double* omega) const override;
  double density(double radius) const override;
  const char* density_variable() const override { return "radius"; }
  bool rotation_invariant() const override { return true; }
  // The per-component split's in closed form (a mixture of Gaussians'); a
  // minimal Jordan part's by quadrature of its radial density.
  Characteristic characteristic(double reach, const Poll& poll) const override;

 private:
  double sample_radius(Stream& stream) const;
  double acceptance(double radius) const;
  std::shared_ptr<const GaussianMixture> mixture_;
  int sign_;
  bool jordan_;
  double mass_, log_mass_;
  std::vector<int> proposals_;
  std::vector<double> cumulative_;
  mutable std::shared_ptr<const TabulatedQuantile> radius_quantile_;
  mutable std::once_flag radius_table_;
};

class GaussianMixtureKernel : public Kernel {
 public:
  GaussianMixtureKernel(std::vector<double> weights, std::vector<double> sigmas, bool jordan)
      : weights_(std::move(weights)), sigmas_(std::move(sigmas)), jordan_(jordan) {
    if (weights_.size() != sigmas_.size()) throw std::invalid_argument("a Gaussian mixture needs one sigma per weight");
    for (double sigma : sigmas_) {
      if (!(sigma > 0.0)) throw std::invalid_argument("a Gaussian mixture needs positive sigmas");
    }
  }
  Measure measure(int d) const override;
  double radial_density(int d, double radius) const override;
  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override;
  // Only mixtures with positive weights are monotone along rays.
  std::optional<RayProfile> ray() const override;

 private:
  std::vector<double> weights_, sigmas_;
  bool jordan_;
};

}  // namespace askrff
