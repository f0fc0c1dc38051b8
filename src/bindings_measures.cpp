// Spectral measures and frequency sampling, exported to R.
#include <Rcpp.h>

#include "adapters.h"
#include "guards.h"
#include "parallel.h"
#include "core/numerics/bessel_k.h"
#include "core/laws/profiled_gaussian.h"
#include "core/kernels/radial_profile_kernel.h"
#include "core/sampling/sampled_map.h"
#include "core/numerics/special_functions.h"
#include "core/kernels/sphere_kernels.h"
#include "core/laws/tabulated_radial.h"
#include "core/kernels/part_moments.h"

namespace {

// One row per positive part, as spectral_measure() and maps keep it.
Rcpp::List parts_frame(const askrff::Measure& measure) {
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
  // A data frame built directly: Rcpp::DataFrame::create() calls R's
  // as.data.frame(), half the set-up time of a small map.
  Rcpp::List frame = Rcpp::List::create(
      Rcpp::Named("part") = name, Rcpp::Named("mass") = mass, Rcpp::Named("exact") = exact,
      Rcpp::Named("coefficient") = coefficient, Rcpp::Named("right_phase") = right_phase,
      Rcpp::Named("phased") = phased, Rcpp::Named("orthogonal") = orthogonal,
      Rcpp::Named("density_variable") = density_variable, Rcpp::Named("features") = features);
  frame.attr("row.names") = Rcpp::IntegerVector::create(NA_INTEGER, -static_cast<int>(n));
  frame.attr("class") = "data.frame";
  return frame;
}

askrff::Measure measure_of(const Rcpp::List& kernel, int d) {
  askrff::require(d >= 1, "d must be at least 1");
  return askrff::make_kernel(askrff::kernel_spec(kernel))->measure(d);
}

}  // namespace

// [[Rcpp::export(.cpp_measure_parts)]]
Rcpp::List cpp_measure_parts(Rcpp::List kernel, int d) { return parts_frame(measure_of(kernel, d)); }

// The expression weight of each part (Part::weight), for total_masses().
// [[Rcpp::export(.cpp_part_weights)]]
Rcpp::NumericVector cpp_part_weights(Rcpp::List kernel, int d) {
  const askrff::Measure measure = measure_of(kernel, d);
  Rcpp::NumericVector weight(measure.size());
  for (std::size_t i = 0; i < measure.size(); ++i) weight[static_cast<R_xlen_t>(i)] = measure[i].weight;
  return weight;
}

// The table of frequency sources (sampling.h), in R's order: a data frame
// of their names and traits.
// [[Rcpp::export(.cpp_frequency_sources)]]
Rcpp::DataFrame cpp_frequency_sources() {
  Rcpp::CharacterVector name;
  Rcpp::LogicalVector blocked, exact, independent;
  for (const askrff::FrequencySource& source : askrff::frequency_sources()) {
    name.push_back(source.name);
    blocked.push_back(source.blocked);
    exact.push_back(source.exact);
    independent.push_back(source.independent);
  }
  return Rcpp::DataFrame::create(Rcpp::Named("name") = name, Rcpp::Named("blocked") = blocked,
                                 Rcpp::Named("exact") = exact, Rcpp::Named("independent") = independent,
                                 Rcpp::Named("stringsAsFactors") = false);
}

// The sources every part of the kernel's measure in dimension d takes.
// [[Rcpp::export(.cpp_measure_sources)]]
Rcpp::CharacterVector cpp_measure_sources(Rcpp::List kernel, int d) {
  Rcpp::CharacterVector out;
  for (askrff::Method method : askrff::measure_sources(measure_of(kernel, d))) out.push_back(askrff::source_name(method));
  return out;
}

// A map: the measure, built once, and n_features frequencies shared among its
// parts (sampled_map.h), with each part's share.
// [[Rcpp::export(.cpp_sample_map)]]
Rcpp::List cpp_sample_map(Rcpp::List kernel, int d, int n_features, std::string method, std::string allocation,
                          Rcpp::NumericVector seed_words) {
  askrff::require(n_features >= 1, "a map needs n_features >= 1");
  askrff::require(allocation == "mass" || allocation == "equal", "allocation must be \"mass\" or \"equal\"");
  const askrff::Measure measure = measure_of(kernel, d);
  Rcpp::NumericMatrix omega(d, n_features);
  Rcpp::IntegerVector part(n_features);
  Rcpp::NumericVector phase(n_features);
  askrff::InterruptPoll poll;
  const std::vector<double> share = askrff::sample_map(
      measure, d, n_features, askrff::method_named(method),
      allocation == "mass" ? askrff::Allocation::mass : askrff::Allocation::equal,
      askrff::seed_from_words(seed_words), omega.begin(), part.begin(), phase.begin(), std::ref(poll));
  for (R_xlen_t f = 0; f < part.size(); ++f) part[f] += 1;
  return Rcpp::List::create(Rcpp::Named("parts") = parts_frame(measure), Rcpp::Named("share") = Rcpp::wrap(share),
                            Rcpp::Named("omega") = omega,
                            Rcpp::Named("part") = part, Rcpp::Named("phase") = phase);
}

