// Which instruction set the core's dense kernels run on. Each such kernel is
// compiled once per instruction set, through GCC and Clang's target
// attribute on the functions that enter it (no build flag, so the library
// stays portable), and chosen at run time by what the CPU offers; the
// baseline path (SSE2 on x86-64, the compiler's default elsewhere) runs
// everywhere. use_instruction_set() lowers the path, so tests can compare
// paths; it never raises it above what the CPU supports.
#pragma once

namespace askrff {

enum class InstructionSet { baseline = 0, avx2 = 1, avx512 = 2 };

// The best path this CPU and this build support.
InstructionSet detected_instruction_set();

// The path in force, detected_instruction_set() unless lowered.
InstructionSet active_instruction_set();

// Asks for `wanted`, lowered to what is detected; returns the path in force.
InstructionSet use_instruction_set(InstructionSet wanted);

// "baseline", "avx2" or "avx512".
const char* instruction_set_name(InstructionSet set);

}  // namespace askrff

// The attributes of the functions that enter each path's kernels; the
// kernels themselves are force-inlined templates (ASKRFF_INLINE), compiled
// into each entry point with its instruction set.
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define ASKRFF_X86_DISPATCH 1
#define ASKRFF_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define ASKRFF_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))
#endif
