// The asymmetric kernels of AsK-RFF (000 eqs 9-11), with Delta = x - y:
//   shift_gaussian  k(D) = exp(-||D + r||^2 / (2 sigma^2))
//   sinh_gaussian   k(D) = exp(-||D||^2 / (2 sigma^2)) (1 + sinh(beta'D))
//   cosh_gaussian   k(D) = exp(-||D||^2 / (2 sigma^2)) exp(beta'D)
// Their measures are complex: mu = mu_R + i mu_I with mu_I odd. The "jordan"
// decomposition gives the parts real_pos, real_neg (absent for Sinh, where
// mu_R = mu_g >= 0) and imag_pos, the estimator of SPEC 1.2:
//   k = R+ E cos - R- E cos - 2 I+ E sin(nu'D),
// the sine arising from psi = phi shifted by pi/2 on the right. The "phase"
// decomposition (SPEC 1.6) samples |mu| once, as the part "abs", and puts the
// phase of mu at each frequency on the left features.
#pragma once
#include <memory>

#include "kernels.h"

namespace askrff {

// nullptr when spec names none of the three kernels.
std::unique_ptr<Kernel> make_asymmetric_kernel(const KernelSpec& spec);

}  // namespace askrff
