#include "asymmetric_kernels.h"

#include <cmath>
#include <stdexcept>

#include "gram_blocks.h"
#include "lifted_gaussian.h"

namespace askrff {

namespace {

enum class Family { shift, sinh, cosh };

// A parameter given as one number means that number in every coordinate.
Eigen::VectorXd expand(const std::vector<double>& values, int d) {
  if (values.size() == 1) return Eigen::VectorXd::Constant(d, values[0]);
  if (static_cast<int>(values.size()) != d) {
    throw std::invalid_argument("kernel parameter has length " + std::to_string(values.size()) +
                                ", the data have dimension " + std::to_string(d));
  }
  return Eigen::Map<const Eigen::VectorXd>(values.data(), d);
}

class AsymmetricGaussianKernel : public Kernel {
 public:
  AsymmetricGaussianKernel(Family family, double sigma, std::vector<double> vector, bool phase)
      : family_(family), sigma_(sigma), vector_(std::move(vector)), phase_(phase) {}

  Measure measure(int d) const override {
    // Every part is A mu_g(w) h(a'w): a = r for Shift; with a = -sigma^2 beta,
    // Cosh is A times the Shift measure (SPEC 1.1: k3 = A k1(r = -sigma^2 beta))
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
      abs.left_phase = [a, sinh, amplitude](const double* omega) {
        const double t = Eigen::Map<const Eigen::VectorXd>(omega, a.size()).dot(a);
        return sinh ? std::atan(amplitude * std::sin(t)) : t;
      };
      return {abs};
    }
    const Part imag_pos = part("imag_pos", Profile::sin_pos, amplitude, -2.0, 0.5 * M_PI);
    if (family_ == Family::sinh) return {part("real_pos", Profile::one, 1.0, 1.0, 0.0), imag_pos};
    return {part("real_pos", Profile::cos_pos, amplitude, 1.0, 0.0),
            part("real_neg", Profile::cos_neg, amplitude, -1.0, 0.0), imag_pos};
  }

  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override {
    const Eigen::Index rows = row_end - row_begin;
    const Eigen::VectorXd v = expand(vector_, static_cast<int>(x.cols()));
    const double scale = -0.5 / (sigma_ * sigma_);
    // exp(-||x - y + r||^2 / (2 sigma^2)) for a shift r.
    const auto shifted = [&](const Eigen::VectorXd& r) {
      return Eigen::MatrixXd((squared_distances(x.middleRows(row_begin, rows), y, y_sqnorm, &r) * scale).array().exp());
    };
    OutputBlock block = output_block(out, x.rows(), row_begin, rows, y.rows());
    if (family_ == Family::shift) {
      block = shifted(v);
      return;
    }
    // Completing the square, G(D) exp(+-beta'D) = A exp(-||D -+ sigma^2 beta||^2 / (2 sigma^2))
    // with A = exp(sigma^2 ||beta||^2 / 2) (SPEC 1.1): no factor can overflow
    // where the kernel does not, whatever the scale of the data.
    const double amplitude = std::exp(0.5 * sigma_ * sigma_ * v.squaredNorm());
    const Eigen::VectorXd r = -sigma_ * sigma_ * v;
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

}  // namespace

std::unique_ptr<Kernel> make_asymmetric_kernel(const KernelSpec& spec) {
  Family family;
  const char* vector_name;
  if (spec.name == "shift_gaussian") {
    family = Family::shift;
    vector_name = "shift";
  } else if (spec.name == "sinh_gaussian" || spec.name == "cosh_gaussian") {
    family = spec.name == "sinh_gaussian" ? Family::sinh : Family::cosh;
    vector_name = "beta";
  } else {
    return nullptr;
  }
  const std::string decomposition = spec.option("decomposition", "jordan");
  if (decomposition != "jordan" && decomposition != "phase") {
    throw std::invalid_argument("unknown decomposition '" + decomposition + "'");
  }
  return std::make_unique<AsymmetricGaussianKernel>(family, spec.positive("sigma"), spec.vector(vector_name),
                                                    decomposition == "phase");
}

}  // namespace askrff
