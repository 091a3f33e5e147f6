#include "cloth/sim/solve/small_steps.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

namespace cloth::sim {

SpringColours colourSprings(const Cloth& cloth) {
  // A bit per colour at each node: the colours of the springs at it. Grid cloths need about ten; a
  // spring finding all 64 taken at its ends (a node of more than 32 springs) gets a colour of its own
  // beyond them.
  std::vector<std::uint64_t> taken(cloth.nodeCount(), 0);
  std::vector<std::uint32_t> colourOf(cloth.springs.size());
  std::uint32_t colours = 0, extra = 64;
  for (std::size_t i = 0; i < cloth.springs.size(); ++i) {
    const Spring& s = cloth.springs[i];
    const std::uint64_t used = taken[s.a] | taken[s.b];
    std::uint32_t c = extra;
    if (~used != 0) {
      c = static_cast<std::uint32_t>(std::countr_one(used));
      taken[s.a] |= std::uint64_t(1) << c;
      taken[s.b] |= std::uint64_t(1) << c;
    } else {
      ++extra;
    }
    colourOf[i] = c;
    colours = std::max(colours, c + 1);
  }
  SpringColours out;
  out.start.assign(colours + 1, 0);
  for (std::uint32_t c : colourOf) ++out.start[c + 1];
  for (std::size_t c = 0; c < colours; ++c) out.start[c + 1] += out.start[c];
  out.springs.resize(cloth.springs.size());
  std::vector<std::size_t> next(out.start.begin(), out.start.end() - 1);
  for (std::size_t i = 0; i < colourOf.size(); ++i)
    out.springs[next[colourOf[i]]++] = static_cast<std::uint32_t>(i);
  // Colours left empty (none, unless `extra` was used) stay as empty ranges.
  return out;
}

void projectSpring(Vec3& xa, Vec3& xb, Real wa, Real wb, Real rest, Real k, Real compression, Real s) {
  const Vec3 d = xa - xb;
  const Real length = glm::length(d);
  if (length <= 1e-12 * rest || wa + wb == 0) return;
  const Real c = length - rest;
  const Real stiffness = springStiffness(length, rest, k, compression);
  if (!(stiffness > 0)) return;
  const Real compliance = 1 / (stiffness * s * s);  // alpha~ = alpha / s^2, alpha = 1 / k
  const Real dLambda = -c / (wa + wb + compliance);
  const Vec3 n = d / length;
  xa += (wa * dLambda) * n;
  xb -= (wb * dLambda) * n;
}

void projectLink(Vec3& xa, Vec3& xb, Real wa, Real wb, Real rest, Real stretched, Real compressed) {
  const Vec3 d = xa - xb;
  const Real length = std::sqrt(glm::dot(d, d));
  if (length <= 1e-12 * rest) return;
  const Real compliance = length < rest ? compressed : stretched;
  if (wa + wb == 0 || std::isinf(compliance)) return;  // both ends kinematic, or no stiffness
  const Real scale = -(length - rest) / ((wa + wb + compliance) * length);  // dlambda / |d|
  xa += (wa * scale) * d;
  xb -= (wb * scale) * d;
}

Real complianceOf(Real k, Real s) {
  return k > 0 ? 1 / (k * s * s) : std::numeric_limits<Real>::infinity();
}

int smallStepCount(Real h, Real longest) {
  if (!(longest > 0) || !(h > longest)) return 1;
  return static_cast<int>(std::min<Real>(std::ceil(h / longest * (1 - 1e-9)), kMostSmallSteps));
}

namespace {

void prepare(const Cloth& cloth, const Stiffness& k, SmallStepsWork& work) {
  const std::size_t n = cloth.nodeCount();
  work.force.resize(n);
  work.xPrevious.resize(n);
  work.inverseMass.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    work.inverseMass[i] = cloth.kind[i] == NodeKind::Free && cloth.mass[i] > 0 ? 1 / cloth.mass[i] : 0;
  if (work.colouredSprings != cloth.springs.size() || work.colours.colourCount() == 0) {
    work.colours = colourSprings(cloth);
    work.colouredSprings = cloth.springs.size();
  }
  // The springs in colour order with what their projection reads, so that a sweep reads memory in
  // order (the 10^2 flag: 40 sweeps a frame).
  std::array<Real, kSpringFamilyCount> stiffness{};
  for (SpringFamily f : kSpringFamilies) stiffness[static_cast<int>(f)] = k.of(f);
  const auto familyOf = [&](std::uint32_t spring) {
    int f = 0;
    while (f + 1 < kSpringFamilyCount && spring >= cloth.family[f].end) ++f;
    return f;
  };
  work.links.resize(cloth.springs.size());
  for (std::size_t i = 0; i < work.colours.springs.size(); ++i) {
    const std::uint32_t index = work.colours.springs[i];
    const Spring& sp = cloth.springs[index];
    work.links[i] = {sp.a, sp.b, sp.rest, stiffness[familyOf(index)]};
  }
}

// Springs of one colour below which a second thread does not pay. A colour holds about a tenth of the
// springs (the 100^2 flag's: about 5,000, 80 us of work): split by kNodeGrain when it was 4,096, every
// colour ran on one thread and two threads gained 1.1x on the small steps (kNodeGrain is 1,024 now).
constexpr std::size_t kColourGrain = 1024;

// Every spring once, colour by colour (Gauss-Seidel from one colour to the next).
void projectSprings(Cloth& cloth, Real compression, Real s, SmallStepsWork& work, Workers* workers) {
  for (std::size_t c = 0; c < work.colours.colourCount(); ++c) {
    const std::size_t begin = work.colours.start[c], count = work.colours.start[c + 1] - begin;
    parallelFor(workers, count, kColourGrain, [&](std::size_t first, std::size_t last) {
      Real k = -1, stretched = 0, compressed = 0;  // the compliances of the last stiffness seen
      for (std::size_t i = begin + first; i < begin + last; ++i) {
        const SmallStepsWork::Link& l = work.links[i];
        if (l.k != k) {
          k = l.k;
          stretched = complianceOf(springStiffness(2 * l.rest, l.rest, k, compression), s);
          compressed = complianceOf(springStiffness(0, l.rest, k, compression), s);
        }
        projectLink(cloth.x[l.a], cloth.x[l.b], work.inverseMass[l.a], work.inverseMass[l.b], l.rest,
                    stretched, compressed);
      }
    });
  }
}

}  // namespace

int stepSmall(Cloth& cloth, const SimParams& params, Real t, Real h, SmallStepsWork& work, Workers* workers,
              const std::function<void()>& limitStretch) {
  const Stiffness k = stiffnessOf(params.material);
  prepare(cloth, k, work);
  const int n = smallStepCount(h, params.solver.smallStep);
  const Real s = h / n;
  const Real theta = std::clamp(params.solver.theta, Real(0.5), Real(1));
  const std::size_t nodes = cloth.nodeCount();
  work.vStart.resize(nodes);
  for (int step = 0; step < n; ++step) {
    computeExternalForces(cloth, params, t + step * s, work.forces, work.force, workers);
    // The backward-Euler step of theta s (XPBD), then the theta method's update from it: x += s v_theta,
    // v += (v_theta - v) / theta (theta 0.5: the implicit midpoint rule, which keeps energy).
    parallelFor(workers, nodes, kNodeGrain, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) {
        work.vStart[i] = cloth.v[i];
        work.xPrevious[i] = cloth.x[i];
        cloth.x[i] += theta * s * (cloth.v[i] + (theta * s * work.inverseMass[i]) * work.force[i]);
      }
    });
    projectSprings(cloth, k.compression, theta * s, work, workers);
    parallelFor(workers, nodes, kNodeGrain, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) {
        if (work.inverseMass[i] == 0) {
          cloth.x[i] = work.xPrevious[i] + s * cloth.v[i];
          continue;
        }
        const Vec3 vTheta = (cloth.x[i] - work.xPrevious[i]) / (theta * s);
        cloth.x[i] = work.xPrevious[i] + s * vTheta;
        cloth.v[i] = work.vStart[i] + (vTheta - work.vStart[i]) / theta;
        work.xPrevious[i] = cloth.x[i];
      }
    });
    if (!limitStretch) continue;
    limitStretch();  // Provot's limit in every small step; the velocity follows its moves
    parallelFor(workers, nodes, kNodeGrain, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i)
        if (work.inverseMass[i] > 0) cloth.v[i] += (cloth.x[i] - work.xPrevious[i]) / s;
    });
  }
  return n;
}

}  // namespace cloth::sim
