#include "core/laws/tabulated_radial.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "core/laws/elementary_laws.h"
#include "core/laws/radial_quadrature.h"

namespace askrff {

namespace {

constexpr int kScanPerOctave = 4, kScanPoints = 161;  // down to 2^-40 of the limit
constexpr int kExactPoints = 257, kRefine = 32;       // 8193 table radii
constexpr double kSpan = 2000.0;                      // asinh scale: R / 2000

// Second derivatives of the natural cubic spline through (i h, y_i).
std::vector<double> spline_curvatures(const std::vector<double>& y, double h) {
  const std::size_t n = y.size();
  std::vector<double> m(n, 0.0), c(n, 0.0), r(n, 0.0);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double rhs = 6.0 * (y[i + 1] - 2.0 * y[i] + y[i - 1]) / (h * h);
    const double denominator = 4.0 - c[i - 1];
    c[i] = 1.0 / denominator;
    r[i] = (rhs - r[i - 1]) / denominator;
  }
  for (std::size_t i = n - 2; i >= 1; --i) m[i] = r[i] - c[i] * m[i + 1];
  return m;
}

double spline_at(const std::vector<double>& y, const std::vector<double>& m, double h, double x) {
  const std::size_t cell = std::min(static_cast<std::size_t>(std::max(0.0, x / h)), y.size() - 2);
  const double t = x / h - static_cast<double>(cell), s = 1.0 - t;
  return s * y[cell] + t * y[cell + 1] +
         h * h / 6.0 * ((s * s * s - s) * m[cell] + (t * t * t - t) * m[cell + 1]);
}

std::string format_number(double value) {
  std::ostringstream out;
  out.precision(3);
  out << value;
  return out.str();
}

}  // namespace

