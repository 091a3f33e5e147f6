#pragma once
// The built-in wrinkle patterns (Hadap Fig. 8), generated procedurally: folds across u, across v and
// across the two diagonals, the directions a coarse cloth compresses along (a curtain hanging from
// its corners folds diagonally). tools/make_patterns writes them to assets/patterns/ as PNG.

#include "cloth/detail/height_field.h"

namespace cloth::detail {

/// The direction a fold pattern's height varies along (its ridges run across it).
enum class FoldDirection { U, V, Diagonal, AntiDiagonal };
inline constexpr FoldDirection kFoldDirections[] = {FoldDirection::U, FoldDirection::V,
                                                    FoldDirection::Diagonal, FoldDirection::AntiDiagonal};

/// Soft parallel folds with irregular, wavering ridges, tileable, varying along `direction` (u + v for
/// the diagonal, u - v for the anti-diagonal).
HeightField makeFoldPattern(int size, FoldDirection direction);

/// The file name of a built-in pattern under assets/patterns/.
const char* foldPatternFile(FoldDirection direction);

}  // namespace cloth::detail
