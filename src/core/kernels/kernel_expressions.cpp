// Kernel arithmetic: linear combinations sum_i a_i k_i ("sum") and products
// prod_i k_i ("product") of kernels the core knows, each term a KernelSpec
// of its own. The measure of a sum lists its terms' parts with coefficients
// scaled by a_i (or, for radial terms with split = "jordan", the minimal
// Jordan parts of the combined density); the measure of a product is the
// convolution of its factors' measures. Their Gram matrices combine the
// terms' in the order R/kernel-arithmetic.R does for the terms the core
// cannot evaluate.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/laws/convolution_law.h"
#include "core/kernels/kernel_family.h"
#include "core/laws/tabulated_radial.h"
#include "core/kernels/gram_blocks.h"

namespace askrff {

namespace {

std::vector<std::unique_ptr<Kernel>> make_terms(const KernelSpec& spec) {
  if (spec.terms.size() < 1) throw std::invalid_argument("a kernel expression needs terms");
  std::vector<std::unique_ptr<Kernel>> terms;
  for (const KernelSpec& term : spec.terms) terms.push_back(make_kernel(term));
  return terms;
}

std::vector<double> numbers(const KernelSpec& spec, const char* key) {
  const auto it = spec.params.find(key);
  return it == spec.params.end() ? std::vector<double>() : it->second;
}

// K = sum_i a_i K_i, or the entrywise product of the K_i, the terms taken in
// order: term i's block is computed into its own matrix and combined.
class ExpressionKernel : public Kernel {
 public:
  explicit ExpressionKernel(const KernelSpec& spec) : terms_(make_terms(spec)) {}

  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override {
    const Eigen::Index rows = row_end - row_begin;
    const Eigen::MatrixXd block = x.middleRows(row_begin, rows);
    const ConstMatrixMap bm(block.data(), rows, block.cols());
    OutputBlock result = output_block(out, x.rows(), row_begin, rows, y.rows());
    Eigen::MatrixXd term(rows, y.rows());
    for (std::size_t i = 0; i < terms_.size(); ++i) {
      terms_[i]->gram_rows(bm, y, y_sqnorm, 0, rows, term.data());
      combine(result, term, i);
    }
  }

  double entry_cost(int d) const override {
    double cost = 0.0;
    for (const auto& term : terms_) cost += term->entry_cost(d) + 2.0;
    return cost;
  }

 protected:
  // Adds term i's values into the block (the first one sets it).
  virtual void combine(OutputBlock& result, const Eigen::MatrixXd& term, std::size_t i) const = 0;
  std::vector<std::unique_ptr<Kernel>> terms_;
};

// Parts multiply in a product (and add up in a sum): 24 Delta-Gaussian
// factors would have 2^24, each a law object and a row of every map's parts
// table, with fewer frequencies than parts in any map of usual size. So the
// count is refused before the parts are built.
constexpr std::size_t kMaxParts = 4096;

void check_part_count(double count) {
  if (count <= static_cast<double>(kMaxParts)) return;
  throw std::invalid_argument(
      "the kernel's spectral measure would have " + std::to_string(static_cast<long long>(std::min(count, 1e18))) +
      " positive parts (its factors' part counts multiply, its terms' add up), more than the " +
      std::to_string(kMaxParts) + " askrff samples; use fewer factors, or kernels with fewer parts");
}

class SumKernel : public ExpressionKernel {
 public:
  explicit SumKernel(const KernelSpec& spec)
      : ExpressionKernel(spec), weights_(spec.vector("weights")), jordan_(spec.option("split", "components") == "jordan"),
        table_radius_(numbers(spec, "table_radius")), table_density_(numbers(spec, "table_density")) {
    if (weights_.size() != terms_.size()) throw std::invalid_argument("a sum of kernels needs one weight per term");
    const std::vector<double> negligible = numbers(spec, "table_negligible");
    negligible_ = negligible.empty() ? 0.0 : negligible[0];
  }

  Measure measure(int d) const override {
    if (jordan_) {
      if (table_radius_.empty()) throw std::invalid_argument("the combined density has not been tabulated");
      return jordan_radial_parts(d, table_radius_, table_density_, negligible_);
    }
    Measure parts;
    for (std::size_t i = 0; i < terms_.size(); ++i) {
      for (Part part : terms_[i]->measure(d)) {
        part.name = "k" + std::to_string(i + 1) + "." + part.name;
        part.coefficient *= weights_[i];
        part.weight *= std::abs(weights_[i]);
        parts.push_back(std::move(part));
      }
      check_part_count(static_cast<double>(parts.size()));
    }
    return parts;
  }

  double radial_density(int d, double radius) const override { return radial_value(d, radius).value; }

