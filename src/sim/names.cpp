#include "cloth/sim/names.h"

#include <array>

#include "cloth/sim/enum_names.h"

namespace cloth::sim {
namespace {
constexpr std::array<std::string_view, 4> kIntegrators = {"approx-implicit", "explicit", "implicit-cg",
                                                          "small-steps"};
constexpr std::array<std::string_view, 3> kWindModels = {"plate", "kang", "linear"};
constexpr std::array<std::string_view, 2> kSchemes = {"theta", "bdf2"};
constexpr std::array<std::string_view, 2> kSolvers = {"jacobi", "multigrid"};
constexpr std::array<std::string_view, 3> kMeshUps = {"auto", "y", "z"};
constexpr std::array<std::string_view, 5> kShapes = {"sphere", "plane", "box", "mesh", "capsule"};
}  // namespace

std::string_view name(Integrator integrator) {
  return enumName(kIntegrators, integrator);
}
std::string_view name(WindModel model) {
  return enumName(kWindModels, model);
}
std::string_view name(ImplicitScheme scheme) {
  return enumName(kSchemes, scheme);
}
std::string_view name(LinearSolver solver) {
  return enumName(kSolvers, solver);
}
std::string_view name(ColliderShape shape) {
  return enumName(kShapes, shape);
}

std::optional<Integrator> parseIntegrator(std::string_view text) {
  return enumFromName<Integrator>(kIntegrators, text);
}
std::optional<WindModel> parseWindModel(std::string_view text) {
  return enumFromName<WindModel>(kWindModels, text);
}

std::span<const std::string_view> integratorNames() {
  return kIntegrators;
}
std::span<const std::string_view> windModelNames() {
  return kWindModels;
}
std::span<const std::string_view> schemeNames() {
  return kSchemes;
}
std::span<const std::string_view> solverNames() {
  return kSolvers;
}
std::span<const std::string_view> meshUpNames() {
  return kMeshUps;
}

}  // namespace cloth::sim
