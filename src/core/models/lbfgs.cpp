#include "core/models/lbfgs.h"

#include <cmath>
#include <limits>

namespace askrff {

LbfgsMemory::LbfgsMemory(int slots, Eigen::Index rows, int models, int classes)
    : classes_(classes),
      s_(static_cast<std::size_t>(slots), Eigen::MatrixXd::Zero(rows, static_cast<Eigen::Index>(models) * classes)),
      y_(s_),
      sy_(Eigen::MatrixXd::Constant(slots, models, std::numeric_limits<double>::quiet_NaN())) {}

std::vector<int> LbfgsMemory::newest_first() const {
  const int slots = static_cast<int>(s_.size());
  std::vector<int> order;
  for (int i = 0; i < slots; ++i) order.push_back(((head_ - i) % slots + slots) % slots);
  return order;
}

void LbfgsMemory::remember(const std::vector<int>& models, const Eigen::MatrixXd& s, const Eigen::MatrixXd& y) {
  head_ = (head_ + 1) % static_cast<int>(s_.size());
  sy_.row(head_).setConstant(std::numeric_limits<double>::quiet_NaN());
  const int k = classes_;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const Eigen::Index local = static_cast<Eigen::Index>(i) * k, global = static_cast<Eigen::Index>(models[i]) * k;
    const auto si = s.middleCols(local, k);
    const auto yi = y.middleCols(local, k);
    const double sy = si.cwiseProduct(yi).sum();
    if (!(sy > 1e-12 * std::sqrt(si.squaredNorm() * yi.squaredNorm()))) continue;
    s_[static_cast<std::size_t>(head_)].middleCols(global, k) = si;
    y_[static_cast<std::size_t>(head_)].middleCols(global, k) = yi;
    sy_(head_, models[i]) = sy;
  }
}

Eigen::MatrixXd LbfgsMemory::apply(const std::vector<int>& models, Eigen::MatrixXd g,
                                   const std::function<Eigen::MatrixXd(const Eigen::MatrixXd&)>& initial) const {
  const int k = classes_;
  const std::vector<int> order = newest_first();
  const Eigen::Index n = static_cast<Eigen::Index>(models.size());
  Eigen::MatrixXd alpha = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(order.size()), n);
  for (std::size_t o = 0; o < order.size(); ++o) {
    const auto& s = s_[static_cast<std::size_t>(order[o])];
    const auto& y = y_[static_cast<std::size_t>(order[o])];
    for (Eigen::Index i = 0; i < n; ++i) {
      const double sy = sy_(order[o], models[static_cast<std::size_t>(i)]);
      if (std::isnan(sy)) continue;
      const Eigen::Index global = static_cast<Eigen::Index>(models[static_cast<std::size_t>(i)]) * k, local = i * k;
      const double a = s.middleCols(global, k).cwiseProduct(g.middleCols(local, k)).sum() / sy;
      alpha(static_cast<Eigen::Index>(o), i) = a;
      g.middleCols(local, k) -= a * y.middleCols(global, k);
    }
  }
  Eigen::MatrixXd r = initial(g);
  for (std::size_t o = order.size(); o-- > 0;) {
    const auto& s = s_[static_cast<std::size_t>(order[o])];
    const auto& y = y_[static_cast<std::size_t>(order[o])];
    for (Eigen::Index i = 0; i < n; ++i) {
      const double sy = sy_(order[o], models[static_cast<std::size_t>(i)]);
      if (std::isnan(sy)) continue;
      const Eigen::Index global = static_cast<Eigen::Index>(models[static_cast<std::size_t>(i)]) * k, local = i * k;
      const double b = y.middleCols(global, k).cwiseProduct(r.middleCols(local, k)).sum() / sy;
      r.middleCols(local, k) += (alpha(static_cast<Eigen::Index>(o), i) - b) * s.middleCols(global, k);
    }
  }
  return r;
}

bool LbfgsMemory::has_pairs(int model) const { return !sy_.col(model).array().isNaN().all(); }

void LbfgsMemory::forget(int model) { sy_.col(model).setConstant(std::numeric_limits<double>::quiet_NaN()); }

void LbfgsMemory::copy(int from, int to) {
  const Eigen::Index f = static_cast<Eigen::Index>(from) * classes_, t = static_cast<Eigen::Index>(to) * classes_;
  for (std::size_t h = 0; h < s_.size(); ++h) {
    s_[h].middleCols(t, classes_) = s_[h].middleCols(f, classes_);
    y_[h].middleCols(t, classes_) = y_[h].middleCols(f, classes_);
  }
  sy_.col(to) = sy_.col(from);
}

}  // namespace askrff
