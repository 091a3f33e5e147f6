#include "pool_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <vector>

#if defined(CLOTH_BENCH_OPENMP)
#include <omp.h>
#endif

#include "cloth/sim/parallel.h"

namespace cloth::bench {
namespace {

using Clock = std::chrono::steady_clock;

template <class Loop>
double bestMicroseconds(int runs, int loops, Loop loop) {
  double best = 1e300;
  for (int r = 0; r < runs; ++r) {
    const auto start = Clock::now();
    for (int k = 0; k < loops; ++k) loop();
    best = std::min(best, std::chrono::duration<double, std::micro>(Clock::now() - start).count() / loops);
  }
  return best;
}

// x = 0.999 x + 0.001 y over n values: the shape of the solver's vector updates.
PoolRow updateRow(std::size_t n, int runs, int loops, sim::Workers& two) {
  std::vector<double> x(n, 1.0), y(n, 2.0);
  double* px = x.data();
  const double* py = y.data();
  const auto piece = [px, py](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) px[i] = 0.999 * px[i] + 0.001 * py[i];
  };
  PoolRow row{"x = 0.999 x + 0.001 y, " + std::to_string(n) + " values"};
  row.serialUs = bestMicroseconds(runs, loops, [&] { piece(0, n); });
  row.poolUs = bestMicroseconds(runs, loops, [&] { two.forRange(n, 256, piece); });
#if defined(CLOTH_BENCH_OPENMP)
  const auto count = static_cast<long>(n);
  row.openmpUs = bestMicroseconds(runs, loops, [&] {
#pragma omp parallel for num_threads(2) schedule(static)
    for (long i = 0; i < count; ++i) px[i] = 0.999 * px[i] + 0.001 * py[i];
  });
#endif
  return row;
}

// The same update with a serial pass over y after each loop, as a step's serial code between its
// parallel loops: each thread's half of x and y moves from core to core and back every loop. Where
// that costs more than the loop saves, the pool runs slower than one thread.
PoolRow updateBesideSerialRow(std::size_t n, int runs, int loops, sim::Workers& two) {
  std::vector<double> x(n, 1.0), y(n, 2.0);
  double* px = x.data();
  double* py = y.data();
  const auto piece = [px, py](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) px[i] = 0.999 * px[i] + 0.001 * py[i];
  };
  const auto serialPass = [px, py, n] {
    for (std::size_t i = 0; i < n; ++i) py[i] = 0.999999 * py[i] + 1e-9 * px[i];
  };
  PoolRow row{"the same, " + std::to_string(n) + " values, a serial pass between"};
  row.serialUs = bestMicroseconds(runs, loops, [&] {
    piece(0, n);
    serialPass();
  });
  row.poolUs = bestMicroseconds(runs, loops, [&] {
    two.forRange(n, 256, piece);
    serialPass();
  });
#if defined(CLOTH_BENCH_OPENMP)
  const auto count = static_cast<long>(n);
  row.openmpUs = bestMicroseconds(runs, loops, [&] {
#pragma omp parallel for num_threads(2) schedule(static)
    for (long i = 0; i < count; ++i) px[i] = 0.999 * px[i] + 0.001 * py[i];
    serialPass();
  });
#endif
  return row;
}

}  // namespace

std::vector<PoolRow> poolRows(bool quick) {
  const int runs = quick ? 1 : 3, loops = quick ? 2000 : 20000;
  sim::Workers two(2);
  std::atomic<long> sink{0};
  PoolRow empty{"an empty loop of two pieces"};
  empty.serialUs = 0;
  empty.poolUs = bestMicroseconds(runs, 10 * loops, [&] {
    two.forRange(2, 1, [&](std::size_t first, std::size_t last) {
      sink.fetch_add(static_cast<long>(last - first), std::memory_order_relaxed);
    });
  });
#if defined(CLOTH_BENCH_OPENMP)
  empty.openmpUs = bestMicroseconds(runs, 10 * loops, [&] {
#pragma omp parallel num_threads(2)
    sink.fetch_add(1, std::memory_order_relaxed);
  });
#endif
  // 12,288 values: a 64^2 cloth's nodes, three coordinates each.
  return {empty, updateRow(10'000, runs, loops, two), updateRow(40'000, runs, loops, two),
          updateRow(12'288, runs, loops, two), updateBesideSerialRow(12'288, runs, loops, two)};
}

}  // namespace cloth::bench
