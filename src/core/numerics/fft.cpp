#include "core/numerics/fft.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace askrff {

namespace {
constexpr double kPi = 3.14159265358979323846;

bool power_of_two(int n) { return (n & (n - 1)) == 0; }
}  // namespace

Dft::Dft(int n) : n_(n), padded_(n) {
  if (n < 1 || n > (1 << 28)) throw std::invalid_argument("a Fourier transform needs a length from 1 to 2^28");
  if (!power_of_two(n)) {
    padded_ = 1;
    while (padded_ < 2 * n - 1) padded_ *= 2;
  }
  twiddle_.resize(static_cast<std::size_t>(padded_ / 2));
  for (std::size_t k = 0; k < twiddle_.size(); ++k) twiddle_[k] = std::polar(1.0, -2.0 * kPi * k / padded_);
  if (padded_ == n_) return;
  // exp(i pi j^2 / n) depends on j^2 mod 2n only: reduced exactly in
  // integers, the angle stays accurate for large j.
  chirp_.resize(static_cast<std::size_t>(n));
  const std::uint64_t period = 2 * static_cast<std::uint64_t>(n);
  for (std::uint64_t j = 0; j < static_cast<std::uint64_t>(n); ++j) {
    chirp_[j] = std::polar(1.0, kPi * static_cast<double>(j * j % period) / n);
  }
  filter_.assign(static_cast<std::size_t>(padded_), Complex(0.0, 0.0));
  filter_[0] = chirp_[0];
  for (int j = 1; j < n; ++j) filter_[j] = filter_[padded_ - j] = chirp_[j];
  radix2(filter_.data());
}

// Iterative decimation in time: the bit-reversal permutation, then butterflies
// of doubling span.
void Dft::radix2(Complex* data) const {
  const int n = padded_;
  for (int i = 1, j = 0; i < n; ++i) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(data[i], data[j]);
  }
  for (int span = 1; span < n; span *= 2) {
    const int stride = n / (2 * span);
    for (int start = 0; start < n; start += 2 * span) {
      for (int k = 0; k < span; ++k) {
        const Complex t = times(twiddle_[static_cast<std::size_t>(k * stride)], data[start + span + k]);
        data[start + span + k] = data[start + k] - t;
        data[start + k] += t;
      }
    }
  }
}

// Bluestein: jk = (j^2 + k^2 - (k - j)^2) / 2, so X_k = conj(c_k) sum_j
// (x_j conj(c_j)) c_{k - j} with c_j = exp(i pi j^2 / n): a convolution
// with the chirp, done by padded transforms.
void Dft::forward(Complex* data, std::vector<Complex>& work) const {
  if (padded_ == n_) return radix2(data);
  work.assign(static_cast<std::size_t>(padded_), Complex(0.0, 0.0));
  for (int j = 0; j < n_; ++j) work[j] = times(data[j], std::conj(chirp_[j]));
  radix2(work.data());
  // the inverse padded transform as the conjugate of a forward one
  for (int k = 0; k < padded_; ++k) work[k] = std::conj(times(work[k], filter_[k]));
  radix2(work.data());
  const double scale = 1.0 / padded_;
  for (int k = 0; k < n_; ++k) data[k] = scale * times(std::conj(work[k]), std::conj(chirp_[k]));
}

void Dft::inverse(Complex* data, std::vector<Complex>& work) const {
  for (int k = 0; k < n_; ++k) data[k] = std::conj(data[k]);
  forward(data, work);
  for (int k = 0; k < n_; ++k) data[k] = std::conj(data[k]);
}

}  // namespace askrff
