#include "core/kernels/sphere_kernels.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/kernels/gram_blocks.h"
#include "core/kernels/kernel_family.h"
#include "core/laws/elementary_laws.h"
#include "core/laws/radial_laws.h"

namespace askrff {

SphereKernel::SphereKernel(SphereFamily family, double a, double p, std::string route,
                           std::vector<double> atom_radius, std::vector<double> atom_weight)
    : family_(family), a_(a), p_(p), route_(std::move(route)), atom_radius_(std::move(atom_radius)),
      atom_weight_(std::move(atom_weight)) {
  if (atom_radius_.size() != atom_weight_.size()) throw std::invalid_argument("atoms need one weight per radius");
  if (route_ != "dot_product" && route_ != "stationary") throw std::invalid_argument("unknown route '" + route_ + "'");
  if (route_ == "dot_product" && family_ == SphereFamily::poly) {
    throw std::invalid_argument("the polynomial kernel has only the stationary route");
  }
}

std::vector<double> SphereKernel::dot_product_series() const {
  if (family_ != SphereFamily::poly) return {};
  // (1 - z^2 / a^2)^p = ((a^2 - 2) / a^2 + (2 / a^2) x'y)^p, by the binomial theorem
  const int p = static_cast<int>(p_);
  const double a2 = a_ * a_, constant = (a2 - 2.0) / a2, linear = 2.0 / a2;
  std::vector<double> c(static_cast<std::size_t>(p) + 1);
  double binomial = 1.0;
  for (int n = 0; n <= p; ++n) {
    c[n] = binomial * std::pow(linear, n) * std::pow(constant, p - n);
    binomial = binomial * (p - n) / (n + 1);
  }
  return c;
}

double SphereKernel::profile(double z) const {
  const double z2 = std::min(std::max(z * z, 0.0), 4.0);
  const double u = 1.0 - 0.5 * z2;  // x'y on the sphere
  const double angle = std::acos(-u);  // arccos(z^2/2 - 1) = pi - arccos(u)
  const double kappa0 = angle / M_PI;
  const double kappa1 = (u * angle + std::sqrt(std::max(0.0, 1.0 - u * u))) / M_PI;
  switch (family_) {
    case SphereFamily::poly: return std::pow(1.0 - z2 / (a_ * a_), p_);
    case SphereFamily::arccos0: return kappa0;
    case SphereFamily::arccos1: return kappa1;
    case SphereFamily::ntk: return u * kappa0 + kappa1;
  }
  return 0.0;
}

double SphereKernel::lp_target(double z) const {
  return has_cusp() ? profile(z) - std::exp(-z / M_PI) : profile(z);
}

Measure SphereKernel::measure(int d) const {
  if (route_ == "dot_product") {
    Part part{"pos", 1.0, true, 1.0, 0.0, std::make_shared<GaussianSampler>(d, 1.0)};
    part.features = family_ == SphereFamily::arccos0 ? "step" : family_ == SphereFamily::arccos1 ? "relu" : "ntk";
    return {part};
  }
  const std::shared_ptr<const RadialLaw> cusp = has_cusp() ? std::make_shared<CauchyRadialLaw>(d, 1.0 / M_PI) : nullptr;
  return atom_parts(d, atom_radius_, atom_weight_, cusp);
}

double SphereKernel::radial_density(int d, double radius) const {
  return hankel_radial_density([this](double z) { return profile(z); }, d, radius,
                               *gauss_legendre_rule(hankel_nodes(radius)));
}

void SphereKernel::gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                             Eigen::Index row_begin, Eigen::Index row_end, double* out) const {
  const Eigen::MatrixXd dist2 = squared_distances(x.middleRows(row_begin, row_end - row_begin), y, y_sqnorm);
  output_block(out, x.rows(), row_begin, dist2.rows(), dist2.cols()) =
      dist2.unaryExpr([this](double z2) { return profile(std::sqrt(std::max(z2, 0.0))); });
}

std::unique_ptr<SphereKernel> make_sphere_kernel(const KernelSpec& spec) {
  SphereFamily family;
  double a = 0.0, p = 0.0;
  std::string route = spec.option("route", "dot_product");
  if (spec.name == "poly_sphere") {
    family = SphereFamily::poly;
    a = spec.scalar("a");
    p = spec.positive("p");
    if (a < 2.0 || p != std::floor(p) || p > 100) throw std::invalid_argument("the polynomial kernel needs a >= 2 and p in 1..100");
    route = "stationary";
  } else if (spec.name == "arccos") {
    family = spec.whole("order", 0, 1) == 0 ? SphereFamily::arccos0 : SphereFamily::arccos1;
  } else if (spec.name == "ntk") {
    family = SphereFamily::ntk;
  } else {
    throw std::invalid_argument("'" + spec.name + "' is not a kernel on the sphere");
  }
  const auto atoms = [&](const char* key) {
    const auto it = spec.params.find(key);
    return it == spec.params.end() ? std::vector<double>() : it->second;
  };
  return std::make_unique<SphereKernel>(family, a, p, route, atoms("atom_radius"), atoms("atom_weight"));
}

namespace {

// `tolerance` and `z_max` of the LP measure, which only the
// stationary route uses. Where the kernel has a square-root singularity at
// z = 2, z_max must stay below 2. Below z_max = 0.001 the distance grid's
// spacing is too fine for the bias bound's second differences.
std::vector<Setting> lp_settings(double tolerance, double z_max, bool open, bool has_route) {
  std::vector<std::string> needs;
  if (has_route) needs = {"route", "stationary"};
  return {Setting{"tolerance", {}, tolerance, 1e-8, 0.5, false, needs},
          Setting{"z_max", {}, z_max, 1e-3, 2.0, open, needs}};
}

KernelTraits sphere_traits() {
  KernelTraits t;
  t.measure = "signed";
  t.radial = true;
  t.on_sphere = true;
  return t;
}

// The arc-cosine kernels and the NTK default to their exact dot-product
// features; route = "stationary" samples the LP measure with the cusp split off.
KernelTraits with_routes(KernelTraits t, const KernelSpec& spec, double z_max, bool open, const char* exact_features) {
  t.settings = {Setting{"route", {"dot_product", "stationary"}}};
  for (Setting& s : lp_settings(1e-3, z_max, open, true)) t.settings.push_back(std::move(s));
  t.features = spec.option("route", "dot_product") == "dot_product" ? exact_features : "trig";
  return t;
}

KernelTraits poly_traits(const KernelSpec&) {
  KernelTraits t = sphere_traits();
  t.settings = lp_settings(1e-4, 2.0, false, false);
  return t;
}

KernelTraits arccos_traits(const KernelSpec& spec) {
  const bool cusp = spec.whole("order", 0, 1) == 0;
  return with_routes(sphere_traits(), spec, cusp ? 1.9 : 2.0, cusp, cusp ? "step" : "relu");
}

KernelTraits ntk_traits(const KernelSpec& spec) { return with_routes(sphere_traits(), spec, 1.9, true, "ntk"); }

std::unique_ptr<Kernel> make(const KernelSpec& spec) { return make_sphere_kernel(spec); }

}  // namespace

KernelFamily poly_sphere_family() { return {"poly_sphere", poly_traits, make, nullptr}; }
KernelFamily arccos_family() { return {"arccos", arccos_traits, make, nullptr}; }
KernelFamily ntk_family() { return {"ntk", ntk_traits, make, nullptr}; }

}  // namespace askrff
