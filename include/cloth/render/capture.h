#pragma once
// Reading rendered pixels back: the renderer returns an image; writing files is the recorder's job.

#include "cloth/base/image.h"

namespace cloth::render {

/// Reads width x height RGB pixels from the current read framebuffer (the back buffer before the
/// swap, or a resolved offscreen target), top row first.
base::Image readPixels(int width, int height);

/// Whether the current context renders in software (Mesa's llvmpipe or softpipe), where
/// multisampling halves the frame rate.
bool isSoftwareRenderer();

}  // namespace cloth::render
