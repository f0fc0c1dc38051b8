// Penalized generalized linear models on features that are never stored:
// one pass over a block of rows for many models at once, the reference
// Hessians' eigendecompositions, the steps they give, and the L-BFGS loops.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "adapters.h"
#include "blocked_jobs.h"
#include "core/models/cross_products.h"
#include "core/models/cv_folds.h"
#include "core/models/glm_pass.h"
#include "core/models/glm_solve.h"
#include "core/models/lbfgs.h"
#include "guards.h"
#include "model_glue.h"
#include "progress.h"

namespace {

bool all_finite(const Rcpp::NumericVector& v) {
  return std::all_of(v.begin(), v.end(), [](double value) { return std::isfinite(value); });
}

}  // namespace

// The sums of glm_pass.h over the rows of x (whose first row is row
// `first_row` of the data, counted from 0, which fixes its fold), with
// responses y (one column per class), weights w and the models'
// coefficients (one column per model and class) and model_fold, and the
// Hessians at the columns of `references`. Folds need n_folds >= 2 (0: no
// folds, every model_fold 0).
// [[Rcpp::export(.cpp_glm_pass)]]
Rcpp::List cpp_glm_pass(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                        Rcpp::NumericVector w, double first_row, int n_folds, Rcpp::NumericVector fold_seed,
                        Rcpp::NumericVector z_shift, std::string family, Rcpp::NumericMatrix coefficients,
                        Rcpp::IntegerVector model_fold, Rcpp::NumericMatrix references, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  askrff::require_whole(y, "y");
  askrff::require_whole(coefficients, "the coefficients");
  askrff::require_whole(references, "the references");
  const int columns = left->n_columns(), classes = y.ncol();
  askrff::GlmModels models;
  models.family = askrff::glm_family(family);
  models.classes = classes;
  askrff::require(classes >= 1 && (models.family == askrff::GlmFamily::multinomial ? classes >= 2 : classes == 1),
                  "y must have one column, or one per class for the multinomial family");
  askrff::require(y.nrow() == x.nrow() && w.size() == x.nrow(), "y and w must have one row per row of x");
  askrff::require(all_finite(y) && all_finite(w) && std::all_of(w.begin(), w.end(), [](double v) { return v >= 0.0; }),
                  "y and w must be finite and w nonnegative");
  askrff::require(std::isfinite(first_row) && first_row >= 0.0 && first_row == std::floor(first_row) && first_row < 9e15,
                  "first_row must be a whole number");
  askrff::require(n_folds == 0 || (n_folds >= 2 && n_folds <= 1000), "n_folds must be 0 or between 2 and 1000");
  askrff::require(z_shift.size() == columns, "the shift must have one value per feature column");
  askrff::require(coefficients.nrow() == 1 + columns && references.nrow() == 1 + columns,
                  "the coefficients must have 1 + D rows");
  askrff::require(coefficients.ncol() == model_fold.size() * classes && references.ncol() % classes == 0,
                  "the coefficients must have one column per model and class");
  askrff::require(all_finite(coefficients) && all_finite(references), "the coefficients must be finite");
  for (const int f : model_fold) askrff::require(f >= 0 && f <= n_folds, "each model's fold must be 0 or a fold");
  const std::uint64_t seed = askrff::seed_from_words(fold_seed);

  models.coefficients = Eigen::Map<const Eigen::MatrixXd>(coefficients.begin(), 1 + columns, coefficients.ncol());
  models.references = Eigen::Map<const Eigen::MatrixXd>(references.begin(), 1 + columns, references.ncol());
  models.fold.assign(model_fold.begin(), model_fold.end());
  const int n_models = models.n_models(), n_references = models.n_references();
  const Eigen::Map<const Eigen::VectorXd> zs(z_shift.begin(), columns);
  const Eigen::Map<const Eigen::MatrixXd> y_all(y.begin(), y.nrow(), classes);
  const Eigen::Map<const Eigen::VectorXd> w_all(w.begin(), w.size());
  const std::size_t n = x.nrow();
  const std::size_t block = std::min<std::size_t>(askrff::block_rows(columns),
                                                  askrff::block_rows(static_cast<int>(coefficients.ncol() + references.ncol())));
  askrff::GlmSums sums(models, columns);
  Eigen::MatrixXd z, y_block, eta, residual, weighted_z;
  Eigen::VectorXd w_block;
  std::vector<int> folds;
  const int panels = askrff::n_panels(columns);
  for (std::size_t begin = 0; begin < n; begin += block) {
    const std::size_t rows = std::min(block, n - begin);
    const Eigen::Index r = static_cast<Eigen::Index>(rows);
    askrff::shifted_features(*left, x.begin(), n, begin, rows, zs, n_threads, z);
    y_block = y_all.middleRows(static_cast<Eigen::Index>(begin), r);
    w_block = w_all.segment(static_cast<Eigen::Index>(begin), r);
    folds.assign(rows, 0);
    if (n_folds >= 2) {
      for (std::size_t i = 0; i < rows; ++i) {
        folds[i] = askrff::cv_fold(seed, static_cast<std::uint64_t>(first_row) + begin + i, n_folds);
      }
    }
    const askrff::GlmBlock rows_of{z, y_block, w_block, folds};
    const Eigen::MatrixXd no_response(r, 0);  // the Hessians' sums carry no response
    eta.resize(r, coefficients.ncol() + references.ncol());
    const std::size_t sub = askrff::kFeatureBlockRows;
    askrff::run_blocks((rows + sub - 1) / sub, n_threads, [&](std::size_t b) {
      const Eigen::Index from = static_cast<Eigen::Index>(b * sub);
      askrff::glm_predictors(models, rows_of, from, std::min<Eigen::Index>(r, from + static_cast<Eigen::Index>(sub)), eta);
    });
    residual.resize(r, coefficients.ncol());
    askrff::run_blocks(static_cast<std::size_t>(n_models), n_threads, [&](std::size_t m) {
      askrff::glm_model_rows(models, rows_of, eta, static_cast<int>(m), residual, sums);
    });
    askrff::run_blocks(static_cast<std::size_t>(panels), n_threads, [&](std::size_t p) {
      askrff::add_gradient_panel(sums, z, residual, static_cast<int>(p));
    });
    for (int reference = 0; reference < n_references; ++reference) {
      const Eigen::MatrixXd weights = askrff::glm_reference_weights(models, rows_of, eta, reference);
      for (int k = 0; k < classes; ++k) {
        askrff::CrossProducts& hessian = sums.hessians[static_cast<std::size_t>(reference * classes + k)];
        weighted_z = z.array().colwise() * weights.col(k).array();
        askrff::run_blocks(static_cast<std::size_t>(panels), n_threads, [&](std::size_t p) {
          askrff::add_panel(hessian, z, weighted_z, no_response, static_cast<int>(p));
        });
        askrff::add_responses(hessian, no_response, weights.col(k));
      }
    }
  }
  Rcpp::List hessians(sums.hessians.size());
  for (std::size_t i = 0; i < sums.hessians.size(); ++i) hessians[i] = askrff::to_r(sums.hessians[i]);
  return Rcpp::List::create(Rcpp::Named("gradient") = askrff::to_r(sums.gradient),
                            Rcpp::Named("deviance") = askrff::to_r(sums.deviance),
                            Rcpp::Named("heldout") = askrff::to_r(sums.heldout),
                            Rcpp::Named("heldout_weight") = askrff::to_r(sums.heldout_weight),
                            Rcpp::Named("hessians") = hessians);
}

