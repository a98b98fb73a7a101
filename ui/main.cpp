// entrena: the GUI.
#include "GuiMain.h"
#include "entrena/system/Runtime.h"

int main(int argc, char** argv)
{
    entrena::tuneProcess(argc, argv); // may re-execute with a sound BLAS/OpenMP environment
    return entrena::ui::runGui(argc, argv);
}
