// Writes the built-in wrinkle patterns to PNG files: clothpatterns OUTPUT_DIR [--force].
// The committed assets/patterns/*.png come from this program; a test checks they still match.

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "cloth/detail/wrinkle_patterns.h"
#include "cloth/io/image_io.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: clothpatterns OUTPUT_DIR [--force]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const auto overwrite = argc > 2 && std::strcmp(argv[2], "--force") == 0 ? cloth::io::Overwrite::Allowed
                                                                          : cloth::io::Overwrite::Never;
  if (auto st = cloth::io::ensureWritableDirectory(dir); !st) {
    std::fprintf(stderr, "clothpatterns: %s\n", st.message().c_str());
    return 2;
  }
  constexpr int kSize = 256;
  for (cloth::detail::FoldDirection d : cloth::detail::kFoldDirections) {
    const auto path = dir / cloth::detail::foldPatternFile(d);
    if (auto st = cloth::io::writeHeightField(path, cloth::detail::makeFoldPattern(kSize, d), overwrite);
        !st) {
      std::fprintf(stderr, "clothpatterns: %s\n", st.message().c_str());
      return 1;
    }
    std::printf("wrote %s\n", path.c_str());
  }
  return 0;
}
