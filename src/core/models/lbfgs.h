// The memory of limited-memory BFGS (Nocedal and Wright, Numerical
// Optimization, algorithm 7.4) for many models at once, each a block of
// `classes` consecutive columns of its coefficients. The memory is a ring of
// slots shared by the models: slot h holds, for every model, its step s and
// gradient change y of one pass and s'y, which is NaN where the model has
// no pair from that pass. A direction is the recursion's two loops around
// the caller's initial inverse Hessian.
#pragma once
#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace askrff {

class LbfgsMemory {
 public:
  LbfgsMemory(int slots, Eigen::Index rows, int models, int classes);

  // The pairs (s, y) of one pass for `models` (their columns in that order)
  // in the next slot, which every other model leaves empty; a pair whose s'y
  // is not clearly positive is left out.
  void remember(const std::vector<int>& models, const Eigen::MatrixXd& s, const Eigen::MatrixXd& y);

  // H g for the gradients g of `models` (columns in that order), H the
  // inverse Hessian that the memory makes of `initial` (which maps such
  // columns to the initial inverse Hessian's products).
  Eigen::MatrixXd apply(const std::vector<int>& models, Eigen::MatrixXd g,
                        const std::function<Eigen::MatrixXd(const Eigen::MatrixXd&)>& initial) const;

  bool has_pairs(int model) const;
  void forget(int model);
  // Model `to` takes model `from`'s pairs.
  void copy(int from, int to);

 private:
  std::vector<int> newest_first() const;
  int classes_;
  int head_ = 0;  // the newest slot
  std::vector<Eigen::MatrixXd> s_, y_;
  Eigen::MatrixXd sy_;  // slots x models
};

}  // namespace askrff
