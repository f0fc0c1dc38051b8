// Spectral measures and frequency sampling, exported to R.
#include <Rcpp.h>

#include "adapters.h"
#include "guards.h"
#include "parallel.h"
#include "core/profiled_gaussian.h"
#include "core/sampling.h"
#include "core/special_functions.h"
#include "core/sphere_kernels.h"

// [[Rcpp::export(.cpp_measure_parts)]]
Rcpp::List cpp_measure_parts(Rcpp::List kernel, int d) {
  askrff::require(d >= 1, "d must be at least 1");
  const askrff::Measure measure = askrff::make_kernel(askrff::kernel_spec(kernel))->measure(d);
  const R_xlen_t n = static_cast<R_xlen_t>(measure.size());
  Rcpp::CharacterVector name(n), density_variable(n), features(n);
  Rcpp::NumericVector mass(n), coefficient(n), right_phase(n);
  Rcpp::LogicalVector exact(n), orthogonal(n), phased(n);
  for (R_xlen_t i = 0; i < n; ++i) {
    const askrff::Part& part = measure[i];
    name[i] = part.name;
    mass[i] = part.mass;
    exact[i] = part.mass_exact;
    coefficient[i] = part.coefficient;
    right_phase[i] = part.right_phase;
    orthogonal[i] = part.sampler->supports_orthogonal();
    phased[i] = static_cast<bool>(part.left_phase);
    density_variable[i] = part.sampler->density_variable();
    features[i] = part.features;
  }
  return Rcpp::DataFrame::create(
      Rcpp::Named("part") = name, Rcpp::Named("mass") = mass, Rcpp::Named("exact") = exact,
      Rcpp::Named("coefficient") = coefficient, Rcpp::Named("right_phase") = right_phase,
      Rcpp::Named("phased") = phased, Rcpp::Named("orthogonal") = orthogonal,
      Rcpp::Named("density_variable") = density_variable, Rcpp::Named("features") = features,
      Rcpp::Named("stringsAsFactors") = false);
}

// [[Rcpp::export(.cpp_part_density)]]
Rcpp::NumericVector cpp_part_density(Rcpp::List kernel, int d, int part, Rcpp::NumericVector at) {
  askrff::require(d >= 1, "d must be at least 1");
  const askrff::Measure measure = askrff::make_kernel(askrff::kernel_spec(kernel))->measure(d);
  const askrff::PartSampler& law = *measure.at(static_cast<std::size_t>(part - 1)).sampler;
  Rcpp::NumericVector out(at.size());
  for (R_xlen_t i = 0; i < at.size(); ++i) out[i] = law.density(at[i]);
  return out;
}

// n_features frequencies from every positive part, parts side by side, with
// the left phase of each (zero unless the part samples |mu|).
// [[Rcpp::export(.cpp_sample_frequencies)]]
Rcpp::List cpp_sample_frequencies(Rcpp::List kernel, int d, int n_features, std::string method,
                                  Rcpp::NumericVector seed_words) {
  askrff::require(d >= 1 && n_features >= 1, "sampling needs d >= 1 and n_features >= 1");
  askrff::require(method == "iid" || method == "orthogonal", "method must be \"iid\" or \"orthogonal\"");
  askrff::require(seed_words.size() == 2, "a seed is two 32-bit words");
  const askrff::Measure measure = askrff::make_kernel(askrff::kernel_spec(kernel))->measure(d);
  const askrff::Method how = method == "orthogonal" ? askrff::Method::orthogonal : askrff::Method::iid;
  const std::uint64_t seed = askrff::seed_from_words(seed_words);
  const int n_parts = static_cast<int>(measure.size());
  const int n_total = askrff::require_int(static_cast<double>(n_features) * n_parts, "the number of frequencies");
  Rcpp::NumericMatrix omega(d, n_total);
  Rcpp::IntegerVector part(n_total);
  Rcpp::NumericVector phase(n_total);
  askrff::InterruptPoll poll;
  for (int p = 0; p < n_parts; ++p) {
    double* sampled = omega.begin() + static_cast<R_xlen_t>(p) * n_features * d;
    askrff::sample_frequencies(*measure[p].sampler, d, n_features, how, seed, p, sampled, std::ref(poll));
    std::fill(part.begin() + static_cast<R_xlen_t>(p) * n_features,
              part.begin() + static_cast<R_xlen_t>(p + 1) * n_features, p + 1);
    if (measure[p].left_phase) {
      for (int j = 0; j < n_features; ++j) {
        phase[static_cast<R_xlen_t>(p) * n_features + j] =
            measure[p].left_phase(sampled + static_cast<R_xlen_t>(j) * d);
      }
    }
  }
  return Rcpp::List::create(Rcpp::Named("omega") = omega, Rcpp::Named("part") = part,
                            Rcpp::Named("phase") = phase);
}

