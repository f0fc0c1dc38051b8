#include "core/features/nystrom_features.h"

#include <stdexcept>

#include "core/numerics/dense_product.h"

namespace askrff {

namespace {

using Rows = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using OutRows = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

Rows block_of(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, Eigen::Index columns) {
  return Rows(x + row_begin, static_cast<Eigen::Index>(row_end - row_begin), columns,
              Eigen::OuterStride<>(static_cast<Eigen::Index>(ld_x)));
}

// K(x, Z), or K(Z, x)' when transposed, on data centred on the midrange of
// the block and the landmarks as kernel_matrix() centres them, so that an
// offset common to all costs no accuracy and no centred coordinate
// overflows.
class LandmarkGram : public FeatureMap {
 public:
  LandmarkGram(std::unique_ptr<const Kernel> kernel, Eigen::MatrixXd landmarks, bool transposed)
      : kernel_(std::move(kernel)),
        landmarks_(std::move(landmarks)),
        transposed_(transposed),
        lowest_(landmarks_.colwise().minCoeff()),
        highest_(landmarks_.colwise().maxCoeff()) {}

  int dimension() const override { return static_cast<int>(landmarks_.cols()); }
  int n_columns() const override { return static_cast<int>(landmarks_.rows()); }
  double row_cost() const override { return n_columns() * kernel_->entry_cost(dimension()); }

  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    const Rows data = block_of(x, ld_x, row_begin, row_end, dimension());
    const Eigen::RowVectorXd lo = data.colwise().minCoeff().cwiseMin(lowest_);
    const Eigen::RowVectorXd hi = data.colwise().maxCoeff().cwiseMax(highest_);
    const Eigen::RowVectorXd centre = 0.5 * lo + 0.5 * hi;
    const Eigen::MatrixXd xc = data.rowwise() - centre, zc = landmarks_.rowwise() - centre;
    const ConstMatrixMap xm(xc.data(), xc.rows(), xc.cols()), zm(zc.data(), zc.rows(), zc.cols());
    OutRows result(out, xc.rows(), zc.rows(), Eigen::OuterStride<>(static_cast<Eigen::Index>(ld_out)));
    if (!transposed_) {
      Eigen::MatrixXd gram(xc.rows(), zc.rows());
      kernel_->gram_rows(xm, zm, zc.rowwise().squaredNorm(), 0, xc.rows(), gram.data());
      result = gram;
    } else {
      Eigen::MatrixXd gram(zc.rows(), xc.rows());
      kernel_->gram_rows(zm, xm, xc.rowwise().squaredNorm(), 0, zc.rows(), gram.data());
      result = gram.transpose();
    }
  }

 private:
  std::unique_ptr<const Kernel> kernel_;
  Eigen::MatrixXd landmarks_;
  bool transposed_;
  Eigen::RowVectorXd lowest_, highest_;
};

// The kernel's values K(x, Z) computed in R, read as they are.
class GivenGram : public FeatureMap {
 public:
  explicit GivenGram(int n_landmarks) : n_landmarks_(n_landmarks) {}
  int dimension() const override { return n_landmarks_; }
  int n_columns() const override { return n_landmarks_; }
  double row_cost() const override { return n_landmarks_; }
  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    OutRows(out, static_cast<Eigen::Index>(row_end - row_begin), n_landmarks_,
            Eigen::OuterStride<>(static_cast<Eigen::Index>(ld_out))) = block_of(x, ld_x, row_begin, row_end, n_landmarks_);
  }

 private:
  int n_landmarks_;
};

class NystromFeatureMap : public FeatureMap {
 public:
  NystromFeatureMap(std::unique_ptr<const FeatureMap> gram, Eigen::MatrixXd weights)
      : gram_(std::move(gram)), weights_(std::move(weights)) {}

  int dimension() const override { return gram_->dimension(); }
  int n_columns() const override { return static_cast<int>(weights_.cols()); }
  double row_cost() const override {
    return gram_->row_cost() + kProductWeight * 2.0 * static_cast<double>(weights_.rows() * weights_.cols());
  }
  LinearForm linear_form() const override { return {gram_.get(), &weights_}; }

  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    const Eigen::Index rows = static_cast<Eigen::Index>(row_end - row_begin);
    Eigen::MatrixXd gram(rows, weights_.rows());
    gram_->rows(x, ld_x, row_begin, row_end, gram.data(), static_cast<std::size_t>(rows));
    gemm(1.0, strided(gram), strided(weights_), 0.0, out, static_cast<std::ptrdiff_t>(ld_out));
    require_bounded(out, static_cast<std::size_t>(rows), n_columns(), ld_out, "nystrom_map()");
  }

 private:
  std::unique_ptr<const FeatureMap> gram_;
  Eigen::MatrixXd weights_;
};

}  // namespace

std::unique_ptr<FeatureMap> make_nystrom_feature_map(std::unique_ptr<const Kernel> kernel, Eigen::MatrixXd landmarks,
                                                     Eigen::MatrixXd weights, bool transposed) {
  if (landmarks.rows() < 1 || landmarks.cols() < 1 || weights.rows() != landmarks.rows() || weights.cols() < 1) {
    throw std::invalid_argument("a Nystrom map needs landmarks and one row of weights per landmark");
  }
  const int m = static_cast<int>(landmarks.rows());
  std::unique_ptr<const FeatureMap> gram;
  if (kernel) {
    gram = std::make_unique<LandmarkGram>(std::move(kernel), std::move(landmarks), transposed);
  } else {
    gram = std::make_unique<GivenGram>(m);
  }
  return std::make_unique<NystromFeatureMap>(std::move(gram), std::move(weights));
}

}  // namespace askrff
