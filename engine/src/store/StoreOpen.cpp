// Opening a run store: read-write where the file and its folder can be written, read-only where
// they cannot (read-only media, a colleague's shared folder, a full disk), never altering a store
// it only reads. See docs/run-store.md#read-only.
#include "entrena/store/RunStore.h"

#include "store/MetricBlocks.h"
#include "store/Sqlite.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>
#include <unistd.h>

namespace entrena {
namespace {

namespace fs = std::filesystem;

/// Why the store at `path` cannot be written here ("" when it can): the file, or its folder, where
/// SQLite keeps the write-ahead log beside it. access() answers EROFS on read-only media, also to root.
std::string unwritableReason(const fs::path& path, ReadOnlyCause& cause)
{
    const fs::path folder = fs::absolute(path).parent_path();
    const bool file = fs::exists(path) && ::access(path.c_str(), W_OK) != 0;
    if (file || ::access(folder.c_str(), W_OK) != 0) {
        cause = errno == EROFS ? ReadOnlyCause::ReadOnlyMedia : ReadOnlyCause::NoPermission;
        if (cause == ReadOnlyCause::ReadOnlyMedia)
            return "it is on read-only media";
        return file ? "the file is not writable by you" : "its folder '" + folder.string() + "' is not writable by you";
    }
    return "";
}

/// A file name as an SQLite URI's path: '%', '?' and '#' escaped.
std::string uriPath(const std::string& path)
{
    std::string out;
    for (const char c : fs::absolute(path).string()) {
        if (c == '%' || c == '?' || c == '#') {
            static const char* hex = "0123456789ABCDEF";
            out += '%';
            out += hex[(unsigned char)c >> 4];
            out += hex[c & 15];
        } else {
            out += c;
        }
    }
    return "file:" + out;
}

/// The schema version stored in the open database; throws for a file that is not SQLite.
int userVersion(sqlite3* db, const std::string& path)
{
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &raw, nullptr) != SQLITE_OK) {
        const int code = sqlite3_errcode(db);
        sqlite3_finalize(raw);
        if (code == SQLITE_NOTADB)
            throw StoreError("'" + path + "' is not an Entrena run store (not an SQLite database); give another file with --db");
        throw sqlite::failure(db, "cannot read the run store '" + path + "'");
    }
    int version = 0;
    if (sqlite3_step(raw) == SQLITE_ROW)
        version = sqlite3_column_int(raw, 0);
    sqlite3_finalize(raw);
    return version;
}

/// Opens `uri` with `flags`; nullptr (and the reason in `error`) when SQLite cannot.
sqlite3* openDatabase(const std::string& uri, int flags, std::string& error)
{
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(uri.c_str(), &db, flags | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX, nullptr) == SQLITE_OK)
        return db;
    error = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return nullptr;
}

/// Whether a read of the store through `db` works (a WAL store read-only needs its -shm file).
bool readable(sqlite3* db)
{
    return sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) == SQLITE_OK;
}

} // namespace

RunStore::RunStore(const std::string& path)
    : path_(path)
    , folder_(fs::absolute(fs::path(path)).parent_path().lexically_normal().string())
    , lastFlush_(std::chrono::steady_clock::now())
    , blocks_(std::make_unique<MetricBlocks>())
{
    const fs::path p(path);
    if (fs::is_directory(p))
        throw StoreError("the run store path '" + path + "' is a folder; give a file name such as runs.sqlite");
    if (!fs::exists(p) && p.has_parent_path()) {
        std::error_code ec;
        fs::create_directories(p.parent_path(), ec);
        if (ec)
            throw StoreError("cannot create the folder for the run store '" + path + "': " + ec.message() +
                             "; choose a writable location with --db");
    }
    ReadOnlyCause cause = ReadOnlyCause::Writable;
    std::string why = unwritableReason(p, cause);
    if (why.empty() || !fs::exists(p)) {
        if (!why.empty())
            throw StoreError("cannot create the run store '" + path + "': " + why + "; choose a writable location with --db");
        why = openReadWrite(cause);
        if (why.empty())
            return;
    }
    try {
        openReadOnly(why, cause);
    } catch (...) {
        closeDatabase();
        throw;
    }
}

