#include "core/laws/scale_mixtures.h"

#include <cmath>
#include <functional>
#include <stdexcept>

#include "core/laws/elementary_laws.h"
#include "core/numerics/bessel_k.h"
#include "core/numerics/special_functions.h"

namespace askrff {

namespace {

using Correlation = std::function<double(double)>;

class GammaScale : public ScaleLaw {
 public:
  GammaScale(double shape, double exponent, Correlation kernel)
      : shape_(shape), exponent_(exponent), kernel_(std::move(kernel)) {}
  double kernel(double r) const override { return kernel_(r); }
  double sample(Stream& stream) const override { return rho(gamma_draw(stream, shape_)); }
  int uniform_dimension() const override { return 1; }
  double from_uniforms(const double* u) const override { return rho(gamma_quantile(shape_, u[0])); }

 private:
  double rho(double g) const { return std::pow(g / shape_, exponent_); }
  double shape_, exponent_;
  Correlation kernel_;
};

// Matern: 2^(1 - nu) / Gamma(nu) t^nu K_nu(t) with t = sqrt(2 nu) r; the
// half-integer orders nu = 1/2, 3/2, 5/2 by their elementary forms, and
// orders from 50 on by Debye's expansion.
Correlation matern_correlation(double nu) {
  const double factor = std::sqrt(2.0 * nu);
  if (nu == 0.5) return [](double r) { return std::exp(-r); };
  if (nu == 1.5) return [factor](double r) { const double t = factor * r; return (1.0 + t) * std::exp(-t); };
  if (nu == 2.5) {
    return [factor](double r) { const double t = factor * r; return (1.0 + t + t * t / 3.0) * std::exp(-t); };
  }
  if (nu >= 50.0) return [nu](double r) { return r == 0.0 ? 1.0 : matern_large_order(nu, r); };
  return [factor, form = MaternBesselForm(nu)](double r) { return form(factor * r); };
}

// (1 + r^2 / (2 alpha))^-alpha: (r / sqrt(2 alpha))^2 neither underflows for
// tiny r nor overflows before the kernel does; beyond, log(1 + z) is log z to
// double precision.
Correlation rational_quadratic_correlation(double alpha) {
  const double root = std::sqrt(2.0 * alpha);
  return [alpha, root](double r) {
    const double q = r / root, z = q * q;
    return std::exp(-alpha * (std::isfinite(z) ? std::log1p(z) : 2.0 * (std::log(r) - std::log(root))));
  };
}

// Kanter: S = sin(a U) / sin(U)^(1/a) * (sin((1 - a) U) / E)^((1 - a) / a)
// with U uniform on (0, pi) and E standard exponential.
class StableScale : public ScaleLaw {
 public:
  explicit StableScale(double alpha) : alpha_(alpha) {}
  double kernel(double r) const override { return std::exp(-std::pow(r, 2.0 * alpha_)); }
  double sample(Stream& stream) const override {
    if (alpha_ == 1.0) return std::sqrt(2.0);
    const double u[2] = {stream.uniform(), stream.uniform()};
    return from_uniforms(u);
  }
  int uniform_dimension() const override { return alpha_ == 1.0 ? 0 : 2; }
  double from_uniforms(const double* u) const override {
    if (alpha_ == 1.0) return std::sqrt(2.0);
    const double angle = M_PI * u[0], exponential = -std::log(u[1]);
    const double s = std::sin(alpha_ * angle) / std::pow(std::sin(angle), 1.0 / alpha_) *
                     std::pow(std::sin((1.0 - alpha_) * angle) / exponential, (1.0 - alpha_) / alpha_);
    return std::sqrt(2.0 * s);
  }

 private:
  double alpha_;
};

}  // namespace

const std::vector<double>& ScaleLaw::quadrature_scales() const {
  std::call_once(once_, [this] {
    const int dims = uniform_dimension();
    const int per_axis = dims == 1 ? 1024 : 64;
    if (dims > 2) throw std::logic_error("quadrature scales need at most two uniforms");
    const int points = dims == 0 ? 1 : dims == 1 ? per_axis : per_axis * per_axis;
    for (int i = 0; i < points; ++i) {
      const double u[2] = {(i % per_axis + 0.5) / per_axis, (i / per_axis + 0.5) / per_axis};
      scales_.push_back(from_uniforms(u));
    }
  });
  return scales_;
}

std::shared_ptr<const ScaleLaw> matern_scale(double nu) {
  return std::make_shared<GammaScale>(nu, -0.5, matern_correlation(nu));
}

std::shared_ptr<const ScaleLaw> rational_quadratic_scale(double alpha) {
  return std::make_shared<GammaScale>(alpha, 0.5, rational_quadratic_correlation(alpha));
}

std::shared_ptr<const ScaleLaw> stable_scale(double alpha) { return std::make_shared<StableScale>(alpha); }

void ScaleMixtureSampler::sample(Stream& stream, double* omega) const {
  const double factor = law_->sample(stream) / sigma_;
  for (int k = 0; k < d_; ++k) omega[k] = stream.normal() * factor;
}

double ScaleMixtureSampler::radius(Stream& stream) const {
  const double scale = law_->sample(stream) / sigma_;
  return scale * chi_radius(stream, d_);
}

void ScaleMixtureSampler::from_uniforms(const double* u, double* omega) const {
  const double factor = law_->from_uniforms(u + d_) / sigma_;
  for (int k = 0; k < d_; ++k) omega[k] = normal_quantile(u[k]) * factor;
}

Characteristic ScaleMixtureSampler::characteristic(double, const Poll&) const {
  return radial_characteristic(d_, [law = law_, sigma = sigma_](double r) { return law->kernel(r / sigma); });
}

double ScaleMixtureSampler::density(double radius) const {
  const std::vector<double>& scales = law_->quadrature_scales();
  double sum = 0.0;
  for (double rho : scales) {
    if (rho > 0.0) sum += GaussianSampler(d_, sigma_ / rho).density(radius);
  }
  return sum / static_cast<double>(scales.size());
}

}  // namespace askrff
