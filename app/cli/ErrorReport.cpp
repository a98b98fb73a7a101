#include "ErrorReport.h"

#include "entrena/store/AtomicFile.h"

#include <cstdlib>
#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>

namespace entrena::cli {

void reportError(const std::string& message)
{
    std::cerr << "entrena-cli: " << message << "\n";
    static bool recorded = false;
    const char* file = std::getenv("TORCHELASTIC_ERROR_FILE");
    if (recorded || !file || !*file)
        return;
    recorded = true;
    // The layout torch.distributed.elastic reads (errors/error_handler.py, record_exception): the
    // message, and the time that decides which rank failed first.
    const nlohmann::json record = {
        {"message",
         {{"message", "entrena-cli: " + message}, {"extraInfo", {{"timestamp", std::to_string(std::time(nullptr))}}}}}};
    try {
        AtomicFile out(file);
        out.write(record.dump());
        out.commit();
    } catch (const std::exception& e) {
        std::cerr << "entrena-cli: cannot write TORCHELASTIC_ERROR_FILE: " << e.what() << "\n";
    }
}

} // namespace entrena::cli
