#include "cloth/sim/cloth.h"

namespace cloth::sim {

Real Stiffness::of(SpringFamily f) const {
  switch (f) {
    case SpringFamily::Structural:
      return structural;
    case SpringFamily::Shear:
      return shear;
    case SpringFamily::Bending:
      return bending;
  }
  return 0;
}

void advancePositions(Cloth& cloth, Real h) {
  for (std::size_t i = 0; i < cloth.x.size(); ++i) cloth.x[i] += h * cloth.v[i];
}

Real keySpacing(const Cloth& cloth) {
  const auto structural = cloth.springsOf(SpringFamily::Structural);
  return structural.empty() ? 0 : structural.front().rest;
}

}  // namespace cloth::sim