  std::vector<double> dot_product_series() const override {
    std::vector<double> sum;
    for (std::size_t i = 0; i < terms_.size(); ++i) {
      const std::vector<double> term = terms_[i]->dot_product_series();
      if (term.empty()) return {};
      if (term.size() > sum.size()) sum.resize(term.size(), 0.0);
      for (std::size_t n = 0; n < term.size(); ++n) sum[n] += weights_[i] * term[n];
    }
    return sum;
  }

  RadialValue radial_value(int d, double radius) const override {
    RadialValue sum;
    for (std::size_t i = 0; i < terms_.size(); ++i) {
      const RadialValue term = terms_[i]->radial_value(d, radius);
      sum.value += weights_[i] * term.value;
      sum.error += std::abs(weights_[i]) * term.error;
    }
    return sum;
  }

  double radial_rest(int d) const override {
    double rest = 0.0;
    for (std::size_t i = 0; i < terms_.size(); ++i) rest += std::abs(weights_[i]) * terms_[i]->radial_rest(d);
    return rest;
  }

  double radial_limit(int d) const override {
    double limit = 0.0;
    for (const auto& term : terms_) limit = std::max(limit, term->radial_limit(d));
    return limit;
  }

 private:
  void combine(OutputBlock& result, const Eigen::MatrixXd& term, std::size_t i) const override {
    if (i == 0) {
      result = weights_[0] * term;
    } else {
      result += weights_[i] * term;
    }
  }

  std::vector<double> weights_;
  bool jordan_;
  std::vector<double> table_radius_, table_density_;
  double negligible_ = 0.0;
};

// cos(a - phi) cos(b - psi) = [cos(a + b - (phi + psi)) + cos(a - b - (phi - psi))] / 2.
// When the second part's law is symmetric and it has no phases, the mean of
// the product over w2 is that of cos(a + b - phi) alone (the sines average to
// zero), so one part of frequency w1 + w2 does; likewise with the roles
// swapped. Otherwise the sum and difference frequencies each take half the
// coefficient. A right phase is kept in [0, pi) by flipping the sign.
void normalize_phase(Part& part) {
  double phase = std::remainder(part.right_phase, 2.0 * M_PI);  // in [-pi, pi]
  if (phase < -1e-12) {
    phase += M_PI;
    part.coefficient = -part.coefficient;
  } else if (phase > M_PI - 1e-12) {
    phase -= M_PI;
    part.coefficient = -part.coefficient;
  }
  part.right_phase = std::abs(phase) < 1e-12 ? 0.0 : phase;
}

Part combined(int d, const Part& p, const Part& q, double sign, double coefficient, double right_phase,
              const std::string& name) {
  Part part{name, p.mass * q.mass, p.mass_exact && q.mass_exact, coefficient, right_phase,
            std::make_shared<ConvolutionLaw>(d, p.sampler, q.sampler, sign)};
  part.weight = p.weight * q.weight;
  normalize_phase(part);
  return part;
}

bool plain(const Part& part) { return !part.left_phase && part.right_phase == 0.0 && part.sampler->symmetric(); }

Measure product_measure(int d, const Measure& first, const Measure& second) {
  check_part_count(static_cast<double>(first.size()) * static_cast<double>(second.size()));
  Measure parts;
  for (const Part& p : first) {
    for (const Part& q : second) {
      if (p.left_phase || q.left_phase) {
        throw std::invalid_argument(
            "the product's measure cannot be sampled: the part '" + (p.left_phase ? p.name : q.name) +
            "' has a phase that depends on its frequency (decomposition = \"phase\"), and the phase of a sum of "
            "frequencies is not a function of the sum; use the kernel's default decomposition");
      }
      const std::string name = p.name + "*" + q.name;
      const double c = p.coefficient * q.coefficient;
      if (plain(q) || plain(p)) {
        parts.push_back(combined(d, p, q, +1.0, c, p.right_phase + q.right_phase, name));
      } else {
        parts.push_back(combined(d, p, q, +1.0, 0.5 * c, p.right_phase + q.right_phase, name + "+"));
        parts.push_back(combined(d, p, q, -1.0, 0.5 * c, p.right_phase - q.right_phase, name + "-"));
      }
    }
  }
  check_part_count(static_cast<double>(parts.size()));
  return parts;
}

class ProductKernel : public ExpressionKernel {
 public:
  explicit ProductKernel(const KernelSpec& spec) : ExpressionKernel(spec) {}

  Measure measure(int d) const override {
    Measure parts = terms_[0]->measure(d);
    for (std::size_t i = 1; i < terms_.size(); ++i) parts = product_measure(d, parts, terms_[i]->measure(d));
    return parts;
  }

  std::vector<double> dot_product_series() const override {
    std::vector<double> product{1.0};
    for (const auto& term : terms_) {
      const std::vector<double> factor = term->dot_product_series();
      if (factor.empty()) return {};
      std::vector<double> next(product.size() + factor.size() - 1, 0.0);
      for (std::size_t i = 0; i < product.size(); ++i)
        for (std::size_t j = 0; j < factor.size(); ++j) next[i + j] += product[i] * factor[j];
      product = std::move(next);
    }
    return product;
  }

