#include "store/MetricBlocks.h"

#include "store/Sqlite.h"

#include <algorithm>

namespace entrena {
namespace {

using sqlite::Statement;

struct Corner {
    int64_t step = 0;
    int epoch = 0;
    double wall = 0, value = 0;
};

struct Block {
    int64_t points = 0;
    Corner first, last, low, high;
    void add(const Corner& c)
    {
        if (points++ == 0) {
            first = last = low = high = c;
            return;
        }
        last = c;
        if (c.value < low.value)
            low = c;
        if (c.value > high.value)
            high = c;
    }
};

// Merges a block written in an earlier flush with the points of this one: this flush's points
// come after the stored ones, so `first` stays and `last` moves.
const char* kUpsert = R"sql(
INSERT INTO metric_blocks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
ON CONFLICT (run, key, block) DO UPDATE SET
    points = points + excluded.points,
    last_step = excluded.last_step, last_epoch = excluded.last_epoch, last_wall = excluded.last_wall,
    last_value = excluded.last_value,
    low_step = CASE WHEN excluded.low_value < low_value THEN excluded.low_step ELSE low_step END,
    low_epoch = CASE WHEN excluded.low_value < low_value THEN excluded.low_epoch ELSE low_epoch END,
    low_wall = CASE WHEN excluded.low_value < low_value THEN excluded.low_wall ELSE low_wall END,
    low_value = MIN(low_value, excluded.low_value),
    high_step = CASE WHEN excluded.high_value > high_value THEN excluded.high_step ELSE high_step END,
    high_epoch = CASE WHEN excluded.high_value > high_value THEN excluded.high_epoch ELSE high_epoch END,
    high_wall = CASE WHEN excluded.high_value > high_value THEN excluded.high_wall ELSE high_wall END,
    high_value = MAX(high_value, excluded.high_value)
)sql";

void write(Statement& s, int64_t runId, const std::string& key, int64_t block, const Block& b)
{
    s.bind(1, runId).bind(2, key).bind(3, block).bind(4, b.points);
    int i = 5;
    for (const Corner* c : {&b.first, &b.last, &b.low, &b.high}) {
        s.bind(i, c->step).bind(i + 1, int64_t(c->epoch)).bind(i + 2, c->wall).bind(i + 3, c->value);
        i += 4;
    }
    s.step();
    s.reset();
}

} // namespace

const char* MetricBlocks::createSql()
{
    return R"sql(
CREATE TABLE metric_blocks (
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    block INTEGER NOT NULL,
    points INTEGER NOT NULL,
    first_step INTEGER NOT NULL, first_epoch INTEGER NOT NULL, first_wall REAL NOT NULL, first_value REAL NOT NULL,
    last_step INTEGER NOT NULL, last_epoch INTEGER NOT NULL, last_wall REAL NOT NULL, last_value REAL NOT NULL,
    low_step INTEGER NOT NULL, low_epoch INTEGER NOT NULL, low_wall REAL NOT NULL, low_value REAL NOT NULL,
    high_step INTEGER NOT NULL, high_epoch INTEGER NOT NULL, high_wall REAL NOT NULL, high_value REAL NOT NULL,
    PRIMARY KEY (run, key, block)
) WITHOUT ROWID;
)sql";
}

int64_t& MetricBlocks::count(sqlite3* db, int64_t runId, const std::string& key)
{
    const auto k = std::make_pair(runId, key);
    auto it = counts_.find(k);
    if (it == counts_.end()) {
        // Points already stored before this writer: the blocks know how many.
        Statement s(db, "SELECT COALESCE(SUM(points), 0) FROM metric_blocks WHERE run=? AND key=?");
        s.bind(1, runId).bind(2, key);
        it = counts_.emplace(k, s.step() ? s.integer(0) : 0).first;
    }
    return it->second;
}