// The reference of glm_solve.h from Hessian sums of .cpp_glm_pass (added
// over chunks in R). The eigendecomposition stops on a user interrupt and
// reports its percents to `progress`.
// [[Rcpp::export(.cpp_glm_reference)]]
Rcpp::List cpp_glm_reference(Rcpp::List sums, SEXP progress) {
  const Rcpp::NumericMatrix zz = sums["zz"];
  const Rcpp::NumericVector z_sum = sums["z_sum"];
  askrff::require_whole(zz, "zz");
  const int columns = zz.ncol();
  askrff::require(zz.nrow() == columns && z_sum.size() == columns, "the Hessian sums must agree in their sizes");
  askrff::CrossProducts c(columns, 0);
  c.zz = Eigen::Map<const Eigen::MatrixXd>(zz.begin(), columns, columns);
  c.z_sum = Eigen::Map<const Eigen::VectorXd>(z_sum.begin(), columns);
  c.weight = Rcpp::as<double>(sums["weight"]);
  const askrff::GlmReference reference = askrff::glm_reference(c, askrff::InterruptPoll(), askrff::RProgress(progress));
  return Rcpp::List::create(Rcpp::Named("vectors") = askrff::to_r(reference.vectors),
                            Rcpp::Named("values") = askrff::to_r(reference.values),
                            Rcpp::Named("mean") = askrff::to_r(reference.mean), Rcpp::Named("weight") = reference.weight);
}

