#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "cloth/sim/collision/mesh_shapes.h"
#include "cloth/sim/forces.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/grid_normals.h"
#include "cloth/sim/names.h"
#include "cloth/sim/parallel.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/simulation.h"
#include "cloth/sim/solve/approx_implicit.h"
#include "cloth/sim/solve/multigrid.h"
#include "cloth/sim/spring_incidence.h"
#include "cloth/sim/wind.h"
#include "test_helpers.h"

using namespace cloth::sim;

TEST_CASE("parallel: forRange covers every index once, in at most one piece per thread") {
  for (int threads : {1, 2, 3, 7}) {
    Workers workers(threads);
    CHECK(workers.threads() == threads);
    for (std::size_t count : {0u, 1u, 5u, 999u, 100000u}) {
      std::vector<int> hits(count, 0);
      std::atomic<int> pieces{0};
      workers.forRange(count, 16, [&](std::size_t first, std::size_t last) {
        ++pieces;
        for (std::size_t i = first; i < last; ++i) ++hits[i];
      });
      INFO(threads << " threads, " << count << " items");
      CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
      CHECK(pieces <= threads);
      if (count >= 16u * static_cast<unsigned>(threads)) CHECK(pieces == threads);
    }
  }
}

TEST_CASE("parallel: forChunks runs every chunk once, on each thread's own slot, whichever thread is free") {
  for (int threads : {1, 2, 3}) {
    Workers workers(threads);
    for (std::size_t count : {0u, 1u, 7u, 1000u, 4099u}) {
      for (std::size_t chunk : {1u, 16u, 256u}) {
        std::vector<int> hits(count, 0);
        std::vector<std::atomic<int>> inSlot(static_cast<std::size_t>(threads));  // bodies running in it
        std::atomic<bool> shared{false};
        std::atomic<int> calls{0};
        workers.forChunks(count, chunk, [&](std::size_t first, std::size_t last, std::size_t slot) {
          REQUIRE(slot < static_cast<std::size_t>(threads));
          if (inSlot[slot]++ > 0) shared = true;  // two threads given the same slot at once
          ++calls;
          CHECK((last - first <= chunk || (threads == 1 || count <= chunk)));
          for (std::size_t i = first; i < last; ++i) ++hits[i];
          --inSlot[slot];
        });
        INFO(threads << " threads, " << count << " items, chunks of " << chunk);
        CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
        CHECK_FALSE(shared);
        if (threads > 1 && count > chunk) CHECK(calls == static_cast<int>((count + chunk - 1) / chunk));
      }
    }
  }
}

TEST_CASE("parallel: a copied pool is a pool of its own, and a resized one still runs every piece") {
  Workers a(2);
  Workers b = a;
  b.resize(3);
  CHECK(a.threads() == 2);
  CHECK(b.threads() == 3);
  b.resize(0);
  CHECK(b.threads() == Workers::coreCount());
  for (int round = 0; round < 200; ++round) {  // a thread that starts late must not miss a loop
    Workers fresh(2);
    std::atomic<int> sum{0};
    fresh.forRange(64, 1,
                   [&](std::size_t first, std::size_t last) { sum += static_cast<int>(last - first); });
    REQUIRE(sum == 64);
  }
}

// The hand-off between the caller and the pool takes no lock while both spin; a thread sleeps after
// 2 ms of waiting. Loops posted to a sleeping pool, a caller that sleeps while a piece runs long, and
// many loops in a row must each run every piece once (a lost wake-up hangs here).
TEST_CASE("parallel: a pool wakes from sleep for the next loop, and its caller sleeps through a long piece") {
  for (int threads : {2, 3}) {
    Workers workers(threads);
    std::atomic<int> sum{0};
    const auto count = [&](std::size_t first, std::size_t last) { sum += static_cast<int>(last - first); };
    for (int round = 0; round < 3; ++round) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past the spin: the pool sleeps
      sum = 0;
      workers.forRange(64, 1, count);
      REQUIRE(sum == 64);
    }
    sum = 0;
    workers.forRange(2, 1, [&](std::size_t first, std::size_t last) {
      if (first > 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the caller sleeps
      sum += static_cast<int>(last - first);
    });
    REQUIRE(sum == 2);
    for (int loop = 0; loop < 20000; ++loop) {
      sum = 0;
      workers.forRange(64, 1, count);
      REQUIRE(sum == 64);
    }
  }
}

