#include "window.h"

#include <GLFW/glfw3.h>

namespace cloth::app {
namespace {

// GLFW's modifier bits as view::Modifier bits.
int modifiers(int glfwMods) {
  return (glfwMods & GLFW_MOD_SHIFT ? view::kShift : 0) | (glfwMods & GLFW_MOD_CONTROL ? view::kControl : 0) |
         (glfwMods & GLFW_MOD_ALT ? view::kAlt : 0) | (glfwMods & GLFW_MOD_SUPER ? view::kSuper : 0);
}

Window* owner(GLFWwindow* w) {
  return static_cast<Window*>(glfwGetWindowUserPointer(w));
}

std::string lastGlfwError() {
  const char* description = nullptr;
  glfwGetError(&description);
  return description ? description : "unknown GLFW error";
}

GLFWwindow* createWindow(int width, int height, const std::string& title) {
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 0);  // the scene is antialiased in the offscreen target
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  GLFWwindow* w = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (w) glfwMakeContextCurrent(w);
  return w;
}

}  // namespace

Window::~Window() {
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

base::Status Window::open(int width, int height, const std::string& title, bool vsync) {
  if (!glfwInit()) return base::Status::failure("cannot open a window: " + lastGlfwError());
  window_ = createWindow(width, height, title);
  if (!window_) return base::Status::failure("cannot create an OpenGL 3.3 window: " + lastGlfwError());
  setVsync(vsync);
  glfwSetWindowUserPointer(window_, this);
  glfwSetMouseButtonCallback(window_, onMouseButton);
  glfwSetCursorPosCallback(window_, onCursor);
  glfwSetScrollCallback(window_, onScroll);
  glfwSetKeyCallback(window_, onKey);
  glfwSetDropCallback(window_, onDrop);
  return base::Status::success();
}

void Window::setVsync(bool on) {
  glfwSwapInterval(on ? 1 : 0);
}
bool Window::shouldClose() const {
  return glfwWindowShouldClose(window_);
}
void Window::swapBuffers() {
  glfwSwapBuffers(window_);
}

std::vector<InputEvent>& Window::pollEvents() {
  events_.clear();
  glfwPollEvents();
  return events_;
}

glm::ivec2 Window::framebufferSize() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return {w, h};
}

glm::vec2 Window::windowSize() const {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  return {w, h};
}

float Window::contentScale() const {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window_, &x, &y);
  return y;
}

glm::vec2 Window::cursor() const {
  double x = 0, y = 0;
  glfwGetCursorPos(window_, &x, &y);
  return {static_cast<float>(x), static_cast<float>(y)};
}

void Window::onMouseButton(GLFWwindow* w, int button, int action, int mods) {
  const view::MouseButton b = button == GLFW_MOUSE_BUTTON_LEFT    ? view::MouseButton::Left
                              : button == GLFW_MOUSE_BUTTON_RIGHT ? view::MouseButton::Right
                                                                  : view::MouseButton::Middle;
  Window* self = owner(w);
  const glm::vec2 at = self->lastCursor_.value_or(self->cursor());
  self->events_.push_back(InputEvent::mouseButton(b, action == GLFW_PRESS, modifiers(mods), at));
}

// With the modifier keys held now: they constrain a drag in progress.
void Window::onCursor(GLFWwindow* w, double x, double y) {
  auto held = [w](int left, int right) {
    return glfwGetKey(w, left) == GLFW_PRESS || glfwGetKey(w, right) == GLFW_PRESS;
  };
  const int mods = (held(GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT) ? view::kShift : 0) |
                   (held(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL) ? view::kControl : 0);
  owner(w)->lastCursor_ = glm::vec2(float(x), float(y));
  owner(w)->events_.push_back(InputEvent::cursorMove({float(x), float(y)}, mods));
}

void Window::onScroll(GLFWwindow* w, double dx, double dy) {
  owner(w)->events_.push_back(InputEvent::scroll({float(dx), float(dy)}));
}

void Window::onKey(GLFWwindow* w, int key, int, int action, int mods) {
  if (action == GLFW_RELEASE) return;
  // GLFW's codes of letters, digits and space are their ASCII codes; other keys bind to nothing.
  const int ascii = key == GLFW_KEY_ESCAPE ? view::kEscapeKey : key < 128 ? key : 0;
  owner(w)->events_.push_back(InputEvent::keyPress(ascii, modifiers(mods)));
}

void Window::onDrop(GLFWwindow* w, int count, const char** paths) {
  for (int i = 0; i < count; ++i) owner(w)->dropped_.emplace_back(paths[i]);
}

void Window::setTitle(const std::string& title) {
  glfwSetWindowTitle(window_, title.c_str());
}

}  // namespace cloth::app
