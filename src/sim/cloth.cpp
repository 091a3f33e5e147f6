#include "cloth/sim/cloth.h"

namespace cloth::sim {

Real Stiffness::of(SpringFamily f) const {
  switch (f) {
    case SpringFamily::Structural: return structural;
    case SpringFamily::Shear: return shear;
    case SpringFamily::Bending: return bending;
  }
  return 0;
}

}  // namespace cloth::sim
