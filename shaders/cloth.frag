#version 330 core
// Two-sided cloth: a woven checker fabric (red and white in front, then blue, green and amber for the
// further cloths of several; beige and brown on the back),
// soft wrap lighting, optional strain heat map, and with BUMP defined (a second program: a software
// rasterizer pays for derivatives and texture reads even in a branch not taken) bump mapping of
// Hadap's modulated wrinkle patterns. Kept cheap: on llvmpipe it shades much of a frame.

in vec3 vPosition;
in vec3 vNormal;
in vec2 vUv;
in float vStrain;
in vec4 vAmplitude;

uniform vec3 uEye;
uniform vec3 uLightDirection;  // towards the light, unit
uniform int uStrainMap;
uniform int uSheet;  // which cloth of several: each its own front colour

out vec4 fragColor;

#ifdef BUMP
uniform sampler2D uPattern1;  // folds across u, v, the diagonal and the anti-diagonal
uniform sampler2D uPattern2;
uniform sampler2D uPattern3;
uniform sampler2D uPattern4;
uniform float uDepth;  // pattern height range (m)
uniform float uTiles;  // pattern repeats across the cloth

// Hadap: height = depth * sum_k a_k p_k with per-vertex amplitudes a.
float wrinkleHeight() {
  vec2 p = vUv * uTiles;
  vec4 h = vec4(texture(uPattern1, p).r, texture(uPattern2, p).r, texture(uPattern3, p).r, texture(uPattern4, p).r);
  return uDepth * dot(vAmplitude, h);
}

// Perturbs n by the height field's gradient along the surface, from screen-space derivatives
// (the surface-gradient form of bump mapping, Mikkelsen 2010).
vec3 bumped(vec3 n) {
  vec3 dpdx = dFdx(vPosition), dpdy = dFdy(vPosition);
  float h = wrinkleHeight();
  float dhdx = dFdx(h), dhdy = dFdy(h);
  vec3 r1 = cross(dpdy, n), r2 = cross(n, dpdx);
  float det = dot(dpdx, r1);
  vec3 surfaceGradient = sign(det) * (dhdx * r1 + dhdy * r2);
  return normalize(abs(det) * n - surfaceGradient);
}
#endif

float pow24(float x) {  // x^24 by squaring: pow() is a log and an exp per pixel
  float x3 = x * x * x, x6 = x3 * x3, x12 = x6 * x6;
  return x12 * x12;
}

vec3 fabric(vec2 uv, bool front) {
  vec2 cell = floor(uv * 8.0);
  float check = mod(cell.x + cell.y, 2.0);
  const vec3 kFront[4] = vec3[4](vec3(0.80, 0.16, 0.14), vec3(0.16, 0.34, 0.78), vec3(0.18, 0.58, 0.28),
                                 vec3(0.86, 0.56, 0.10));
  vec3 a = front ? kFront[uSheet % 4] : vec3(0.86, 0.80, 0.66);
  vec3 b = front ? vec3(0.92, 0.88, 0.80) : vec3(0.70, 0.62, 0.50);
  vec3 base = mix(a, b, check);
  vec2 thread = abs(fract(uv * 96.0) - 0.5);  // a fine weave
  float weave = 0.9 + 0.1 * smoothstep(0.15, 0.45, max(thread.x, thread.y));
  return base * weave;
}

vec3 heat(float strain) {
  float s = clamp(strain / 0.1, -1.0, 1.0);  // +-10 % area change saturates
  vec3 neutral = vec3(0.92);
  return s < 0.0 ? mix(neutral, vec3(0.05, 0.2, 0.85), -s) : mix(neutral, vec3(0.9, 0.15, 0.05), s);
}

void main() {
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
#ifdef BUMP
  n = bumped(n);
#endif
  vec3 albedo = uStrainMap == 1 ? heat(vStrain) : fabric(vUv, gl_FrontFacing);
  vec3 l = normalize(uLightDirection);
  vec3 v = normalize(uEye - vPosition);
  float wrap = max((dot(n, l) + 0.35) / 1.35, 0.0);
  float specular = 0.12 * pow24(max(dot(n, normalize(l + v)), 0.0));
  vec3 ambient = mix(vec3(0.22, 0.21, 0.20), vec3(0.33, 0.36, 0.42), 0.5 + 0.5 * n.y);
  vec3 colour = albedo * (ambient + 0.85 * wrap) + specular;
  fragColor = vec4(sqrt(colour), 1.0);  // display gamma 2
}
