#pragma once
// A small benchmark harness: warm-up, repeated timed runs, medians.

#include <chrono>
#include <functional>
#include <vector>

namespace cloth::bench {

struct Timing {
  double medianMs = 0;
  double minMs = 0;
  int runs = 0;
};

/// Runs `body` `warmup` times untimed, then `runs` times, and reports the median and minimum.
Timing measure(const std::function<void()>& body, int runs, int warmup = 3);

/// The same with `setup` run untimed before every run of `body` (warm-up runs included).
Timing measure(const std::function<void()>& setup, const std::function<void()>& body, int runs,
               int warmup = 3);

/// Median of a set of values (the input is reordered).
double median(std::vector<double>& values);

}  // namespace cloth::bench
