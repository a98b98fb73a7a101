#pragma once

#include <stdexcept>

namespace entrena {

/// Any problem opening or using the run store; the message says what and what to do.
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace entrena
