#include "harness.h"

#include <algorithm>

namespace cloth::bench {

double median(std::vector<double>& values) {
  if (values.empty()) return 0;
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (values.size() % 2 == 1) return *mid;
  return 0.5 * (*mid + *std::max_element(values.begin(), mid));
}

Timing measure(const std::function<void()>& body, int runs, int warmup) {
  return measure([] {}, body, runs, warmup);
}

Timing measure(const std::function<void()>& setup, const std::function<void()>& body, int runs, int warmup) {
  for (int i = 0; i < warmup; ++i) setup(), body();
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    setup();
    const auto start = std::chrono::steady_clock::now();
    body();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  Timing t;
  t.runs = runs;
  t.minMs = ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end());
  t.medianMs = median(ms);
  return t;
}

}  // namespace cloth::bench
