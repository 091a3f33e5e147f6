#pragma once
// The GLFW window with an OpenGL 3.3 core context, and the input events it delivers.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/vec2.hpp>

#include "cloth/base/status.h"
#include "cloth/view/input_event.h"

struct GLFWwindow;

namespace cloth::app {

using view::InputEvent;

class Window {
 public:
  Window() = default;
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  ~Window();

  /// Opens a resizable, HiDPI-aware window. Our callbacks are installed here, before ImGui's
  /// backend, which chains to them.
  base::Status open(int width, int height, const std::string& title, bool vsync);
  void setVsync(bool on);
  void setTitle(const std::string& title);
  bool shouldClose() const;
  void swapBuffers();
  /// Polls GLFW and returns the events since the previous call.
  std::vector<InputEvent>& pollEvents();
  /// Files dropped onto the window since the previous call.
  std::vector<std::string> takeDroppedFiles() { return std::exchange(dropped_, {}); }
  glm::ivec2 framebufferSize() const;
  glm::vec2 windowSize() const;
  float contentScale() const;
  glm::vec2 cursor() const;
  GLFWwindow* handle() const { return window_; }

 private:
  static void onMouseButton(GLFWwindow* w, int button, int action, int mods);
  static void onCursor(GLFWwindow* w, double x, double y);
  static void onScroll(GLFWwindow* w, double dx, double dy);
  static void onKey(GLFWwindow* w, int key, int scancode, int action, int mods);
  static void onDrop(GLFWwindow* w, int count, const char** paths);

  GLFWwindow* window_ = nullptr;
  std::vector<InputEvent> events_;
  std::vector<std::string> dropped_;
  /// Where the last cursor event put the cursor: a button event is taken there, in the order the
  /// events came, and not where the cursor is by the time a slow frame polls them.
  std::optional<glm::vec2> lastCursor_;
};

}  // namespace cloth::app
