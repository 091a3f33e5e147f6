#version 330 core
// Round points, plain lines.

in vec4 vColor;
out vec4 fragColor;

uniform int uRoundPoints;

void main() {
  if (uRoundPoints == 1 && length(gl_PointCoord - vec2(0.5)) > 0.5) discard;
  fragColor = vColor;
}
