#include "core/kernels/radial_profile_kernel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/laws/gaussian_reference.h"
#include "core/laws/hankel.h"
#include "core/kernels/kernel_family.h"
#include "core/laws/radial_laws.h"
#include "core/laws/tabulated_radial.h"

namespace askrff {

namespace {

constexpr int kRules = 7, kSmallestRule = 128;

// The first rule whose integrals of k, k t^2 and k t^4 over [0, 1] agree
// with the next rule's to 1e-12 of the integral of |k|: rules from it on
// resolve k. (|k| itself has kinks where k changes sign, so its integral
// converges slowly and is only the scale.)
std::size_t resolving_rule(const std::vector<std::vector<double>>& values) {
  const std::vector<int> sizes = profile_rule_sizes();
  std::vector<std::vector<double>> moments(values.size(), std::vector<double>(3, 0.0));
  double scale = 0.0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const auto rule = gauss_legendre_rule(sizes[k]);
    for (std::size_t i = 0; i < values[k].size(); ++i) {
      const double t = 0.5 * (rule->nodes[i] + 1.0), w = 0.5 * rule->weights[i], v = values[k][i];
      moments[k][0] += w * v;
      moments[k][1] += w * v * t * t;
      moments[k][2] += w * v * t * t * t * t;
      scale = k + 1 == values.size() ? scale + w * std::abs(v) : scale;
    }
  }
  for (std::size_t k = 0; k + 1 < values.size(); ++k) {
    bool agree = true;
    for (int j = 0; j < 3; ++j) {
      agree = agree && std::abs(moments[k][j] - moments[k + 1][j]) <= 1e-12 * scale;
    }
    if (agree) return k + 1;
  }
  throw std::invalid_argument(
      "the kernel varies on scales too fine to resolve with 8192 points on its range [0, z], where it is not "
      "negligible (is it smooth for r > 0, and not a sum of very different length scales?)");
}

}  // namespace

std::vector<int> profile_rule_sizes() {
  std::vector<int> sizes;
  for (int k = 0; k < kRules; ++k) sizes.push_back(kSmallestRule << k);
  return sizes;
}

std::vector<double> profile_nodes(double z_range) {
  if (!(z_range > 0.0) || !std::isfinite(z_range)) throw std::invalid_argument("a profile's range is positive and finite");
  std::vector<double> nodes;
  for (int n : profile_rule_sizes()) {
    for (double t : gauss_legendre_rule(n)->nodes) nodes.push_back(0.5 * z_range * (t + 1.0));
  }
  return nodes;
}

RadialProfileKernel::RadialProfileKernel(double z_range, const std::vector<double>& values, std::string route,
                                         std::vector<double> table_radius, std::vector<double> table_density,
                                         double negligible, std::vector<double> atom_radius,
                                         std::vector<double> atom_weight)
    : z_range_(z_range), route_(std::move(route)), table_radius_(std::move(table_radius)),
      table_density_(std::move(table_density)), negligible_(negligible), atom_radius_(std::move(atom_radius)),
      atom_weight_(std::move(atom_weight)) {
  if (route_ == "lp") return;  // the atoms are the measure; the profile is not needed
  if (!(z_range_ > 0.0) || !std::isfinite(z_range_)) throw std::invalid_argument("the radial kernel needs a positive range");
  std::size_t first = 0;
  for (int n : profile_rule_sizes()) {
    if (first + n > values.size()) throw std::invalid_argument("the radial kernel's profile has too few values");
    values_.emplace_back(values.begin() + first, values.begin() + first + n);
    first += n;
  }
  if (first != values.size()) throw std::invalid_argument("the radial kernel's profile has too many values");
  for (double v : values) {
    if (!std::isfinite(v)) throw std::invalid_argument("the radial kernel's profile must be finite");
  }
  first_rule_ = resolving_rule(values_);
}

double RadialProfileKernel::radial_limit(int) const {
  return (static_cast<double>(profile_rule_sizes().back()) - 100.0) / (0.6 * z_range_);
}

GaussianReference RadialProfileKernel::reference(int d) const {
  const std::vector<int> sizes = profile_rule_sizes();
  return fit_gaussian_reference(values_[first_rule_], *gauss_legendre_rule(sizes[first_rule_]), values_.back(),
                                *gauss_legendre_rule(sizes.back()), z_range_, d);
}

