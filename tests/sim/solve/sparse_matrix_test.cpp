#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/solve/sparse_matrix.h"

using namespace cloth::sim;

namespace {

using Dense = std::vector<std::vector<Real>>;

SparseMatrix sparse(const Dense& d) {
  SparseMatrix m;
  m.rows = static_cast<int>(d.size());
  m.cols = static_cast<int>(d[0].size());
  m.start.assign(1, 0);
  for (const auto& row : d) {
    for (std::size_t j = 0; j < row.size(); ++j)
      if (row[j] != 0) m.column.push_back(static_cast<int>(j)), m.value.push_back(row[j]);
    m.start.push_back(static_cast<std::uint32_t>(m.column.size()));
  }
  return m;
}

Dense randomDense(int rows, int cols, std::mt19937& rng, double fill) {
  std::uniform_real_distribution<Real> u(-1, 1), p(0, 1);
  Dense d(rows, std::vector<Real>(cols, 0.0));
  for (auto& row : d)
    for (Real& v : row) v = p(rng) < fill ? u(rng) : 0.0;
  return d;
}

// A symmetric positive definite matrix: a random sparse graph Laplacian plus a positive diagonal.
Dense spd(int n, std::mt19937& rng) {
  std::uniform_real_distribution<Real> w(0.1, 2), p(0, 1);
  Dense d(n, std::vector<Real>(n, 0.0));
  for (int i = 0; i < n; ++i) {
    d[i][i] += 0.5 + p(rng);
    for (int j = i + 1; j < n; ++j)
      if (p(rng) < 0.3) {
        const Real k = w(rng);
        d[i][j] -= k, d[j][i] -= k, d[i][i] += k, d[j][j] += k;
      }
  }
  return d;
}

}  // namespace

TEST_CASE("sparse_matrix: products, transposes and Galerkin operators equal dense arithmetic") {
  std::mt19937 rng(1);
  const Dense a = randomDense(7, 5, rng, 0.4), b = randomDense(5, 6, rng, 0.4);
  const SparseMatrix ab = product(sparse(a), sparse(b));
  const SparseMatrix at = transpose(sparse(a));
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 6; ++j) {
      Real expected = 0;
      for (int k = 0; k < 5; ++k) expected += a[i][k] * b[k][j];
      CHECK(ab.at(i, j) == Approx(expected).margin(1e-12));
    }
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 5; ++j) CHECK(at.at(j, i) == a[i][j]);
  const Dense m = spd(6, rng), p = randomDense(6, 3, rng, 0.6);
  const SparseMatrix g = galerkin(sparse(m), sparse(p));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Real expected = 0;
      for (int k = 0; k < 6; ++k)
        for (int l = 0; l < 6; ++l) expected += p[k][i] * m[k][l] * p[l][j];
      CHECK(g.at(i, j) == Approx(expected).margin(1e-12));
    }
}

TEST_CASE("sparse_matrix: Gauss-Seidel converges and the dense Cholesky solve is exact") {
  std::mt19937 rng(2);
  const int n = 12;
  const SparseMatrix a = sparse(spd(n, rng));
  std::vector<Vec3> xTrue(n), b(n), x(n, Vec3(0)), r(n);
  std::normal_distribution<Real> g;
  for (Vec3& v : xTrue) v = Vec3(g(rng), g(rng), g(rng));
  multiply(a, xTrue, b);
  DenseCholesky cholesky;
  REQUIRE(cholesky.factor(a));
  cholesky.solve(b, x);
  for (int i = 0; i < n; ++i) CHECK(glm::length(x[i] - xTrue[i]) < 1e-10);
  std::fill(x.begin(), x.end(), Vec3(0));
  Real previous = residual(a, b, x, r);
  for (int sweep = 0; sweep < 40; ++sweep) {
    gaussSeidel(a, inverseDiagonal(a), b, x, sweep % 2 == 0);
    const Real now = residual(a, b, x, r);
    CHECK(now < previous);
    previous = now;
  }
  for (int i = 0; i < n; ++i) CHECK(glm::length(x[i] - xTrue[i]) < 1e-4);
}
