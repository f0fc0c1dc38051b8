// Ridge regression with an unpenalized intercept, from the sums of
// cross_products.h: minimizes sum (y - b0 - z'b)^2 + lambda ||b||^2 for each
// response column. One symmetric eigendecomposition G = V diag(s) V' of the
// centered cross-product matrix gives every lambda at the cost of a vector
// operation: with c = V' (centered Z'y), b = V diag(1 / (s + lambda)) c,
// the effective degrees of freedom df = 1 + sum s / (s + lambda), and
// RSS = y'y - sum c^2 (s + 2 lambda) / (s + lambda)^2 (centered y), so
// generalized cross-validation, GCV = (RSS / n) / (1 - df / n)^2, is exact
// on the whole path. RSS and n - df are summed from nonnegative terms
// (ridge.cpp), so GCV stays accurate where the fit nearly interpolates.
//
// The same decomposition gives the evidence: the log marginal likelihood of
// the Bayesian model y = b0 + Z b + e, e ~ N(0, s2 / w), b ~ N(0, (s2 /
// lambda) I), with a flat prior (of density 1) on b0 integrated out and s2
// profiled out (set to its maximizer P / (n - 1)):
//   E = -(n - 1) / 2 (log(2 pi P / (n - 1)) + 1) + (sum log w - log sum w) / 2
//       - sum log(1 + s / lambda) / 2,
// with P = min over b0, b of sum w (y - b0 - z'b)^2 + lambda ||b||^2 = y'y -
// sum c^2 / (s + lambda) (centered), n the rows of positive weight.
//
// Several responses either share one lambda (Sharing::shared: their RSS
// pooled in GCV, their evidences, each with its own s2, added) or each get
// their own (Sharing::each): every response is then a group of its own,
// with its own path, criterion and choice, exactly as if it were fitted
// alone, all from the one eigendecomposition.
// Profiling s2 keeps E a likelihood that an exact Gaussian process's, with the
// same prior on b0, can be compared with; integrating s2 against the
// improper prior ds2 / s2 would change E by a term that depends on n alone.
#pragma once
#include <Eigen/Dense>
#include <vector>

#include "core/models/cross_products.h"
#include "core/numerics/symmetric_eigen.h"

