#pragma once
// SQLite helpers shared by the run store's files: prepared statements and transactions.

#include "entrena/store/StoreError.h"

#include <optional>
#include <sqlite3.h>
#include <string>

namespace entrena::sqlite {

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
        throw StoreError(std::string("run store write or read failed: ") + sqlite3_errmsg(db_));
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
        char* err = nullptr;
        if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
            std::string message = err ? err : "unknown error";
            sqlite3_free(err);
            throw StoreError("run store transaction failed (" + message + "); is another program holding the database locked?");
        }
    }
    sqlite3* db_;
    bool done_ = false;
};

} // namespace entrena::sqlite
