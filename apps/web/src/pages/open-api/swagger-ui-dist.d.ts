/** swagger-ui-dist ships no types; swagger-ui-loader.ts states the part the console uses. */
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  const SwaggerUIBundle: unknown;
  export default SwaggerUIBundle;
}
