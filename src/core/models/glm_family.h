// The families of a generalized linear model with its canonical link: for one
// row's linear predictors eta and response y, half its deviance, the
// residual y - mu (so that the gradient of half the deviance in eta is
// -(y - mu)) and the variances mu' that make its Hessian. Binomial: y in
// {0, 1}, mu = 1 / (1 + exp(-eta)); multinomial: y the indicators of K
// classes, mu the softmax of K predictors (its Hessian diag(mu) - mu mu', of
// which the variances are the diagonal); Poisson: y >= 0, mu = exp(eta).
#pragma once
#include <string>

namespace askrff {

enum class GlmFamily { binomial, multinomial, poisson };

// Throws std::invalid_argument for another name.
GlmFamily glm_family(const std::string& name);

// Half the deviance of the row, +Inf where mu overflows; writes the
// residuals y - mu of its `classes` predictors and, when `variance` is not
// null, the variances. Everything is computed from eta without forming
// log(mu) of a rounded mu, so a row fitted almost perfectly keeps its
// deviance to full relative precision.
double glm_row(GlmFamily family, const double* eta, const double* y, int classes, double* residual, double* variance);

}  // namespace askrff
