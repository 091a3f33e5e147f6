#pragma once
// Parallel loops on a small pool of worker threads. The pool belongs to whoever runs the loops (a
// Simulation, a Refiner); there is no global one. A loop splits [0, count) into contiguous pieces,
// one per thread, and each index runs the same code whatever the split: a loop whose iterations write
// disjoint outputs gives the same answer on one thread as on two. Sums go through `parallelSum`,
// which adds fixed blocks of indices in a fixed order, so its result does not depend on the thread
// count either. A null `Workers*` runs everything on the caller's thread.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "cloth/sim/types.h"

namespace cloth::sim {

/// One turn of a busy wait: a pause instruction, and now and then a yield of the core to other
/// threads (a yield is a system call, a pause a few nanoseconds). For a thread that waits a few
/// microseconds for another.
class SpinWait {
 public:
  void pause();
  std::uint32_t count() const { return count_; }

 private:
  std::uint32_t count_ = 0;  // wraps after hours of waiting, harmlessly
};

class Workers {
 public:
  /// A pool of `threads` threads in all, the caller's included (0: one per core).
  explicit Workers(int threads = 0);
  ~Workers();
  /// A copy is a pool of its own, of the same size (a copied Simulation must not share threads).
  Workers(const Workers& other) : Workers(other.threads()) {}
  Workers& operator=(const Workers& other);

  int threads() const { return static_cast<int>(pool_.size()) + 1; }
  /// Resizes the pool (0: one per core). Call it between loops, never from inside one.
  void resize(int threads);

  /// Calls body(begin, end) on pieces covering [0, count), at most one per thread and none smaller
  /// than `grain` items, and returns when every piece is done. The caller runs the first piece.
  template <class Body>
  void forRange(std::size_t count, std::size_t grain, Body&& body) {
    const std::size_t pieces = pieceCount(count, grain);
    if (pieces <= 1) {
      if (count > 0) body(std::size_t(0), count);
      return;
    }
    using Callable = std::remove_reference_t<Body>;
    run({[](void* b, std::size_t begin, std::size_t end) { (*static_cast<Callable*>(b))(begin, end); },
         const_cast<void*>(static_cast<const void*>(&body)), count, pieces});
  }

  /// Calls body(begin, end, slot) on the consecutive chunks of `chunk` items that cover [0, count),
  /// each taken by whichever thread is free next (the caller's among them), and returns when every
  /// chunk is done: for loops whose items cost unevenly (contact tests crowd where the cloth folds),
  /// which forRange's one piece a thread leaves on one thread. `slot`, below threads(), is the
  /// running thread's own (for scratch it keeps from chunk to chunk). As there, each item's work
  /// must not depend on the thread that runs it.
  template <class Body>
  void forChunks(std::size_t count, std::size_t chunk, Body&& body) {
    chunk = std::max<std::size_t>(chunk, 1);
    const std::size_t chunks = (count + chunk - 1) / chunk;
    if (chunks <= 1 || threads() == 1) {
      if (count > 0) body(std::size_t(0), count, std::size_t(0));
      return;
    }
    using Callable = std::remove_reference_t<Body>;
    nextChunk_.store(0, std::memory_order_relaxed);
    Job job;
    job.callChunk = [](void* b, std::size_t begin, std::size_t end, std::size_t slot) {
      (*static_cast<Callable*>(b))(begin, end, slot);
    };
    job.body = const_cast<void*>(static_cast<const void*>(&body));
    job.count = count;
    job.pieces = static_cast<std::size_t>(threads());
    job.chunk = chunk;
    job.next = &nextChunk_;
    run(job);
  }

  static int coreCount();

 private:
  struct Job {
    void (*call)(void* body, std::size_t begin, std::size_t end) = nullptr;
    void* body = nullptr;
    std::size_t count = 0;
    std::size_t pieces = 0;
    /// forChunks': the body, items a chunk (0: forRange's one piece a thread), the next chunk to take
    void (*callChunk)(void* body, std::size_t begin, std::size_t end, std::size_t slot) = nullptr;
    std::size_t chunk = 0;
    std::atomic<std::size_t>* next = nullptr;
    void runPiece(std::size_t piece) const;
  };
  std::size_t pieceCount(std::size_t count, std::size_t grain) const;
  void run(const Job& job);
  void work(std::size_t piece, std::uint64_t seen);
  void start(int threads);
  void stop();

