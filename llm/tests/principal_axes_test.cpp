// The principal axes (principal_axes.cpp):
//   - symmetric_eigen, on random symmetric matrices of 1 to 640 rows and on awkward ones (zero,
//     the identity, repeated eigenvalues, already tridiagonal, rank one): every pair satisfies
//     A v = λ v within rounding, the vectors are orthonormal, the values fall and sum to the
//     trace;
//   - PrincipalAxes, over rows like a model's head (a shared direction and noise): the first axis
//     is the shared direction, the energies are the rows' mean squares along the axes, and
//     rotating keeps dot products within the stated orthonormal error, and rotating in float stays
//     within its stated error of the double rotation.
// Prints what the 640 × 640 solve took (not a pass condition).
#include "principal_axes.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using ilotoki::PrincipalAxes;
using ilotoki::symmetric_eigen;

namespace {

int failures = 0;

void expect(bool condition, const char *what, int32_t n) {
    if (!condition) {
        std::fprintf(stderr, "FAIL: n = %d: %s\n", n, what);
        ++failures;
    }
}

size_t at(int32_t n, int32_t row, int32_t column) { return static_cast<size_t>(row) * static_cast<size_t>(n) + static_cast<size_t>(column); }

/// Checks the decomposition of `a` (full, symmetric) and returns the largest residual found.
void check_decomposition(const std::vector<double> &a, int32_t n, const char *what) {
    std::vector<double> values, vectors;
    const bool solved = symmetric_eigen(a, n, values, vectors);
    expect(solved, what, n);
    if (!solved) return;
    double frobenius = 0.0, trace = 0.0;
    for (int32_t i = 0; i < n; ++i) {
        trace += a[at(n, i, i)];
        for (int32_t j = 0; j < n; ++j) frobenius += a[at(n, i, j)] * a[at(n, i, j)];
    }
    frobenius = std::sqrt(frobenius);
    const double scale = std::max(frobenius, 1e-300);
    double residual = 0.0, orthogonality = 0.0, sum = 0.0;
    bool falling = true;
    for (int32_t k = 0; k < n; ++k) {
        const double *v = &vectors[at(n, k, 0)];
        for (int32_t i = 0; i < n; ++i) {
            double av = 0.0;
            for (int32_t j = 0; j < n; ++j) av += a[at(n, i, j)] * v[j];
            residual = std::max(residual, std::fabs(av - values[static_cast<size_t>(k)] * v[i]));
        }
        for (int32_t l = k; l < n; ++l) {
            double dot = 0.0;
            for (int32_t j = 0; j < n; ++j) dot += v[j] * vectors[at(n, l, j)];
            orthogonality = std::max(orthogonality, std::fabs(dot - (k == l ? 1.0 : 0.0)));
        }
        if (k > 0 && values[static_cast<size_t>(k)] > values[static_cast<size_t>(k) - 1]) falling = false;
        sum += values[static_cast<size_t>(k)];
    }
    char message[160];
    std::snprintf(message, sizeof(message), "%s: A v = λ v (largest residual %.3g of ‖A‖ %.3g)", what, residual, frobenius);
    expect(residual <= 1e-11 * scale * std::sqrt(static_cast<double>(n)) + 1e-300, message, n);
    std::snprintf(message, sizeof(message), "%s: orthonormal (largest error %.3g)", what, orthogonality);
    expect(orthogonality <= 1e-12 * std::sqrt(static_cast<double>(n)) + 1e-14, message, n);
    std::snprintf(message, sizeof(message), "%s: values fall", what);
    expect(falling, message, n);
    std::snprintf(message, sizeof(message), "%s: values sum to the trace (%.17g against %.17g)", what, sum, trace);
    expect(std::fabs(sum - trace) <= 1e-11 * scale * static_cast<double>(n) + 1e-300, message, n);
}

std::vector<double> random_symmetric(int32_t n, std::mt19937 &random) {
    std::normal_distribution<double> value(0.0, 1.0);
    std::vector<double> a(static_cast<size_t>(n) * static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t j = i; j < n; ++j) a[at(n, i, j)] = a[at(n, j, i)] = value(random);
    }
    return a;
}

void eigen_tests() {
    std::mt19937 random(20261208);
    for (const int32_t n : {1, 2, 3, 5, 17, 50, 200}) check_decomposition(random_symmetric(n, random), n, "random");
    const int32_t n = 24;
    std::vector<double> a(static_cast<size_t>(n) * static_cast<size_t>(n), 0.0);
    check_decomposition(a, n, "zero");
    for (int32_t i = 0; i < n; ++i) a[at(n, i, i)] = 1.0;
    check_decomposition(a, n, "identity");
    for (int32_t i = 0; i < n; ++i) a[at(n, i, i)] = static_cast<double>(i % 3);
    check_decomposition(a, n, "repeated eigenvalues");
    for (int32_t i = 0; i + 1 < n; ++i) a[at(n, i, i + 1)] = a[at(n, i + 1, i)] = 0.5;
    check_decomposition(a, n, "tridiagonal");
    std::normal_distribution<double> value(0.0, 1.0);
    std::vector<double> u(static_cast<size_t>(n));
    for (auto &x : u) x = value(random);
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t j = 0; j < n; ++j) a[at(n, i, j)] = 1e-3 * u[static_cast<size_t>(i)] * u[static_cast<size_t>(j)];
    }
    check_decomposition(a, n, "rank one");
    // Only the upper triangle is read.
    std::vector<double> upper = random_symmetric(n, random), full = upper;
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t j = 0; j < i; ++j) upper[at(n, i, j)] = 1e9;
    }
    std::vector<double> values_full, vectors_full, values_upper, vectors_upper;
    expect(symmetric_eigen(full, n, values_full, vectors_full) && symmetric_eigen(upper, n, values_upper, vectors_upper) &&
               values_full == values_upper,
           "only the upper triangle is read", n);
    std::vector<double> values, vectors;
    expect(!symmetric_eigen(std::vector<double>(3), 2, values, vectors), "a matrix too small is refused", 2);
}