TEST_CASE("parallel: parallelSum gives the same bits on any thread count") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<Real> values(3 * kSumBlock + 17);
  for (Real& v : values) v = u(rng) * 1e6;
  const auto term = [&](std::size_t first, std::size_t last) {
    return std::accumulate(values.begin() + first, values.begin() + last, Real(0));
  };
  const Real serial = parallelSum(nullptr, values.size(), term);
  for (int threads : {1, 2, 3}) {
    Workers workers(threads);
    CHECK(parallelSum(&workers, values.size(), term) == serial);
  }
  CHECK(serial == Approx(std::accumulate(values.begin(), values.end(), Real(0))).margin(1e-3));
}

TEST_CASE("parallel: parallelMax finds the largest block's largest, the same on any thread count") {
  std::mt19937 rng(6);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<Real> values(3 * kSumBlock + 17);
  for (Real& v : values) v = u(rng);
  values[2 * kSumBlock + 5] = 7;  // in the third block
  const auto term = [&](std::size_t first, std::size_t last) {
    return *std::max_element(values.begin() + first, values.begin() + last);
  };
  CHECK(parallelMax(nullptr, values.size(), Real(-2), term) == 7);
  for (int threads : {1, 2, 3}) {
    Workers workers(threads);
    CHECK(parallelMax(&workers, values.size(), Real(-2), term) == 7);
    CHECK(parallelMax(&workers, 0, Real(-2), term) == -2);  // none: `none`
    CHECK(parallelMax(&workers, 10, Real(5), term) == 5);   // `none` is a floor too
  }
}

TEST_CASE("parallel: the prolongation added in place is multiply then add, bit for bit, on 1 and 2 threads") {
  // Multigrid::correct adds P x_coarse to the fine x in one pass over the fine rows.
  int coarseNu = 0, coarseNv = 0;
  const SparseMatrix p = bilinearProlongation(65, 64, std::vector<bool>(65 * 64, false), coarseNu, coarseNv);
  std::mt19937 rng(13);
  std::vector<Vec3> coarse(static_cast<std::size_t>(p.cols)), fine(static_cast<std::size_t>(p.rows));
  for (Vec3& v : coarse) v = test::randomUnit(rng);
  for (Vec3& v : fine) v = test::randomUnit(rng);
  std::vector<Vec3> product(fine.size()), expected = fine;
  multiply(p, coarse, product);
  for (std::size_t i = 0; i < fine.size(); ++i) expected[i] += product[i];
  for (int threads : {1, 2}) {
    Workers workers(threads);
    std::vector<Vec3> added = fine, restricted(coarse.size()), restrictedSerial(coarse.size());
    addProduct(p, coarse, added, &workers);
    CHECK(added == expected);
    const SparseMatrix pt = transpose(p);
    multiply(pt, fine, restricted, &workers, 256);  // the restriction's grain
    multiply(pt, fine, restrictedSerial);
    CHECK(restricted == restrictedSerial);
  }
}

TEST_CASE("parallel: gathering spring terms per node sums what the scatter over springs does, bit for bit") {
  Cloth c = buildGrid(GridSpec::fromSpacing(41, 37, 0.02), 1e-3);
  test::jitter(c, 0.005, 2);
  std::vector<Vec3> term(c.springs.size());
  std::mt19937 rng(3);
  for (Vec3& t : term) t = test::randomUnit(rng);
  std::vector<Vec3> scattered(c.nodeCount(), Vec3(0.5));
  for (std::size_t s = 0; s < c.springs.size(); ++s) {
    scattered[c.springs[s].a] += term[s];
    scattered[c.springs[s].b] -= term[s];
  }
  const SpringIncidence incidence = springIncidence(c);
  std::vector<Vec3> gathered(c.nodeCount());
  for (std::size_t i = 0; i < gathered.size(); ++i)
    gathered[i] = springTermSum(incidence, term, i, Vec3(0.5));
  CHECK(gathered == scattered);
}

