#version 330 core
// The refined cloth surface.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUv;
layout(location = 3) in float aStrain;
layout(location = 4) in vec4 aAmplitude;

uniform mat4 uViewProjection;

out vec3 vPosition;
out vec3 vNormal;
out vec2 vUv;
out float vStrain;
out vec4 vAmplitude;

void main() {
  vPosition = aPosition;
  vNormal = aNormal;
  vUv = aUv;
  vStrain = aStrain;
  vAmplitude = aAmplitude;
  gl_Position = uViewProjection * vec4(aPosition, 1.0);
}
