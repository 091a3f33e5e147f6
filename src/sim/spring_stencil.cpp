#include "cloth/sim/spring_stencil.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "vector_clones.h"

namespace cloth::sim {
namespace {

// The force of a spring of rest length `rest` and current length len, as a factor on its direction
// vector d: k (len - rest) / len, with k * compression while compressed; k for a zero rest length
// (the force is k d); nothing for a spring crushed to a point or where no spring starts (rest < 0).
// Branch-free (the division always happens, on a safe length) so that the loops vectorize.
[[gnu::always_inline]] inline Real springScale(Real len, Real rest, Real k, Real kCompressed) {
  const Real stiffness = len < rest ? kCompressed : k;
  const Real stretched = stiffness * (len - rest) / std::max(len, Real(1e-300));
  const Real scale = rest == 0 ? k : (len > 1e-12 * rest ? stretched : 0);
  return rest < 0 ? 0 : scale;
}

// Per-spring force of one group into t[a], for every a; with velocities (vx != null) plus Kang's
// viscosity h k (v_b - v_a) in the same pass.
CLOTH_VECTOR_CLONES
void groupForces(std::size_t count, std::size_t offset, const Real* __restrict px, const Real* __restrict py,
                 const Real* __restrict pz, const Real* __restrict vx, const Real* __restrict vy,
                 const Real* __restrict vz, Real hk, const Real* __restrict rest, Real k, Real kCompressed,
                 Real* __restrict tx, Real* __restrict ty, Real* __restrict tz) {
  if (vx) {
    for (std::size_t a = 0; a < count; ++a) {
      const Real dx = px[a + offset] - px[a], dy = py[a + offset] - py[a], dz = pz[a + offset] - pz[a];
      const Real s = springScale(std::sqrt(dx * dx + dy * dy + dz * dz), rest[a], k, kCompressed);
      const Real sv = rest[a] < 0 ? 0 : hk;
      tx[a] = s * dx + sv * (vx[a + offset] - vx[a]);
      ty[a] = s * dy + sv * (vy[a + offset] - vy[a]);
      tz[a] = s * dz + sv * (vz[a + offset] - vz[a]);
    }
    return;
  }
  for (std::size_t a = 0; a < count; ++a) {
    const Real dx = px[a + offset] - px[a], dy = py[a + offset] - py[a], dz = pz[a + offset] - pz[a];
    const Real s = springScale(std::sqrt(dx * dx + dy * dy + dz * dz), rest[a], k, kCompressed);
    tx[a] = s * dx;
    ty[a] = s * dy;
    tz[a] = s * dz;
  }
}

CLOTH_VECTOR_CLONES
void groupViscosity(std::size_t count, std::size_t offset, const Real* __restrict vx, const Real* __restrict vy,
                    const Real* __restrict vz, const Real* __restrict present, Real hk, Real* __restrict tx,
                    Real* __restrict ty, Real* __restrict tz) {
  for (std::size_t a = 0; a < count; ++a) {
    const Real s = hk * present[a];
    tx[a] += s * (vx[a + offset] - vx[a]);
    ty[a] += s * (vy[a + offset] - vy[a]);
    tz[a] += s * (vz[a + offset] - vz[a]);
  }
}

// out[i] += t[i] - t[i - offset]: each node gathers the springs starting and ending at it (t is 0
// where no spring starts), so every iteration writes only its own node.
CLOTH_VECTOR_CLONES
void gatherPairs(std::size_t nodes, std::size_t offset, const Real* __restrict tx, const Real* __restrict ty,
                 const Real* __restrict tz, Real* __restrict ox, Real* __restrict oy, Real* __restrict oz) {
  const std::size_t split = std::min(offset, nodes);
  for (std::size_t i = 0; i < split; ++i) ox[i] += tx[i], oy[i] += ty[i], oz[i] += tz[i];
  for (std::size_t i = split; i + offset < nodes; ++i) {
    ox[i] += tx[i] - tx[i - offset];
    oy[i] += ty[i] - ty[i - offset];
    oz[i] += tz[i] - tz[i - offset];
  }
  for (std::size_t i = std::max(split, nodes > offset ? nodes - offset : 0); i < nodes; ++i)
    ox[i] -= tx[i - offset], oy[i] -= ty[i - offset], oz[i] -= tz[i - offset];
}

// out[i] += k (present[i] u[i + offset] + present[i - offset] u[i - offset]), the same gather form.
CLOTH_VECTOR_CLONES
void groupNeighbours(std::size_t nodes, std::size_t offset, const Real* __restrict ux, const Real* __restrict uy,
                     const Real* __restrict uz, const Real* __restrict present, Real k, Real* __restrict ox,
                     Real* __restrict oy, Real* __restrict oz) {
  const std::size_t split = std::min(offset, nodes);
  for (std::size_t i = 0; i < split && i + offset < nodes; ++i) {
    const Real s = k * present[i];
    ox[i] += s * ux[i + offset], oy[i] += s * uy[i + offset], oz[i] += s * uz[i + offset];
  }
  for (std::size_t i = split; i + offset < nodes; ++i) {
    const Real f = k * present[i], b = k * present[i - offset];
    ox[i] += f * ux[i + offset] + b * ux[i - offset];
    oy[i] += f * uy[i + offset] + b * uy[i - offset];
    oz[i] += f * uz[i + offset] + b * uz[i - offset];
  }
  for (std::size_t i = std::max(split, nodes > offset ? nodes - offset : 0); i < nodes; ++i) {
    const Real b = k * present[i - offset];
    ox[i] += b * ux[i - offset], oy[i] += b * uy[i - offset], oz[i] += b * uz[i - offset];
  }
}

// Whether some spring of the group is longer than its limit. (An integer OR reduction: the compiler
// vectorizes it, while a floating-point max reduction would need fast-math.)
CLOTH_VECTOR_CLONES
bool anyStretched(std::size_t count, std::size_t offset, const Real* __restrict px, const Real* __restrict py,
                  const Real* __restrict pz, const Real* __restrict rest, Real limit2) {
  std::int64_t any = 0;
  for (std::size_t a = 0; a < count; ++a) {
    const Real dx = px[a + offset] - px[a], dy = py[a + offset] - py[a], dz = pz[a + offset] - pz[a];
    const Real excess = dx * dx + dy * dy + dz * dz - limit2 * rest[a] * rest[a];
    any |= static_cast<std::int64_t>(excess > 0) & static_cast<std::int64_t>(rest[a] >= 0);  // rest < 0: none
  }
  return any != 0;
}

// Groups as flat arrays for the fused kernels.
struct GroupTable {
  int count = 0;
  std::size_t offset[8];
  Real k[8];
  const Real* present[8];
  std::size_t maxOffset = 0;
};

// Neighbour sum over all groups at once for nodes [lo, hi), where every i - offset and i + offset
// exists: one pass that writes each output once.
template <int G>
[[gnu::always_inline]] inline void fusedNeighbours(std::size_t lo, std::size_t hi, const GroupTable& t,
                                                   const Real* __restrict ux, const Real* __restrict uy,
                                                   const Real* __restrict uz, Real* __restrict ox,
                                                   Real* __restrict oy, Real* __restrict oz) {
  for (std::size_t i = lo; i < hi; ++i) {
    Real ax = 0, ay = 0, az = 0;
#pragma GCC unroll 8
    for (int g = 0; g < G; ++g) {
      const std::size_t off = t.offset[g];
      const Real f = t.k[g] * t.present[g][i], b = t.k[g] * t.present[g][i - off];
      ax += f * ux[i + off] + b * ux[i - off];
      ay += f * uy[i + off] + b * uy[i - off];
      az += f * uz[i + off] + b * uz[i - off];
    }
    ox[i] = ax, oy[i] = ay, oz[i] = az;
  }
}

CLOTH_VECTOR_CLONES
void fusedNeighbours5(std::size_t lo, std::size_t hi, const GroupTable& t, const Real* ux, const Real* uy,
                      const Real* uz, Real* ox, Real* oy, Real* oz) {
  fusedNeighbours<5>(lo, hi, t, ux, uy, uz, ox, oy, oz);
}

CLOTH_VECTOR_CLONES
void fusedNeighbours6(std::size_t lo, std::size_t hi, const GroupTable& t, const Real* ux, const Real* uy,
                      const Real* uz, Real* ox, Real* oy, Real* oz) {
  fusedNeighbours<6>(lo, hi, t, ux, uy, uz, ox, oy, oz);
}

// The same sum for nodes [lo, hi) near the ends of the node range, checking each neighbour.
void borderNeighbours(std::size_t lo, std::size_t hi, std::size_t nodes, const GroupTable& t, const NodeArrays& u,
                      NodeArrays& out) {
  for (std::size_t i = lo; i < hi; ++i) {
    Vec3 acc(0);
    for (int g = 0; g < t.count; ++g) {
      const std::size_t off = t.offset[g];
      if (i + off < nodes) acc += t.k[g] * t.present[g][i] * u[i + off];
      if (i >= off) acc += t.k[g] * t.present[g][i - off] * u[i - off];
    }
    out.x[i] = acc.x, out.y[i] = acc.y, out.z[i] = acc.z;
  }
}

// Sum over all groups of t_g[i] - t_g[i - offset] for nodes [lo, hi) whose i - offset exist; t_g is
// the force of the spring starting at i (0 where none).
template <int G>
[[gnu::always_inline]] inline void fusedGather(std::size_t lo, std::size_t hi, const GroupTable& t,
                                               const Real* const* tx, const Real* const* ty, const Real* const* tz,
                                               Real* __restrict ox, Real* __restrict oy, Real* __restrict oz) {
  for (std::size_t i = lo; i < hi; ++i) {
    Real ax = 0, ay = 0, az = 0;
#pragma GCC unroll 8
    for (int g = 0; g < G; ++g) {
      const std::size_t off = t.offset[g];
      ax += tx[g][i] - tx[g][i - off];
      ay += ty[g][i] - ty[g][i - off];
      az += tz[g][i] - tz[g][i - off];
    }
    ox[i] += ax, oy[i] += ay, oz[i] += az;
  }
}

CLOTH_VECTOR_CLONES
void fusedGather5(std::size_t lo, std::size_t hi, const GroupTable& t, const Real* const* tx, const Real* const* ty,
                  const Real* const* tz, Real* ox, Real* oy, Real* oz) {
  fusedGather<5>(lo, hi, t, tx, ty, tz, ox, oy, oz);
}

CLOTH_VECTOR_CLONES
void fusedGather6(std::size_t lo, std::size_t hi, const GroupTable& t, const Real* const* tx, const Real* const* ty,
                  const Real* const* tz, Real* ox, Real* oy, Real* oz) {
  fusedGather<6>(lo, hi, t, tx, ty, tz, ox, oy, oz);
}

GroupTable groupTable(const SpringStencil& s, const Stiffness& k) {
  GroupTable t;
  for (const SpringGroup& g : s.groups) {
    const Real kf = k.of(g.family);
    if (kf == 0) continue;
    if (t.count == 8) {  // more than the fused kernels take
      t.count = -1;
      return t;
    }
    t.offset[t.count] = static_cast<std::size_t>(g.offset);
    t.k[t.count] = kf;
    t.present[t.count] = g.present.data();
    t.maxOffset = std::max(t.maxOffset, t.offset[t.count]);
    ++t.count;
  }
  return t;
}

// Adds each spring's force t (per start node) to both its ends.
void scatterGroup(std::size_t offset, const NodeArrays& t, NodeArrays& out) {
  gatherPairs(out.size(), offset, t.x.data(), t.y.data(), t.z.data(), out.x.data(), out.y.data(), out.z.data());
}

// The gather passes read t at every node; slots past the last spring start hold no spring.
void zeroTail(std::size_t slots, NodeArrays& t) {
  for (auto* c : {&t.x, &t.y, &t.z}) std::fill(c->begin() + static_cast<std::ptrdiff_t>(slots), c->end(), 0.0);
}

// Number of slots a to loop over in a group: nodes that can start a spring of this offset.
std::size_t slots(const SpringStencil& s, const SpringGroup& g) {
  return s.nodes > static_cast<std::size_t>(g.offset) ? s.nodes - static_cast<std::size_t>(g.offset) : 0;
}

}  // namespace

void NodeArrays::resize(std::size_t n) {
  x.resize(n);
  y.resize(n);
  z.resize(n);
}

void NodeArrays::zero() {
  std::fill(x.begin(), x.end(), 0.0);
  std::fill(y.begin(), y.end(), 0.0);
  std::fill(z.begin(), z.end(), 0.0);
}

void NodeArrays::load(std::span<const Vec3> aos) {
  resize(aos.size());
  for (std::size_t i = 0; i < aos.size(); ++i) x[i] = aos[i].x, y[i] = aos[i].y, z[i] = aos[i].z;
}

void NodeArrays::store(std::span<Vec3> aos) const {
  for (std::size_t i = 0; i < aos.size(); ++i) aos[i] = Vec3(x[i], y[i], z[i]);
}

void NodeArrays::addTo(std::span<Vec3> aos) const {
  for (std::size_t i = 0; i < aos.size(); ++i) aos[i] += Vec3(x[i], y[i], z[i]);
}

void SpringStencil::build(const Cloth& cloth) {
  groups.clear();
  nodes = cloth.nodeCount();
  springs = cloth.springs.size();
  std::map<std::pair<int, std::int32_t>, std::vector<std::size_t>> byKey;  // (family, offset) -> groups
  for (int fam = 0; fam < kSpringFamilyCount; ++fam) {
    const SpringRange& r = cloth.family[fam];
    for (std::size_t i = r.begin; i < r.end; ++i) {
      Spring s = cloth.springs[i];
      if (s.b < s.a) std::swap(s.a, s.b);
      auto& candidates = byKey[{fam, s.b - s.a}];
      // A second spring between the same offset pair from the same node needs its own group.
      auto free = std::find_if(candidates.begin(), candidates.end(),
                               [&](std::size_t g) { return groups[g].spring[s.a] < 0; });
      if (free == candidates.end()) {
        SpringGroup g;
        g.family = static_cast<SpringFamily>(fam);
        g.offset = s.b - s.a;
        g.rest.assign(nodes, -1.0);  // no spring
        g.present.assign(nodes, 0.0);
        g.spring.assign(nodes, -1);
        groups.push_back(std::move(g));
        candidates.push_back(groups.size() - 1);
        free = candidates.end() - 1;
      }
      SpringGroup& g = groups[*free];
      g.rest[s.a] = s.rest;
      g.present[s.a] = 1;
      g.spring[s.a] = static_cast<std::int32_t>(i);
    }
  }
}

void StencilWork::prepare(const Cloth& cloth) {
  if (!stencil.matches(cloth)) {
    stencil.build(cloth);
    summedFor = Stiffness{-1, -1, -1, -1};
  }
  const std::size_t n = cloth.nodeCount();
  x.resize(n);
  v.resize(n);
  out.resize(n);
  perSpring.resize(n);
  normals.resize(n);
}

void stencilSpringForces(const SpringStencil& s, const Stiffness& k, const NodeArrays& x, const NodeArrays* v,
                         Real h, std::vector<NodeArrays>& perGroup, NodeArrays& out) {
  const GroupTable table = groupTable(s, k);
  if (table.count < 0) {  // more groups than the table holds: one group at a time
    perGroup.resize(1);
    NodeArrays& t = perGroup[0];
    t.resize(s.nodes);
    for (const SpringGroup& g : s.groups) {
      const Real kf = k.of(g.family);
      if (kf == 0) continue;
      const std::size_t n = slots(s, g), off = static_cast<std::size_t>(g.offset);
      groupForces(n, off, x.x.data(), x.y.data(), x.z.data(), v ? v->x.data() : nullptr, v ? v->y.data() : nullptr,
                  v ? v->z.data() : nullptr, h * kf, g.rest.data(), kf, kf * k.compression, t.x.data(), t.y.data(),
                  t.z.data());
      zeroTail(n, t);
      scatterGroup(off, t, out);
    }
    return;
  }
  if (table.count == 0) return;
  perGroup.resize(static_cast<std::size_t>(table.count));
  const Real *tx[8], *ty[8], *tz[8];
  int slot = 0;
  for (const SpringGroup& g : s.groups) {  // each group's spring forces, per start node
    const Real kf = k.of(g.family);
    if (kf == 0) continue;
    NodeArrays& t = perGroup[static_cast<std::size_t>(slot)];
    t.resize(s.nodes);
    const std::size_t n = slots(s, g), off = static_cast<std::size_t>(g.offset);
    groupForces(n, off, x.x.data(), x.y.data(), x.z.data(), v ? v->x.data() : nullptr, v ? v->y.data() : nullptr,
                v ? v->z.data() : nullptr, h * kf, g.rest.data(), kf, kf * k.compression, t.x.data(), t.y.data(),
                t.z.data());
    zeroTail(n, t);
    tx[slot] = t.x.data(), ty[slot] = t.y.data(), tz[slot] = t.z.data();
    ++slot;
  }
  const std::size_t n = s.nodes, m = table.maxOffset;
  if ((table.count == 5 || table.count == 6) && n > 2 * m) {  // grid cloths: one pass adds them all
    auto border = [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i)
        for (int g = 0; g < table.count; ++g) {
          const std::size_t off = table.offset[g];
          const bool ends = i >= off;  // a spring ends here too
          out.x[i] += tx[g][i] - (ends ? tx[g][i - off] : 0);
          out.y[i] += ty[g][i] - (ends ? ty[g][i - off] : 0);
          out.z[i] += tz[g][i] - (ends ? tz[g][i - off] : 0);
        }
    };
    border(0, m);
    auto fused = table.count == 5 ? fusedGather5 : fusedGather6;
    fused(m, n - m, table, tx, ty, tz, out.x.data(), out.y.data(), out.z.data());
    border(n - m, n);
    return;
  }
  for (int g = 0; g < table.count; ++g)
    gatherPairs(n, table.offset[g], tx[g], ty[g], tz[g], out.x.data(), out.y.data(), out.z.data());
}

