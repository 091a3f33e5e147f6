#include "cloth/sim/solve/bdf2.h"

#include <algorithm>

namespace cloth::sim {

bool Bdf2History::continues(const Cloth& cloth, Real h) const {
  return ended_ && h == h_ && x_.size() == cloth.x.size() &&
         std::equal(xEnd_.begin(), xEnd_.end(), cloth.x.begin()) &&
         std::equal(vEnd_.begin(), vEnd_.end(), cloth.v.begin());
}

void Bdf2History::lags(const Cloth& cloth, std::vector<Vec3>& dx, std::vector<Vec3>& dv) const {
  dx.resize(cloth.x.size());
  dv.resize(cloth.v.size());
  for (std::size_t i = 0; i < dx.size(); ++i) {
    const bool moved = xUpdated_.size() == dx.size() && xUpdated_[i] != xEnd_[i];
    dx[i] = moved ? h_ * cloth.v[i] : cloth.x[i] - x_[i];
    dv[i] = moved ? Vec3(0) : cloth.v[i] - v_[i];
  }
}

void Bdf2History::start(const Cloth& cloth, Real h) {
  x_ = cloth.x;
  v_ = cloth.v;
  h_ = h;
  xUpdated_.clear();
  ended_ = false;
}

void Bdf2History::updated(const Cloth& cloth) {
  xUpdated_ = cloth.x;
}

void Bdf2History::end(const Cloth& cloth) {
  xEnd_ = cloth.x;
  vEnd_ = cloth.v;
  ended_ = x_.size() == cloth.x.size();
}

void Bdf2History::clear() {
  ended_ = false;
}

void applyBdf2Step(Cloth& cloth, std::span<const Vec3> dv, std::span<const Vec3> positionLag, Real h,
                   Workers* workers) {
  const Real beta = 2 * h / 3;
  parallelFor(workers, cloth.x.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      if (cloth.kind[i] != NodeKind::Free) {
        cloth.x[i] += h * cloth.v[i];
        continue;
      }
      cloth.v[i] += dv[i];
      cloth.x[i] += positionLag[i] / Real(3) + beta * cloth.v[i];
    }
  });
}

}  // namespace cloth::sim
