#include "core/laws/scale_mixtures.h"

#include <cmath>
#include <stdexcept>

#include "core/numerics/special_functions.h"

namespace askrff {

namespace {

class GammaScale : public ScaleLaw {
 public:
  GammaScale(double shape, double exponent) : shape_(shape), exponent_(exponent) {}
  double sample(Stream& stream) const override { return rho(gamma_draw(stream, shape_)); }
  int uniform_dimension() const override { return 1; }
  double from_uniforms(const double* u) const override { return rho(gamma_quantile(shape_, u[0])); }

 private:
  double rho(double g) const { return std::pow(g / shape_, exponent_); }
  double shape_, exponent_;
};

// Kanter: S = sin(a U) / sin(U)^(1/a) * (sin((1 - a) U) / E)^((1 - a) / a)
// with U uniform on (0, pi) and E standard exponential.
class StableScale : public ScaleLaw {
 public:
  explicit StableScale(double alpha) : alpha_(alpha) {}
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

std::shared_ptr<const ScaleLaw> gamma_scale(double shape, double exponent) {
  return std::make_shared<GammaScale>(shape, exponent);
}

std::shared_ptr<const ScaleLaw> stable_scale(double alpha) { return std::make_shared<StableScale>(alpha); }

void ScaleMixtureSampler::sample(Stream& stream, double* omega) const {
  const double factor = law_->sample(stream) / sigma_;
  for (int k = 0; k < d_; ++k) omega[k] = stream.normal() * factor;
}

void ScaleMixtureSampler::sample_along(Stream& stream, const double* direction, double* omega) const {
  const double radius = law_->sample(stream) / sigma_ * chi_radius(stream, d_);
  for (int k = 0; k < d_; ++k) omega[k] = direction[k] * radius;
}

void ScaleMixtureSampler::from_uniforms(const double* u, double* omega) const {
  const double factor = law_->from_uniforms(u + d_) / sigma_;
  for (int k = 0; k < d_; ++k) omega[k] = normal_quantile(u[k]) * factor;
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
