#include "cloth/sim/parallel.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cloth::sim {
namespace {

// How long a waiting thread spins before it sleeps: a step starts dozens of short loops in a row,
// and waking a sleeping thread costs about as much as a whole loop over a 100^2 grid.
constexpr auto kSpinTime = std::chrono::microseconds(2000);
// Pauses between two yields of a spinning thread (a pause is about 20 ns here, 20 us in all), so that
// another busy process (a second test, the renderer) gets the core meanwhile. A yield is a system
// call (1.3 us on this machine): yielding every 64 pauses, a waiting thread spent half its time in
// them, and a loop posted meanwhile started that much late.
constexpr int kPausesPerYield = 1024;

// Spins while `waiting()` holds, for at most kSpinTime; returns whether it still holds.
template <class Waiting>
bool spinWhile(Waiting waiting) {
  const auto until = std::chrono::steady_clock::now() + kSpinTime;
  SpinWait spin;
  while (waiting()) {
    spin.pause();
    if (spin.count() % 64 == 0 && std::chrono::steady_clock::now() > until) return true;
  }
  return false;
}

}  // namespace

void SpinWait::pause() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
  if (++count_ % kPausesPerYield == 0) std::this_thread::yield();
#else
  ++count_;
  std::this_thread::yield();
#endif
}

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
  stopping_.store(false, std::memory_order_relaxed);
  // A thread waits for the generation after the one current now, even if it starts late.
  const std::uint64_t now = generation_.load(std::memory_order_acquire);
  for (int i = 1; i < wanted; ++i)
    pool_.emplace_back([this, i, now] { work(static_cast<std::size_t>(i), now); });
}

void Workers::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_.store(true, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_seq_cst);
    wake_.notify_all();
  }
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

// The hand-off takes no lock while both threads spin: a thread about to sleep counts itself
// (sleepers_, mainAsleep_) under the mutex and then checks its condition once more, and the thread
// that changes the condition checks the count after changing it. Both are sequentially consistent,
// so at least one of the two sees the other: the sleeper wakes, or it does not go to sleep.
void Workers::run(const Job& job) {
  job_ = job;
  remaining_.store(pool_.size(), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard lock(mutex_);
    wake_.notify_all();
  }
  job.runPiece(0);
  if (spinWhile([this] { return remaining_.load(std::memory_order_acquire) > 0; })) {
    std::unique_lock lock(mutex_);
    mainAsleep_.store(true, std::memory_order_seq_cst);
    done_.wait(lock, [this] { return remaining_.load(std::memory_order_seq_cst) == 0; });
    mainAsleep_.store(false, std::memory_order_relaxed);
  }
}

// A pool thread: waits for the next loop (spinning first, then asleep), runs its piece, reports.
void Workers::work(std::size_t piece, std::uint64_t seen) {
  for (;;) {
    if (spinWhile([&] { return generation_.load(std::memory_order_acquire) == seen; })) {
      std::unique_lock lock(mutex_);
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      wake_.wait(lock, [&] { return generation_.load(std::memory_order_seq_cst) != seen; });
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }
    seen = generation_.load(std::memory_order_acquire);
    if (stopping_.load(std::memory_order_acquire)) return;
    job_.runPiece(piece);
    if (remaining_.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
        mainAsleep_.load(std::memory_order_seq_cst)) {
      std::lock_guard lock(mutex_);
      done_.notify_one();
    }
  }
}

}  // namespace cloth::sim
