#pragma once
// Triangle meshes the project generates rather than ships: an icosphere (the mesh twin of the
// sphere collider, for tests), the table the drape scene drops its cloth on and the funnel scene's funnel.

#include "cloth/sim/collision/collision_mesh.h"

namespace cloth::sim {

/// A sphere of `radius` (m) about the origin: an icosahedron with each triangle split in four
/// `subdivisions` times, vertices on the sphere (20 * 4^subdivisions triangles), outward facing.
TriangleMesh makeIcosphere(Real radius, int subdivisions);

/// A closed box from lo to hi, outward facing (12 triangles).
TriangleMesh makeBox(const Vec3& lo, const Vec3& hi);

/// The drape scene's table: a 70 cm square top 76 cm above the floor, 20 cm deep with its apron (so
/// a 1 m cloth's overhang cannot curl under it and catch there), on four 4 cm legs; five closed
/// boxes, 60 triangles, standing on y = 0 about the origin.
TriangleMesh makeTable();

/// A funnel: the side of a cone's frustum, its throat (radius `throat`, m) centred at `throatCentre`
/// and its rim (radius `rim`) `height` m above, open at both ends; `segments` around, outward facing.
/// An open surface, so a two-sided obstacle (closedParts).
TriangleMesh makeFunnel(const Vec3& throatCentre, Real throat, Real rim, Real height, int segments = 48);

/// Appends `more` to `mesh`.
void append(TriangleMesh& mesh, const TriangleMesh& more);

}  // namespace cloth::sim
