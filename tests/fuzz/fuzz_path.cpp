// libFuzzer target: collider paths as given to --collider-path (I:T,X,Y,Z[,RX,RY,RZ]/...). A refused
// path says why and changes nothing; an accepted one puts its collider at finite places, turned by a
// rotation (orthonormal), at any time.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include "cloth/sim/collision/collider.h"
#include "cloth/sim/scenes/scenes.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cloth::sim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Scene scene = *findScene("drape");  // a mesh and a plane
  const Scene before = scene;
  const std::string error = setColliderPath(scene, text);
  if (!error.empty()) {
    for (std::size_t i = 0; i < scene.colliders.size(); ++i)
      if (!sameCollider(scene.colliders[i], before.colliders[i])) std::abort();
    return 0;
  }
  for (const Collider& c : scene.colliders) {
    if (!pathProblem(c.path).empty()) std::abort();
    if (c.path.empty()) continue;
    for (const Real t : {-1.0, 0.0, 0.37, 1.0, 5.5, 1e6}) {
      const Vec3 offset = c.path.offsetAt(t);
      const Mat3 r = c.path.rotationAt(t);
      const Mat3 e = glm::transpose(r) * r - Mat3(1);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          if (!(std::abs(e[i][j]) < 1e-9)) std::abort();
      if (!std::isfinite(offset.x) || !std::isfinite(offset.y) || !std::isfinite(offset.z)) std::abort();
    }
  }
  return 0;
}
