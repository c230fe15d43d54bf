// hls.js ships the light build (no subtitles, no DRM: a camera needs neither) without its own
// types entry; it is the same API as the full build.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
