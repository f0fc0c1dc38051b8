// The asymmetric kernels of AsK-RFF (He et al. 2022, eqs 9-11), with Delta = x - y:
//   shift_gaussian  k(D) = exp(-||D + r||^2 / (2 sigma^2))
//   sinh_gaussian   k(D) = exp(-||D||^2 / (2 sigma^2)) (1 + sinh(beta'D))
//   cosh_gaussian   k(D) = exp(-||D||^2 / (2 sigma^2)) exp(beta'D)
// Their measures are complex: mu = mu_R + i mu_I with mu_I odd. The "jordan"
// decomposition gives the parts real_pos, real_neg (absent for Sinh, where
// mu_R = mu_g >= 0) and imag_pos, the estimator of He et al. (2022) oriented as in
// the vignette "mathematics" ("The orientation of the asymmetric estimator"):
//   k = R+ E cos - R- E cos - 2 I+ E sin(nu'D),
// the sine arising from psi = phi shifted by pi/2 on the right. The "phase"
// decomposition ("Sampling the modulus: the phase form") samples |mu| once,
// as the part "abs", and puts the phase of mu at each frequency on the left
// features.
#include <cmath>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/kernels/gram_blocks.h"
#include "core/kernels/kernel_family.h"
#include "core/laws/elementary_laws.h"
#include "core/laws/lifted_gaussian.h"

namespace askrff {

namespace {

enum class Family { shift, sinh, cosh };

Eigen::VectorXd expand(const std::vector<double>& values, int d) {
  const std::vector<double> full = expand_coordinates(values, d);
  return Eigen::Map<const Eigen::VectorXd>(full.data(), d);
}

class AsymmetricGaussianKernel : public Kernel {
 public:
  AsymmetricGaussianKernel(Family family, double sigma, std::vector<double> vector, bool phase)
      : family_(family), sigma_(sigma), vector_(std::move(vector)), phase_(phase) {}

  Measure measure(int d) const override {
    // Every part is A mu_g(w) h(a'w): a = r for Shift; with a = -sigma^2 beta,
    // Cosh is A times the Shift measure (k3 = A k1(r = -sigma^2 beta))
    // and Sinh is mu_g (1 + i A sin(a'w)).
    const Eigen::VectorXd a = family_ == Family::shift ? expand(vector_, d) : Eigen::VectorXd(-sigma_ * sigma_ * expand(vector_, d));
    const double s = a.stableNorm() / sigma_;
    const double amplitude = family_ == Family::shift ? 1.0 : std::exp(0.5 * s * s);
    const auto part = [&](const char* name, Profile profile, double factor, double coefficient, double right_phase) {
      auto law = std::make_shared<LiftedGaussianSampler>(sigma_, a, profile, amplitude);
      return Part{name, factor * law->profile_mean(), true, coefficient, right_phase, law};
    };
    if (phase_) {
      const bool sinh = family_ == Family::sinh;
      // |mu| = mu_g sqrt(1 + A^2 sin^2 t) for Sinh, with the profile scaled to
      // at most one; A mu_g with phase t = a'w for Shift and Cosh.
      Part abs = sinh ? part("abs", Profile::sinh_modulus, amplitude * std::sqrt(1.0 + 1.0 / (amplitude * amplitude)), 1.0, 0.0)
                      : part("abs", Profile::one, amplitude, 1.0, 0.0);
      const auto phase = [sinh, amplitude](double t) { return sinh ? std::atan(amplitude * std::sin(t)) : t; };
      abs.left_phase = [a, phase](const double* omega) {
        return phase(Eigen::Map<const Eigen::VectorXd>(omega, a.size()).dot(a));
      };
      abs.phased_characteristic = [law = std::static_pointer_cast<const LiftedGaussianSampler>(abs.sampler),
                                   phase](double, const Poll& poll) -> PhasedCharacteristic {
        // the series of h(t) exp(i j phi(t)), j = 1, 2, for the lift
        std::vector<FourierSeries> series;
        for (const double j : {1.0, 2.0}) {
          std::optional<FourierSeries> found = numeric_series(
              [&](double t) { return law->profile_value(t) * std::polar(1.0, j * phase(t)); }, poll);
          if (!found) return nullptr;
          series.push_back(std::move(*found));
        }
        return [geometry = law->geometry(), series = std::move(series)](const double* delta, int j) {
          return geometry(series[static_cast<std::size_t>(j - 1)], delta, j);
        };
      };
      return {abs};
    }
    const Part imag_pos = part("imag_pos", Profile::sin_pos, amplitude, -2.0, 0.5 * M_PI);
    if (family_ == Family::sinh) return {part("real_pos", Profile::one, 1.0, 1.0, 0.0), imag_pos};
    return {part("real_pos", Profile::cos_pos, amplitude, 1.0, 0.0),
            part("real_neg", Profile::cos_neg, amplitude, -1.0, 0.0), imag_pos};
  }

  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd&,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override {
    const Eigen::Index rows = row_end - row_begin;
    const Eigen::VectorXd v = expand(vector_, static_cast<int>(x.cols()));
    // In units of sigma (gram_blocks.h): the shift r / sigma, and sigma beta below.
    const UnitData units = unit_data(x.middleRows(row_begin, rows), y, {sigma_});
    // exp(-||x - y + r||^2 / (2 sigma^2)) for a shift r, given as r / sigma.
    const auto shifted = [&](const Eigen::VectorXd& r) {
      Eigen::ArrayXXd dist2 = units.squared_distances(&r).array();
      if (units.exponent != 0) dist2 = dist2.unaryExpr([&units](double z2) { return units.squared(z2); });
      return Eigen::MatrixXd((-0.5 * dist2).exp().matrix());
    };
    OutputBlock block = output_block(out, x.rows(), row_begin, rows, y.rows());
    if (family_ == Family::shift) {
      block = shifted(Eigen::VectorXd(v / sigma_));
      return;
    }
    // Completing the square, G(D) exp(+-beta'D) = A exp(-||D -+ sigma^2 beta||^2 / (2 sigma^2))
    // with A = exp(sigma^2 ||beta||^2 / 2): no factor can overflow
    // where the kernel does not, whatever the scale of the data.
    const Eigen::VectorXd skew = sigma_ * v;
    const double amplitude = std::exp(0.5 * skew.squaredNorm());
    const Eigen::VectorXd r = -skew;
    if (family_ == Family::cosh) {
      block = amplitude * shifted(r);
    } else {
      block = shifted(Eigen::VectorXd::Zero(v.size())) + 0.5 * amplitude * (shifted(r) - shifted(-r));
    }
  }

