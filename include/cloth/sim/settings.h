#pragma once
// Plain settings structs of the simulation, with units and defaults. The viewer edits them by
// reference; the Simulation reads them on every step, so a change takes effect on the next step.

#include "cloth/sim/types.h"

namespace cloth::sim {

/// Time integration schemes.
enum class Integrator {
  ApproxImplicit,  ///< Kang 2001 eq. 4-10 (with optional extra Jacobi iterations)
  Explicit,        ///< symplectic Euler
  ImplicitCG,      ///< Baraff & Witkin 1998 implicit Euler, exact spring Jacobian, conjugate gradients
  SmallSteps,  ///< Macklin et al. 2019: many XPBD sub-steps of one spring sweep each (solve/small_steps.h)
};

/// How the approximate implicit update solves its linear system (M + h c + h^2 L) dv = h F~.
enum class LinearSolver {
  Jacobi,     ///< Kang eq. 9-10: `iterations` Jacobi iterations (1 = the paper's method)
  Multigrid,  ///< V-cycles to a relative residual of `tolerance`: the converged implicit step
};

/// How the implicit-cg integrator steps in time.
enum class ImplicitScheme {
  Theta,  ///< the theta-method (solve/theta_method.h): backward Euler at theta = 1
  Bdf2,   ///< BDF2 (solve/bdf2.h): second order, from the state a step before
};

/// Wind force models.
enum class WindModel {
  Plate,   ///< Kang eq. 17 drag with thin-plate lift (zero when the cloth lies along the flow)
  Kang,    ///< Kang eq. 17-19 as published: lift largest when the cloth lies along the flow
  Linear,  ///< Huang eq. 4: F = k_w (v_wind - v)
};

struct SolverSettings {
  Integrator integrator = Integrator::ApproxImplicit;
  Real h = 0.001;    // time step of one simulation step (s)
  int substeps = 1;  // solver sub-steps per step, each of h / substeps
  LinearSolver solver = LinearSolver::Multigrid;
  int iterations = 1;     // Jacobi iterations of the approximate implicit update (1 = Kang eq. 10)
  int cycles = 10;        // most multigrid V-cycles per step
  Real tolerance = 1e-2;  // relative residual at which the multigrid solve stops (1 % gives the
                          // flag spectrum, drape and free fall of 1e-3: clothbench large-steps)
  Real theta = 1.0;       // implicitness of the implicit steps: 1 = backward Euler, 0.5 = trapezoidal rule
                          // (solve/theta_method.h)
  ImplicitScheme scheme = ImplicitScheme::Theta;  // implicit-cg's: the theta-method or BDF2
  int cgMaxIterations = 200;
  Real cgTolerance = 1e-8;     // relative residual at which conjugate gradients stops
  int threads = 0;             // threads that share the solver's loops (0 = one per core)
  Real smallStep = 1.0 / 960;  // longest sub-step of the small-steps integrator (s): 16 a 60 Hz step
};

struct MaterialSettings {
  Real kStructural = 400;    // N/m
  Real kShear = 100;         // N/m
  Real kBending = 10;        // N/m
  Real compression = 1.0;    // stiffness factor of compressed springs (1 = as stretched; cloth buckles: < 1)
  Real massPerNode = 0.004;  // kg
  Real airDamping = 0.0;     // global air damping c_air (N s/m per node): F = -c_air v
  bool tethers = true;       // long-range attachments to the kinematic nodes (tethers.h)
  Real tau = 0.1;            // Provot critical deformation rate (dimensionless, 0.1 = 10 %)
  int provotPasses = 24;     // maximum Provot passes per step (stops early once all springs comply)
  bool provotOutward = false;     // Provot's passes ordered outward from pinned nodes (provot.h)
  Real provotRelaxation = 0;      // over-relaxation omega of Provot passes (1 = Provot's original;
                                  // below 1: for the grid, provotRelaxationFor)
  bool strainProjection = false;  // then a global projection of what they left (strain_projection.h)
};

struct WindSettings {
  WindModel model = WindModel::Plate;
  Vec3 velocity{0, 0, 0};         // wind velocity (m/s)
  Real dragCoefficient = 0.01;    // K_D (kg/m), Kang eq. 17
  Real liftCoefficient = 0.01;    // K_L (kg/m), Kang eq. 19 or the thin-plate lift
  Real linearCoefficient = 0.02;  // k_w (kg/s), Huang eq. 4
  Real gustStrength = 0.0;        // relative gust amplitude (0 = steady wind)
  Real gustFrequency = 0.5;       // gust frequency (Hz)
};

/// Which axis of a mesh collider's file points up: as its format implies or it declares, Y or Z.
enum class MeshUp { Auto, Y, Z };

struct CollisionSettings {
  Real thickness = 0.005;      // contact offset kept between cloth and colliders (m)
  Real friction = 0.3;         // Coulomb friction coefficient (dimensionless)
  Real selfFriction = 0;       // the same between the cloth's own layers (self_collision.h)
  bool selfCollision = false;  // cloth against itself: kept apart, never through (self_impacts.h)
  /// With self-collision and the small-steps integrator: every small step runs the contacts (else the
  /// step runs them once, after its small steps).
  bool contactsEverySmallStep = false;
  /// With contactsEverySmallStep: how many small steps one pass of the contacts spans, on straight
  /// paths over them (1: each small step). At most 4 from the settings: over 8 of the flag's, its
  /// corner dragged onto its pole left 2 nodes in the pole and strain 0.83.
  int smallStepsPerContact = 1;
  bool meshFit = true;           // mesh colliders scaled to 0.8 m and set on the ground (collider.h)
  Real meshScale = 1.0;          // then scaled by this (dimensionless)
  Vec3 meshOffset{0};            // then moved by this (m)
  MeshUp meshUp = MeshUp::Auto;  // which axis of a mesh file is up (collider.h)
};

struct SimParams {
  Vec3 gravity{0, -kGravity, 0};  // m/s^2
  SolverSettings solver;
  MaterialSettings material;
  WindSettings wind;
  CollisionSettings collision;
  Real maxHandleSpeed = 8.0;  // fastest a dragged node or a held collider may move (m/s)
};

}  // namespace cloth::sim
