#include "core/kernels/kernel_family.h"

#include <stdexcept>

namespace askrff {

// One line per family: its factory, defined in the family's own file.
KernelFamily gaussian_family();
KernelFamily laplace_family();
KernelFamily delta_gaussian_family();
KernelFamily poly_sphere_family();
KernelFamily arccos_family();
KernelFamily ntk_family();
KernelFamily shift_gaussian_family();
KernelFamily sinh_gaussian_family();
KernelFamily cosh_gaussian_family();
KernelFamily rpf_expected_family();
KernelFamily matern_family();
KernelFamily exponential_family();
KernelFamily rational_quadratic_family();
KernelFamily generalized_gaussian_family();
KernelFamily radial_family();
KernelFamily sum_family();
KernelFamily product_family();

const std::vector<KernelFamily>& kernel_families() {
  static const std::vector<KernelFamily> families = {
      gaussian_family(),       laplace_family(),        delta_gaussian_family(), poly_sphere_family(),
      arccos_family(),         ntk_family(),            shift_gaussian_family(), sinh_gaussian_family(),
      cosh_gaussian_family(),  rpf_expected_family(),   matern_family(),         exponential_family(),
      rational_quadratic_family(), generalized_gaussian_family(), radial_family(),
      sum_family(),            product_family()};
  return families;
}

const KernelFamily& kernel_family(const std::string& name) {
  for (const KernelFamily& family : kernel_families()) {
    if (family.name == name) return family;
  }
  throw std::invalid_argument("unknown kernel '" + name + "'");
}

std::unique_ptr<Kernel> make_kernel(const KernelSpec& spec) { return kernel_family(spec.name).make(spec); }

KernelTraits kernel_traits(const KernelSpec& spec) { return kernel_family(spec.name).traits(spec); }

void check_kernel_dimension(const KernelSpec& spec, int d) {
  const KernelFamily& family = kernel_family(spec.name);
  for (const std::string& name : family.traits(spec).coordinate_params) {
    const std::size_t n = spec.vector(name).size();
    if (n != 1 && n != static_cast<std::size_t>(d)) {
      throw std::invalid_argument("`" + name + "` of the kernel has length " + std::to_string(n) +
                                  ", but the data have " + std::to_string(d) +
                                  " columns; give one value per column or a single value.");
    }
  }
  if (family.check_dimension) family.check_dimension(spec, d);
}

KernelTraits scale_family_traits(bool radial) {
  KernelTraits t;
  t.measure = "positive";
  t.radial = radial;
  t.periodic = true;
  t.scaled_params = {ScaledParam{"sigma", 1}};
  return t;
}

std::vector<double> expand_coordinates(const std::vector<double>& values, int d) {
  if (values.size() == 1) return std::vector<double>(static_cast<std::size_t>(d), values[0]);
  if (values.size() != static_cast<std::size_t>(d)) {
    throw std::invalid_argument("a kernel parameter has length " + std::to_string(values.size()) +
                                ", the data have dimension " + std::to_string(d));
  }
  return values;
}

}  // namespace askrff
