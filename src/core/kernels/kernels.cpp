#include "core/kernels/kernels.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>


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

const std::vector<double>& KernelSpec::positives(const std::string& key) const {
  const std::vector<double>& values = vector(key);
  for (double value : values) {
    if (value <= 0.0) throw std::invalid_argument("kernel '" + name + "' needs positive '" + key + "'");
  }
  return values;
}

std::string KernelSpec::option(const std::string& key, const std::string& fallback) const {
  const auto it = options.find(key);
  return it == options.end() ? fallback : it->second;
}

double Kernel::radial_density(int, double) const {
  throw std::invalid_argument("this kernel's spectral measure is not rotation invariant");
}

double Kernel::radial_limit(int d) const {
  double largest = 0.0, last = 1.0;
  for (int j = -40; j <= 60; ++j) {
    const double r = std::ldexp(1.0, j);
    const double g = r * std::abs(radial_density(d, r));
    largest = std::max(largest, g);
    if (g > 1e-20 * largest) last = r;
  }
  return 4.0 * last;
}

double RayProfile::at_zero() const {
  double sum = 0.0;
  for (double a : weights) sum += a;
  return sum;
}

}  // namespace askrff
