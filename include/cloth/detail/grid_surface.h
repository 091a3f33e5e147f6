#pragma once
// Helpers for grid-structured surfaces (normals: sim/grid_normals.h): triangle indices, node roles, and
// bilinear transfer of key-node values onto a refined grid.

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "cloth/detail/surface_mesh.h"

namespace cloth::detail {

/// Triangle indices of an nu x nv grid, two counter-clockwise triangles per cell.
void gridIndices(int nu, int nv, std::vector<std::uint32_t>& indices);

/// The surfaces of equal grids one after the other in `out` (its rows those of the first, then the
/// second's...), each keeping its own triangles: no triangle joins two. Reuses out's buffers.
void stackSurfaces(std::span<const SurfaceMesh> parts, SurfaceMesh& out);

/// Role of render vertex (c, r) when every key segment is split into `refine` parts.
NodeRole roleOf(int c, int r, int refine);

/// Bilinear interpolation of per-key-node values (keyNu x keyNv) onto the refined grid.
template <class T>
void keyToRender(std::span<const T> key, int keyNu, int keyNv, int refine, std::span<T> out);

}  // namespace cloth::detail

#include "cloth/detail/grid_surface.inl"