RadialTable tabulate_radial_density(const std::function<RadialValue(double)>& density, double radius_limit,
                                    double tolerance) {
  if (!(radius_limit > 0.0) || !std::isfinite(radius_limit)) throw std::invalid_argument("a radius limit is positive");
  // Mass per unit of log radius, r |mu(r)|, from the smallest radius up.
  const double step = std::log(2.0) / kScanPerOctave;
  std::vector<double> r(kScanPoints), g(kScanPoints);
  for (int i = 0; i < kScanPoints; ++i) {
    r[i] = radius_limit * std::exp(-step * (kScanPoints - 1 - i));
    const double value = density(r[i]).value;
    if (!std::isfinite(value)) throw std::invalid_argument("the radial density is not finite at radius " + format_number(r[i]));
    g[i] = r[i] * std::abs(value);
  }
  // The scan ends at the last two neighbours above their rounding error:
  // further out the computed density is rounding noise (the true density of
  // a smooth kernel has fallen below it), which says nothing about the tail.
  int end = kScanPoints;
  while (end > 1 && !(g[end - 1] > 0.0 && g[end - 2] > 0.0)) --end;
  std::fill(g.begin() + end, g.end(), 0.0);
  double variation = 0.0;
  for (double value : g) variation += value * step;
  if (!(variation > 0.0)) throw std::invalid_argument("the kernel's radial spectral density is zero everywhere");
  // The mass beyond the scan's end: g there decays like r^-a from an octave
  // before, so what lies beyond is about g / a. A density resolved up to the
  // limit is judged by its envelope, the largest g of each octave (it may
  // change sign); one that sinks into rounding before is smooth and falls
  // fast there, so by its last values (its last octave holds its bulk).
  const auto largest = [&](int first, int last) {
    return *std::max_element(g.begin() + std::max(first, 0), g.begin() + std::max(last, 1));
  };
  const bool resolved = end == kScanPoints;
  const double top = resolved ? largest(end - kScanPerOctave, end) : g[end - 1];
  const double octave_before = resolved ? largest(end - 2 * kScanPerOctave, end - kScanPerOctave)
                                        : g[std::max(end - 1 - kScanPerOctave, 0)];
  const double decay = top > 0.0 && octave_before > 0.0 ? std::log(octave_before / top) / std::log(2.0) : 60.0;
  const double beyond = top > 0.0 ? top / std::max(decay, 0.1) : 0.0;
  const double allowed = tolerance * variation;
  if (beyond > 0.5 * allowed) {
    const std::string trend = decay > 0.0 ? "falls only like r^-" + format_number(decay)
                                          : "does not fall (it grows like r^" + format_number(-decay) + ")";
    const std::string mass = "the mass beyond is about " + format_number(beyond / variation) + " of the total";
    const std::string at = " at radius " + format_number(r[end - 1]) + ", where " + mass +
                           ", more than the accuracy asked for (" + format_number(tolerance) + ") allows";
    if (!resolved) {
      throw std::invalid_argument(
          "its spectral density sinks into the rounding error of the Hankel transform (which cancels more the "
          "higher the dimension) while r |mu(r)| " + trend + at + "; raise `accuracy` above " +
          format_number(2.0 * beyond / variation));
    }
    if (decay > 0.0) {
      throw std::invalid_argument("its spectral density has a heavy tail: r |mu(r)| still " + trend + at +
                                  " (a cusp at 0 or slow decay of k, such as exp(-r), gives such tails); raise `accuracy`");
    }
    throw std::invalid_argument("its spectral density is computed only up to radius " + format_number(r[end - 1]) +
                                ", where r |mu(r)| still " + trend.substr(0, trend.find(" (")) + " and " + mass);
  }
  // The smallest scanned radius with little enough mass beyond it.
  double tail = beyond;
  int last = end - 1;
  while (last > 0 && tail + 0.5 * (g[last] + g[last - 1]) * step <= 0.5 * allowed) {
    tail += 0.5 * (g[last] + g[last - 1]) * step;
    --last;
  }
  const double radius_max = r[last];
  // Likewise the largest with little enough mass below it (in high
  // dimension the density vanishes near 0), g[0] being about the mass below
  // the scan.
  int first = 0;
  double below = g[0];
  while (first + 1 < last && below + 0.5 * (g[first] + g[first + 1]) * step <= 0.25 * allowed) {
    below += 0.5 * (g[first] + g[first + 1]) * step;
    ++first;
  }
  const double radius_min = below <= 0.25 * allowed ? r[first] : 0.0;
  if (radius_min > 0.0) tail += below;

  // Exact values at 257 radii even in u = asinh((r - radius_min) / scale), a
  // spline between.
  const double scale = (radius_max - radius_min) / kSpan, u_max = std::asinh(kSpan), h = u_max / (kExactPoints - 1);
  const auto radius_at = [&](double u) { return radius_min + scale * std::sinh(u); };
  // Their errors bound the table's, integrated over the radii.
  std::vector<double> exact(kExactPoints);
  double rounding = 0.0, previous_error = 0.0;
  for (int i = 0; i < kExactPoints; ++i) {
    const RadialValue value = density(radius_at(i * h));
    exact[i] = value.value;
    if (!std::isfinite(exact[i]) || !(value.error >= 0.0)) throw std::invalid_argument("the radial density is not finite");
    if (i > 0) rounding += 0.5 * (previous_error + value.error) * (radius_at(i * h) - radius_at((i - 1) * h));
    previous_error = value.error;
  }
  const std::vector<double> curvature = spline_curvatures(exact, h);
  RadialTable table;
  const int n = (kExactPoints - 1) * kRefine + 1;
  table.radius.resize(n);
  table.density.resize(n);
  for (int i = 0; i < n; ++i) {
    const double u = i * h / kRefine;
    table.radius[i] = radius_at(u);
    table.density[i] = i % kRefine == 0 ? exact[i / kRefine] : spline_at(exact, curvature, h, u);
  }
  // Linear interpolation against the spline at cell midpoints (Simpson's
  // weights for |error|, which is quadratic across a cell), plus the spline's
  // own error: a spline through every other exact value misses the others by
  // about 16 times as much (h^4).
  double interpolation = 0.0;
  for (int i = 0; i + 1 < n; ++i) {
    const double u = (i + 0.5) * h / kRefine;
    const double middle = spline_at(exact, curvature, h, u);
    interpolation += std::abs(middle - 0.5 * (table.density[i] + table.density[i + 1])) * (2.0 / 3.0) *
                     (table.radius[i + 1] - table.radius[i]);
  }
  std::vector<double> even;
  for (int i = 0; i < kExactPoints; i += 2) even.push_back(exact[i]);
  const std::vector<double> even_curvature = spline_curvatures(even, 2.0 * h);
  double spline_error = 0.0;
  for (int i = 1; i < kExactPoints; i += 2) {
    const double width = radius_at((i + 1) * h) - radius_at((i - 1) * h);
    spline_error += std::abs(spline_at(even, even_curvature, 2.0 * h, i * h) - exact[i]) * 0.5 * width;
  }
  table.interpolation = interpolation + spline_error / 16.0;
  table.tail = tail;
  table.rounding = rounding;
  return table;
}

