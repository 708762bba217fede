#include "principal_axes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ilotoki {

namespace {

constexpr int kMostSteps = 64; // implicit QL steps for one eigenvalue

/// Householder's reduction: `a` (full, symmetric) becomes tridiagonal T with a = Z T Zᵀ, `z`
/// (row-major) the product of the reflections.
void reduce_to_tridiagonal(std::vector<double> &a, int32_t n, std::vector<double> &z) {
    const auto at = [n](int32_t row, int32_t column) { return static_cast<size_t>(row) * static_cast<size_t>(n) + static_cast<size_t>(column); };
    z.assign(static_cast<size_t>(n) * static_cast<size_t>(n), 0.0);
    for (int32_t i = 0; i < n; ++i) z[at(i, i)] = 1.0;
    std::vector<double> v(static_cast<size_t>(n)), p(static_cast<size_t>(n));
    for (int32_t k = 0; k + 2 < n; ++k) {
        // The reflection H = I − 2 v vᵀ on coordinates k+1.. that takes column k's part below
        // the diagonal, x, to alpha e₁.
        const int32_t first = k + 1, size = n - first;
        double squares = 0.0;
        for (int32_t i = 0; i < size; ++i) squares += a[at(first + i, k)] * a[at(first + i, k)];
        const double norm = std::sqrt(squares);
        if (norm == 0.0) continue;
        const double alpha = a[at(first, k)] > 0.0 ? -norm : norm;
        double length = 0.0;
        for (int32_t i = 0; i < size; ++i) {
            v[static_cast<size_t>(i)] = a[at(first + i, k)] - (i == 0 ? alpha : 0.0);
            length += v[static_cast<size_t>(i)] * v[static_cast<size_t>(i)];
        }
        length = std::sqrt(length);
        if (length == 0.0) continue;
        for (int32_t i = 0; i < size; ++i) v[static_cast<size_t>(i)] /= length;
        // The trailing block B becomes H B H = B − 2 v qᵀ − 2 q vᵀ, with p = B v, q = p − (vᵀp) v.
        double vp = 0.0;
        for (int32_t i = 0; i < size; ++i) {
            double sum = 0.0;
            for (int32_t j = 0; j < size; ++j) sum += a[at(first + i, first + j)] * v[static_cast<size_t>(j)];
            p[static_cast<size_t>(i)] = sum;
            vp += v[static_cast<size_t>(i)] * sum;
        }
        for (int32_t i = 0; i < size; ++i) p[static_cast<size_t>(i)] -= vp * v[static_cast<size_t>(i)];
        for (int32_t i = 0; i < size; ++i) {
            for (int32_t j = 0; j < size; ++j) {
                a[at(first + i, first + j)] -= 2.0 * (v[static_cast<size_t>(i)] * p[static_cast<size_t>(j)] + p[static_cast<size_t>(i)] * v[static_cast<size_t>(j)]);
            }
        }
        for (int32_t i = 0; i < size; ++i) {
            a[at(first + i, k)] = i == 0 ? alpha : 0.0;
            a[at(k, first + i)] = i == 0 ? alpha : 0.0;
        }
        // Z becomes Z H.
        for (int32_t row = 0; row < n; ++row) {
            double t = 0.0;
            for (int32_t j = 0; j < size; ++j) t += z[at(row, first + j)] * v[static_cast<size_t>(j)];
            for (int32_t j = 0; j < size; ++j) z[at(row, first + j)] -= 2.0 * t * v[static_cast<size_t>(j)];
        }
    }
}

} // namespace

