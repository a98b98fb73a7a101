#pragma once
// SQLite helpers shared by the run store's files: prepared statements and transactions.

#include "entrena/store/AtomicFile.h"
#include "entrena/store/StoreError.h"

#include <optional>
#include <sqlite3.h>
#include <string>

namespace entrena::sqlite {

/// The error for a failed call on `db`, named by its cause where the person can act on it: a full
/// disk, a read-only store, another program's lock; else `what` and SQLite's own words.
inline StoreError failure(sqlite3* db, const std::string& what)
{
    const char* file = sqlite3_db_filename(db, "main");
    const std::string path = file && *file ? file : "the run store";
    const int code = sqlite3_errcode(db) & 0xff, system = sqlite3_system_errno(db);
    switch (code) {
    case SQLITE_FULL:
        return StoreError(diskFullMessage(path) + ": the run store '" + path +
                              "' could not be written; free space on that disk or choose another store",
                          code, system);
    case SQLITE_READONLY:
        return StoreError("the run store '" + path + "' is read-only here: it can be read, not changed; import its runs "
                          "into a store of your own (entrena-cli import) or choose a writable store",
                          code, system);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return StoreError(what + " (" + sqlite3_errmsg(db) + "): is another program holding the run store '" + path + "' locked?",
                          code, system);
    default:
        return StoreError(what + ": " + sqlite3_errmsg(db), code, system);
    }
}

// A prepared statement that finalizes itself; bind by position from 1.
class Statement {
public:
    Statement(sqlite3* db, const char* sql)
        : db_(db)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
            throw StoreError(std::string("run store query failed: ") + sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int i, int64_t v)
    {
        check(sqlite3_bind_int64(stmt_, i, v));
        return *this;
    }
    Statement& bind(int i, double v)
    {
        check(sqlite3_bind_double(stmt_, i, v));
        return *this;
    }
    Statement& bind(int i, const std::string& v)
    {
        check(sqlite3_bind_text(stmt_, i, v.data(), int(v.size()), SQLITE_TRANSIENT));
        return *this;
    }
    Statement& bind(int i, std::optional<double> v)
    {
        check(v ? sqlite3_bind_double(stmt_, i, *v) : sqlite3_bind_null(stmt_, i));
        return *this;
    }
    Statement& bindNull(int i)
    {
        check(sqlite3_bind_null(stmt_, i));
        return *this;
    }

    /// true while there is a row.
    bool step()
    {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_DONE)
            return false;
        throw failure(db_, "run store write or read failed");
    }
    void reset()
    {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }

    int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
    double real(int col) const { return sqlite3_column_double(stmt_, col); }
    std::optional<double> optReal(int col) const
    {
        if (sqlite3_column_type(stmt_, col) == SQLITE_NULL)
            return std::nullopt;
        return sqlite3_column_double(stmt_, col);
    }
    std::string text(int col) const
    {
        const auto* p = sqlite3_column_text(stmt_, col);
        return p ? std::string(reinterpret_cast<const char*>(p), size_t(sqlite3_column_bytes(stmt_, col))) : std::string();
    }

private:
    void check(int rc)
    {
        if (rc != SQLITE_OK)
            throw StoreError(std::string("run store bind failed: ") + sqlite3_errmsg(db_));
    }

    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

class Transaction {
public:
    explicit Transaction(sqlite3* db)
        : db_(db)
    {
        run("BEGIN IMMEDIATE");
    }
    ~Transaction()
    {
        if (!done_)
            sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit()
    {
        run("COMMIT");
        done_ = true;
    }

private:
    void run(const char* sql)
    {
        if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
            throw failure(db_, "run store transaction failed");
    }
    sqlite3* db_;
    bool done_ = false;
};

} // namespace entrena::sqlite
