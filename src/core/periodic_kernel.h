// The kernel a pair of random periodic maps approximates in expectation (003
// Prop. 3), rescaled by 1/<f, g> as the estimator is:
//   k_fg(u) = sum_{k >= 1} w_k k(k u),  w_k = 2 F_k G_k / <f, g>,
// for the positive definite kernels whose k(t u) does not increase in t >= 0
// (Gaussian, Laplace, Gaussian mixtures with positive weights).
#pragma once
#include <memory>

#include "kernels.h"

namespace askrff {

// Null unless spec names the expected kernel ("rpf_expected").
std::unique_ptr<Kernel> make_expected_periodic_kernel(const KernelSpec& spec);

}  // namespace askrff