void stencilViscosity(const SpringStencil& s, const Stiffness& k, const NodeArrays& v, Real h, NodeArrays& t,
                      NodeArrays& out) {
  for (const SpringGroup& g : s.groups) {
    const Real kf = k.of(g.family);
    if (kf == 0) continue;
    const std::size_t n = slots(s, g), off = static_cast<std::size_t>(g.offset);
    t.zero();
    groupViscosity(n, off, v.x.data(), v.y.data(), v.z.data(), g.present.data(), h * kf, t.x.data(), t.y.data(),
                   t.z.data());
    scatterGroup(off, t, out);
  }
}

void stencilNeighbourSum(const SpringStencil& s, const Stiffness& k, const NodeArrays& u, NodeArrays& out) {
  const GroupTable t = groupTable(s, k);
  const std::size_t n = s.nodes, m = t.maxOffset;
  if ((t.count == 5 || t.count == 6) && n > 2 * m) {  // grid cloths: one fused pass
    borderNeighbours(0, m, n, t, u, out);
    auto fused = t.count == 5 ? fusedNeighbours5 : fusedNeighbours6;
    fused(m, n - m, t, u.x.data(), u.y.data(), u.z.data(), out.x.data(), out.y.data(), out.z.data());
    borderNeighbours(n - m, n, n, t, u, out);
    return;
  }
  out.zero();
  for (const SpringGroup& g : s.groups) {
    const Real kf = k.of(g.family);
    if (kf == 0) continue;
    const auto off = static_cast<std::size_t>(g.offset);
    groupNeighbours(s.nodes, off, u.x.data(), u.y.data(), u.z.data(), g.present.data(), kf, out.x.data(),
                    out.y.data(), out.z.data());
  }
}

