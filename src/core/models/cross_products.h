// The sufficient statistics of a ridge regression on feature rows, summed a
// block of rows at a time so that the feature matrix is never stored: with
// shifted features z - s and responses y - t (s and t fixed before the first
// row, so centering later does not cancel), the lower triangle of
// sum (z - s)(z - s)', and sum (z - s)(y - t)', sum (z - s), sum (y - t),
// sum (y - t)^2 per response, and the number of rows.
#pragma once
#include <Eigen/Dense>

namespace askrff {

struct CrossProducts {
  CrossProducts(int n_columns, int n_responses);
  Eigen::MatrixXd zz;  // lower triangle used
  Eigen::MatrixXd zy;
  Eigen::VectorXd z_sum, y_sum, y_squares;
  double n = 0.0;
};

// The columns are cut into panels; panel p owns columns [begin, end) of zz's
// lower triangle and those rows of zy and z_sum, so panels are updated in
// parallel without sharing an entry, and every entry sums its blocks in row
// order whichever thread updates it.
constexpr int kPanelWidth = 64;
int n_panels(int n_columns);

// Adds the block's shifted features z (rows by columns) and shifted
// responses y (rows by responses) to panel p.
void add_panel(CrossProducts& sums, const Eigen::MatrixXd& z, const Eigen::MatrixXd& y, int panel);

// Adds the block's responses to y_sum and y_squares, and its rows to n.
void add_responses(CrossProducts& sums, const Eigen::MatrixXd& y);

}  // namespace askrff
