#include "core/models/ridge_loo.h"

#include <algorithm>
#include <limits>

#include "core/models/ridge.h"
#include "core/numerics/dense_product.h"

namespace askrff {

LooTerms loo_terms(const Eigen::MatrixXd& z, const Eigen::MatrixXd& y, const Eigen::VectorXd& w, const RidgeLoo& model) {
  const Eigen::Index rows = z.rows(), lambdas = model.lambda.rows();
  const Eigen::MatrixXd centered = z.rowwise() - model.z_mean.transpose();
  const Eigen::MatrixXd residual0 = y.rowwise() - model.y_mean.transpose();
  Eigen::MatrixXd a(rows, model.vectors.cols());
  gemm(1.0, strided(centered), strided(model.vectors), 0.0, a.data(), rows);
  const Eigen::MatrixXd a2 = a.array().square().matrix();
  // the part of z - m outside the span of the r eigenvectors, where the
  // prior alone acts (zero for the rows fitted, up to rounding)
  const bool full = model.vectors.cols() == model.vectors.rows();
  const Eigen::ArrayXd outside =
      full ? Eigen::ArrayXd::Zero(rows)
           : (centered.rowwise().squaredNorm() - a.rowwise().squaredNorm()).array().max(0.0).eval();
  const Eigen::Index q = y.cols(), r = model.values.size(), groups = model.lambda.cols();
  // every lambda at once, as two products over the r directions (one per
  // lambda would read a row block 2 x lambdas times, at the speed of memory):
  // inverse(k, m) = 1 / (s_k + lambda_m) over the distinct lambdas of the
  // paths (the leverages depend on lambda alone), and the fit's coefficients
  // along them, c_kj / (s_k + lambda_lg) in column l q + j (g the group of
  // response j)
  const DistinctLambdas distinct = distinct_lambdas(model.lambda);
  Eigen::MatrixXd inverse(r, distinct.values.size()), coefficients(r, lambdas * q);
  for (Eigen::Index m = 0; m < distinct.values.size(); ++m) {
    inverse.col(m) = (model.values.array() + distinct.values(m)).inverse().matrix();
  }
  for (Eigen::Index l = 0; l < lambdas; ++l) {
    for (Eigen::Index j = 0; j < q; ++j) {
      coefficients.col(l * q + j) =
          model.projections.col(j).cwiseProduct(inverse.col(distinct.slot(l, response_group(groups, j))));
    }
  }
  Eigen::MatrixXd quadratic(rows, distinct.values.size()), fitted(rows, lambdas * q);
  gemm(1.0, strided(a2), strided(inverse), 0.0, quadratic.data(), rows);
  gemm(1.0, strided(a), strided(coefficients), 0.0, fitted.data(), rows);
  LooTerms out{Eigen::MatrixXd(rows, lambdas * q), Eigen::MatrixXd(rows, lambdas * q)};
  for (Eigen::Index l = 0; l < lambdas; ++l) {
    for (Eigen::Index j = 0; j < q; ++j) {
      const Eigen::Index g = response_group(groups, j), column = l * q + j;
      const Eigen::ArrayXd h =
          w.array() * (1.0 / model.weight + quadratic.col(distinct.slot(l, g)).array() + outside / model.lambda(l, g));
      const Eigen::ArrayXd squares = (residual0.col(j) - fitted.col(column)).array().square();
      out.rss.col(column) = (squares * w.array()).matrix();
      for (Eigen::Index i = 0; i < rows; ++i) {
        const double slack = 1.0 - h(i);
        out.press(i, column) = w(i) == 0.0 ? 0.0
                               : slack > 0.0 ? w(i) * squares(i) / (slack * slack)
                                             : std::numeric_limits<double>::infinity();
      }
    }
  }
  return out;
}

}  // namespace askrff
