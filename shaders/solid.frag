#version 330 core
// Lit solid colour for colliders. The ground is flat-lit (its normal is constant) with a 10 cm /
// 1 m grid that fades with distance, kept cheap: it covers much of the screen.

in vec3 vPosition;
in vec3 vNormal;

uniform vec3 uEye;
uniform vec3 uLightDirection;
uniform vec3 uColor;
uniform int uGround;

out vec4 fragColor;

float gridLine(vec2 p, float spacing) {
  vec2 q = p / spacing;
  vec2 d = abs(fract(q - 0.5) - 0.5) / fwidth(q);
  return 1.0 - min(min(d.x, d.y), 1.0);
}

void main() {
  if (uGround == 1) {
    vec2 d = vPosition.xz - uEye.xz;
    float fade = 1.0 / (1.0 + 0.01 * dot(d, d));
    float lines = max(0.4 * gridLine(vPosition.xz, 0.1), gridLine(vPosition.xz, 1.0)) * fade;
    fragColor = vec4(mix(uColor, 0.8 * uColor, lines), 1.0);  // uColor is already display (sRGB) colour
    return;
  }
  vec3 n = normalize(vNormal);
  vec3 l = normalize(uLightDirection);
  vec3 v = normalize(uEye - vPosition);
  vec3 colour = uColor * (0.35 + 0.65 * max(dot(n, l), 0.0)) + 0.25 * pow(max(dot(n, normalize(l + v)), 0.0), 40.0);
  fragColor = vec4(sqrt(colour), 1.0);  // display gamma 2, as the cloth
}
