// Kernels known to the core: their spectral measure and their exact Gram blocks.
#pragma once
#include <Eigen/Dense>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/laws/measure.h"

namespace askrff {

using ConstMatrixMap = Eigen::Map<const Eigen::MatrixXd>;

// What R's kernel object carries: a name and named numeric parameters, plus
// the map's kernel-specific settings that are words (such as decomposition).
struct KernelSpec {
  std::string name;
  std::map<std::string, std::vector<double>> params;
  std::map<std::string, std::string> options;
  // The kernels a sum or product combines (kernel_expressions.cpp).
  std::vector<KernelSpec> terms;
  double scalar(const std::string& key) const;
  double positive(const std::string& key) const;
  int whole(const std::string& key, int lowest, int highest) const;
  const std::vector<double>& vector(const std::string& key) const;
  const std::vector<double>& positives(const std::string& key) const;
  std::string option(const std::string& key, const std::string& fallback) const;
};

// k(t u) along a ray through the origin, as a function of s: the sum over c
// of weights_c exp(-t^2 s / (2 sigmas_c^2)) with s = ||u||^2 (positive
// Gaussian mixtures), or exp(-t s / sigma) with s = ||u||_1 (l1). Positive
// definite kernels of this form do not increase along rays, which is what
// the expected kernels of random periodic features need (periodic_kernel.cpp).
struct RayProfile {
  bool l1;
  std::vector<double> weights, sigmas;
  double at_zero() const;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual Measure measure(int d) const = 0;
  // The signed density of |w| under mu, S_{d-1} r^{d-1} mu(r), for kernels
  // whose measure is rotation invariant (the Jacobian is part of it).
  virtual double radial_density(int d, double radius) const;
  // radial_density() with a bound on its rounding error, for densities
  // computed by cancelling sums; closed forms report 0.
  virtual RadialValue radial_value(int d, double radius) const { return {radial_density(d, radius), 0.0}; }
  // What the kernel of radial_value()'s densities may miss beyond their
  // errors' L1 norm, at any distance: the rest of a kernel computed as a
  // known part plus a rest (radial_profile_kernel.h); 0 by default.
  virtual double radial_rest(int) const { return 0.0; }
  // A radius beyond which radial_density() is negligible (or cannot be
  // computed): by default 4 times the last radius of a doubling scan where
  // r |density| exceeds 1e-20 of its largest value.
  virtual double radial_limit(int d) const;
  // Writes K[i, j] = k(x_i, y_j) for rows [row_begin, row_end) of x into the
  // column-major n_x by n_y matrix out. y_sqnorm holds ||y_j||^2.
  virtual void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y,
                         const Eigen::VectorXd& y_sqnorm, Eigen::Index row_begin,
                         Eigen::Index row_end, double* out) const = 0;
  // Flops per entry of the Gram matrix, about, so jobs can be cut into
  // blocks of bounded time.
  virtual double entry_cost(int d) const { return 4.0 * d + 40.0; }
  // The kernel along rays, for kernels that random periodic features take.
  virtual std::optional<RayProfile> ray() const { return std::nullopt; }
  // c_0, c_1, ..., c_P of k(x, y) = sum_n c_n (x'y)^n on the unit sphere,
  // for the maps of dot-product kernels; empty for a kernel without such a
  // finite expansion.
  virtual std::vector<double> dot_product_series() const { return {}; }
};

// Built by the kernel's family in the registry (kernel_family.h).

std::unique_ptr<Kernel> make_kernel(const KernelSpec& spec);

// How far the kernel of make_kernel(spec)->measure(d) may be from the kernel,
// at any distance (kernel_expressions.cpp): a tabulated or LP measure's
// bound, which R computes and passes as the setting `bias_bound`; 0 for
// exact measures; combined over the terms of an expression without a table
// of its own.
double measure_bias(const KernelSpec& spec, int d);

}  // namespace askrff