  std::vector<std::thread> pool_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::size_t> remaining_{0};
  std::atomic<bool> stopping_{false};
  std::atomic<int> sleepers_{0};         // pool threads asleep on wake_, or about to be
  std::atomic<bool> mainAsleep_{false};  // run()'s caller asleep on done_, or about to be
  Job job_;
  std::atomic<std::size_t> nextChunk_{0};
};

/// forRange on `workers`, or on the caller's thread alone when it is null.
template <class Body>
void parallelFor(Workers* workers, std::size_t count, std::size_t grain, Body&& body) {
  if (workers) {
    workers->forRange(count, grain, body);
  } else if (count > 0) {
    body(std::size_t(0), count);
  }
}

/// forChunks on `workers`, or on the caller's thread alone (slot 0) when it is null.
template <class Body>
void parallelChunks(Workers* workers, std::size_t count, std::size_t chunk, Body&& body) {
  if (workers) {
    workers->forChunks(count, chunk, body);
  } else if (count > 0) {
    body(std::size_t(0), count, std::size_t(0));
  }
}

/// The slots parallelChunks' bodies may be given: one per thread of `workers` (1 when null).
inline std::size_t chunkSlots(const Workers* workers) {
  return workers ? static_cast<std::size_t>(workers->threads()) : 1;
}

/// Loop grain for per-node and per-spring loops: a piece of fewer items is not worth a thread of its
/// own (loops split from 2 x 1,024 items: not at 32^2 nodes, at 48^2). From 2 x 4,096, the 64^2
/// ball's whole solve ran on one thread, 45 % of its step's wall time serial (perf, 2 threads).
inline constexpr std::size_t kNodeGrain = 1024;

/// Loop grain for loops that query a mesh collider per item (a walk of its tree, then triangles): a
/// few hundred such queries are worth a thread.
inline constexpr std::size_t kMeshQueryGrain = 256;

/// Indices per block of parallelSum: a sum over fewer is a plain serial sum (as kNodeGrain).
inline constexpr std::size_t kSumBlock = 1024;

/// The sum of term(begin, end) over consecutive blocks of `block` indices covering [0, count), added
/// in block order: the same number on any thread count. A term dearer than arithmetic (a mesh query
/// an index) pays a thread from smaller blocks (kMeshQueryGrain).
template <class Term>
Real parallelSum(Workers* workers, std::size_t count, std::size_t block, Term&& term) {
  const std::size_t blocks = (count + block - 1) / block;
  if (blocks <= 1) return count > 0 ? term(std::size_t(0), count) : Real(0);
  std::vector<Real> partial(blocks);
  parallelFor(workers, blocks, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b) partial[b] = term(b * block, std::min(count, (b + 1) * block));
  });
  Real sum = 0;
  for (Real p : partial) sum += p;
  return sum;
}

/// The largest of term(begin, end) over consecutive blocks of kSumBlock indices covering [0, count),
/// `none` if there are none: exact on any thread count (a maximum is not a sum).
template <class Term>
Real parallelMax(Workers* workers, std::size_t count, Real none, Term&& term) {
  const std::size_t blocks = (count + kSumBlock - 1) / kSumBlock;
  if (blocks <= 1) return count > 0 ? std::max(none, term(std::size_t(0), count)) : none;
  std::vector<Real> partial(blocks, none);
  parallelFor(workers, blocks, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b)
      partial[b] = term(b * kSumBlock, std::min(count, (b + 1) * kSumBlock));
  });
  return *std::max_element(partial.begin(), partial.end());
}

/// parallelSum over blocks of kSumBlock.
template <class Term>
Real parallelSum(Workers* workers, std::size_t count, Term&& term) {
  return parallelSum(workers, count, kSumBlock, term);
}

}  // namespace cloth::sim
