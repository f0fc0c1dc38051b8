// Long loops on the main thread call a Poll now and then, so that the glue
// can check for a user interrupt (an exception unwinds the core); the core
// itself knows nothing of R.
#pragma once
#include <functional>

namespace askrff {

using Poll = std::function<void()>;

inline void no_poll() {}

}  // namespace askrff
