// The two loops of the limited-memory BFGS recursion (Nocedal and Wright,
// Numerical Optimization, algorithm 7.4) for many models at once, each a
// block of `classes` consecutive columns. The memory is a ring of slots
// shared by the models: slot h holds, for every model, its step s and
// gradient change y of one pass and s'y, which is NaN where the model has
// no pair from that pass. Between the loops the caller applies the initial
// inverse Hessian.
#pragma once
#include <Eigen/Dense>

#include <vector>

namespace askrff {

struct LbfgsMemory {
  using ConstMap = Eigen::Map<const Eigen::MatrixXd>;
  std::vector<ConstMap> s, y;  // per slot: rows x (all models * classes)
  Eigen::MatrixXd sy;          // slots x all models
  std::vector<int> order;      // slots, newest first (0-based)
  int classes = 1;
};

// q: rows x (models.size() * classes), models' 0-based indices in the
// memory. Returns alpha (slots in `order` x models); q becomes the first
// loop's result.
Eigen::MatrixXd lbfgs_first_loop(const LbfgsMemory& memory, const std::vector<int>& models, Eigen::MatrixXd& q);

// r: the initial inverse Hessian times the first loop's q; becomes the
// search direction's negative.
void lbfgs_second_loop(const LbfgsMemory& memory, const std::vector<int>& models, const Eigen::MatrixXd& alpha,
                       Eigen::MatrixXd& r);

}  // namespace askrff