 private:
  Family family_;
  double sigma_;
  std::vector<double> vector_;
  bool phase_;
};

// The largest sigma * ||beta|| whose total masses exp(sigma^2 ||beta||^2 / 2)
// (times at most sqrt(2)) stay finite in double precision.
constexpr double kMaxSkew = 37.0;
// The largest ||shift|| / sigma: the phases shift'w of the frequencies are
// N(0, (||shift|| / sigma)^2), and beyond about 1e6 radians cos() of them
// keeps too few digits for features (and the samplers' laws lose theirs).
constexpr double kMaxShiftRatio = 1e6;

std::string shown(double value) {
  std::ostringstream out;
  out << std::setprecision(4) << value;
  return out.str();
}

void check_shift(const KernelSpec& spec, int d) {
  const double ratio = expand(spec.vector("shift"), d).stableNorm() / spec.positive("sigma");
  if (!(ratio <= kMaxShiftRatio)) {
    throw std::invalid_argument("||shift|| / sigma is " + shown(ratio) + " in dimension " + std::to_string(d) +
                                "; it must be at most 1e6, beyond which the phases shift'w of the frequencies lose all precision.");
  }
}

void check_skew(const KernelSpec& spec, int d) {
  const double skew = spec.positive("sigma") * expand(spec.vector("beta"), d).stableNorm();
  if (!(skew <= kMaxSkew)) {
    throw std::invalid_argument("sigma * ||beta|| is " + shown(skew) + " in dimension " + std::to_string(d) +
                                "; it must be at most 37, or the total mass exp(sigma^2 ||beta||^2 / 2) overflows.");
  }
}

template <Family family>
KernelTraits traits(const KernelSpec&) {
  KernelTraits t;
  const char* vector = family == Family::shift ? "shift" : "beta";
  t.coordinate_params = {vector};
  // k(x / s, y / s): sigma and the shift grow with s, the skew beta shrinks
  t.scaled_params = {ScaledParam{"sigma", 1}, ScaledParam{vector, family == Family::shift ? 1 : -1}};
  t.measure = "complex";
  // "jordan" samples the positive parts of the real and imaginary measures
  // (the paper's estimator); "phase" samples |mu|.
  t.settings = {Setting{"decomposition", {"jordan", "phase"}}};
  return t;
}

template <Family family>
std::unique_ptr<Kernel> make(const KernelSpec& spec) {
  const std::string decomposition = spec.option("decomposition", "jordan");
  if (decomposition != "jordan" && decomposition != "phase") {
    throw std::invalid_argument("unknown decomposition '" + decomposition + "'");
  }
  return std::make_unique<AsymmetricGaussianKernel>(family, spec.positive("sigma"),
                                                    spec.vector(family == Family::shift ? "shift" : "beta"),
                                                    decomposition == "phase");
}

}  // namespace

KernelFamily shift_gaussian_family() {
  return {"shift_gaussian", traits<Family::shift>, make<Family::shift>, check_shift};
}
KernelFamily sinh_gaussian_family() {
  return {"sinh_gaussian", traits<Family::sinh>, make<Family::sinh>, check_skew};
}
KernelFamily cosh_gaussian_family() {
  return {"cosh_gaussian", traits<Family::cosh>, make<Family::cosh>, check_skew};
}

}  // namespace askrff
