// A radial kernel k(||x - y||) that the user gave as an R function. R
// evaluates it once, at the nodes of nested Gauss-Legendre rules on
// [0, z_range] where it does not vanish, and the core takes the table: its
// radial spectral density by the Hankel transform (hankel.h), tabulated and
// split into minimal Jordan parts (tabulated_radial.h), or, on the route
// "lp", the L1-minimal discrete measure whose atoms R's linear program found.
// Its Gram matrix is the function itself, which R applies.
#pragma once
#include <string>
#include <vector>

#include "core/laws/gaussian_reference.h"
#include "core/kernels/kernels.h"

namespace askrff {

// The rules' sizes: 128, 256, ..., 8192 nodes.
std::vector<int> profile_rule_sizes();

// The nodes of every rule mapped to [0, z_range], rule after rule: where R
// evaluates the kernel.
std::vector<double> profile_nodes(double z_range);

class RadialProfileKernel : public Kernel {
 public:
  // `values` holds k at profile_nodes(z_range). `table_*` is the tabulated
  // density (empty until tabulated), `negligible` the mass below which a
  // Jordan part is dropped; `atom_*` the LP measure of route "lp".
  RadialProfileKernel(double z_range, const std::vector<double>& values, std::string route,
                      std::vector<double> table_radius, std::vector<double> table_density, double negligible,
                      std::vector<double> atom_radius, std::vector<double> atom_weight);
  Measure measure(int d) const override;
  // The Hankel transform by the smallest rule with 0.6 r z_range + 100 nodes
  // that also resolves k itself, with its rounding bound; throws beyond
  // radial_limit(). For a kernel that is a Gaussian up to a small rest
  // (gaussian_reference.h), the Gaussian's density in closed form plus the
  // rest's where the quadrature resolves it, with the latter's size as error.
  double radial_density(int d, double radius) const override { return radial_value(d, radius).value; }
  RadialValue radial_value(int d, double radius) const override;
  double radial_rest(int d) const override;
  double radial_limit(int d) const override;
  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override;

 private:
  double z_range_;
  std::vector<std::vector<double>> values_;  // one vector per rule
  std::size_t first_rule_ = 0;               // the smallest rule that resolves k
  GaussianReference reference(int d) const;
  std::string route_;
  std::vector<double> table_radius_, table_density_;
  double negligible_;
  std::vector<double> atom_radius_, atom_weight_;
};

}  // namespace askrff
