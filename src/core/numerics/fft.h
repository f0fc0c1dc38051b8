// Discrete Fourier transforms of any length n: the radix-2 Cooley-Tukey
// algorithm when n is a power of two, else Bluestein's chirp z-transform,
// which writes the length-n transform as a convolution done by radix-2
// transforms of a power of two N >= 2n - 1. Either costs O(n log n).
#pragma once
#include <complex>
#include <vector>

namespace askrff {

using Complex = std::complex<double>;

// a b without the checks for infinite parts that std::complex's operator*
// makes in a library call: the transforms' values are finite.
inline Complex times(const Complex& a, const Complex& b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

class Dft {
 public:
  explicit Dft(int n);
  int size() const { return n_; }
  // In place over n values: X_k = sum_j x_j exp(-2 pi i j k / n), and the
  // inverse without the factor 1/n, exp(+2 pi i j k / n), as R's fft() has
  // them. `work` is the caller's scratch, so one Dft serves many threads.
  void forward(Complex* data, std::vector<Complex>& work) const;
  void inverse(Complex* data, std::vector<Complex>& work) const;

 private:
  void radix2(Complex* data) const;  // forward transform of length padded_
  int n_, padded_;
  std::vector<Complex> twiddle_;     // exp(-2 pi i k / padded_), k < padded_ / 2
  std::vector<Complex> chirp_;       // Bluestein: exp(i pi j^2 / n), j < n
  std::vector<Complex> filter_;      // Bluestein: the transform of the chirp, wrapped
};

}  // namespace askrff
