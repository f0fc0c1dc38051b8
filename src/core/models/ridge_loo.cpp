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
  const Eigen::ArrayXXd a2 = a.array().square();
  // the part of z - m outside the span of the r eigenvectors, where the
  // prior alone acts (zero for the rows fitted, up to rounding)
  const bool full = model.vectors.cols() == model.vectors.rows();
  const Eigen::ArrayXd outside =
      full ? Eigen::ArrayXd::Zero(rows)
           : (centered.rowwise().squaredNorm() - a.rowwise().squaredNorm()).array().max(0.0).eval();
  const Eigen::Index q = y.cols();
  LooTerms out{Eigen::MatrixXd(rows, lambdas), Eigen::MatrixXd(rows, lambdas * q)};
  for (Eigen::Index l = 0; l < lambdas; ++l) {
    const double lambda = model.lambda(l);
    const Eigen::ArrayXd inverse = (model.values.array() + lambda).inverse();
    const Eigen::MatrixXd fitted = a * (model.projections.array().colwise() * inverse).matrix();
    const Eigen::ArrayXd quadratic = (a2.matrix() * inverse.matrix()).array() + outside / lambda;
    const Eigen::ArrayXd h = w.array() * (1.0 / model.weight + quadratic);
    const Eigen::ArrayXXd per_response = (residual0 - fitted).array().square();
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