double RadialProfileKernel::radial_rest(int d) const { return values_.empty() ? 0.0 : reference(d).rest; }

RadialValue RadialProfileKernel::radial_value(int d, double radius) const {
  if (values_.empty()) throw std::invalid_argument("the radial kernel's profile has not been evaluated");
  const double needed = 0.6 * std::abs(radius) * z_range_ + 100.0;
  const std::vector<int> sizes = profile_rule_sizes();
  for (std::size_t k = first_rule_; k < sizes.size(); ++k) {
    if (sizes[k] < needed) continue;
    const auto rule = gauss_legendre_rule(sizes[k]);
    const GaussianReference fitted = reference(d);
    std::vector<double> known;
    for (double t : rule->nodes) {
      if (fitted.amplitude != 0.0) known.push_back(fitted.at(0.5 * z_range_ * (t + 1.0)));
    }
    RadialValue rest = profile_radial_density(values_[k], known, *rule, z_range_, d, radius);
    if (std::abs(rest.value) <= rest.error) rest.value = 0.0;
    if (fitted.amplitude == 0.0) return rest;
    // The Gaussian's density, and the rest's where resolved, whose L1 norm
    // bounds what it does to the kernel (with radial_rest()).
    const RadialValue exact = fitted.radial_density(d, radius);
    return {exact.value + rest.value, exact.error + std::abs(rest.value)};
  }
  throw std::invalid_argument("the radial kernel's density is computed up to radius " +
                              std::to_string(radial_limit(d)) + " only");
}

Measure RadialProfileKernel::measure(int d) const {
  if (route_ == "lp") return atom_parts(d, atom_radius_, atom_weight_, nullptr);
  if (table_radius_.empty()) throw std::invalid_argument("the radial kernel's density has not been tabulated");
  return jordan_radial_parts(d, table_radius_, table_density_, negligible_);
}

void RadialProfileKernel::gram_rows(const ConstMatrixMap&, const ConstMatrixMap&, const Eigen::VectorXd&,
                                    Eigen::Index, Eigen::Index, double*) const {
  throw std::logic_error("the Gram matrix of a radial kernel given as an R function is computed in R");
}

namespace {

std::vector<double> numbers(const KernelSpec& spec, const char* key) {
  const auto it = spec.params.find(key);
  return it == spec.params.end() ? std::vector<double>() : it->second;
}

// route "density" (the tabulated Hankel transform, within `accuracy`) or
// "lp" (atoms fitted within `tolerance` on distances [0, z_max]; z_max has
// no default: R asks for it). The LP's radii reach about 240 sqrt(d) / z_max
// and its bias bound squares them, so z_max stays in (1e-100, 1e100], where
// that cannot overflow or underflow.
KernelTraits radial_traits(const KernelSpec&) {
  KernelTraits t;
  t.measure = "signed";
  t.radial = true;
  t.settings = {Setting{"route", {"density", "lp"}},
                Setting{"accuracy", {}, 1e-6, 1e-12, 0.01, false, {"route", "density"}},
                Setting{"tolerance", {}, 1e-3, 1e-8, 0.5, false, {"route", "lp"}},
                Setting{"z_max", {}, 0.0, 1e-100, 1e100, false, {"route", "lp"}}};
  return t;
}

std::unique_ptr<Kernel> make_radial(const KernelSpec& spec) {
  const std::vector<double> negligible = numbers(spec, "table_negligible");
  const std::string route = spec.option("route", "density");
  if (route != "density" && route != "lp") throw std::invalid_argument("the radial kernel's route is \"density\" or \"lp\"");
  const bool lp = route == "lp";
  return std::make_unique<RadialProfileKernel>(
      lp ? 1.0 : spec.positive("z_range"), lp ? std::vector<double>() : spec.vector("profile"), route,
      numbers(spec, "table_radius"),
      numbers(spec, "table_density"), negligible.empty() ? 0.0 : negligible[0], numbers(spec, "atom_radius"),
      numbers(spec, "atom_weight"));
}

}  // namespace

KernelFamily radial_family() { return {"radial", radial_traits, make_radial, nullptr}; }

}  // namespace askrff