bool symmetric_eigen(const std::vector<double> &matrix, int32_t n, std::vector<double> &values, std::vector<double> &vectors) {
    if (n <= 0 || matrix.size() < static_cast<size_t>(n) * static_cast<size_t>(n)) return false;
    const auto at = [n](int32_t row, int32_t column) { return static_cast<size_t>(row) * static_cast<size_t>(n) + static_cast<size_t>(column); };
    std::vector<double> a(static_cast<size_t>(n) * static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t j = i; j < n; ++j) a[at(i, j)] = a[at(j, i)] = matrix[at(i, j)];
    }
    std::vector<double> z;
    reduce_to_tridiagonal(a, n, z);
    std::vector<double> d(static_cast<size_t>(n)), e(static_cast<size_t>(n), 0.0);
    for (int32_t i = 0; i < n; ++i) d[static_cast<size_t>(i)] = a[at(i, i)];
    for (int32_t i = 0; i + 1 < n; ++i) e[static_cast<size_t>(i)] = a[at(i, i + 1)];
    // Z's columns, as rows: a plane rotation of columns i and i+1 then touches two rows.
    std::vector<double> columns(z.size());
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t k = 0; k < n; ++k) columns[at(i, k)] = z[at(k, i)];
    }
    // Implicit QL steps with Wilkinson's shift; e[i] couples d[i] and d[i+1].
    for (int32_t l = 0; l < n; ++l) {
        for (int steps = 0;; ++steps) {
            int32_t m = l;
            for (; m + 1 < n; ++m) {
                const double scale = std::fabs(d[static_cast<size_t>(m)]) + std::fabs(d[static_cast<size_t>(m) + 1]);
                if (std::fabs(e[static_cast<size_t>(m)]) <= std::numeric_limits<double>::epsilon() * scale) break;
            }
            if (m == l) break;
            if (steps == kMostSteps) return false;
            double g = (d[static_cast<size_t>(l) + 1] - d[static_cast<size_t>(l)]) / (2.0 * e[static_cast<size_t>(l)]);
            double r = std::hypot(g, 1.0);
            g = d[static_cast<size_t>(m)] - d[static_cast<size_t>(l)] + e[static_cast<size_t>(l)] / (g + std::copysign(r, g));
            double s = 1.0, c = 1.0, p = 0.0;
            bool split = false;
            for (int32_t i = m - 1; i >= l; --i) {
                const auto ui = static_cast<size_t>(i);
                const double f = s * e[ui], b = c * e[ui];
                r = std::hypot(f, g);
                e[ui + 1] = r;
                if (r == 0.0) {
                    // The matrix split here: go on with the part below.
                    d[ui + 1] -= p;
                    e[static_cast<size_t>(m)] = 0.0;
                    split = true;
                    break;
                }
                s = f / r;
                c = g / r;
                g = d[ui + 1] - p;
                r = (d[ui] - g) * s + 2.0 * c * b;
                p = s * r;
                d[ui + 1] = g + p;
                g = c * r - b;
                double *lower = &columns[at(i, 0)];
                double *upper = &columns[at(i + 1, 0)];
                for (int32_t k = 0; k < n; ++k) {
                    const double next = upper[k];
                    upper[k] = s * lower[k] + c * next;
                    lower[k] = c * lower[k] - s * next;
                }
            }
            if (split) continue;
            d[static_cast<size_t>(l)] -= p;
            e[static_cast<size_t>(l)] = g;
            e[static_cast<size_t>(m)] = 0.0;
        }
    }
    std::vector<int32_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    // Falling values; equal ones in the order found.
    std::sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
        const double dx = d[static_cast<size_t>(x)], dy = d[static_cast<size_t>(y)];
        return dx != dy ? dx > dy : x < y;
    });
    values.resize(static_cast<size_t>(n));
    vectors.resize(columns.size());
    for (int32_t k = 0; k < n; ++k) {
        values[static_cast<size_t>(k)] = d[static_cast<size_t>(order[static_cast<size_t>(k)])];
        std::copy_n(&columns[at(order[static_cast<size_t>(k)], 0)], n, &vectors[at(k, 0)]);
    }
    return true;
}

PrincipalAxes::PrincipalAxes(int32_t dimensions)
    : n_(std::max(0, dimensions)), moment_(static_cast<size_t>(n_) * static_cast<size_t>(n_), 0.0) {}

void PrincipalAxes::add(const float *row) {
    const auto n = static_cast<size_t>(n_);
    for (size_t i = 0; i < n; ++i) {
        const double x = row[i];
        if (x == 0.0) continue;
        double *line = &moment_[i * n];
        for (size_t j = i; j < n; ++j) line[j] += x * static_cast<double>(row[j]);
    }
    ++rows_;
}