 private:
  void combine(OutputBlock& result, const Eigen::MatrixXd& term, std::size_t i) const override {
    if (i == 0) {
      result = term;
    } else {
      result = result.cwiseProduct(term);
    }
  }
};

// What every term must be: a kernel with a spectral measure whose
// frequencies become cos and sin features.
std::vector<KernelTraits> term_traits(const KernelSpec& spec) {
  std::vector<KernelTraits> traits;
  for (const KernelSpec& term : spec.terms) {
    KernelTraits t = kernel_traits(term);
    if (t.measure == "none") {
      throw std::invalid_argument("the " + term.name +
                                  " kernel has no spectral measure (an expected kernel of random periodic features "
                                  "is not a Fourier kernel); combine the original kernels instead");
    }
    if (t.features != "trig") {
      throw std::invalid_argument("the " + term.name + " kernel's features are " + t.features +
                                  " features of projections, not Fourier features, so they cannot share a map "
                                  "with other kernels' cos and sin features");
    }
    traits.push_back(std::move(t));
  }
  return traits;
}

std::string combined_kind(const std::vector<KernelTraits>& traits, bool negative_weight) {
  bool complex = false, is_signed = negative_weight;
  for (const KernelTraits& t : traits) {
    complex = complex || t.measure == "complex";
    is_signed = is_signed || t.measure == "signed";
  }
  return complex ? "complex" : is_signed ? "signed" : "positive";
}

bool any_on_sphere(const std::vector<KernelTraits>& traits) {
  return std::any_of(traits.begin(), traits.end(), [](const KernelTraits& t) { return t.on_sphere; });
}

KernelTraits sum_traits(const KernelSpec& spec) {
  const std::vector<KernelTraits> traits = term_traits(spec);
  const std::vector<double>& weights = spec.vector("weights");
  KernelTraits t;
  t.measure = combined_kind(traits, std::any_of(weights.begin(), weights.end(), [](double w) { return w < 0.0; }));
  t.radial = std::all_of(traits.begin(), traits.end(), [](const KernelTraits& term) { return term.radial; });
  t.on_sphere = any_on_sphere(traits);
  if (t.radial) {
    t.settings = {Setting{"split", {"components", "jordan"}},
                  Setting{"accuracy", {}, 1e-6, 1e-12, 0.01, false, {"split", "jordan"}}};
  }
  return t;
}

KernelTraits product_traits(const KernelSpec& spec) {
  const std::vector<KernelTraits> traits = term_traits(spec);
  KernelTraits t;
  t.measure = combined_kind(traits, false);
  t.on_sphere = any_on_sphere(traits);
  return t;
}

void check_terms(const KernelSpec& spec, int d) {
  for (const KernelSpec& term : spec.terms) check_kernel_dimension(term, d);
}

std::unique_ptr<Kernel> make_sum(const KernelSpec& spec) { return std::make_unique<SumKernel>(spec); }
std::unique_ptr<Kernel> make_product(const KernelSpec& spec) { return std::make_unique<ProductKernel>(spec); }

}  // namespace

// A sum's bound is its terms' weighted; a product's, factor by factor,
// b M' + (M + b) b' for bounds b, b' and total variations M, M' of the
// measures (which bound their kernels), since k~ k~' - k k' = (k~ - k) k~' +
// k (k~' - k').
double measure_bias(const KernelSpec& spec, int d) {
  const std::vector<double> own = numbers(spec, "bias_bound");
  if (!own.empty()) return own[0];
  if (spec.name != "sum" && spec.name != "product") return 0.0;
  std::vector<double> bounds;
  for (const KernelSpec& term : spec.terms) bounds.push_back(measure_bias(term, d));
  if (spec.name == "sum") {
    const std::vector<double>& weights = spec.vector("weights");
    double bound = 0.0;
    for (std::size_t i = 0; i < bounds.size(); ++i) bound += std::abs(weights.at(i)) * bounds[i];
    return bound;
  }
  if (std::all_of(bounds.begin(), bounds.end(), [](double b) { return b == 0.0; })) return 0.0;
  double bound = 0.0, variation = 1.0;
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    double term_variation = 0.0;
    for (const Part& part : make_kernel(spec.terms[i])->measure(d)) term_variation += std::abs(part.coefficient) * part.mass;
    bound = i == 0 ? bounds[0] : bound * term_variation + (variation + bound) * bounds[i];
    variation *= term_variation;
  }
  return bound;
}

KernelFamily sum_family() { return {"sum", sum_traits, make_sum, check_terms}; }
KernelFamily product_family() { return {"product", product_traits, make_product, check_terms}; }

}  // namespace askrff
