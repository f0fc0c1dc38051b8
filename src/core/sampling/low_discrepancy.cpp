#include "core/sampling/low_discrepancy.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace askrff {

std::vector<int> first_primes(int n) {
  if (n < 1) return {};
  // The n-th prime is below n (ln n + ln ln n) for n >= 6.
  const double x = std::max(15.0, n * (std::log(n) + std::log(std::log(std::max(n, 3)))) + 3.0);
  const std::size_t limit = static_cast<std::size_t>(x);
  std::vector<bool> composite(limit + 1, false);
  std::vector<int> primes;
  for (std::size_t p = 2; p <= limit && static_cast<int>(primes.size()) < n; ++p) {
    if (composite[p]) continue;
    primes.push_back(static_cast<int>(p));
    for (std::size_t multiple = p * p; multiple <= limit; multiple += p) composite[multiple] = true;
  }
  return primes;
}

RandomizedHalton::RandomizedHalton(int dimension, Stream& stream) {
  if (dimension < 1) throw std::invalid_argument("quasi-Monte Carlo points need a dimension");
  bases_ = first_primes(dimension);
  permutations_.resize(bases_.size());
  shift_.resize(bases_.size());
  for (std::size_t j = 0; j < bases_.size(); ++j) {
    std::vector<int>& pi = permutations_[j];
    pi.resize(static_cast<std::size_t>(bases_[j]));
    for (int digit = 0; digit < bases_[j]; ++digit) pi[digit] = digit;
    // Fisher-Yates on the digits 1..b-1.
    for (int i = bases_[j] - 1; i > 1; --i) {
      const int k = 1 + static_cast<int>(stream.uniform() * i);
      std::swap(pi[i], pi[std::min(k, i)]);
    }
    shift_[j] = stream.uniform();
  }
}

void RandomizedHalton::point(std::uint64_t index, double* u) const {
  constexpr double kTiny = 0x1.0p-53;
  for (std::size_t j = 0; j < bases_.size(); ++j) {
    const std::uint64_t base = static_cast<std::uint64_t>(bases_[j]);
    double value = 0.0, scale = 1.0 / static_cast<double>(base);
    for (std::uint64_t rest = index; rest > 0; rest /= base, scale /= static_cast<double>(base)) {
      value += permutations_[j][rest % base] * scale;
    }
    value += shift_[j];
    value -= std::floor(value);
    u[j] = std::min(std::max(value, kTiny), 1.0 - kTiny);
  }
}

}  // namespace askrff
