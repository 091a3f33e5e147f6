#pragma once
// Basic numeric types of the simulation core. SI units throughout (m, kg, s), y up.

#include <cstdint>

#include <glm/mat3x3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace cloth::sim {

using Real = double;
using Vec2 = glm::dvec2;
using Vec3 = glm::dvec3;
using Mat3 = glm::dmat3;
using NodeIndex = std::int32_t;

inline constexpr Real kGravity = 9.81;  // m/s^2

}  // namespace cloth::sim