namespace askrff {

// What chooses lambda: least GCV, or largest evidence.
enum class Criterion { gcv, evidence };

// Whether the responses share one lambda or each choose their own.
enum class Sharing { shared, each };

struct RidgePath {
  // One path per group of responses that share a lambda (one group, or one
  // per response): column g holds group g's lambdas, decreasing, in its
  // first lengths[g] rows; a shorter path repeats its last lambda below
  // (every entry is a penalty the passes can take). df, gcv and evidence
  // are evaluated at each entry.
  Eigen::MatrixXd lambda;
  std::vector<Eigen::Index> lengths;
  Eigen::MatrixXd df;           // effective degrees of freedom, intercept included
  Eigen::MatrixXd gcv;          // RSS / (n q) / (1 - df / n)^2, pooled over the group's q responses
  Eigen::MatrixXd evidence;     // log marginal likelihood, summed over the group's responses; -inf where P = 0
  std::vector<Eigen::Index> chosen;  // per group, the row its criterion prefers (the largest lambda among ties)
  Eigen::VectorXd eigenvalues;  // of the centered cross-product matrix, decreasing
  Eigen::MatrixXd coefficients; // columns by responses, each at its group's chosen lambda
  Eigen::VectorXd intercept;    // per response
  Eigen::VectorXd rss;          // per response, at its group's chosen lambda
  // What the posterior of the coefficients needs besides lambda: the
  // eigenvectors of the first `rank` eigenvalues (columns by rank), the
  // weighted mean of the features, and the sum of the weights.
  Eigen::MatrixXd vectors;
  Eigen::VectorXd z_mean;
  double weight = 0.0;
  // For leave-one-out (ridge_loo.h): c = V' (centered weighted Z'y), rank by
  // responses, and the weighted mean of the responses.
  Eigen::MatrixXd projections;
  Eigen::VectorXd y_mean;
  // The coefficients' part along the directions whose eigenvalues rounding
  // decides, which the dual form (ridge_dual.h) leaves out of `vectors`:
  // b = V (c / (s + lambda)) + W (g / (u + lambda)), with W = A'U_u (D by
  // their count, columns of norm sqrt(u), not normalized), g = U_u't and u
  // their eigenvalues. Along them b is of order sqrt(u) / lambda, which
  // lambda well above u does not make negligible. Empty in the primal,
  // whose `vectors` keep those directions.
  Eigen::MatrixXd remainder_vectors;
  Eigen::MatrixXd remainder_projections;
  Eigen::VectorXd remainder_values;
};

// The group of response j on a path whose lambda has `groups` columns (1:
// all share it).
inline Eigen::Index response_group(Eigen::Index groups, Eigen::Index j) { return groups == 1 ? 0 : j; }

// Each response's chosen lambda.
Eigen::VectorXd chosen_lambdas(const RidgePath& path, Eigen::Index responses);

// The distinct values of a matrix of paths' lambdas (increasing), and the
// slot of each entry among them: the groups' paths share most values (the
// grid), so what depends on lambda alone, such as the leverages, is
// computed once per distinct value.
struct DistinctLambdas {
  Eigen::VectorXd values;
  Eigen::Matrix<Eigen::Index, Eigen::Dynamic, Eigen::Dynamic> slot;
};
DistinctLambdas distinct_lambdas(const Eigen::MatrixXd& lambda);

// Grid used when no lambda is given: kGridSize values, log-spaced from
// 10 max(s) down to 1e-10 max(s). On the grid, a choice between two grid
// values is refined by golden-section search on log lambda between its
// neighbours and added to the path, so that the criterion at its optimum is
// a smooth function of the data and of the kernel's scale.
constexpr int kGridSize = 100;

// What the path needs of the eigendecomposition of the centered weighted
// cross-product matrix G, whichever form computed it: ridge_path() below
// from G itself (the primal), ridge_dual.h from the rows' n x n Gram
// matrix (the dual).
struct RidgeSpectrum {
  Eigen::ArrayXd values;        // the r largest eigenvalues of G, decreasing, nonnegative; r <= min(D, n - 1)
  Eigen::MatrixXd projections;  // c = V' (centered weighted Z'y), r by responses
  // Per response, what no resolved direction (resolved_eigenvalues())
  // fits for any lambda: centered weighted y'y less sum c^2 / s over them.
  Eigen::VectorXd unexplained;
  Eigen::Index columns = 0;     // D, the feature columns
  double n = 0.0;               // rows of positive weight
  double weight = 0.0;          // sum w
  double log_weight = 0.0;      // sum log w over w > 0
};

// Throws std::invalid_argument unless there are two rows of positive weight
// and the weights have a positive finite sum.
void require_ridge_rows(double n, double weight);

// How many of the eigenvalues s (decreasing) are resolved: above r eps s_1
// for the r = s.size() of them. Below, rounding decides their values.
Eigen::Index resolved_eigenvalues(const Eigen::ArrayXd& s);

// The path from a spectrum: for each group of responses (`sharing`), lambda
// (the grid and the group's refinement when `lambda` is empty, else
// sorted), df, gcv, evidence, the chosen lambda; each response's rss at its
// group's, the eigenvalues (padded with zeros to D) and the projections.
RidgePath ridge_path_of(const RidgeSpectrum& spectrum, Eigen::VectorXd lambda, Criterion criterion,
                        Sharing sharing = Sharing::shared);

// The path's coefficients b = V (c / (s + lambda)) (and its remainder's
// part) and intercepts, each response at its group's chosen lambda, from the eigenvectors V (D by
// r) and the weighted means of the (unshifted) features and responses, all
// kept in the path.
void set_ridge_solution(RidgePath& path, Eigen::MatrixXd vectors, const Eigen::VectorXd& z_mean,
                        const Eigen::VectorXd& y_mean, double weight);

// The primal form: `sums` of features shifted by z_shift and responses
// shifted by y_shift (weighted: the means, the centering and the intercept
// are weighted; n in GCV is the number of rows of positive weight);
// `lambda` positive (sorted here), or empty for the grid. n must be at least 2.
// The eigendecomposition, O(D^3) for D columns, polls and reports its progress.
RidgePath ridge_path(const CrossProducts& sums, const Eigen::VectorXd& z_shift, const Eigen::VectorXd& y_shift,
                     Eigen::VectorXd lambda, Criterion criterion = Criterion::gcv, Sharing sharing = Sharing::shared,
                     const Poll& poll = no_poll, const Progress& progress = no_progress);

}  // namespace askrff