void stencilStiffnessSum(const SpringStencil& s, const Stiffness& k, std::vector<Real>& out) {
  out.assign(s.nodes, 0.0);
  for (const SpringGroup& g : s.groups) {
    const Real kf = k.of(g.family);
    for (std::size_t a = 0; a < slots(s, g); ++a) {
      out[a] += kf * g.present[a];
      out[a + static_cast<std::size_t>(g.offset)] += kf * g.present[a];
    }
  }
}

void stencilStretched(const SpringStencil& s, std::span<const SpringFamily> families, const NodeArrays& x, Real tau,
                      std::size_t firstSpring, std::vector<std::uint64_t>& bits) {
  const Real limit2 = (1 + tau) * (1 + tau) * (1 + 1e-12);
  for (const SpringGroup& g : s.groups) {
    if (std::find(families.begin(), families.end(), g.family) == families.end()) continue;
    const std::size_t n = slots(s, g);
    const std::size_t off = static_cast<std::size_t>(g.offset);
    // The usual case: every spring of the group within its limit.
    if (!anyStretched(n, off, x.x.data(), x.y.data(), x.z.data(), g.rest.data(), limit2)) continue;
    for (std::size_t a = 0; a < n; ++a) {
      const Real dx = x.x[a + off] - x.x[a], dy = x.y[a + off] - x.y[a], dz = x.z[a + off] - x.z[a];
      if (!(dx * dx + dy * dy + dz * dz > limit2 * g.rest[a] * g.rest[a]) || g.spring[a] < 0) continue;
      const auto i = static_cast<std::size_t>(g.spring[a]) - firstSpring;
      bits[i >> 6] |= std::uint64_t(1) << (i & 63);
    }
  }
}

}  // namespace cloth::sim
