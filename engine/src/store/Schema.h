#pragma once
// The run store's schema: one migration per version (docs/run-store.md).

namespace entrena {

/// The SQL that moves a store from `fromVersion` to fromVersion + 1 (0: creates it).
const char* migrationSql(int fromVersion);

} // namespace entrena
