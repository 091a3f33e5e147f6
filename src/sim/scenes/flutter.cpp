#include "cloth/sim/scenes/flutter.h"
#include "cloth/sim/geometry.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <numeric>

#include <glm/geometric.hpp>

namespace cloth::sim {

std::vector<Real> powerSpectrum(std::span<const Real> signal) {
  const std::size_t n = signal.size();
  if (n < 2) return {};
  const Real mean = std::accumulate(signal.begin(), signal.end(), Real(0)) / static_cast<Real>(n);
  std::vector<Real> power(n / 2 + 1, 0.0);
  for (std::size_t k = 1; k <= n / 2; ++k) {
    std::complex<Real> sum = 0;
    for (std::size_t t = 0; t < n; ++t)
      sum += (signal[t] - mean) * std::polar(Real(1), -2 * std::numbers::pi * Real(k * t % n) / Real(n));
    power[k] = std::norm(sum);
  }
  return power;
}

// The out-of-plane direction of the cloth at rest: the normal of its first triangle.
void FlutterRecorder::sample(const Cloth& cloth) {
  const Triangle& t = cloth.triangles.front();
  const Vec3& r0 = cloth.restX[t.v[0]];
  const Vec3 n = triangleNormal(r0, cloth.restX[t.v[1]], cloth.restX[t.v[2]], Vec3(0, 0, 1));
  signals_.resize(static_cast<std::size_t>(cloth.nv));
  for (int j = 0; j < cloth.nv; ++j)
    signals_[j].push_back(glm::dot(cloth.x[cloth.index(cloth.nu - 1, j)], n));
}

FlutterStats FlutterRecorder::stats(Real dt, Real cutoffHz) const {
  FlutterStats s;
  const std::size_t n = samples();
  if (n < 4) return s;
  std::vector<Real> total(n / 2 + 1, 0.0);
  for (const std::vector<Real>& signal : signals_) {
    const std::vector<Real> p = powerSpectrum(signal);
    for (std::size_t k = 1; k < p.size(); ++k) total[k] += p[k];
    const auto [lo, hi] = std::minmax_element(signal.begin(), signal.end());
    s.peakToPeak = std::max(s.peakToPeak, *hi - *lo);
  }
  s.seconds = static_cast<Real>(n) * dt;
  Real all = 0, below = 0;
  std::size_t peak = 1;
  for (std::size_t k = 1; k < total.size(); ++k) {
    const Real hz = static_cast<Real>(k) / s.seconds;
    all += total[k];
    if (hz < cutoffHz) below += total[k];
    if (total[k] > total[peak]) peak = k;
  }
  s.dominantHz = static_cast<Real>(peak) / s.seconds;
  s.powerBelow = all > 0 ? below / all : 0;
  s.power = std::move(total);
  return s;
}

void FlutterMonitor::afterStep(const Cloth& cloth, Real time, Real h, long long stepsDone) {
  if (h != h_) {  // a new step length: a new record
    reset();
    h_ = h;
    every_ = std::max(1LL, std::llround(kInterval / h));
  }
  if (time < kSettle || stepsDone % every_ != 0) return;
  if (static_cast<Real>(recorder_.samples() + 1) * static_cast<Real>(every_) * h_ > maxSeconds)
    recorder_ = {};
  recorder_.sample(cloth);
}

FlutterStats FlutterMonitor::stats() const {
  return recorder_.samples() >= 4 ? recorder_.stats(static_cast<Real>(every_) * h_) : FlutterStats{};
}

void FlutterMonitor::reset() {
  recorder_ = {};
  h_ = 0;
}

}  // namespace cloth::sim
