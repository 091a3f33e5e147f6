#version 330 core
// Overlay points and lines: per-vertex colour, or the colour of a node's role (Kang Fig. 2).

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColor;
layout(location = 5) in float aRole;  // 0 key, 1 frame, 2 internal

uniform mat4 uViewProjection;
uniform float uPointSize;
uniform int uRoleColours;
uniform int uSurfaceNu;       // render nodes along u: vertex k is node (k % nu, k / nu)
uniform int uRefine;          // render nodes per key segment
uniform int uInternalStride;  // internal nodes drawn: every stride-th in a cell; 0 none

out vec4 vColor;

void main() {
  if (uRoleColours == 1) {
    vColor = aRole < 0.5 ? vec4(0.9, 0.1, 0.1, 1.0) : aRole < 1.5 ? vec4(0.1, 0.7, 0.2, 1.0) : vec4(0.2, 0.35, 0.95, 1.0);
    gl_PointSize = aRole < 0.5 ? 2.0 * uPointSize : uPointSize;
  } else {
    vColor = aColor;
    gl_PointSize = uPointSize;
  }
  gl_Position = uViewProjection * vec4(aPosition, 1.0);
  if (uRoleColours == 1 && aRole > 1.5) {  // an internal node: thinned so the dots can be told apart
    int i = gl_VertexID % max(uSurfaceNu, 1) % max(uRefine, 1), j = gl_VertexID / max(uSurfaceNu, 1) % max(uRefine, 1);
    if (uInternalStride == 0 || i % uInternalStride != 0 || j % uInternalStride != 0)
      gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the view: not drawn
  }
}
