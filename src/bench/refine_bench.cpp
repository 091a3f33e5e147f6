#include "refine_bench.h"

#include "cloth/detail/names.h"
#include "cloth/detail/refiner.h"
#include "cloth/sim/scenes/scenes.h"

namespace cloth::bench {
namespace {

// A cloth with real folds: the ball scene at keyGrid^2 nodes after 1.5 s, resampled as `--set grid=`
// resamples it (the same cloth: mass and air per node scaled; with the 32^2 node mass at 100^2 the
// stretch limit's sweeps took 45 s of the quick run). Without self-collision, as the figures before
// it was on.
sim::Cloth drapedCloth(int keyGrid) {
  sim::Scene scene = *sim::findScene("ball");
  sim::resampleGrid(scene, keyGrid, keyGrid);
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
