#pragma once

namespace entrena::ui {

/// The GUI program: parses the command line, opens the main window, runs the event loop.
int runGui(int argc, char** argv);

} // namespace entrena::ui
