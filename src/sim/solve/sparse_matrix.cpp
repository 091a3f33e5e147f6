#include "cloth/sim/solve/sparse_matrix.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::sim {

Real SparseMatrix::at(int row, int col) const {
  const auto first = column.begin() + start[row], last = column.begin() + start[row + 1];
  const auto it = std::lower_bound(first, last, col);
  return it != last && *it == col ? value[static_cast<std::size_t>(it - column.begin())] : 0.0;
}

namespace {

constexpr std::size_t kRowGrain = 1024;  // rows below which a thread of its own does not pay

// (A x)_i.
Vec3 rowTimes(const SparseMatrix& a, std::size_t i, std::span<const Vec3> x) {
  Vec3 ax(0);
  for (std::uint32_t e = a.start[i]; e < a.start[i + 1]; ++e) ax += a.value[e] * x[a.column[e]];
  return ax;
}

}  // namespace

void multiply(const SparseMatrix& a, std::span<const Vec3> x, std::span<Vec3> y, Workers* workers) {
  multiply(a, x, y, workers, kRowGrain);
}

void multiply(const SparseMatrix& a, std::span<const Vec3> x, std::span<Vec3> y, Workers* workers,
              std::size_t grain) {
  parallelFor(workers, static_cast<std::size_t>(a.rows), grain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) y[i] = rowTimes(a, i, x);
  });
}

void addProduct(const SparseMatrix& a, std::span<const Vec3> x, std::span<Vec3> y, Workers* workers) {
  parallelFor(workers, static_cast<std::size_t>(a.rows), kRowGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) y[i] += rowTimes(a, i, x);
  });
}

Real residual(const SparseMatrix& a, std::span<const Vec3> b, std::span<const Vec3> x, std::span<Vec3> r,
              Workers* workers) {
  const Real norm2 =
      parallelSum(workers, static_cast<std::size_t>(a.rows), [&](std::size_t first, std::size_t last) {
        Real part = 0;
        for (std::size_t i = first; i < last; ++i) {
          Vec3 sum = b[i];
          for (std::uint32_t e = a.start[i]; e < a.start[i + 1]; ++e) sum -= a.value[e] * x[a.column[e]];
          r[i] = sum;
          part += glm::dot(sum, sum);
        }
        return part;
      });
  return std::sqrt(norm2);
}

namespace {

// (A x)_i with x's rows [first, last) as they are and the others as in `before`.
Vec3 rowTimesAcross(const SparseMatrix& a, int i, std::span<const Vec3> x, std::span<const Vec3> before,
                    int first, int last) {
  Vec3 ax(0);
  for (std::uint32_t e = a.start[i]; e < a.start[i + 1]; ++e) {
    const int j = a.column[e];
    ax += a.value[e] * (j >= first && j < last ? x[j] : before[j]);
  }
  return ax;
}

}  // namespace

void gaussSeidel(const SparseMatrix& a, std::span<const Real> inverseDiagonal, std::span<const Vec3> b,
                 std::span<Vec3> x, bool forward) {
  for (int k = 0; k < a.rows; ++k) {
    const int i = forward ? k : a.rows - 1 - k;
    x[i] += inverseDiagonal[i] * (b[i] - rowTimes(a, i, x));
  }
}

void blockGaussSeidel(const SparseMatrix& a, std::span<const Real> inverseDiagonal, std::span<const Vec3> b,
                      std::span<Vec3> x, bool forward, std::vector<Vec3>& before, Workers* workers) {
  const int blocks = (a.rows + kGaussSeidelBlock - 1) / kGaussSeidelBlock;
  if (blocks <= 1) return gaussSeidel(a, inverseDiagonal, b, x, forward);
  before.assign(x.begin(), x.end());
  parallelFor(workers, static_cast<std::size_t>(blocks), 1,
              [&](std::size_t firstBlock, std::size_t lastBlock) {
                for (std::size_t blk = firstBlock; blk < lastBlock; ++blk) {
                  const int first = static_cast<int>(blk) * kGaussSeidelBlock;
                  const int last = std::min(a.rows, first + kGaussSeidelBlock);
                  for (int k = first; k < last; ++k) {
                    const int i = forward ? k : first + last - 1 - k;
                    x[i] += inverseDiagonal[i] * (b[i] - rowTimesAcross(a, i, x, before, first, last));
                  }
                }
              });
}

GaussSeidelBlocks gaussSeidelBlocks(const SparseMatrix& a) {
  GaussSeidelBlocks blocks;
  blocks.inside.assign(static_cast<std::size_t>(a.rows), 1);
  std::vector<std::uint8_t> crossing(static_cast<std::size_t>(a.cols), 0);
  for (int i = 0; i < a.rows; ++i) {
    const int first = i / kGaussSeidelBlock * kGaussSeidelBlock, last = first + kGaussSeidelBlock;
    for (std::uint32_t e = a.start[i]; e < a.start[i + 1]; ++e)
      if (const int j = a.column[e]; j < first || j >= last) {
        blocks.inside[i] = 0;
        crossing[j] = 1;
      }
  }
  for (int j = 0; j < a.cols; ++j)
    if (crossing[j]) blocks.crossing.push_back(j);
  return blocks;
}

