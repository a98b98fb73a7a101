#pragma once

#include <string>

namespace entrena::cli {

/// Says why the command failed: on stderr as "entrena-cli: MESSAGE", and, when torchrun asks for it
/// (TORCHELASTIC_ERROR_FILE is set), in that file as torchelastic's error record, so torchrun's
/// failure summary names the error instead of "<N/A>". Only the first error of a process is recorded
/// in the file (it is the cause; what follows is consequence).
void reportError(const std::string& message);

} // namespace entrena::cli
