// Conversions between R objects and the core's types.
#pragma once
#include <Rcpp.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/features/fastfood_features.h"
#include "core/features/feature_map.h"
#include "core/kernels/kernels.h"
#include "core/sampling/sampled_map.h"
#include "core/features/maclaurin_features.h"
#include "core/features/nystrom_features.h"
#include "core/features/tensor_sketch_features.h"
#include "guards.h"

namespace askrff {

// R's kernel object: list(name = "gaussian", params = list(sigma = 1), ...),
// optionally with `settings`, a map's validated kernel-specific settings:
// words become options, numbers join the parameters.
inline KernelSpec kernel_spec(const Rcpp::List& kernel) {
  KernelSpec spec;
  spec.name = Rcpp::as<std::string>(kernel["name"]);
  const Rcpp::List params = kernel["params"];
  if (params.size() > 0) {
    const Rcpp::CharacterVector names = params.names();
    for (R_xlen_t i = 0; i < params.size(); ++i) {
      // A parameter that is an R function (radial_kernel()'s fun) stays in R,
      // which hands the core its values instead.
      if (Rf_isFunction(params[i])) continue;
      spec.params[Rcpp::as<std::string>(names[i])] = Rcpp::as<std::vector<double>>(params[i]);
    }
  }
  const Rcpp::List settings =
      kernel.containsElementNamed("settings") ? Rcpp::List(kernel["settings"]) : Rcpp::List();
  if (settings.size() > 0) {
    const Rcpp::CharacterVector setting_names = settings.names();
    for (R_xlen_t i = 0; i < settings.size(); ++i) {
      const std::string key = Rcpp::as<std::string>(setting_names[i]);
      if (Rf_isString(settings[i])) {
        spec.options[key] = Rcpp::as<std::string>(settings[i]);
      } else {
        spec.params[key] = Rcpp::as<std::vector<double>>(settings[i]);
      }
    }
  }
  if (kernel.containsElementNamed("terms")) {
    const Rcpp::List terms = kernel["terms"];
    for (R_xlen_t i = 0; i < terms.size(); ++i) spec.terms.push_back(kernel_spec(Rcpp::List(terms[i])));
  }
  return spec;
}

// Two 32-bit words drawn in R (from its RNG or from `seed`) make the 64-bit seed.
inline std::uint64_t seed_from_words(const Rcpp::NumericVector& words) {
  if (words.size() != 2 || !(words[0] >= 0 && words[0] < 4294967296.0) || !(words[1] >= 0 && words[1] < 4294967296.0)) {
    throw std::invalid_argument("a seed is two whole numbers in [0, 2^32)");
  }
  return (static_cast<std::uint64_t>(words[0]) << 32) | static_cast<std::uint64_t>(words[1]);
}

// A validated map of rff_map() as the core reads it: views of its
// frequencies and phases, its parts' weights, and 0-based part indices.
struct SampledMapList {
  std::vector<int> part;
  MapView view;
};

inline SampledMapList sampled_map_list(const Rcpp::List& map) {
  const Rcpp::NumericMatrix omega = map["omega"];
  const Rcpp::IntegerVector part = map["part"];
  const Rcpp::NumericVector phase = map["phase"];
  const Rcpp::List parts = map["parts"];
  const Rcpp::NumericVector coefficient = parts["coefficient"], mass = parts["mass"],
                            right_phase = parts["right_phase"], share = parts["share"];
  const Rcpp::CharacterVector features = parts["features"];
  require(omega.nrow() >= 1 && omega.ncol() >= 1, "a map needs at least one frequency");
  require_whole(omega, "omega");
  require(coefficient.size() >= 1 && mass.size() == coefficient.size() && right_phase.size() == coefficient.size() &&
              share.size() == coefficient.size() && features.size() == coefficient.size(),
          "a map's parts table needs one coefficient, mass, right phase, share and feature kind per part");
  require_length(part.size(), omega.ncol(), "part");
  require_length(phase.size(), omega.ncol(), "phase");
  SampledMapList out;
  out.view.d = omega.nrow();
  out.view.n = omega.ncol();
  out.view.omega = omega.begin();
  out.view.phase = phase.begin();
  out.view.features = Rcpp::as<std::string>(features[0]);
  for (R_xlen_t p = 0; p < coefficient.size(); ++p) {
    out.view.parts.push_back(PartWeight{coefficient[p], mass[p], right_phase[p], share[p]});
  }
  out.part.resize(static_cast<std::size_t>(part.size()));
  for (R_xlen_t f = 0; f < part.size(); ++f) {
    require(part[f] >= 1 && part[f] <= coefficient.size(), "part indices must name a part of the map");
    out.part[f] = part[f] - 1;
  }
  out.view.part = out.part.data();
  return out;
}

// The random periodic features fun(x'w + dither) of a map of rpf_map().
inline std::unique_ptr<FeatureMap> periodic_map(const Rcpp::NumericMatrix& omega, const Rcpp::NumericVector& dither,
                                                const std::string& fun) {
  require(omega.nrow() >= 1 && omega.ncol() >= 1, "a periodic map needs at least one frequency");
  require_whole(omega, "omega");
  require_length(dither.size(), omega.ncol(), "dither");
  return make_periodic_feature_map(omega.begin(), dither.begin(), omega.nrow(), omega.ncol(), fun);
}

inline ConstMatrixMap as_map(const Rcpp::NumericMatrix& m) {
  require_whole(m, "a matrix");
  return ConstMatrixMap(m.begin(), m.nrow(), m.ncol());
}

inline Eigen::MatrixXd eigen_copy(const Rcpp::NumericMatrix& m, const char* what) {
  require_whole(m, what);
  return ConstMatrixMap(m.begin(), m.nrow(), m.ncol());
}

// One side of a map of nystrom_map(). The right side of an SVD (an
// asymmetric kernel) reads K(Z, y)'; a symmetric kernel's K(Z, y)' is
// K(y, Z). R leaves out the kernel when it evaluates the kernel itself, and
// passes K(x, Z) as the data.
inline std::unique_ptr<FeatureMap> nystrom_side(const Rcpp::List& map, Side side) {
  const Rcpp::NumericMatrix landmarks = map["landmarks"];
  const Rcpp::NumericMatrix weights = map[side == Side::left ? "left_weights" : "right_weights"];
  require(landmarks.nrow() >= 1 && landmarks.ncol() >= 1 && weights.nrow() == landmarks.nrow() && weights.ncol() >= 1,
          "a Nystrom map needs landmarks and one row of weights per landmark");
  const bool svd = Rcpp::as<std::string>(map["decomposition"]) == "svd";
  std::unique_ptr<const Kernel> kernel;
  if (map.containsElementNamed("kernel")) kernel = make_kernel(kernel_spec(Rcpp::List(map["kernel"])));
  return make_nystrom_feature_map(std::move(kernel), eigen_copy(landmarks, "landmarks"),
                                  eigen_copy(weights, "weights"), svd && side == Side::right);
}

// One side of a map of maclaurin_map(): the right one carries the signs.
inline std::unique_ptr<FeatureMap> maclaurin_side(const Rcpp::List& map, Side side) {
  const Rcpp::NumericMatrix rademacher = map["rademacher"];
  const Rcpp::IntegerVector degree = map["degree"];
  const Rcpp::NumericVector weight = map["weight"], sign = map["sign"];
  require(weight.size() == degree.size() && sign.size() == degree.size(),
          "a Random Maclaurin map needs a weight and a sign per degree");
  std::vector<double> scale(weight.begin(), weight.end());
  if (side == Side::right) {
    for (std::size_t j = 0; j < scale.size(); ++j) scale[j] *= sign[static_cast<R_xlen_t>(j)];
  }
  return make_maclaurin_feature_map(eigen_copy(rademacher, "rademacher"),
                                    std::vector<int>(degree.begin(), degree.end()), std::move(scale));
}

// One side of a map of tensor_sketch_map(): sqrt(|c|) per column, and on
// the right side the sign of c.
inline std::unique_ptr<FeatureMap> tensor_sketch_side(const Rcpp::List& map, Side side) {
  const int d = Rcpp::as<int>(map["d"]);
  const auto scale = [side](double c) { return std::sqrt(std::abs(c)) * (side == Side::right && c < 0.0 ? -1.0 : 1.0); };
  const double constant = Rcpp::as<double>(map["constant"]);
  const Rcpp::List blocks = map["blocks"];
  std::vector<SketchBlock> sketches;
  for (R_xlen_t b = 0; b < blocks.size(); ++b) {
    const Rcpp::List block = blocks[b];
    const Rcpp::IntegerMatrix hash = block["hash"];
    const Rcpp::NumericMatrix sign = block["sign"];
    SketchBlock sketch;
    sketch.degree = Rcpp::as<int>(block["degree"]);
    sketch.columns = Rcpp::as<int>(block["columns"]);
    sketch.scale = scale(Rcpp::as<double>(block["coefficient"]));
    require(hash.nrow() == d && sign.nrow() == d && hash.ncol() == sketch.degree && sign.ncol() == sketch.degree &&
                static_cast<double>(Rf_xlength(hash)) == static_cast<double>(d) * sketch.degree &&
                static_cast<double>(Rf_xlength(sign)) == static_cast<double>(d) * sketch.degree,
            "a sketch block needs a d by degree hash and sign");
    for (int h : hash) sketch.hash.push_back(h - 1);
    sketch.sign.assign(sign.begin(), sign.end());
    sketches.push_back(std::move(sketch));
  }
  return make_tensor_sketch_feature_map(d, constant != 0.0, scale(constant), std::move(sketches));
}

// A map of fastfood_map(): its blocks' columns of the matrices `sign`,
// `permutation` (1-based), `gaussian` and `scale`, both sides alike.
inline std::unique_ptr<FeatureMap> fastfood_side(const Rcpp::List& map) {
  const int d = Rcpp::as<int>(map["d"]), size = Rcpp::as<int>(map["size"]), n = Rcpp::as<int>(map["n_features"]);
  const Rcpp::NumericMatrix sign = map["sign"], gaussian = map["gaussian"], scale = map["scale"];
  const Rcpp::IntegerMatrix permutation = map["permutation"];
  const int blocks = sign.ncol();
  require(sign.nrow() == size && gaussian.nrow() == size && scale.nrow() == size && permutation.nrow() == size &&
              gaussian.ncol() == blocks && scale.ncol() == blocks && permutation.ncol() == blocks,
          "a Fastfood map needs size rows and one column per block in sign, permutation, gaussian and scale");
  std::vector<FastfoodBlock> parts(static_cast<std::size_t>(blocks));
  for (int b = 0; b < blocks; ++b) {
    FastfoodBlock& part = parts[static_cast<std::size_t>(b)];
    for (int k = 0; k < size; ++k) {
      part.sign.push_back(sign(k, b));
      part.gaussian.push_back(gaussian(k, b));
      part.scale.push_back(scale(k, b));
      part.permutation.push_back(permutation(k, b) - 1);
    }
  }
  return make_fastfood_feature_map(d, size, n, std::sqrt(Rcpp::as<double>(map["mass"]) / n), std::move(parts));
}

// The map kinds the core reads, each with the reader of one side of a
// validated map of that class (R makes every class current first); `fun`
// names the periodic function of a random periodic map's features and is
// empty for the other kinds. R's registry of kinds (R/map-kinds.R) must
// name the same kinds; .cpp_map_kinds() lets a test check it.
struct MapKindReader {
  const char* kind;
  std::unique_ptr<FeatureMap> (*read)(const Rcpp::List& map, Side side, const std::string& fun);
};

inline const std::vector<MapKindReader>& map_kind_readers() {
  static const std::vector<MapKindReader> readers = {
      {"rff_map", [](const Rcpp::List& map, Side side, const std::string&) { return side_map(sampled_map_list(map).view, side); }},
      {"rpf_map", [](const Rcpp::List& map, Side, const std::string& fun) { return periodic_map(map["omega"], map["dither"], fun); }},
      {"nystrom_map", [](const Rcpp::List& map, Side side, const std::string&) { return nystrom_side(map, side); }},
      {"maclaurin_map", [](const Rcpp::List& map, Side side, const std::string&) { return maclaurin_side(map, side); }},
      {"tensor_sketch_map", [](const Rcpp::List& map, Side side, const std::string&) { return tensor_sketch_side(map, side); }},
      {"fastfood_map", [](const Rcpp::List& map, Side, const std::string&) { return fastfood_side(map); }},
  };
  return readers;
}

// One side of a validated map of any kind, which its class names.
inline std::unique_ptr<FeatureMap> feature_map(const Rcpp::List& map, Side side, const std::string& fun) {
  for (const MapKindReader& reader : map_kind_readers()) {
    if (!Rf_inherits(map, reader.kind)) continue;
    require(fun.empty() || std::string(reader.kind) == "rpf_map", "only random periodic maps take a periodic function");
    return reader.read(map, side, fun);
  }
  throw std::invalid_argument("the map is of no kind the core knows");
}

inline Side side_named(const std::string& side) {
  require(side == "left" || side == "right", "side must be \"left\" or \"right\"");
  return side == "left" ? Side::left : Side::right;
}

}  // namespace askrff
