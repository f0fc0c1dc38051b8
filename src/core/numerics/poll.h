// Long loops on the main thread call a Poll now and then, so that the glue
// can check for a user interrupt (an exception unwinds the core), and may
// report the fraction of their work done, in [0, 1] and increasing, to a
// Progress; the core itself knows nothing of R.
#pragma once
#include <functional>

namespace askrff {

using Poll = std::function<void()>;

inline void no_poll() {}

using Progress = std::function<void(double)>;

inline void no_progress(double) {}

}  // namespace askrff
