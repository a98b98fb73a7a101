#include "entrena/store/Decimate.h"

#include <algorithm>

namespace entrena {

void m4Indices(const double* x, const double* y, std::size_t begin, std::size_t end, int buckets, std::vector<std::size_t>& out)
{
    if (end <= begin)
        return;
    buckets = std::max(1, buckets);
    if (end - begin <= 4 * std::size_t(buckets)) {
        for (std::size_t i = begin; i < end; ++i)
            out.push_back(i);
        return;
    }
    const double x0 = x[begin];
    const double span = x[end - 1] - x0;
    const double scale = span > 0 ? double(buckets) / span : 0.0;
    std::size_t i = begin;
    while (i < end) {
        const int bucket = std::min(buckets - 1, int((x[i] - x0) * scale));
        std::size_t first = i, lo = i, hi = i, last = i;
        for (++i; i < end && std::min(buckets - 1, int((x[i] - x0) * scale)) == bucket; ++i) {
            if (y[i] < y[lo])
                lo = i;
            if (y[i] > y[hi])
                hi = i;
            last = i;
        }
        std::size_t keep[4] = {first, lo, hi, last};
        std::sort(keep, keep + 4);
        for (int k = 0; k < 4; ++k)
            if (k == 0 || keep[k] != keep[k - 1])
                out.push_back(keep[k]);
    }
}

} // namespace entrena
