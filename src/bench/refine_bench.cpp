#include "refine_bench.h"

#include "cloth/detail/names.h"
#include "cloth/detail/refiner.h"
#include "cloth/sim/scenes/scenes.h"

namespace cloth::bench {
namespace {

// A cloth with real folds: the ball scene at keyGrid^2 nodes after 1.5 s. Without self-collision, as
// the figures before it was on (a 100^2 cloth takes 11 s a simulated second with it).
sim::Cloth drapedCloth(int keyGrid) {
  sim::Scene scene = *sim::findScene("ball");
  scene.grid.nu = scene.grid.nv = keyGrid;
  scene.params.collision.selfCollision = false;
  sim::Simulation s = sim::instantiate(scene);
  while (s.time() < 1.5) s.step();
  return s.cloth();
}

}  // namespace

std::vector<RefineResult> benchmarkRefinement(int keyGrid, int refine, int runs, int threads) {
  const sim::Cloth cloth = drapedCloth(keyGrid);
  std::vector<RefineResult> results;
  for (detail::DetailMode mode : {detail::DetailMode::Key, detail::DetailMode::Spline,
                                  detail::DetailMode::Wrinkled, detail::DetailMode::Hadap}) {
    detail::DetailSettings settings;
    settings.mode = mode;
    settings.refine = refine;
    detail::Refiner refiner;
    refiner.setThreads(threads);
    detail::SurfaceMesh mesh;
    const Timing t = measure([&] { refiner.refine(cloth, settings, 0, mesh); }, runs);
    results.push_back({std::string(detail::name(mode)), keyGrid * keyGrid, refine,
                       static_cast<int>(mesh.vertexCount()), t});
  }
  // Hadap modulation alone: what Hadap mode adds on top of the spline surface.
  detail::DetailSettings settings;
  settings.refine = refine;
  settings.mode = detail::DetailMode::Spline;
  detail::Refiner refiner;
  refiner.setThreads(threads);
  detail::SurfaceMesh mesh;
  refiner.refine(cloth, settings, 0, mesh);
  const Timing t = measure([&] { refiner.modulate(cloth, settings.hadap, 0, mesh); }, runs);
  results.push_back({"hadap-modulation", keyGrid * keyGrid, refine, static_cast<int>(mesh.vertexCount()), t});
  return results;
}

}  // namespace cloth::bench
