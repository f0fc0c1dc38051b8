#include "core/models/lbfgs.h"

#include <cmath>

namespace askrff {

Eigen::MatrixXd lbfgs_first_loop(const LbfgsMemory& memory, const std::vector<int>& models, Eigen::MatrixXd& q) {
  const int k = memory.classes;
  const Eigen::Index n = static_cast<Eigen::Index>(models.size());
  Eigen::MatrixXd alpha = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(memory.order.size()), n);
  for (std::size_t o = 0; o < memory.order.size(); ++o) {
    const int h = memory.order[o];
    for (Eigen::Index i = 0; i < n; ++i) {
      const int m = models[static_cast<std::size_t>(i)];
      const double sy = memory.sy(h, m);
      if (std::isnan(sy)) continue;
      const Eigen::Index g = static_cast<Eigen::Index>(m) * k, l = i * k;
      const double a = memory.s[static_cast<std::size_t>(h)].middleCols(g, k).cwiseProduct(q.middleCols(l, k)).sum() / sy;
      alpha(static_cast<Eigen::Index>(o), i) = a;
      q.middleCols(l, k) -= a * memory.y[static_cast<std::size_t>(h)].middleCols(g, k);
    }
  }
  return alpha;
}

void lbfgs_second_loop(const LbfgsMemory& memory, const std::vector<int>& models, const Eigen::MatrixXd& alpha,
                       Eigen::MatrixXd& r) {
  const int k = memory.classes;
  const Eigen::Index n = static_cast<Eigen::Index>(models.size());
  for (std::size_t o = memory.order.size(); o-- > 0;) {
    const int h = memory.order[o];
    for (Eigen::Index i = 0; i < n; ++i) {
      const int m = models[static_cast<std::size_t>(i)];
      const double sy = memory.sy(h, m);
      if (std::isnan(sy)) continue;
      const Eigen::Index g = static_cast<Eigen::Index>(m) * k, l = i * k;
      const double b = memory.y[static_cast<std::size_t>(h)].middleCols(g, k).cwiseProduct(r.middleCols(l, k)).sum() / sy;
      r.middleCols(l, k) += (alpha(static_cast<Eigen::Index>(o), i) - b) * memory.s[static_cast<std::size_t>(h)].middleCols(g, k);
    }
  }
}

}  // namespace askrff
