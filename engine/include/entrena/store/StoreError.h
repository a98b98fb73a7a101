#pragma once

#include <stdexcept>
#include <string>

namespace entrena {

/// Any problem opening or using the run store; the message says what and what to do.
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    /// With SQLite's primary result code and the system's errno behind it (a rollback that runs
    /// while the error unwinds resets the connection's own).
    StoreError(const std::string& message, int sqliteCode, int systemErrno)
        : std::runtime_error(message)
        , sqliteCode_(sqliteCode)
        , systemErrno_(systemErrno)
    {
    }
    int sqliteCode() const { return sqliteCode_; }   ///< 0: not from SQLite
    int systemErrno() const { return systemErrno_; } ///< 0: none

private:
    int sqliteCode_ = 0;
    int systemErrno_ = 0;
};

} // namespace entrena
