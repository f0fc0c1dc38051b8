// Exact Gram matrices, exported to R.
#include <Rcpp.h>

#include "adapters.h"
#include "guards.h"
#include "parallel.h"
#include "result_matrix.h"

// Every kernel askrff has depends on x - y only, so both sets are centred on
// the midrange of their coordinates first: a common offset of any size then
// costs no accuracy in the distance expansion, and every centred coordinate
// stays finite (at most half the range), so differences never form Inf - Inf.
// [[Rcpp::export(.cpp_kernel_matrix)]]
Rcpp::NumericMatrix cpp_kernel_matrix(Rcpp::List kernel, Rcpp::NumericMatrix x,
                                      Rcpp::NumericMatrix y, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require(x.nrow() >= 1 && y.nrow() >= 1 && x.ncol() >= 1 && x.ncol() == y.ncol(),
                  "x and y must have rows and the same number of columns");
  const std::unique_ptr<askrff::Kernel> k = askrff::make_kernel(askrff::kernel_spec(kernel));
  const Eigen::RowVectorXd lo = askrff::as_map(x).colwise().minCoeff().cwiseMin(askrff::as_map(y).colwise().minCoeff());
  const Eigen::RowVectorXd hi = askrff::as_map(x).colwise().maxCoeff().cwiseMax(askrff::as_map(y).colwise().maxCoeff());
  const Eigen::RowVectorXd centre = 0.5 * lo + 0.5 * hi;
  const Eigen::MatrixXd xc = askrff::as_map(x).rowwise() - centre, yc = askrff::as_map(y).rowwise() - centre;
  const askrff::ConstMatrixMap xm(xc.data(), xc.rows(), xc.cols()), ym(yc.data(), yc.rows(), yc.cols());
  const Eigen::VectorXd y_sqnorm = ym.rowwise().squaredNorm();
  Rcpp::NumericMatrix out = askrff::uninitialized_matrix(x.nrow(), y.nrow());
  double* op = out.begin();
  constexpr Eigen::Index kBlockRows = 64;
  const Eigen::Index n = xm.rows();
  askrff::run_blocks(static_cast<std::size_t>((n + kBlockRows - 1) / kBlockRows), n_threads,
                     [&](std::size_t b) {
                       const Eigen::Index begin = static_cast<Eigen::Index>(b) * kBlockRows;
                       k->gram_rows(xm, ym, y_sqnorm, begin, std::min(n, begin + kBlockRows), op);
                     });
  return out;
}
