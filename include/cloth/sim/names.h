#pragma once
// Stable text names of the simulation's enums, as used on the command line and in presets.

#include <optional>
#include <span>
#include <string_view>

#include "cloth/sim/collision/collider.h"
#include "cloth/sim/settings.h"

namespace cloth::sim {

std::string_view name(Integrator integrator);
std::string_view name(WindModel model);
std::string_view name(ImplicitScheme scheme);
std::string_view name(LinearSolver solver);
std::string_view name(ColliderShape shape);

std::optional<Integrator> parseIntegrator(std::string_view text);
std::optional<WindModel> parseWindModel(std::string_view text);

std::span<const std::string_view> integratorNames();
std::span<const std::string_view> windModelNames();
std::span<const std::string_view> schemeNames();
std::span<const std::string_view> solverNames();
std::span<const std::string_view> meshUpNames();

}  // namespace cloth::sim
