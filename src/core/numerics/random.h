// Random streams for the core. A stream is keyed by (seed, part, block), never
// by thread, so a sampled map is identical for any number of threads.
#pragma once
#include <cmath>
#include <cstdint>

namespace askrff {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// xoshiro256++ (Blackman and Vigna), seeded through splitmix64 so that nearby
// keys give unrelated streams.
class Stream {
 public:
  Stream(std::uint64_t seed, std::uint64_t part, std::uint64_t block) {
    std::uint64_t mix = seed;
    std::uint64_t key = splitmix64(mix) ^ (part * 0xD1B54A32D192ED03ULL);
    key = splitmix64(key) ^ (block * 0xABC98388FB8FAC03ULL);
    for (auto& word : s_) word = splitmix64(key);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform on the open interval (0, 1): safe for log() and tan().
  double uniform() { return open_unit(next()); }

  // (k + 1/2) 2^-53 for the top 53 bits k, in [2^-54, 1 - 2^-53]: for the
  // largest k, k + 1/2 rounds to 2^53, and that one value is kept below 1
  // (-log(1) = 0 would make the stable law's draws infinite).
  static constexpr double open_unit(std::uint64_t bits) {
    const double u = (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53;
    return u < 1.0 ? u : 1.0 - 0x1.0p-53;
  }

  // Standard normal by the Marsaglia polar method (own code, not <random>, so
  // streams are identical across compilers and platforms).
  double normal() {
    double u, v, s;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * std::sqrt(-2.0 * std::log(s) / s);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

static_assert(Stream::open_unit(~std::uint64_t{0}) < 1.0 && Stream::open_unit(0) > 0.0,
              "uniforms stay inside (0, 1)");

}  // namespace askrff