std::string RunStore::openReadWrite(ReadOnlyCause& cause)
{
    std::string error;
    readUri_ = uriPath(path_) + "?mode=ro";
    db_ = openDatabase(uriPath(path_), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, error);
    if (!db_)
        throw StoreError("cannot open the run store '" + path_ + "': " + error + "; choose a writable location with --db");
    sqlite3_busy_timeout(db_, 5000);
    try {
        // Read the version before anything writes: a newer store must stay exactly as it is.
        const int version = userVersion(db_, path_);
        if (version > kSchemaVersion)
            throw StoreError("the run store '" + path_ + "' was written by a newer Entrena (schema " + std::to_string(version) +
                             ", this version reads up to " + std::to_string(kSchemaVersion) +
                             "); it was left unchanged: update Entrena or use another --db");
        try {
            setUpWriting();
        } catch (const StoreError& e) {
            // A full disk or a store that turned out read-only (a lock file it cannot create) is read
            // without writing; anything else is the error it is.
            // The code the error carries: a migration's rollback has reset the connection's by now.
            const int code = e.sqliteCode() ? e.sqliteCode() : sqlite3_errcode(db_) & 0xff;
            if (code != SQLITE_FULL && code != SQLITE_READONLY && code != SQLITE_CANTOPEN && code != SQLITE_IOERR)
                throw;
            // A full disk shows as SQLITE_FULL, or as an I/O error whose system error says so (the
            // write-ahead log's index could not be made).
            const int system = e.sqliteCode() ? e.systemErrno() : sqlite3_system_errno(db_);
            const bool full = code == SQLITE_FULL || system == ENOSPC || system == EDQUOT;
            sqlite3_close(db_);
            db_ = nullptr;
            cause = full ? ReadOnlyCause::DiskFull : ReadOnlyCause::Other;
            return full ? diskFullMessage(path_) : code == SQLITE_READONLY ? "it cannot be written here" : e.what();
        }
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
    return "";
}

void RunStore::setUpWriting()
{
    // Turning a new file to WAL needs it to itself; SQLite answers "locked" at once, without the busy
    // handler, when another process opening the same new store holds it: wait for it briefly.
    for (int attempt = 0; sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr) != SQLITE_OK; ++attempt) {
        if ((sqlite3_errcode(db_) & 0xff) != SQLITE_BUSY || attempt == 250)
            exec("PRAGMA journal_mode=WAL"); // throws the error with its message
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    exec("PRAGMA foreign_keys=ON");
    exec("PRAGMA synchronous=NORMAL");
    // Reads of long series go through the OS page cache instead of copies into SQLite's.
    exec("PRAGMA mmap_size=1073741824");
    migrate();
    readStoreId();
    try {
        markInterrupted();
    } catch (const StoreError&) {
        // A full disk: the dead runs are marked by the next open that can write.
    }
}

void RunStore::openReadOnly(const std::string& why, ReadOnlyCause cause)
{
    readOnlyReason_ = why;
    readOnlyCause_ = cause;
    std::error_code ec;
    const bool walHasData = fs::exists(path_ + "-wal", ec) && fs::file_size(path_ + "-wal", ec) > 0;
    // In place only where reading creates nothing: on read-only media, or beside the log and index a
    // writer keeps. (In a folder that can be written, a reader would leave an index its owner may
    // not write; and immutable=1 would miss what another process still writes.)
    const bool media = cause == ReadOnlyCause::ReadOnlyMedia;
    if ((media || (fs::exists(path_ + "-shm", ec) && fs::exists(path_ + "-wal", ec))) && readInPlace("?mode=ro"))
        return;
    // Without a log, immutable=1 reads read-only media where no lock or index can be made. (With one it
    // would ignore the log's runs: those are read from a copy.)
    if (media && !walHasData && readInPlace("?immutable=1"))
        return;
    try {
        openCopy();
    } catch (const StoreError&) {
        // No room for a copy either (a full disk holding the temporary folder too): as it is, where
        // that misses nothing.
        closeDatabase();
        if (walHasData || !readInPlace("?immutable=1"))
            throw;
    }
}

bool RunStore::readInPlace(const char* mode)
{
    std::string error;
    readUri_ = uriPath(path_) + mode;
    db_ = openDatabase(readUri_, SQLITE_OPEN_READONLY, error);
    if (db_ && !readable(db_)) {
        sqlite3_close(db_);
        db_ = nullptr;
    }
    if (!db_)
        return false;
    sqlite3_busy_timeout(db_, 5000);
    const int version = userVersion(db_, path_);
    if (version > kSchemaVersion)
        throw StoreError("the run store '" + path_ + "' was written by a newer Entrena (schema " + std::to_string(version) +
                         ", this version reads up to " + std::to_string(kSchemaVersion) + "); update Entrena to read it");
    if (version < kSchemaVersion) { // an older schema is read from a migrated copy
        sqlite3_close(db_);
        db_ = nullptr;
        return false;
    }
    exec("PRAGMA foreign_keys=ON");
    readStoreId();
    return true;
}

void RunStore::openCopy()
{
    // An older schema, or a log without its index where nothing can be written: the store and its
    // log are copied to a private folder, brought to this schema there, and read from the copy. The
    // store itself is left exactly as it is.
    std::string pattern = (fs::temp_directory_path() / "entrena-store-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        throw StoreError("cannot read the run store '" + path_ + "' (" + readOnlyReason_ + "): no temporary folder (" +
                         std::strerror(errno) + ")");
    copyFolder_ = pattern;
    const fs::path copy = fs::path(copyFolder_) / "runs.sqlite";
    std::error_code ec;
    fs::copy_file(path_, copy, ec);
    if (!ec && fs::exists(path_ + "-wal"))
        fs::copy_file(path_ + "-wal", copy.string() + "-wal", ec);
    // The copies are this process's to migrate, whatever the originals' modes (a 0444 store on a disc).
    for (const fs::path& f : {copy, fs::path(copy.string() + "-wal")})
        if (!ec && fs::exists(f))
            fs::permissions(f, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add, ec);
    if (ec)
        throw StoreError("cannot read the run store '" + path_ + "' (" + readOnlyReason_ + "): copying it failed (" +
                         ec.message() + ")");
    std::string error;
    db_ = openDatabase(uriPath(copy.string()), SQLITE_OPEN_READWRITE, error);
    if (!db_)
        throw StoreError("cannot read the run store '" + path_ + "': " + error);
    const int version = userVersion(db_, path_);
    if (version > kSchemaVersion)
        throw StoreError("the run store '" + path_ + "' was written by a newer Entrena (schema " + std::to_string(version) +
                         "); update Entrena to read it");
    exec("PRAGMA foreign_keys=ON");
    migrate();
    readStoreId();
    sqlite3_close(db_);
    // Read-only from here on: a write is refused by SQLite itself, as on the store.
    readUri_ = uriPath(copy.string()) + "?mode=ro";
    db_ = openDatabase(readUri_, SQLITE_OPEN_READONLY, error);
    if (!db_)
        throw StoreError("cannot read the run store '" + path_ + "': " + error);
    exec("PRAGMA foreign_keys=ON");
}

std::string RunStore::readUri() const
{
    return readUri_;
}

void RunStore::requireWritable(const char* what) const
{
    if (readOnlyReason_.empty())
        return;
    if (readOnlyCause_ == ReadOnlyCause::DiskFull)
        throw StoreError("cannot " + std::string(what) + ": " + readOnlyReason_ + " and the run store '" + path_ +
                         "' cannot be written; free space on that disk or choose another store (--db)");
    throw StoreError("cannot " + std::string(what) + ": the run store '" + path_ + "' is read-only here (" + readOnlyReason_ +
                     "); import its runs into a store of your own (entrena-cli import) or choose a writable store");
}

} // namespace entrena
