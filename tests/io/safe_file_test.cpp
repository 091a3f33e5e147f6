#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/resource.h>

#include "cloth/io/safe_file.h"
#include "fresh_dir.h"

namespace fs = std::filesystem;
using namespace cloth::io;

namespace {

fs::path freshDir(const std::string& name) {
  return cloth::test::freshDir("test", name);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int countEntries(const fs::path& d) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d)) ++n;
  return n;
}

// Limits the size of files this process may write, the way a full disk limits it.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, SIG_IGN);  // report EFBIG instead of killing the process
    rlimit r = saved_;
    r.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &r);
  }
  ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &saved_); }

 private:
  rlimit saved_{};
};

}  // namespace

TEST_CASE("safe_file: writes whole files and refuses to replace one unless allowed") {
  const fs::path d = freshDir("write");
  const fs::path f = d / "a.txt";
  REQUIRE(writeFileAtomically(f, "first", Overwrite::Never).ok());
  CHECK(slurp(f) == "first");
  const auto st = writeFileAtomically(f, "second", Overwrite::Never);
  CHECK_FALSE(st.ok());
  CHECK(st.message().find("exists") != std::string::npos);
  CHECK(slurp(f) == "first");
  REQUIRE(writeFileAtomically(f, "second", Overwrite::Allowed).ok());
  CHECK(slurp(f) == "second");
  CHECK(countEntries(d) == 1);  // no temporary left behind
  fs::remove_all(d);
}

TEST_CASE("safe_file: a write that runs out of space fails cleanly and keeps the old file") {
  const fs::path d = freshDir("full");
  const fs::path f = d / "frame.obj";
  REQUIRE(writeFileAtomically(f, "kept", Overwrite::Never).ok());
  {
    FileSizeLimit limit(64);
    const auto st = writeFileAtomically(f, std::string(4096, 'x'), Overwrite::Allowed);
    CHECK_FALSE(st.ok());
    CHECK(st.message().find("frame.obj") != std::string::npos);
    const auto fresh = writeFileAtomically(d / "new.obj", std::string(4096, 'x'), Overwrite::Never);
    CHECK_FALSE(fresh.ok());
  }
  CHECK(slurp(f) == "kept");
  CHECK_FALSE(fs::exists(d / "new.obj"));
  CHECK(countEntries(d) == 1);
  fs::remove_all(d);
}

TEST_CASE("safe_file: missing directories and non-directories are reported") {
  const fs::path d = freshDir("dirs");
  CHECK_FALSE(writeFileAtomically(d / "missing" / "a.txt", "x", Overwrite::Never).ok());
  CHECK(ensureWritableDirectory(d / "new" / "nested").ok());
  CHECK(fs::is_directory(d / "new" / "nested"));
  REQUIRE(writeFileAtomically(d / "plain", "x", Overwrite::Never).ok());
  const auto st = ensureWritableDirectory(d / "plain");
  CHECK_FALSE(st.ok());
  CHECK(st.message().find("not a directory") != std::string::npos);
  CHECK_FALSE(ensureWritableDirectory("/proc/clothview-cannot-exist").ok());
  fs::remove_all(d);
}

TEST_CASE("safe_file: a whole file reads back byte for byte, a missing one as nothing") {
  const fs::path d = freshDir("read_whole");
  const std::string bytes("a\0b\nc\xff", 6);
  REQUIRE(writeFileAtomically(d / "f.bin", bytes, Overwrite::Never).ok());
  CHECK(readWholeFile(d / "f.bin") == bytes);
  CHECK_FALSE(readWholeFile(d / "missing").has_value());
  fs::remove_all(d);
}