// The steps of glm_solve.h for the columns of q, each with its scale and lambda.
// [[Rcpp::export(.cpp_glm_solve)]]
Rcpp::NumericMatrix cpp_glm_solve(Rcpp::List reference, Rcpp::NumericMatrix q, Rcpp::NumericVector scale,
                                  Rcpp::NumericVector lambda) {
  const Rcpp::NumericMatrix vectors = reference["vectors"];
  const Rcpp::NumericVector values = reference["values"], mean = reference["mean"];
  askrff::require_whole(vectors, "the eigenvectors");
  askrff::require_whole(q, "q");
  const int d = vectors.nrow();
  askrff::require(vectors.ncol() == d && values.size() == d && mean.size() == d && q.nrow() == 1 + d,
                  "the reference must have D eigenvectors of D rows, D values and a mean of D");
  askrff::GlmReference r;
  r.vectors = Eigen::Map<const Eigen::MatrixXd>(vectors.begin(), d, d);
  r.values = Eigen::Map<const Eigen::VectorXd>(values.begin(), d);
  r.mean = Eigen::Map<const Eigen::VectorXd>(mean.begin(), d);
  r.weight = Rcpp::as<double>(reference["weight"]);
  askrff::require(std::isfinite(r.weight) && r.weight > 0.0, "the reference's weight must be positive");
  return askrff::to_r(askrff::glm_solve(r, Eigen::Map<const Eigen::MatrixXd>(q.begin(), q.nrow(), q.ncol()),
                                        Eigen::Map<const Eigen::VectorXd>(scale.begin(), scale.size()),
                                        Eigen::Map<const Eigen::VectorXd>(lambda.begin(), lambda.size())));
}

// The folds (1..n_folds) of rows first_row, ..., first_row + n - 1 (counted
// from 0) under the seed, as the passes assign them.
// [[Rcpp::export(.cpp_cv_folds)]]
Rcpp::IntegerVector cpp_cv_folds(double first_row, int n, int n_folds, Rcpp::NumericVector fold_seed) {
  askrff::require(std::isfinite(first_row) && first_row >= 0.0 && first_row == std::floor(first_row) && first_row < 9e15,
                  "first_row must be a whole number");
  askrff::require(n >= 0 && n_folds >= 2 && n_folds <= 1000, "n must be nonnegative and n_folds between 2 and 1000");
  const std::uint64_t seed = askrff::seed_from_words(fold_seed);
  Rcpp::IntegerVector out(n);
  for (int i = 0; i < n; ++i) out[i] = askrff::cv_fold(seed, static_cast<std::uint64_t>(first_row) + i, n_folds);
  return out;
}

