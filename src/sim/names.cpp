#include "cloth/sim/names.h"

#include <array>

namespace cloth::sim {
namespace {
constexpr std::array<std::string_view, 3> kIntegrators = {"approx-implicit", "explicit", "implicit-cg"};
constexpr std::array<std::string_view, 3> kWindModels = {"plate", "kang", "linear"};
constexpr std::array<std::string_view, 2> kSolvers = {"jacobi", "multigrid"};
}  // namespace

std::string_view name(Integrator integrator) {
  return kIntegrators[static_cast<int>(integrator)];
}
std::string_view name(WindModel model) {
  return kWindModels[static_cast<int>(model)];
}

std::string_view name(LinearSolver solver) {
  return kSolvers[static_cast<int>(solver)];
}

std::string_view name(ColliderShape shape) {
  switch (shape) {
    case ColliderShape::Sphere:
      return "sphere";
    case ColliderShape::Plane:
      return "plane";
    case ColliderShape::Box:
      return "box";
    case ColliderShape::Mesh:
      return "mesh";
    case ColliderShape::Capsule:
      return "capsule";
  }
  return "?";
}

std::optional<Integrator> parseIntegrator(std::string_view text) {
  for (std::size_t i = 0; i < kIntegrators.size(); ++i)
    if (kIntegrators[i] == text) return static_cast<Integrator>(i);
  return std::nullopt;
}

std::optional<WindModel> parseWindModel(std::string_view text) {
  for (std::size_t i = 0; i < kWindModels.size(); ++i)
    if (kWindModels[i] == text) return static_cast<WindModel>(i);
  return std::nullopt;
}

std::span<const std::string_view> integratorNames() {
  return kIntegrators;
}
std::span<const std::string_view> windModelNames() {
  return kWindModels;
}
std::span<const std::string_view> solverNames() {
  return kSolvers;
}

}  // namespace cloth::sim