TEST_CASE("parallel: the forces on two threads are the readable add* functions' bit for bit") {
  Scene flag = *findScene("flag");
  Cloth c = buildGrid(GridSpec::fromSpacing(70, 70, 0.01), 1e-3);
  test::jitter(c, 0.003, 4);
  for (Vec3& v : c.v) v = Vec3(0.3, -0.2, 0.1);
  SimParams p = flag.params;
  p.material.airDamping = 0.01;
  ForceWork work;
  std::vector<Vec3> readable(c.nodeCount(), Vec3(0)), normals(c.nodeCount());
  addSpringForces(c, stiffnessOf(p.material), readable);
  addGravity(c.mass, p.gravity, readable);
  addAirDamping(c.v, p.material.airDamping, readable);
  gridNormals<Vec3>(c.nu, c.nv, c.x, normals);
  addWindForces(p.wind, windVelocityAt(p.wind, 0.5), c.v, normals, nodeAreaShares(c), readable);
  Workers two(2);
  std::vector<Vec3> fast(c.nodeCount());
  computeForces(c, p, 0.5, work, fast, &two);
  CHECK(fast == readable);
}

TEST_CASE("parallel: block Gauss-Seidel is Gauss-Seidel within a block and still smooths across blocks") {
  Cloth c = buildGrid(GridSpec::fromSpacing(110, 100, 0.01), 1e-3);
  SpringGraph g;
  g.build(c, Stiffness{400, 100, 10});
  const SparseMatrix a = implicitMatrix(c, g, 1.0 / 60, 0);
  REQUIRE(a.rows > 2 * kGaussSeidelBlock);
  const std::vector<Real> inv = inverseDiagonal(a);
  std::mt19937 rng(9);
  std::vector<Vec3> b(c.nodeCount());
  for (Vec3& v : b) v = test::randomUnit(rng);
  std::vector<Vec3> before, x1(b.size(), Vec3(0)), x2(b.size(), Vec3(0)), r(b.size());
  Workers one(1), two(2);
  for (bool forward : {true, false}) {
    blockGaussSeidel(a, inv, b, x1, forward, before, &one);
    blockGaussSeidel(a, inv, b, x2, forward, before, &two);
    CHECK(x1 == x2);
  }
  // Inside the first block a row saw only its own block's newest values: the serial sweep's.
  std::vector<Vec3> serial(b.size(), Vec3(0));
  gaussSeidel(a, inv, b, serial, true);
  CHECK(serial[100] == [&] {
    std::vector<Vec3> y(b.size(), Vec3(0));
    blockGaussSeidel(a, inv, b, y, true, before, &two);
    return y[100];
  }());
  std::vector<Vec3> zero(b.size(), Vec3(0));
  CHECK(residual(a, b, x1, r) < 0.5 * residual(a, b, zero, r));
}

