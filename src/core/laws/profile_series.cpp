#include "core/laws/profile_series.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/numerics/fft.h"

namespace askrff {

namespace {

constexpr double kReach = 9.0;  // exp(-kReach^2 / 2) = exp(-40.5)

FourierSeries listed(std::vector<std::complex<double>> c, std::function<double(double)> even = nullptr) {
  FourierSeries series;
  series.first = -1;
  series.c = std::move(c);
  series.even = std::move(even);
  return series;
}

}  // namespace

// h0 + c1 cos t + s1 sin t + sum_k hk(k) cos 2kt, with cos t = (e^{it} +
// e^{-it}) / 2 and sin t = (e^{it} - e^{-it}) / (2i).
std::optional<FourierSeries> profile_series(Profile profile, double amplitude, const Poll& poll) {
  const auto cos_even = [](double k) { return 2.0 / M_PI * (std::fmod(k, 2.0) == 1.0 ? 1.0 : -1.0) / (4.0 * k * k - 1.0); };
  switch (profile) {
    case Profile::one: return listed({0.0, 1.0, 0.0});
    case Profile::cos_pos: return listed({0.25, 1.0 / M_PI, 0.25}, cos_even);
    case Profile::cos_neg: return listed({-0.25, 1.0 / M_PI, -0.25}, cos_even);
    case Profile::sin_pos:
      return listed({{0.0, 0.25}, 1.0 / M_PI, {0.0, -0.25}}, [](double k) { return -2.0 / M_PI / (4.0 * k * k - 1.0); });
    case Profile::sinh_modulus:
      return numeric_series([amplitude](double t) { return profile_value(Profile::sinh_modulus, t, amplitude); }, poll);
  }
  return std::nullopt;
}

std::optional<FourierSeries> numeric_series(const std::function<std::complex<double>(double)>& h, const Poll& poll) {
  for (int size = 64; size <= (1 << 16); size *= 2) {
    std::vector<std::complex<double>> sums(static_cast<std::size_t>(size));
    for (int n = 0; n < size; ++n) sums[n] = h(2.0 * M_PI * n / size) / static_cast<double>(size);
    // the trapezoid sums of every coefficient at once
    std::vector<std::complex<double>> work;
    Dft(size).forward(sums.data(), work);
    poll();
    // sums[k] holds c_k for k < size / 2 and c_{k - size} above
    double largest = 0.0, top = 0.0;
    for (int k = 0; k < size; ++k) {
      const int index = k < size / 2 ? k : k - size;
      largest = std::max(largest, std::abs(sums[k]));
      if (std::abs(index) >= size / 4) top = std::max(top, std::abs(sums[k]));
    }
    if (!(top <= 1e-16 * largest)) continue;
    int low = size / 2, high = -size / 2;
    for (int k = 0; k < size; ++k) {
      const int index = k < size / 2 ? k : k - size;
      if (!(std::abs(sums[k]) > 1e-15 * largest)) continue;
      low = std::min(low, index);
      high = std::max(high, index);
    }
    FourierSeries series;
    series.first = low;
    for (int index = low; index <= high; ++index) {
      const std::complex<double> c = sums[static_cast<std::size_t>((index + size) % size)];
      series.c.push_back(std::abs(c) > 1e-15 * largest ? c : 0.0);
    }
    return series;
  }
  return std::nullopt;
}

double even_terms(double s) { return std::ceil(kReach / s) + 1.0; }

std::complex<double> gaussian_fourier_mean(const FourierSeries& h, double s, double b) {
  const auto gauss = [s](double u) {
    const double z = u * s;
    return std::exp(-0.5 * z * z);
  };
  const double window = kReach / s;
  std::complex<double> sum = 0.0;
  const double last = static_cast<double>(h.first) + static_cast<double>(h.c.size()) - 1.0;
  const double from = std::max(static_cast<double>(h.first), std::ceil(-b - window));
  const double to = std::min(last, std::floor(-b + window));
  for (double k = from; k <= to; ++k) sum += h.c[static_cast<std::size_t>(k - h.first)] * gauss(b + k);
  // cos 2kt: (g(b + 2k) + g(b - 2k)) / 2, where 2k is within the window of
  // |b|; beyond |b| = 1e12 the even terms (at most 1 / k^2) are below 1e-24
  const double a = std::abs(b);
  if (h.even && a <= 1e12 && s > 0.0) {
    for (double k = std::max(1.0, std::ceil((a - window) / 2.0)); 2.0 * k <= a + window; ++k) {
      sum += h.even(k) * 0.5 * (gauss(b + 2.0 * k) + gauss(b - 2.0 * k));
    }
  }
  return sum;
}

}  // namespace askrff
