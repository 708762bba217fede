// The principal axes of a set of rows, for a sketch of the excluded rows in fewer bits.
//
// The head's rows share a large direction (for Gemma 3 270M the mean row is 0.45 of a row's
// norm; the first axis carries 22 % of the rows' energy), and in the file's basis that direction
// sets every block's scale, so 4 bits a value leave thousands of rows a check to read exactly.
// In the basis of the rows' principal axes each block holds axes of like energy: measured
// offline on held-out states (docs/benchmarks.md, "A smaller copy"), 4.25 bits a value there
// leave 30 rows a check against 84 for 5 bits in the file's basis. The axes come from the kept
// rows (in memory before the first streamed check), so no state is needed to find them.
//
// A value computed in the rotated basis is the value in the file's basis only as far as the
// axes are orthonormal; `orthonormal_error` bounds how far they are not, for the check's
// allowance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ilotoki {

/// The eigenvalues (descending) and unit eigenvectors of a real symmetric n × n matrix
/// (row-major; only what is on and above the diagonal is read): Householder's reduction to a
/// tridiagonal matrix, then implicit QL steps. `vectors` holds eigenvector k in row k.
/// False where the steps did not converge (not seen for a symmetric matrix of finite values).
bool symmetric_eigen(const std::vector<double> &matrix, int32_t n, std::vector<double> &values, std::vector<double> &vectors);

class PrincipalAxes {
public:
    explicit PrincipalAxes(int32_t dimensions);

    int32_t dimensions() const { return n_; }
    /// Adds a row to the rows whose axes are found (the sum of their outer products).
    void add(const float *row);
    size_t rows_added() const { return rows_; }

    /// Finds the axes of the rows added. False where none were or the solver failed.
    bool solve();
    /// Axis k (unit length), after `solve`: axes in order of falling energy.
    const double *axis(int32_t k) const { return &axes_[static_cast<size_t>(k) * static_cast<size_t>(n_)]; }
    /// The rows' mean square length along axis k.
    double energy(int32_t k) const { return energies_[static_cast<size_t>(k)]; }
    /// An upper bound on ‖AᵀA − I‖ (the spectral norm, by the Frobenius norm; A the axes as
    /// rows): x·y and (Ax)·(Ay) differ by at most this times ‖x‖ ‖y‖.
    double orthonormal_error() const { return orthonormal_error_; }

    /// `out` = the coordinates of `row` on the axes (A row), in double; each off from the real
    /// A row by at most `double_rotation_error()` times the row's norm.
    void rotate(const float *row, double *out) const;
    double double_rotation_error() const;
    /// The same for `count` rows (`dimensions()` floats each, one after another) in float, the
    /// fast way: `out` holds their coordinates, row after row. Each coordinate is off from the
    /// real A row by at most `float_rotation_error()` times the row's norm, whatever order the
    /// sums take.
    void rotate_rows(const float *rows, size_t count, float *out) const;
    double float_rotation_error() const;

private:
    int32_t n_;
    size_t rows_ = 0;
    std::vector<double> moment_; // Σ row rowᵀ, upper triangle
    std::vector<double> axes_;
    std::vector<float> float_axes_; // axes_ rounded to floats, for rotate_rows
    std::vector<double> energies_;
    double orthonormal_error_ = 0.0;
};

} // namespace ilotoki
