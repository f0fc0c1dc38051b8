#include "nystrom_features.h"

#include <stdexcept>

namespace askrff {

namespace {

using Rows = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using OutRows = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

class NystromFeatureMap : public FeatureMap {
 public:
  NystromFeatureMap(std::unique_ptr<const Kernel> kernel, Eigen::MatrixXd landmarks, Eigen::MatrixXd weights,
                    bool transposed)
      : kernel_(std::move(kernel)),
        landmarks_(std::move(landmarks)),
        weights_(std::move(weights)),
        transposed_(transposed),
        lowest_(landmarks_.colwise().minCoeff()),
        highest_(landmarks_.colwise().maxCoeff()) {}

  int dimension() const override {
    return static_cast<int>(kernel_ ? landmarks_.cols() : landmarks_.rows());
  }
  int n_columns() const override { return static_cast<int>(weights_.cols()); }
  double row_cost() const override {
    const double m = static_cast<double>(landmarks_.rows());
    const double kernel = kernel_ ? m * kernel_->entry_cost(static_cast<int>(landmarks_.cols())) : 0.0;
    return kernel + kProductWeight * 2.0 * m * static_cast<double>(weights_.cols());
  }

  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    const Eigen::Index rows = static_cast<Eigen::Index>(row_end - row_begin);
    const Rows data(x + row_begin, rows, dimension(), Eigen::OuterStride<>(static_cast<Eigen::Index>(ld_x)));
    OutRows result(out, rows, weights_.cols(), Eigen::OuterStride<>(static_cast<Eigen::Index>(ld_out)));
    if (kernel_) {
      result.noalias() = gram_block(data) * weights_;
    } else {
      result.noalias() = data * weights_;
    }
  }

 private:
  // K(x, Z) for a block of rows, on data centred on the midrange of the
  // block and the landmarks as kernel_matrix() centres them, so that an
  // offset common to all costs no accuracy and no centred coordinate
  // overflows.
  Eigen::MatrixXd gram_block(const Rows& data) const {
    const Eigen::RowVectorXd lo = data.colwise().minCoeff().cwiseMin(lowest_);
    const Eigen::RowVectorXd hi = data.colwise().maxCoeff().cwiseMax(highest_);
    const Eigen::RowVectorXd centre = 0.5 * lo + 0.5 * hi;
    const Eigen::MatrixXd xc = data.rowwise() - centre, zc = landmarks_.rowwise() - centre;
    const ConstMatrixMap xm(xc.data(), xc.rows(), xc.cols()), zm(zc.data(), zc.rows(), zc.cols());
    if (!transposed_) {
      Eigen::MatrixXd gram(xc.rows(), zc.rows());
      kernel_->gram_rows(xm, zm, zc.rowwise().squaredNorm(), 0, xc.rows(), gram.data());
      return gram;
    }
    Eigen::MatrixXd gram(zc.rows(), xc.rows());
    kernel_->gram_rows(zm, xm, xc.rowwise().squaredNorm(), 0, zc.rows(), gram.data());
    return gram.transpose();
  }

  std::unique_ptr<const Kernel> kernel_;
  Eigen::MatrixXd landmarks_, weights_;
  bool transposed_;
  Eigen::RowVectorXd lowest_, highest_;
};

}  // namespace

std::unique_ptr<FeatureMap> make_nystrom_feature_map(std::unique_ptr<const Kernel> kernel, Eigen::MatrixXd landmarks,
                                                     Eigen::MatrixXd weights, bool transposed) {
  if (landmarks.rows() < 1 || landmarks.cols() < 1 || weights.rows() != landmarks.rows() || weights.cols() < 1) {
    throw std::invalid_argument("a Nystrom map needs landmarks and one row of weights per landmark");
  }
  return std::make_unique<NystromFeatureMap>(std::move(kernel), std::move(landmarks), std::move(weights), transposed);
}

}  // namespace askrff