// Every part's first and second moments over the pairs of rows of x and y,
// for approximation_study()'s closed-form variance (part_moments.h): `known`
// per part, and for a known part the n_x by n_y matrices T_p (`first`) and
// S_p (`second`), NULL for the others; and how far their sum may be from
// the kernel (`bias_bound`, measure_bias()).
// [[Rcpp::export(.cpp_part_moments)]]
Rcpp::List cpp_part_moments(Rcpp::List kernel, int d, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require(d >= 1, "d must be at least 1");
  askrff::require_data(x, d, "x");
  askrff::require_data(y, d, "y");
  const askrff::Measure measure = measure_of(kernel, d);
  const askrff::ConstMatrixMap xm(x.begin(), x.nrow(), d), ym(y.begin(), y.nrow(), d);
  askrff::InterruptPoll poll;
  // j = 2 doubles the distances
  const double reach = 2.0 * std::max(askrff::largest_distance(xm, ym, std::ref(poll)), 1e-300);
  const askrff::PartMoments moments(measure, reach, std::ref(poll));
  const std::size_t parts = moments.size();
  Rcpp::LogicalVector known(parts);
  Rcpp::List first(parts), second(parts);
  std::vector<double*> first_values(parts, nullptr), second_values(parts, nullptr);
  for (std::size_t p = 0; p < parts; ++p) {
    known[p] = moments.known(p);
    if (!moments.known(p)) continue;
    Rcpp::NumericMatrix t(x.nrow(), y.nrow()), s(x.nrow(), y.nrow());
    first_values[p] = t.begin();
    second_values[p] = s.begin();
    first[p] = t;
    second[p] = s;
  }
  askrff::run_row_blocks(static_cast<std::size_t>(x.nrow()), moments.pair_cost(d) * y.nrow(), 64, n_threads,
                         [&](std::size_t begin, std::size_t end) {
                           moments.rows(xm, ym, static_cast<Eigen::Index>(begin), static_cast<Eigen::Index>(end),
                                        first_values, second_values);
                         });
  return Rcpp::List::create(Rcpp::Named("known") = known, Rcpp::Named("first") = first,
                            Rcpp::Named("second") = second,
                            Rcpp::Named("bias_bound") = askrff::measure_bias(askrff::kernel_spec(kernel), d));
}

// The shares of the parts at n frequencies and the covariance of their
// counts under the allocation (sampled_map.h), for the closed-form variance.
// [[Rcpp::export(.cpp_allocation_law)]]
Rcpp::List cpp_allocation_law(Rcpp::List kernel, int d, int n_features, std::string allocation) {
  askrff::require(allocation == "mass" || allocation == "equal", "allocation must be \"mass\" or \"equal\"");
  const askrff::Measure measure = measure_of(kernel, d);
  const askrff::AllocationLaw law = askrff::allocation_law(
      measure, n_features, allocation == "mass" ? askrff::Allocation::mass : askrff::Allocation::equal);
  Rcpp::NumericMatrix covariance(static_cast<int>(measure.size()), static_cast<int>(measure.size()));
  std::copy(law.covariance.begin(), law.covariance.end(), covariance.begin());
  return Rcpp::List::create(Rcpp::Named("share") = Rcpp::wrap(law.share), Rcpp::Named("covariance") = covariance);
}

// The unit vector of each part's "projection" density (a column per part),
// NA for parts whose density is of another variable.
// [[Rcpp::export(.cpp_part_directions)]]
Rcpp::NumericMatrix cpp_part_directions(Rcpp::List kernel, int d) {
  const askrff::Measure measure = measure_of(kernel, d);
  Rcpp::NumericMatrix out(d, static_cast<int>(measure.size()));
  std::fill(out.begin(), out.end(), NA_REAL);
  for (std::size_t p = 0; p < measure.size(); ++p) {
    const std::vector<double> u = measure[p].sampler->density_direction();
    if (static_cast<int>(u.size()) != d) continue;
    std::copy(u.begin(), u.end(), out.begin() + static_cast<R_xlen_t>(p) * d);
  }
  return out;
}

// [[Rcpp::export(.cpp_part_density)]]
Rcpp::NumericVector cpp_part_density(Rcpp::List kernel, int d, int part, Rcpp::NumericVector at) {
  const askrff::Measure measure = measure_of(kernel, d);
  const askrff::PartSampler& law = *measure.at(static_cast<std::size_t>(part - 1)).sampler;
  Rcpp::NumericVector out(at.size());
  for (R_xlen_t i = 0; i < at.size(); ++i) out[i] = law.density(at[i]);
  return out;
}

