#pragma once
// The one place the OpenGL loader is included. clothview uses libepoxy (Debian's libepoxy-dev):
// it resolves GL entry points for GLX and EGL contexts alike, with no generated loader code in
// the repository. To swap the loader, change this header and the cloth::epoxy link in CMake.

#include <epoxy/gl.h>
