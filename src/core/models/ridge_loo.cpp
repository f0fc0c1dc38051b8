#include "core/models/ridge_loo.h"

#include <algorithm>
#include <limits>

#include "core/numerics/dense_product.h"

namespace askrff {

LooTerms loo_terms(const Eigen::MatrixXd& z, const Eigen::MatrixXd& y, const Eigen::VectorXd& w, const RidgeLoo& model) {
  const Eigen::Index rows = z.rows(), lambdas = model.lambda.size();
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
  const Eigen::Index q = y.cols(), r = model.values.size();
  // every lambda at once, as two products over the r directions (one per
  // lambda would read a row block 2 x lambdas times, at the speed of memory):
  // inverse(k, l) = 1 / (s_k + lambda_l), and the fit's coefficients along
  // them, c_kj / (s_k + lambda_l) in column l q + j
  Eigen::MatrixXd inverse(r, lambdas), coefficients(r, lambdas * q);
  for (Eigen::Index l = 0; l < lambdas; ++l) {
    inverse.col(l) = (model.values.array() + model.lambda(l)).inverse().matrix();
    coefficients.middleCols(l * q, q) = (model.projections.array().colwise() * inverse.col(l).array()).matrix();
  }
  Eigen::MatrixXd quadratic(rows, lambdas), fitted(rows, lambdas * q);
  gemm(1.0, strided(a2), strided(inverse), 0.0, quadratic.data(), rows);
  gemm(1.0, strided(a), strided(coefficients), 0.0, fitted.data(), rows);
  LooTerms out{Eigen::MatrixXd(rows, lambdas), Eigen::MatrixXd(rows, lambdas * q)};
  for (Eigen::Index l = 0; l < lambdas; ++l) {
    const Eigen::ArrayXd h = w.array() * (1.0 / model.weight + quadratic.col(l).array() + outside / model.lambda(l));
    const Eigen::ArrayXXd per_response = (residual0 - fitted.middleCols(l * q, q)).array().square();
    out.rss.middleCols(l * q, q) = (per_response.colwise() * w.array()).matrix();
    const Eigen::ArrayXd squares = per_response.rowwise().sum();
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double slack = 1.0 - h(i);
      out.press(i, l) = w(i) == 0.0 ? 0.0
                        : slack > 0.0 ? w(i) * squares(i) / (slack * slack)
                                      : std::numeric_limits<double>::infinity();
    }
  }
  return out;
}

}  // namespace askrff