void blockGaussSeidel(const SparseMatrix& a, const GaussSeidelBlocks& blocks,
                      std::span<const Real> inverseDiagonal, std::span<const Vec3> b, std::span<Vec3> x,
                      bool forward, std::vector<Vec3>& before, Workers* workers) {
  const int count = (a.rows + kGaussSeidelBlock - 1) / kGaussSeidelBlock;
  if (count <= 1) return gaussSeidel(a, inverseDiagonal, b, x, forward);
  before.resize(x.size());
  for (std::int32_t j : blocks.crossing) before[j] = x[j];
  parallelFor(workers, static_cast<std::size_t>(count), 1,
              [&](std::size_t firstBlock, std::size_t lastBlock) {
                for (std::size_t blk = firstBlock; blk < lastBlock; ++blk) {
                  const int first = static_cast<int>(blk) * kGaussSeidelBlock;
                  const int last = std::min(a.rows, first + kGaussSeidelBlock);
                  for (int k = first; k < last; ++k) {
                    const int i = forward ? k : first + last - 1 - k;
                    const Vec3 ax =
                        blocks.inside[i] ? rowTimes(a, i, x) : rowTimesAcross(a, i, x, before, first, last);
                    x[i] += inverseDiagonal[i] * (b[i] - ax);
                  }
                }
              });
}

std::vector<Real> inverseDiagonal(const SparseMatrix& a) {
  std::vector<Real> d(static_cast<std::size_t>(a.rows));
  for (int i = 0; i < a.rows; ++i) d[i] = 1 / a.at(i, i);
  return d;
}

SparseMatrix transpose(const SparseMatrix& a) {
  SparseMatrix t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.start.assign(static_cast<std::size_t>(t.rows) + 1, 0);
  for (std::int32_t c : a.column) ++t.start[c + 1];
  for (int i = 0; i < t.rows; ++i) t.start[i + 1] += t.start[i];
  t.column.resize(a.nonZeros());
  t.value.resize(a.nonZeros());
  std::vector<std::uint32_t> fill(t.start.begin(), t.start.end() - 1);
  for (int i = 0; i < a.rows; ++i)  // rows in ascending order keep each transposed row sorted
    for (std::uint32_t e = a.start[i]; e < a.start[i + 1]; ++e) {
      const std::uint32_t slot = fill[a.column[e]]++;
      t.column[slot] = i;
      t.value[slot] = a.value[e];
    }
  return t;
}

// Gustavson's row-by-row product with a dense accumulator over B's columns.
SparseMatrix product(const SparseMatrix& a, const SparseMatrix& b) {
  SparseMatrix c;
  c.rows = a.rows;
  c.cols = b.cols;
  c.start.assign(1, 0);
  std::vector<Real> accumulator(static_cast<std::size_t>(b.cols), 0.0);
  std::vector<std::int32_t> seen(static_cast<std::size_t>(b.cols), -1);
  std::vector<std::int32_t> rowColumns;
  for (int i = 0; i < a.rows; ++i) {
    rowColumns.clear();
    for (std::uint32_t e = a.start[i]; e < a.start[i + 1]; ++e) {
      const int k = a.column[e];
      for (std::uint32_t f = b.start[k]; f < b.start[k + 1]; ++f) {
        const int j = b.column[f];
        if (seen[j] != i) seen[j] = i, accumulator[j] = 0, rowColumns.push_back(j);
        accumulator[j] += a.value[e] * b.value[f];
      }
    }
    std::sort(rowColumns.begin(), rowColumns.end());
    for (int j : rowColumns) {
      c.column.push_back(j);
      c.value.push_back(accumulator[j]);
    }
    c.start.push_back(static_cast<std::uint32_t>(c.column.size()));
  }
  return c;
}

SparseMatrix galerkin(const SparseMatrix& a, const SparseMatrix& p) {
  return product(transpose(p), product(a, p));
}

bool DenseCholesky::factor(const SparseMatrix& a) {
  n_ = a.rows;
  l_.assign(static_cast<std::size_t>(n_) * n_, 0.0);
  for (int i = 0; i < n_; ++i)
    for (std::uint32_t e = a.start[i]; e < a.start[i + 1]; ++e)
      if (a.column[e] <= i) l_[i * n_ + a.column[e]] = a.value[e];
  for (int j = 0; j < n_; ++j) {
    Real d = l_[j * n_ + j];
    for (int k = 0; k < j; ++k) d -= l_[j * n_ + k] * l_[j * n_ + k];
    if (!(d > 0)) return false;
    l_[j * n_ + j] = std::sqrt(d);
    for (int i = j + 1; i < n_; ++i) {
      Real s = l_[i * n_ + j];
      for (int k = 0; k < j; ++k) s -= l_[i * n_ + k] * l_[j * n_ + k];
      l_[i * n_ + j] = s / l_[j * n_ + j];
    }
  }
  return true;
}

void DenseCholesky::solve(std::span<const Vec3> b, std::span<Vec3> x) const {
  for (int i = 0; i < n_; ++i) {  // L y = b
    Vec3 s = b[i];
    for (int k = 0; k < i; ++k) s -= l_[i * n_ + k] * x[k];
    x[i] = s / l_[i * n_ + i];
  }
  for (int i = n_ - 1; i >= 0; --i) {  // L^T x = y
    Vec3 s = x[i];
    for (int k = i + 1; k < n_; ++k) s -= l_[k * n_ + i] * x[k];
    x[i] = s / l_[i * n_ + i];
  }
}

}  // namespace cloth::sim