TEST_CASE(
    "parallel: block Gauss-Seidel with its blocks known gives the readable sweep's x bit for bit, on a "
    "grid's "
    "matrix and its Galerkin coarse one, on 1 and 2 threads") {
  // The multigrid's smoother (multigrid.cpp) copies only the columns read across blocks and lets the
  // rows inside a block read x directly; blockGaussSeidel without the blocks is the reference.
  Cloth c = buildGrid(GridSpec::fromSpacing(130, 110, 0.01), 1e-3);
  SpringGraph g;
  g.build(c, Stiffness{400, 100, 10});
  const SparseMatrix fine = implicitMatrix(c, g, 1.0 / 60, 0);
  int coarseNu = 0, coarseNv = 0;
  const SparseMatrix p =
      bilinearProlongation(c.nu, c.nv, std::vector<bool>(c.nodeCount(), false), coarseNu, coarseNv);
  const SparseMatrix coarse = galerkin(fine, p);
  std::mt19937 rng(12);
  int crossingRows = 0;
  for (const SparseMatrix* a : {&fine, &coarse}) {
    REQUIRE(a->rows > 2 * kGaussSeidelBlock);
    const GaussSeidelBlocks blocks = gaussSeidelBlocks(*a);
    crossingRows += static_cast<int>(std::count(blocks.inside.begin(), blocks.inside.end(), 0));
    CHECK(blocks.crossing.size() < static_cast<std::size_t>(a->rows) / 2);  // a halo, not the whole x
    const std::vector<Real> inv = inverseDiagonal(*a);
    std::vector<Vec3> b(static_cast<std::size_t>(a->rows));
    for (Vec3& v : b) v = test::randomUnit(rng);
    std::vector<Vec3> readable(b.size(), Vec3(0)), known(b.size(), Vec3(0)), split(b.size(), Vec3(0));
    std::vector<Vec3> before, knownBefore, splitBefore;  // each its own: none sees another's copy
    Workers one(1), two(2);
    for (int sweep = 0; sweep < 4; ++sweep) {
      const bool forward = sweep % 2 == 0;
      blockGaussSeidel(*a, inv, b, readable, forward, before, &one);
      blockGaussSeidel(*a, blocks, inv, b, known, forward, knownBefore, &one);
      blockGaussSeidel(*a, blocks, inv, b, split, forward, splitBefore, &two);
      CHECK(known == readable);
      CHECK(split == readable);
    }
  }
  CHECK(crossingRows > 200);  // both kinds of row were swept
}

TEST_CASE(
    "parallel: a 100^2 flag, curtain (backward Euler and BDF2), Kang multigrid and Kang eq. 10 run give the "
    "same state on one thread and two") {
  const auto runOn = [](Scene scene, int threads) {
    scene.grid.nu = scene.grid.nv = 100;
    scene.params.solver.threads = threads;
    scene.params.collision.selfCollision = false;  // the solver's loops here; self_impacts_test has its own
    Simulation sim = instantiate(scene);
    for (int i = 0; i < 12; ++i) sim.step();
    return sim.cloth().x;
  };
  Scene kang = *findScene("hang-vertical");
  kang.params.solver.integrator = Integrator::ApproxImplicit;
  kang.params.solver.solver = LinearSolver::Multigrid;
  kang.params.solver.h = 1.0 / 60;
  // The flag in one implicit-cg step a frame (its default's small steps: small_steps_test).
  Scene flag = *findScene("flag");
  flag.params.solver.integrator = Integrator::ImplicitCG;
  Scene bdf2 = *findScene("hang-vertical");
  bdf2.params.solver.scheme = ImplicitScheme::Bdf2;
  for (const Scene& scene : {flag, *findScene("hang-vertical"), kang, *findScene("waving-flag"), bdf2}) {
    INFO(scene.name << " " << name(scene.params.solver.integrator));
    const std::vector<Vec3> one = runOn(scene, 1), two = runOn(scene, 2);
    CHECK(one == two);
    CHECK(runOn(scene, 3) == one);
  }
}

