#include "cloth/sim/parallel.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cloth::sim {
namespace {

// How long a waiting thread spins before it sleeps: a step starts dozens of short loops in a row,
// and waking a sleeping thread costs about as much as a whole loop over a 100^2 grid. It yields now
// and then, so that another busy process (a second test, the renderer) gets the core meanwhile.
constexpr auto kSpinTime = std::chrono::microseconds(2000);

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins while `waiting()` holds, for at most kSpinTime; returns whether it still holds.
template <class Waiting>
bool spinWhile(Waiting waiting) {
  const auto until = std::chrono::steady_clock::now() + kSpinTime;
  for (int i = 1; waiting(); ++i) {
    relax();
    if (i % 64 != 0) continue;
    if (std::chrono::steady_clock::now() > until) return true;
    std::this_thread::yield();
  }
  return false;
}

}  // namespace

Workers::Workers(int threads) {
  start(threads);
}

Workers::~Workers() {
  stop();
}

Workers& Workers::operator=(const Workers& other) {
  if (this != &other) resize(other.threads());
  return *this;
}

int Workers::coreCount() {
  // Asking the system costs a system call or two: every step asks, so ask once.
  static const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return cores;
}

void Workers::resize(int threads) {
  const int wanted = threads > 0 ? threads : coreCount();
  if (wanted == this->threads()) return;
  stop();
  start(wanted);
}

void Workers::start(int threads) {
  const int wanted = threads > 0 ? threads : coreCount();
  stopping_ = false;
  // A thread waits for the generation after the one current now, even if it starts late.
  const std::uint64_t now = generation_.load(std::memory_order_acquire);
  for (int i = 1; i < wanted; ++i)
    pool_.emplace_back([this, i, now] { work(static_cast<std::size_t>(i), now); });
}

void Workers::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& t : pool_) t.join();
  pool_.clear();
}

std::size_t Workers::pieceCount(std::size_t count, std::size_t grain) const {
  const std::size_t byGrain = count / std::max<std::size_t>(grain, 1);
  return std::min<std::size_t>(static_cast<std::size_t>(threads()), std::max<std::size_t>(byGrain, 1));
}

void Workers::Job::runPiece(std::size_t piece) const {
  if (piece >= pieces) return;
  if (chunk == 0) {
    const std::size_t begin = count * piece / pieces, end = count * (piece + 1) / pieces;
    call(body, begin, end);
    return;
  }
  for (;;) {  // forChunks: take the next chunk while any is left
    const std::size_t begin = next->fetch_add(1, std::memory_order_relaxed) * chunk;
    if (begin >= count) return;
    callChunk(body, begin, std::min(count, begin + chunk), piece);
  }
}

void Workers::run(const Job& job) {
  job_ = job;
  remaining_.store(pool_.size(), std::memory_order_relaxed);
  {
    std::lock_guard lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  job.runPiece(0);
  if (spinWhile([this] { return remaining_.load(std::memory_order_acquire) > 0; })) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return remaining_.load(std::memory_order_acquire) == 0; });
  }
}

// A pool thread: waits for the next loop (spinning first, then asleep), runs its piece, reports.
void Workers::work(std::size_t piece, std::uint64_t seen) {
  for (;;) {
    spinWhile([&] { return generation_.load(std::memory_order_acquire) == seen; });
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      if (stopping_) return;
      seen = generation_.load(std::memory_order_acquire);
    }
    job_.runPiece(piece);
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard lock(mutex_);
      done_.notify_one();
    }
  }
}

}  // namespace cloth::sim
