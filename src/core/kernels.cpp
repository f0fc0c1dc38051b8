#include "kernels.h"

#include <cmath>
#include <stdexcept>

#include "asymmetric_kernels.h"
#include "gaussian_mixture.h"
#include "gram_blocks.h"
#include "periodic_kernel.h"
#include "sphere_kernels.h"

namespace askrff {

// Every parameter the core reads is finite; R checks the finer rules first.
double KernelSpec::scalar(const std::string& key) const {
  const auto it = params.find(key);
  if (it == params.end() || it->second.size() != 1 || !std::isfinite(it->second[0])) {
    throw std::invalid_argument("kernel '" + name + "' needs one finite number '" + key + "'");
  }
  return it->second[0];
}

double KernelSpec::positive(const std::string& key) const {
  const double value = scalar(key);
  if (value <= 0.0) throw std::invalid_argument("kernel '" + name + "' needs a positive '" + key + "'");
  return value;
}

int KernelSpec::whole(const std::string& key, int lowest, int highest) const {
  const double value = scalar(key);
  if (value != std::floor(value) || value < lowest || value > highest) {
    throw std::invalid_argument("kernel '" + name + "' needs a whole number '" + key + "' from " +
                                std::to_string(lowest) + " to " + std::to_string(highest));
  }
  return static_cast<int>(value);
}

const std::vector<double>& KernelSpec::vector(const std::string& key) const {
  const auto it = params.find(key);
  if (it == params.end() || it->second.empty()) {
    throw std::invalid_argument("kernel '" + name + "' needs numbers '" + key + "'");
  }
  for (double value : it->second) {
    if (!std::isfinite(value)) throw std::invalid_argument("kernel '" + name + "' needs finite '" + key + "'");
  }
  return it->second;
}

std::string KernelSpec::option(const std::string& key, const std::string& fallback) const {
  const auto it = options.find(key);
  return it == options.end() ? fallback : it->second;
}

double Kernel::radial_density(int, double) const {
  throw std::invalid_argument("this kernel's spectral measure is not rotation invariant");
}

namespace {

class GaussianKernel : public Kernel {
 public:
  explicit GaussianKernel(double sigma) : sigma_(sigma) {}
  Measure measure(int d) const override {
    return {Part{"pos", 1.0, true, 1.0, 0.0, std::make_shared<GaussianSampler>(d, sigma_)}};
  }
  double radial_density(int d, double radius) const override {
    return GaussianSampler(d, sigma_).density(radius);
  }
  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override {
    const Eigen::MatrixXd dist2 = squared_distances(x.middleRows(row_begin, row_end - row_begin), y, y_sqnorm);
    output_block(out, x.rows(), row_begin, dist2.rows(), dist2.cols()) =
        (dist2 * (-0.5 / (sigma_ * sigma_))).array().exp().matrix();
  }

 private:
  double sigma_;
};

class LaplaceKernel : public Kernel {
 public:
  explicit LaplaceKernel(double sigma) : sigma_(sigma) {}
  Measure measure(int d) const override {
    return {Part{"pos", 1.0, true, 1.0, 0.0, std::make_shared<CauchyProductSampler>(d, sigma_)}};
  }
  // The L1 distance has no product expansion; accumulate coordinate by
  // coordinate down contiguous columns so the inner loop vectorizes.
  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd&,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override {
    const Eigen::Index n = x.rows();
    for (Eigen::Index j = 0; j < y.rows(); ++j) {
      double* column = out + j * n;
      for (Eigen::Index i = row_begin; i < row_end; ++i) column[i] = 0.0;
      for (Eigen::Index k = 0; k < x.cols(); ++k) {
        const double yk = y(j, k);
        const double* xk = x.data() + k * n;
        for (Eigen::Index i = row_begin; i < row_end; ++i) column[i] += std::abs(xk[i] - yk);
      }
      for (Eigen::Index i = row_begin; i < row_end; ++i) column[i] = std::exp(-column[i] / sigma_);
    }
  }

 private:
  double sigma_;
};

}  // namespace

std::unique_ptr<Kernel> make_kernel(const KernelSpec& spec) {
  if (spec.name == "gaussian") return std::make_unique<GaussianKernel>(spec.positive("sigma"));
  if (spec.name == "laplace") return std::make_unique<LaplaceKernel>(spec.positive("sigma"));
  if (spec.name == "delta_gaussian") {
    const std::string decomposition = spec.option("decomposition", "jordan");
    if (decomposition != "jordan" && decomposition != "components") {
      throw std::invalid_argument("unknown decomposition '" + decomposition + "'");
    }
    return std::make_unique<GaussianMixtureKernel>(spec.vector("weights"), spec.vector("sigmas"),
                                                   decomposition == "jordan");
  }
  if (auto sphere = make_sphere_kernel(spec)) return sphere;
  if (auto asymmetric = make_asymmetric_kernel(spec)) return asymmetric;
  if (auto expected = make_expected_periodic_kernel(spec)) return expected;
  throw std::invalid_argument("unknown kernel '" + spec.name + "'");
}

}  // namespace askrff
