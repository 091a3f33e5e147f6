#pragma once
// Template definitions of grid_surface.h.

#include <algorithm>

namespace cloth::detail {

template <class T>
void keyToRender(std::span<const T> key, int keyNu, int keyNv, int refine, std::span<T> out) {
  const int nu = (keyNu - 1) * refine + 1;
  const int nv = (keyNv - 1) * refine + 1;
  for (int r = 0; r < nv; ++r) {
    const int j = std::min(r / refine, keyNv - 2);
    const float fv = static_cast<float>(r - j * refine) / static_cast<float>(refine);
    for (int c = 0; c < nu; ++c) {
      const int i = std::min(c / refine, keyNu - 2);
      const float fu = static_cast<float>(c - i * refine) / static_cast<float>(refine);
      const T& k00 = key[j * keyNu + i];
      const T& k10 = key[j * keyNu + i + 1];
      const T& k01 = key[(j + 1) * keyNu + i];
      const T& k11 = key[(j + 1) * keyNu + i + 1];
      out[r * nu + c] = (k00 * (1 - fu) + k10 * fu) * (1 - fv) + (k01 * (1 - fu) + k11 * fu) * fv;
    }
  }
}

}  // namespace cloth::detail