// Frequencies of part `part` from given uniforms (one column of
// uniform_dimension() numbers per frequency), as the quasi-Monte Carlo source
// and the stable law's i.i.d. draws compute them: for tests at the uniforms'
// extremes.
// [[Rcpp::export(.cpp_part_from_uniforms)]]
Rcpp::NumericMatrix cpp_part_from_uniforms(Rcpp::List kernel, int d, int part, Rcpp::NumericMatrix u) {
  const askrff::Measure measure = measure_of(kernel, d);
  askrff::require(part >= 1 && part <= static_cast<int>(measure.size()), "part must name a part of the measure");
  const askrff::PartSampler& law = *measure.at(static_cast<std::size_t>(part - 1)).sampler;
  askrff::require(law.uniform_dimension() > 0 && u.nrow() == law.uniform_dimension(),
                  "u must have one row per uniform the part's law takes");
  Rcpp::NumericMatrix omega(d, u.ncol());
  for (R_xlen_t j = 0; j < u.ncol(); ++j) law.from_uniforms(&u(0, j), &omega(0, j));
  return omega;
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

// The Gamma(shape, 1) quantile the scale mixtures' quasi-Monte Carlo uses,
// for tests against R's qgamma.
// [[Rcpp::export(.cpp_gamma_quantile)]]
Rcpp::NumericVector cpp_gamma_quantile(double shape, Rcpp::NumericVector p) {
  Rcpp::NumericVector out(p.size());
  for (R_xlen_t i = 0; i < p.size(); ++i) out[i] = askrff::gamma_quantile(shape, p[i]);
  return out;
}

// log K_nu(x) as the Matern kernel computes it, for tests against R's besselK.
// [[Rcpp::export(.cpp_log_bessel_k)]]
Rcpp::NumericVector cpp_log_bessel_k(double nu, Rcpp::NumericVector x) {
  Rcpp::NumericVector out(x.size());
  for (R_xlen_t i = 0; i < x.size(); ++i) out[i] = askrff::log_bessel_k(nu, x[i]);
  return out;
}

// Where R evaluates a radial kernel given as a function: the nodes of the
// nested rules on [0, z_range] (radial_profile_kernel.h).
// [[Rcpp::export(.cpp_profile_nodes)]]
Rcpp::NumericVector cpp_profile_nodes(double z_range) { return Rcpp::wrap(askrff::profile_nodes(z_range)); }

// The kernel's signed radial density in dimension d, tabulated within
// `accuracy` (tabulated_radial.h): radii, values, and the estimated tail
// mass, interpolation error and rounding error (with what radial_rest()
// adds to it).
// [[Rcpp::export(.cpp_radial_table)]]
Rcpp::List cpp_radial_table(Rcpp::List kernel, int d, double accuracy) {
  askrff::require(d >= 1, "d must be at least 1");
  const std::unique_ptr<askrff::Kernel> k = askrff::make_kernel(askrff::kernel_spec(kernel));
  const askrff::RadialTable table = askrff::tabulate_radial_density(
      [&](double r) { return k->radial_value(d, r); }, k->radial_limit(d), accuracy);
  return Rcpp::List::create(Rcpp::Named("radius") = table.radius, Rcpp::Named("density") = table.density,
                            Rcpp::Named("tail") = table.tail, Rcpp::Named("interpolation") = table.interpolation,
                            Rcpp::Named("rounding") = table.rounding + k->radial_rest(d));
}

// The radii ||w|| of n frequencies from the kernel's measure in dimension d,
// which must be one positive rotation-invariant part (the law of the norm
// alone, for maps that make their own directions, as Fastfood does), with
// the part's total mass times its coefficient: list(radius, mass).
// [[Rcpp::export(.cpp_sample_radii)]]
Rcpp::List cpp_sample_radii(Rcpp::List kernel, int d, int n, Rcpp::NumericVector seed_words) {
  askrff::require(n >= 1, "n must be at least 1");
  const askrff::Measure measure = measure_of(kernel, d);
  askrff::require(measure.size() == 1 && measure[0].sampler->rotation_invariant() && measure[0].coefficient > 0.0 &&
                      measure[0].right_phase == 0.0 && !measure[0].left_phase && measure[0].features == "trig",
                  "the kernel's measure must be one positive rotation-invariant part");
  const askrff::PartSampler& law = *measure[0].sampler;
  // a stream of its own, apart from the frequencies' and the dither's
  constexpr std::uint64_t kRadiiPart = 0x7261646969ULL;
  askrff::Stream stream(askrff::seed_from_words(seed_words), kRadiiPart, 0);
  std::vector<double> axis(static_cast<std::size_t>(d), 0.0), omega(axis);
  axis[0] = 1.0;
  Rcpp::NumericVector radius(n);
  for (R_xlen_t i = 0; i < n; ++i) {
    if (law.supports_orthogonal()) {
      law.sample_along(stream, axis.data(), omega.data());
    } else {
      law.sample(stream, omega.data());
    }
    double squares = 0.0;
    for (const double w : omega) squares += w * w;
    radius[i] = std::sqrt(squares);
  }
  return Rcpp::List::create(Rcpp::Named("radius") = radius,
                            Rcpp::Named("mass") = measure[0].mass * measure[0].coefficient);
}
