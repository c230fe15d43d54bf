/**
 * Swagger UI, loaded only when the API document is opened: its bundle (React and all, ~1.7 MB)
 * and its stylesheet become their own chunks, so neither the login page nor the key list pays
 * for them (e2e/specs/console-weight.spec.ts). The "ES bundle" is the self-contained build; the
 * "core" one imports dozens of packages this console does not install.
 */

/** The part of Swagger UI's configuration the console uses (swagger-ui docs, "Configuration"). */
export interface SwaggerUiOptions {
  domNode: HTMLElement;
  spec: object;
  /** null: no badge from validator.swagger.io, which would be a call to another site. */
  validatorUrl: null;
  /** Empty: no "Try it out" (docs/decisions.md, "API document page"). */
  supportedSubmitMethods: string[];
  tryItOutEnabled: boolean;
  deepLinking: boolean;
  docExpansion: 'list' | 'full' | 'none';
  defaultModelsExpandDepth: number;
  /** false: plain code blocks (SwaggerView.tsx says why). */
  syntaxHighlight: false;
  filter: boolean;
  tagsSorter: (a: string, b: string) => number;
  plugins: (() => object)[];
  onComplete?: () => void;
}

export interface SwaggerUiSystem {
  getSystem(): { layoutActions: { show(path: string[], shown: boolean): void } };
}

export type SwaggerUiBundle = (options: SwaggerUiOptions) => SwaggerUiSystem;

export async function loadSwaggerUi(): Promise<SwaggerUiBundle> {
  const [bundle] = await Promise.all([
    import('swagger-ui-dist/swagger-ui-es-bundle.js'),
    import('swagger-ui-dist/swagger-ui.css'),
  ]);
  const module = bundle as { default?: SwaggerUiBundle } & SwaggerUiBundle;
  return module.default ?? module;
}
