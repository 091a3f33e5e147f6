#pragma once
// The two built-in, mutually orthogonal wrinkle patterns (Hadap Fig. 8), generated procedurally.
// tools/make_patterns writes them to assets/patterns/ as PNG for viewing and editing.

#include "cloth/detail/height_field.h"

namespace cloth::detail {

/// Soft parallel folds with irregular, wavering ridges, tileable. alongU = true: the height varies
/// along u (the ridges run along v); false: the orthogonal pattern.
HeightField makeFoldPattern(int size, bool alongU);

}  // namespace cloth::detail
