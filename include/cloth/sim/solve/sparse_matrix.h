#pragma once
// A sparse matrix in compressed rows with scalar entries, applied to vectors of Vec3 (the same
// matrix acts on x, y and z, as the implicit system of Kang eq. 6 does). The building blocks of the
// multigrid solver: products, Gauss-Seidel sweeps and Galerkin coarse operators.

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/parallel.h"
#include "cloth/sim/types.h"

namespace cloth::sim {

struct SparseMatrix {
  int rows = 0;
  int cols = 0;
  std::vector<std::uint32_t> start;  ///< rows + 1: row i's entries are [start[i], start[i + 1])
  std::vector<std::int32_t> column;  ///< ascending within a row
  std::vector<Real> value;

  std::size_t nonZeros() const { return value.size(); }
  /// The entry at (row, col), 0 if it is not stored.
  Real at(int row, int col) const;
};

/// y = A x, rows split over `workers`.
void multiply(const SparseMatrix& a, std::span<const Vec3> x, std::span<Vec3> y, Workers* workers = nullptr);
/// The same, split from `grain` rows a thread (the plain one's: 1,024).
void multiply(const SparseMatrix& a, std::span<const Vec3> x, std::span<Vec3> y, Workers* workers,
              std::size_t grain);
/// y += A x.
void addProduct(const SparseMatrix& a, std::span<const Vec3> x, std::span<Vec3> y,
                Workers* workers = nullptr);

/// r = b - A x; returns the Euclidean norm of r (the same on any thread count).
Real residual(const SparseMatrix& a, std::span<const Vec3> b, std::span<const Vec3> x, std::span<Vec3> r,
              Workers* workers = nullptr);

/// One Gauss-Seidel sweep on A x = b, rows in ascending (forward) or descending order:
/// x_i += (b_i - (A x)_i) / A_ii with the newest x. `inverseDiagonal` holds 1 / A_ii.
void gaussSeidel(const SparseMatrix& a, std::span<const Real> inverseDiagonal, std::span<const Vec3> b,
                 std::span<Vec3> x, bool forward);

/// Rows per block of blockGaussSeidel: a matrix of at most this many rows is one block (a 32^2
/// grid's; with 4,096 the 64^2 grid's smoothing ran on one thread).
inline constexpr int kGaussSeidelBlock = 1024;

/// The Gauss-Seidel sweep above within fixed blocks of kGaussSeidelBlock consecutive rows, and a
/// Jacobi step between them: a row reads the newest x of its own block and, of the others, x as it
/// was when the sweep began (kept in `before`). The blocks depend on the matrix alone, so the sweep
/// gives the same x on any number of threads; with one block it is gaussSeidel. Forward and
/// backward sweeps are each other's transposes, so a V-cycle smoothed by them stays symmetric.
void blockGaussSeidel(const SparseMatrix& a, std::span<const Real> inverseDiagonal, std::span<const Vec3> b,
                      std::span<Vec3> x, bool forward, std::vector<Vec3>& before, Workers* workers);

/// What blockGaussSeidel reads across its blocks, found once for a matrix's pattern.
struct GaussSeidelBlocks {
  std::vector<std::uint8_t> inside;    ///< per row: every column of it in the row's own block
  std::vector<std::int32_t> crossing;  ///< the columns some row of another block reads, ascending
};
GaussSeidelBlocks gaussSeidelBlocks(const SparseMatrix& a);

/// blockGaussSeidel for a matrix whose `blocks` are known (the multigrid's levels, swept many times
/// a step): `before` takes only the crossing columns, and the rows inside their block read x without
/// asking which block a column is in. The same x, bit for bit.
void blockGaussSeidel(const SparseMatrix& a, const GaussSeidelBlocks& blocks,
                      std::span<const Real> inverseDiagonal, std::span<const Vec3> b, std::span<Vec3> x,
                      bool forward, std::vector<Vec3>& before, Workers* workers);

/// 1 / A_ii for every row.
std::vector<Real> inverseDiagonal(const SparseMatrix& a);

/// The transpose.
SparseMatrix transpose(const SparseMatrix& a);

/// The product A B.
SparseMatrix product(const SparseMatrix& a, const SparseMatrix& b);

/// The Galerkin coarse operator P^T A P of A for the prolongation P (fine rows, coarse columns).
SparseMatrix galerkin(const SparseMatrix& a, const SparseMatrix& p);

/// Solves small symmetric positive definite systems by a dense Cholesky factorisation.
class DenseCholesky {
 public:
  /// Factorises A; false if it is not positive definite.
  bool factor(const SparseMatrix& a);
  void solve(std::span<const Vec3> b, std::span<Vec3> x) const;

 private:
  int n_ = 0;
  std::vector<Real> l_;  ///< lower triangle, row-major n x n
};

}  // namespace cloth::sim