// E h(T), T ~ N(0, s^2), by the requested route ("auto", "series" or
// "quadrature"), so tests can check the routes against each other.
// [[Rcpp::export(.cpp_profile_mean)]]
double cpp_profile_mean(std::string profile, double s, double amplitude, std::string route) {
  static const std::map<std::string, askrff::Profile> profiles = {
      {"one", askrff::Profile::one}, {"cos_pos", askrff::Profile::cos_pos},
      {"cos_neg", askrff::Profile::cos_neg}, {"sin_pos", askrff::Profile::sin_pos},
      {"sinh_modulus", askrff::Profile::sinh_modulus}};
  const auto found = profiles.find(profile);
  askrff::require(found != profiles.end() && s >= 0, "unknown profile or negative s");
  const askrff::Profile p = found->second;
  if (route == "series") return askrff::profile_mean_series(p, s);
  if (route == "quadrature") return askrff::profile_mean_quadrature(p, s, amplitude);
  return askrff::profile_mean(p, s, amplitude);
}

// The signed radial density S_{d-1} r^{d-1} mu(r) of a rotation-invariant measure.
// [[Rcpp::export(.cpp_radial_density)]]
Rcpp::NumericVector cpp_radial_density(Rcpp::List kernel, int d, Rcpp::NumericVector radius) {
  askrff::require(d >= 1, "d must be at least 1");
  const std::unique_ptr<askrff::Kernel> k = askrff::make_kernel(askrff::kernel_spec(kernel));
  Rcpp::NumericVector out(radius.size());
  for (R_xlen_t i = 0; i < radius.size(); ++i) out[i] = k->radial_density(d, radius[i]);
  return out;
}

// What the linear program of a sphere kernel's stationary route fits: k(z),
// minus exp(-z/pi) when the cusp is split off.
// [[Rcpp::export(.cpp_lp_target)]]
Rcpp::NumericVector cpp_lp_target(Rcpp::List kernel, Rcpp::NumericVector z) {
  const std::unique_ptr<askrff::SphereKernel> k = askrff::make_sphere_kernel(askrff::kernel_spec(kernel));
  if (!k) Rcpp::stop("not a kernel on the sphere");
  Rcpp::NumericVector out(z.size());
  for (R_xlen_t i = 0; i < z.size(); ++i) out[i] = k->lp_target(z[i]);
  return out;
}

// Omega_d(r_j z_i) for every pair: the columns of the linear program.
// [[Rcpp::export(.cpp_omega_matrix)]]
Rcpp::NumericMatrix cpp_omega_matrix(int d, Rcpp::NumericVector z, Rcpp::NumericVector radius) {
  askrff::require(d >= 1, "d must be at least 1");
  Rcpp::NumericMatrix out(z.size(), radius.size());
  for (R_xlen_t j = 0; j < radius.size(); ++j)
    for (R_xlen_t i = 0; i < z.size(); ++i) out(i, j) = askrff::omega_d(d, z[i] * radius[j]);
  return out;
}