TEST_CASE("parallel: mesh contacts and the feature search give the same cloth on one thread, two and three") {
  // A 64^2 cloth dropped onto a mesh of 144 small boxes (2,880 sharp corners and edges, the
  // features): the mesh contacts split over the nodes, the feature search over the features.
  TriangleMesh boxes;
  for (int i = 0; i < 12; ++i)
    for (int k = 0; k < 12; ++k) {
      const Vec3 lo(-0.36 + 0.06 * i, 0, -0.36 + 0.06 * k);
      const TriangleMesh box = makeBox(lo, lo + Vec3(0.03, 0.1, 0.03));
      const auto offset = static_cast<NodeIndex>(boxes.vertices.size());
      boxes.vertices.insert(boxes.vertices.end(), box.vertices.begin(), box.vertices.end());
      for (Triangle t : box.triangles)
        boxes.triangles.push_back({{t.v[0] + offset, t.v[1] + offset, t.v[2] + offset}});
    }
  const auto mesh = std::make_shared<const CollisionMesh>(boxes);
  const auto runOn = [&](int threads, int& featureContacts, int& meshContacts) {
    Scene s = *findScene("drape");
    resampleGrid(s, 64, 64);
    s.grid.origin = Vec3(-0.5, 0.2, -0.5);
    s.colliders = {Collider::meshOf(mesh), Collider::plane(Vec3(0), Vec3(0, 1, 0))};
    s.params.collision.meshFit = false;
    s.params.solver.threads = threads;
    Simulation sim = instantiate(s);
    featureContacts = meshContacts = 0;
    for (int i = 0; i < 20; ++i) {
      sim.step();
      featureContacts += sim.lastStep().featureContacts;
      meshContacts += sim.lastStep().colliderContacts;
    }
    return sim.cloth().x;
  };
  int features1 = 0, contacts1 = 0, features = 0, contacts = 0;
  const std::vector<Vec3> one = runOn(1, features1, contacts1);
  CHECK(features1 > 0);  // the test tests something
  CHECK(contacts1 > 0);
  CHECK(runOn(2, features, contacts) == one);
  CHECK(features == features1);
  CHECK(runOn(3, features, contacts) == one);
  CHECK(contacts == contacts1);
}

TEST_CASE(
    "parallel: contacts with a moving ball and the ground give the same cloth on one thread, two and three") {
  // The ball scene's cloth at 48^2, the ball rising into it at 1.5 m/s: once it reaches the cloth its
  // reach (a box about 0.6 m wide under a 1 m cloth) holds several hundred nodes, in several chunks of
  // kShapeContactChunk nodes, and their contacts (the swept entry, the push, friction) split over the
  // threads. The ground is 1 m below, out of reach.
  const auto runOn = [](int threads, int& contacts) {
    Scene s = *findScene("ball");
    resampleGrid(s, 48, 48);
    s.params.solver.threads = threads;
    s.params.collision.selfCollision = false;  // the collider contacts alone
    for (Collider& c : s.colliders)
      if (c.shape == ColliderShape::Sphere) c.path.keys = {{0, Vec3(0)}, {0.5, Vec3(0, 0.75, 0)}};
    Simulation sim = instantiate(s);
    contacts = 0;
    for (int i = 0; i < 30; ++i) {
      sim.step();
      contacts += sim.lastStep().colliderContacts;
    }
    return sim.cloth().x;
  };
  int contacts1 = 0, contacts = 0;
  const std::vector<Vec3> one = runOn(1, contacts1);
  CHECK(contacts1 > 300);  // the ball came up into the cloth (693 here)
  CHECK(runOn(2, contacts) == one);
  CHECK(contacts == contacts1);
  CHECK(runOn(3, contacts) == one);
  CHECK(contacts == contacts1);
}

TEST_CASE("parallel: the self-contacts' proximity pass gives the same cloth on one thread, two and three") {
  // The ball scene's cloth at 40^2 folding round the ball: the pairs are listed by blocks of 256 nodes
  // on the threads, then pushed in list order (self_collision.h).
  const auto runOn = [](int threads, int& selfContacts) {
    Scene s = *findScene("ball");
    resampleGrid(s, 40, 40);
    s.params.solver.threads = threads;
    Simulation sim = instantiate(s);
    selfContacts = 0;
    while (sim.time() < 1.5) {
      sim.step();
      selfContacts += sim.lastStep().selfContacts;
    }
    return sim.cloth().x;
  };
  int contacts1 = 0, contacts = 0;
  const std::vector<Vec3> one = runOn(1, contacts1);
  CHECK(contacts1 > 0);  // the test tests something
  CHECK(runOn(2, contacts) == one);
  CHECK(contacts == contacts1);
  CHECK(runOn(3, contacts) == one);
}
