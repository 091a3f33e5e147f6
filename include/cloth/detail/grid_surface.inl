#pragma once
// Template definitions of grid_surface.h.

#include <algorithm>

namespace cloth::detail {

template <class T>
void keyToRender(std::span<const T> key, int keyNu, int keyNv, int refine, std::span<T> out) {
  const int nu = (keyNu - 1) * refine + 1;
  const int nv = (keyNv - 1) * refine + 1;
  const float step = 1.0f / static_cast<float>(refine);
  for (int r = 0; r < nv; ++r) {
    const int j = std::min(r / refine, keyNv - 2);
    const float fv = static_cast<float>(r - j * refine) * step;
    const T* row0 = &key[j * keyNu];
    const T* row1 = &key[(j + 1) * keyNu];
    T* dst = &out[r * nu];
    for (int i = 0; i + 1 < keyNu; ++i) {  // along the key row: one key cell at a time
      const T left = row0[i] * (1 - fv) + row1[i] * fv;
      const T right = row0[i + 1] * (1 - fv) + row1[i + 1] * fv;
      for (int s = 0; s < refine; ++s) {
        const float fu = static_cast<float>(s) * step;
        dst[i * refine + s] = left * (1 - fu) + right * fu;
      }
    }
    dst[nu - 1] = row0[keyNu - 1] * (1 - fv) + row1[keyNu - 1] * fv;
  }
}

}  // namespace cloth::detail
