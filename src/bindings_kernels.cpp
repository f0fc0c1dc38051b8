// Exact Gram matrices, exported to R.
#include <Rcpp.h>

#include "adapters.h"
#include "parallel.h"
#include "result_matrix.h"

// [[Rcpp::export(.cpp_kernel_matrix)]]
Rcpp::NumericMatrix cpp_kernel_matrix(Rcpp::List kernel, Rcpp::NumericMatrix x,
                                      Rcpp::NumericMatrix y, int n_threads) {
  const std::unique_ptr<askrff::Kernel> k = askrff::make_kernel(askrff::kernel_spec(kernel));
  const askrff::ConstMatrixMap xm = askrff::as_map(x), ym = askrff::as_map(y);
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
