#pragma once
// Builds a rectangular grid cloth of key nodes with structural, shear and bending springs.

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// Plane the rest cloth lies in.
enum class Orientation {
  Vertical,    ///< xy-plane: u along +x, v along -y (row 0 on top), front faces +z
  Horizontal,  ///< xz-plane: u along +x, v along +z, front faces +y
};

/// Shape and topology of a grid cloth.
struct GridSpec {
  int nu = 10;        ///< key nodes along u (>= 2)
  int nv = 10;        ///< key nodes along v (>= 2)
  Real width = 0.5;   ///< extent along u (m)
  Real height = 0.5;  ///< extent along v (m)
  Orientation orientation = Orientation::Vertical;
  Vec3 origin{0, 0, 0};      ///< position of node (0, 0) (m)
  bool singleShear = false;  ///< Huang's simplified model: one diagonal per cell
  bool bending = true;       ///< add (i+2, j) and (i, j+2) springs
  int sheets = 1;            ///< cloths of this grid, each sheetGap behind the one before (>= 1)
  Real sheetGap = 0.05;      ///< distance between consecutive sheets (m), against the front normal

  /// A grid with the given node counts and uniform spacing (m) between neighbours.
  static GridSpec fromSpacing(int nu, int nv, Real spacing);
  Real spacingU() const { return width / (nu - 1); }
  Real spacingV() const { return height / (nv - 1); }
  bool operator==(const GridSpec&) const = default;
};

/// Mass per node (kg) that gives a cloth of `nodes` nodes the total mass `totalMass` (kg).
Real massPerNodeForTotal(Real totalMass, int nodes);

/// Builds the cloth at rest: all nodes free, zero velocity, every node of mass `massPerNode` (kg);
/// spec.sheets copies of the grid, sheet s moved s * sheetGap behind the first (against its front
/// normal: below a horizontal cloth, behind a vertical one). Requires spec.nu, spec.nv >= 2, positive
/// sizes, at least one sheet and a positive gap between several; throws std::invalid_argument otherwise.
Cloth buildGrid(const GridSpec& spec, Real massPerNode);

/// Re-evaluates rest lengths from the cloth's rest positions (after restX changed).
void updateRestLengths(Cloth& cloth);

}  // namespace cloth::sim
