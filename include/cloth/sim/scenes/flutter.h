#pragma once
// Measuring a flag's flutter (Kang Fig. 7): the spectrum of its free edge's out-of-plane motion.

#include <span>
#include <vector>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

struct FlutterStats {
  Real dominantHz = 0;      ///< frequency of the largest bin of the summed power spectra (Hz)
  Real powerBelow = 0;      ///< fraction of the spectral power (mean removed) below the cut-off
  Real peakToPeak = 0;      ///< largest peak-to-peak excursion of a free-edge node (m)
  Real seconds = 0;         ///< length of the record (s)
  std::vector<Real> power;  ///< the summed power spectrum, bin k (k >= 1) at k / seconds Hz
};

/// Records the out-of-plane coordinate (rest normal direction) of the free edge (the last key column)
/// of a grid cloth, one sample per call.
class FlutterRecorder {
 public:
  void sample(const Cloth& cloth);
  /// The spectrum of the samples, taken dt apart (s): each free-edge node's signal has its mean
  /// removed, the nodes' power spectra are summed, `cutoffHz` splits low from high frequencies.
  FlutterStats stats(Real dt, Real cutoffHz = 20) const;
  std::size_t samples() const { return signals_.empty() ? 0 : signals_.front().size(); }

 private:
  std::vector<std::vector<Real>> signals_;  ///< one per free-edge node
};

/// A flag's flutter as clothsim --stats and the viewer's Plots panel measure it: the free edge every
/// 5 ms (or every step, if longer) from a 1 s settle on, for at most `maxSeconds` (then it starts over).
class FlutterMonitor {
 public:
  static constexpr Real kSettle = 1.0;      ///< s of simulated time before the first sample
  static constexpr Real kInterval = 0.005;  ///< s between samples, at the least one step

  /// After each step; `stepsDone` counts the steps of length h since the simulation started.
  void afterStep(const Cloth& cloth, Real time, Real h, long long stepsDone);
  /// The spectrum of the record so far.
  FlutterStats stats() const;
  std::size_t samples() const { return recorder_.samples(); }
  void reset();
  Real maxSeconds = 1e9;

 private:
  FlutterRecorder recorder_;
  Real h_ = 0;
  long long every_ = 1;
};

/// Power spectrum |X_k|^2 (k = 1 ... n / 2) of a signal with its mean removed, by direct DFT.
std::vector<Real> powerSpectrum(std::span<const Real> signal);

}  // namespace cloth::sim