Measure jordan_radial_parts(int d, const std::vector<double>& radius, const std::vector<double>& density,
                            double negligible) {
  if (radius.size() < 2 || radius.size() != density.size()) throw std::invalid_argument("a radial table needs matching radii and values");
  std::vector<double> knots{radius[0]}, values{density[0]};
  for (std::size_t i = 1; i < radius.size(); ++i) {
    if (!(radius[i] > radius[i - 1]) || !std::isfinite(density[i])) {
      throw std::invalid_argument("a radial table needs increasing radii and finite values");
    }
    if (density[i - 1] * density[i] < 0.0) {
      const double root = radius[i - 1] + (radius[i] - radius[i - 1]) * density[i - 1] / (density[i - 1] - density[i]);
      if (root > knots.back() && root < radius[i]) {
        knots.push_back(root);
        values.push_back(0.0);
      }
    }
    knots.push_back(radius[i]);
    values.push_back(density[i]);
  }
  Measure parts;
  for (const int sign : {+1, -1}) {
    std::vector<double> part(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) part[i] = std::max(0.0, sign * values[i]);
    auto law = std::make_shared<PiecewiseLinearRadialLaw>(d, knots, std::move(part));
    if (!(law->mass() > negligible)) continue;
    parts.push_back(Part{sign > 0 ? "pos" : "neg", law->mass(), true, static_cast<double>(sign), 0.0, law});
  }
  if (parts.empty()) throw std::invalid_argument("the radial density has no mass");
  return parts;
}

PiecewiseLinearRadialLaw::PiecewiseLinearRadialLaw(int d, std::vector<double> radius, std::vector<double> density)
    : RadialLaw(d), radius_(std::move(radius)), density_(std::move(density)), cumulative_(radius_.size(), 0.0) {
  for (std::size_t i = 1; i < radius_.size(); ++i) {
    cumulative_[i] = cumulative_[i - 1] + 0.5 * (density_[i - 1] + density_[i]) * (radius_[i] - radius_[i - 1]);
  }
}

// The cell holding the u-quantile of the mass, then the root s of
// f_a s + slope s^2 / 2 = target in its rationalized, cancellation-free form.
double PiecewiseLinearRadialLaw::radius_at(double u) const {
  const double target_mass = u * cumulative_.back();
  const auto above = std::upper_bound(cumulative_.begin(), cumulative_.end(), target_mass);
  const std::size_t cell =
      std::min<std::size_t>(std::max<std::ptrdiff_t>(above - cumulative_.begin(), 1), cumulative_.size() - 1) - 1;
  const double width = radius_[cell + 1] - radius_[cell];
  const double f = density_[cell], slope = (density_[cell + 1] - f) / width;
  const double target = std::max(0.0, target_mass - cumulative_[cell]);
  const double root = std::sqrt(std::max(0.0, f * f + 2.0 * slope * target));
  const double s = f + root > 0.0 ? 2.0 * target / (f + root) : 0.0;
  return radius_[cell] + std::min(std::max(s, 0.0), width);
}

void PiecewiseLinearRadialLaw::sample(Stream& stream, double* omega) const {
  uniform_direction(stream, d_, omega);
  const double radius = radius_at(stream.uniform());
  for (int k = 0; k < d_; ++k) omega[k] *= radius;
}

void PiecewiseLinearRadialLaw::from_uniforms(const double* u, double* omega) const {
  direction_from_uniforms(d_, u, omega);
  const double radius = radius_at(u[d_]);
  for (int k = 0; k < d_; ++k) omega[k] *= radius;
}

double PiecewiseLinearRadialLaw::density(double radius) const {
  if (!(radius >= radius_.front() && radius <= radius_.back())) return 0.0;
  const auto above = std::upper_bound(radius_.begin(), radius_.end(), radius);
  const std::size_t cell = std::min<std::size_t>(std::max<std::ptrdiff_t>(above - radius_.begin(), 1), radius_.size() - 1) - 1;
  const double t = (radius - radius_[cell]) / (radius_[cell + 1] - radius_[cell]);
  return ((1.0 - t) * density_[cell] + t * density_[cell + 1]) / cumulative_.back();
}

Characteristic PiecewiseLinearRadialLaw::characteristic(double reach, const Poll& poll) const {
  return radial_quadrature_characteristic(d_, [this](double r) { return density(r); }, reach, poll);
}

}  // namespace askrff
