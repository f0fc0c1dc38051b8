#include "core/numerics/quadrature.h"

#include <cmath>
#include <queue>
#include <vector>

namespace askrff {

namespace {

// QUADPACK's 15-point Kronrod rule; the Gauss nodes are the odd-indexed ones.
constexpr double kNodes[8] = {0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                              0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                              0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                              0.207784955007898467600689403773245, 0.0};
constexpr double kKronrod[8] = {0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                                0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                                0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                                0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
constexpr double kGauss[4] = {0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                              0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

struct Piece {
  double a, b, value, error;
  bool operator<(const Piece& other) const { return error < other.error; }
};

Piece kronrod(const std::function<double(double)>& f, double a, double b) {
  const double center = 0.5 * (a + b), half = 0.5 * (b - a);
  const double f_center = f(center);
  double kronrod_sum = kKronrod[7] * f_center, gauss_sum = kGauss[3] * f_center;
  for (int i = 0; i < 7; ++i) {
    const double pair = f(center - half * kNodes[i]) + f(center + half * kNodes[i]);
    kronrod_sum += kKronrod[i] * pair;
    if (i % 2 == 1) gauss_sum += kGauss[i / 2] * pair;
  }
  return {a, b, kronrod_sum * half, std::abs((kronrod_sum - gauss_sum) * half)};
}

}  // namespace

double integrate(const std::function<double(double)>& f, double a, double b, double rel_tol,
                 int max_intervals) {
  std::priority_queue<Piece> pieces;
  pieces.push(kronrod(f, a, b));
  double value = pieces.top().value, error = pieces.top().error;
  for (int n = 1; n < max_intervals && error > rel_tol * std::abs(value); ++n) {
    const Piece worst = pieces.top();
    pieces.pop();
    const double middle = 0.5 * (worst.a + worst.b);
    const Piece left = kronrod(f, worst.a, middle), right = kronrod(f, middle, worst.b);
    value += left.value + right.value - worst.value;
    error += left.error + right.error - worst.error;
    pieces.push(left);
    pieces.push(right);
  }
  // Re-add the pieces: the running sums drift by rounding over many updates.
  double total = 0.0;
  for (; !pieces.empty(); pieces.pop()) total += pieces.top().value;
  return total;
}

}  // namespace askrff
