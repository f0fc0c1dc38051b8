#include "core/numerics/cpu_dispatch.h"

#include <algorithm>
#include <atomic>

namespace askrff {

namespace {

InstructionSet detect() {
#ifdef ASKRFF_X86_DISPATCH
  // libgcc's and compiler-rt's detection also check that the operating
  // system saves the AVX and AVX-512 registers.
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return InstructionSet::baseline;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl")) {
    return InstructionSet::avx512;
  }
  return InstructionSet::avx2;
#else
  return InstructionSet::baseline;
#endif
}

std::atomic<int>& active() {
  static std::atomic<int> set{static_cast<int>(detect())};
  return set;
}

}  // namespace

InstructionSet detected_instruction_set() {
  static const InstructionSet detected = detect();
  return detected;
}

InstructionSet active_instruction_set() { return static_cast<InstructionSet>(active().load()); }

InstructionSet use_instruction_set(InstructionSet wanted) {
  const int level = std::min(static_cast<int>(wanted), static_cast<int>(detected_instruction_set()));
  active().store(level);
  return static_cast<InstructionSet>(level);
}

const char* instruction_set_name(InstructionSet set) {
  switch (set) {
    case InstructionSet::avx512:
      return "avx512";
    case InstructionSet::avx2:
      return "avx2";
    default:
      return "baseline";
  }
}

}  // namespace askrff
