#pragma once
// The store's overview of long series: every run of 256 consecutive points of a metric kept as
// its first, last, lowest and highest point (M4), in `metric_blocks`. Written with the points,
// so a chart of a million-point series opens from ~16,000 rows instead of a million.

#include "entrena/store/RunStore.h"

#include <cstdint>
#include <map>
#include <sqlite3.h>
#include <string>
#include <utility>
#include <vector>

namespace entrena {

class MetricBlocks {
public:
    static constexpr int64_t kPointsPerBlock = 256;

    /// The schema-4 table (a migration's SQL).
    static const char* createSql();

    /// Folds newly written points (in the order written) into the blocks, inside the caller's
    /// transaction.
    struct Point {
        int64_t runId;
        const std::string* key;
        int64_t step;
        int epoch;
        double wall;
        double value;
    };
    void add(sqlite3* db, const std::vector<Point>& points);
    /// Rebuilds a run's blocks from its metrics (after metrics were removed), or every run's
    /// when `runId` is 0; inside the caller's transaction.
    void rebuild(sqlite3* db, int64_t runId);

    /// The overview of a series as columns (sorted by step), and the number of points it stands for.
    static MetricColumns read(sqlite3* db, int64_t runId, const std::string& key, int64_t* points);

private:
    int64_t& count(sqlite3* db, int64_t runId, const std::string& key);
    std::map<std::pair<int64_t, std::string>, int64_t> counts_; ///< points written per series
};

} // namespace entrena
