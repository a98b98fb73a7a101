#pragma once
// M4 decimation for charts: cut a series, sorted by x, into equal x-ranges (one per pixel column,
// say) and keep each range's first, last, lowest and highest point. Drawn as lines, the result
// looks the same as the whole series (spikes stay), at a cost linear in the points of the range.

#include <cstddef>
#include <vector>

namespace entrena {

/// Appends to `out` the indices in [begin, end) of the points to draw, in ascending order, with
/// `buckets` equal ranges over [x[begin], x[end - 1]]. Ranges of ≤ 4 × buckets points come back
/// whole. `x` must be sorted ascending over [begin, end).
void m4Indices(const double* x, const double* y, std::size_t begin, std::size_t end, int buckets, std::vector<std::size_t>& out);

} // namespace entrena