bool PrincipalAxes::solve() {
    if (rows_ == 0 || n_ == 0) return false;
    std::vector<double> mean(moment_.size());
    for (size_t i = 0; i < moment_.size(); ++i) mean[i] = moment_[i] / static_cast<double>(rows_);
    if (!symmetric_eigen(mean, n_, energies_, axes_)) return false;
    // ‖AᵀA − I‖_F = ‖AAᵀ − I‖_F for a square A: the axes' dot products against the identity.
    const auto n = static_cast<size_t>(n_);
    double squares = 0.0;
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = i; j < n; ++j) {
            double dot = 0.0;
            for (size_t k = 0; k < n; ++k) dot += axes_[i * n + k] * axes_[j * n + k];
            const double off = dot - (i == j ? 1.0 : 0.0);
            squares += (i == j ? 1.0 : 2.0) * off * off;
        }
    }
    // Rounded up well past the sum's own rounding.
    orthonormal_error_ = std::sqrt(squares) * (1.0 + 1e-6) + static_cast<double>(n) * static_cast<double>(n) * std::numeric_limits<double>::epsilon();
    float_axes_.assign(axes_.begin(), axes_.end());
    return true;
}

namespace {

constexpr size_t kTileRows = 8; // rows that share each axis's pass through the cache

/// Eight rows' coordinates on axes [first, last): sixteen sums a dot product, which compilers
/// turn into vectors without reordering a sum.
template <size_t Rows>
__attribute__((always_inline)) inline void rotate_tile(const float *axes, size_t n, size_t first, size_t last, const float *rows, float *out) {
    for (size_t k = first; k < last; ++k) {
        const float *axis = axes + k * n;
        float sums[Rows][16] = {};
        for (size_t j = 0; j + 16 <= n; j += 16) {
            for (size_t r = 0; r < Rows; ++r) {
                const float *row = rows + r * n + j;
                for (size_t l = 0; l < 16; ++l) sums[r][l] += axis[j + l] * row[l];
            }
        }
        for (size_t r = 0; r < Rows; ++r) {
            float total = 0.0f;
            for (size_t j = n / 16 * 16; j < n; ++j) total += axis[j] * rows[r * n + j];
            for (size_t l = 0; l < 16; ++l) total += sums[r][l];
            out[r * n + k] = total;
        }
    }
}

#if defined(__x86_64__)
#define ILOTOKI_AXES_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ILOTOKI_AXES_CLONES
#endif

ILOTOKI_AXES_CLONES void rotate_rows_in(const float *axes, size_t n, const float *rows, size_t count, float *out) {
    size_t at = 0;
    for (; at + kTileRows <= count; at += kTileRows) rotate_tile<kTileRows>(axes, n, 0, n, rows + at * n, out + at * n);
    for (; at < count; ++at) rotate_tile<1>(axes, n, 0, n, rows + at * n, out + at * n);
}

} // namespace

void PrincipalAxes::rotate_rows(const float *rows, size_t count, float *out) const {
    rotate_rows_in(float_axes_.data(), static_cast<size_t>(n_), rows, count, out);
}

double PrincipalAxes::double_rotation_error() const {
    // γ_n Σ_j |A_kj| |w_j| ≤ γ_n ‖A_k‖ ‖w‖ for a sum of n doubles in order (an axis's length is
    // within the orthonormal error of 1).
    const double u = std::numeric_limits<double>::epsilon() / 2.0, n = static_cast<double>(n_);
    return n * u / (1.0 - n * u) * (1.0 + orthonormal_error_) * 1.01;
}

double PrincipalAxes::float_rotation_error() const {
    // A float sum of n products in any order is off by at most γ_n Σ_j |a_j w_j| (products
    // rounded or fused alike, γ_n = n u / (1 − n u), u = 2^-24), and the axes' rounding to floats
    // adds u Σ_j |A_kj| |w_j|; Σ_j |A_kj| |w_j| ≤ ‖A_k‖ ‖w‖, and an axis's length is within the
    // orthonormal error of 1.
    const double u = std::ldexp(1.0, -24), n = static_cast<double>(n_) + 1.0;
    const double gamma = n * u / (1.0 - n * u);
    return (gamma + u) * (1.0 + u) * (1.0 + orthonormal_error_) * 1.0001;
}

void PrincipalAxes::rotate(const float *row, double *out) const {
    const auto n = static_cast<size_t>(n_);
    for (size_t k = 0; k < n; ++k) {
        const double *axis_k = &axes_[k * n];
        double sum = 0.0;
        for (size_t j = 0; j < n; ++j) sum += axis_k[j] * static_cast<double>(row[j]);
        out[k] = sum;
    }
}

} // namespace ilotoki
