// The sufficient statistics of a weighted ridge regression on feature rows,
// summed a block of rows at a time so that the feature matrix is never
// stored: with shifted features z - s and responses y - t (s and t fixed
// before the first row, so centering later does not cancel) and row weights
// w, the lower triangle of sum w (z - s)(z - s)', and sum w (z - s)(y - t)',
// sum w (z - s), sum w (y - t), sum w (y - t)^2 per response, sum w, the
// sum of log w over the rows of positive weight (the marginal likelihood's
// noise determinant), and the number of those rows. Unweighted sums have w = 1.
#pragma once
#include <Eigen/Dense>

namespace askrff {

struct CrossProducts {
  CrossProducts(int n_columns, int n_responses);
  Eigen::MatrixXd zz;  // lower triangle used
  Eigen::MatrixXd zy;
  Eigen::VectorXd z_sum, y_sum, y_squares;
  double weight = 0.0;  // sum w
  double log_weight = 0.0;  // sum log w over w > 0
  double n = 0.0;       // rows of positive weight
};

// The columns are cut into panels; panel p owns columns [begin, end) of zz's
// lower triangle and those rows of zy and z_sum, so panels are updated in
// parallel without sharing an entry, and every entry sums its blocks in row
// order whichever thread updates it.
constexpr int kPanelWidth = 64;
int n_panels(int n_columns);

// Adds the block's shifted features z (rows by columns), the same rows
// multiplied by their weights, weighted_z, and the shifted responses y (rows
// by responses) to panel p.
void add_panel(CrossProducts& sums, const Eigen::MatrixXd& z, const Eigen::MatrixXd& weighted_z,
               const Eigen::MatrixXd& y, int panel);

// Adds the block's responses with their weights w to y_sum, y_squares and
// weight, and its rows of positive weight to log_weight and n.
void add_responses(CrossProducts& sums, const Eigen::MatrixXd& y, const Eigen::VectorXd& w);

}  // namespace askrff
