// Dense linear algebra of the core for R, which stops on a user interrupt
// where R's LAPACK calls would run to their end.
#include <Rcpp.h>

#include <algorithm>

#include "core/numerics/dense_product.h"
#include "core/numerics/spectral_norm.h"
#include "core/numerics/symmetric_eigen.h"
#include "guards.h"
#include "parallel.h"
#include "progress.h"

// The eigendecomposition of the symmetric matrix whose lower triangle `a`
// holds, as eigen(symmetric = TRUE) gives it: the values decreasing and,
// with `vectors`, their eigenvectors as columns. The percents done go to
// `progress` (see progress.h).
// [[Rcpp::export(.cpp_symmetric_eigen)]]
Rcpp::List cpp_symmetric_eigen(Rcpp::NumericMatrix a, bool vectors, SEXP progress) {
  const int n = a.nrow();
  askrff::require(a.ncol() == n, "the matrix of an eigendecomposition must be square");
  const askrff::SymmetricEigen e = askrff::symmetric_eigen(Eigen::Map<const Eigen::MatrixXd>(a.begin(), n, n), vectors,
                                                           askrff::InterruptPoll(), askrff::RProgress(progress));
  Rcpp::NumericVector values(n);
  std::reverse_copy(e.values.data(), e.values.data() + n, values.begin());
  if (!vectors) return Rcpp::List::create(Rcpp::Named("values") = values);
  Rcpp::NumericMatrix v(Rcpp::no_init(n, n));
  for (int j = 0; j < n; ++j) std::copy_n(e.vectors.col(n - 1 - j).data(), n, v.begin() + static_cast<R_xlen_t>(j) * n);
  return Rcpp::List::create(Rcpp::Named("values") = values, Rcpp::Named("vectors") = v);
}

// The largest singular value of `a`, as svd(a)$d[1] gives it (see
// core/spectral_norm.h).
// [[Rcpp::export(.cpp_spectral_norm)]]
double cpp_spectral_norm(Rcpp::NumericMatrix a) {
  return askrff::spectral_norm(Eigen::Map<const Eigen::MatrixXd>(a.begin(), a.nrow(), a.ncol()), askrff::InterruptPoll());
}

// a b by the core's products (dense_product.h), blocks of b's columns on
// the threads: where R's BLAS is the reference one, several times faster.
// [[Rcpp::export(.cpp_matrix_product)]]
Rcpp::NumericMatrix cpp_matrix_product(Rcpp::NumericMatrix a, Rcpp::NumericMatrix b, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require(a.ncol() == b.nrow(), "the matrices of a product must have matching inner dimensions");
  const Eigen::Map<const Eigen::MatrixXd> left(a.begin(), a.nrow(), a.ncol()), right(b.begin(), b.nrow(), b.ncol());
  Rcpp::NumericMatrix out(a.nrow(), b.ncol());
  const std::size_t width = 64, blocks = (static_cast<std::size_t>(b.ncol()) + width - 1) / width;
  askrff::thread_runner(n_threads)(blocks, [&](std::size_t k) {
    const Eigen::Index first = static_cast<Eigen::Index>(k * width);
    const Eigen::Index columns = std::min<Eigen::Index>(static_cast<Eigen::Index>(width), b.ncol() - first);
    askrff::gemm(1.0, askrff::strided(left), askrff::strided(right.middleCols(first, columns)), 0.0,
                 out.begin() + first * a.nrow(), a.nrow());
  });
  return out;
}