namespace {

// The memory of lbfgs.h from R's lists of slots (each rows x (models *
// classes)) and its s'y (slots x models), with the slots' order newest
// first (1-based).
askrff::LbfgsMemory lbfgs_memory(const Rcpp::List& s, const Rcpp::List& y, const Rcpp::NumericMatrix& sy,
                                 const Rcpp::IntegerVector& order, int classes, Eigen::Index rows) {
  askrff::require(s.size() == y.size() && sy.nrow() == s.size() && classes >= 1, "the memory's slots must agree");
  askrff::LbfgsMemory memory;
  memory.classes = classes;
  const Eigen::Index columns = static_cast<Eigen::Index>(sy.ncol()) * classes;
  for (R_xlen_t h = 0; h < s.size(); ++h) {
    const Rcpp::NumericMatrix sh = s[h], yh = y[h];
    askrff::require_whole(sh, "a memory slot");
    askrff::require_whole(yh, "a memory slot");
    askrff::require(sh.nrow() == rows && yh.nrow() == rows && sh.ncol() == columns && yh.ncol() == columns,
                    "each memory slot must have the coefficients' rows and every model's columns");
    memory.s.emplace_back(sh.begin(), rows, columns);
    memory.y.emplace_back(yh.begin(), rows, columns);
  }
  memory.sy = Eigen::Map<const Eigen::MatrixXd>(sy.begin(), sy.nrow(), sy.ncol());
  for (const int h : order) {
    askrff::require(h >= 1 && h <= s.size(), "the slots' order must name slots");
    memory.order.push_back(h - 1);
  }
  return memory;
}

std::vector<int> model_indices(const Rcpp::IntegerVector& models, int n_models) {
  std::vector<int> out;
  for (const int m : models) {
    askrff::require(m >= 1 && m <= n_models, "the models must be among the memory's");
    out.push_back(m - 1);
  }
  return out;
}

}  // namespace

// The first loop of lbfgs.h for the columns of q (models' gradients, in
// the order of `models`, 1-based): list(q, alpha).
// [[Rcpp::export(.cpp_lbfgs_first)]]
Rcpp::List cpp_lbfgs_first(Rcpp::NumericMatrix q, Rcpp::List memory_s, Rcpp::List memory_y, Rcpp::NumericMatrix memory_sy,
                           Rcpp::IntegerVector order, Rcpp::IntegerVector models, int classes) {
  askrff::require_whole(q, "q");
  const askrff::LbfgsMemory memory = lbfgs_memory(memory_s, memory_y, memory_sy, order, classes, q.nrow());
  askrff::require(q.ncol() == models.size() * classes, "q must have one block of columns per model");
  Eigen::MatrixXd out = Eigen::Map<const Eigen::MatrixXd>(q.begin(), q.nrow(), q.ncol());
  const Eigen::MatrixXd alpha = askrff::lbfgs_first_loop(memory, model_indices(models, memory_sy.ncol()), out);
  return Rcpp::List::create(Rcpp::Named("q") = askrff::to_r(out), Rcpp::Named("alpha") = askrff::to_r(alpha));
}

// The second loop of lbfgs.h: r becomes minus the search directions.
// [[Rcpp::export(.cpp_lbfgs_second)]]
Rcpp::NumericMatrix cpp_lbfgs_second(Rcpp::NumericMatrix r, Rcpp::List memory_s, Rcpp::List memory_y,
                                     Rcpp::NumericMatrix memory_sy, Rcpp::IntegerVector order, Rcpp::IntegerVector models,
                                     int classes, Rcpp::NumericMatrix alpha) {
  askrff::require_whole(r, "r");
  const askrff::LbfgsMemory memory = lbfgs_memory(memory_s, memory_y, memory_sy, order, classes, r.nrow());
  askrff::require(r.ncol() == models.size() * classes && alpha.nrow() == order.size() && alpha.ncol() == models.size(),
                  "r and alpha must have one block of columns per model");
  Eigen::MatrixXd out = Eigen::Map<const Eigen::MatrixXd>(r.begin(), r.nrow(), r.ncol());
  askrff::lbfgs_second_loop(memory, model_indices(models, memory_sy.ncol()),
                            Eigen::Map<const Eigen::MatrixXd>(alpha.begin(), alpha.nrow(), alpha.ncol()), out);
  return askrff::to_r(out);
}