void MetricBlocks::add(sqlite3* db, const std::vector<Point>& points)
{
    // A flush interleaves a few series (loss, lr, throughput, memory, …): keep one open block per
    // series in a short list rather than a map lookup per point; the ingest rate depends on it.
    struct Open {
        int64_t runId;
        const std::string* key;
        int64_t* count;
        int64_t block;
        Block agg;
    };
    std::vector<Open> open;
    Statement s(db, kUpsert);
    for (const Point& p : points) {
        auto it = std::find_if(open.begin(), open.end(), [&](const Open& o) { return o.runId == p.runId && *o.key == *p.key; });
        if (it == open.end()) {
            int64_t* n = &count(db, p.runId, *p.key);
            open.push_back({p.runId, p.key, n, *n / kPointsPerBlock, Block{}});
            it = open.end() - 1;
        }
        const int64_t block = *it->count / kPointsPerBlock;
        if (block != it->block) {
            write(s, it->runId, *it->key, it->block, it->agg);
            it->agg = Block{};
            it->block = block;
        }
        it->agg.add({p.step, p.epoch, p.wall, p.value});
        ++*it->count;
    }
    for (const Open& o : open)
        if (o.agg.points > 0)
            write(s, o.runId, *o.key, o.block, o.agg);
}

void MetricBlocks::rebuild(sqlite3* db, int64_t runId)
{
    Statement d(db, runId ? "DELETE FROM metric_blocks WHERE run=?" : "DELETE FROM metric_blocks");
    if (runId)
        d.bind(1, runId);
    d.step();
    for (auto it = counts_.begin(); it != counts_.end();)
        it = runId == 0 || it->first.first == runId ? counts_.erase(it) : std::next(it);

    Statement s(db, runId
                        ? "SELECT run, key, step, epoch, wall_time, value FROM metrics WHERE run=? ORDER BY run, key, step, rowid"
                        : "SELECT run, key, step, epoch, wall_time, value FROM metrics ORDER BY run, key, step, rowid");
    if (runId)
        s.bind(1, runId);
    Statement w(db, kUpsert);
    int64_t run = -1, ordinal = 0;
    std::string key;
    Block block;
    auto emit = [&] {
        if (block.points > 0)
            write(w, run, key, (ordinal - 1) / kPointsPerBlock, block);
        block = Block{};
    };
    while (s.step()) {
        const int64_t r = s.integer(0);
        std::string k = s.text(1);
        if (r != run || k != key) {
            emit();
            run = r;
            key = std::move(k);
            ordinal = 0;
        } else if (ordinal % kPointsPerBlock == 0) {
            emit();
        }
        block.add({s.integer(2), int(s.integer(3)), s.real(4), s.real(5)});
        ++ordinal;
    }
    emit();
}

MetricColumns MetricBlocks::read(sqlite3* db, int64_t runId, const std::string& key, int64_t* points)
{
    Statement s(db, "SELECT points, first_step, first_epoch, first_wall, first_value, last_step, last_epoch, last_wall, "
                    "last_value, low_step, low_epoch, low_wall, low_value, high_step, high_epoch, high_wall, high_value "
                    "FROM metric_blocks WHERE run=? AND key=? ORDER BY block");
    s.bind(1, runId).bind(2, key);
    MetricColumns out;
    int64_t total = 0;
    while (s.step()) {
        total += s.integer(0);
        Corner c[4];
        for (int i = 0; i < 4; ++i)
            c[i] = {s.integer(1 + 4 * i), int(s.integer(2 + 4 * i)), s.real(3 + 4 * i), s.real(4 + 4 * i)};
        std::sort(c, c + 4, [](const Corner& a, const Corner& b) { return a.step < b.step; });
        for (int i = 0; i < 4; ++i) {
            if (i > 0 && c[i].step == c[i - 1].step && c[i].value == c[i - 1].value)
                continue;
            out.step.push_back(double(c[i].step));
            out.epoch.push_back(double(c[i].epoch));
            out.wall.push_back(c[i].wall);
            out.value.push_back(c[i].value);
        }
    }
    if (points)
        *points = total;
    return out;
}

} // namespace entrena