/// Rows like a head's: a shared direction (0.45 of a row's norm) plus noise of norm about 1.
void axes_tests() {
    constexpr int32_t n = 640;
    constexpr int rows = 4000;
    std::mt19937 random(42);
    std::normal_distribution<float> noise(0.0f, 1.0f / std::sqrt(static_cast<float>(n)));
    std::vector<float> shared(n);
    double length = 0.0;
    for (auto &x : shared) {
        x = noise(random);
        length += static_cast<double>(x) * x;
    }
    for (auto &x : shared) x = static_cast<float>(x / std::sqrt(length));
    PrincipalAxes axes(n);
    std::vector<std::vector<float>> kept;
    std::vector<float> row(n);
    for (int r = 0; r < rows; ++r) {
        for (int32_t j = 0; j < n; ++j) row[static_cast<size_t>(j)] = 0.45f * shared[static_cast<size_t>(j)] + noise(random);
        axes.add(row.data());
        if (r < 64) kept.push_back(row);
    }
    expect(axes.rows_added() == rows, "rows counted", n);
    const auto started = std::chrono::steady_clock::now();
    const bool solved = axes.solve();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    expect(solved, "solved", n);
    if (!solved) return;
    std::printf("principal axes of %d rows of %d values: %.3f s (one thread)\n", rows, n, seconds);
    double cosine = 0.0;
    for (int32_t j = 0; j < n; ++j) cosine += axes.axis(0)[j] * shared[static_cast<size_t>(j)];
    expect(std::fabs(cosine) > 0.99, "the first axis is the shared direction", n);
    expect(axes.energy(0) > 4.0 * axes.energy(1), "the first axis carries the most energy", n);
    // Energy k is the rows' mean square along axis k (the rows kept are a sample: within 20 %).
    double mean_square = 0.0;
    std::vector<double> rotated(n);
    for (const auto &r : kept) {
        axes.rotate(r.data(), rotated.data());
        mean_square += rotated[0] * rotated[0];
    }
    mean_square /= static_cast<double>(kept.size());
    expect(std::fabs(mean_square / axes.energy(0) - 1.0) < 0.2, "energy 0 is the rows' mean square along axis 0", n);
    expect(axes.orthonormal_error() > 0.0 && axes.orthonormal_error() < 1e-10, "the axes are orthonormal to 1e-10", n);
    // Dot products survive the rotation within the stated error (and the rotation's rounding).
    std::vector<double> other(n);
    for (size_t i = 0; i + 1 < kept.size(); ++i) {
        axes.rotate(kept[i].data(), rotated.data());
        axes.rotate(kept[i + 1].data(), other.data());
        double before = 0.0, after = 0.0, norm_x = 0.0, norm_y = 0.0;
        for (int32_t j = 0; j < n; ++j) {
            before += static_cast<double>(kept[i][static_cast<size_t>(j)]) * kept[i + 1][static_cast<size_t>(j)];
            after += rotated[static_cast<size_t>(j)] * other[static_cast<size_t>(j)];
            norm_x += static_cast<double>(kept[i][static_cast<size_t>(j)]) * kept[i][static_cast<size_t>(j)];
            norm_y += static_cast<double>(kept[i + 1][static_cast<size_t>(j)]) * kept[i + 1][static_cast<size_t>(j)];
        }
        const double allowed = (axes.orthonormal_error() + 4.0 * n * 1.2e-16) * std::sqrt(norm_x * norm_y);
        if (std::fabs(before - after) > allowed) {
            expect(false, "a dot product changed by more than the orthonormal error", n);
            break;
        }
    }
    // Rotating in float, eight rows at a time and the rest alone, stays within the stated error.
    for (const size_t count : {size_t{1}, size_t{9}, size_t{16}, size_t{23}}) {
        std::vector<float> rows_in, out(count * n);
        for (size_t i = 0; i < count; ++i) rows_in.insert(rows_in.end(), kept[i].begin(), kept[i].end());
        axes.rotate_rows(rows_in.data(), count, out.data());
        bool within = true;
        for (size_t i = 0; i < count; ++i) {
            axes.rotate(kept[i].data(), rotated.data());
            double norm = 0.0;
            for (const float x : kept[i]) norm += static_cast<double>(x) * x;
            for (int32_t k = 0; k < n; ++k) {
                const double off = std::fabs(static_cast<double>(out[i * n + static_cast<size_t>(k)]) - rotated[static_cast<size_t>(k)]);
                within = within && off <= axes.float_rotation_error() * std::sqrt(norm) + 1e-12;
            }
        }
        expect(within, "rows rotated in float are within the stated error of the double rotation", n);
    }
    expect(axes.float_rotation_error() < 1e-4, "the float rotation's error is under 1e-4 of a row's norm", n);
    PrincipalAxes empty(n);
    expect(!empty.solve(), "no rows: not solved", n);
}

} // namespace

int main() {
    eigen_tests();
    axes_tests();
    if (failures > 0) {
        std::fprintf(stderr, "principal_axes_test: %d failed\n", failures);
        return 1;
    }
    std::printf("principal_axes_test: all passed\n");
    return 0;
}
